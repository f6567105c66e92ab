"""Specks read as punctuation: what despeckling leaves beside the text, Tesseract reads as a
word of its own (". 컴퓨터공학과", "연락처 ㆍ 010-...") or as a mark leading a word ("“TOEIC",
".학점", "_010-4364-9950", "—«1987-03-28"). Tesseract is sure of them (a speck read "."
scored 0.88-0.93 on dev7-32), so they are told apart by what text does not do:
- a word that is only such marks (`STRAY`) stands between spaces in no resume's text: it is
  dropped ("-", "~", "|", ":", "/", "→" and "■" are words of their own and stay; so does "·");
- a word led by a quote mark that nothing later in its line closes loses the quote mark (an
  opened quotation, "‘고객 중심’", keeps it);
- a word led by "_", "—", "«", "»", "ㆍ", "`" or "\\" before a letter, a digit or "+" loses
  them, and a "." before Hangul (".NET" keeps its dot).
Trailing marks stay: "감소." and "Inc." are text.

And an e-mail address, a URL or a handle cut in two is joined again (`addresses_joined`).
"""

from __future__ import annotations

import re
from dataclasses import replace

from scan.glyphs import spans_removed, word_spans
from scan.words import Reading, is_hangul

STRAY = frozenset(".,'`\"“”‘’«»_ㆍ°\\;")
QUOTES = {"'": "'", '"': '"', "“": "”", "‘": "’", "`": "'`"}  # opening -> what closes it
LEADERS = frozenset("_—«»ㆍ`\\")


def _lead_stripped(text: str, rest: str) -> str:
    """`text` without the stray marks leading it; `rest` is the line after the word's first
    character (where a quote would be closed)."""
    while len(text) > 1:
        first, after = text[0], text[1]
        if not (after.isalnum() or after in "+" or after in STRAY or after in LEADERS):
            break
        unclosed = first in QUOTES and not any(c in rest for c in QUOTES[first])
        leader = first in LEADERS and first not in QUOTES
        if not (unclosed or leader or (first == "." and is_hangul(after))):
            break
        text = text[1:]
    return text


def strays_dropped(reading: Reading) -> Reading:
    """`reading` without the specks it read as punctuation (see the module's notes). A line
    keeps Tesseract's spacing; one left with no word is dropped."""
    lines: list[str] = []
    line_words = []
    changed = False
    for line, words in zip(reading.lines, reading.line_words, strict=True):
        spans = word_spans(line, words)
        if spans is None:
            lines.append(line)
            line_words.append(words)
            continue
        text, kept = line, []
        for (start, end), word in reversed(list(zip(spans, words, strict=True))):
            if all(c in STRAY for c in word.text):  # right to left: spans before stay valid
                text = spans_removed(text, [(start, end)])
                changed = True
                continue
            cleaned = _lead_stripped(word.text, line[start + 1 :])
            if cleaned != word.text:
                # the speck stood in the space before the word: "파이프라인'개선으로"
                glued = start > 0 and text[start - 1] != " "
                text = text[:start] + (" " if glued else "") + cleaned + text[end:]
                word = replace(word, text=cleaned)
                changed = True
            kept.append(word)
        if kept:
            lines.append(text)
            line_words.append(kept[::-1])
        else:
            changed = True
    return Reading(lines, line_words) if changed else reading


# An e-mail address, a URL or a handle that Tesseract cut in two at its "@" or after a dot
# (a speck or a wide "@" taken for a space): "dnamgung88 @icloud.com", "velog.io/ @jian95",
# "lee. doyun52@icloud.com", "www. jiyulee.me".
_DOMAIN_AT = re.compile(r"^@[\w-]+(\.[\w-]+)+$", re.ASCII)  # "@icloud.com"
_HANDLE_AT = re.compile(r"^@[\w.-]{2,}$", re.ASCII)  # "@jian95"
_EMAIL = re.compile(r"^[\w.+-]+@[\w-]+(\.[\w-]+)+$", re.ASCII)
_LOCAL = re.compile(r"^[\w.+-]*\w$", re.ASCII)  # an address's local part
_LOCAL_DOT = re.compile(r"^[a-z0-9_]+[._-]$", re.ASCII)  # "lee."


_EMAIL_DOT = re.compile(r"^[\w.+-]+@[\w.-]+\.$", re.ASCII)  # "seo.sol72@yonsei.ac."
_TLD = re.compile(r"^[a-z]{2,6}$", re.ASCII)
_URL_START = re.compile(r"^(https?:|(https?://)?www\.)$", re.ASCII)  # "https:", "www."
_URL_REST = re.compile(r"^(//)?[\w-]+(\.[\w-]+)+\S*$", re.ASCII)


def _joined(left: str, right: str) -> bool:
    """Whether `left right` is one address that a space cut: a local part before
    "@domain.tld", a URL's path ("velog.io/") before "@handle", a lower-case local part's
    first piece ending in "." before "name@domain.tld", an address before its last label
    ("seo.sol72@yonsei.ac. kr"), or a URL's scheme or "www." before the rest ("https:
    //github.com/...", "www. jiyulee.me"). "Twitter @handle" and "GitHub: @handle" stay
    apart (a handle joins only a URL ending in "/")."""
    if _DOMAIN_AT.match(right) and _LOCAL.match(left):
        return True
    if _HANDLE_AT.match(right) and left.endswith("/") and "." in left:
        return True
    if _EMAIL_DOT.match(left) and _TLD.match(right):
        return True
    if _URL_START.match(left) and _URL_REST.match(right):
        return right.startswith("//") == left.endswith(":")
    return bool(_LOCAL_DOT.match(left) and _EMAIL.match(right))


def addresses_joined(reading: Reading) -> Reading:
    """`reading` with e-mail addresses, URLs and handles that Tesseract cut in two joined
    again (see `_joined`; an address cut twice is joined in two passes); the joined word's
    box covers both."""
    for _ in range(3):
        joined = _joined_once(reading)
        if joined is reading:
            break
        reading = joined
    return reading


def _joined_once(reading: Reading) -> Reading:
    lines: list[str] = []
    line_words = []
    changed = False
    for line, words in zip(reading.lines, reading.line_words, strict=True):
        spans = word_spans(line, words)
        cuts = (
            []
            if spans is None
            else [k for k in range(len(words) - 1) if _joined(words[k].text, words[k + 1].text)]
        )
        if not cuts:
            lines.append(line)
            line_words.append(words)
            continue
        changed = True
        assert spans is not None  # cuts are found only in spans
        words = list(words)
        for k in reversed(cuts):
            (_, end), (start, _) = spans[k], spans[k + 1]
            line = line[:end] + line[start:]
            a, b = words[k], words[k + 1]
            box = (
                min(a.box[0], b.box[0]),
                min(a.box[1], b.box[1]),
                max(a.box[2], b.box[2]),
                max(a.box[3], b.box[3]),
            )
            words[k : k + 2] = [replace(a, text=a.text + b.text, box=box)]
        lines.append(line)
        line_words.append(words)
    return Reading(lines, line_words) if changed else reading
