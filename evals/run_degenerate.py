"""What a user reads, swept for junk on the embedded defaults (issue 13: "0 degenerate
outputs across every eval set"). Every analysis pair of every split and every scripted
interview session run through their graphs as `make run` serves them (no keys, the
embedded stand-in); each user-visible text is checked with the same shape tests the
server uses to replace a model's junk (`text/degenerate.py`: empty, a loop, the
prompt echoed, not Korean) plus an exact repeat within a list. The chat sets are swept by
`evals/run_chat.py` (its `degenerate answers` row).

    python -m evals.run_degenerate     -> evals/results/degenerate-latest.{json,md}

Analysis fields: resume_analysis.{strengths,weaknesses,suggestions} and
matching.{strength_summary,weakness_summary,recommendations}. Interview: every question
asked and the report's {strength_patterns,weakness_patterns,learning_guide} and each
answer's good points and improvements.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from core.cache import MissingCache
from core.services import get_services, in_process_services, set_services
from core.settings import get_settings
from evals.report import write_results
from evals.run import load_examples
from evals.run_interview import play
from graphs.analysis import build_analysis_graph
from text.degenerate import degenerate_items, degenerate_reason

HERE = Path(__file__).parent
ANALYSIS_SPLITS = ("tuning", "holdout", "dev", "test")
ANALYSIS_LISTS = (
    ("resume_analysis", "strengths"),
    ("resume_analysis", "weaknesses"),
    ("resume_analysis", "suggestions"),
    ("matching", "recommendations"),
)
ANALYSIS_TEXTS = (("matching", "strength_summary"), ("matching", "weakness_summary"))
REPORT_LISTS = ("strength_patterns", "weakness_patterns", "learning_guide")


def check(kind: str, where: str, value: Any, may_be_empty: bool = False) -> dict[str, Any] | None:
    """A finding for one user-visible value (a text or a list of texts), or None. An
    answer's good points (or improvements) may be none: "모르겠습니다" has no good point."""
    if isinstance(value, list):
        reason = degenerate_items(value) if value or may_be_empty else "empty"
    else:
        reason = degenerate_reason(value or "")
    if reason is None:
        return None
    return {"kind": kind, "where": where, "reason": reason, "value": value}


async def sweep_analysis(split: str) -> tuple[int, list[dict[str, Any]]]:
    graph = build_analysis_graph().compile()
    checked, found = 0, []
    for example in load_examples(None, split):
        out = await graph.ainvoke(example.inputs)
        where = f"{split}:{(example.metadata or {}).get('id', '?')}"
        for group, field in (*ANALYSIS_LISTS, *ANALYSIS_TEXTS):
            checked += 1
            finding = check("analysis", f"{where}:{group}.{field}", out[group][field])
            if finding:
                found.append(finding)
    return checked, found


async def sweep_interview() -> tuple[int, list[dict[str, Any]]]:
    rows = [
        json.loads(line)
        for line in (HERE / "datasets" / "interview.jsonl").read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    checked, found = 0, []
    for row in rows:
        result = await play(row, repeats=1)
        for n, turn in enumerate(result["turns"]):
            checked += 1
            finding = check("interview", f"{row['id']}:question {n + 1}", turn["question"])
            if finding:
                found.append(finding)
        whole = result["reports"][0]
        report = whole["report"]
        for field in REPORT_LISTS:
            checked += 1
            finding = check("interview", f"{row['id']}:report.{field}", report[field])
            if finding:
                found.append(finding)
        for e in whole["evaluations"]:
            for field in ("good_points", "improvements"):
                checked += 1
                where = f"{row['id']}:{e['question_id']}.{field}"
                finding = check("interview", where, e[field], may_be_empty=True)
                if finding:
                    found.append(finding)
    return checked, found


async def run() -> dict[str, Any]:
    settings = get_settings().model_copy(update={"model_timeout_s": 900.0})
    set_services(in_process_services(settings, cache=MissingCache()))
    result: dict[str, Any] = {
        "models": {f: get_services().models.spec(f) for f in ("analysis", "interview")}
    }
    findings: list[dict[str, Any]] = []
    for split in ANALYSIS_SPLITS:
        checked, found = await sweep_analysis(split)
        result[f"analysis_{split}"] = {"checked": checked, "degenerate": len(found)}
        findings += found
    checked, found = await sweep_interview()
    result["interview"] = {"checked": checked, "degenerate": len(found)}
    findings += found
    return {**result, "degenerate_outputs": len(findings), "findings": findings}


def render(r: dict[str, Any]) -> str:
    lines = [
        "Degenerate-output sweep on the embedded defaults "
        f"(analysis model `{r['models']['analysis']}`, interview `{r['models']['interview']}`)",
        "",
        "| feature | user-visible values checked | degenerate | target |",
        "|---|---|---|---|",
        *(
            f"| analysis, {split} pairs | {r[f'analysis_{split}']['checked']} | "
            f"{r[f'analysis_{split}']['degenerate']} | 0 |"
            for split in ANALYSIS_SPLITS
        ),
        f"| interview (every scripted session) | {r['interview']['checked']} | "
        f"{r['interview']['degenerate']} | 0 |",
    ]
    for f in r["findings"][:20]:
        lines.append(f"- {f['where']}: {f['reason']}: {str(f['value'])[:120]}")
    return "\n".join(lines)


def main() -> None:
    result = asyncio.run(run())
    write_results("degenerate-latest", render(result), result)


if __name__ == "__main__":
    main()
