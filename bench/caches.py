"""Model calls saved by the caches on a request stream with 30% repeats (the seed promised
-40% API calls through caching).

One stream of 100 requests, half analyses and half chat questions, of which exactly 30 repeat
an earlier request of the stream (a resubmitted resume/posting pair, sometimes with other
line breaks and spacing; a question asked again). The same stream runs twice through the
real graphs with the simulated model (no latency): once with a cache that never hits, once
with the in-process cache. Model calls are counted by the model registry's callback, per
feature.

    python -m bench.run --only caches
"""

from __future__ import annotations

import json
import random
import tempfile
from pathlib import Path
from typing import Any

from bench.chat import QUESTIONS
from bench.measure import model_calls_by_feature
from bench.simulated import SimulatedChatModel
from core.cache import MemoryJsonCache, MissingCache
from core.models import ModelRegistry
from core.services import get_services, in_process_services, set_services
from core.settings import Settings
from graphs.analysis import build_analysis_graph
from graphs.chat import build_chat_graph

Stream = list[tuple[str, dict[str, Any], str]]  # (feature, input, kind)
DATASET = Path(__file__).parents[1] / "evals" / "datasets" / "analysis.jsonl"


def respaced(text: str) -> str:
    """The same document as a client might resend it: other line breaks and spacing."""
    return "\n\n".join("  " + line.replace(" ", "  ") + " " for line in text.splitlines())


def request_stream(requests: int = 100, repeat_share: float = 0.3, seed: int = 0) -> Stream:
    """`requests` (feature, input, kind) triples; exactly round(requests * repeat_share) of
    them repeat an earlier one (kind "repeat" or "respaced repeat"). Features alternate
    among the new requests."""
    rng = random.Random(seed)
    pairs = [json.loads(line) for line in DATASET.read_text(encoding="utf-8").splitlines()]
    repeats = round(requests * repeat_share)
    repeat_at = set(rng.sample(range(1, requests), repeats))
    stream: Stream = []
    fresh = 0
    for i in range(requests):
        if i in repeat_at:
            feature, body, _ = rng.choice(stream)
            if feature == "analysis" and rng.random() < 0.5:
                body = {**body, "resume_text": respaced(body["resume_text"])}
                stream.append((feature, body, "respaced repeat"))
            else:
                stream.append((feature, body, "repeat"))
            continue
        if fresh % 2 == 0:
            pair = pairs[(fresh // 2) % len(pairs)]
            body = {
                "user_id": "bench",
                # a line of its own keeps every fresh analysis distinct
                "resume_text": f"{pair['resume_text']}\n(지원서 {fresh})",
                "posting_text": pair["posting_text"],
            }
            stream.append(("analysis", body, "new"))
        else:
            question = f"{QUESTIONS[(fresh // 2) % len(QUESTIONS)]} ({fresh}번째 질문)"
            stream.append(("chat", {"user_id": "bench", "message": question}, "new"))
        fresh += 1
    return stream


async def _run(stream: Stream, cache: Any, tag: str) -> dict[str, float]:
    settings = Settings(redis_url=None, chroma_path=tempfile.mkdtemp())
    model = SimulatedChatModel(ttft_s=0.0, tokens_per_s=1_000_000)
    set_services(
        in_process_services(
            settings,
            cache=cache,
            models=ModelRegistry(settings, {"chat": model, "analysis": model}),
        )
    )
    try:
        checkpointer = get_services().checkpointer
        analysis = build_analysis_graph().compile()
        chat = build_chat_graph().compile(checkpointer=checkpointer)
        before = model_calls_by_feature()
        for i, (feature, body, _) in enumerate(stream):
            if feature == "analysis":
                await analysis.ainvoke(body)
            else:
                # a new room per request: the chat cache, not the room's history, is measured
                await chat.ainvoke(
                    {**body, "room_id": f"r{i}"},
                    {"configurable": {"thread_id": f"chat:bench:{tag}:{i}"}},
                )
        after = model_calls_by_feature()
    finally:
        set_services(None)
    return {k: after.get(k, 0.0) - before.get(k, 0.0) for k in ("analysis", "chat")}


async def cache_savings(requests: int = 100, repeat_share: float = 0.3) -> dict[str, Any]:
    stream = request_stream(requests, repeat_share)
    without = await _run(stream, MissingCache(), "without")
    with_cache = await _run(stream, MemoryJsonCache(), "with")
    total_without, total_with = sum(without.values()), sum(with_cache.values())
    return {
        "requests": requests,
        "repeats": sum(1 for *_, kind in stream if kind != "new"),
        "respaced_repeats": sum(1 for *_, kind in stream if kind == "respaced repeat"),
        "by_feature": {
            feature: {
                "requests": sum(1 for f, *_ in stream if f == feature),
                "without_cache": without[feature],
                "with_cache": with_cache[feature],
            }
            for feature in ("analysis", "chat")
        },
        "without_cache": total_without,
        "with_cache": total_with,
        "saved_share": round(1 - total_with / total_without, 3),
    }
