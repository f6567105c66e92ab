"""A whole mock interview on real processes: real Redis, the real embedded model, and a
server restart in the middle of the session."""

from __future__ import annotations

import json
import re
import time
import uuid

import httpx
import pytest
import redis

from nodes.interview import prefetch
from tests.conftest import POSTING, RESUME
from tests.integration.conftest import serve_app
from tests.unit.test_server import stream_parts

pytestmark = pytest.mark.integration
STRONG = (
    "주문 API 개발에서 MySQL 인덱스를 추가해 응답 시간을 40% 단축했습니다. 실행 계획을 분석해 "
    "복합 인덱스를 설계했고, 쓰기 성능과의 트레이드오프를 비교했기 때문에 조회 위주 테이블에만 "
    "적용했습니다. 그 결과 피크 시간 타임아웃이 사라졌습니다."
)


def request_model_calls(base: str) -> float:
    """Interview model calls made on request paths (prefetches count as "background")."""
    text = httpx.get(f"{base}/metrics").text
    found = re.findall(
        r'^devths_model_calls_total\{feature="interview",[^}]*origin="request"\} ([0-9.e+]+)$',
        text,
        re.MULTILINE,
    )
    return sum(float(v) for v in found)


def serve(redis_url: str, tmp_path, name: str):
    return serve_app(
        redis_url,
        tmp_path / f"{name}.log",
        INTERVIEW_QUESTIONS="3",
        INTERVIEW_MAX_FOLLOWUP_DEPTH="1",
        INTERVIEW_QUESTION_SOURCE="model",  # the real embedded model writes them
    )


def wait_for_prefetch(client: redis.Redis, thread: str, index: int, timeout_s: float) -> dict:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        raw = client.get(prefetch.store_key(thread))
        if raw is not None and json.loads(raw)["index"] == index:
            return json.loads(raw)
        time.sleep(0.2)
    raise TimeoutError(f"no prefetched question {index} within {timeout_s} s")


def test_a_session_survives_a_restart_and_serves_the_prefetch_without_a_model_call(
    redis_url, tmp_path
):
    session = uuid.uuid4().hex[:10]
    thread = f"interview:e2e:{session}"
    ids = {"user_id": "e2e", "session_id": session}
    store = redis.Redis.from_url(redis_url)
    with serve(redis_url, tmp_path, "first") as base, httpx.Client(base_url=base, timeout=600) as c:
        first = c.post(
            "/ai/interview/question/invoke",
            json={"input": {**ids, "resume_text": RESUME, "posting_text": POSTING}},
        )
        assert first.status_code == 200, first.text
        q1 = first.json()["output"]
        assert q1["question_id"] == "q1" and q1["total_questions"] == 3 and q1["question"]
        assert request_model_calls(base) >= 1  # the first question was written on demand
        stored = wait_for_prefetch(store, thread, 1, 300)  # q2, written in the background
    # The server is gone; the session and the prefetched question are in Redis.
    with (
        serve(redis_url, tmp_path, "second") as base,
        httpx.Client(base_url=base, timeout=600) as c,
    ):
        assert request_model_calls(base) == 0
        r = c.post(
            "/ai/interview/question/invoke", json={"input": {**ids, "answer": "모르겠습니다"}}
        )
        assert r.status_code == 200, r.text
        q2 = r.json()["output"]
        assert (q2["question_id"], q2["question"]) == ("q2", stored["question"])
        assert request_model_calls(base) == 0  # served without a model call
        r = c.post(
            "/ai/interview/question/invoke",
            json={"input": {**ids, "answer": "Redis 캐시를 썼습니다"}},
        )
        followup = r.json()["output"]
        assert followup["is_followup"] and followup["question_id"] == "q2-f1"
        assert request_model_calls(base) >= 1  # a follow-up needs the model on the path
        out = followup
        while not out["done"]:
            r = c.post("/ai/interview/question/invoke", json={"input": {**ids, "answer": STRONG}})
            assert r.status_code == 200, r.text
            out = r.json()["output"]
        report = c.post("/ai/interview/report/stream_events", json={"input": ids, "version": "v2"})
        payloads, token_at, final_at = stream_parts(report.text)
        assert token_at and token_at[0] < final_at
        result = payloads[final_at]["data"]["output"]
        scores = {e["question_id"]: e["score"] for e in result["evaluations"]}
        assert scores["q1"] == 0 and scores["q3"] > scores["q2"] > 0  # none, strong, short
        assert result["report"]["learning_guide"] and result["cached"] is False
        again = c.post("/ai/interview/report/invoke", json={"input": ids}).json()["output"]
        assert again["cached"] is True and again["report"] == result["report"]
