"""Draft a PII mask for one page: OCR word boxes -> lines -> detectors -> value boxes
(split out of their word by character position) -> faces -> a masked PNG.

Pages larger than 2048 px are processed downscaled and every box is mapped back to the
page's own pixels.
"""

from __future__ import annotations

import base64
import io
import statistics
import unicodedata
from dataclasses import dataclass

import cv2
import numpy as np
from PIL import ImageDraw

from nodes.documents.ocr import Word, is_hangul, line_separators, lines_of, read_words
from nodes.documents.pages import PageImage, prepare_for_ocr
from nodes.documents.pii import PiiMatch, drop_overlaps, find_pii

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


def find_pii_tolerant(text: str, *, allow_bare_name: bool) -> list[PiiMatch]:
    """Detectors on the line as read and on the line with split syllables rejoined (a lone
    Hangul syllable followed by a space and Hangul; spans are mapped back), so "이름 이 서 연"
    and "서 울특별시" are still found."""
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
    compact = "".join(text[i] for i in keep)
    mapped = [
        PiiMatch(m.type, keep[m.start], keep[m.end - 1] + 1, m.text, m.confidence)
        for m in find_pii(compact, allow_bare_name=allow_bare_name)
    ]
    return drop_overlaps(find_pii(text, allow_bare_name=allow_bare_name) + mapped)


def detect_in_words(words: list[Word], page_height: int) -> list[Detected]:
    found: list[Detected] = []
    for line_words in lines_of(words):
        text, spans = _line_spans(line_words)
        in_header = line_words[0].box[1] < page_height * HEADER_SHARE
        for match in find_pii_tolerant(text, allow_bare_name=in_header):
            boxes, confidences = [], []
            for start, end, word in spans:
                lo, hi = max(match.start, start), min(match.end, end)
                if lo < hi:
                    boxes.append(_sub_box(word, lo - start, hi - start))
                    confidences.append(word.confidence)
            if not boxes:
                continue
            box = (
                min(b[0] for b in boxes),
                # Vertical extent from the median word: Tesseract now and then gives one
                # glyph a box twice the line's height, which would double the mask.
                int(statistics.median(b[1] for b in boxes)),
                max(b[2] for b in boxes),
                int(statistics.median(b[3] for b in boxes)),
            )
            ocr_conf = min(confidences) if confidences else 1.0
            found.append(
                Detected(match.type, match.text, box, match.confidence * max(0.5, ocr_conf))
            )
    return found


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


def mask_page(page: PageImage) -> dict:
    """Detected PII with boxes in the page's own pixels, and the masked page as a PNG."""
    image = page.image
    prepared, back = prepare_for_ocr(image, MAX_SIDE)
    words = read_words(prepared)
    items = detect_in_words(words, prepared.height)
    for box in detect_faces(np.array(prepared)):
        items.append(Detected("face", None, box, 0.7))
    for item in items:
        item.box = _scaled(item.box, back, image.size)
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
