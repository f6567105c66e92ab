"""Chat benchmarks, the seed's experiments with our code paths:

- History tokens in the answer prompt after 10 turns: every turn verbatim (the seed) versus
  the last 5 turns plus the folded summary (ours). Embedded model's tokenizer.
- Document-context tokens in the answer prompt: top-10 chunks (the seed) versus top-5 above
  the calibrated threshold (ours), through the chat graph's retrieve step.
"""

from __future__ import annotations

import json
import statistics
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from core.local_llm import embedded_model_path, get_engine
from core.services import in_process_services, set_services
from core.settings import get_settings
from evals.run_chat import seed_documents
from nodes.chat.steps import ANSWER_PROMPT, SUMMARY_LINES, WINDOW_TURNS, _window, retrieve

DATASETS = Path(__file__).parents[1] / "evals" / "datasets"

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
    tokens = _tokenizer()

    def count(messages) -> int:
        return tokens("\n".join(m.text for m in messages))

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


def _tokenizer() -> Callable[[str], int]:
    engine = get_engine(str(embedded_model_path()), 4096, None)
    return lambda text: len(engine.llama.tokenize(text.encode("utf-8"), add_bos=False))


async def rag_context_tokens() -> dict[str, Any]:
    """The answer prompt's document context on the retrieval eval's 26 questions over one
    user's 5 documents: the seed's top-10 with no threshold versus ours (RAG_TOP_K=5 and
    RAG_MIN_SCORE), both through the chat graph's own retrieve step."""
    count = _tokenizer()
    questions = [
        json.loads(line)["question"]
        for line in (DATASETS / "chat_retrieval.jsonl").read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
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
