"""Run the evals through `langsmith.evaluate` and print a table against the targets.

    python -m evals.run                      # analysis, all pairs, configured model
    python -m evals.run --limit 4 --spread-examples 1

Offline (no LANGSMITH_API_KEY) nothing is uploaded (`upload_runs=False`). With a key,
the dataset is synced to LangSmith as `devths-analysis` and the experiment is recorded.
Results go to evals/results/analysis-latest.{json,md}
(analysis-holdout-latest.{json,md} with --dataset holdout).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import time
import uuid
from pathlib import Path
from typing import Any

from langsmith import Client, evaluate, tracing_context
from langsmith.schemas import Example

from core.cache import MissingCache
from core.services import in_process_services, set_services
from core.settings import get_settings
from evals.metrics import TARGETS, band_accuracy, pairwise_order, prf, prf_micro, score_spread
from evals.report import write_results
from graphs.analysis import build_analysis_graph

HERE = Path(__file__).parent
DATASETS = {
    "tuning": HERE / "datasets" / "analysis.jsonl",
    # Labelled after the grade floors were calibrated on the tuning set; never tuned on.
    "holdout": HERE / "datasets" / "analysis_holdout.jsonl",
}
LANGSMITH_DATASET = "devths-analysis"


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
            metadata={"id": row["id"], "posting_id": row["posting_id"], "fit": row["fit"]},
        )
        for row in rows
    ]
    return examples[:limit] if limit else examples


def make_target(online: bool):
    # Evals measure quality, not latency: a queue of section summaries on the one-at-a-time
    # embedded model must not hit the serving timeout.
    settings = get_settings().model_copy(update={"model_timeout_s": 900.0})
    # Evals measure the pipeline, never a cached answer.
    set_services(in_process_services(settings, cache=MissingCache()))
    graph = build_analysis_graph().compile()

    def analyse(inputs: dict[str, Any]) -> dict[str, Any]:
        started = time.perf_counter()
        # Offline, the graph's own runs must not be traced: there is nowhere to send them.
        with tracing_context(enabled=online):
            result = asyncio.run(graph.ainvoke(inputs))
        return {**result, "seconds": round(time.perf_counter() - started, 2)}

    return analyse


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


def sync_dataset(client: Client, examples: list[Example], name: str) -> str:
    if not client.has_dataset(dataset_name=name):
        dataset = client.create_dataset(name, description="Resume/posting pairs")
        client.create_examples(
            dataset_id=dataset.id,
            inputs=[e.inputs for e in examples],
            outputs=[e.outputs for e in examples],
            metadata=[e.metadata for e in examples],
        )
    return name


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
    return {
        "examples": len(rows),
        "resume_skills": resume,
        "posting_skills": posting,
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


def render(summary: dict[str, Any], model: str, dataset: str = "tuning") -> str:
    def fmt(v: float | None) -> str:
        return "n/a" if v is None else f"{v:.3f}" if isinstance(v, float) else str(v)

    rows = [
        ("resume skills F1", summary["resume_skills"]["f1"], TARGETS["skills_f1"]),
        ("resume skills precision", summary["resume_skills"]["precision"], None),
        ("resume skills recall", summary["resume_skills"]["recall"], None),
        ("posting skills F1", summary["posting_skills"]["f1"], TARGETS["skills_f1"]),
        ("posting skills precision", summary["posting_skills"]["precision"], None),
        ("posting skills recall", summary["posting_skills"]["recall"], None),
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
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="only the first N pairs")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--dataset", choices=sorted(DATASETS), default="tuning")
    parser.add_argument(
        "--spread-examples",
        type=int,
        default=2,
        help="pairs run --repeats times for the score spread",
    )
    args = parser.parse_args()

    examples = load_examples(args.limit, args.dataset)
    online = bool(os.environ.get("LANGSMITH_API_KEY"))
    target = make_target(online)
    name = LANGSMITH_DATASET if args.dataset == "tuning" else f"{LANGSMITH_DATASET}-holdout"
    data: Any = sync_dataset(Client(), examples, name) if online else examples
    results = evaluate(
        target,
        data=data,
        evaluators=[per_example],
        experiment_prefix="analysis",
        max_concurrency=0,
        upload_runs=online,
        metadata={"model": get_settings().model_for("analysis")},
    )
    all_rows = [
        {
            "outputs": r["run"].outputs,
            "gold": r["example"].outputs,
            "meta": r["example"].metadata,
            "error": r["run"].error,
        }
        for r in results
    ]
    rows = [
        r for r in all_rows if not r["error"] and r["outputs"] and "resume_analysis" in r["outputs"]
    ]
    failed = [r["meta"]["id"] for r in all_rows if r not in rows]
    spreads = []
    for example in examples[: args.spread_examples]:
        scores = [target(example.inputs)["matching"]["score"] for _ in range(args.repeats)]
        spreads.append(max(scores) - min(scores))
    summary = {**summarise(rows, spreads), "failed_runs": failed}
    model = get_settings().model_for("analysis")
    stem = "analysis-latest" if args.dataset == "tuning" else "analysis-holdout-latest"
    write_results(
        stem,
        render(summary, model, args.dataset),
        {"model": model, "summary": summary, "rows": rows},
    )


if __name__ == "__main__":
    main()
