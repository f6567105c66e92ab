"""What an uploaded document is, decided from its bytes (never its name), and whether it is
safe to process: type, size, page count, pixel count, broken or encrypted PDFs.

Every rejection is a 4xx with its own code, raised before a job is created.
"""

from __future__ import annotations

import hashlib
import io
import warnings
from dataclasses import dataclass

from PIL import Image

from core.errors import InvalidInputError

MIME_BY_MAGIC = (
    (b"%PDF-", "application/pdf"),
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
)


@dataclass(frozen=True)
class Limits:
    max_bytes: int = 20 * 1024 * 1024
    max_pages: int = 20
    max_pixels: int = 40_000_000  # per image or rendered page: a decompression-bomb guard


@dataclass(frozen=True)
class Document:
    mime: str
    data: bytes
    sha256: str
    pages: int


def reject(code: str, message: str, status: int = 422) -> InvalidInputError:
    return InvalidInputError(message, code=code, field="file", status_code=status)


def sniff(data: bytes) -> str | None:
    """MIME type from magic bytes: PDF, PNG, JPEG, WEBP; None for anything else."""
    for magic, mime in MIME_BY_MAGIC:
        if data.startswith(magic):
            return mime
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return None


def _check_image(data: bytes, limits: Limits) -> None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as img:
                width, height = img.size
                if width * height > limits.max_pixels:
                    raise reject(
                        "IMAGE_TOO_LARGE",
                        f"image is {width}x{height} pixels; the limit is "
                        f"{limits.max_pixels:,} pixels",
                        413,
                    )
                img.verify()
    except InvalidInputError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        raise reject("IMAGE_TOO_LARGE", "image has too many pixels", 413) from exc
    except Exception as exc:
        raise reject("BROKEN_IMAGE", "the image cannot be decoded") from exc


def _count_pdf_pages(data: bytes, limits: Limits) -> int:
    import pypdfium2 as pdfium

    try:
        pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        if "password" in str(exc).lower():
            raise reject("ENCRYPTED_PDF", "the PDF is password-protected") from exc
        raise reject("BROKEN_PDF", "the PDF cannot be opened") from exc
    try:
        pages = len(pdf)
        if pages == 0:
            raise reject("BROKEN_PDF", "the PDF has no pages")
        if pages > limits.max_pages:
            raise reject(
                "TOO_MANY_PAGES", f"the PDF has {pages} pages; the limit is {limits.max_pages}"
            )
        for index in range(pages):
            w, h = pdf[index].get_size()
            if w * h > 50 * 50 * 72 * 72:  # a page larger than 50x50 inches is not a document
                raise reject("PAGE_TOO_LARGE", f"page {index + 1} is implausibly large", 413)
        return pages
    finally:
        pdf.close()


def open_document(data: bytes, limits: Limits) -> Document:
    if not data:
        raise reject("EMPTY_FILE", "the file is empty")
    if len(data) > limits.max_bytes:
        raise reject(
            "FILE_TOO_LARGE",
            f"the file is {len(data):,} bytes; the limit is {limits.max_bytes:,}",
            413,
        )
    mime = sniff(data)
    if mime is None:
        raise reject(
            "UNSUPPORTED_FILE_TYPE", "only PDF, PNG, JPEG and WEBP files are accepted", 415
        )
    if mime == "application/pdf":
        pages = _count_pdf_pages(data, limits)
    else:
        _check_image(data, limits)
        pages = 1
    return Document(mime, data, hashlib.sha256(data).hexdigest(), pages)
