"""Words of a Korean line read in the wrong script, read again by one language's model.

Tesseract's kor+eng reading of a Korean line mixes up its scripts both ways:
- short Latin words come out as digits: on dev3 "DB" as "08", "API" as "401", "(p99" as
  "(699", "65ms)" as "65109)", "SAA-C03" as "544-003" (19% of dev3's word errors were in
  Latin words). The English model alone reads those crops right ("DB" at 96, "API" at
  74-81, "(p99" at 87-92), and a number as a number;
- short Korean words come out as Latin capitals: "취득" as "AS", "졸업" as "SY", "적중률" as
  "ASB", "거주지" as "HAR". The Korean model alone reads those right ("취득" at 96, "거주지"
  at 97), and reads a real Latin word as digits or junk: "AWS" as "2005", "API" as "스미"
  at 74 at most;
- a number's Korean unit comes out as a digit or a "%": "2018년" as "20184", "768점" as
  "7684" (and "TOEIC 768점" then holds no Hangul at all). The Korean model alone reads it.

So every digit-only word of a line that holds Hangul is read again in English
(`latin_reread`), and every Latin-only word of such a line and every number of any line in
Korean (`hangul_reread`, `units_reread`; together `korean_reread`): all of a page's crops
for one language in one run (a strip image, a row per word). A reading replaces the first
one only when it is confident and shaped like what the mixed model confuses (`_latin_for`,
`_hangul_for`, `_unit_for`), so a genuine number ("2016") or Latin word ("AWS") keeps its
reading.

For the OCR text only: masking keeps the mixed model's reading (a phone's group read "S678"
would lose the phone).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from PIL import Image

from scan.glyphs import word_spans
from scan.tesseract import OcrEngineError, read_page
from scan.words import Reading, Word, is_hangul

MAX_WORDS = 24  # a page's candidates at most, each pass (one strip; time per page)
ROW_GAP = 0.6  # blank between the strip's rows, in row heights
PAD = 0.3  # around each crop, in its height (Tesseract misreads ink at an edge)

# Latin read as digits
DIGITS = re.compile(r"[(\[]?\d{2,6}(?:-\d{2,6})?[)\],.]?")
MIN_CONF = 0.60
# letters that look like digits: capitals of these only ("DB" read "08", but also "IO" for a
# "10") are taken only when the English model is all but sure of them
LOOKALIKE = set("OIlSBZGD")
LOOKALIKE_CONF = 0.90
_CAPITALS = re.compile(r"[(\[]?[A-Z][A-Za-z0-9]{1,6}(?:-[A-Za-z0-9]{1,6})?[)\],.]?")
_UNIT = re.compile(r"[(\[]?(?:[a-z]{1,2}\d{1,5}|\d{1,5}[a-z]{1,2})[)\],.]?")

# a number's Korean unit read as a digit or "%": "2018년" as "20184", "764점" as "764%"
NUMBER = re.compile(r"[(\[]?\d{2,6}%?[)\],.]?")
_WITH_UNIT = re.compile(r"([(\[]?\d{1,5})[가-힣][)\],.]?")

# Korean read as Latin
LATIN = re.compile(r"[A-Za-z]{2,5}")
HANGUL_MIN_CONF = 0.85
HANGUL_MIN_SYLLABLES = 2  # "of" read by the Korean model alone was "아" at 93
_EDGES = "()[],.:;|"


def _digits(text: str) -> str:
    return "".join(c for c in text if c.isdigit())


def _latin_for(kor: str, eng: str, confidence: float) -> bool:
    """The English reading `eng` (at `confidence`) of a word the mixed model read as the
    digits `kor` is taken: two or more capitals ("API", "SAA-C03"; when every capital looks
    like a digit, "DB", only at LOOKALIKE_CONF), or a number with a unit or a prefix of up to
    two letters that the mixed model read as extra digits at its end or start ("65ms)" for
    "65109)", "(p99" for "(699")."""
    if confidence < MIN_CONF or eng == kor or not any(c.isalpha() for c in eng):
        return False
    if _CAPITALS.fullmatch(eng):
        capitals = [c for c in eng if c.isupper()]
        if all(c in LOOKALIKE for c in capitals):
            return len(capitals) >= 2 and confidence >= LOOKALIKE_CONF
        return len(capitals) >= 2
    if _UNIT.fullmatch(eng):
        d, k = _digits(eng), _digits(kor)
        return 2 <= len(d) < len(k) and (k.startswith(d) or k.endswith(d))
    return False


def _hangul_for(words: list[Word]) -> str | None:
    """The Korean model's reading of a word the mixed model read as Latin letters, when it
    is a Hangul word of two syllables or more read with HANGUL_MIN_CONF (its syllables, which
    Tesseract may give as words of one syllable each, joined)."""
    text = "".join(w.text for w in words).strip(_EDGES)
    if len(words) > 1 and any(len(w.text.strip(_EDGES)) > 1 for w in words):
        return None  # two words: not one word misread
    if len(text) < HANGUL_MIN_SYLLABLES or not all(is_hangul(c) for c in text):
        return None
    if min(w.confidence for w in words) < HANGUL_MIN_CONF:
        return None
    return text


def _unit_for(mixed: str, korean: str, confidence: float) -> bool:
    """The Korean model's reading `korean` of a number the mixed model read as `mixed` is
    taken when it is the same number with a Korean unit ("2018년", "764점") whose syllable
    the mixed model read as one or two digits or a "%" after it ("20184", "201714", "764%"),
    at HANGUL_MIN_CONF."""
    m = _WITH_UNIT.fullmatch(korean)
    if m is None or confidence < HANGUL_MIN_CONF:
        return False
    number = m.group(1)
    rest = mixed[len(number) :].rstrip(")],.")
    return (
        mixed.startswith(number)
        and 1 <= len(rest) <= 2
        and all(c.isdigit() or c == "%" for c in rest)
    )


def _korean_lines(reading: Reading) -> list[int]:
    return [
        i
        for i, words in enumerate(reading.line_words)
        if any(is_hangul(c) for w in words for c in w.text)
    ]


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


@dataclass(frozen=True)
class Pass:
    """Which words to read again (`wanted`, in Korean lines or in all of them) and what to
    make of a word's new reading (`decide`: its new text, or None to keep it)."""

    wanted: Callable[[Word], bool]
    decide: Callable[[Word, list[Word]], str | None]
    korean_only: bool = True


