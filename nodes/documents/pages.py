"""Pages of a document as images (and text layers), ready for OCR or masking."""

from __future__ import annotations

import io
import math
import threading
from dataclasses import dataclass, field

import cv2
import numpy as np
from PIL import Image, ImageOps

from nodes.documents import preprocess
from nodes.documents.intake import Document

# PDFium is not thread-safe: every call into it goes through this lock.
PDFIUM_LOCK = threading.Lock()
RENDER_DPI = 200
TEXT_LAYER_MIN_CHARS = 20  # fewer characters than this on a PDF page: treat it as scanned


@dataclass(frozen=True)
class TextChar:
    """A character of a PDF's text layer and its box in the rendered page's pixels."""

    char: str
    box: tuple[int, int, int, int]


@dataclass
class PageImage:
    number: int  # 1-based
    image: Image.Image  # RGB, at the document's own pixel size (or rendered at `dpi`)
    dpi: int | None
    text_layer: str
    chars: list[TextChar] = field(default_factory=list)  # only when asked for


def _text_chars(textpage: object, page_height_pt: float, scale: float) -> list[TextChar]:
    """Every character PDFium knows on the page, with its tight box (the glyph's ink, what
    a mask must cover) in pixels. Line breaks PDFium generates come as characters too."""
    chars = []
    for index in range(textpage.count_chars()):  # type: ignore[attr-defined]
        char = textpage.get_text_range(index, 1)  # type: ignore[attr-defined]
        if not char:
            continue
        left, bottom, right, top = textpage.get_charbox(index)  # type: ignore[attr-defined]
        box = (
            int(left * scale),
            int((page_height_pt - top) * scale),
            math.ceil(right * scale),
            math.ceil((page_height_pt - bottom) * scale),
        )
        chars.append(TextChar(char, box))
    return chars


def load_pages(
    doc: Document, dpi: int = RENDER_DPI, *, char_boxes: bool = False
) -> list[PageImage]:
    """Every page as an image; a PDF page also with its text layer and, when `char_boxes`,
    each text-layer character's box (for masking a born-digital PDF without OCR)."""
    if doc.mime != "application/pdf":
        with Image.open(io.BytesIO(doc.data)) as img:
            upright = ImageOps.exif_transpose(img).convert("RGB")
        return [PageImage(1, upright, None, "")]
    import pypdfium2 as pdfium

    pages = []
    with PDFIUM_LOCK:
        pdf = pdfium.PdfDocument(doc.data)
        try:
            for index in range(len(pdf)):
                page = pdf[index]
                textpage = page.get_textpage()
                text = textpage.get_text_range().strip()
                image = page.render(scale=dpi / 72).to_pil().convert("RGB")
                chars = _text_chars(textpage, page.get_height(), dpi / 72) if char_boxes else []
                pages.append(PageImage(index + 1, image, dpi, text, chars))
        finally:
            pdf.close()
    return pages


def prepare_for_ocr(
    image: Image.Image, max_side: int, steps: tuple[str, ...] | None = None
) -> tuple[Image.Image, float]:
    """Grayscale, longest side at most `max_side` (small text enlarged, within it), then the
    clean-up steps `preprocess.choose_steps` picks for the page (or `steps`). Returns the
    prepared image and the scale from it back to the input."""
    gray = np.array(image.convert("L"))
    height, width = gray.shape
    quality = preprocess.estimate_quality(gray)
    scale = min(preprocess.upscale_factor(quality), max_side / max(height, width))
    if scale != 1.0:
        gray = cv2.resize(
            gray,
            (round(width * scale), round(height * scale)),
            interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC,
        )
    chosen = preprocess.choose_steps(quality) if steps is None else steps
    return Image.fromarray(preprocess.apply(gray, chosen)), 1.0 / scale
