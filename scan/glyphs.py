"""What the page's ink shows and Tesseract's kor+eng reading loses: marks it cannot read,
named from their shape, and letter-spaced titles, which it joins (`titles_spaced`).

Korean resumes head their sections with a filled square ("■ 경력사항") and write results as
"40분 → 6분". Neither glyph is read: on the development pages a bullet came out as "를",
"m", "@", "|" or "0" (a Hangul syllable that is not there), and an arrow as "—", "-", ">" or
"~". Their shapes are unmistakable, so a word that is one such shape is renamed:
- a bullet is one solid, square blob about a letter high;
- an arrow is one flat blob (1.4 times as wide as high or more) whose left half is a
  straight shaft through its middle and whose right end (the head) stands above and below
  that shaft.
A bullet must start its line (or a column's part of it); a bullet or an arrow that
Tesseract did not read at all is put before the first word right of it.
A list's dash ("- 월 400만 건의 결제 ...") is a thin solid bar across the middle of its line,
before its first word: on a blurred or noisy page of small text Tesseract often reads
nothing there, or a mark ("~"), and such a dash is read as "-". A dash inside a line is left
to Tesseract.
Anything else (a hyphen, a tilde, a letter) keeps Tesseract's reading.
"""

from __future__ import annotations

from dataclasses import replace
from typing import cast

import cv2
import numpy as np
from PIL import Image

from scan import preprocess
from scan.words import Reading, Word, is_hangul, word_height

BULLET = "■"
ARROW = "→"
DASH = "-"
MAX_CHARS = 2  # a word longer than this is text, whatever its shape
BULLET_FILL = 0.85  # of the blob's box that is ink
BULLET_SIZE = (0.3, 1.1)  # letter heights
BULLET_ASPECT = (0.75, 1.33)
BULLET_LEAD = 2.0  # letter heights free of words left of a bullet (a column gap: ocr.py)
ARROW_MIN_ASPECT = 1.4
ARROW_SIZE = (0.5, 2.5)  # its width, in letter heights
ARROW_MAX_HEIGHT = 0.8  # letter heights
ARROW_HEAD = 1.5  # the head's height over the shaft's (blur thickens the shaft)
MIN_PX = 6
# A list's dash, in letter heights (the line's median word height): a hyphen in the Nanum
# faces is 0.25-0.45 wide and 0.05-0.12 high; an em dash (about 1) and a rule are wider.
DASH_WIDTH = (0.2, 0.7)
DASH_MAX_HEIGHT = 0.2
DASH_MIN_ASPECT = 1.8
DASH_FILL = 0.7  # of its box that is ink
DASH_MIDDLE = (0.3, 0.75)  # where its middle lies, as a share of the line's height from the top
DASH_NEXT = 1.5  # letter heights from the dash to the first word, at most
TITLE_GAP = 0.3  # letter heights of blank ink between letter-spaced syllables, at least
TITLE_SYLLABLES = (2, 5)

Box = tuple[int, int, int, int]


def page_ink(image: Image.Image) -> np.ndarray:
    """The page's ink (a boolean mask), its shading divided out (`preprocess.ink`)."""
    return preprocess.ink(np.asarray(image.convert("L")))


def _is_bullet(blob: np.ndarray) -> bool:
    bh, bw = blob.shape
    return (
        min(bh, bw) >= MIN_PX
        and BULLET_ASPECT[0] <= bw / bh <= BULLET_ASPECT[1]
        and blob.mean() >= BULLET_FILL
    )


