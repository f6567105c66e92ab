"""What one Tesseract pass gives: words with their boxes, grouped into lines. Shared by the
reader (`ocr.py`) and what corrects its reading from the page's ink (`glyphs.py`)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Word:
    text: str
    box: tuple[int, int, int, int]  # x1, y1, x2, y2 in the OCR image's pixels
    confidence: float
    line: tuple[int, int, int]  # (block, paragraph, line) as Tesseract numbers them


@dataclass
class Reading:
    """One Tesseract pass over an image: its text lines (Tesseract's own spacing) and its
    words, grouped by the same lines (`lines[i]` is the text of `line_words[i]`)."""

    lines: list[str]
    line_words: list[list[Word]]

    @property
    def words(self) -> list[Word]:
        return [w for line in self.line_words for w in line]

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def word_height(words: list[Word]) -> int:
    heights = sorted(w.box[3] - w.box[1] for w in words)
    return max(1, heights[len(heights) // 2])


def is_hangul(ch: str) -> bool:
    return "\uac00" <= ch <= "\ud7a3"
