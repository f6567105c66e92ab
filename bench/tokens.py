"""The seed's token experiment for analysis, on our code paths: input tokens per analysis
with whole documents in one prompt (the seed's "before") versus our sections.

    python -m bench.tokens --dataset tuning dev   # -> evals/results/analysis-tokens-*-latest

Every model call the graph makes (section summaries and the feedback) is recorded from a
stand-in model that answers at once, against one whole-document prompt: the feedback
prompt as the graph renders it, with each document whole in place of what the graph puts
there; on the pairs as they are and on long documents (`long_pairs`). It also checks that
the feedback prompt names every matched and missing skill.

Counted with the embedded model's tokenizer over the 22 eval pairs (Gemini's tokenizer
differs; the ratio is the figure to read). Section summaries are model output, so the
feedback prompt is counted with summaries at their maximum length (80 characters): an
upper bound for "after". Sections up to SUMMARY_MIN_CHARS are used verbatim, as the graph
does.
"""

from __future__ import annotations

import asyncio
import json
import statistics
from pathlib import Path
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field

import core.services as services_module
from bench.simulated import DIGEST, SimulatedChatModel, reply_for
from core.cache import MissingCache
from core.models import ModelRegistry
from core.services import in_process_services, set_services
from core.settings import get_settings
from graphs.analysis import build_analysis_graph
from nodes.analysis import steps
from nodes.analysis.schemas import SectionDigest

DATASET = Path(__file__).resolve().parent.parent / "evals" / "datasets" / "analysis.jsonl"
# the analysis sets `python -m bench.tokens --dataset ...` reads (files beside DATASET)
DATASETS = {
    "tuning": "analysis.jsonl",
    "holdout": "analysis_holdout.jsonl",
    "dev": "analysis_dev.jsonl",
    "test": "analysis_test.jsonl",
}
# Issue #13: the whole analysis (every model call) against one whole-document prompt.
TOKEN_RATIO_TARGET = 0.6
_SUMMARY_CHARS = SectionDigest.model_fields["summary"].metadata[1].max_length


class _RecordingModel(SimulatedChatModel):
    """The simulated model with no latency, keeping every prompt it is sent. A section
    digest comes back at the summary's maximum length (the feedback prompt's upper bound)."""

    sink: list[list[BaseMessage]] = Field(default_factory=list, exclude=True)
    ttft_s: float = 0.0
    tokens_per_s: float = 1e9

    async def _agenerate(self, messages, stop=None, run_manager=None, **kwargs) -> ChatResult:
        self.sink.append(list(messages))
        text = reply_for(messages)
        if text == DIGEST:
            text = json.dumps({"summary": "가" * _SUMMARY_CHARS, "skills": []}, ensure_ascii=False)
        message = AIMessage(content=text, usage_metadata=self._usage(messages, text))
        return ChatResult(generations=[ChatGeneration(message=message)])

    async def _astream(self, messages, stop=None, run_manager=None, **kwargs):
        self.sink.append(list(messages))
        async for chunk in SimulatedChatModel(ttft_s=0.0, tokens_per_s=1e9)._astream(
            messages, stop, run_manager, **kwargs
        ):
            yield chunk


class _PromptSpy:
    """The feedback prompt, keeping the values each rendering was given."""

    def __init__(self, prompt: Any) -> None:
        self.prompt = prompt
        self.values: list[dict[str, Any]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.prompt, name)

    def messages(self, **values: Any) -> list[BaseMessage]:
        self.values.append(values)
        return self.prompt.messages(**values)


def whole_document_messages(
    spy: _PromptSpy, values: dict[str, Any], pair: dict[str, Any]
) -> list[BaseMessage]:
    """The feedback prompt with the documents whole where the graph puts what it took from
    them: a `data` placeholder named after a document gets that document; when none is, the
    first `data` placeholder gets both documents and the others nothing."""
    whole = dict(values)
    data = sorted(spy.prompt.data)
    named = {n: d for n in data for d in ("resume", "posting") if d in n}
    for name in data:
        if named:
            whole[name] = pair[f"{named[name]}_text"] if name in named else whole[name]
        else:
            both = f"{pair['resume_text']}\n\n{pair['posting_text']}"
            whole[name] = both if name == data[0] else ""
    return spy.prompt.messages(**whole)


