"""Interview benchmarks: next-question latency with and without prefetch, and prompt
tokens per turn with the 3-turn window versus the whole history.

Latency: scripted sessions (the eval's strong answers, follow-ups off so every turn asks a
main question) on real Redis; between turns the benchmark waits for background work, as a
candidate's answering time would. Measured with the simulated model (fixed latency) and
with the embedded local model (INTERVIEW_QUESTION_SOURCE=model so it really writes).
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel

from bench.measure import percentile, token_counter
from bench.simulated import SimulatedChatModel
from core.models import ModelRegistry
from core.services import create_services, get_services, set_services
from core.settings import Settings
from graphs.interview import build_interview_graph
from nodes.interview.facts import extract_facts, facts_lines
from nodes.interview.plan import build_plan, template_question
from nodes.interview.session import full_history_text, summary_text, window_text
from nodes.interview.steps import MAIN_PROMPT, TYPE_LABEL

DATASET = Path(__file__).resolve().parent.parent / "evals" / "datasets" / "interview.jsonl"


def _sessions(limit: int) -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in DATASET.read_text(encoding="utf-8").splitlines()]
    return [r for r in rows if r["answers_quality"] == "strong"][:limit]


async def _latencies(model: BaseChatModel | None, prefetch: bool, sessions: int) -> list[float]:
    settings = Settings(
        redis_url=os.environ["REDIS_URL"],
        interview_prefetch=prefetch,
        interview_question_source="model",
        interview_max_followup_depth=0,
        model_timeout_s=900,
    )
    services = await create_services(settings)
    if model is not None:
        services.models = ModelRegistry(settings, {"interview": model})
    set_services(services)
    graph = build_interview_graph().compile(checkpointer=services.checkpointer)
    seconds = []
    try:
        for row in _sessions(sessions):
            ids = {"user_id": "bench", "session_id": f"{row['id']}-{time.time_ns()}"}
            config = {"configurable": {"thread_id": f"interview:bench:{ids['session_id']}"}}
            first = {**ids, "interview_type": row["interview_type"]}
            first |= {"resume_text": row["resume_text"], "posting_text": row["posting_text"]}
            out = await graph.ainvoke(first, config)
            for answer in row["answers"]:
                if out["done"]:
                    break
                await get_services().background.drain()  # the candidate is answering
                started = time.perf_counter()
                out = await graph.ainvoke({**ids, "answer": answer["text"]}, config)
                if not out["done"]:
                    seconds.append(time.perf_counter() - started)
    finally:
        await services.aclose()
        set_services(None)
    return seconds


def _summary(values: list[float]) -> dict[str, float]:
    return {
        "n": len(values),
        "p50_s": round(percentile(values, 0.5), 3),
        "p95_s": round(percentile(values, 0.95), 3),
    }


async def prefetch_latency(local_sessions: int = 1, simulated_sessions: int = 3) -> dict:
    out: dict[str, Any] = {}
    models: dict[str, tuple[BaseChatModel | None, int]] = {
        "simulated": (SimulatedChatModel(), simulated_sessions),
        "embedded": (None, local_sessions),
    }
    for name, (model, sessions) in models.items():
        without = _summary(await _latencies(model, False, sessions))
        with_ = _summary(await _latencies(model, True, sessions))
        out[name] = {
            "without_prefetch": without,
            "with_prefetch": with_,
            "p50_ratio": round(with_["p50_s"] / without["p50_s"], 4) if without["p50_s"] else None,
        }
    return out


def prompt_tokens(turns: int = 10) -> dict[str, Any]:
    """Main-question prompt tokens at each turn of a `turns`-answer session: the 3-turn
    window plus summary (ours) versus every turn verbatim (the seed)."""
    tokens = token_counter()

    def count(messages) -> int:
        return tokens("\n".join(m.text for m in messages))

    row = _sessions(1)[0]
    facts = extract_facts(row["resume_text"], row["posting_text"])
    plan = build_plan(facts, row["interview_type"], turns, "bench")
    history: list[dict[str, Any]] = []
    windowed, full = [], []
    for n, slot in enumerate(plan):
        values = {
            "type_label": TYPE_LABEL[row["interview_type"]],
            "category": slot["label"],
            "anchor": slot["anchor"],
            "tie": slot["tie"],
            "facts": facts_lines(facts),
        }
        windowed.append(
            count(
                MAIN_PROMPT.messages(
                    **values, summary=summary_text(history), window=window_text(history)
                )
            )
        )
        full.append(
            count(
                MAIN_PROMPT.messages(**values, summary="(없음)", window=full_history_text(history))
            )
        )
        answer = row["answers"][n % len(row["answers"])]["text"]
        history.append({**slot, "question": template_question(slot), "answer": answer, "depth": 0})
    return {
        "turns": turns,
        "windowed": windowed,
        "full_history": full,
        "last_turn_ratio": round(windowed[-1] / full[-1], 3),
        "mean_ratio": round(sum(windowed) / sum(full), 3),
    }
