"""OCR and masking seconds per page (real Tesseract, the graphs the jobs run).

Pages are the documents eval's rendered resumes (A4 at 150 dpi, Korean, with PII): one page
per request, clean and noisy, then the same pages as one multi-page scanned PDF, whose
pages the graph reads PAGE_PARALLELISM at a time, and as a born-digital PDF (masked from its
text layer); then the first development pages of evals/documents_hard.py (noisy scans, small
text, JPEG, skew). Caches are off, so every page is read.

    python -m bench.run --only documents
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from bench.measure import percentile
from core.cache import MissingCache
from core.services import in_process_services, set_services
from evals.documents import render_page, to_pdf, to_png, to_text_pdf, with_noise
from evals.documents_hard import pages as hard_pages
from graphs.documents import build_masking_graph, build_ocr_graph
from nodes.documents.steps import PAGE_PARALLELISM

HARD_PAGES = 12  # the first development pages of evals/documents_hard.py


async def _timed(graph: Any, data: bytes) -> tuple[float, dict[str, Any]]:
    started = time.perf_counter()
    out = await graph.ainvoke({"file_bytes": data})
    return time.perf_counter() - started, out["result"]


async def seconds_per_page(people: int = 3) -> dict[str, Any]:
    set_services(in_process_services(cache=MissingCache()))
    try:
        ocr, masking = build_ocr_graph().compile(), build_masking_graph().compile()
        pages = [render_page(person=p) for p in range(people)]
        pages += [with_noise(page, seed=i) for i, page in enumerate(pages)]
        ocr_s, mask_s = [], []
        for page in pages:
            seconds, result = await _timed(ocr, to_png(page))
            assert result["extracted_text"].strip(), "OCR read nothing"
            ocr_s.append(seconds)
            seconds, result = await _timed(masking, to_png(page))
            assert result["pages"][0]["detected_pii"], "masking found no PII"
            mask_s.append(seconds)
        pdf_ocr, result = await _timed(ocr, to_pdf(pages))
        assert len(result["pages"]) == len(pages)
        pdf_mask, result = await _timed(masking, to_pdf(pages))
        assert len(result["pages"]) == len(pages)
        drawn = pages[:people]  # the clean renders: a born-digital PDF of the same pages
        text_pdf_mask, result = await _timed(masking, to_text_pdf(drawn))
        assert all(p["detected_pii"] for p in result["pages"])
        hard_ocr, hard_mask = [], []
        for hp in hard_pages("dev", HARD_PAGES):  # noisy scans: where the second look works
            seconds, _ = await _timed(ocr, hp.file_bytes)
            hard_ocr.append(seconds)
            seconds, _ = await _timed(masking, hp.file_bytes)
            hard_mask.append(seconds)
    finally:
        set_services(None)
    single_ocr, single_mask = statistics.median(ocr_s), statistics.median(mask_s)
    return {
        "pages": len(pages),
        "page_parallelism": PAGE_PARALLELISM,
        "ocr_page_p50_s": round(single_ocr, 2),
        "ocr_page_p95_s": round(percentile(ocr_s, 0.95), 2),
        "mask_page_p50_s": round(single_mask, 2),
        "mask_page_p95_s": round(percentile(mask_s, 0.95), 2),
        "pdf_ocr_s_per_page": round(pdf_ocr / len(pages), 2),
        "pdf_mask_s_per_page": round(pdf_mask / len(pages), 2),
        "pdf_ocr_ratio": round(pdf_ocr / len(pages) / single_ocr, 3),
        "pdf_mask_ratio": round(pdf_mask / len(pages) / single_mask, 3),
        "text_pdf_mask_s_per_page": round(text_pdf_mask / people, 2),
        "hard_pages": len(hard_ocr),
        "hard_ocr_page_p50_s": round(statistics.median(hard_ocr), 2),
        "hard_ocr_page_p95_s": round(percentile(hard_ocr, 0.95), 2),
        "hard_mask_page_p50_s": round(statistics.median(hard_mask), 2),
        "hard_mask_page_p95_s": round(percentile(hard_mask, 0.95), 2),
    }
