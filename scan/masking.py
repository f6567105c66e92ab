"""Draft a PII mask for one page: OCR word boxes -> lines -> detectors -> value boxes
(split out of their word by character position) -> faces -> a masked PNG.

Pages larger than 2048 px are processed downscaled and every box is mapped back to the
page's own pixels.
"""

from __future__ import annotations

import base64
import io
import re
import statistics
import unicodedata
from dataclasses import dataclass
from itertools import pairwise

import cv2
import cv2.data  # loaded by `import cv2` too; named here for the type stubs, which omit it
import numpy as np
from PIL import Image, ImageDraw

from scan import preprocess
from scan.ocr import (
    Word,
    gap_after,
    is_hangul,
    line_separators,
    readings_to_mask,
    segments,
    word_height,
)
from scan.pages import TEXT_LAYER_MIN_CHARS, PageImage, TextChar, prepare_for_ocr
from scan.pii import (
    PERIOD_OR_EVENT,
    PiiMatch,
    bare_birth_dates,
    bare_name,
    drop_overlaps,
    find_pii,
    reading_variants,
)
from scan.tesseract import lines_of

MAX_SIDE = 2048
HEADER_SHARE = 0.25  # a bare name counts only in the top quarter of a page


@dataclass
class Detected:
    type: str
    text: str | None
    box: tuple[int, int, int, int]
    confidence: float

    def to_dict(self) -> dict:
        return {
            "type": self.type,
            "text": self.text,
            "coordinates": list(self.box),
            "confidence": round(self.confidence, 3),
        }


def _char_weight(ch: str) -> float:
    """Relative glyph width, so a box can be split by character position: Hangul is about
    twice as wide as Latin letters and digits, punctuation narrower still."""
    if unicodedata.east_asian_width(ch) in ("W", "F"):
        return 1.0
    if ch.isalnum():
        return 0.55
    return 0.35


def _sub_box(word: Word, start: int, end: int) -> tuple[int, int, int, int]:
    weights = [_char_weight(c) for c in word.text]
    total = sum(weights) or 1.0
    x1, y1, x2, y2 = word.box
    left = x1 + (x2 - x1) * sum(weights[:start]) / total
    right = x1 + (x2 - x1) * sum(weights[:end]) / total
    return (int(left), y1, round(right), y2)


def _line_spans(words: list[Word]) -> tuple[str, list[tuple[int, int, Word]]]:
    """The line's text (words joined as `line_separators` decides) and each word's
    character span in it."""
    text, spans = "", []
    for word, sep in zip(words, line_separators(words), strict=True):
        text += sep
        spans.append((len(text), len(text) + len(word.text), word))
        text += word.text
    return text, spans


def _syllables_rejoined(text: str) -> tuple[str, list[int]]:
    """The line with split syllables rejoined (a lone Hangul syllable followed by a space
    and Hangul) and the index in `text` of every character kept."""
    keep: list[int] = []
    token_start = 0
    for i, ch in enumerate(text):
        if ch == " ":
            # A lone syllable before the space is a fragment of a split word: join it.
            lone = i - token_start == 1 and is_hangul(text[i - 1])
            token_start = i + 1
            if lone and i + 1 < len(text) and is_hangul(text[i + 1]):
                continue
        keep.append(i)
    return "".join(text[i] for i in keep), keep


def find_pii_tolerant(text: str, *, allow_bare_name: bool) -> list[PiiMatch]:
    """Detectors on the line as read, on the line with split syllables rejoined ("이름 이 서
    연", "서 울특별시"), and on its other readings (`reading_variants`: digit look-alikes,
    spaces inside numbers) at 0.85 of the confidence. Spans are mapped back to `text` and
    each match's text is the line's own characters there."""
    found = find_pii(text, allow_bare_name=allow_bare_name)
    variants = [(*_syllables_rejoined(text), 1.0)]
    variants += [(variant, keep, 0.85) for variant, keep in reading_variants(text)]
    for variant, keep, factor in variants:
        if variant == text:
            continue
        for m in find_pii(variant, allow_bare_name=allow_bare_name):
            start, end = keep[m.start], keep[m.end - 1] + 1
            found.append(PiiMatch(m.type, start, end, text[start:end], m.confidence * factor))
    # a domain inside an e-mail address read another way ("ac.kr" of "x@hanyang,ac.kr") is
    # part of the address, however confidently it alone reads as a URL
    emails = [m for m in found if m.type == "email"]
    found = [
        m
        for m in found
        if m.type != "url" or not any(e.start <= m.start and m.end <= e.end for e in emails)
    ]
    return drop_overlaps(found)


