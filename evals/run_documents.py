"""OCR and masking evals on generated pages with known text and PII boxes.

    python -m evals.run_documents

Writes evals/results/documents-latest.{json,md}. Targets (the seed's): CER < 5%,
WER < 10%, PII recall > 98%, false positives < 10%, mean IoU > 0.8.
"""

from __future__ import annotations

import asyncio
import time
from collections import defaultdict
from typing import Any

from core.services import in_process_services, set_services
from evals.documents import (
    HOLDOUT_PEOPLE,
    Page,
    render_page,
    to_pdf,
    to_png,
    with_blur,
    with_noise,
    with_rotation,
)
from evals.metrics import cer, match_boxes, wer
from evals.report import write_results
from graphs.documents import build_masking_graph, build_ocr_graph

TARGETS = {"cer": 0.05, "wer": 0.10, "recall": 0.98, "fp_rate": 0.10, "iou": 0.8}


def pages() -> list[tuple[str, Page]]:
    out = []
    for person in range(3):
        for layout in ("inline", "table"):
            base = render_page(person=person, layout=layout)
            out += [
                (f"p{person}-{layout}-clean", base),
                (f"p{person}-{layout}-noise", with_noise(base, seed=person)),
                (f"p{person}-{layout}-blur", with_blur(base)),
                (f"p{person}-{layout}-rotated", with_rotation(base)),
            ]
        out.append((f"p{person}-small-font", render_page(person=person, size=22, font="barun")))
    return out


def holdout_pages() -> list[tuple[str, Page]]:
    """Other people (other name, address, e-mail and URL forms), other fonts: a set the
    detectors were not tuned on."""
    out = []
    for person in range(len(HOLDOUT_PEOPLE)):
        for font, layout in (("myeongjo", "inline"), ("square", "table"), ("gothic", "table")):
            base = render_page(person=person, font=font, layout=layout, people=HOLDOUT_PEOPLE)
            out += [
                (f"h{person}-{font}-{layout}-clean", base),
                (f"h{person}-{font}-{layout}-noise", with_noise(base, seed=10 + person)),
                (f"h{person}-{font}-{layout}-rotated", with_rotation(base, -1.0)),
            ]
    return out


