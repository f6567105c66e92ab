"""Chat benchmarks, the seed's experiments with our code paths:

- History tokens in the answer prompt after 10 turns: every turn verbatim (the seed) versus
  the last 5 turns plus the folded summary (ours). Embedded model's tokenizer.
- Document-context tokens in the answer prompt: top-10 chunks (the seed) versus top-5 above
  the calibrated threshold (ours), through the chat graph's retrieve step.
"""

from __future__ import annotations

import statistics
import tempfile
from typing import Any

from bench.measure import token_counter
from core.services import in_process_services, set_services
from core.settings import get_settings
from evals.run_chat import load_dataset, seed_documents
from nodes.chat.memory import remember
from nodes.chat.steps import ANSWER_PROMPT, _window, retrieve

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


SHORT_ANSWER = (
    "면접에서는 질문의 의도를 먼저 확인하고, 경험을 상황-행동-결과 순서로 설명하세요. "
    "수치로 결과를 보여 주면 설득력이 높아집니다."
)
# About what a 512-token answer (CHAT_MAX_OUTPUT_TOKENS) holds: six paragraphs of advice.
LONG_ANSWER = " ".join(
    [
        "먼저 질문의 의도를 한 문장으로 다시 정리해 보세요.",
        "그다음 경험을 상황, 과제, 행동, 결과 순서로 설명하면 "
        "듣는 사람이 흐름을 따라가기 쉽습니다.",
        "결과는 가능한 한 숫자로 말하는 것이 좋습니다. 예를 들어 응답 시간을 40% 줄였다거나 "
        "장애 건수를 절반으로 줄였다는 식입니다.",
        "기술 선택을 설명할 때는 대안이 무엇이었고 왜 그 대안을 고르지 않았는지도 함께 말하세요.",
        "모르는 질문이 나오면 아는 범위를 분명히 말하고, 어떻게 찾아보고 검증할지 설명하는 편이 "
        "추측으로 답하는 것보다 낫습니다.",
        "마지막으로 답변을 1분 안팎으로 연습해 두고, 꼬리 질문에 대비해 프로젝트마다 "
        "어려웠던 점과 배운 점을 두세 가지씩 정리해 두세요.",
    ]
    * 2
)


def history_tokens(turns: int = 10) -> dict[str, Any]:
    """Answer-prompt tokens after `turns` turns: every turn verbatim (the seed) versus the
    chat graph's own memory (`remember`: 5 turns + folded summary lines), for short answers
    and for answers of a full 512-token reply."""
    tokens = token_counter()

    def count(messages) -> int:
        return tokens("\n".join(m.text for m in messages))

    base = {
        "context": "(없음)",
        "message": "다음 면접 준비는 뭘 하면 좋을까?",
        "today": "2026-11-29 (일)",
    }
    out: dict[str, Any] = {"turns": turns}
    for name, answer in (("short", SHORT_ANSWER), ("long", LONG_ANSWER)):
        full: list[dict[str, Any]] = []
        state: dict[str, Any] = {"history": [], "summary_lines": []}
        for i in range(turns):
            turn = {"message": QUESTIONS[i % len(QUESTIONS)], "answer": answer, "route": "general"}
            full.append({"user": turn["message"], "assistant": answer, "route": "general"})
            state = {**state, **remember({**state, **turn})}
        seed = count(ANSWER_PROMPT.messages(summary="(없음)", window=_window(full), **base))
        ours = count(
            ANSWER_PROMPT.messages(
                summary="\n".join(state["summary_lines"]), window=_window(state["history"]), **base
            )
        )
        out[name] = {
            "answer_chars": len(answer),
            "full_history": seed,
            "window_summary": ours,
            "ratio": round(ours / seed, 3),
        }
    # the short case keeps the keys earlier results and the README used
    out.update(
        full_history=out["short"]["full_history"],
        window_summary=out["short"]["window_summary"],
        ratio=out["short"]["ratio"],
    )
    return out


