"""evals.lab: examples identified by content, experiments described by what produced them,
a suite run through `aevaluate` offline, and the comparison's direction per metric."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from evals import compare, lab
from evals.judges import JUDGED, Judged


def _case(key: str, text: str, gold: int) -> lab.Case:
    return lab.Case(key=key, inputs={"text": text}, reference={"length": gold})


def test_an_example_id_is_its_content() -> None:
    a = _case("a", "안녕하세요", 5)
    assert lab.example_id("f", "dev", a) == lab.example_id(
        "f", "dev", _case("other", "안녕하세요", 5)
    )
    assert lab.example_id("f", "dev", a) != lab.example_id("f", "dev", _case("a", "안녕하세요", 6))
    assert lab.example_id("f", "dev", a) != lab.example_id("f", "test", a)
    assert lab.split_hash([a]) != lab.split_hash([a, _case("b", "x", 1)])


async def _length_target() -> lab.Target:
    async def count(inputs: dict[str, Any]) -> dict[str, Any]:
        if inputs["text"] == "boom":
            raise RuntimeError("the target failed")
        return {"length": len(inputs["text"])}

    return count


def _suite(cases: list[lab.Case]) -> lab.Suite:
    def summarise(rows: list[lab.Row]) -> dict[str, Any]:
        right = [r.outputs["length"] == r.case.reference["length"] for r in rows]
        return {"exact": sum(right) / len(right), "wrong": len(right) - sum(right)}

    return lab.Suite(
        feature="toy",
        splits=("dev",),
        cases=lambda split, limit: cases[:limit],
        target=_length_target,
        score=lambda i, o, r: {"exact": o["length"] == r["length"], "skipped": None},
        summarise=summarise,
        metrics=(lab.Metric("exact", "exact", 0.9), lab.Metric("wrong", "wrong", 0, True)),
        judges=(Judged("chat_appropriateness", lambda i, o, r: None),),
    )


def test_a_suite_runs_offline_through_aevaluate(tmp_path, monkeypatch) -> None:
    monkeypatch.delenv("LANGSMITH_API_KEY", raising=False)
    monkeypatch.delenv("JUDGE_MODEL", raising=False)
    monkeypatch.setattr(lab, "RESULTS", tmp_path)
    cases = [_case("one", "가나다", 3), _case("two", "abcd", 5), _case("three", "boom", 4)]
    experiment = asyncio.run(lab.run(_suite(cases), "dev"))
    # the failed case is counted as failed, not scored; the others are scored by the suite
    assert experiment.summary["failed_runs"] == ["three"]
    assert experiment.figures == {"exact": 0.5, "wrong": 1.0}
    scores = {r.case.key: r.scores for r in experiment.rows}
    assert scores["one"] == {"exact": True, "skipped": None}
    assert scores["two"]["exact"] is False
    assert experiment.judged == {"chat_appropriateness": None}
    record = json.loads((tmp_path / f"{experiment.name}.json").read_text(encoding="utf-8"))
    assert record["figures"] == experiment.figures
    assert record["failed"] == ["three"]
    assert (tmp_path / "toy-dev-latest.json").exists()
    # a partial run is kept under its name only, never as the split's latest
    partial = asyncio.run(lab.run(_suite(cases), "dev", limit=1))
    assert (tmp_path / f"{partial.name}.json").exists()
    latest = json.loads((tmp_path / "toy-dev-latest.json").read_text(encoding="utf-8"))
    assert latest["experiment"] == experiment.name
    rendered = lab.render(_suite(cases), experiment)
    assert "| exact | 0.500 | >= 0.9 | NO |" in rendered
    assert "| wrong | 1.000 | <= 0 | NO |" in rendered
    assert "not judged" in rendered


def test_duplicate_case_keys_are_refused(monkeypatch) -> None:
    monkeypatch.delenv("LANGSMITH_API_KEY", raising=False)
    cases = [_case("same", "a", 1), _case("same", "b", 1)]
    with pytest.raises(ValueError, match="not unique"):
        asyncio.run(lab.run(_suite(cases), "dev", write=False))


def test_experiment_metadata_names_what_produced_it() -> None:
    suite = lab.suite_for("calendar")
    meta = lab.experiment_metadata(suite, "xa_dev", suite.cases("xa_dev", 2), None, None)
    assert meta["judge_model"] == "not judged"
    assert set(meta["models"]) == {"calendar", "embeddings"}
    assert meta["prompts"]["calendar/posting_header"].startswith("calendar/posting_header@v")
    assert all(tag.startswith(name + "@v") for name, tag in meta["prompts"].items())
    assert meta["target"] == "in process"


def _record(name: str, figures: dict[str, float | None], judged: dict, **meta: Any) -> dict:
    return {
        "experiment": name,
        "feature": "calendar",
        "split": "xa_dev",
        "metadata": {"models": {"calendar": "local"}, "prompts": {"p": "p@v1#a"}, **meta},
        "figures": figures,
        "judged": judged,
    }


def test_the_comparison_knows_which_way_is_better() -> None:
    a = _record("A", {"company": 0.8, "invented_dates": 3.0}, {})
    b = _record(
        "B",
        {"company": 0.9, "invented_dates": 5.0},
        {},
        models={"calendar": "google_genai:gemini-2.5-flash"},
    )
    text = compare.table(a, b)
    assert "| company exact | 0.800 | 0.900 | +0.100 | B |" in text
    assert "| invented dates (gold has none) | 3.000 | 5.000 | +2.000 | A |" in text
    assert (
        "- models: {'calendar': 'local'} -> {'calendar': 'google_genai:gemini-2.5-flash'}" in text
    )
    assert "| schedule date F1 | n/a | n/a | | |" in text


def test_every_judged_metric_has_a_rubric_and_the_seed_target() -> None:
    from prompts import load_prompt

    for spec in JUDGED.values():
        assert (spec.prompt or spec.rag) and not (spec.prompt and spec.rag)
        if spec.prompt:
            assert load_prompt(spec.prompt).data  # the judged text is fenced as data
        assert spec.target == (0.8 if spec.rag else 4.0)
