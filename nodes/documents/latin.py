"""Latin words the Korean model read as digits, read again by the English model alone.

Tesseract's kor+eng reading of a Korean line reads the short Latin words in it as digits: on
dev3 "DB" came out as "08", "API" as "401", "(p99" as "(699", "65ms)" as "65109)" (19% of
the word errors were in Latin words). The English model alone reads those crops right
("DB" at 96, "API" at 74-81, "(p99" at 87-92). Every word of the line that is digits only is
cut out and all of them are read in one English pass (one strip image, a row per word); a
reading replaces the digits only when it is confident and shaped like what the Korean model
confuses (`_latin_for`), so a genuine number ("2016", "17") keeps its digits.

For the OCR text only: masking keeps the Korean model's digits (a phone's group read "S678"
would lose the phone).
"""

from __future__ import annotations

import re
from dataclasses import replace

from PIL import Image

from nodes.documents.glyphs import word_spans
from nodes.documents.words import Reading, Word, is_hangul

DIGITS = re.compile(r"[(\[]?\d{2,6}[)\],.]?")
MIN_CONF = 0.60
MAX_WORDS = 24  # a page's candidates at most (one strip; time per page)
ROW_GAP = 0.6  # blank between the strip's rows, in row heights
PAD = 0.3  # around each crop, in its height (Tesseract misreads ink at an edge)
# letters that look like digits: an acronym of these only ("DB" read "08", but also "IO" for
# a "10") is taken only when the English model is all but sure of it
LOOKALIKE = set("OIlSBZGD")
LOOKALIKE_CONF = 0.90
_ACRONYM = re.compile(r"[(\[]?[A-Z][A-Za-z]{1,4}[)\],.]?")
_UNIT = re.compile(r"[(\[]?(?:[a-z]{1,2}\d{1,5}|\d{1,5}[a-z]{1,2})[)\],.]?")


def _digits(text: str) -> str:
    return "".join(c for c in text if c.isdigit())


def _latin_for(kor: str, eng: str, confidence: float) -> bool:
    """The English reading `eng` (at `confidence`) of a word the Korean model read as the
    digits `kor` is taken: an acronym of two or more capitals ("API"; when every capital
    looks like a digit, "DB", only at LOOKALIKE_CONF), or a number with a unit or a prefix
    of up to two letters that the Korean model read as extra digits at its end or start
    ("65ms)" for "65109)", "(p99" for "(699")."""
    if confidence < MIN_CONF or eng == kor or not any(c.isalpha() for c in eng):
        return False
    if _ACRONYM.fullmatch(eng):
        capitals = [c for c in eng if c.isupper()]
        if all(c in LOOKALIKE for c in capitals):
            return len(capitals) >= 2 and confidence >= LOOKALIKE_CONF
        return len(capitals) >= 2
    if _UNIT.fullmatch(eng):
        d, k = _digits(eng), _digits(kor)
        return 2 <= len(d) < len(k) and (k.startswith(d) or k.endswith(d))
    return False


def _candidates(reading: Reading) -> list[tuple[int, int]]:
    """(line, word) of the digit-only words in lines that hold Hangul."""
    found = []
    for i, words in enumerate(reading.line_words):
        if not any(is_hangul(c) for w in words for c in w.text):
            continue
        found += [(i, j) for j, w in enumerate(words) if DIGITS.fullmatch(w.text)]
    return found[:MAX_WORDS]


def _strip(image: Image.Image, words: list[Word]) -> tuple[Image.Image, list[int]]:
    """The words' crops stacked in one white image, a row each; the y where each row
    starts."""
    crops = []
    for w in words:
        x1, y1, x2, y2 = w.box
        p = max(2, round(PAD * (y2 - y1)))
        crops.append(image.crop((max(0, x1 - p), max(0, y1 - p), x2 + p, y2 + p)).convert("L"))
    gap = max(8, round(ROW_GAP * max(c.height for c in crops)))
    width = max(c.width for c in crops) + 2 * gap
    height = sum(c.height for c in crops) + gap * (len(crops) + 1)
    strip = Image.new("L", (width, height), 255)
    tops, y = [], gap
    for c in crops:
        strip.paste(c, (gap, y))
        tops.append(y)
        y += c.height + gap
    return strip, tops


def latin_reread(image: Image.Image, reading: Reading) -> Reading:
    """`reading` with the Latin words its Korean lines read as digits read again in English
    (see the module's notes)."""
    from nodes.documents.ocr import OcrEngineError, read_page  # ocr imports this module

    todo = _candidates(reading)
    if not todo:
        return reading
    words = [reading.line_words[i][j] for i, j in todo]
    strip, tops = _strip(image, words)
    try:
        again = read_page(strip, psm=6, langs="eng")
    except OcrEngineError:
        return reading
    rows: dict[int, list[Word]] = {}
    for w in again.words:
        middle = (w.box[1] + w.box[3]) / 2
        k = max((k for k, top in enumerate(tops) if top <= middle), default=0)
        rows.setdefault(k, []).append(w)
    lines, line_words = list(reading.lines), [list(ws) for ws in reading.line_words]
    changed: dict[int, dict[int, str]] = {}
    for k, (i, j) in enumerate(todo):
        got = rows.get(k, [])
        if len(got) == 1 and _latin_for(words[k].text, got[0].text, got[0].confidence):
            changed.setdefault(i, {})[j] = got[0].text
    for i, new in changed.items():
        spans = word_spans(lines[i], line_words[i])
        if spans is None:
            continue
        for j in sorted(new, reverse=True):
            start, end = spans[j]
            lines[i] = lines[i][:start] + new[j] + lines[i][end:]
            line_words[i][j] = replace(line_words[i][j], text=new[j])
    return replace(reading, lines=lines, line_words=line_words)
