"""The seed's judged metrics: LLM-as-judge evaluators, run only when a judge model is set.

A judged metric is scored by a configured model (`JUDGE_MODEL` or `--judge-model`, any
"provider:model" string the server accepts: `google_genai:gemini-2.5-flash`,
`ollama:exaone3.5:7.8b` ...). Without one, the figure is reported as "not judged": the
embedded default cannot judge, and no number is made up.

The judging itself is openevals' `create_async_llm_as_judge` (structured output: reasoning,
then a score from fixed choices). The rubrics of the seed's 1-5 metrics are Korean prompt
files in `prompts/judge/` (versioned like every prompt: their tags are in the experiment's
metadata; the text judged is fenced as data). RAG faithfulness to the retrieved passages
and answer relevance use openevals' maintained RAG groundedness and helpfulness rubrics,
scored continuously in 0..1 (the seed's "RAGAS > 0.8").

Each feature's suite says which metrics apply and how one case is shown to the judge
(`Judged.view`); a case the metric does not apply to (a follow-up that was not asked, a
RAG metric on a schedule turn) gets no score.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import BaseMessage

View = Callable[[dict[str, Any], dict[str, Any], dict[str, Any]], dict[str, str] | None]


@dataclass(frozen=True)
class JudgeSpec:
    key: str
    label: str
    target: float
    prompt: str = ""  # a rubric in prompts/ (1-5)
    rag: str = ""  # or an openevals RAG rubric: "groundedness" | "helpfulness" (0..1)


JUDGED: dict[str, JudgeSpec] = {
    s.key: s
    for s in (
        JudgeSpec(
            "question_relevance",
            "interview question relevance (1-5)",
            4.0,
            prompt="judge/question_relevance",
        ),
        JudgeSpec(
            "difficulty_fit", "interview difficulty fit (1-5)", 4.0, prompt="judge/difficulty_fit"
        ),
        JudgeSpec(
            "followup_relevance",
            "follow-up relevance (1-5)",
            4.0,
            prompt="judge/followup_relevance",
        ),
        JudgeSpec(
            "report_usefulness",
            "report feedback usefulness (1-5)",
            4.0,
            prompt="judge/report_usefulness",
        ),
        JudgeSpec(
            "chat_appropriateness",
            "chat answer appropriateness (1-5)",
            4.0,
            prompt="judge/chat_appropriateness",
        ),
        JudgeSpec(
            "rag_faithfulness", "RAG faithfulness to the passages (0-1)", 0.8, rag="groundedness"
        ),
        JudgeSpec("rag_relevance", "RAG answer relevance (0-1)", 0.8, rag="helpfulness"),
    )
}


@dataclass(frozen=True)
class Judged:
    """A judged metric on one feature's cases: `view(inputs, outputs, reference)` gives the
    rubric's values (the prompt's placeholders; for RAG rubrics `inputs`, `outputs` and
    `context`), or None when the metric does not apply to the case."""

    key: str
    view: View


def _as_dicts(messages: list[BaseMessage]) -> list[dict[str, str]]:
    roles = {"system": "system", "human": "user", "ai": "assistant"}
    return [{"role": roles[m.type], "content": str(m.content)} for m in messages]


def rubric_prompt(name: str) -> Callable[..., list[dict[str, str]]]:
    """A rubric of prompts/ as openevals' prompt callable: the view's values fill it, the
    judged text fenced as data."""
    from prompts import load_prompt

    rubric = load_prompt(name)

    def prompt(inputs: dict[str, str], **_: Any) -> list[dict[str, str]]:
        return _as_dicts(rubric.messages(**inputs))

    return prompt


def judge_model(spec: str) -> Any:
    from core.models import build_chat_model
    from core.settings import get_settings

    return build_chat_model(spec, get_settings())


def _scorer(spec: JudgeSpec, judge: Any) -> Callable[..., Awaitable[dict[str, Any]]]:
    from openevals.llm import create_async_llm_as_judge

    if spec.rag:
        from openevals.prompts import RAG_GROUNDEDNESS_PROMPT, RAG_HELPFULNESS_PROMPT

        template = {"groundedness": RAG_GROUNDEDNESS_PROMPT, "helpfulness": RAG_HELPFULNESS_PROMPT}
        return create_async_llm_as_judge(
            prompt=template[spec.rag], judge=judge, feedback_key=spec.key, continuous=True
        )
    return create_async_llm_as_judge(
        prompt=rubric_prompt(spec.prompt),
        judge=judge,
        feedback_key=spec.key,
        choices=[1, 2, 3, 4, 5],
    )


def evaluators(judged: Sequence[Judged], model_spec: str) -> list[Any]:
    """One LangSmith evaluator per judged metric, all on one judge model."""
    judge = judge_model(model_spec)
    out = []
    for item in judged:
        spec = JUDGED[item.key]
        scorer = _scorer(spec, judge)

        def make(item: Judged = item, spec: JudgeSpec = spec, scorer: Any = scorer) -> Any:
            async def evaluator(
                inputs: dict[str, Any],
                outputs: dict[str, Any] | None,
                reference_outputs: dict[str, Any],
            ) -> dict[str, Any]:
                view = item.view(inputs, outputs or {}, reference_outputs) if outputs else None
                if view is None:
                    return {"key": spec.key, "score": None, "comment": "not applicable"}
                if spec.rag:
                    result = await scorer(
                        inputs=view["inputs"], outputs=view["outputs"], context=view["context"]
                    )
                else:
                    result = await scorer(inputs=view)
                return {
                    "key": spec.key,
                    "score": float(result["score"]),
                    "comment": result.get("comment"),
                }

            evaluator.__name__ = f"judge_{spec.key}"
            return evaluator

        out.append(make())
    return out
