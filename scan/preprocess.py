"""Page clean-up before OCR, chosen per page from a quality estimate.

Each cleaning step is a named function from a grayscale page to a grayscale page of the same
size (so word boxes need no mapping). Which steps a page gets is decided by `choose_steps`
from `estimate_quality`; the thresholds and the choice were measured on the development
pages of `evals/documents_hard.py` (docs/decisions.md, "OCR and masking on noisy scans").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

Gray = np.ndarray


@dataclass(frozen=True)
class Quality:
    noise: float  # mean |page - median3(page)|: speckle and grain
    impulse: float  # share of lone dark pixels (no dark neighbour): salt-and-pepper
    global_ink: float  # share of the page one global (Otsu) threshold calls ink
    shading: float  # spread of the background's brightness: shadows, uneven light
    # share of the paper's pixels (3x3 median > 200) that differ from that median by more
    # than 40 grey levels: random-valued impulse noise (pixels set to any grey), which the
    # pure black/white `impulse` does not see
    outliers: float = 0.0


def estimate_quality(gray: Gray) -> Quality:
    smooth = cv2.medianBlur(gray, 3)
    diff: np.ndarray = cv2.absdiff(gray, smooth)
    noise = float(np.mean(diff))
    # pepper: dark pixels with no neighbour darker than paper. A thin stroke of small or
    # low-resolution text has dark neighbours along it; the old measure (any pure black or
    # white pixel far from its 3x3 median) took such a page for salt-and-pepper, and its
    # median filter then erased the text (dev3-28, 110 dpi: CER 0.36)
    around = np.ones((3, 3), np.float32)
    around[1, 1] = 0
    darker = cv2.filter2D(
        (gray < 200).astype(np.float32), -1, around, borderType=cv2.BORDER_REPLICATE
    )
    impulse = float(((gray <= 60) & (darker == 0)).mean())
    small = cv2.resize(gray, (max(1, gray.shape[1] // 8), max(1, gray.shape[0] // 8)))
    background: np.ndarray = cv2.dilate(small, np.ones((7, 7), np.uint8))  # ink removed: paper only
    shading = float(np.percentile(background, 95) - np.percentile(background, 5))
    _, ink = cv2.threshold(gray, 0, 1, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    paper = smooth > 200
    outliers = float((paper & (diff > 40)).sum() / max(1, int(paper.sum())))
    return Quality(noise, impulse, float(ink.mean()), shading, outliers)


def _ink(gray: Gray) -> Gray:
    """Ink (255) against paper (0): what both a local threshold and one global (Otsu)
    threshold call ink. The local one alone keeps a shadow as paper but takes heavy grain
    for ink (rules then found in it erased text rows: dev-23 CER 0.09 -> 0.73); the global
    one alone takes the dark side of a shaded page for ink, so where it calls more than
    GLOBAL_THRESHOLD_FAILS of the page ink, the local one decides alone."""
    local = cv2.adaptiveThreshold(
        gray, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, 31, 15
    )
    _, global_ink = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    if global_ink.mean() / 255 > GLOBAL_THRESHOLD_FAILS:
        return local
    return cv2.bitwise_and(local, global_ink)


def median(gray: Gray) -> Gray:
    return cv2.medianBlur(gray, 3)


def median5(gray: Gray) -> Gray:
    return cv2.medianBlur(gray, 5)


def blur(gray: Gray) -> Gray:
    """A light (3x3) Gaussian blur: evens out grain before specks are measured and before
    Tesseract's threshold roughens every stroke's edge (grainy dev pages, speckled and
    gaussian: CER 0.19 -> 0.16 and 0.09 -> 0.07, WER 0.74 -> 0.54 and 0.35 -> 0.21)."""
    return cv2.GaussianBlur(gray, (3, 3), 0)


# How far from larger ink a small blob still counts as part of the text, in letter heights
# (the median blob height, about 0.6 of the font size: Hangul breaks into jamo): the whole
# width and height of the window around each larger blob. A colon or a comma stands up to
# half a letter beside its word; a window 0.6 letters square painted them out with the
# specks ("Name: 서하은" read "Name 서하은"). On the 26 grainy pages of dev2-dev4, CER/WER:
# 0.6 x 0.6 0.094 / 0.317; 1.2 x 0.6 0.083 / 0.257; 1.6 x 0.8 0.081 / 0.249; 1.6 x 1.0
# 0.074 / 0.239; 1.6 x 1.2 0.082 / 0.257; 2.0 x 0.8 0.084 / 0.241; 2.4 x 0.6 0.085 / 0.244.
SPECK_REACH = (1.6, 1.0)  # (across, up and down)


# A dot: a solid (this share of its box inked), roughly round blob at most this many letters
# across. Specks up to 4-5 px wide on a 150 dpi page are larger than the 0.3-letter square
# that made a blob small, and away from text Tesseract read them as words ("eee", "pei eae
# peas"). On the 17 speckled pages of dev3-dev6 (CER / WER): small blobs only 0.116 / 0.409;
# small up to 0.4 letters 0.088 / 0.295; dots up to 0.5 letters 0.085 / 0.282; 0.6 0.084 /
# 0.275; 0.7 0.084 / 0.272; 0.8 0.092 / 0.295. The 18 gaussian-noise pages 0.0277 / 0.0899
# -> 0.0300 / 0.0911 at 0.6 (two pages a little worse).
DOT_MAX = 0.6
DOT_FILL = 0.5
DOT_ASPECT = (0.5, 2.0)
# A small blob or dot near kept ink is kept, and so, up to this many steps, one near that:
# "1******" of a masked number is a row of dots longer than the reach of the digits (dev3-09,
# dev5-00 lost the last ones). 35 grainy pages of dev3-dev6, CER / WER: 0.0535 / 0.1764 ->
# 0.0485 / 0.1643 (speckled pages mixed, gaussian ones better).
DOT_CHAIN = 6


def despeckle(gray: Gray) -> Gray:
    """Paint out specks: ink blobs much smaller than a letter, or dots (`DOT_MAX`), that lie
    away from any larger ink (a colon, a comma or the dot of an i sits beside its letters
    and stays), or from a row of such blobs that reaches it (`DOT_CHAIN`)."""
    ink = _ink(gray)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    if count < 2:
        return gray
    areas = stats[:, cv2.CC_STAT_AREA]
    box_h, box_w = stats[:, cv2.CC_STAT_HEIGHT], stats[:, cv2.CC_STAT_WIDTH]
    heights: np.ndarray = box_h[1:]
    letter = float(np.median(heights[heights >= 6])) if (heights >= 6).any() else 12.0
    aspect = box_w / np.maximum(1, box_h)
    dots = (
        (areas >= DOT_FILL * np.maximum(1, box_h * box_w))
        & (aspect >= DOT_ASPECT[0])
        & (aspect <= DOT_ASPECT[1])
        & (np.maximum(box_h, box_w) <= DOT_MAX * letter)
    )
    small = (areas <= max(6.0, (0.3 * letter) ** 2)) | dots
    small[0] = False
    kept = ((~small)[labels] & (labels > 0)).astype(np.uint8)
    tiny = small[labels].astype(np.uint8)
    window = np.ones(tuple(max(3, int(letter * r)) for r in SPECK_REACH[::-1]), np.uint8)
    for _ in range(1 + DOT_CHAIN):
        near = cv2.dilate(kept, window)
        grown = kept | (tiny & near)
        if np.array_equal(grown, kept):
            break
        kept = grown
    specks = (tiny > 0) & (near == 0)
    out = gray.copy()
    out[specks] = int(np.percentile(gray, 90))
    return out


# A letter's blob, in median blob heights (Hangul breaks into jamo): what skew is measured on.
# A photo, a rule or a shadow's edge is no line of text, and a speck lies on no row.
SKEW_LETTER = (0.3, 2.5)  # height, least and most
SKEW_LETTER_WIDTH = 4.0  # at most


def _letters(ink: np.ndarray) -> np.ndarray:
    """The blobs of `ink` (uint8 0/1) of a letter's size, as float32 0/1."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    heights: np.ndarray = stats[1:, cv2.CC_STAT_HEIGHT]
    widths = stats[1:, cv2.CC_STAT_WIDTH]
    tall = heights[heights >= 4]
    letter = float(np.median(tall)) if len(tall) else 8.0
    low, high = SKEW_LETTER
    keep = np.zeros(count, bool)
    keep[1:] = (
        (heights >= low * letter)
        & (heights <= high * letter)
        & (widths <= SKEW_LETTER_WIDTH * letter)
    )
    return keep[labels].astype(np.float32)