async def rag_context_tokens() -> dict[str, Any]:
    """The answer prompt's document context on the retrieval eval's 26 questions over one
    user's 5 documents: the seed's top-10 with no threshold versus ours (RAG_TOP_K=5 and
    RAG_MIN_SCORE), both through the chat graph's own retrieve step."""
    count = token_counter()
    questions = [row["question"] for row in load_dataset("chat_retrieval.jsonl")]
    base = get_settings()
    designs = {
        "top10": {"rag_top_k": 10, "rag_min_score": -1.0},
        "ours": {"rag_top_k": base.rag_top_k, "rag_min_score": base.rag_min_score},
    }
    out: dict[str, Any] = {"questions": len(questions)}
    for name, update in designs.items():
        settings = base.model_copy(update={**update, "chroma_path": tempfile.mkdtemp()})
        set_services(in_process_services(settings))
        try:
            await seed_documents("bench")
            tokens, chunks = [], []
            for question in questions:
                found = await retrieve({"user_id": "bench", "message": question})
                tokens.append(count(found["context"]))
                chunks.append(len(found["sources"]))
        finally:
            set_services(None)
        out[name] = {
            **update,
            "context_tokens_mean": round(statistics.mean(tokens), 1),
            "chunks_mean": round(statistics.mean(chunks), 2),
            "no_context_share": round(sum(c == 0 for c in chunks) / len(chunks), 3),
        }
    ours, seed = out["ours"]["context_tokens_mean"], out["top10"]["context_tokens_mean"]
    out["ratio"] = round(ours / seed, 3)
    return out


# A conversation a job seeker has: adds, pointers, a listing and its pick, a correction, a
# document question and its follow-up, a recruitment question and its follow-up.
TURNS = (
    "12월 8일 오후 2시에 토스 면접 일정 추가해줘",
    "방금 추가한 일정 4시로 바꿔줘",
    "다음주 일정 보여줘",
    "두 번째 거 메모에 '포폴 지참' 남겨줘",
    "아니다 그거 말고 첫 번째 거",
    "내 이력서에 자격증 뭐 있지?",
    "그거 언제 땄다고 돼 있어?",
    "카카오 코딩테스트 언제야?",
    "거기 1차 면접은?",
    "면접 복장은 어떻게 해?",
)


async def turn_latency(rooms: int = 10) -> dict[str, Any]:
    """Wall time of a chat turn on the embedded defaults (in process, Redis for the room's
    checkpoints and the schedules when REDIS_URL is set): `rooms` conversations of TURNS,
    one after another, after one warm-up conversation. P50/P95 over every turn and per
    route; the #27 target is P50 < 200 ms."""
    import json
    import statistics
    import tempfile
    import time
    from pathlib import Path

    from core.services import get_services, in_process_services, set_services
    from core.settings import get_settings
    from graphs.chat import build_chat_graph
    from graphs.embed import build_embed_graph

    settings = get_settings().model_copy(
        update={"chroma_path": tempfile.mkdtemp(prefix="bench-chat-"), "chat_model": "local"}
    )
    set_services(in_process_services(settings))
    docs = json.loads(
        (Path(__file__).parents[1] / "evals" / "datasets" / "chat_documents.json").read_text(
            encoding="utf-8"
        )
    )
    embed = build_embed_graph().compile()
    for doc_id, doc in docs.items():
        await embed.ainvoke({"user_id": "bench-chat", "doc_id": doc_id, **doc})
    graph = build_chat_graph().compile(checkpointer=get_services().checkpointer)
    by_route: dict[str, list[float]] = {}
    every: list[float] = []
    for room in range(rooms + 1):  # room 0 warms the analyser, the router and the caches
        config = {"configurable": {"thread_id": f"chat:bench-chat:b{room}"}}
        for message in TURNS:
            started = time.perf_counter()
            out = await graph.ainvoke(
                {
                    "user_id": "bench-chat",
                    "room_id": f"b{room}",
                    "message": message,
                    "now": "2026-11-29T10:00:00+09:00",
                },
                config,
            )
            ms = (time.perf_counter() - started) * 1000
            if room:
                every.append(ms)
                by_route.setdefault(out["route"], []).append(ms)

    def q(values: list[float], p: float) -> float:
        return round(statistics.quantiles(values, n=100)[int(p) - 1], 1) if len(values) > 1 else 0

    return {
        "turns": len(every),
        "p50_ms": round(statistics.median(every), 1),
        "p95_ms": q(every, 95),
        "by_route": {
            r: {"n": len(v), "p50_ms": round(statistics.median(v), 1), "p95_ms": q(v, 95)}
            for r, v in sorted(by_route.items())
        },
        "redis": bool(settings.redis_url),
    }