# A label says what the value after it is, even when the value cannot be read: the value is
# masked from the label's own words (fail safe), with low confidence, when no detector found
# anything there.
LABELS = (
    ("rrn", re.compile(r"^(?:주민등록번호|주민번호|주민등록|민등록번호)$")),
    (
        "phone",
        re.compile(
            r"^(?:연락처|전화번호|전화|휴대폰|휴대전화|핸드폰|자택|phone|mobile|tel|h\.?p)$", re.I
        ),
    ),
    ("email", re.compile(r"^(?:이메일|메일|e-?mail)$", re.I)),
    ("address", re.compile(r"^(?:주소|거주지|현주소|address)$", re.I)),
    (
        "birth_date",
        re.compile(r"^(?:생년월일|생일|birth(?:day|date)?|date ?of ?birth|d\.?o\.?b\.?)$", re.I),
    ),
    ("name", re.compile(r"^(?:이름|성명|성 명|name)$", re.I)),
    (
        "url",
        re.compile(r"^(?:포트폴리오|블로그|깃허브|github|홈페이지|웹사이트|blog|portfolio)$", re.I),
    ),
)
# Labels OCR may read one character off ("이르", "생넌월일", "Ernail", "Adress"): a Korean one
# of the same length with one syllable wrong, a Latin one (five letters or more, any case)
# one edit away. Two-syllable ones only for a name. A label read so is taken only before a
# value that looks like its type (`_looks_like`).
FUZZY_LABELS = {
    "주민등록번호": "rrn",
    "전화번호": "phone",
    "휴대폰": "phone",
    "연락처": "phone",
    "이메일": "email",
    "거주지": "address",
    "생년월일": "birth_date",
    "포트폴리오": "url",
    "이름": "name",
    "성명": "name",
    "phone": "phone",
    "mobile": "phone",
    "email": "email",
    "e-mail": "email",
    "address": "address",
    "birth": "birth_date",
    "portfolio": "url",
    "github": "url",
}
LABEL_CONFIDENCE = 0.5
LABEL_GAP = 1.0  # a label followed by a gap this wide (word spaces are ~0.3-0.5) is a cell
LABEL_MAX_WORDS = 4  # "Date of Birth", "주 민 등 록 번 호" as split syllables
_COLONS = ":：;.,"
_LEADING_JUNK = re.compile(r"^[^0-9A-Za-z가-힣]{1,2}$")  # "ㆍ", "|", "—" before a value


def _one_edit(a: str, b: str) -> bool:
    """`a` and `b` differ by exactly one substitution, insertion or deletion."""
    if abs(len(a) - len(b)) > 1 or a == b:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b, strict=True)) == 1
    short, long = sorted((a, b), key=len)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def _fuzzy_label(head: str) -> str | None:
    for label, kind in FUZZY_LABELS.items():
        if label.isascii():
            latin = head.lower()
            # "rn" is how OCR often reads an "m" ("Ernail")
            if len(label) >= 5 and label in (latin, latin.replace("rn", "m")) and label != latin:
                return kind
            if len(label) >= 5 and _one_edit(latin, label):
                return kind
        elif len(head) == len(label) and _one_edit(head, label):
            return kind
    return None


def _label_kind(head: str) -> tuple[str, bool] | None:
    """The type a label names and whether it was read exactly (not one syllable off)."""
    kind = next((k for k, pattern in LABELS if pattern.match(head)), None)
    if kind is not None:
        return kind, True
    if (fuzzy := _fuzzy_label(head)) is not None:
        return fuzzy, False
    return None


