"""Which page clean-up reads the noisy pages best: every option of scan/preprocess.py
(and a second look at unsure lines) on the DEVELOPMENT pages of evals/documents_hard.py only.

    python -m evals.run_ocr_options [--pages N] [--options none,median,...]

For each option and each page: Tesseract once, page CER/WER against the gold text, and text
PII recall (IoU >= 0.5) of the masking detectors on that reading. Per option the means, and
the mean per degradation family, so a per-page choice can be read off. Writes
evals/results/ocr-options-dev-latest.{json,md}. Never run on the test split: this is tuning.
"""

from __future__ import annotations

import argparse
import io
import time
from collections import defaultdict
from typing import Any

import cv2
import numpy as np
from PIL import Image

from evals.documents_hard import pages
from evals.metrics import cer, match_boxes, wer
from evals.report import write_results
from scan import preprocess
from scan.masking import detect_in_words
from scan.ocr import second_look
from scan.tesseract import read_page

OPTIONS: dict[str, tuple[float, tuple[str, ...], bool]] = {
    # name: (enlarge by, clean-up steps, second look)
    "none": (1.0, (), False),
    "current": (0.0, (), False),  # what choose_steps picks today
    "median": (1.0, ("median",), False),
    "bilateral": (1.0, ("bilateral",), False),
    "nlmeans": (1.0, ("nlmeans",), False),
    "flatten": (1.0, ("flatten",), False),
    "otsu": (1.0, ("otsu",), False),
    "sauvola": (1.0, ("sauvola",), False),
    "flatten+median": (1.0, ("flatten", "median"), False),
    "unrule": (1.0, ("unrule",), False),
    "median+unrule": (1.0, ("median", "unrule"), False),
    "median5": (1.0, ("median5",), False),
    "x1.5": (1.5, (), False),
    "x1.5+median": (1.5, ("median",), False),
    "current+second-look": (0.0, (), True),
}


def _prepare(
    image: Image.Image, enlarge: float, steps: tuple[str, ...]
) -> tuple[Image.Image, float]:
    gray = np.array(image.convert("L"))
    if enlarge == 0.0:  # the production choice
        steps = preprocess.choose_steps(preprocess.estimate_quality(gray))
        enlarge = 1.0
    if enlarge != 1.0:
        gray = cv2.resize(gray, None, fx=enlarge, fy=enlarge, interpolation=cv2.INTER_CUBIC)
    return Image.fromarray(preprocess.apply(gray, steps)), enlarge


def run(limit: int | None, names: list[str]) -> dict[str, Any]:
    per_option: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for hp in pages("dev", limit):
        with Image.open(io.BytesIO(hp.file_bytes)) as img:
            image = img.convert("RGB")
        gold = [(p.type, p.box) for p in hp.text_pii]
        for name in names:
            enlarge, steps, look = OPTIONS[name]
            started = time.perf_counter()
            prepared, k = _prepare(image, enlarge, steps)
            reading = read_page(prepared)
            if look:
                reading = second_look(prepared, reading)
            seconds = time.perf_counter() - started
            found = [
                (d.type, tuple(round(v / k) for v in d.box))
                for d in detect_in_words(reading.words, prepared.height)
            ]
            ious, unmatched = match_boxes(gold, found, 0.5)
            per_option[name].append(
                {
                    "page": hp.id,
                    "family": hp.family,
                    "cer": cer(hp.page.text, reading.text),
                    "wer": wer(hp.page.text, reading.text),
                    "found": sum(i is not None for i in ious),
                    "gold": len(gold),
                    "false_positives": len(unmatched),
                    "seconds": seconds,
                }
            )
    summary = {}
    for name, rows in per_option.items():
        families: dict[str, list[float]] = defaultdict(list)
        for r in rows:
            for part in r["family"].split("+"):
                families[part].append(r["cer"])
        summary[name] = {
            "cer": _mean([r["cer"] for r in rows]),
            "wer": _mean([r["wer"] for r in rows]),
            "pii_recall": sum(r["found"] for r in rows) / max(1, sum(r["gold"] for r in rows)),
            "false_positives": sum(r["false_positives"] for r in rows),
            "seconds_per_page": _mean([r["seconds"] for r in rows]),
            "cer_by_family": {f: _mean(v) for f, v in sorted(families.items())},
        }
    return {
        "split": "dev",
        "pages": len(next(iter(per_option.values()))),
        "options": summary,
        "rows": per_option,
    }


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def render(result: dict[str, Any]) -> str:
    options = result["options"]
    families = sorted({f for o in options.values() for f in o["cer_by_family"]})
    lines = [
        f"OCR clean-up options on {result['pages']} DEVELOPMENT pages (tuning, not the test split)",
        "",
        "| option | CER | WER | PII recall | FP | s/page |",
        "|---|---|---|---|---|---|",
    ]
    lines += [
        f"| {n} | {o['cer']:.3f} | {o['wer']:.3f} | {o['pii_recall']:.3f} | "
        f"{o['false_positives']} | {o['seconds_per_page']:.2f} |"
        for n, o in options.items()
    ]
    lines += [
        "",
        "CER by degradation family",
        "",
        "| option | " + " | ".join(families) + " |",
        "|---" * (len(families) + 1) + "|",
    ]
    lines += [
        f"| {n} | " + " | ".join(f"{o['cer_by_family'].get(f, 0):.3f}" for f in families) + " |"
        for n, o in options.items()
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pages", type=int, default=None)
    parser.add_argument("--options", default=",".join(OPTIONS))
    args = parser.parse_args()
    result = run(args.pages, args.options.split(","))
    write_results("ocr-options-dev-latest", render(result), result)


if __name__ == "__main__":
    main()