def _reread(image: Image.Image, reading: Reading, langs: str, passes: list[Pass]) -> Reading:
    """`reading` with the words each pass wants read again by `langs`, all of them in one
    strip (one Tesseract run: most of a run's time is loading the model), and replaced
    where the pass decides so."""

    todo: list[tuple[int, int, Pass]] = []
    for p in passes:
        lines_in = _korean_lines(reading) if p.korean_only else range(len(reading.line_words))
        todo += [
            (i, j, p) for i in lines_in for j, w in enumerate(reading.line_words[i]) if p.wanted(w)
        ][:MAX_WORDS]
    if not todo:
        return reading
    words = [reading.line_words[i][j] for i, j, _ in todo]
    strip, tops = _strip(image, words)
    try:
        again = read_page(strip, psm=6, langs=langs)
    except OcrEngineError:
        return reading
    rows: dict[int, list[Word]] = {}
    for w in again.words:
        middle = (w.box[1] + w.box[3]) / 2
        k = max((k for k, top in enumerate(tops) if top <= middle), default=0)
        rows.setdefault(k, []).append(w)
    changed: dict[int, dict[int, str]] = {}
    for k, (i, j, p) in enumerate(todo):
        if rows.get(k) and (new := p.decide(words[k], rows[k])) is not None:
            changed.setdefault(i, {})[j] = new
    lines, line_words = list(reading.lines), [list(ws) for ws in reading.line_words]
    for i, texts in changed.items():
        spans = word_spans(lines[i], line_words[i])
        if spans is None:
            continue
        for j in sorted(texts, reverse=True):
            start, end = spans[j]
            lines[i] = lines[i][:start] + texts[j] + lines[i][end:]
            line_words[i][j] = replace(line_words[i][j], text=texts[j])
    return replace(reading, lines=lines, line_words=line_words)


def _latin_decide(word: Word, got: list[Word]) -> str | None:
    if len(got) == 1 and _latin_for(word.text, got[0].text, got[0].confidence):
        return got[0].text
    return None


def _hangul_decide(word: Word, got: list[Word]) -> str | None:
    hangul = _hangul_for(got)
    if hangul is None:
        return None
    core = word.text.strip(_EDGES)
    at = word.text.index(core)
    return word.text[:at] + hangul + word.text[at + len(core) :]


def _unit_decide(word: Word, got: list[Word]) -> str | None:
    # the Korean model gives the unit as a word of its own ("2018", "년")
    if len(got) == 2 and len(got[1].text) == 1 and is_hangul(got[1].text):
        joined = got[0].text + got[1].text
        if _unit_for(word.text, joined, got[1].confidence):
            return joined
    return None


LATIN_READ_AS_DIGITS = Pass(lambda w: bool(DIGITS.fullmatch(w.text)), _latin_decide)
HANGUL_READ_AS_LATIN = Pass(lambda w: bool(LATIN.fullmatch(w.text.strip(_EDGES))), _hangul_decide)
# in any line: "TOEIC 768점" read "TOEIC 7684" holds no Hangul any more
UNIT_READ_AS_DIGITS = Pass(lambda w: bool(NUMBER.fullmatch(w.text)), _unit_decide, False)


def latin_reread(image: Image.Image, reading: Reading) -> Reading:
    """`reading` with the Latin words its Korean lines read as digits read again in English
    (see the module's notes)."""
    return _reread(image, reading, "eng", [LATIN_READ_AS_DIGITS])


def hangul_reread(image: Image.Image, reading: Reading) -> Reading:
    """`reading` with the Korean words its Korean lines read as Latin letters read again in
    Korean (see the module's notes). Marks around the word ("(", ":") keep the first
    reading's."""
    return _reread(image, reading, "kor", [HANGUL_READ_AS_LATIN])


def units_reread(image: Image.Image, reading: Reading) -> Reading:
    """`reading` with the numbers whose Korean unit was read as a digit or a "%" read again
    in Korean (see `_unit_for`), in any line. Only the unit's syllable's confidence counts:
    the number's digits must be the first reading's."""
    return _reread(image, reading, "kor", [UNIT_READ_AS_DIGITS])


def korean_reread(image: Image.Image, reading: Reading) -> Reading:
    """`hangul_reread` and `units_reread` in one Korean run."""
    return _reread(image, reading, "kor", [UNIT_READ_AS_DIGITS, HANGUL_READ_AS_LATIN])