def read_label(words: list[Word], segment: list[int]) -> tuple[str, int, int, bool, bool] | None:
    """The label opening a segment: (type, how many of its words it takes, characters of
    its last word that belong to it, whether a colon ends it, whether it was read exactly).
    The label may span a few words ("Date of Birth", "주 민 등 록 번호"), end with a colon as
    OCR reads one (":", ".", ";"), or have its value glued on ("연락처:010...")."""
    for n in range(1, min(LABEL_MAX_WORDS, len(segment)) + 1):
        texts = [words[i].text.replace("：", ":") for i in segment[:n]]
        last = texts[-1]
        stripped = last.rstrip(_COLONS)
        candidates = [(stripped, len(last), stripped != last)]
        head, colon, glued = last.partition(":")
        if colon and glued:
            candidates.append((head, len(head) + 1, True))  # "연락처:010-..."
        for label_end, skip, has_colon in candidates:
            parts = [*texts[:-1], label_end]
            for joined in ("".join(parts), " ".join(parts)):
                if (found := _label_kind(joined)) is not None:
                    kind, exact = found
                    return kind, n, skip if skip < len(last) else 0, has_colon, exact
    return None


def labelled_values(words: list[Word]) -> list[tuple[str, list[int], int]]:
    """(type, indexes of the value's words, characters of the first word that belong to the
    label) for each label that opens a segment of the line and is followed by a colon
    ("연락처: 010...", "주소:서울...": the rest of the segment) or stands alone in its
    segment (a table's "연락처 | 010...": the next segment). A label without either ("GitHub
    Actions로 CI 구축") is prose, not a label. A label read one syllable off counts only for
    a value that looks like its type (a name for "이르")."""
    out = []
    parts = segments(words)
    for n, segment in enumerate(parts):
        label = read_label(words, segment)
        if label is None:
            continue
        kind, taken, skip, colon, exact = label
        rest = segment[taken:]
        if skip:
            rest, skip = [segment[taken - 1], *rest], skip  # the value starts in the label
        elif not colon and rest:
            if gap_after(words, segment[taken - 1]) > LABEL_GAP * word_height(words):
                colon = True  # a table's label cell: a wide gap, not a word space, before it
            elif words[rest[0]].text in (":", "：", ".", ";"):
                rest, colon = rest[1:], True
            elif n == 0 and kind in ("address", "name") and _plainly(kind, rest, words):
                # "주소 서울 관악구 관악로 212": set without a colon, at the line's start
                colon = True
        value: list[int] = []
        if colon and rest:
            value = rest
        elif not rest and n + 1 < len(parts):
            value = parts[n + 1]
        while len(value) > 1 and not skip and _LEADING_JUNK.match(words[value[0]].text):
            value = value[1:]  # a rule's remains or a stray mark before the value ("ㆍ", "|")
        if value and (exact or _looks_like(kind, [words[i].text for i in value])):
            out.append((kind, value, skip))
    return out


_ROAD = re.compile(
    r"[가-힣](?:로|길|구|동|시|군|읍|면)\d*$|-(?:ro|gil|gu|dong|si)\b", re.IGNORECASE
)


def _plainly(kind: str, value: list[int], words: list[Word]) -> bool:
    """A value after a label without a colon that is plainly of the label's type: a name,
    or an address with a number and a road, district or city word in it. Prose that opens
    with a label word ("주소 검색 API 개발") is neither."""
    texts = [words[i].text for i in value]
    if kind == "name":
        return len(texts) <= 2 and bare_name(_syllables_rejoined(" ".join(texts))[0]) is not None
    return any(c.isdigit() for t in texts for c in t) and any(_ROAD.search(t) for t in texts)


def _looks_like(kind: str, texts: list[str]) -> bool:
    """A value after a label read one syllable off is taken only when it looks like the
    label's type: a name, or (for the other labels) digits or an "@" or a dot in it."""
    if kind == "name":
        return bare_name(_syllables_rejoined(" ".join(texts))[0]) is not None
    if kind == "address":
        return any(c.isdigit() for t in texts for c in t)
    return any(c.isdigit() or c in "@." for t in texts for c in t)


def _union(boxes: list[tuple[int, int, int, int]]) -> tuple[int, int, int, int]:
    return (
        min(b[0] for b in boxes),
        # Vertical extent from the median word: Tesseract now and then gives one
        # glyph a box twice the line's height, which would double the mask.
        int(statistics.median(b[1] for b in boxes)),
        max(b[2] for b in boxes),
        int(statistics.median(b[3] for b in boxes)),
    )


