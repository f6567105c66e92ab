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
import statistics
from pathlib import Path
from typing import Any

from bench.measure import token_counter
from nodes.analysis import steps
from nodes.analysis.schemas import SectionDigest
from nodes.shared.sections import Section

DATASET = Path(__file__).resolve().parent.parent / "evals" / "datasets" / "analysis.jsonl"
SUMMARY_CHARS = SectionDigest.model_fields["summary"].metadata[1].max_length


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
    tokens = token_counter()

    def count(messages) -> int:
        return tokens("\n".join(m.text for m in messages))

    whole, sections_total, user_facing = [], [], []
    for row in rows:
        extracted = _extract(row)
        feedback_args = {
            "score": 75,
            "grade": "B",
            "matched": "Java, Spring",
            "missing": "Kafka",
            "bonus": "없음",
        }
        whole.append(
            count(
                steps.FEEDBACK_PROMPT.messages(
                    posting_summaries=row["posting_text"],
                    resume_summaries=row["resume_text"],
                    **feedback_args,
                )
            )
        )
        summaries = list(extracted["digests"])  # short sections, used verbatim
        total = 0
        for raw in extracted["sections"]:
            section = Section(**raw)
            total += count(
                steps.SECTION_PROMPT.messages(
                    document=steps.DOC_LABEL[section.document],
                    section=section.name,
                    text=section.text,
                )
            )
            summaries.append(
                {
                    "document": section.document,
                    "name": section.name,
                    "summary": "가" * SUMMARY_CHARS,
                }
            )
        feedback = count(
            steps.FEEDBACK_PROMPT.messages(
                posting_summaries=steps._digest_lines(summaries, "posting"),
                resume_summaries=steps._digest_lines(summaries, "resume"),
                **feedback_args,
            )
        )
        sections_total.append(total + feedback)
        user_facing.append(feedback)
    mean = statistics.mean
    return {
        "pairs": len(whole),
        "whole_documents_tokens_mean": round(mean(whole)),
        "sections_all_calls_tokens_mean": round(mean(sections_total)),
        "sections_feedback_prompt_tokens_mean": round(mean(user_facing)),
        "all_calls_ratio": round(mean(sections_total) / mean(whole), 2),
        "user_facing_ratio": round(mean(user_facing) / mean(whole), 2),
    }


def _extract(row: dict[str, Any]) -> dict[str, Any]:
    return steps.extract_sections(row)  # deterministic: no model involved
