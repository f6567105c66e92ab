"""Chat on real processes: real Redis (checkpoints, schedules), real Chroma (directory),
the embedded model and embeddings; a conversation that survives a server restart."""

from __future__ import annotations

import uuid

import httpx
import pytest

from tests.conftest import RESUME
from tests.integration.conftest import serve_app
from tests.unit.test_server import stream_parts

pytestmark = pytest.mark.integration
NOW = "2026-11-29T10:00:00+09:00"


def serve(redis_url: str, tmp_path, name: str):
    return serve_app(
        redis_url,
        tmp_path / f"{name}.log",
        CHROMA_PATH=str(tmp_path / "chroma"),
        CHAT_MAX_OUTPUT_TOKENS="48",
    )


def say(client: httpx.Client, user: str, room: str, message: str) -> dict:
    body = {"input": {"user_id": user, "room_id": room, "message": message, "now": NOW}}
    r = client.post("/ai/chat/invoke", json=body)
    assert r.status_code == 200, r.text
    return r.json()["output"]


def test_a_conversation_survives_a_restart_and_users_stay_apart(redis_url, tmp_path):
    user, other = f"u{uuid.uuid4().hex[:8]}", f"v{uuid.uuid4().hex[:8]}"
    with serve(redis_url, tmp_path, "first") as base, httpx.Client(base_url=base, timeout=600) as c:
        added = say(c, user, "room", "다음주 금요일 오후 3시에 네이버 1차 면접 추가해줘")
        assert added["tool_calls"][0]["args"] == {
            "title": "네이버 1차 면접",
            "date": "2026-12-04",
            "time": "15:00",
        }
        body = {"user_id": user, "doc_id": "cv", "doc_type": "resume", "text": RESUME}
        assert c.post("/ai/file/embed/invoke", json={"input": body}).status_code == 200
    with (
        serve(redis_url, tmp_path, "second") as base,
        httpx.Client(base_url=base, timeout=600) as c,
    ):
        listed = say(c, user, "room", "다음 주 일정 알려줘")  # the schedule is in Redis
        assert "네이버 1차 면접" in listed["answer"]
        theirs = say(c, other, "room", "네이버 면접 취소해줘")
        assert theirs["tool_calls"] == []  # not their schedule: nothing to delete
        assert "네이버 1차 면접" in say(c, user, "room", "다음 주 일정 알려줘")["answer"]
        r = c.post(
            "/ai/chat/stream_events",
            json={
                "input": {
                    "user_id": user,
                    "room_id": "room",
                    "message": "내 이력서에 적은 기술 스택이 뭐였지?",
                    "now": NOW,
                },
                "version": "v2",
            },
        )
        payloads, token_at, final_at = stream_parts(r.text)
        assert token_at and token_at[0] < final_at
        assert {payloads[i]["metadata"]["langgraph_node"] for i in token_at} == {"write_answer"}
        result = payloads[final_at]["data"]["output"]
        assert result["route"] == "rag" and result["sources"]
        assert {s["doc_id"] for s in result["sources"]} == {"cv"}
        other_rag = say(c, other, "room", "내 이력서에 적은 기술 스택이 뭐였지?")
        assert other_rag["sources"] == []  # another user's documents are invisible
    # The room's memory is checkpointed in Redis: turns from before and after the restart.
    from langgraph.checkpoint.redis import RedisSaver

    with RedisSaver.from_conn_string(redis_url) as saver:
        saved = saver.get_tuple(
            {"configurable": {"thread_id": f"chat:{user}:room", "checkpoint_ns": ""}}
        )
    turns = [t["user"] for t in saved.checkpoint["channel_values"]["history"]]
    assert turns[0] == "다음주 금요일 오후 3시에 네이버 1차 면접 추가해줘" and len(turns) == 4