def measure_tokens(pairs: list[dict[str, Any]]) -> dict[str, Any]:
    """Input tokens of every model call one analysis makes, against one whole-document
    prompt; and whether the feedback prompt names every matched and missing skill."""
    from bench.measure import token_counter

    tokens = token_counter()

    def count(messages: list[BaseMessage]) -> int:
        return tokens("\n".join(m.text for m in messages))

    model = _RecordingModel()
    registry = ModelRegistry(get_settings(), overrides={"analysis": model})
    previous = services_module._current  # restored after: a caller (bench) keeps its own
    set_services(in_process_services(get_settings(), cache=MissingCache(), models=registry))
    graph = build_analysis_graph().compile()
    spy = _PromptSpy(steps.FEEDBACK_PROMPT)
    whole, calls, feedback, named, call_counts = [], [], [], [], []
    steps.FEEDBACK_PROMPT = spy  # type: ignore[assignment]
    try:
        for pair in pairs:
            model.sink.clear()
            spy.values.clear()
            result = asyncio.run(graph.ainvoke({"user_id": "eval", **pair}))
            prompts = list(model.sink)
            sent = prompts[-1]  # the feedback is the last call
            whole.append(count(whole_document_messages(spy, spy.values[-1], pair)))
            calls.append(sum(count(p) for p in prompts))
            feedback.append(count(sent))
            call_counts.append(len(prompts))
            text = "\n".join(m.text for m in sent)
            match = result["matching"]
            wanted = match["matched_skills"] + match["missing_skills"] + match["bonus_skills"]
            named.append(all(skill in text for skill in wanted))
    finally:
        steps.FEEDBACK_PROMPT = spy.prompt
        set_services(previous)
    mean = statistics.mean
    return {
        "pairs": len(pairs),
        "model_calls_mean": round(mean(call_counts), 2),
        "whole_document_tokens_mean": round(mean(whole)),
        "all_calls_tokens_mean": round(mean(calls)),
        "feedback_prompt_tokens_mean": round(mean(feedback)),
        "all_calls_ratio": round(mean(calls) / mean(whole), 3),
        "feedback_ratio": round(mean(feedback) / mean(whole), 3),
        "max_pair_ratio": round(max(c / w for c, w in zip(calls, whole, strict=True)), 3),
        "prompt_names_every_skill": round(sum(named) / len(named), 3),
    }


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
    """The prompts the graph actually sends (python -m bench.tokens), in this table's keys."""
    r = measure_tokens(
        [{"resume_text": x["resume_text"], "posting_text": x["posting_text"]} for x in rows]
    )
    return {
        "pairs": r["pairs"],
        "whole_documents_tokens_mean": r["whole_document_tokens_mean"],
        "sections_all_calls_tokens_mean": r["all_calls_tokens_mean"],
        "sections_feedback_prompt_tokens_mean": r["feedback_prompt_tokens_mean"],
        "all_calls_ratio": round(r["all_calls_ratio"], 2),
        "user_facing_ratio": round(r["feedback_ratio"], 2),
    }


def run_tokens(dataset: str) -> None:
    from evals.report import write_results

    path = DATASET.with_name(DATASETS[dataset])
    rows = [json.loads(ln) for ln in path.read_text(encoding="utf-8").splitlines() if ln]
    pairs = [{"resume_text": r["resume_text"], "posting_text": r["posting_text"]} for r in rows]
    result = {"as_is": measure_tokens(pairs), "long": measure_tokens(long_pairs(pairs))}
    lines = [
        f"Input tokens per analysis ({dataset} set; embedded model's tokenizer): every model "
        "call the graph makes, against one whole-document prompt. Target on long documents: "
        f"<= {TOKEN_RATIO_TARGET}x.",
        "",
        "| pairs | model calls | whole-document prompt | all calls | ratio | feedback prompt "
        "| ratio | worst pair | target met | prompt names every matched/missing skill |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for label, r in result.items():
        met = "yes" if r["all_calls_ratio"] <= TOKEN_RATIO_TARGET else "NO"
        lines.append(
            f"| {label} ({r['pairs']}) | {r['model_calls_mean']} | "
            f"{r['whole_document_tokens_mean']} | {r['all_calls_tokens_mean']} | "
            f"{r['all_calls_ratio']:.2f} | {r['feedback_prompt_tokens_mean']} | "
            f"{r['feedback_ratio']:.2f} | {r['max_pair_ratio']:.2f} | "
            f"{met if label == 'long' else ''} | {r['prompt_names_every_skill']:.3f} |"
        )
    write_results(
        f"analysis-tokens-{dataset}-latest",
        "\n".join(lines),
        {"feedback_prompt": steps.FEEDBACK_PROMPT.tag, **result},
    )


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(description="Input tokens per analysis (embedded tokenizer)")
    parser.add_argument("--dataset", nargs="+", choices=sorted(DATASETS), default=["tuning"])
    for dataset in parser.parse_args().dataset:
        run_tokens(dataset)


if __name__ == "__main__":
    main()
