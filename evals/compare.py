"""Two experiments side by side, metric by metric.

    python -m evals.compare calendar-xa_test-local-1a2b3c4d calendar-xa_test-google-genai-…
    python -m evals.compare chat-xa_dev-latest.json path/to/other.json
    python -m evals.compare A B --pairwise --judge-model google_genai:gemini-2.5-flash

An experiment is named as `evals.lab` printed it (its record is
`evals/results/experiments/<name>.json`) or given as a path. The table has every set-level
figure and judged metric of both, the difference, and which side is better for the metric
(its direction: lower is better for errors and leaks); the metadata lines say what differs
(models, prompts, taxonomy, revision), so a difference can be put down to its cause.

`--pairwise` (online only: both experiments in LangSmith) asks the judge which answer is
better for each example both experiments ran, with LangSmith's comparative evaluation
(`evaluate((A, B), evaluators=[...])`), and prints the share each side won.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from evals import lab
from evals.judges import JUDGED
from evals.lab import suite_for


def load(name: str) -> dict[str, Any]:
    path = Path(name)
    if not path.exists():
        path = lab.RESULTS / (name if name.endswith(".json") else f"{name}.json")
    return json.loads(path.read_text(encoding="utf-8"))


def _differences(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    lines = []
    for key in ("git_revision", "models", "taxonomy", "judge_model", "target", "dataset_hash"):
        if a.get(key) != b.get(key):
            lines.append(f"- {key}: {a.get(key)} -> {b.get(key)}")
    prompts_a, prompts_b = a.get("prompts") or {}, b.get("prompts") or {}
    changed = sorted(
        k for k in prompts_a.keys() | prompts_b.keys() if prompts_a.get(k) != prompts_b.get(k)
    )
    if changed:
        lines.append(f"- prompts changed: {', '.join(changed)}")
    return lines or ["- nothing recorded differs (a rerun)"]


def table(a: dict[str, Any], b: dict[str, Any]) -> str:
    if a["feature"] != b["feature"]:
        raise SystemExit(f"different features: {a['feature']} vs {b['feature']}")
    suite = suite_for(a["feature"])
    lines = [
        f"{a['feature']}: `{a['experiment']}` ({a['split']}) vs `{b['experiment']}` ({b['split']})",
        "",
        *_differences(a["metadata"], b["metadata"]),
        "",
        "| metric | A | B | B - A | better |",
        "|---|---|---|---|---|",
    ]

    def row(label: str, x: float | None, y: float | None, lower_is_better: bool) -> str:
        if x is None or y is None:
            shown = lambda v: "n/a" if v is None else f"{v:.3f}"  # noqa: E731
            return f"| {label} | {shown(x)} | {shown(y)} | | |"
        delta = y - x
        better = "=" if abs(delta) < 1e-9 else ("B" if (delta < 0) == lower_is_better else "A")
        return f"| {label} | {x:.3f} | {y:.3f} | {delta:+.3f} | {better} |"

    for metric in suite.metrics:
        lines.append(
            row(
                metric.label,
                a["figures"].get(metric.key),
                b["figures"].get(metric.key),
                metric.lower_is_better,
            )
        )
    judged = a.get("judged", {}).keys() | b.get("judged", {}).keys()
    for key in (k for k in JUDGED if k in judged):
        x, y = a["judged"].get(key), b["judged"].get(key)
        label = f"{JUDGED[key].label} (judged)"
        if x is None and y is None:
            lines.append(f"| {label} | not judged | not judged | | |")
        else:
            lines.append(row(label, x, y, False))
    if a["split"] != b["split"]:
        lines += ["", "Different splits: the figures are not comparable case by case."]
    return "\n".join(lines)


def pairwise(a: str, b: str, judge_spec: str) -> str:
    """LangSmith's comparative evaluation of two recorded experiments, judged."""
    from langsmith import Client, evaluate
    from openevals.llm import create_llm_as_judge

    from evals.judges import judge_model, rubric_prompt

    scorer = create_llm_as_judge(
        prompt=rubric_prompt("judge/pairwise"),
        judge=judge_model(judge_spec),
        feedback_key="preferred",
        choices=[1, 2],
    )

    first_id = Client().read_project(project_name=a).id
    wins = {"A": 0.0, "B": 0.0, "ties": 0.0}

    def ask(example: Any, one: Any, two: Any) -> Any:
        pick = scorer(
            inputs={
                "request": json.dumps(example.inputs, ensure_ascii=False)[:4000],
                "first": json.dumps(one.outputs, ensure_ascii=False)[:4000],
                "second": json.dumps(two.outputs, ensure_ascii=False)[:4000],
            }
        )
        return one if int(pick["score"]) == 1 else two

    def prefer(runs: list[Any], example: Any) -> dict[str, Any]:
        """Asked in both orders: a win only when the judge picks the same answer both times
        (a judge that prefers a position gives a tie, not a winner)."""
        one, two = runs
        picked = {ask(example, one, two).id, ask(example, two, one).id}
        if len(picked) == 1:
            [winner] = picked
            wins["A" if (one if one.id == winner else two).session_id == first_id else "B"] += 1
            scores = {r.id: float(r.id == winner) for r in runs}
        else:
            wins["ties"] += 1
            scores = {r.id: 0.5 for r in runs}
        return {"key": "preferred", "scores": scores}

    evaluate((a, b), evaluators=[prefer])
    total = sum(wins.values()) or 1.0
    return (
        f"pairwise ({judge_spec}, both orders): A preferred {wins['A'] / total:.2f}, "
        f"B {wins['B'] / total:.2f}, ties {wins['ties'] / total:.2f}"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--pairwise", action="store_true")
    parser.add_argument("--judge-model")
    args = parser.parse_args(argv)
    a, b = load(args.a), load(args.b)
    print(table(a, b))
    if args.pairwise:
        if not args.judge_model:
            raise SystemExit("--pairwise needs --judge-model (or JUDGE_MODEL)")
        if not (a.get("uploaded") and b.get("uploaded")):
            raise SystemExit("--pairwise compares experiments recorded in LangSmith (online)")
        print()
        print(pairwise(a["experiment"], b["experiment"], args.judge_model))


if __name__ == "__main__":
    main()
