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
"""

from __future__ import annotations

from dataclasses import replace

from nodes.documents.glyphs import word_spans
from nodes.documents.words import Reading, is_hangul

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
            if all(c in STRAY for c in word.text):
                left, right = text[:start], text[end:]
                spaced = left.endswith(" ") or right.startswith(" ")
                text = (left.rstrip() + (" " if spaced else "") + right.lstrip()).strip()
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