BARE_NAME_CONFIDENCE = 0.6  # a name without its label (`bare_name`), before any discount
AFTER_LABEL_NAME_CONFIDENCE = 0.45
NAME_MIN_OCR_CONFIDENCE = 0.35
NAME_HEIGHT = (0.5, 2.5)  # times the page's median word height


def plausible_name(words: list[Word], height: int) -> bool:
    """Words a name without a label may be: read with some confidence and about as tall as
    the page's text (what OCR makes of a photo is neither: "이라" at 0.24, 8 px high)."""
    if not words:
        return False
    tall = statistics.median(w.box[3] - w.box[1] for w in words)
    return (
        statistics.median(w.confidence for w in words) >= NAME_MIN_OCR_CONFIDENCE
        and NAME_HEIGHT[0] * height <= tall <= NAME_HEIGHT[1] * height
    )


def _label_like(text: str) -> bool:
    """A short word OCR may have made of a name's label ("AY:" for "성명:", "By" for
    "성명"): a colon at its end, or a few Latin letters."""
    core = text.rstrip(_COLONS)
    return 0 < len(core) <= 4 and (core != text or (core.isascii() and core.isalpha()))


def header_name(words: list[Word]) -> tuple[list[int], PiiMatch] | None:
    """A Korean name (`bare_name`) alone in a segment of a header line, or after one short
    word that stands for its misread label ("AY: 오 주 원", "By 오출"), or after a label read
    one syllable off. A label with a value in the next segment is not itself a name."""
    parts = segments(words)
    height = word_height(words)
    for n, segment in enumerate(parts):
        label = read_label(words, segment)
        if label is not None and label[1] == len(segment) and n + 1 < len(parts):
            continue
        # a word standing apart from the rest (a label cell's gap, never a name's own
        # spacing) is taken for the label first: "성 | 오도윤" is 오도윤, not "성오도윤"
        apart = len(segment) > 1 and gap_after(words, segment[0]) > LABEL_GAP * height
        for drop in (1, 0) if apart else (0, 1):
            if drop and not (apart or (len(segment) > 1 and _label_like(words[segment[0]].text))):
                continue
            rest = segment[drop:]
            while len(rest) > 1 and _LEADING_JUNK.match(words[rest[0]].text):
                rest = rest[1:]
            text = _syllables_rejoined(" ".join(words[i].text for i in rest))[0]
            if (name := bare_name(text)) is not None:
                if drop:
                    name = PiiMatch("name", 0, 0, name.text, AFTER_LABEL_NAME_CONFIDENCE)
                return rest, name
    return None


def _hangul_count(text: str) -> int:
    return sum(is_hangul(c) for c in text)


def name_among_marks(words: list[Word]) -> int | None:
    """The index of a word that is a Korean name (`bare_name`) in a header line whose other
    words are what OCR made of rules, a photo or a lost label: marks, a few Latin letters or
    digits, single syllables (". ㆍ. 이훈 0 : . : eee |", "이 , 김혜린 oe : 더 :"). A line with
    any other word of two syllables or more is a field or a heading, not a name."""
    names = [i for i, w in enumerate(words) if bare_name(w.text) is not None]
    if len(names) != 1:
        return None
    if names[0] and _hangul_count(words[names[0] - 1].text) == 1:
        return None  # a syllable right before it: the end of a split word ("학력 사항")
    if PERIOD_OR_EVENT.search(" ".join(w.text for w in words)):
        return None  # a period or an event ("10 월 ~ 현재"), not a name
    others = [w.text for i, w in enumerate(words) if i != names[0]]
    if any(_hangul_count(t) >= 2 or len(t) > 4 for t in others):
        return None
    return names[0]