def deskew_angle(gray: Gray, limit: float = 4.0, step: float = 0.25) -> float:
    """The page's skew in degrees (counter-clockwise positive, as PIL rotates): the angle
    whose rotation makes the rows of letters sharpest, searched on a copy at most 800 px
    wide. Sharpness is the variance of the row sums of each half of the page, added: the
    two columns of a page need not share their rows. Only blobs of a letter's size count,
    on ink thresholded after the paper's shading is divided out (`ink`).

    The whole page's ink once decided it (Otsu, or a local threshold on a shaded page): a
    gradient's dark side was ink and tipped a straight page by 4.25 degrees (dev6-02), and
    a photo, specks or two columns off by half a line each misled it on 9 of 160 dev3-dev6
    pages by 0.5-1.5 degrees. Mean error from the generator's skew 0.144 -> 0.046 degrees,
    none off by 0.5 or more."""
    small = (
        gray
        if gray.shape[1] <= 800
        else cv2.resize(
            gray, None, fx=800 / gray.shape[1], fy=800 / gray.shape[1], interpolation=cv2.INTER_AREA
        )
    )
    letters = _letters(ink(cv2.medianBlur(small, 3)).astype(np.uint8))
    h, w = letters.shape

    def sharpness(angle: float) -> float:
        matrix = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
        turned = cv2.warpAffine(letters, matrix, (w, h), flags=cv2.INTER_NEAREST)
        halves = (turned[:, : w // 2], turned[:, w // 2 :])
        return float(sum(np.var(half.sum(axis=1)) for half in halves))

    coarse = max(np.arange(-limit, limit + step / 2, step), key=lambda a: sharpness(float(a)))
    fine = np.arange(coarse - step, coarse + step + 0.01, 0.05)  # then to a twentieth of a degree
    best = float(max(fine, key=lambda a: sharpness(float(a))))
    return -best


def bilateral(gray: Gray) -> Gray:
    return cv2.bilateralFilter(gray, 5, 40, 5)


def nlmeans(gray: Gray) -> Gray:
    return cv2.fastNlMeansDenoising(gray, None, h=12, templateWindowSize=7, searchWindowSize=15)


def flatten(gray: Gray) -> Gray:
    """Divide by the paper's own brightness (ink closed away), so a shadow or a gradient
    becomes white paper again."""
    size = max(15, (min(gray.shape) // 40) | 1)
    paper = cv2.morphologyEx(
        gray, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (size, size))
    )
    return cv2.divide(gray, paper, scale=255)


def ink(gray: Gray) -> np.ndarray:
    """The page's ink as a boolean mask: one Otsu threshold once the paper's shading is
    divided out (`flatten`). Otsu alone, on a page with a shadow or a vignette that the
    clean-up left in (only a strong one is binarised locally), called the dark side's paper
    ink: a name's box fitted to that ink grew over the paper beside it (dev5-16, dev5-27)."""
    return cv2.threshold(flatten(gray), 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)[1] > 0


# A rule drawn light grey, anti-aliased and a little slanted reads 124-188 along its length
# (dev3-39), across Otsu's 170: its ink broke into pieces no opening found. Faint ink is what
# is darker than this once the paper is flattened (so a shadow stays paper).
FAINT_RULE = 215


def unrule(gray: Gray) -> Gray:
    """Erase a table's ruling lines (and column rules): long thin runs of ink, found by
    opening the ink with a long horizontal and a long vertical bar, painted paper-white.
    Tesseract reads a rule beside a letter as part of it ("|주소", "1이름")."""
    length = max(40, min(gray.shape) // 25)
    # a vertical rule is taken only at twice that: a large title's upright strokes (the "ㅣ"
    # of "이력서" at 70 px) are as long as the shorter one and were erased with the rules
    return _rules_erased(gray, length, max(length, min(gray.shape) // 12))


# Once a page is turned upright: a column rule is an upright run this share of the page's
# height at least (a photo's edges, which tell a photo from text, are far shorter).
COLUMN_RULE_MIN = 0.25


def column_rules_erased(gray: Gray) -> Gray:
    """Erase upright rules as long as a column (`COLUMN_RULE_MIN`): on a page skewed by 2
    degrees or more a faint column rule breaks into pieces `unrule` does not find before
    the page is turned (dev6-26: each line of the right column began with "|")."""
    return _rules_erased(gray, None, int(COLUMN_RULE_MIN * gray.shape[0]))


def _rules_erased(gray: Gray, length: int | None, tall: int) -> Gray:
    """`gray` with horizontal runs of ink `length` long (none when None) and upright ones
    `tall` long painted paper-white."""
    ink = _ink(gray)
    horizontal = np.zeros_like(ink)
    if length is not None:
        horizontal = cv2.morphologyEx(
            ink, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (length, 1))
        )
    # Upright rules are looked for in faint ink too (FAINT_RULE), widened by a pixel each
    # side, so a rule on a page skewed by up to about 1.5 degrees (unrule runs before the
    # deskew) is one unbroken run: at 0.9 degrees a one-pixel rule moves a column every 65
    # rows, and its pieces were all shorter than `tall` (dev3-39: "|" in eight lines).
    faint = (flatten(gray) < FAINT_RULE).astype(np.uint8) * 255
    widened = cv2.dilate(cv2.bitwise_or(ink, faint), np.ones((1, 3), np.uint8))
    vertical = cv2.morphologyEx(
        widened, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (1, tall))
    )
    rules = cv2.dilate(cv2.bitwise_or(horizontal, vertical), np.ones((3, 3), np.uint8))
    if not rules.any():
        return gray
    paper = int(np.percentile(gray, 90))
    out = gray.copy()
    out[rules > 0] = paper
    return out


def adaptive(gray: Gray) -> Gray:
    """Black ink on white paper by the local threshold (`_ink`): Tesseract's own global
    threshold loses the dark side of a strongly shaded page."""
    return 255 - _ink(gray)


def otsu(gray: Gray) -> Gray:
    return cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)[1]


def sauvola(gray: Gray, window: int = 31, k: float = 0.2, r: float = 128.0) -> Gray:
    """Sauvola's local threshold: T = mean * (1 + k * (std / r - 1)) over a window."""
    img = gray.astype(np.float32)
    mean = cv2.boxFilter(img, -1, (window, window))
    sq = cv2.boxFilter(img * img, -1, (window, window))
    std = np.sqrt(np.maximum(sq - mean * mean, 0))
    threshold = mean * (1 + k * (std / r - 1))
    return np.where(img > threshold, 255, 0).astype(np.uint8)


STEPS: dict[str, Callable[[Gray], Gray]] = {
    "median": median,
    "blur": blur,
    "despeckle": despeckle,
    "median5": median5,
    "bilateral": bilateral,
    "nlmeans": nlmeans,
    "flatten": flatten,
    "unrule": unrule,
    "otsu": otsu,
    "adaptive": adaptive,
    "sauvola": sauvola,
}


def choose_steps(quality: Quality) -> tuple[str, ...]:
    """The clean-up for a page of this quality, as measured on the development pages
    (docs/decisions.md "OCR on noisy scans"): table and column rules are always erased (CER
    0.265 -> 0.223, PII recall 0.66 -> 0.82); a median filter only for salt-and-pepper (it
    halves that CER but triples it on gaussian noise, JPEG and small text, which it blurs);
    on grainy pages a light blur, then lone specks painted out; a local threshold where a
    global one fails."""
    steps: list[str] = []
    if quality.impulse > IMPULSE_NOISE:
        steps.append("median")
    elif quality.noise > GRAINY:
        steps += ["blur", "despeckle"]
    elif quality.outliers > RANDOM_IMPULSES:
        steps.append("median")  # grey impulses on paper: the tuning and held-out noise pages
    steps.append("unrule")
    if quality.global_ink > GLOBAL_THRESHOLD_FAILS:
        steps.append("adaptive")
    return tuple(steps)


# lone dark pixels: every salt-and-pepper page of dev, dev2 and dev3 >= 0.0025, every other
# page (small and 100-150 dpi text, JPEG, speckle, the older sets) <= 0.000002
IMPULSE_NOISE = 0.0005
# A resume page is 2-5% ink. When one global threshold (Tesseract's own) calls 30% of it ink,
# a shadow has taken the dark side: binarise locally first (dev-28: CER 0.88 -> 0.19).
GLOBAL_THRESHOLD_FAILS = 0.30
GRAINY = 5.0  # dev: speckled and gaussian pages 7-13, every other page <= 3.6
# Grey impulses (1 in 12 pixels moved by up to +-100, the older sets' "noise" pages): 0.025
# of the paper; every dev page that is not grainy <= 0.0124 (grainy ones go to despeckle
# first). A median takes those pages' CER from 0.34-0.41 to 0.02-0.06 (two of them measured).
RANDOM_IMPULSES = 0.018


def apply(gray: Gray, steps: tuple[str, ...]) -> Gray:
    for name in steps:
        gray = STEPS[name](gray)
    return gray
