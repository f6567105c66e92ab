"""Pages of a document as images (and text layers), ready for OCR or masking."""

from __future__ import annotations

import io
import math
import threading
from dataclasses import dataclass, field

import cv2
import numpy as np
from PIL import Image, ImageOps

from scan import preprocess
from scan.intake import Document

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


MIN_SKEW = 0.5  # degrees; Tesseract reads a smaller skew as well as none


@dataclass
class Prepared:
    """A page made ready for OCR, and the way back from its pixels to the page's own."""

    image: Image.Image
    scale: float  # prepared pixels per page pixel
    angle: float  # degrees the page was turned by (counter-clockwise), to undo its skew

    def to_page(
        self, box: tuple[int, int, int, int], size: tuple[int, int]
    ) -> tuple[int, int, int, int]:
        """A box in the prepared image as the bounding box of its corners on the page of
        `size` (turned back, then scaled back), clipped to it."""
        x1, y1, x2, y2 = box
        corners = np.array([[x1, y1], [x2, y1], [x1, y2], [x2, y2]], np.float64)
        if self.angle:
            w, h = self.image.size
            back = cv2.getRotationMatrix2D((w / 2, h / 2), -self.angle, 1.0)
            corners = corners @ back[:, :2].T + back[:, 2]
        corners /= self.scale
        width, height = size
        return (
            max(0, int(corners[:, 0].min())),
            max(0, int(corners[:, 1].min())),
            min(width, math.ceil(corners[:, 0].max())),
            min(height, math.ceil(corners[:, 1].max())),
        )


UNRULE_UPRIGHT = True


def prepare_for_ocr(
    image: Image.Image, max_side: int, steps: tuple[str, ...] | None = None
) -> Prepared:
    """Grayscale, longest side at most `max_side`, the clean-up steps
    `preprocess.choose_steps` picks for the page (or `steps`), then turned upright when it
    is skewed by `MIN_SKEW` degrees or more (and a column's rule erased again, when
    erasing rules is one of the steps: `preprocess.column_rules_erased`)."""
    gray = np.array(image.convert("L"))
    height, width = gray.shape
    quality = preprocess.estimate_quality(gray)
    scale = min(1.0, max_side / max(height, width))
    if scale != 1.0:
        gray = cv2.resize(
            gray,
            (round(width * scale), round(height * scale)),
            interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC,
        )
    chosen = preprocess.choose_steps(quality) if steps is None else steps
    gray = preprocess.apply(gray, chosen)
    skew = preprocess.deskew_angle(gray)
    angle = 0.0
    if abs(skew) >= MIN_SKEW:
        angle = -skew
        h, w = gray.shape
        turn = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
        gray = cv2.warpAffine(
            gray,
            turn,
            (w, h),
            flags=cv2.INTER_CUBIC,
            borderMode=cv2.BORDER_CONSTANT,
            borderValue=int(np.percentile(gray, 90)),
        )
        if UNRULE_UPRIGHT and "unrule" in chosen:
            gray = preprocess.column_rules_erased(gray)
    return Prepared(Image.fromarray(gray), scale, angle)
