"""Every feature's eval as a LangSmith experiment (`langsmith.aevaluate`), online or offline.

A feature declares a `Suite` (in its runner, `evals/run_<feature>.py`): how to read each
split's cases, the target that answers one case (the graph in process, or a running server
over HTTP), the per-case scores (code evaluators), the set-level figures (one summary
evaluator: F1, ICC, kappa ...) with their targets, and the judged metrics (`evals.judges`).
`run()` turns the cases into LangSmith examples and runs them through `aevaluate`:

- **offline** (no `LANGSMITH_API_KEY`): nothing leaves the machine (`upload_results=False`);
- **online**: the split is synced into the dataset `devths-<feature>` first, one example per
  case with the LangSmith split set, the example id derived from the case's content (a rerun
  adds nothing; an edited case is a new example), and the experiment is recorded there with
  its per-case feedback and the set-level figures.

Each experiment carries the git revision, the model spec of every feature it exercises,
every prompt's tag, the skill taxonomy's hash, the judge model and the split's content hash
(`experiment_metadata`), so two experiments are comparable; its figures are also written to
`evals/results/experiments/<experiment>.json`, which `python -m evals.compare` reads.

    python -m evals.lab calendar --split xa_dev                 # in process, offline
    python -m evals.lab chat --split xa_dev --model google_genai:gemini-2.5-flash
    python -m evals.lab calendar --split xa_test --server http://127.0.0.1:8000
    python -m evals.lab calendar --sync                         # upload every split
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import re
import subprocess
import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import import_module
from pathlib import Path
from typing import Any

from langsmith import Client, aevaluate, tracing_context
from langsmith.schemas import Example

from evals.judges import JUDGED, Judged
from evals.judges import evaluators as judge_evaluators

ROOT = Path(__file__).resolve().parent.parent
RESULTS = Path(__file__).parent / "results" / "experiments"
DATASET_PREFIX = "devths-"
OFFLINE_URL = "http://127.0.0.1:9"  # discard port: offline, nothing may be sent anywhere
# feature -> the runner module that declares its SUITE
RUNNERS = {
    "analysis": "evals.run",
    "requirements": "evals.run_requirements",  # analysis on any posting (#26)
    "calendar": "evals.run_calendar",
    "chat": "evals.run_chat",
    "interview": "evals.run_interview",
    "documents": "evals.run_documents",
}

Target = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]
Scores = dict[str, float | bool | None]


@dataclass(frozen=True)
class Case:
    """One example: what the target is given, what a right answer is, labels for reading."""

    key: str
    inputs: dict[str, Any]
    reference: dict[str, Any]
    metadata: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Metric:
    """A set-level figure of the summary, with the seed's or the issue's target if any."""

    key: str
    label: str
    target: float | None = None
    lower_is_better: bool = False

    def met(self, value: float | None) -> bool | None:
        if self.target is None or value is None:
            return None
        return value <= self.target if self.lower_is_better else value >= self.target


@dataclass
class Row:
    """One case after the run: the target's outputs (None when it failed) and its scores."""

    case: Case
    outputs: dict[str, Any] | None
    error: str | None
    scores: Scores


@dataclass(frozen=True)
class Suite:
    feature: str
    splits: tuple[str, ...]
    # a split's cases (the first `limit` if given)
    cases: Callable[[str, int | None], list[Case]]
    # builds the in-process target once per run (sets up the services it needs)
    target: Callable[[], Awaitable[Target]]
    # (inputs, outputs, reference) -> per-case scores, logged as feedback
    score: Callable[[dict[str, Any], dict[str, Any], dict[str, Any]], Scores]
    # every row of the run -> the set-level summary (a dict; `metrics` name what is reported)
    summarise: Callable[[list[Row]], dict[str, Any]]
    metrics: tuple[Metric, ...]
    http_target: Callable[[str], Target] | None = None
    judges: tuple[Judged, ...] = ()  # judged metrics (evals/judges.py)
    model_features: tuple[str, ...] = ()


@dataclass
class Experiment:
    name: str
    feature: str
    split: str
    metadata: dict[str, Any]
    rows: list[Row]
    summary: dict[str, Any]
    figures: dict[str, float | None]
    judged: dict[str, float | None]
    uploaded: bool

    def record(self) -> dict[str, Any]:
        return {
            "experiment": self.name,
            "feature": self.feature,
            "split": self.split,
            "metadata": self.metadata,
            "figures": self.figures,
            "judged": self.judged,
            "failed": [r.case.key for r in self.rows if r.error],
            "cases": [{"key": r.case.key, "scores": r.scores} for r in self.rows],
            "uploaded": self.uploaded,
        }


