"""Page clean-up before OCR, chosen per page from a quality estimate.

Each cleaning step is a named function from a grayscale page to a grayscale page of the same
size (so word boxes need no mapping), except `upscale`, which returns its factor. Which steps
a page gets is decided by `choose_steps` from `estimate_quality`; the thresholds and the
choice were measured on the development pages of `evals/documents_hard.py` (the CER of every
option is in docs/decisions.md, "OCR preprocessing").
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
    shading: float  # spread of the background's brightness: shadows, uneven light
    text_height: float  # median height in px of letter-sized ink blobs (0: none found)


def estimate_quality(gray: Gray) -> Quality:
    noise = float(np.mean(cv2.absdiff(gray, cv2.medianBlur(gray, 3))))
    small = cv2.resize(gray, (max(1, gray.shape[1] // 8), max(1, gray.shape[0] // 8)))
    background = cv2.dilate(small, np.ones((7, 7), np.uint8))  # ink removed: paper only
    shading = float(np.percentile(background, 95) - np.percentile(background, 5))
    return Quality(noise, shading, _text_height(gray))


def _text_height(gray: Gray) -> float:
    """Median height of the connected ink blobs that are letter-sized (not specks, not
    photos or rules): close to the text's cap height."""
    clean = cv2.medianBlur(gray, 3)
    _, ink = cv2.threshold(clean, 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    count, _, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    heights = stats[1:count, cv2.CC_STAT_HEIGHT]
    widths = stats[1:count, cv2.CC_STAT_WIDTH]
    letters = heights[(heights >= 5) & (heights <= 80) & (widths <= 3 * heights)]
    return float(np.median(letters)) if len(letters) else 0.0


def median(gray: Gray) -> Gray:
    return cv2.medianBlur(gray, 3)


def median5(gray: Gray) -> Gray:
    return cv2.medianBlur(gray, 5)


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


def unrule(gray: Gray) -> Gray:
    """Erase a table's ruling lines (and column rules): long thin runs of ink, found by
    opening the ink with a long horizontal and a long vertical bar, painted paper-white.
    Tesseract reads a rule beside a letter as part of it ("|주소", "1이름")."""
    _, ink = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    length = max(40, min(gray.shape) // 25)
    horizontal = cv2.morphologyEx(
        ink, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (length, 1))
    )
    vertical = cv2.morphologyEx(
        ink, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (1, length))
    )
    rules = cv2.dilate(cv2.bitwise_or(horizontal, vertical), np.ones((3, 3), np.uint8))
    if not rules.any():
        return gray
    paper = int(np.percentile(gray, 90))
    out = gray.copy()
    out[rules > 0] = paper
    return out


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
    "median5": median5,
    "bilateral": bilateral,
    "nlmeans": nlmeans,
    "flatten": flatten,
    "unrule": unrule,
    "otsu": otsu,
    "sauvola": sauvola,
}


def upscale_factor(quality: Quality, target: float = 0.0) -> float:
    """How much to enlarge a page whose text is small (0: keep)."""
    if not target or not quality.text_height or quality.text_height >= target:
        return 1.0
    return min(3.0, target / quality.text_height)


def choose_steps(quality: Quality) -> tuple[str, ...]:
    """The clean-up for a page of this quality. A median filter only when the page is noisy:
    on clean renders it erodes thin Hangul strokes (CER 1.4% -> 13%)."""
    return ("median",) if quality.noise > 1.5 else ()


def apply(gray: Gray, steps: tuple[str, ...]) -> Gray:
    for name in steps:
        gray = STEPS[name](gray)
    return gray
