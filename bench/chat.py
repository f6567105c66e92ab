"""Chat benchmarks, the seed's experiments with our code paths:

- History tokens in the answer prompt after 10 turns: every turn verbatim (the seed) versus
  the last 5 turns plus the folded summary (ours). Embedded model's tokenizer.
- Model calls saved by the answer cache on a stream of 100 general questions of which 30%
  repeat an earlier one (simulated model, in-process services).
"""

from __future__ import annotations

import random
import tempfile
from typing import Any

from bench.simulated import SimulatedChatModel
from core.cache import MemoryJsonCache, MissingCache
from core.local_llm import embedded_model_path, get_engine
from core.models import ModelRegistry
from core.services import get_services, in_process_services, set_services
from core.settings import Settings
from core.telemetry import MODEL_CALLS
from graphs.chat import build_chat_graph
from nodes.chat.steps import ANSWER_PROMPT, SUMMARY_LINES, WINDOW_TURNS, _window

QUESTIONS = [
    "면접 볼 때 긴장을 줄이는 방법 있어?",
    "연봉 협상은 어떻게 하는 게 좋아?",
    "이직 사유는 어떻게 말하는 게 좋을까?",
    "코딩테스트 준비는 어떤 순서로 하면 좋아?",
    "기술 면접에서 모르는 질문 나오면 어떻게 해?",
    "개발자 커리어 로드맵 추천해줘",
    "1분 자기소개 팁 알려줘",
    "신입 개발자 포트폴리오는 보통 어떻게 구성해?",
    "백엔드 개발자로 취업하려면 뭘 공부해야 해?",
    "면접 복장은 어떻게 입는 게 좋아?",
]


def history_tokens(turns: int = 10) -> dict[str, Any]:
    engine = get_engine(str(embedded_model_path()), 4096, None)

    def count(messages) -> int:
        text = "\n".join(m.text for m in messages)
        return len(engine.llama.tokenize(text.encode("utf-8"), add_bos=False))

    answer = (
        "면접에서는 질문의 의도를 먼저 확인하고, 경험을 상황-행동-결과 순서로 설명하세요. "
        "수치로 결과를 보여 주면 설득력이 높아집니다."
    )
    history = [
        {"user": QUESTIONS[i % len(QUESTIONS)], "assistant": answer, "route": "general"}
        for i in range(turns)
    ]
    window = history[-WINDOW_TURNS:]
    summary = [
        f"- ({t['route']}) {t['user'][:60]} -> {t['assistant'][:60]}"
        for t in history[:-WINDOW_TURNS]
    ][-SUMMARY_LINES:]
    base = {"context": "(없음)", "message": "다음 면접 준비는 뭘 하면 좋을까?"}
    full = count(ANSWER_PROMPT.messages(summary="(없음)", window=_window(history), **base))
    ours = count(ANSWER_PROMPT.messages(summary="\n".join(summary), window=_window(window), **base))
    return {
        "turns": turns,
        "full_history": full,
        "window_summary": ours,
        "ratio": round(ours / full, 3),
    }


def _calls() -> float:
    return sum(
        s.value
        for m in MODEL_CALLS.collect()
        for s in m.samples
        if s.name.endswith("_total") and s.labels.get("feature") == "chat"
    )


async def cache_savings(requests: int = 100, repeat_share: float = 0.3) -> dict[str, Any]:
    rng = random.Random(0)
    stream: list[str] = []
    for i in range(requests):
        if stream and rng.random() < repeat_share:
            stream.append(rng.choice(stream))
        else:
            stream.append(f"{QUESTIONS[i % len(QUESTIONS)]} ({i}번째 질문)")
    repeats = requests - len(set(stream))
    out: dict[str, Any] = {"requests": requests, "repeats": repeats}
    for name, cache in (("without_cache", MissingCache()), ("with_cache", MemoryJsonCache())):
        settings = Settings(redis_url=None, chroma_path=tempfile.mkdtemp())
        model = SimulatedChatModel(ttft_s=0.0, tokens_per_s=10_000)
        set_services(
            in_process_services(
                settings, cache=cache, models=ModelRegistry(settings, {"chat": model})
            )
        )
        graph = build_chat_graph().compile(checkpointer=get_services().checkpointer)
        before = _calls()
        for i, message in enumerate(stream):
            await graph.ainvoke(
                {"user_id": "bench", "room_id": f"r{i}", "message": message},
                {"configurable": {"thread_id": f"chat:bench:{name}:{i}"}},
            )
        out[name] = _calls() - before
        set_services(None)
    out["saved_share"] = round(1 - out["with_cache"] / out["without_cache"], 3)
    return out