# ---------------------------------------------------------------------------------------------
# Identity: examples by content, experiments by what produced them


def canonical(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def case_hash(case: Case) -> str:
    return hashlib.sha256(canonical([case.inputs, case.reference]).encode()).hexdigest()


def example_id(feature: str, split: str, case: Case) -> uuid.UUID:
    """Derived from the content: the same case is the same example on every machine."""
    return uuid.uuid5(uuid.NAMESPACE_URL, f"devths/{feature}/{split}/{case_hash(case)}")


def split_hash(cases: Sequence[Case]) -> str:
    return hashlib.sha256("".join(case_hash(c) for c in cases).encode()).hexdigest()[:16]


def git_revision() -> str:
    try:
        head = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return f"{head[:12]}{'-dirty' if dirty else ''}"


@cache
def prompt_versions() -> dict[str, str]:
    """Every prompt's tag ("name@vN#hash"): a prompt edited is a different experiment."""
    from prompts import load_prompt

    base = ROOT / "prompts"
    names = sorted(str(p.relative_to(base).with_suffix("")) for p in base.rglob("*.md"))
    return {name: load_prompt(name).tag for name in names}


@cache
def taxonomy_version() -> str:
    from text import skills

    return hashlib.sha256(skills._TAXONOMY_FILE.read_bytes()).hexdigest()[:12]


def model_specs(features: Sequence[str], server: str | None = None) -> dict[str, str]:
    """The model spec each exercised feature runs on. Over HTTP the server's own settings
    decide; what its `/health` says of its model is recorded instead."""
    if server:
        import httpx

        try:
            llm = httpx.get(f"{server}/health", timeout=10).json()["checks"].get("llm", "?")
        except (httpx.HTTPError, ValueError, KeyError):
            llm = "unknown"
        return {"server": server, "server_llm": str(llm)}
    from core.settings import get_settings

    settings = get_settings()

    def spec(feature: str) -> str:
        if feature != "ocr":
            return settings.model_for(feature)
        engine = settings.ocr_engine
        return engine if engine == "tesseract" else f"{engine}:{settings.ocr_model}"

    specs = {f: spec(f) for f in features}
    specs["embeddings"] = settings.embedding_model
    return specs


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40] or "default"


def experiment_metadata(
    suite: Suite, split: str, cases: Sequence[Case], judge_model: str | None, server: str | None
) -> dict[str, Any]:
    return {
        "feature": suite.feature,
        "split": split,
        "dataset_hash": split_hash(cases),
        "git_revision": git_revision(),
        "models": model_specs(suite.model_features, server),
        "prompts": prompt_versions(),
        "taxonomy": taxonomy_version(),
        "judge_model": judge_model or "not judged",
        "target": server or "in process",
    }


# ---------------------------------------------------------------------------------------------
# Datasets


def dataset_name(feature: str) -> str:
    return f"{DATASET_PREFIX}{feature}"


def sync_dataset(client: Client, suite: Suite, split: str, cases: Sequence[Case]) -> uuid.UUID:
    """Add the split's cases that the feature's dataset does not hold yet (by content id);
    returns the dataset id. A rerun adds nothing."""
    name = dataset_name(suite.feature)
    if client.has_dataset(dataset_name=name):
        dataset = client.read_dataset(dataset_name=name)
    else:
        dataset = client.create_dataset(name, description=f"devths-ai {suite.feature} evals")
    held = {e.id for e in client.list_examples(dataset_id=dataset.id)}
    missing = [c for c in cases if example_id(suite.feature, split, c) not in held]
    if missing:
        client.create_examples(
            dataset_id=dataset.id,
            examples=[
                {
                    "id": example_id(suite.feature, split, c),
                    "inputs": c.inputs,
                    "outputs": c.reference,
                    "metadata": {"key": c.key, **c.metadata},
                    "split": split,
                }
                for c in missing
            ],
        )
    return dataset.id


def to_examples(
    suite: Suite, split: str, cases: Sequence[Case], dataset_id: uuid.UUID | None
) -> list[Example]:
    return [
        Example(
            id=example_id(suite.feature, split, c),
            dataset_id=dataset_id or uuid.uuid5(uuid.NAMESPACE_URL, dataset_name(suite.feature)),
            inputs=c.inputs,
            outputs=c.reference,
            metadata={"key": c.key, "split": split, **c.metadata},
        )
        for c in cases
    ]