def detect_in_words(words: list[Word], page_height: int) -> list[Detected]:
    found: list[Detected] = []
    height = word_height(words) if words else 1
    for line_words in lines_of(words):
        text, spans = _line_spans(line_words)
        in_header = line_words[0].box[1] < page_height * HEADER_SHARE
        claimed: set[int] = set()
        claimed_by: dict[int, Detected] = {}
        part_of = {i: n for n, segment in enumerate(segments(line_words)) for i in segment}
        matches = find_pii_tolerant(text, allow_bare_name=in_header)
        if in_header:
            # a full date alone in the fields at the top is a birth date whose label was lost
            matches = drop_overlaps(matches + bare_birth_dates(text))
        for match in matches:
            if match.type == "name" and match.confidence <= BARE_NAME_CONFIDENCE:
                words_in = [w for start, end, w in spans if start < match.end and match.start < end]
                # a word set apart by a cell's gap is a label's remains, not a syllable
                gaps = [b.box[0] - a.box[2] for a, b in pairwise(words_in)]
                if (
                    not plausible_name(words_in, height)
                    or max(gaps, default=0) > LABEL_GAP * height
                ):
                    continue
            boxes, confidences = [], []
            column = None  # a value never runs across a column gap: it ends at the first
            for index, (start, end, word) in enumerate(spans):
                lo, hi = max(match.start, start), min(match.end, end)
                if lo < hi:
                    if column is None:
                        column = part_of[index]
                    elif part_of[index] != column:
                        break
                    boxes.append(_sub_box(word, lo - start, hi - start))
                    confidences.append(word.confidence)
                    claimed.add(index)
            if not boxes:
                continue
            ocr_conf = min(confidences) if confidences else 1.0
            item = Detected(
                match.type, match.text, _union(boxes), match.confidence * max(0.5, ocr_conf)
            )
            found.append(item)
            for index in claimed - set(claimed_by):
                claimed_by[index] = item
        if in_header and not claimed and (header := header_name(line_words)) is not None:
            # a name alone in its column of a header line (a photo or a rule beside it)
            indexes, name = header
            if plausible_name([line_words[i] for i in indexes], height):
                box = _union([line_words[i].box for i in indexes])
                found.append(Detected("name", name.text, box, name.confidence))
                claimed.update(indexes)
        elif (
            in_header
            and not claimed
            and (lone := name_among_marks(line_words)) is not None
            and plausible_name([line_words[lone]], height)
        ):
            word = line_words[lone]
            found.append(Detected("name", word.text, word.box, AFTER_LABEL_NAME_CONFIDENCE))
            claimed.add(lone)
        for kind, indexes, skip in labelled_values(line_words):
            value_words = [line_words[i] for i in indexes]
            boxes = [w.box for w in value_words]
            boxes[0] = _sub_box(value_words[0], skip, len(value_words[0].text))
            if claimed.intersection(indexes):
                # a detector read the value (or part of it): its box stands, unless it is an
                # address without a number, cut short where OCR garbled the road ("서울시마포구
                # SEAS = 351"): the label's whole value is the address
                short = [
                    claimed_by[i]
                    for i in indexes
                    if i in claimed_by
                    and kind == claimed_by[i].type == "address"
                    and not any(c.isdigit() for c in claimed_by[i].text or "")
                ]
                if short:
                    short[0].box = _union([short[0].box, *boxes])
                continue
            value = " ".join(w.text for w in value_words)[skip:]
            if not any(c.isalnum() for c in value):
                continue  # only marks (":", "|") where the value was: nothing read there
            found.append(Detected(kind, value, _union(boxes), LABEL_CONFIDENCE))
    return merge_overlapping(found)


