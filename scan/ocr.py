"""Tesseract OCR (Korean + English): page text and word boxes."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise

import cv2
import numpy as np
from PIL import Image

from scan.glyphs import (
    marks_named,
    marks_spaced,
    spans_removed,
    titles_spaced,
    word_spans,
)
from scan.preprocess import GLOBAL_THRESHOLD_FAILS, adaptive, flatten
from scan.script_reread import korean_reread, latin_reread
from scan.strays import addresses_joined, strays_dropped
from scan.tesseract import OcrEngineError, read_page
from scan.words import Reading, Word, is_hangul, word_height

COLUMN_GAP = 2.0  # a gap wider than this many word heights separates columns


def gap_after(words: list[Word], i: int) -> int:
    """Pixels between word i and the next."""
    return words[i + 1].box[0] - words[i].box[2] if i + 1 < len(words) else 0


def segments(words: list[Word]) -> list[list[int]]:
    """Indexes of a line's words, cut where the gap between two words is a column gap."""
    height = word_height(words)
    segments = [[0]]
    for i in range(1, len(words)):
        if gap_after(words, i - 1) > COLUMN_GAP * height:
            segments.append([])
        segments[-1].append(i)
    return segments


def two_columns(reading: Reading, width: int) -> bool:
    """Tesseract's one-block reading ran across two columns of text: many of its lines have
    a column gap, and the text after it starts at about the same x (between 30% and 75%
    of the page). Such a page is read again with layout analysis (PSM 3), which keeps each
    column's lines together (CER 0.28 -> 0.04 on dev two-column pages)."""
    starts, gapped = [], 0
    for words in reading.line_words:
        parts = segments(words)
        gapped += len(parts) >= 2
        starts += [words[p[0]].box[0] for p in parts[1:]]
        if words[0].box[0] > 0.3 * width:  # a line of the right column alone
            starts.append(words[0].box[0])
    if gapped < 3 or len(starts) < 0.3 * len(reading.line_words):
        return False
    middle = sorted(starts)[len(starts) // 2]
    aligned = sum(abs(x - middle) <= 0.03 * width for x in starts)
    return 0.30 * width <= middle <= 0.75 * width and aligned >= 0.6 * len(starts)


# A second look (measured on the development pages, docs/decisions.md "OCR second look"):
# a line Tesseract is unsure of is cut out, enlarged and read again as one line; the reading
# with the higher mean word confidence is kept.
SECOND_LOOK_CONF = 0.80
SECOND_LOOK_SCALE = 2
SECOND_LOOK_MAX_LINES = 8  # a bad page is re-read only where it is worst (time per page)
_JAMO = re.compile(r"[\u3131-\u318e]")  # lone jamo: Hangul that is not a syllable


def _mean_confidence(words: list[Word]) -> float:
    return sum(w.confidence for w in words) / len(words) if words else 0.0


def doubtful(words: list[Word]) -> bool:
    return _mean_confidence(words) < SECOND_LOOK_CONF or any(_JAMO.search(w.text) for w in words)


def second_look(image: Image.Image, reading: Reading) -> Reading:
    """`reading` with its doubtful lines re-read from an enlarged crop where that reading is
    more confident. Word boxes of a re-read line are mapped back to `image`'s pixels."""
    lines, line_words = list(reading.lines), list(reading.line_words)
    todo = sorted(
        (i for i, words in enumerate(line_words) if doubtful(words)),
        key=lambda i: _mean_confidence(line_words[i]),
    )[:SECOND_LOOK_MAX_LINES]
    for i in todo:
        words = line_words[i]
        height = max(w.box[3] - w.box[1] for w in words)
        pad = max(4, height // 3)
        x1 = max(0, min(w.box[0] for w in words) - pad)
        y1 = max(0, min(w.box[1] for w in words) - pad)
        x2 = min(image.width, max(w.box[2] for w in words) + pad)
        y2 = min(image.height, max(w.box[3] for w in words) + pad)
        crop = image.crop((x1, y1, x2, y2)).convert("L")
        gray = np.asarray(crop)
        if _otsu_ink(gray).mean() / 255 > GLOBAL_THRESHOLD_FAILS:
            # one threshold fails on this part of a shaded page, as it can on a whole page
            crop = Image.fromarray(adaptive(gray))
        crop = crop.resize(
            (crop.width * SECOND_LOOK_SCALE, crop.height * SECOND_LOOK_SCALE),
            Image.Resampling.LANCZOS,
        )
        try:
            again = read_page(crop, psm=7)
        except OcrEngineError:  # Tesseract dies (SIGFPE) on some slivers: keep the first look
            continue
        if not again.line_words or _mean_confidence(again.words) <= _mean_confidence(words):
            continue
        k = SECOND_LOOK_SCALE
        line_words[i] = [
            Word(
                w.text,
                (
                    x1 + w.box[0] // k,
                    y1 + w.box[1] // k,
                    x1 + -(-w.box[2] // k),
                    y1 + -(-w.box[3] // k),
                ),
                w.confidence,
                words[0].line,
            )
            for w in again.words
        ]
        lines[i] = " ".join(again.lines)
    return Reading(lines, line_words)


COLUMNS_FROM_IMAGE = True
BLANK_PHOTOS = True
SECOND_LOOK = True  # dev (16 pages): PII recall 0.908 -> 0.929, CER 0.197 -> 0.188


@dataclass(frozen=True)
class Gutter:
    """An empty vertical band between two columns of text: at `x`, from `top` to `bottom`."""

    x: int
    top: int
    bottom: int


GUTTER_SPAN = (0.30, 0.70)  # where a gutter may lie, in page widths
GUTTER_HALF_WIDTH = 0.4  # letter heights each side of x that no text may touch
GUTTER_MIN_HEIGHT = 0.25  # page heights the band stays empty
GUTTER_MIN_TEXT = 4  # letter heights of text rows each side of the band
GUTTER_MIN_BALANCE = 0.2  # the lesser side's text ink to the greater's (dev: 0.41-0.75;
# salt-and-pepper beside a one-column page's short lines 0.06)
GUTTER_MIN_LINES = 4  # and as many lines of text at least (a photo's bits are one or two)


# on a page whose paper is made white (`flatten`): a fixed threshold, since Otsu's, pulled
# down by a dark photo, loses light grey text
TEXT_INK_BELOW = 180
PHOTO_MAX_SHARE = 0.15
PHOTO_MIN_DENSITY = 0.2  # of its box that a photo's ink fills


def _otsu_ink(gray: np.ndarray) -> np.ndarray:
    blurred = cv2.GaussianBlur(gray, (3, 3), 0)
    return cv2.threshold(blurred, 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)[1]


Box = tuple[int, int, int, int]


def text_ink(gray: np.ndarray) -> tuple[np.ndarray, int, list[Box]]:
    """Ink that is part of text (a boolean mask), the letter height in pixels and the boxes
    of photos (a letter height beyond their outline). Text is the page's connected ink
    components that are glyph-sized, thresholded once the paper's shading is divided out
    (one global threshold loses the light side of a shaded page). Specks, salt-and-pepper,
    rules and whatever lies in or at a photo's outline (found also without that division,
    which breaks a photo into glyph-sized bits) are left out, so a noisy gutter stays
    empty."""
    flat = cv2.GaussianBlur(flatten(gray), (3, 3), 0)
    ink = cv2.threshold(flat, TEXT_INK_BELOW, 255, cv2.THRESH_BINARY_INV)[1]
    count, labels, stats, centres = cv2.connectedComponentsWithStats(ink, connectivity=8)
    heights = stats[1:, cv2.CC_STAT_HEIGHT]
    widths = stats[1:, cv2.CC_STAT_WIDTH]
    tall = heights[(heights >= 6) & (stats[1:, cv2.CC_STAT_AREA] >= 30)]  # not noise
    letter = int(np.median(tall.astype(float))) if tall.size else 12
    keep = np.zeros(count, bool)
    keep[1:] = (
        (heights >= max(4, 0.35 * letter)) & (heights <= 2.5 * letter) & (widths <= 4 * letter)
    )
    # a photo is found both in the shading-free ink (whose division leaves a photo's edge)
    # and in Otsu's ink (which keeps it whole but also takes a shadow: not over 15% of a page)
    # Otsu's ink that touches the page's edge is a shadow's dark side, not a photo: a
    # vignette's corner (dev6-27) was painted out with the name, phone and e-mail in it
    _, _, whole, _ = cv2.connectedComponentsWithStats(_otsu_ink(gray), connectivity=8)
    page_h, page_w = gray.shape
    inside = [
        (x, y, bw, bh, area)
        for x, y, bw, bh, area in whole[1:]
        if x > 0 and y > 0 and x + bw < page_w and y + bh < page_h
    ]
    photos: list[Box] = []
    for x, y, bw, bh, area in [*stats[1:], *inside]:
        if (
            bw > 4 * letter
            and bh > 4 * letter
            and bw * bh <= PHOTO_MAX_SHARE * gray.size
            and area >= PHOTO_MIN_DENSITY * bw * bh  # not what is left of a table's rules
        ):
            photos.append(
                (int(x - letter), int(y - letter), int(x + bw + letter), int(y + bh + letter))
            )
            keep &= ~_within(centres, photos[-1])
    return keep[labels], max(6, letter), photos


def _within(points: np.ndarray, box: Box) -> np.ndarray:
    return (
        (points[:, 0] >= box[0])
        & (points[:, 0] < box[2])
        & (points[:, 1] >= box[1])
        & (points[:, 1] < box[3])
    )


def gutter(image: Image.Image) -> Gutter | None:
    """The gutter of a page set in two columns, found in the image (not in what OCR made of
    it, which noise garbles): among the x between GUTTER_SPAN whose band of text-free pixels
    runs down a long stretch of the page with text on both sides of it, the middle one of
    those with the most text beside them. None for a page of one column (lines there cross
    every such band)."""
    text, letter, _ = text_ink(np.asarray(image.convert("L")))
    return gutter_in(text, letter)


def gutter_in(text: np.ndarray, letter: int) -> Gutter | None:
    """`gutter` from the page's `text_ink`."""
    h, w = text.shape
    half = max(3, round(GUTTER_HALF_WIDTH * letter))
    # text per row left of, inside and right of each candidate band, by cumulative sums
    cols = np.concatenate([np.zeros((h, 1), np.int32), np.cumsum(text, axis=1, dtype=np.int32)], 1)
    found: list[tuple[int, Gutter]] = []
    for x in range(int(GUTTER_SPAN[0] * w), int(GUTTER_SPAN[1] * w), max(1, letter // 4)):
        inside = cols[:, min(w, x + half)] - cols[:, max(0, x - half)]
        empty = np.concatenate([[False], inside == 0, [False]])
        edges = np.flatnonzero(np.diff(empty.astype(np.int8)))
        starts, ends = edges[::2], edges[1::2]
        if not starts.size:
            continue
        k = int(np.argmax(ends - starts))
        top, bottom = int(starts[k]), int(ends[k])
        if bottom - top < GUTTER_MIN_HEIGHT * h:
            continue
        left = (cols[top:bottom, x] - cols[top:bottom, 0]) > 0
        right = (cols[top:bottom, w] - cols[top:bottom, x]) > 0
        score = int(min(left.sum(), right.sum()))
        if score < GUTTER_MIN_TEXT * letter or min(_runs(left), _runs(right)) < GUTTER_MIN_LINES:
            continue
        ink_left = int(cols[top:bottom, x].sum() - cols[top:bottom, 0].sum())
        ink_right = int(cols[top:bottom, w].sum() - cols[top:bottom, x].sum())
        if min(ink_left, ink_right) < GUTTER_MIN_BALANCE * max(ink_left, ink_right):
            continue
        found.append((score, Gutter(x, top, bottom)))
    if not found:
        return None
    most = max(score for score, _ in found)
    best = [cut for score, cut in found if score == most]  # the middle of the widest gutter
    return _gutter_cut(best[len(best) // 2], text, letter)


def _runs(rows: np.ndarray) -> int:
    """Runs of True in a row mask: lines of text."""
    return int(np.count_nonzero(np.diff(np.concatenate([[0], rows.astype(np.int8)])) == 1))


def _gutter_cut(cut: Gutter, text: np.ndarray, letter: int) -> Gutter:
    """`cut` with its top and bottom moved to the nearest row free of text across the whole
    page, within two letter heights, so no line is cut through."""
    rows = np.asarray(text.any(axis=1))

    def free(y: int, step: int) -> int:
        for d in range(0, 2 * letter):
            yy = y + step * d
            if 0 <= yy < len(rows) and not rows[yy]:
                return yy
        return y

    return Gutter(cut.x, free(cut.top, 1), free(cut.bottom - 1, -1) + 1)


COLUMN_PAD = 12  # white pixels around a column's crop (Tesseract misreads text at an edge)


def read_columns(image: Image.Image, cut: Gutter) -> Reading:
    """A two-column page read region by region, each as one block (PSM 6): the full width
    above the gutter, the left column, the right column, the full width below; word boxes
    mapped back to the page. A region that one global threshold would mostly call ink (the
    dark side of a shadow) is binarised locally first, as a whole page is (`preprocess`)."""
    w, h = image.size
    regions = [
        (0, 0, w, cut.top),
        (0, cut.top, cut.x, cut.bottom),
        (cut.x, cut.top, w, cut.bottom),
        (0, cut.bottom, w, h),
    ]
    lines: list[str] = []
    line_words: list[list[Word]] = []
    for x1, y1, x2, y2 in regions:
        if x2 - x1 < 8 or y2 - y1 < 8:
            continue
        crop = image.crop((x1, y1, x2, y2)).convert("L")
        gray = np.asarray(crop)
        if _otsu_ink(gray).mean() / 255 > GLOBAL_THRESHOLD_FAILS:
            # one threshold fails on this part of a shaded page, as it can on a whole page
            crop = Image.fromarray(adaptive(gray))
        framed = Image.new(
            crop.mode, (crop.width + 2 * COLUMN_PAD, crop.height + 2 * COLUMN_PAD), "white"
        )
        framed.paste(crop, (COLUMN_PAD, COLUMN_PAD))
        part = read_page(framed)
        dx, dy = x1 - COLUMN_PAD, y1 - COLUMN_PAD
        for text, words in zip(part.lines, part.line_words, strict=True):
            lines.append(text)
            line_words.append(
                [
                    Word(
                        wd.text,
                        (wd.box[0] + dx, wd.box[1] + dy, wd.box[2] + dx, wd.box[3] + dy),
                        wd.confidence,
                        wd.line,
                    )
                    for wd in words
                ]
            )
    return Reading(lines, _numbered(line_words))


def read_scan(image: Image.Image) -> Reading:
    """A scanned page as one block (PSM 6: best on one-column resumes). A page whose image
    shows two columns (`gutter`) is read column by column; a page that turns out from its
    reading to hold two columns all the same is read again with layout analysis (PSM 3),
    with what only the first reading found added to it. Then, when on, a second look at its
    unsure lines. Words read in the wrong script (Latin as digits, Korean as Latin letters
    or digits) are read again by one language's model (`script_reread`); specks read as
    punctuation are dropped (`strays_dropped`) and addresses cut at "@" joined
    (`addresses_joined`); a mark written joined to a word it stands apart from is set
    apart (`marks_spaced`), and a letter-spaced title is read spaced (`titles_spaced`)."""
    reading = korean_reread(image, latin_reread(image, _read_scan(*_laid_out(image))))
    if STRAYS_DROPPED:
        reading = addresses_joined(strays_dropped(reading))
    return titles_spaced(image, marks_spaced(reading))


def readings_to_mask(image: Image.Image) -> list[Reading]:
    """What masking reads a scanned page from: `read_scan`'s reading and, for a page read
    column by column or with a photo painted out, the plain page read as one block too. A
    value garbled in one is often read in the other (on heavy speckle the column crops lost
    a name and an e-mail that the whole page kept; a page without its photo now and then
    reads a table's name row worse), and masking takes what either finds."""
    blanked, cut = _laid_out(image)
    first = _read_scan(blanked, cut)
    if cut is None and blanked is image:
        return [first]
    return [first, rows_joined(read_page(image))]


def _laid_out(image: Image.Image) -> tuple[Image.Image, Gutter | None]:
    """The page with its photos painted paper-white (what Tesseract makes of a photo is
    junk: "AY | HAS", and it garbles the lines beside it), and its gutter if it has one."""
    gray = np.asarray(image.convert("L"))
    text, letter, photos = text_ink(gray)
    cut = gutter_in(text, letter) if COLUMNS_FROM_IMAGE else None
    if not (BLANK_PHOTOS and photos):
        return image, cut
    out = gray.copy()
    paper = int(np.percentile(gray, 90))
    for x1, y1, x2, y2 in photos:
        out[max(0, y1) : max(0, y2), max(0, x1) : max(0, x2)] = paper
    return Image.fromarray(out), cut


STRAYS_DROPPED = True  # OCR text only: masking reads `_read_scan`'s words
MARKS_NAMED = True  # bullets and arrows read from their shape (glyphs.py)
SPECKS_DROPPED = True
KEEP_SPACING = True  # a line that loses words keeps Tesseract's spacing (`_words_kept`)
SPECK_MAX_CHARS = 2  # letters or digits in each word of a speck's segment, at most
SPECK_MAX_CONF = 0.6


def _speck(words: list[Word]) -> bool:
    """A segment (`segments`) that is what OCR made of specks: marks only, or words of a
    letter or two read with little confidence ("ce", "5", ";" far right of a line)."""
    letters = [sum(c.isalnum() for c in w.text) for w in words]
    if not any(letters):
        return True
    return max(letters) <= SPECK_MAX_CHARS and _mean_confidence(words) < SPECK_MAX_CONF


def _words_kept(reading: Reading, keep: Callable[[int, list[Word]], list[Word]]) -> Reading:
    """`reading` with each line's words cut down to `keep(line index, words)` (in order); a
    line whose words all stay keeps Tesseract's text, a changed one keeps it without the
    dropped words (`spans_removed`; rebuilt from its words when they do not line up with
    it), and a line left with nothing is dropped. The same reading when nothing changed."""
    lines, line_words = [], []
    changed = False
    for n, (text, words) in enumerate(zip(reading.lines, reading.line_words, strict=True)):
        kept = keep(n, words)
        if len(kept) == len(words):
            lines.append(text)
            line_words.append(words)
            continue
        changed = True
        if kept:
            spans = word_spans(text, words) if KEEP_SPACING else None
            if spans is None:
                lines.append(text_of(kept))
            else:
                ids = {id(w) for w in kept}
                gone = [span for span, w in zip(spans, words, strict=True) if id(w) not in ids]
                lines.append(spans_removed(text, gone))
            line_words.append(kept)
    return Reading(lines, _numbered(line_words)) if changed else reading


def without_specks(reading: Reading) -> Reading:
    """`reading` without the segments of its lines that are specks read as text (a speckled
    page gave lines like "연락처 010-4748 8690      나   é   see oF   ."): they cost CER and
    use up the second look. A line left with nothing is dropped."""

    def keep(_: int, words: list[Word]) -> list[Word]:
        parts = [[words[i] for i in part] for part in segments(words)]
        return [w for part in parts if not _speck(part) for w in part]

    return _words_kept(reading, keep)


FRAGMENT_INSIDE = 0.8  # of a word's box within another line's word: a piece of that word


def without_fragments(reading: Reading) -> Reading:
    """`reading` without the words that lie inside a word of another line: Tesseract now and
    then reads the top of a large bold title's syllable as a line of its own above it ("으"
    or "우" from the ㅇ of "원" in "입사지원서", dev5-02, -09, -20). A line left with nothing
    is dropped."""
    boxes = [(n, w.box) for n, words in enumerate(reading.line_words) for w in words]

    def inside_another(n: int, word: Word) -> bool:
        area = max(1, (word.box[2] - word.box[0]) * (word.box[3] - word.box[1]))
        return any(m != n and _overlap(word.box, b) >= FRAGMENT_INSIDE * area for m, b in boxes)

    return _words_kept(reading, lambda n, words: [w for w in words if not inside_another(n, w)])


def _read_scan(image: Image.Image, cut: Gutter | None) -> Reading:
    if cut is not None:
        reading = read_columns(image, cut)
    else:
        reading = read_page(image)
        if two_columns(reading, image.width):
            by_layout = read_page(image, psm=3)
            if by_layout.lines:
                reading = filled_from(by_layout, reading)
    reading = rows_joined(without_specks(reading) if SPECKS_DROPPED else reading)
    reading = without_fragments(reading)
    if SECOND_LOOK:
        reading = second_look(image, reading)
    if UNREAD_LOOK:
        reading = read_unread_ink(image, reading)
    return marks_named(image, reading) if MARKS_NAMED else reading


ROW_OVERLAP = 0.7  # of the lower line's height: two lines share a row
ROW_GAP = 1.0  # line heights: two lines of one row this close are one line
ROW_FRAGMENT_WORDS = 2  # only fragments are joined: lines of at most this many words
ROW_FRAGMENT_WIDTH = 6  # line heights: and together about a name's width at most


def _extent(words: list[Word]) -> tuple[int, int, int, int]:
    return (
        min(w.box[0] for w in words),
        min(w.box[1] for w in words),
        max(w.box[2] for w in words),
        max(w.box[3] for w in words),
    )


def rows_joined(reading: Reading) -> Reading:
    """`reading` with fragments of one word that Tesseract split into lines joined: short
    lines sharing a row and touching or nearly touching side by side ("한:" and "Hor", read
    from "한훈" as two lines, then read again as one by the second look). Longer lines and
    lines of the same row in another column stay apart (joining every line of a row joined
    photo and rule junk to the fields: dev recall 0.996 -> 0.974)."""
    line_words = [list(ws) for ws in reading.line_words]
    lines = list(reading.lines)
    joined = False
    i = 0
    while i < len(line_words):
        j = i + 1
        while j < len(line_words):
            a, b = _extent(line_words[i]), _extent(line_words[j])
            low = min(a[3] - a[1], b[3] - b[1])
            shared = min(a[3], b[3]) - max(a[1], b[1])
            gap = max(a[0], b[0]) - min(a[2], b[2])
            short = len(line_words[i]) <= ROW_FRAGMENT_WORDS >= len(line_words[j])
            narrow = max(a[2], b[2]) - min(a[0], b[0]) <= ROW_FRAGMENT_WIDTH * low
            if short and narrow and low > 0 and shared >= ROW_OVERLAP * low and gap < ROW_GAP * low:
                merged = sorted([*line_words[i], *line_words[j]], key=lambda w: w.box[0])
                line_words[i] = merged
                lines[i] = text_of(merged)
                del line_words[j], lines[j]
                joined = True
            else:
                j += 1
        i += 1
    return Reading(lines, _numbered(line_words)) if joined else reading


# Text OCR did not read at all: Tesseract now and then drops a whole line of a page's header
# (a bare name under the title, a table's first rows on a skewed page) or the end of a line
# ("성" of "성명: 오도윤"). Runs of glyph-sized ink in the header that no word covers are cut
# out and read as one line each; a reading with some confidence joins the line it continues
# or becomes a line of its own.
UNREAD_LOOK = True
UNREAD_SHARE = 0.35  # the top of the page where the personal fields are
UNREAD_MAX_RUNS = 6
UNREAD_MIN_CONF = 0.6
UNREAD_JOIN = 5  # a run this many of its heights from a line's word continues that line
_GLYPH = (0.3, 1.8)  # a component's height in word heights to be a glyph or part of one


def unread_ink(image: Image.Image, reading: Reading) -> list[tuple[int, int, int, int]]:
    """Boxes of runs of glyph-sized ink in the page's header that no word covers, widest
    first, each at least a syllable wide and about a line high."""
    words = reading.words
    if not words:
        return []
    height = word_height(words)
    bottom = int(image.height * UNREAD_SHARE)
    gray = np.array(image.convert("L"))[:bottom]
    _, ink = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    pad = max(2, height // 6)
    for w in words:
        x1, y1, x2, y2 = w.box
        ink[max(0, y1 - pad) : y2 + pad, max(0, x1 - pad) : x2 + pad] = 0
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    keep = np.zeros(count, bool)
    for i in range(1, count):
        _, _, w, h, area = stats[i]
        keep[i] = (
            _GLYPH[0] * height <= h <= _GLYPH[1] * height
            and w <= 2 * height
            and area >= 0.04 * height * height
        )
    glyphs = np.where(keep[labels], 255, 0).astype(np.uint8)
    # glyphs a syllable's gap apart make one run
    joined = cv2.morphologyEx(
        glyphs, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (height | 1, 1))
    )
    count, _, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
    runs = []
    for i in range(1, count):
        x, y, w, h, _ = stats[i]
        if w >= 1.5 * height and 0.6 * height <= h <= 2 * height:
            runs.append((int(x), int(y), int(x + w), int(y + h)))
    return sorted(runs, key=lambda b: b[0] - b[2])[:UNREAD_MAX_RUNS]


def _reading_position(line_words: list[list[Word]], top: int, left: int, right: int) -> int:
    """Where a line found later goes in reading order: before the first line that starts
    below its top and overlaps it horizontally, else at the end."""
    return next(
        (
            i
            for i, ws in enumerate(line_words)
            if min(w.box[1] for w in ws) > top
            and min(w.box[0] for w in ws) < right
            and max(w.box[2] for w in ws) > left
        ),
        len(line_words),
    )


def read_unread_ink(image: Image.Image, reading: Reading) -> Reading:
    """`reading` with the runs `unread_ink` finds read (one line each, enlarged as in the
    second look): a confident reading joins the line whose row it continues, to the right
    of that line's words, or else is a line of its own, placed by its height on the page."""
    runs = unread_ink(image, reading)
    if not runs:
        return reading
    lines, line_words = list(reading.lines), list(reading.line_words)
    k = SECOND_LOOK_SCALE
    for x1, y1, x2, y2 in runs:
        pad = max(4, (y2 - y1) // 3)
        box = (
            max(0, x1 - pad),
            max(0, y1 - pad),
            min(image.width, x2 + pad),
            min(image.height, y2 + pad),
        )
        crop = image.crop(box)
        crop = crop.resize((crop.width * k, crop.height * k), Image.Resampling.LANCZOS)
        try:
            again = read_page(crop, psm=7)
        except OcrEngineError:
            continue
        found = again.words
        if (
            not found
            or _mean_confidence(found) < UNREAD_MIN_CONF
            or sum(c.isalnum() for w in found for c in w.text) < 2
        ):
            continue
        new = [
            Word(
                w.text,
                (
                    box[0] + w.box[0] // k,
                    box[1] + w.box[1] // k,
                    box[0] + -(-w.box[2] // k),
                    box[1] + -(-w.box[3] // k),
                ),
                w.confidence,
                (0, 0, 0),
            )
            for w in found
        ]
        row = _row_continued(line_words, (x1, y1, x2, y2))
        if row is not None:
            merged = sorted([*line_words[row], *new], key=lambda w: w.box[0])
            line_words[row] = merged
            lines[row] = text_of(merged)
            continue
        at = _reading_position(line_words, y1, x1, x2)
        lines.insert(at, " ".join(again.lines))
        line_words.insert(at, new)
    if line_words == reading.line_words:
        return reading
    return Reading(lines, _numbered(line_words))


def _row_continued(line_words: list[list[Word]], run: tuple[int, int, int, int]) -> int | None:
    """The line whose row `run` lies in and whose nearest word is within `UNREAD_JOIN` heights
    of it on either side (a value after its label, a label before its value, a table's
    label cell), if any."""
    x1, y1, x2, y2 = run
    middle = (y1 + y2) / 2
    for i, words in enumerate(line_words):
        if not min(w.box[1] for w in words) <= middle <= max(w.box[3] for w in words):
            continue
        gaps = [x1 - w.box[2] for w in words if w.box[2] <= x1 + 1]
        gaps += [w.box[0] - x2 for w in words if w.box[0] >= x2 - 1]
        if gaps and min(gaps) < UNREAD_JOIN * (y2 - y1):
            return i
    return None


def _numbered(line_words: list[list[Word]]) -> list[list[Word]]:
    """Each line's words under a line number of their own, in the order given."""
    return [
        [Word(w.text, w.box, w.confidence, (1, 1, n)) for w in ws]
        for n, ws in enumerate(line_words, start=1)
    ]


FILL_MIN_CONF = 0.6  # a segment only the block reading found is added when this confident
FILL_COVERED = 0.3  # a word is covered when this share of it lies under the other's words


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> int:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0


def filled_from(reading: Reading, other: Reading) -> Reading:
    """`reading` with the line segments (`segments`) of `other` that lie where `reading`
    found no word at all: layout analysis now and then drops a whole line beside a photo
    (dev two-column pages lost the name line "이름: 강주원" that the block reading had).
    A segment is added only when read with some confidence and holding letters or digits;
    it goes before the first line below it that it shares columns with. Lines are then
    numbered again in reading order."""
    taken = [w.box for w in reading.words]
    lines, line_words = list(reading.lines), list(reading.line_words)
    for words in other.line_words:
        for segment in segments(words):
            part = [words[i] for i in segment]
            area = [(w.box[2] - w.box[0]) * (w.box[3] - w.box[1]) for w in part]
            if any(
                sum(_overlap(w.box, t) for t in taken) > FILL_COVERED * max(a, 1)
                for w, a in zip(part, area, strict=True)
            ):
                continue
            if (
                _mean_confidence(part) < FILL_MIN_CONF
                or sum(c.isalnum() for w in part for c in w.text) < 2
            ):
                continue
            top, left, right = part[0].box[1], part[0].box[0], part[-1].box[2]
            at = _reading_position(line_words, top, left, right)
            text = text_of(part)
            lines.insert(at, text)
            line_words.insert(at, part)
    if len(line_words) == len(reading.line_words):
        return reading
    return Reading(lines, _numbered(line_words))


def read_text(image: Image.Image) -> str:
    return read_scan(image).text


def line_separators(words: list[Word]) -> list[str]:
    """Tesseract often cuts Korean words into single syllables ("서 울 특별시"): neighbours
    that are both Hangul and closer than 0.45 line heights are joined without a space
    (measured on Nanum renders: split syllables 2-10 px apart, words 13-16 px, at 26 px)."""
    seps = [""]
    for prev, word in pairwise(words):
        height = max(prev.box[3] - prev.box[1], word.box[3] - word.box[1], 1)
        gap = word.box[0] - prev.box[2]
        tight = gap < 0.45 * height and is_hangul(prev.text[-1]) and is_hangul(word.text[0])
        seps.append("" if tight else " ")
    return seps


def text_of(words: list[Word]) -> str:
    """A line's text rebuilt from its words, spaced as `line_separators` says."""
    return "".join(sep + w.text for w, sep in zip(words, line_separators(words), strict=True))
