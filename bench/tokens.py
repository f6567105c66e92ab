"""The seed's token experiment for analysis, on our code paths: input tokens per analysis
with whole documents in one prompt (the seed's "before") versus our sections.

Counted with the embedded model's tokenizer over the 22 eval pairs (Gemini's tokenizer
differs; the ratio is the figure to read). Section summaries are model output, so the
feedback prompt is counted with summaries at their maximum length (80 characters): an
upper bound for "after". Sections up to SUMMARY_MIN_CHARS are used verbatim, as the graph
does.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from evals.run import measure_tokens

DATASET = Path(__file__).resolve().parent.parent / "evals" / "datasets" / "analysis.jsonl"


def long_pairs(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Long documents from the eval's: each resume joined with the next five (their sections
    merge under the shared headings, as a senior's many projects would), each posting with
    the next two."""
    n = len(rows)
    return [
        {
            "resume_text": "\n".join(rows[(i + k) % n]["resume_text"] for k in range(6)),
            "posting_text": "\n".join(rows[(i + k) % n]["posting_text"] for k in range(3)),
        }
        for i in range(n)
    ]


def measure() -> dict[str, Any]:
    rows = [json.loads(line) for line in DATASET.read_text(encoding="utf-8").splitlines()]
    out = _measure(rows)
    out["long"] = _measure(long_pairs(rows))
    return out


def _measure(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The prompts the graph actually sends (evals/run.py --tokens), in this table's keys."""
    r = measure_tokens(
        [{"resume_text": x["resume_text"], "posting_text": x["posting_text"]} for x in rows]
    )
    return {
        "pairs": r["pairs"],
        "whole_documents_tokens_mean": r["whole_document_tokens_mean"],
        "sections_all_calls_tokens_mean": r["all_calls_tokens_mean"],
        "sections_feedback_prompt_tokens_mean": r["feedback_prompt_tokens_mean"],
        "all_calls_ratio": round(r["all_calls_ratio"], 2),
        "user_facing_ratio": round(r["feedback_ratio"], 2),
    }
