"""Steps of the OCR and masking graphs. Each docstring says what it reads and writes.

CPU-bound work (PDF rendering, Tesseract, OpenCV) runs in worker threads, never on the
event loop; pages of one document run in parallel within `PAGE_PARALLELISM`.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.graph import END
from langgraph.types import Command

from core.cache import cache_key
from core.errors import ModelUnavailableError
from core.services import get_services
from nodes.documents.state import DocumentState
from scan.intake import Document, Limits, open_document, reject
from scan.masking import mask_page
from scan.ocr import read_text
from scan.pages import TEXT_LAYER_MIN_CHARS, PageImage, load_pages, prepare_for_ocr
from scan.tesseract import tesseract_version
from scan.vision import PROMPT, needs_second_opinion, read_with_model

log = logging.getLogger(__name__)

PAGE_PARALLELISM = 2
MASK_DPI = 150
# Part of the masking page cache's key: bump it when the detectors or the drawing change.
MASKING_VERSION = "27"
# Part of the OCR cache's key: bump it when the page clean-up or the reading changes.
OCR_VERSION = "25"


def limits() -> Limits:
    s = get_services().settings
    return Limits(s.upload_max_bytes, s.upload_max_pages, s.upload_max_pixels)


def _progress(config: RunnableConfig) -> Callable[[int], Awaitable[None]] | None:
    return config.get("configurable", {}).get("progress")


async def _report(config: RunnableConfig, percent: int) -> None:
    progress = _progress(config)
    if progress is not None:
        await progress(percent)


def decode_file(state: DocumentState) -> bytes:
    """Jobs pass bytes; Studio and JSON callers pass base64 in `file_b64`."""
    file_bytes = state.get("file_bytes")
    if file_bytes is not None:
        return file_bytes
    try:
        return base64.b64decode(state.get("file_b64") or "", validate=True)
    except (binascii.Error, ValueError) as exc:
        raise reject("INVALID_BASE64", "file_b64 is not valid base64") from exc


async def check_upload(data: bytes) -> Document:
    """The upload opened and checked (type, size, pages): a bad file raises its 4xx."""
    return await asyncio.to_thread(open_document, data, limits())


async def read_document(state: DocumentState) -> dict[str, Any]:
    """Reads the file; checks type, size and pages; writes `document`."""
    return {"document": await check_upload(decode_file(state)), "file_bytes": None}


def ocr_cache_key(doc: Document) -> str:
    settings = get_services().settings
    engine: str = settings.ocr_engine
    if engine != "tesseract":
        engine += f":{settings.ocr_model}:{PROMPT.tag}"
    return cache_key(
        "ocr", doc.sha256, tesseract_version(), engine, str(settings.ocr_max_side), OCR_VERSION
    )


async def check_ocr_cache(state: DocumentState) -> Command:
    """Reads `document`; on a hit writes the cached result and ends."""
    key = await asyncio.to_thread(ocr_cache_key, state["document"])
    hit = await get_services().cache.get(key)
    if hit is not None:
        return Command(goto=END, update={"result": {**hit, "cached": True}})
    return Command(goto="extract_text", update={"cache_key": key})


def _tesseract_text(page: PageImage, max_side: int) -> str:
    return read_text(prepare_for_ocr(page.image, max_side).image)


async def page_text(page: PageImage, engine: str, max_side: int) -> tuple[str, str]:
    """(text, engine that produced it) for one page, by the configured engine."""
    if len(page.text_layer) >= TEXT_LAYER_MIN_CHARS:
        return page.text_layer, "pdf-text-layer"
    if engine == "gemini":
        return await read_with_model(page.image), "vision-model"
    text = await asyncio.to_thread(_tesseract_text, page, max_side)
    if engine == "auto" and needs_second_opinion(text):
        try:
            return await read_with_model(page.image), "vision-model"
        except ModelUnavailableError:
            log.info("auto OCR: no vision model configured; keeping Tesseract's text")
    return text, "tesseract"


async def _each_page(
    pages: list[PageImage],
    work: Callable[[PageImage], Awaitable[Any]],
    config: RunnableConfig,
    start: int,
    page_key: Callable[[PageImage], str],
) -> list[Any]:
    """Run `work` on every page, at most PAGE_PARALLELISM at once, reporting progress.

    Each page's result is kept under `page_key(page)` (which names the file's SHA-256 and
    the settings) for JOB_TTL_S: a job re-delivered after its worker died, or the same file
    sent again, reuses the pages already done instead of redoing them."""
    services = get_services()
    slots = asyncio.Semaphore(PAGE_PARALLELISM)
    done = 0

    async def one(page: PageImage) -> Any:
        nonlocal done
        key = page_key(page)
        result = await services.cache.get(key)
        if result is None:
            async with slots:
                result = await work(page)
            await services.cache.set(key, result, services.settings.job_ttl_s)
        done += 1
        await _report(config, start + (95 - start) * done // len(pages))
        return result

    return await asyncio.gather(*(one(p) for p in pages))


async def extract_text(state: DocumentState, config: RunnableConfig) -> dict[str, Any]:
    """Reads `document`; writes `result` (the contract's OCR result) and caches it."""
    services = get_services()
    doc: Document = state["document"]
    pages = await asyncio.to_thread(load_pages, doc)
    await _report(config, 10)
    settings = services.settings
    texts = await _each_page(
        pages,
        lambda p: page_text(p, settings.ocr_engine, settings.ocr_max_side),
        config,
        10,
        lambda p: cache_key("ocr-page", state["cache_key"], str(p.number)),
    )
    engines = sorted({engine for _, engine in texts})
    result = {
        "extracted_text": "\n\n".join(text for text, _ in texts),
        "pages": [
            {"page": p.number, "text": text} for p, (text, _) in zip(pages, texts, strict=True)
        ],
        "ocr_engine": "+".join(engines),
        "cached": False,
    }
    await services.cache.set(state["cache_key"], result, services.settings.ocr_cache_ttl_s)
    return {"result": result}


async def draft_mask(state: DocumentState, config: RunnableConfig) -> dict[str, Any]:
    """Reads `document`; writes `result`: per page the detected PII and a masked PNG."""
    doc: Document = state["document"]
    pages = await asyncio.to_thread(load_pages, doc, MASK_DPI, char_boxes=True)
    await _report(config, 10)
    settings = await asyncio.to_thread(
        lambda: (MASKING_VERSION, str(MASK_DPI), tesseract_version())
    )
    masked = await _each_page(
        pages,
        lambda p: asyncio.to_thread(mask_page, p),
        config,
        10,
        lambda p: cache_key("mask-page", doc.sha256, *settings, str(p.number)),
    )
    return {"result": {"pages": masked}}