async def run(which: str = "tuning") -> dict[str, Any]:
    set_services(in_process_services())
    ocr = build_ocr_graph().compile()
    masking = build_masking_graph().compile()
    rows = []
    by_type: dict[str, dict[str, list]] = defaultdict(lambda: {"ious": [], "missed": 0})
    found_total = unmatched_total = 0
    for name, page in pages() if which == "tuning" else holdout_pages():
        started = time.perf_counter()
        text = (await ocr.ainvoke({"file_bytes": to_png(page)}))["result"]["extracted_text"]
        ocr_s = time.perf_counter() - started
        read = text.splitlines()
        line_cers = [min((cer(line.text, r) for r in read), default=1.0) for line in page.lines]
        started = time.perf_counter()
        [masked] = (await masking.ainvoke({"file_bytes": to_png(page)}))["result"]["pages"]
        mask_s = time.perf_counter() - started
        found = [(d["type"], d["coordinates"]) for d in masked["detected_pii"]]
        ious, unmatched = match_boxes([(p.type, p.box) for p in page.pii], found, 0.5)
        for item, value in zip(page.pii, ious, strict=True):
            if value is None:
                by_type[item.type]["missed"] += 1
            else:
                by_type[item.type]["ious"].append(value)
        found_total += len(found)
        unmatched_total += len(unmatched)
        rows.append(
            {
                "page": name,
                "cer": cer(page.text, text),
                "wer": wer(page.text, text),
                "worst_line_cer": max(line_cers),
                "ocr_s": round(ocr_s, 2),
                "mask_s": round(mask_s, 2),
                "missed": [p.type for p, i in zip(page.pii, ious, strict=True) if i is None],
                "false_positives": [found[j] for j in unmatched],
            }
        )
    # the same pages as one scanned PDF (rendered back at 150 dpi)
    started = time.perf_counter()
    pdf_pages = [render_page(person=p) for p in range(3)]
    pdf_text = (await ocr.ainvoke({"file_bytes": to_pdf(pdf_pages)}))["result"]["pages"]
    pdf_cer = sum(cer(p.text, t["text"]) for p, t in zip(pdf_pages, pdf_text, strict=True)) / 3
    pdf_s = (time.perf_counter() - started) / 3
    matched = sum(len(v["ious"]) for v in by_type.values())
    gold = matched + sum(v["missed"] for v in by_type.values())
    all_ious = [i for v in by_type.values() for i in v["ious"]]
    return {
        "pages": len(rows),
        "cer_mean": sum(r["cer"] for r in rows) / len(rows),
        "cer_clean_mean": _mean([r["cer"] for r in rows if r["page"].endswith("clean")]),
        "wer_mean": sum(r["wer"] for r in rows) / len(rows),
        "worst_line_cer": max(r["worst_line_cer"] for r in rows),
        "pdf_cer_mean": pdf_cer,
        "pii_recall": matched / gold,
        "pii_fp_rate": unmatched_total / max(1, found_total),
        "pii_mean_iou": _mean(all_ious),
        "per_type": {
            k: {
                "recall": len(v["ious"]) / (len(v["ious"]) + v["missed"]),
                "mean_iou": _mean(v["ious"]),
            }
            for k, v in sorted(by_type.items())
        },
        "ocr_s_per_page": _mean([r["ocr_s"] for r in rows]),
        "mask_s_per_page": _mean([r["mask_s"] for r in rows]),
        "pdf_ocr_s_per_page": pdf_s,
        "rows": rows,
    }


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def render(s: dict[str, Any]) -> str:
    def row(name: str, value: float, target: float | None, lower_is_better: bool) -> str:
        met = ""
        if target is not None:
            met = "yes" if (value < target if lower_is_better else value > target) else "NO"
        return f"| {name} | {value:.3f} | {'' if target is None else target} | {met} |"

    lines = [
        f"Documents eval: {s['pages']} generated pages and a 3-page scanned PDF",
        "",
        "| metric | value | target | met |",
        "|---|---|---|---|",
        row("OCR CER, mean over pages", s["cer_mean"], TARGETS["cer"], True),
        row("OCR CER, clean pages", s["cer_clean_mean"], TARGETS["cer"], True),
        row("OCR CER, scanned PDF pages", s["pdf_cer_mean"], TARGETS["cer"], True),
        row("OCR WER, mean over pages", s["wer_mean"], TARGETS["wer"], True),
        row("OCR worst line CER", s["worst_line_cer"], None, True),
        row("PII recall (IoU >= 0.5)", s["pii_recall"], TARGETS["recall"], False),
        row("PII false-positive share", s["pii_fp_rate"], TARGETS["fp_rate"], True),
        row("PII mean IoU", s["pii_mean_iou"], TARGETS["iou"], False),
        row("OCR seconds per page", s["ocr_s_per_page"], None, True),
        row("masking seconds per page", s["mask_s_per_page"], None, True),
        "",
        "| PII type | recall | mean IoU |",
        "|---|---|---|",
    ]
    lines += [
        f"| {k} | {v['recall']:.3f} | {v['mean_iou']:.3f} |" for k, v in s["per_type"].items()
    ]
    return "\n".join(lines)


def main() -> None:
    for which, stem in (("tuning", "documents-latest"), ("holdout", "documents-holdout-latest")):
        summary = asyncio.run(run(which))
        title = "Tuning set" if which == "tuning" else "HELD-OUT set (never used for tuning)"
        write_results(stem, f"{title}\n\n{render(summary)}", {"set": which, **summary})


if __name__ == "__main__":
    main()