def _is_arrow(blob: np.ndarray) -> bool:
    """A straight line with a head at its right end: the left half is a shaft (its ink lies
    in one band as thin as the shaft itself, across the blob's middle) and the right 40%
    stands above and below that band, ARROW_HEAD times as high and two pixels more. A dash
    is as high at both ends; in a syllable ("분") or "ㄱ", "ㅜ", "ㅗ" the left half is not one
    band across the middle; a filled bar is no arrow."""
    bh, bw = blob.shape
    if bw < ARROW_MIN_ASPECT * bh or bw < 2 * MIN_PX or bh < 3 or blob.mean() > 0.75:
        return False
    columns = blob.sum(axis=0)
    shaft = float(np.median(columns[: bw // 2]))
    band = np.flatnonzero(blob[:, : bw // 2].any(axis=1))
    if not 0 < shaft <= 0.6 * bh or band.size > shaft + 2:
        return False
    middle = (band.min() + band.max()) / 2
    head = blob[:, int(0.6 * bw) :]
    head_rows = np.flatnonzero(head.any(axis=1))
    return (
        0.25 * bh <= middle <= 0.75 * bh
        and head_rows.min() < band.min()
        and head_rows.max() > band.max()
        and head.sum(axis=0).max() >= max(ARROW_HEAD * shaft, shaft + 2)
    )


Blobs = tuple[np.ndarray, np.ndarray]  # the ink's connected components: labels, stats


def blobs(ink: np.ndarray) -> Blobs:
    """The connected components of `ink` (8-connected), which `marks` and `dashes` look at:
    computed once per page."""
    _, labels, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
    return labels, stats


def marks(ink: np.ndarray, found_blobs: Blobs | None = None) -> list[tuple[str, Box]]:
    """The page's bullets and arrows, each one blob of ink, with their boxes. Found on the
    page, not in Tesseract's word boxes: a misread arrow's box is often off by half its
    width or part of its neighbour's, and a bullet is at times not read at all."""
    labels, stats = blobs(ink) if found_blobs is None else found_blobs
    w, h, area = (stats[:, i] for i in (cv2.CC_STAT_WIDTH, cv2.CC_STAT_HEIGHT, cv2.CC_STAT_AREA))
    # only blobs that could be either shape are looked at (a speckled page has thousands)
    solid_square = (area >= BULLET_FILL * w * h) & (w >= MIN_PX) & (h >= MIN_PX)
    flat = (w >= ARROW_MIN_ASPECT * h) & (w >= 2 * MIN_PX) & (h >= 3)
    found = []
    for k in np.flatnonzero(solid_square | flat):
        if k == 0:
            continue
        x, y, bw, bh = (int(v) for v in stats[k, :4])
        blob = labels[y : y + bh, x : x + bw] == k
        for mark, fits in ((BULLET, _is_bullet), (ARROW, _is_arrow)):
            if fits(blob):
                found.append((mark, (x, y, x + bw, y + bh)))
    return found


def dashes(ink: np.ndarray, found_blobs: Blobs | None = None) -> list[Box]:
    """Flat solid bars of ink (`DASH_MIN_ASPECT` times as wide as high or more): what a
    list's dash may be. Whether one is, its line decides (`_dash_fits`)."""
    _, stats = blobs(ink) if found_blobs is None else found_blobs
    x, y, w, h, area = (stats[1:, i] for i in range(5))
    bars = (w >= DASH_MIN_ASPECT * h) & (w >= 3) & (area >= DASH_FILL * w * h)
    return [
        (int(x[k]), int(y[k]), int(x[k] + w[k]), int(y[k] + h[k])) for k in np.flatnonzero(bars)
    ]


def _dash_fits(box: Box, words: list[Word]) -> bool:
    """`box` has a list dash's size for this line's letters, and its middle lies across
    the middle of the line (its words' median top and bottom): an underscore or a
    rule's piece lies at the bottom."""
    letter = word_height(words)
    w, h = box[2] - box[0], box[3] - box[1]
    if not DASH_WIDTH[0] * letter <= w <= DASH_WIDTH[1] * letter:
        return False
    if h > max(2, DASH_MAX_HEIGHT * letter):
        return False
    top = float(np.median([wd.box[1] for wd in words]))
    bottom = float(np.median([wd.box[3] for wd in words]))
    share = ((box[1] + box[3]) / 2 - top) / max(1.0, bottom - top)
    return DASH_MIDDLE[0] <= share <= DASH_MIDDLE[1]


def _dash_leads(box: Box, words: list[Word]) -> int | None:
    """The word a line-leading dash stands before: the first word right of it, within
    `DASH_NEXT` letters, with nothing read left of it within `BULLET_LEAD` letters."""
    if not _leads(box, words):
        return None
    right = [k for k, w in enumerate(words) if w.box[0] >= box[2] - 1]
    if not right:
        return None
    k = right[0]
    if words[k].box[0] - box[2] > DASH_NEXT * word_height(words):
        return None
    return k


def word_spans(line: str, words: list[Word]) -> list[tuple[int, int]] | None:
    """Where each word's text lies in the line's text (Tesseract's line has the words in
    order, spaced its own way); None when they do not line up."""
    spans = []
    at = 0
    for word in words:
        while at < len(line) and line[at] == " ":
            at += 1
        if not line.startswith(word.text, at):
            return None
        spans.append((at, at + len(word.text)))
        at += len(word.text)
    return spans if not line[at:].strip() else None


def spans_removed(line: str, spans: list[tuple[int, int]]) -> str:
    """`line` without the text at `spans` (in order, from `word_spans`), the rest keeping
    its spacing: a word between spaces leaves one space, a word joined to a neighbour
    none."""
    for start, end in reversed(spans):
        left, right = line[:start], line[end:]
        spaced = left.endswith(" ") or right.startswith(" ")
        line = left.rstrip() + (" " if spaced and left.strip() and right.strip() else "")
        line += right.lstrip()
    return line.strip()


def _put(line: str, start: int, end: int, mark: str) -> str:
    """`line` with [start, end) replaced by a mark standing apart from its neighbours."""
    before = line[:start]
    after = line[end:]
    if before and not before.endswith(" "):
        before += " "
    if after and not after.startswith(" "):
        after = " " + after
    return before + mark + after


def _fits_line(mark: str, box: Box, letter: int) -> bool:
    w, h = box[2] - box[0], box[3] - box[1]
    if mark == BULLET:
        return BULLET_SIZE[0] * letter <= h <= BULLET_SIZE[1] * letter
    return h <= ARROW_MAX_HEIGHT * letter and ARROW_SIZE[0] * letter <= w <= ARROW_SIZE[1] * letter


def _line_of(mark: str, box: Box, line_words: list[list[Word]]) -> int | None:
    """The line whose row holds the middle of `box` and whose letters its size fits."""
    mid_y = (box[1] + box[3]) / 2
    for i, words in enumerate(line_words):
        if not words or not min(w.box[1] for w in words) <= mid_y <= max(w.box[3] for w in words):
            continue
        letter = word_height(words)
        if box[2] < min(w.box[0] for w in words) - 3 * letter:
            continue  # far left of the line
        if box[0] > max(w.box[2] for w in words) + letter:
            continue  # right of its end
        if _fits_line(mark, box, letter):
            return i
    return None


def _misread_as(mark: str, box: Box, words: list[Word]) -> int | None:
    """The word the mark was read as: a short word (for an arrow, one of marks only, no
    letter or digit) whose middle lies within a letter of the mark's."""
    letter = word_height(words)
    mid = (box[0] + box[2]) / 2
    best, best_d = None, float("inf")
    for j, word in enumerate(words):
        if len(word.text) > MAX_CHARS or (mark == ARROW and any(c.isalnum() for c in word.text)):
            continue
        d = abs((word.box[0] + word.box[2]) / 2 - mid)
        if d <= letter and d < best_d:
            best, best_d = j, d
    return best


def _leads(box: Box, words: list[Word]) -> bool:
    """Nothing is read within BULLET_LEAD letters left of `box`: it starts its line or a
    column's part of it, as a bullet does (a syllable that blur made solid does not)."""
    reach = box[0] - BULLET_LEAD * word_height(words)
    return not any(reach < (w.box[0] + w.box[2]) / 2 < box[0] for w in words)


def _overlaps(box: Box, words: list[Word]) -> bool:
    return any(w.box[0] < box[2] and box[0] < w.box[2] for w in words)


def marks_named(image: Image.Image, reading: Reading) -> Reading:
    """`reading` with its bullets and arrows read as such (see the module's notes): a word
    read in a mark's place is renamed; a mark in a gap between words (not read at all) is
    put in that gap."""
    if not reading.line_words:
        return reading
    lines = list(reading.lines)
    line_words = [list(words) for words in reading.line_words]
    edits: dict[int, list[tuple[int, bool, str, Box]]] = {}  # line -> (word, replace?, ...)
    ink = page_ink(image)
    found = blobs(ink)
    for box in dashes(ink, found):
        edit = _dash_edit(box, line_words)
        if edit is not None:
            edits.setdefault(edit[0], []).append(edit[1])
    for mark, box in marks(ink, found):
        i = _line_of(mark, box, line_words)
        if i is None:
            continue
        words = line_words[i]
        if mark == BULLET and not _leads(box, words):
            continue
        j = _misread_as(mark, box, words)
        if j is not None:
            if words[j].text != mark:
                edits.setdefault(i, []).append((j, True, mark, box))
        elif not _overlaps(box, words):  # unread: goes before the first word right of it
            right = [k for k, w in enumerate(words) if w.box[0] >= box[2]]
            if right:
                edits.setdefault(i, []).append((right[0], False, mark, box))
    for i, changes in edits.items():
        spans = word_spans(lines[i], line_words[i])
        if spans is None:
            continue
        for j, renamed, mark, box in sorted(changes, key=lambda c: (c[0], c[1]), reverse=True):
            start, end = spans[j]
            if renamed:  # right to left: the spans before it stay valid
                lines[i] = _put(lines[i], start, end, mark)
                line_words[i][j] = replace(line_words[i][j], text=mark)
            else:
                lines[i] = _put(lines[i], start, start, mark)
                line_words[i].insert(j, replace(line_words[i][j], text=mark, box=box))
    return replace(reading, lines=lines, line_words=line_words)


def _dash_edit(
    box: Box, line_words: list[list[Word]]
) -> tuple[int, tuple[int, bool, str, Box]] | None:
    """How a line-leading dash at `box` changes its line: (line, (word, replace?, "-",
    box)), or None when it is no list dash or is read already. A word of marks only read
    in its place at the start of its line ("~", "—") is renamed; nothing read there gets a
    "-"."""
    mid_y = (box[1] + box[3]) / 2
    for i, words in enumerate(line_words):
        if not words or not min(w.box[1] for w in words) <= mid_y <= max(w.box[3] for w in words):
            continue
        if not _dash_fits(box, words):
            continue
        on = [k for k, w in enumerate(words) if w.box[0] < box[2] and box[0] < w.box[2]]
        if on:
            word = words[on[0]]
            if len(on) > 1 or word.text == DASH or len(word.text) > MAX_CHARS:
                return None
            if any(c.isalnum() for c in word.text) or on[0] != 0:
                return None  # within a line (a table's "2018-08 ~ 2020-10"), "~" is a tilde
            return i, (on[0], True, DASH, word.box)
        k = _dash_leads(box, words)
        return None if k is None else (i, (k, False, DASH, box))
    return None


def _blank_runs(ink: np.ndarray, box: Box) -> list[tuple[int, int]]:
    """The runs of ink-free columns inside `box`, between its first and last ink."""
    x1, y1, x2, y2 = box
    # any() along an axis of a 2-D array gives an array (the stubs also allow a scalar)
    cols = cast(np.ndarray, ink[max(0, y1) : y2, max(0, x1) : x2].any(axis=0))
    inked = np.flatnonzero(cols)
    if inked.size == 0:
        return []
    runs = []
    start = None
    for x in range(int(inked[0]), int(inked[-1]) + 1):
        if not cols[x] and start is None:
            start = x
        elif cols[x] and start is not None:
            runs.append((x1 + start, x1 + x))
            start = None
    return runs


def titles_spaced(image: Image.Image, reading: Reading) -> Reading:
    """A title set letter-spaced ("이 력 서", "자 기 소 개 서"), alone on its line, read as it
    is set: Tesseract joins the syllables ("이력서"). A line that is one Hangul word of 2-5
    syllables is spaced out when blank ink TITLE_GAP letters wide or more lies at every
    boundary between its syllables and nowhere else (Hangul syllables are set at one width).
    On dev3 this spaced 9 titles and nothing else (at 0.25 letters a heading "경력" too).
    For the OCR text only: masking reads a lone 2-4 syllable word as a possible name."""
    lines, line_words = list(reading.lines), [list(ws) for ws in reading.line_words]
    ink = None
    for i, words in enumerate(line_words):
        if len(words) != 1 or lines[i].strip() != words[0].text:
            continue
        word = words[0]
        count = len(word.text)
        if not TITLE_SYLLABLES[0] <= count <= TITLE_SYLLABLES[1]:
            continue
        if not all(is_hangul(c) for c in word.text):
            continue
        ink = page_ink(image) if ink is None else ink
        letter = word.box[3] - word.box[1]
        wide = [(a, b) for a, b in _blank_runs(ink, word.box) if b - a >= TITLE_GAP * letter]
        pitch = (word.box[2] - word.box[0]) / count
        at_boundaries = len(wide) == count - 1 and all(
            abs((a + b) / 2 - word.box[0] - pitch * (k + 1)) < 0.35 * pitch
            for k, (a, b) in enumerate(wide)
        )
        if not at_boundaries:
            continue
        edges = [word.box[0], *((a + b) // 2 for a, b in wide), word.box[2]]
        line_words[i] = [
            replace(word, text=ch, box=(edges[k], word.box[1], edges[k + 1], word.box[3]))
            for k, ch in enumerate(word.text)
        ]
        lines[i] = " ".join(word.text)
    if ink is None:
        return reading
    return replace(reading, lines=lines, line_words=line_words)


SPACED_MARKS = frozenset("-<>~|:→■")
MARK_SPACE = 0.2  # letter heights between a mark's box and its neighbour's: a space


def marks_spaced(reading: Reading) -> Reading:
    """A mark that Tesseract gives as a word of its own but writes joined to its neighbour
    in the line's text ("-캐시", "<학력사항", "2016.10~") is set apart where the boxes are
    MARK_SPACE letters apart or more. On dev3-dev5 such a gap separated 35 of the 46 marks
    that the page spaced and neither of the 2 it did not (those sat -0.05 and 0.10 letters
    apart); a space in these fonts is 0.25-0.35 letters."""
    lines = list(reading.lines)
    for i, words in enumerate(reading.line_words):
        if len(words) < 2 or not any(w.text in SPACED_MARKS for w in words):
            continue
        spans = word_spans(lines[i], words)
        if spans is None:
            continue
        letter = word_height(words)
        cuts = [
            spans[k][1]
            for k in range(len(words) - 1)
            if spans[k][1] == spans[k + 1][0]
            and (words[k].text in SPACED_MARKS or words[k + 1].text in SPACED_MARKS)
            and words[k + 1].box[0] - words[k].box[2] >= MARK_SPACE * letter
        ]
        for at in reversed(cuts):
            lines[i] = lines[i][:at] + " " + lines[i][at:]
    return replace(reading, lines=lines)
