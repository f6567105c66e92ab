"""Run the evals through `langsmith.evaluate` and print a table against the targets.

    python -m evals.run                      # analysis, all pairs, configured model
    python -m evals.run --limit 4 --spread-examples 1
    python -m evals.run --skills-only --dataset dev tuning holdout   # no model, seconds

Full runs go through `evals.lab` (LangSmith `aevaluate`): offline (no LANGSMITH_API_KEY)
nothing is uploaded; with a key each split is synced into the dataset `devths-analysis`
(by content: a rerun adds nothing) and the experiment is recorded with its metadata.
Results go to evals/results/analysis-latest.{json,md} for the tuning set and
analysis-{dataset}-latest.{json,md} for the others (holdout, dev, test).

`--skills-only` runs the analysis graph's deterministic steps and nothing else: the
`extract_sections` node (resume skills, the posting's required/preferred groups, company)
and the scorer `score_match` uses. Score, grade, company and posting skills are exactly the
graph's; resume skills are the taxonomy's, without the skills a model may add from long
sections in a full run. No model is built or called.

Token counts per analysis are the benchmark's (`python -m bench.tokens`, bench/tokens.py).

`test` is the frozen split (evals/datasets/analysis_spec.md): read it once per change,
report it beside dev, never fix against it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
import uuid
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from langsmith.schemas import Example

from core.cache import MissingCache
from core.services import in_process_services, set_services
from core.settings import get_settings
from evals.lab import Case, Metric, Row, Suite, Target, langserve_target
from evals.lab import run as lab_run
from evals.metrics import TARGETS, band_accuracy, pairwise_order, prf, prf_micro, score_spread
from evals.report import write_results
from graphs.analysis import build_analysis_graph
from nodes.analysis import steps
from nodes.analysis.scoring import match_skills

HERE = Path(__file__).parent
DATASETS = {
    "tuning": HERE / "datasets" / "analysis.jsonl",
    # Labelled after the grade floors were calibrated on the tuning set; never tuned on.
    "holdout": HERE / "datasets" / "analysis_holdout.jsonl",
    # Written to a spec of variation (analysis_spec.md) by someone who never read the
    # analysis code: 11 role families. Fix against dev only; test is frozen.
    "dev": HERE / "datasets" / "analysis_dev.jsonl",
    "test": HERE / "datasets" / "analysis_test.jsonl",
}
# Issue #13: the whole analysis (every model call) against one whole-document prompt.


def load_examples(limit: int | None, dataset: str = "tuning") -> list[Example]:
    text = DATASETS[dataset].read_text(encoding="utf-8")
    rows = [json.loads(line) for line in text.splitlines() if line]
    examples = [
        Example(
            id=uuid.uuid5(uuid.NAMESPACE_URL, f"devths/analysis/{row['id']}"),
            inputs={
                "user_id": "eval",
                "resume_text": row["resume_text"],
                "posting_text": row["posting_text"],
            },
            outputs=row["gold"],
            metadata={
                "id": row["id"],
                "posting_id": row["posting_id"],
                "fit": row["fit"],
                "role": row.get("role", ""),
            },
        )
        for row in rows
    ]
    return examples[:limit] if limit else examples


def make_skills_target() -> Callable[[dict[str, Any]], dict[str, Any]]:
    """The graph's deterministic part only: `steps.extract_sections` (the node itself) and
    the scorer `steps.score_match` calls, shaped like the graph's output. No model."""
    set_services(in_process_services(get_settings(), cache=MissingCache()))

    def analyse(inputs: dict[str, Any]) -> dict[str, Any]:
        started = time.perf_counter()
        state = steps.extract_sections(dict(inputs))
        facts = state["posting_facts"]
        match = match_skills(
            state["resume_skills"], facts["required_groups"], facts["preferred_groups"]
        )
        return {
            "resume_analysis": {"skills": state["resume_skills"]},
            "posting_analysis": {
                "company": facts["company"],
                "position": facts["position"],
                "required_skills": facts["required_skills"],
                "preferred_skills": facts["preferred_skills"],
            },
            "matching": {"score": match.score, "grade": match.grade},
            "seconds": round(time.perf_counter() - started, 4),
        }

    return analyse


