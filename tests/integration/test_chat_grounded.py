"""No junk reaches a user, on the real embedded default (issue 13): `uvicorn server:app` on
real Redis and a Chroma directory, with CHAT_MODEL=local (the 135M stand-in), which echoed
its prompt's headings when asked to answer. A document question is answered with the
uploaded document's own passages, named by their source; a free-form question gets the
honest reply; both stream as tokens, and the stand-in is never called for them."""

from __future__ import annotations

import re
import uuid

import httpx
import pytest

from tests.conftest import RESUME
from tests.integration.conftest import serve_app
from tests.unit.test_server import stream_parts
from text.degenerate import degenerate_reason
from text.user_text import leak_reason

pytestmark = pytest.mark.integration
NOW = "2026-11-29T10:00:00+09:00"
PORTFOLIO = (
    "[프로젝트]\n주문 처리 시스템을 Kafka 기반 이벤트 구조로 다시 설계했습니다. 하루 200만 건의 "
    "주문을 지연 없이 처리했고, 장애 복구 시간을 30분에서 5분으로 줄였습니다.\n"
)
CHAT_CALLS = re.compile(r'^devths_model_calls_total\{[^}]*feature="chat"[^}]*\} (\S+)$', re.M)


def chat_model_calls(client: httpx.Client) -> float:
    return sum(float(v) for v in CHAT_CALLS.findall(client.get("/metrics").text))


def streamed(client: httpx.Client, user: str, message: str) -> tuple[str, dict]:
    """The tokens (joined) and the final ChatResult of one /ai/chat/stream_events call."""
    body = {"user_id": user, "room_id": "room", "message": message, "now": NOW}
    r = client.post("/ai/chat/stream_events", json={"input": body, "version": "v2"})
    assert r.status_code == 200, r.text
    payloads, token_at, final_at = stream_parts(r.text)
    assert len(token_at) > 5 and token_at[0] < final_at
    assert {payloads[i]["metadata"]["langgraph_node"] for i in token_at} == {"write_answer"}
    tokens = "".join(payloads[i]["data"]["chunk"]["content"] for i in token_at)
    return tokens, payloads[final_at]["data"]["output"]


def test_on_the_embedded_model_chat_answers_are_grounded_and_streamed(redis_url, tmp_path):
    user = f"g{uuid.uuid4().hex[:8]}"  # Redis outlives test runs: a fresh user each run
    with (
        serve_app(redis_url, tmp_path / "server.log", CHROMA_PATH=str(tmp_path / "chroma")) as base,
        httpx.Client(base_url=base, timeout=600) as client,
    ):
        for doc_id, doc_type, text in (("cv", "resume", RESUME), ("pf", "portfolio", PORTFOLIO)):
            body = {"user_id": user, "doc_id": doc_id, "doc_type": doc_type, "text": text}
            r = client.post("/ai/file/embed/invoke", json={"input": body})
            assert r.status_code == 200, r.text
        calls_before = chat_model_calls(client)

        tokens, rag = streamed(client, user, "내 이력서에 적은 기술 스택이 뭐였지?")
        answer = rag["answer"]
        assert tokens == answer and degenerate_reason(answer) is None, answer
        assert rag["route"] == "rag" and rag["tool_calls"] == []
        assert "cv" in {s["doc_id"] for s in rag["sources"]}
        assert "Java, Spring Boot, JPA, MySQL, Redis, Docker" in answer  # the resume's passage
        assert "이력서 · 기술 스택" in answer  # named by its document and section
        assert leak_reason(answer, ids=["cv", "pf", user]) is None  # not by its internal id

        tokens, project = streamed(client, user, "포트폴리오에 쓴 프로젝트 성과가 뭐였지?")
        assert tokens == project["answer"] and degenerate_reason(project["answer"]) is None
        assert "하루 200만 건의 주문을 지연 없이 처리했고" in project["answer"]
        assert "포트폴리오 · 프로젝트" in project["answer"]

        tokens, general = streamed(client, user, "면접 복장은 어떻게 해?")
        assert tokens == general["answer"] and degenerate_reason(general["answer"]) is None
        assert general["route"] == "general"
        assert "답하기 어려워요" in general["answer"]
        assert leak_reason(general["answer"]) is None  # no setting or model name

        assert chat_model_calls(client) == calls_before  # the stand-in was not asked
