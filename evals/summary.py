"""Every eval's development and frozen test figures side by side, each against its target.

    python -m evals.summary      (the last step of `make eval`; reads evals/results/*.json)

A target is judged on the test split only: dev is what the code was fixed against. A figure
whose results file is missing prints as "-" (that eval has not been run here).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).parent / "results"

Read = Callable[[dict[str, Any]], float]
# (task, metric, results file for dev, for test (or one file with a key per split), reader,
#  target, higher is better)
ROWS: list[tuple[str, str, str, str, Read, float, bool]] = [
    (
        "calendar",
        "company exact",
        "calendar-dev",
        "calendar-test",
        lambda r: r["summary"]["company"],
        0.95,
        True,
    ),
    (
        "calendar",
        "date F1",
        "calendar-dev",
        "calendar-test",
        lambda r: r["summary"]["date_f1"],
        0.90,
        True,
    ),
    (
        "calendar",
        "stage type",
        "calendar-dev",
        "calendar-test",
        lambda r: r["summary"]["stage_type"],
        0.90,
        True,
    ),
    (
        "chat",
        "route",
        "chat:routing_dev",
        "chat:routing_test",
        lambda r: r["route_accuracy"],
        0.95,
        True,
    ),
    (
        "chat",
        "tool selection",
        "chat:routing_dev",
        "chat:routing_test",
        lambda r: r["tool_selection"],
        0.95,
        True,
    ),
    (
        "chat",
        "tool arguments",
        "chat:routing_dev",
        "chat:routing_test",
        lambda r: r["tool_arguments"],
        0.90,
        True,
    ),
    (
        "chat",
        "degenerate answers",
        "chat:routing_dev",
        "chat:routing_test",
        lambda r: r["degenerate_answers"],
        0,
        False,
    ),
    (
        "analysis",
        "degenerate outputs (embedded default)",
        "degenerate:analysis_dev",
        "degenerate:analysis_test",
        lambda r: r["degenerate"],
        0,
        False,
    ),
    (
        "analysis",
        "resume skills F1",
        "analysis-dev",
        "analysis-test",
        lambda r: r["summary"]["resume_skills"]["f1"],
        0.90,
        True,
    ),
    (
        "analysis",
        "posting skills precision",
        "analysis-dev",
        "analysis-test",
        lambda r: r["summary"]["posting_skills"]["precision"],
        0.95,
        True,
    ),
    (
        "analysis",
        "grade band",
        "analysis-dev",
        "analysis-test",
        lambda r: r["summary"]["grade_band_accuracy"],
        0.80,
        True,
    ),
    (
        "documents",
        "OCR CER",
        "documents-dev",
        "documents-test",
        lambda r: r["cer_mean"],
        0.05,
        False,
    ),
    (
        "documents",
        "OCR WER",
        "documents-dev",
        "documents-test",
        lambda r: r["wer_mean"],
        0.10,
        False,
    ),
    (
        "documents",
        "PII recall",
        "documents-dev",
        "documents-test",
        lambda r: r["pii_recall"],
        0.98,
        True,
    ),
    (
        "documents",
        "PII false-positive share",
        "documents-dev",
        "documents-test",
        lambda r: r["pii_fp_rate"],
        0.10,
        False,
    ),
    (
        "documents",
        "PII mean IoU",
        "documents-dev",
        "documents-test",
        lambda r: r["pii_mean_iou"],
        0.80,
        True,
    ),
    # Cross-author splits (#27): written by helpers who saw only the contract and a brief.
    *(
        ("calendar (cross-author)", name, "calendar-xa-dev", "calendar-xa-test", read, goal, True)
        for name, read, goal in (
            ("company exact", lambda r: r["summary"]["company"], 0.95),
            ("date F1", lambda r: r["summary"]["date_f1"], 0.90),
            ("stage type", lambda r: r["summary"]["stage_type"], 0.90),
            ("not a posting: nothing guessed", lambda r: r["summary"]["not_posting_refused"], 1.0),
        )
    ),
    *(
        ("chat (cross-author)", name, "chat-xa-dev", "chat-xa-test", read, goal, True)
        for name, read, goal in (
            ("route", lambda r: r["all"]["route"], 0.95),
            ("tool", lambda r: r["all"]["tool"], 0.95),
            ("arguments", lambda r: r["all"]["args"], 0.90),
            ("references resolved", lambda r: r["turns"]["references_resolved"], 0.90),
            ("RAG answer first and right", lambda r: r["rag"]["answered_first"], 0.85),
            ("RAG nothing quoted when unanswerable", lambda r: r["rag"]["nothing_quoted"], 0.90),
        )
    ),
    *(
        (
            "interview (cross-author)",
            name,
            "interview-xa-dev",
            "interview-xa-test",
            read,
            goal,
            True,
        )
        for name, read, goal in (
            ("score agreement ICC(2,1)", lambda r: r["icc_2_1"], 0.8),
            ("grade agreement kappa", lambda r: r["kappa"], 0.7),
            ("follow-up anchors valid", lambda r: r["anchors_valid"], 0.95),
        )
    ),
    (
        "chat (cross-author)",
        "user texts leaking internals",
        "chat-xa-dev",
        "chat-xa-test",
        lambda r: r["leaks"],
        0,
        False,
    ),
]


def _load(name: str) -> dict[str, Any] | None:
    stem, _, key = name.partition(":")
    path = RESULTS / f"{stem}-latest.json"
    if not path.exists():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    return data.get(key) if key else data


def _figure(name: str, read: Read) -> float | None:
    data = _load(name)
    try:
        return None if data is None else float(read(data))
    except (KeyError, TypeError):
        return None


def table() -> str:
    lines = [
        "| task | metric | dev (fixed against) | TEST (frozen) | target | met on test |",
        "|---|---|---|---|---|---|",
    ]
    for task, metric, dev, test, read, target, higher in ROWS:
        d, t = _figure(dev, read), _figure(test, read)
        met = "-" if t is None else ("yes" if (t >= target if higher else t <= target) else "NO")
        show = [("-" if v is None else f"{v:.3f}".rstrip("0").rstrip(".")) for v in (d, t)]
        sign = ">=" if higher else "<="
        lines.append(f"| {task} | {metric} | {show[0]} | {show[1]} | {sign} {target} | {met} |")
    return "\n".join(lines)


def main() -> None:
    print(table())


if __name__ == "__main__":
    main()
