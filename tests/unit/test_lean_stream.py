"""The lean event stream (`POST {feature}/events`, `GET /ai/runs/{run_id}/events`) in
process: its small vocabulary in order, the result equal to /invoke's, tokens tagged with
their field, resuming after any event id, errors as 4xx before the stream and as an
`error` event inside it. (Across real processes on Redis: tests/integration.)"""

from __future__ import annotations

import json

from nodes.analysis.schemas import AnalysisResult
from nodes.chat.schemas import ChatResult
from tests.conftest import POSTING, RESUME

ANALYZE = {"user_id": "u1", "resume_text": RESUME, "posting_text": POSTING}


def parse(text: str) -> list[tuple[str, str, object]]:
    """(id, event, data) of each SSE message (pings and comments left out)."""
    found = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.strip().splitlines() if ": " in line)
        if "event" in fields:
            found.append((fields.get("id", ""), fields["event"], json.loads(fields["data"])))
    return found


def order(event_id: str) -> tuple[int, int]:
    ms, seq = event_id.split("-")
    return int(ms), int(seq)


async def test_an_analysis_streams_match_tokens_result_end(use_fake_model, client):
    use_fake_model()
    r = await client.post("/ai/analyze/events", json={"input": ANALYZE})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
    events = parse(r.text)
    kinds = [kind for _, kind, _ in events]
    assert kinds[0] == "run" and events[0][2] == {"run_id": r.headers["x-run-id"]}
    assert kinds[1] == "match" and kinds[-2:] == ["result", "end"]
    tokens = [data for _, kind, data in events if kind == "token"]
    assert tokens and {t["field"] for t in tokens} == {"feedback"}
    assert set(kinds) == {"run", "match", "token", "result", "end"}
    ids = [order(event_id) for event_id, _, _ in events]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    result = AnalysisResult.model_validate(events[-2][2])
    match = events[1][2]
    assert (result.matching.score, result.matching.grade) == (match["score"], match["grade"])
    # The same run through /invoke gives the same result (from the cache, said so).
    invoked = (await client.post("/ai/analyze/invoke", json={"input": ANALYZE})).json()
    assert invoked["output"]["matching"]["score"] == result.matching.score
    assert invoked["output"]["resume_analysis"] == events[-2][2]["resume_analysis"]


async def test_a_client_resumes_after_any_event(use_fake_model, client):
    use_fake_model()
    whole = parse((await client.post("/ai/analyze/events", json={"input": ANALYZE})).text)
    run_id = whole[0][2]["run_id"]
    for cut in (0, 3, len(whole) - 2):
        r = await client.get(f"/ai/runs/{run_id}/events", headers={"Last-Event-ID": whole[cut][0]})
        assert r.status_code == 200
        assert parse(r.text) == whole[cut + 1 :]
    everything = await client.get(f"/ai/runs/{run_id}/events")
    assert parse(everything.text) == whole


async def test_a_chat_answer_streams_as_answer_tokens(use_fake_model, client):
    use_fake_model(lambda messages: "서류 준비는 이력서부터 정리해 보세요.")
    body = {"input": {"user_id": "u1", "room_id": "r1", "message": "서류 준비 어떻게 해?"}}
    events = parse((await client.post("/ai/chat/events", json=body)).text)
    kinds = [kind for _, kind, _ in events]
    assert kinds[-2:] == ["result", "end"], kinds
    result = ChatResult.model_validate(events[-2][2])
    text = "".join(d["text"] for _, k, d in events if k == "token" and d["field"] == "answer")
    assert text and text.strip() == result.answer.strip()


async def test_bad_requests_are_4xx_before_any_stream(use_fake_model, client):
    fake = use_fake_model()
    bare = await client.post("/ai/analyze/events", json=ANALYZE)
    assert bare.status_code == 422 and bare.json()["error"]["field"] == "input"
    blank = {"input": {**ANALYZE, "resume_text": " "}}
    r = await client.post("/ai/analyze/events", json=blank)
    assert r.status_code == 422 and r.json()["error"]["field"] == "resume_text"
    unknown = await client.get("/ai/runs/0123456789abcdef/events")
    assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "RUN_NOT_FOUND"
    assert fake.calls == []
    run = (await client.post("/ai/analyze/events", json={"input": ANALYZE})).headers["x-run-id"]
    mine = await client.get(f"/ai/runs/{run}/events", params={"user_id": "u1"})
    assert mine.status_code == 200
    theirs = await client.get(f"/ai/runs/{run}/events", params={"user_id": "u2"})
    assert theirs.status_code == 404


async def test_a_failure_inside_the_run_is_an_error_event_then_end(use_fake_model, client):
    use_fake_model(respond=lambda m: "{}" if "섹션:" in m[-1].text else "x")
    r = await client.post("/ai/analyze/events", json={"input": ANALYZE, "version": "v2"})
    events = parse(r.text)
    assert [k for _, k, _ in events][-2:] == ["error", "end"]
    assert events[-2][2]["error"]["code"] == "MODEL_OUTPUT_INVALID"
    assert "result" not in [k for _, k, _ in events]


async def test_tokens_after_the_first_are_merged_per_window_in_order():
    from core.event_log import MemoryEventLog
    from core.lean_stream import _Tokens

    log = MemoryEventLog(ttl_s=60)
    await log.create("r", None)
    tokens = _Tokens(log, "r", window_s=30.0)  # a window no test run reaches
    await tokens.add("answer", "안")
    assert [(k, d) for _, k, d in await log.read("r", "0", 0.1)] == [
        ("token", {"field": "answer", "text": "안"})
    ]  # the first at once
    for piece in ("녕", "하", "세요"):
        await tokens.add("answer", piece)
    assert len(await log.read("r", "0", 0.1)) == 1  # the rest waits for its window
    await tokens.flush()  # as before any other event
    await log.append("r", "result", {})
    kinds = [(k, d) for _, k, d in await log.read("r", "0", 0.1)]
    assert kinds[1:] == [("token", {"field": "answer", "text": "녕하세요"}), ("result", {})]


async def test_a_reader_of_a_run_that_died_unfinished_gets_an_error(use_fake_model, monkeypatch):
    """Its process died mid-run: no `end` will come; once its log has expired the reader
    ends with RUN_EXPIRED instead of waiting forever."""
    from core import lean_stream
    from core.event_log import MemoryEventLog
    from core.services import get_services

    use_fake_model()
    services = get_services()
    services._events = MemoryEventLog(ttl_s=0)  # expires as soon as it is quiet
    monkeypatch.setattr(lean_stream, "EXPIRY_CHECK_S", 0.1)
    await services.events.create("r", None)
    first = await services.events.append("r", "run", {"run_id": "r"})
    got = [m async for m in lean_stream.sse(services, "r", first)]
    assert [m["event"] for m in got] == ["error"]
    assert json.loads(got[0]["data"])["error"]["code"] == "RUN_EXPIRED"
