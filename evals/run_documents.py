"""OCR and masking evals on generated pages with known text and PII boxes.

    python -m evals.run_documents                       # tuning + holdout sets
    python -m evals.run_documents --split dev           # harder noisy scans (dev)
    python -m evals.run_documents --split test --label baseline
    python -m evals.run_documents --split dev --pages 5 # the first 5 pages only

Without --split: writes evals/results/documents-latest.{json,md} and
documents-holdout-latest.{json,md}. With --split: documents-{split}-latest.{json,md}, on the
pages of evals/documents_hard.py (spec: evals/datasets/documents_spec.md); a --pages N run
writes -first-N-pages instead of -latest. Targets (the
seed's): CER < 5%, WER < 10%, PII recall > 98%, false positives < 10%, mean IoU > 0.8.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import time
from collections import defaultdict
from collections.abc import Iterable
from functools import cache
from typing import Any

from core.services import in_process_services, set_services
from evals import documents_hard as hard
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
from evals.lab import Case, Metric, Row, Suite, Target, api_headers
from evals.lab import run as lab_run
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


async def run(which: str = "tuning", limit: int | None = None) -> dict[str, Any]:
    set_services(in_process_services())
    ocr = build_ocr_graph().compile()
    masking = build_masking_graph().compile()
    rows = []
    by_type: dict[str, dict[str, list]] = defaultdict(lambda: {"ious": [], "missed": 0})
    found_total = unmatched_total = 0
    chosen = pages() if which == "tuning" else holdout_pages()
    for name, page in chosen[:limit]:
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


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="OCR and PII-masking evals")
    parser.add_argument(
        "--split",
        choices=sorted(hard.SPLITS),
        help="score the harder noisy-scan pages of this split (default: tuning + holdout)",
    )
    parser.add_argument("--pages", type=int, help="only the first N pages of each set")
    parser.add_argument("--label", default="", help="a name for this run, kept in the results")
    args = parser.parse_args(argv)
    # A run over the first N pages is a look, not the split's figures: it never becomes
    # -latest (as a --limit run of the other evals).
    latest = "latest" if args.pages is None else f"first-{args.pages}-pages"
    if args.split:
        summary = asyncio.run(run_split(args.split, args.pages))
        stem = f"documents-{args.split}-{latest}"
        result = {"set": args.split, "label": args.label, **summary}
        write_results(stem, render_split(result), result)
        return
    for which, stem in (
        ("tuning", f"documents-{latest}"),
        ("holdout", f"documents-holdout-{latest}"),
    ):
        summary = asyncio.run(run(which, args.pages))
        title = "Tuning set" if which == "tuning" else "HELD-OUT set (never used for tuning)"
        if args.label:
            title += f" ({args.label})"
        write_results(
            stem, f"{title}\n\n{render(summary)}", {"set": which, "label": args.label, **summary}
        )


# ---------------------------------------------------------------------------------------------
# The harder dev/test splits (evals/documents_hard.py)


@cache
def _hard_page(split: str, index: int) -> hard.HardPage:
    return hard.generate(split, index)


def split_cases(split: str, limit: int | None = None) -> list[Case]:
    """One case per generated page: the page is drawn again from (split, index)."""
    cases = []
    size = hard.SPLITS[split][0]
    for index in range(size if limit is None else min(limit, size)):
        hp = _hard_page(split, index)
        cases.append(
            Case(
                key=hp.id,
                inputs={"split": split, "index": index},
                reference=json.loads(hard.gold_record(hp)),
                metadata={"font": hp.font, "layout": hp.layout, "photo": hp.photo},
            )
        )
    return cases


async def split_target() -> Target:
    set_services(in_process_services())
    ocr = build_ocr_graph().compile()
    masking = build_masking_graph().compile()

    async def read(inputs: dict[str, Any]) -> dict[str, Any]:
        hp = _hard_page(inputs["split"], inputs["index"])
        started = time.perf_counter()
        text = (await ocr.ainvoke({"file_bytes": hp.file_bytes}))["result"]["extracted_text"]
        ocr_s = time.perf_counter() - started
        started = time.perf_counter()
        [masked] = (await masking.ainvoke({"file_bytes": hp.file_bytes}))["result"]["pages"]
        return {
            "extracted_text": text,
            "detected_pii": masked["detected_pii"],
            "ocr_s": round(ocr_s, 2),
            "mask_s": round(time.perf_counter() - started, 2),
        }

    return read


def _upload_name(data: bytes) -> tuple[str, str]:
    if data.startswith(b"%PDF"):
        return "page.pdf", "application/pdf"
    if data.startswith(b"\x89PNG"):
        return "page.png", "image/png"
    return "page.jpg", "image/jpeg"


def split_over_http(server: str) -> Target:
    """The backend's view: each page uploaded to `/ai/ocr/extract` and `/ai/masking/draft`
    with `?wait=true` (the finished task in the answer)."""
    import httpx

    async def finished(http: httpx.AsyncClient, path: str, data: bytes) -> dict[str, Any]:
        name, mime = _upload_name(data)
        response = await http.post(
            path,
            params={"wait": "true"},
            files={"file": (name, data, mime)},
            data={"user_id": "eval"},
        )
        response.raise_for_status()
        task = response.json()
        if task["status"] != "completed":
            raise RuntimeError(f"{path}: task {task['status']}: {task.get('error')}")
        return task["result"]

    async def read(inputs: dict[str, Any]) -> dict[str, Any]:
        hp = _hard_page(inputs["split"], inputs["index"])
        async with httpx.AsyncClient(base_url=server, timeout=900, headers=api_headers()) as http:
            started = time.perf_counter()
            ocr = await finished(http, "/ai/ocr/extract", hp.file_bytes)
            ocr_s = time.perf_counter() - started
            started = time.perf_counter()
            masking = await finished(http, "/ai/masking/draft", hp.file_bytes)
        return {
            "extracted_text": ocr["extracted_text"],
            "detected_pii": masking["pages"][0]["detected_pii"],
            "ocr_s": round(ocr_s, 2),
            "mask_s": round(time.perf_counter() - started, 2),
        }

    return read


def _page_scores(
    inputs: dict[str, Any], outputs: dict[str, Any], gold: dict[str, Any]
) -> dict[str, Any]:
    return _score_page(_hard_page(inputs["split"], inputs["index"]), outputs)


def split_per_case(
    inputs: dict[str, Any], outputs: dict[str, Any], gold: dict[str, Any]
) -> dict[str, float | bool | None]:
    row = _page_scores(inputs, outputs, gold)
    found = [g[1] is not None for g in row["gold"]]
    return {
        "cer": row["cer"],
        "wer": row["wer"],
        "pii_recall": sum(found) / len(found) if found else None,
        "pii_false_positives": len(row["false_positives"]),
    }


def split_summarise(rows: list[Row]) -> dict[str, Any]:
    scored = [_page_scores(r.case.inputs, r.outputs, r.case.reference) for r in rows]
    summary = summarise(scored, hard.face_photo_path() is not None)
    summary["gold_sha256"] = hard.gold_digest(
        hard.gold_record(_hard_page(r.case.inputs["split"], r.case.inputs["index"])) for r in rows
    )
    summary["images_sha256"] = hashlib.sha256(
        b"".join(
            _hard_page(r.case.inputs["split"], r.case.inputs["index"]).file_bytes for r in rows
        )
    ).hexdigest()
    return summary


SUITE = Suite(
    feature="documents",
    splits=tuple(hard.SPLITS),
    cases=split_cases,
    target=split_target,
    http_target=split_over_http,
    score=split_per_case,
    summarise=split_summarise,
    metrics=(
        Metric("cer_mean", "OCR character error rate", TARGETS["cer"], lower_is_better=True),
        Metric("wer_mean", "OCR word error rate", TARGETS["wer"], lower_is_better=True),
        Metric("pii_recall", "PII recall", TARGETS["recall"]),
        Metric("pii_fp_rate", "PII false positive rate", TARGETS["fp_rate"], lower_is_better=True),
    ),
    model_features=("ocr",),
)


async def run_split(split: str, limit: int | None = None) -> dict[str, Any]:
    """Score OCR and masking on the split's pages, one page at a time, through `evals.lab`
    (LangSmith `aevaluate`)."""
    experiment = await lab_run(SUITE, split, limit=limit)
    return {"split": split, "experiment": experiment.name, **experiment.summary}


def _score_page(hp: hard.HardPage, out: dict[str, Any]) -> dict[str, Any]:
    page = hp.page
    text = out["extracted_text"]
    read = [r for r in text.splitlines() if r.strip()]
    line_cers = [min((cer(line.text, r) for r in read), default=1.0) for line in page.lines]
    found = [(d["type"], d["coordinates"]) for d in out["detected_pii"]]
    found_text = [f for f in found if f[0] != "face"]
    found_faces = [f for f in found if f[0] == "face"]
    ious, unmatched = match_boxes([(p.type, p.box) for p in hp.text_pii], found_text, 0.5)
    face_ious, face_unmatched = match_boxes([(p.type, p.box) for p in hp.faces], found_faces, 0.5)
    return {
        "page": hp.id,
        "font": hp.font,
        "layout": hp.layout,
        "photo": hp.photo,
        "degradations": hp.degradations,
        "dpi": hp.dpi,
        "font_px": hp.font_px,
        "cer": cer(page.text, text),
        "wer": wer(page.text, text),
        "line_cer_mean": _mean(line_cers),
        "worst_line_cer": max(line_cers),
        "ocr_s": out["ocr_s"],
        "mask_s": out["mask_s"],
        # gold PII: (type, IoU or None); found: (type, box) without any text
        "gold": [
            [p.type, None if i is None else round(i, 3)]
            for p, i in zip(hp.text_pii, ious, strict=True)
        ],
        "found": len(found_text),
        "false_positives": [{"type": found_text[j][0], "box": found_text[j][1]} for j in unmatched],
        "faces": [None if i is None else round(i, 3) for i in face_ious],
        "face_false_positives": [found_faces[j][1] for j in face_unmatched],
    }


def _group(rows: Iterable[dict[str, Any]]) -> dict[str, Any]:
    rows = list(rows)
    gold = [g for r in rows for g in r["gold"]]
    found = sum(r["found"] for r in rows)
    fps = sum(len(r["false_positives"]) for r in rows)
    return {
        "pages": len(rows),
        "cer": _mean([r["cer"] for r in rows]),
        "wer": _mean([r["wer"] for r in rows]),
        "pii_recall": _share(sum(g[1] is not None for g in gold), len(gold)),
        "pii_false_positives": fps,
        "pii_fp_rate": fps / found if found else 0.0,
    }


def summarise(rows: list[dict[str, Any]], faces_measured: bool = True) -> dict[str, Any]:
    """Totals and breakdowns over scored pages (see evals/datasets/documents_spec.md)."""
    gold = [g for r in rows for g in r["gold"]]
    ious = [g[1] for g in gold if g[1] is not None]
    found = sum(r["found"] for r in rows)
    fps = [fp for r in rows for fp in r["false_positives"]]
    per_type: dict[str, Any] = {}
    for kind in sorted({g[0] for g in gold} | {fp["type"] for fp in fps}):
        kind_ious = [g[1] for g in gold if g[0] == kind]
        matched = [i for i in kind_ious if i is not None]
        per_type[kind] = {
            "gold": len(kind_ious),
            "recall": _share(len(matched), len(kind_ious)),
            "mean_iou": _mean(matched),
            "false_positives": sum(fp["type"] == kind for fp in fps),
        }
    families = ["clean", *hard.SINGLE, "combo"]
    by_degradation = {
        family: _group(
            r
            for r in rows
            if (family == "clean" and not r["degradations"])
            or family in r["degradations"]
            or (family == "combo" and len(r["degradations"]) > 1)
        )
        for family in families
    }
    face_ious = [i for r in rows for i in r["faces"]]
    face_matched = [i for i in face_ious if i is not None]
    faces: dict[str, Any] = {"measured": faces_measured}
    if faces_measured:
        faces.update(
            gold=len(face_ious),
            recall=_share(len(face_matched), len(face_ious)),
            mean_iou=_mean(face_matched),
            false_positives=sum(len(r["face_false_positives"]) for r in rows),
            false_positives_on_texture_photos=sum(
                len(r["face_false_positives"]) for r in rows if r["photo"] == "texture"
            ),
        )
    missed = [{"page": r["page"], "type": g[0]} for r in rows for g in r["gold"] if g[1] is None]
    missed += [{"page": r["page"], "type": "face"} for r in rows for i in r["faces"] if i is None]
    return {
        "pages": len(rows),
        "cer_mean": _mean([r["cer"] for r in rows]),
        "wer_mean": _mean([r["wer"] for r in rows]),
        "line_cer_mean": _mean([r["line_cer_mean"] for r in rows]),
        "worst_line_cer": max((r["worst_line_cer"] for r in rows), default=0.0),
        "pii_gold": len(gold),
        "pii_found": found,
        "pii_recall": _share(len(ious), len(gold)),
        "pii_fp_rate": len(fps) / found if found else 0.0,
        "pii_mean_iou": _mean(ious),
        "per_type": per_type,
        "faces": faces,
        "by_degradation": by_degradation,
        "by_font": {k: _group(r for r in rows if r["font"] == k) for k in hard.FONTS},
        "by_layout": {k: _group(r for r in rows if r["layout"] == k) for k in hard.LAYOUTS},
        "by_photo": {k: _group(r for r in rows if r["photo"] == k) for k in hard.PHOTOS},
        "ocr_s_per_page": _mean([r["ocr_s"] for r in rows]),
        "mask_s_per_page": _mean([r["mask_s"] for r in rows]),
        "missed": missed,
        "rows": rows,
    }


def _share(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


def render_split(s: dict[str, Any]) -> str:
    def row(name: str, value: float, target: float | None, lower_is_better: bool) -> str:
        met = ""
        if target is not None:
            met = "yes" if (value < target if lower_is_better else value > target) else "NO"
        return f"| {name} | {value:.3f} | {'' if target is None else target} | {met} |"

    label = f" ({s['label']})" if s.get("label") else ""
    lines = [
        f"Documents eval, split `{s['set']}`{label}: {s['pages']} generated noisy pages "
        f"(evals/documents_hard.py v{hard.GENERATOR_VERSION}, gold sha256 {s['gold_sha256'][:16]})",
        "",
        "| metric | value | target | met |",
        "|---|---|---|---|",
        row("OCR CER, mean over pages", s["cer_mean"], TARGETS["cer"], True),
        row("OCR WER, mean over pages", s["wer_mean"], TARGETS["wer"], True),
        row("OCR line CER, mean over gold lines", s["line_cer_mean"], None, True),
        row("OCR worst line CER", s["worst_line_cer"], None, True),
        row(
            f"PII recall (IoU >= 0.5), {s['pii_gold']} values",
            s["pii_recall"],
            TARGETS["recall"],
            False,
        ),
        row("PII false-positive share", s["pii_fp_rate"], TARGETS["fp_rate"], True),
        row("PII mean IoU", s["pii_mean_iou"], TARGETS["iou"], False),
        row("OCR seconds per page", s["ocr_s_per_page"], None, True),
        row("masking seconds per page", s["mask_s_per_page"], None, True),
        "",
        "| PII type | gold | recall | mean IoU | false positives |",
        "|---|---|---|---|---|",
    ]
    lines += [
        f"| {k} | {v['gold']} | {v['recall']:.3f} | {v['mean_iou']:.3f} | {v['false_positives']} |"
        for k, v in s["per_type"].items()
    ]
    f = s["faces"]
    lines.append("")
    if f["measured"]:
        lines.append(
            f"Faces (scored apart from text PII): {f['gold']} gold, recall {f['recall']:.3f}, "
            f"mean IoU {f['mean_iou']:.3f}, {f['false_positives']} false positives "
            f"({f['false_positives_on_texture_photos']} on texture photos)."
        )
    else:
        lines.append("Faces: unmeasured (matplotlib's sample face photo is not available).")
    for title, key in (
        ("degradation (a combination counts under each part and under combo)", "by_degradation"),
        ("font", "by_font"),
        ("layout", "by_layout"),
        ("photo", "by_photo"),
    ):
        lines += [
            "",
            f"| by {title} | pages | CER | WER | PII recall | PII FP share |",
            "|---|---|---|---|---|---|",
        ]
        lines += [
            f"| {k} | {g['pages']} | {g['cer']:.3f} | {g['wer']:.3f} | {g['pii_recall']:.3f} "
            f"| {g['pii_fp_rate']:.3f} |"
            for k, g in s[key].items()
            if g["pages"]
        ]
    by_kind: dict[str, list[str]] = defaultdict(list)
    for m in s["missed"]:
        by_kind[m["type"]].append(m["page"])
    lines += ["", f"Missed ({len(s['missed'])}; type: page ids):", ""]
    lines += [f"- {kind}: {', '.join(ids)}" for kind, ids in sorted(by_kind.items())] or ["- none"]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