def run_skills_only(
    examples: list[Example], repeats: int, spread_examples: int
) -> tuple[list[dict[str, Any]], list[int]]:
    target = make_skills_target()
    rows = [
        {"outputs": target(e.inputs), "gold": e.outputs, "meta": e.metadata, "error": None}
        for e in examples
    ]
    spreads = []
    for example in examples[:spread_examples]:
        scores = [target(example.inputs)["matching"]["score"] for _ in range(repeats)]
        spreads.append(max(scores) - min(scores))
    return rows, spreads


def posting_skills(analysis: dict[str, Any]) -> list[str]:
    return analysis["required_skills"] + analysis["preferred_skills"]


def misses(row: dict[str, Any]) -> dict[str, Any]:
    """What a pair got wrong, for reading the dev set's errors (case-insensitive)."""
    out, gold = row["outputs"], row["gold"]

    def diff(predicted: list[str], expected: list[str]) -> dict[str, list[str]]:
        p = {s.casefold(): s for s in predicted}
        g = {s.casefold(): s for s in expected}
        return {
            "extra": [p[k] for k in p if k not in g],
            "missed": [g[k] for k in g if k not in p],
        }

    return {
        "id": row["meta"]["id"],
        "resume": diff(out["resume_analysis"]["skills"], gold["resume_skills"]),
        "posting": diff(
            posting_skills(out["posting_analysis"]),
            gold["required_skills"] + gold["preferred_skills"],
        ),
        "grade": out["matching"]["grade"],
        "grade_band": gold["grade_band"],
    }