# ---------------------------------------------------------------------------------------------
# Running


def _feedback(scores: Scores) -> dict[str, Any]:
    results = []
    for key, value in scores.items():
        if value is None:
            continue
        results.append({"key": key, "score": float(value)})
    return {"results": results}


def _numeric(value: Any) -> float | None:
    return float(value) if isinstance(value, bool | int | float) else None


async def run(
    suite: Suite,
    split: str,
    *,
    server: str | None = None,
    judge_model: str | None = None,
    client: Client | None = None,
    limit: int | None = None,
    write: bool = True,
) -> Experiment:
    """Run one split of a feature through `aevaluate`; see the module docstring."""
    # Drawing cases (documents render pages), the git calls, the server's /health and the
    # LangSmith client's requests block: they run off the event loop.
    cases = await asyncio.to_thread(suite.cases, split, limit)
    if len({c.key for c in cases}) != len(cases):
        raise ValueError(f"{suite.feature}/{split}: case keys are not unique")
    online = client is not None or bool(os.environ.get("LANGSMITH_API_KEY"))
    if online and client is None:
        client = Client()
    # Offline: a client with no background tracing thread, pointed nowhere (nothing is sent).
    local = client or Client(api_url=OFFLINE_URL, api_key="offline", auto_batch_tracing=False)
    dataset_id = (
        await asyncio.to_thread(sync_dataset, client, suite, split, cases) if client else None
    )
    examples = to_examples(suite, split, cases, dataset_id)
    by_id = {e.id: c for e, c in zip(examples, cases, strict=True)}

    target = suite.http_target(server) if server and suite.http_target else None
    if server and target is None:
        raise ValueError(f"{suite.feature}: no HTTP target; run it in process")
    if target is None:
        target = await suite.target()
    judge_model = judge_model or os.environ.get("JUDGE_MODEL") or None
    metadata = await asyncio.to_thread(
        experiment_metadata, suite, split, cases, judge_model, server
    )

    async def answer(inputs: dict[str, Any]) -> dict[str, Any]:
        # Offline, the feature's own runs must not be traced: there is nowhere to send them.
        with tracing_context(enabled=online):
            return await target(inputs)

    # Each case is scored once: the per-case evaluator keeps its scores for the summary.
    scores: dict[uuid.UUID, Scores] = {}

    def scored(example: Example, outputs: dict[str, Any] | None) -> dict[str, Any]:
        if not outputs:  # the target failed: counted in the summary, not scored
            return {"results": []}
        case = by_id[example.id]
        scores[example.id] = suite.score(case.inputs, outputs, case.reference)
        return _feedback(scores[example.id])

    box: dict[str, Any] = {}

    def summary_evaluator(runs: list[Any], examples: list[Example]) -> dict[str, Any]:
        rows = [
            Row(by_id[e.id], None if r.error else r.outputs, r.error, scores.get(e.id, {}))
            for r, e in zip(runs, examples, strict=True)
        ]
        summary = suite.summarise([r for r in rows if r.outputs is not None])
        summary["failed_runs"] = [r.case.key for r in rows if r.outputs is None]
        figures = {m.key: _numeric(summary.get(m.key)) for m in suite.metrics}
        box.update(summary=summary, rows=rows, figures=figures)
        return _feedback(figures)

    evaluators: list[Any] = [scored]
    if judge_model:
        evaluators += judge_evaluators(suite.judges, judge_model)
    model = slug(
        "server" if server else str(metadata["models"].get(next(iter(suite.model_features), "")))
    )
    results = await aevaluate(
        answer,
        data=examples,
        evaluators=evaluators,
        summary_evaluators=[summary_evaluator],
        experiment_prefix=f"{suite.feature}-{split}-{model}",
        metadata=metadata,
        max_concurrency=0,
        upload_results=online,
        disable_evaluator_tracing=not online,
        client=local,
    )
    judged_scores: dict[str, list[float]] = {j.key: [] for j in suite.judges}
    async for item in results:
        for result in item["evaluation_results"]["results"]:
            if result.key in judged_scores and result.score is not None:
                judged_scores[result.key].append(float(result.score))
    await results.wait()
    experiment = Experiment(
        name=results.experiment_name,
        feature=suite.feature,
        split=split,
        metadata=metadata,
        rows=box["rows"],
        summary=box["summary"],
        figures=box["figures"],
        judged={k: round(sum(v) / len(v), 3) if v else None for k, v in judged_scores.items()},
        uploaded=online,
    )
    if write:
        write_record(experiment, latest=limit is None)
    return experiment