def _iou(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    inter = w * h
    area = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / area


MERGE_IOU = 0.5
MERGE_INSIDE = 0.8  # of the smaller box's area within the other: one value, part of it read


def _inside(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> float:
    """The share of the smaller of two boxes that lies within the other."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    smaller = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
    return w * h / max(1, smaller)


def _twins(a: Detected, b: Detected) -> bool:
    return a.type == b.type and (
        _iou(a.box, b.box) >= MERGE_IOU or _inside(a.box, b.box) >= MERGE_INSIDE
    )


def merge_overlapping(items: list[Detected]) -> list[Detected]:
    """One value read twice (Tesseract now and then gives one visual line as two overlapping
    lines; the page's second reading may garble part of a value its first read whole) is
    one detection: boxes of the same type overlapping by `MERGE_IOU` or more, or one mostly
    inside the other, are merged into their union, with the more confident reading's text."""
    out: list[Detected] = []
    for item in sorted(items, key=lambda d: -d.confidence):
        twin = next((o for o in out if _twins(o, item)), None)
        if twin is None:
            out.append(Detected(item.type, item.text, item.box, item.confidence))
            continue
        twin.box = (
            min(twin.box[0], item.box[0]),
            min(twin.box[1], item.box[1]),
            max(twin.box[2], item.box[2]),
            max(twin.box[3], item.box[3]),
        )
    return out


TALL_BOX = 1.5  # a text box taller than this many word heights is fitted to its ink
NAME_REACH = 1.6  # a name's box may grow right by this many word heights (one syllable)
INK_GAP = 0.4  # blank columns wider than this many word heights end a word


def _ink_runs(on: np.ndarray, max_gap: int) -> list[tuple[int, int]]:
    """(start, end) of the runs of True in `on`, bridging gaps of up to `max_gap`."""
    runs: list[tuple[int, int]] = []
    for i in np.flatnonzero(on):
        if runs and i - runs[-1][1] <= max_gap:
            runs[-1] = (runs[-1][0], int(i) + 1)
        else:
            runs.append((int(i), int(i) + 1))
    return runs


LONE_LABEL_REACH = 6  # word heights right of a lone label where its value's ink may start
LONE_LABEL_CONFIDENCE = 0.4


def ink_after_lone_labels(
    words: list[Word], ink: np.ndarray, found: list[Detected]
) -> list[Detected]:
    """Boxes over the unread value of a label that ends its line with nothing read after it
    ("주민등록번호" and then nothing: OCR lost the value beside it): the run of ink that
    starts within `LONE_LABEL_REACH` word heights to its right, on the label's row, up to
    the first gap wider than a word space's few heights (`ink`: `preprocess.ink` of the page
    OCR read). Nothing where that row holds no ink or where a detection already covers it."""
    if not words:
        return []
    height = word_height(words)
    out: list[Detected] = []
    for line in lines_of(words):
        last = segments(line)[-1]
        label = read_label(line, last)
        if label is None:
            continue
        kind, taken, skip, _, exact = label
        if not exact or skip or taken != len(last):
            continue  # the label is not the whole of the line's last segment
        x0 = max(line[i].box[2] for i in last) + height // 2
        y1 = min(line[i].box[1] for i in last)
        y2 = max(line[i].box[3] for i in last)
        band = ink[y1:y2, x0 : min(ink.shape[1], x0 + 4 * LONE_LABEL_REACH * height)]
        runs = _ink_runs(band.mean(axis=0) > 0.02, max_gap=int(1.5 * height))
        if not runs or runs[0][0] > LONE_LABEL_REACH * height:
            continue
        box = (x0 + runs[0][0], y1, x0 + runs[0][1], y2)
        if runs[0][1] - runs[0][0] < height or any(_iou(box, d.box) > 0 for d in found):
            continue
        out.append(Detected(kind, None, box, LONE_LABEL_CONFIDENCE))
    return out


def fit_to_ink(items: list[Detected], ink: np.ndarray, height: int) -> None:
    """Boxes fitted to the ink they stand on (`ink`: `preprocess.ink` of the page OCR read,
    `height`: its median word height). A text box much taller than a line (Tesseract gives a
    word the height of the rules or the noise around it now and then) shrinks to its band of
    ink; a name's box grows right over ink that continues the word (a last syllable OCR
    dropped: "박도" of "박도윤"), by at most about a syllable."""
    if not items:
        return
    for item in items:
        x1, y1, x2, y2 = item.box
        if x2 <= x1 or y2 <= y1:
            continue
        if y2 - y1 > TALL_BOX * height:
            rows = ink[y1:y2, x1:x2].sum(axis=1)
            runs = _ink_runs(rows >= max(1, 0.02 * (x2 - x1)), max(1, round(0.15 * height)))
            if runs:
                start, end = max(runs, key=lambda r: rows[r[0] : r[1]].sum())
                if end - start >= 0.5 * height:
                    y1, y2 = y1 + start, y1 + end
        if item.type == "name":
            reach = min(ink.shape[1], x2 + round(NAME_REACH * height))
            columns = ink[y1:y2, x2:reach].any(axis=0)
            runs = _ink_runs(np.concatenate([[True], columns]), round(INK_GAP * height))
            if runs and runs[0][1] > 1:
                x2 += runs[0][1] - 1
        item.box = (x1, y1, x2, y2)


_FACES: cv2.CascadeClassifier | None = None


def detect_faces(gray: np.ndarray) -> list[tuple[int, int, int, int]]:
    global _FACES
    if _FACES is None:
        _FACES = cv2.CascadeClassifier(
            cv2.data.haarcascades + "haarcascade_frontalface_default.xml"
        )
    faces = _FACES.detectMultiScale(gray, scaleFactor=1.1, minNeighbors=6, minSize=(48, 48))
    return [(int(x), int(y), int(x + w), int(y + h)) for x, y, w, h in faces]


def _scaled(box: tuple[int, int, int, int], factor: float, size: tuple[int, int]):
    w, h = size
    x1, y1, x2, y2 = (round(v * factor) for v in box)
    return (max(0, x1), max(0, y1), min(w, x2), min(h, y2))


def text_layer_lines(chars: list[TextChar]) -> list[list[TextChar]]:
    """A PDF text layer's characters cut into its lines (PDFium ends each with CR LF)."""
    lines: list[list[TextChar]] = [[]]
    for char in chars:
        if char.char in "\r\n":
            if lines[-1]:
                lines.append([])
        else:
            lines[-1].append(char)
    return [line for line in lines if line]


def detect_in_text_layer(chars: list[TextChar], page_height: int) -> list[Detected]:
    """PII in a born-digital page: the detectors on each text-layer line, each value's box
    the union of its characters' own boxes (exact: no OCR, no splitting by glyph width)."""
    found = []
    for line in text_layer_lines(chars):
        text = "".join(c.char for c in line)
        in_header = line[0].box[1] < page_height * HEADER_SHARE
        for match in find_pii(text, allow_bare_name=in_header):
            boxes = [c.box for c in line[match.start : match.end] if not c.char.isspace()]
            if boxes:
                box = (
                    min(b[0] for b in boxes),
                    min(b[1] for b in boxes),
                    max(b[2] for b in boxes),
                    max(b[3] for b in boxes),
                )
                found.append(Detected(match.type, match.text, box, match.confidence))
    return found


def uses_text_layer(page: PageImage) -> bool:
    return sum(not c.char.isspace() for c in page.chars) >= TEXT_LAYER_MIN_CHARS


def mask_page(page: PageImage) -> dict:
    """Detected PII with boxes in the page's own pixels, and the masked page as a PNG. A
    PDF page with a text layer is read from it; any other page by OCR."""
    image = page.image
    text_layer = uses_text_layer(page)
    # a text-layer page is read from its glyph boxes: no OCR clean-up, only the faces' scale
    scale = min(1.0, MAX_SIDE / max(image.size))
    read = []
    if not text_layer:
        prepared = prepare_for_ocr(image, MAX_SIDE)
        scale = prepared.scale
        readings = readings_to_mask(prepared.image)
        words = readings[0].words
        read = merge_overlapping(
            [d for r in readings for d in detect_in_words(r.words, prepared.image.height)]
        )
        if words:
            ink = preprocess.ink(np.asarray(prepared.image.convert("L")))
            read += ink_after_lone_labels(words, ink, read)
            fit_to_ink(read, ink, word_height(words))
            # a box much taller than its line overlapped its twin too little before fitting
            read = merge_overlapping(read)
        for item in read:
            item.box = prepared.to_page(item.box, image.size)
    # faces on the plain page: the clean-up (rules erased, turned upright) is for text only
    small = image.convert("L").resize(
        (round(image.width * scale), round(image.height * scale)),
        Image.Resampling.BILINEAR,
    )
    read += [
        Detected("face", None, _scaled(box, 1 / scale, image.size), 0.7)
        for box in detect_faces(np.array(small))
    ]
    # text-layer boxes are in the page's own pixels already
    items = detect_in_text_layer(page.chars, image.height) if text_layer else []
    items += read
    masked = image.copy()
    draw = ImageDraw.Draw(masked)
    for item in items:
        draw.rectangle(item.box, fill="black")
    buf = io.BytesIO()
    masked.save(buf, "PNG", optimize=False)
    return {
        "page": page.number,
        "width": image.width,
        "height": image.height,
        "dpi": page.dpi,
        "detected_pii": [item.to_dict() for item in items],
        "masked_image": "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode(),
    }
