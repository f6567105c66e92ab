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
from nodes.chat.steps import ANSWER_PROMPT, _window, remember, retrieve

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