def write_record(experiment: Experiment, latest: bool = True) -> Path:
    """The experiment's record; a whole split's also as `<feature>-<split>-latest.json`."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{experiment.name}.json"
    data = json.dumps(experiment.record(), ensure_ascii=False, indent=1, default=str)
    path.write_text(data + "\n", encoding="utf-8")
    if latest:
        (RESULTS / f"{experiment.feature}-{experiment.split}-latest.json").write_text(
            data + "\n", encoding="utf-8"
        )
    return path


def render(suite: Suite, experiment: Experiment) -> str:
    def shown(value: float | None) -> str:
        return "n/a" if value is None else f"{value:.3f}"

    lines = [
        f"{suite.feature} / {experiment.split}: experiment `{experiment.name}` "
        f"({len(experiment.rows)} cases, models {experiment.metadata['models']})",
        "",
        "| metric | value | target | met |",
        "|---|---|---|---|",
    ]
    for m in suite.metrics:
        value = experiment.figures.get(m.key)
        met = m.met(value)
        target = "" if m.target is None else f"{'<=' if m.lower_is_better else '>='} {m.target}"
        verdict = "" if met is None else "yes" if met else "NO"
        lines.append(f"| {m.label} | {shown(value)} | {target} | {verdict} |")
    for key in (j.key for j in suite.judges):
        spec = JUDGED[key]
        value = experiment.judged.get(key)
        verdict = "" if value is None else "yes" if value > spec.target else "NO"
        shown_value = "not judged" if value is None else f"{value:.2f}"
        lines.append(f"| {spec.label} (judged) | {shown_value} | > {spec.target} | {verdict} |")
    return "\n".join(lines)


class Refused(Exception):
    """A coded 4xx from the server (its contract error object): an answer, not a failure."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status, self.code = status, code


def api_headers() -> dict[str, str]:
    """The server's API key (the first of AI_API_KEY), when the server asks for one."""
    keys = [k.strip() for k in os.environ.get("AI_API_KEY", "").split(",") if k.strip()]
    return {"X-API-Key": keys[0]} if keys else {}


def langserve_target(server: str, path: str, timeout_s: float = 600.0) -> Target:
    """The backend's view: `POST {server}{path}/invoke` with `{"input": ...}`; a contract
    error (4xx with `{"error": {...}}`) raises `Refused`, anything else fails the case."""
    import httpx

    headers = (
        {"X-API-Key": os.environ["AI_API_KEY"].split(",")[0]}
        if os.environ.get("AI_API_KEY")
        else {}
    )

    async def call(inputs: dict[str, Any]) -> dict[str, Any]:
        async with httpx.AsyncClient(base_url=server, timeout=timeout_s, headers=headers) as http:
            response = await http.post(f"{path}/invoke", json={"input": inputs})
        if 400 <= response.status_code < 500:
            error = (response.json() or {}).get("error") or {}
            raise Refused(response.status_code, error.get("code", ""), error.get("message", ""))
        response.raise_for_status()
        return response.json()["output"]

    return call


def suite_for(feature: str) -> Suite:
    return import_module(RUNNERS[feature]).SUITE


def use_model(spec: str | None) -> None:
    """`--model`: every feature's model for this process (before any settings are read)."""
    if not spec:
        return
    from core.settings import get_settings

    for name in ("CHAT_MODEL", "ANALYSIS_MODEL", "INTERVIEW_MODEL"):
        os.environ[name] = spec
    get_settings.cache_clear()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("feature", choices=sorted(RUNNERS))
    parser.add_argument("--split", nargs="*", help="default: every split of the feature")
    parser.add_argument("--model", help="provider:model for every feature (default: settings)")
    parser.add_argument("--judge-model", help="provider:model of the judge (or JUDGE_MODEL)")
    parser.add_argument("--server", help="call a running server at this URL instead")
    parser.add_argument("--limit", type=int, help="the first N cases only")
    parser.add_argument("--sync", action="store_true", help="only upload the splits")
    args = parser.parse_args(argv)
    use_model(args.model)
    suite = suite_for(args.feature)
    splits = args.split or list(suite.splits)
    if args.sync:
        client = Client()
        for split in splits:
            sync_dataset(client, suite, split, suite.cases(split, None))
            print(f"{dataset_name(suite.feature)}: split {split} in sync")
        return
    for split in splits:
        experiment = asyncio.run(
            run(suite, split, server=args.server, judge_model=args.judge_model, limit=args.limit)
        )
        print(render(suite, experiment))
        print()


if __name__ == "__main__":
    main()