def per_role(rows: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    by_role: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        by_role[row["meta"].get("role") or "-"].append(row)
    out = {}
    for role, group in sorted(by_role.items()):
        resume = prf_micro(
            (r["outputs"]["resume_analysis"]["skills"], r["gold"]["resume_skills"]) for r in group
        )
        posting = prf_micro(
            (
                posting_skills(r["outputs"]["posting_analysis"]),
                r["gold"]["required_skills"] + r["gold"]["preferred_skills"],
            )
            for r in group
        )
        out[role] = {
            "pairs": len(group),
            "resume_f1": round(resume["f1"], 3),
            "resume_precision": round(resume["precision"], 3),
            "posting_f1": round(posting["f1"], 3),
            "posting_precision": round(posting["precision"], 3),
        }
    return out


def per_example(outputs: dict[str, Any], reference_outputs: dict[str, Any]) -> list[dict]:
    """Per-example scores, also recorded in LangSmith when a key is set. A failed run
    scores 0 everywhere (and is counted in the summary)."""
    if not outputs or "resume_analysis" not in outputs:
        return [
            {"key": k, "score": 0}
            for k in ("resume_skills_f1", "posting_skills_f1", "grade_in_band", "company_exact")
        ]
    resume = prf(outputs["resume_analysis"]["skills"], reference_outputs["resume_skills"])
    posting = prf(
        outputs["posting_analysis"]["required_skills"]
        + outputs["posting_analysis"]["preferred_skills"],
        reference_outputs["required_skills"] + reference_outputs["preferred_skills"],
    )
    return [
        {"key": "resume_skills_f1", "score": resume["f1"]},
        {"key": "posting_skills_f1", "score": posting["f1"]},
        {
            "key": "grade_in_band",
            "score": int(outputs["matching"]["grade"] in reference_outputs["grade_band"]),
        },
        {
            "key": "company_exact",
            "score": int(outputs["posting_analysis"]["company"] == reference_outputs["company"]),
        },
    ]


def summarise(rows: list[dict[str, Any]], spreads: list[int]) -> dict[str, Any]:
    outs = [r["outputs"] for r in rows]
    golds = [r["gold"] for r in rows]
    pairs = list(zip(outs, golds, strict=True))
    resume = prf_micro((o["resume_analysis"]["skills"], g["resume_skills"]) for o, g in pairs)
    posting = prf_micro(
        (
            o["posting_analysis"]["required_skills"] + o["posting_analysis"]["preferred_skills"],
            g["required_skills"] + g["preferred_skills"],
        )
        for o, g in pairs
    )
    # The split between required and preferred (the posting F1 above ignores it): what the
    # sections' headings decide, and what moves the score.
    split = {
        kind: prf_micro((o["posting_analysis"][kind], g[kind]) for o, g in pairs)
        for kind in ("required_skills", "preferred_skills")
    }
    return {
        "examples": len(rows),
        "per_role": per_role(rows),
        "resume_skills": resume,
        "posting_skills": posting,
        "required_skills": split["required_skills"],
        "preferred_skills": split["preferred_skills"],
        "grade_band_accuracy": band_accuracy(
            [o["matching"]["grade"] for o in outs], [g["grade_band"] for g in golds]
        ),
        "pairwise_order": pairwise_order(
            [
                (r["meta"]["posting_id"], r["meta"]["fit"], r["outputs"]["matching"]["score"])
                for r in rows
            ]
        ),
        "company_accuracy": sum(
            o["posting_analysis"]["company"] == g["company"]
            for o, g in zip(outs, golds, strict=True)
        )
        / len(rows),
        "score_spread_max": score_spread(spreads) if spreads else None,
        "seconds_per_analysis": round(sum(o["seconds"] for o in outs) / len(outs), 2),
    }


def render(
    summary: dict[str, Any], model: str, dataset: str = "tuning", skills_only: bool = False
) -> str:
    def fmt(v: float | None) -> str:
        return "n/a" if v is None else f"{v:.3f}" if isinstance(v, float) else str(v)

    rows = [
        ("resume skills F1", summary["resume_skills"]["f1"], TARGETS["skills_f1"]),
        ("resume skills precision", summary["resume_skills"]["precision"], None),
        ("resume skills recall", summary["resume_skills"]["recall"], None),
        ("posting skills F1", summary["posting_skills"]["f1"], TARGETS["skills_f1"]),
        ("posting skills precision", summary["posting_skills"]["precision"], None),
        ("posting skills recall", summary["posting_skills"]["recall"], None),
        ("required skills F1 (the split)", summary["required_skills"]["f1"], None),
        ("preferred skills F1 (the split)", summary["preferred_skills"]["f1"], None),
        ("grade band accuracy", summary["grade_band_accuracy"], TARGETS["grade_band"]),
        ("pairwise order (strong > weak)", summary["pairwise_order"], TARGETS["pairwise"]),
        ("company exact", summary["company_accuracy"], None),
        (
            "score spread over repeats (max-min)",
            summary["score_spread_max"],
            TARGETS["score_spread"],
        ),
        ("seconds per analysis", summary["seconds_per_analysis"], None),
        ("failed runs", len(summary.get("failed_runs", [])), 0),
    ]
    if skills_only:
        model = "none (--skills-only: the graph's deterministic steps; no model-found skills)"
        rows = [r for r in rows if r[0] != "seconds per analysis"]
    lines = [
        f"Analysis eval ({dataset} set): {summary['examples']} pairs, model `{model}`",
        "",
        "| metric | value | target | met |",
        "|---|---|---|---|",
    ]
    for name, value, target in rows:
        met = ""
        if target is not None and value is not None:
            lower_is_better = "spread" in name or "failed" in name
            ok = value <= target if lower_is_better else value >= target
            met = "yes" if ok else "NO"
        lines.append(
            f"| {name} | {fmt(value)} | {fmt(target) if target is not None else ''} | {met} |"
        )
    if summary.get("per_role"):
        lines += [
            "",
            "| role | pairs | resume F1 | resume precision | posting F1 | posting precision |",
            "|---|---|---|---|---|---|",
        ]
        for role, r in summary["per_role"].items():
            lines.append(
                f"| {role} | {r['pairs']} | {r['resume_f1']:.3f} | {r['resume_precision']:.3f}"
                f" | {r['posting_f1']:.3f} | {r['posting_precision']:.3f} |"
            )
    return "\n".join(lines)


def stem_for(dataset: str) -> str:
    return "analysis-latest" if dataset == "tuning" else f"analysis-{dataset}-latest"


def cases(split: str, limit: int | None = None) -> list[Case]:
    return [
        Case(key=e.metadata["id"], inputs=e.inputs, reference=e.outputs, metadata=e.metadata)
        for e in load_examples(limit, split)
    ]


async def in_process() -> Target:
    # Evals measure quality, not latency: a queue of section summaries on the one-at-a-time
    # embedded model must not hit the serving timeout; and the pipeline, never a cached answer.
    settings = get_settings().model_copy(update={"model_timeout_s": 900.0})
    set_services(in_process_services(settings, cache=MissingCache()))
    graph = build_analysis_graph().compile()

    async def analyse(inputs: dict[str, Any]) -> dict[str, Any]:
        started = time.perf_counter()
        result = await graph.ainvoke(inputs)
        return {**result, "seconds": round(time.perf_counter() - started, 2)}

    return analyse


def over_http(server: str) -> Target:
    call = langserve_target(server, "/ai/analyze", timeout_s=1800.0)

    async def analyse(inputs: dict[str, Any]) -> dict[str, Any]:
        started = time.perf_counter()
        result = await call(inputs)
        return {**result, "seconds": round(time.perf_counter() - started, 2)}

    return analyse


def _rows(rows: list[Row]) -> list[dict[str, Any]]:
    return [
        {"outputs": r.outputs, "gold": r.case.reference, "meta": r.case.metadata, "error": r.error}
        for r in rows
        if r.outputs and "resume_analysis" in r.outputs
    ]


def suite_summary(rows: list[Row]) -> dict[str, Any]:
    summary = summarise(_rows(rows), [])
    return {
        **summary,
        "resume_skills_f1": summary["resume_skills"]["f1"],
        "posting_skills_f1": summary["posting_skills"]["f1"],
    }


SUITE = Suite(
    feature="analysis",
    splits=tuple(DATASETS),
    cases=cases,
    target=in_process,
    http_target=over_http,
    score=lambda inputs, outputs, gold: {r["key"]: r["score"] for r in per_example(outputs, gold)},
    summarise=suite_summary,
    metrics=(
        Metric("resume_skills_f1", "resume skills F1", TARGETS["skills_f1"]),
        Metric("posting_skills_f1", "posting skills F1", TARGETS["skills_f1"]),
        Metric("grade_band_accuracy", "grade band accuracy", TARGETS["grade_band"]),
        Metric("pairwise_order", "pairwise order (strong > weak)", TARGETS["pairwise"]),
        Metric("company_accuracy", "company exact"),
        Metric("seconds_per_analysis", "seconds per analysis", lower_is_better=True),
    ),
    model_features=("analysis",),
)


def run_full(
    examples: list[Example], dataset: str, repeats: int, spread_examples: int
) -> tuple[list[dict[str, Any]], list[str], list[int]]:
    """The split through `evals.lab` (LangSmith `aevaluate`), then the score spread over
    repeats of the first pairs (same input, same score)."""
    experiment = asyncio.run(lab_run(SUITE, dataset, limit=len(examples)))
    rows = _rows(experiment.rows)
    failed = list(experiment.summary["failed_runs"])

    async def spread() -> list[int]:
        target = await SUITE.target()
        out = []
        for example in examples[:spread_examples]:
            scores = [(await target(example.inputs))["matching"]["score"] for _ in range(repeats)]
            out.append(max(scores) - min(scores))
        return out

    return rows, failed, asyncio.run(spread())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="only the first N pairs")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--dataset", nargs="+", choices=sorted(DATASETS), default=["tuning"])
    parser.add_argument(
        "--spread-examples",
        type=int,
        default=2,
        help="pairs run --repeats times for the score spread",
    )
    parser.add_argument(
        "--skills-only",
        action="store_true",
        help="only the deterministic steps (skills, score, grade, company): no model",
    )
    args = parser.parse_args()

    for dataset in args.dataset:
        examples = load_examples(args.limit, dataset)
        if args.skills_only:
            rows, spreads = run_skills_only(examples, args.repeats, args.spread_examples)
            failed: list[str] = []
            model = "none"
        else:
            rows, failed, spreads = run_full(examples, dataset, args.repeats, args.spread_examples)
            model = get_settings().model_for("analysis")
        summary = {**summarise(rows, spreads), "failed_runs": failed}
        write_results(
            stem_for(dataset),
            render(summary, model, dataset, args.skills_only),
            {
                "model": model,
                "mode": "skills-only" if args.skills_only else "full",
                "summary": summary,
                "misses": [misses(r) for r in rows],
                "rows": rows,
            },
        )


if __name__ == "__main__":
    main()
