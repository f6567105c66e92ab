"""Limits before reading, batches checked like /invoke, rate limits, token quotas, keys and
task ownership (fake model, in-process limits; tests/integration/test_abuse.py runs the
same limits across two server processes on real Redis)."""

from __future__ import annotations

import json

import pytest

from core.request_limits import RequestLimitsMiddleware, json_shape
from core.services import get_services
from core.settings import get_settings
from tests.conftest import POSTING, RESUME, saved_state

ANALYZE = {"user_id": "u1", "resume_text": RESUME, "posting_text": POSTING}
CHAT_NOW = "2026-03-02T10:00:00+09:00"


def deep_json(levels: int) -> bytes:
    return b"[" * levels + b"]" * levels


# --- bodies: refused before they are read -------------------------------------------------


async def run_asgi(app, headers, chunks):
    """Drive an ASGI app by hand: what it sent, and how many body chunks it pulled."""
    pulled, sent = [], []
    queue = [
        {"type": "http.request", "body": c, "more_body": i < len(chunks) - 1}
        for i, c in enumerate(chunks)
    ]

    async def receive():
        message = queue.pop(0) if queue else {"type": "http.disconnect"}
        pulled.append(message)
        return message

    async def send(message):
        sent.append(message)

    scope = {
        "type": "http",
        "method": "POST",
        "path": "/ai/analyze/invoke",
        "headers": headers,
        "query_string": b"",
    }
    await app(scope, receive, send)
    return sent, pulled


async def test_a_declared_oversized_body_is_413_before_any_byte_is_read(use_fake_model):
    use_fake_model(request_max_bytes=2048)
    reached = []

    async def app(scope, receive, send):  # pragma: no cover - must not be reached
        reached.append(scope)

    headers = [(b"content-type", b"application/json"), (b"content-length", b"10000000")]
    sent, pulled = await run_asgi(RequestLimitsMiddleware(app), headers, [b"x" * 4096])
    assert sent[0]["status"] == 413
    assert json.loads(sent[1]["body"])["error"]["code"] == "PAYLOAD_TOO_LARGE"
    assert pulled == [] and reached == []


async def test_a_declared_body_up_to_twice_the_limit_is_read_then_413(use_fake_model):
    """The client (sending the whole body before it reads) receives the 413, not a reset."""
    use_fake_model(request_max_bytes=2048)

    async def app(scope, receive, send):  # pragma: no cover - must not be reached
        raise AssertionError("the app must not see an oversized body")

    headers = [(b"content-type", b"application/json"), (b"content-length", b"3500")]
    sent, pulled = await run_asgi(RequestLimitsMiddleware(app), headers, [b" " * 700] * 5)
    assert sent[0]["status"] == 413
    assert json.loads(sent[1]["body"])["error"] == {
        "code": "PAYLOAD_TOO_LARGE",
        "message": "Request body is larger than 2048 bytes",
        "field": "body",
    }
    assert len(pulled) == 5 and not pulled[-1]["more_body"]  # all of it, then the answer


async def test_an_undeclared_body_stops_being_read_once_it_passes_the_limit(use_fake_model):
    use_fake_model(request_max_bytes=2048)

    async def app(scope, receive, send):  # pragma: no cover - must not be reached
        raise AssertionError("the app must not see an oversized body")

    chunks = [b"{" + b" " * 1023] * 50  # 50 KiB in 1 KiB chunks, no Content-Length
    sent, pulled = await run_asgi(
        RequestLimitsMiddleware(app), [(b"content-type", b"application/json")], chunks
    )
    assert sent[0]["status"] == 413
    assert len(pulled) == 4  # 4 KiB read (twice the limit) and dropped, not all 50


async def test_an_undeclared_upload_is_cut_off_at_the_limit(use_fake_model):
    use_fake_model(upload_max_bytes=4096)  # limit: 4 KiB + the multipart framing allowance
    answered = []

    async def app(scope, receive, send):  # reads everything, then answers
        while (await receive())["type"] == "http.request":
            pass
        answered.append(True)
        await send({"type": "http.response.start", "status": 400, "headers": []})
        await send({"type": "http.response.body", "body": b"parse error"})

    headers = [(b"content-type", b"multipart/form-data; boundary=x")]
    sent, pulled = await run_asgi(RequestLimitsMiddleware(app), headers, [b"\0" * 8192] * 100)
    assert [m.get("status") for m in sent if m["type"] == "http.response.start"] == [413]
    assert json.loads(sent[1]["body"])["error"]["code"] == "PAYLOAD_TOO_LARGE"
    assert answered == [True]  # the app's own answer after the cut was dropped
    # Past 4 KiB + 64 KiB framing at the 9th chunk, drained to twice that: 136 of 800 KiB.
    assert len(pulled) == 17


async def test_an_upload_over_the_limit_is_413_in_the_contract_shape(use_fake_model, client):
    fake = use_fake_model(upload_max_bytes=4096)
    files = {"file": ("scan.png", b"\x89PNG" + b"\0" * 200_000, "image/png")}
    r = await client.post("/ai/ocr/extract", files=files, data={"user_id": "u1"})
    assert r.status_code == 413
    assert r.json()["error"]["code"] == "PAYLOAD_TOO_LARGE"
    assert fake.calls == []


def test_json_shape_counts_brackets_outside_strings_only():
    assert json_shape(b'{"a": "[[[[{{{{", "b": [1, [2, {"c": 3}]]}') == (4, 7)
    assert json_shape(rb'{"a": "\"[[["}') == (1, 1)
    assert json_shape(deep_json(5000))[0] == 5000


@pytest.mark.parametrize("suffix", ["invoke", "batch", "stream", "stream_events"])
@pytest.mark.parametrize("route", ["/ai/analyze", "/ai/chat", "/ai/interview/question"])
async def test_a_deeply_nested_body_is_422_on_every_route(use_fake_model, client, route, suffix):
    fake = use_fake_model()
    body = b'{"input": ' + deep_json(5000) + b"}"
    r = await client.post(
        f"{route}/{suffix}", content=body, headers={"content-type": "application/json"}
    )
    assert r.status_code == 422
    assert r.json()["error"] == {
        "code": "INVALID_INPUT",
        "message": "JSON nests deeper than 32 levels",
        "field": "body",
    }
    assert fake.calls == []


async def test_too_many_json_elements_is_422(use_fake_model, client):
    use_fake_model(json_max_elements=100)
    body = {"input": {**ANALYZE, "extra": list(range(500))}}
    r = await client.post("/ai/analyze/invoke", json=body)
    assert r.status_code == 422 and "more than 100 elements" in r.json()["error"]["message"]


# --- batches ------------------------------------------------------------------------------

BAD_ITEMS = [
    (None, "inputs.1"),
    ("a string", "inputs.1"),
    ({}, "inputs.1.user_id"),
    ({**ANALYZE, "resume_text": 5}, "inputs.1.resume_text"),
    ({**ANALYZE, "resume_text": "   "}, "inputs.1.resume_text"),
    ({**ANALYZE, "posting_text": "가" * 100_001}, "inputs.1.posting_text"),
]


@pytest.mark.parametrize(("item", "field"), BAD_ITEMS)
async def test_a_bad_batch_item_is_422_naming_its_index(use_fake_model, client, item, field):
    fake = use_fake_model()
    r = await client.post("/ai/analyze/batch", json={"inputs": [ANALYZE, item]})
    assert r.status_code == 422, r.text
    assert r.json()["error"]["code"] == "INVALID_INPUT"
    assert r.json()["error"]["field"] == field
    assert fake.calls == []  # the good first item did not run either


@pytest.mark.parametrize("inputs", [[], "x", None, {"user_id": "u1"}])
async def test_a_batch_without_a_list_of_inputs_is_422(use_fake_model, client, inputs):
    use_fake_model()
    r = await client.post("/ai/calendar/parse/batch", json={"inputs": inputs})
    assert r.status_code == 422 and r.json()["error"]["field"] == "inputs"


async def test_a_batch_over_the_size_limit_is_422(use_fake_model, client):
    fake = use_fake_model(batch_max_items=3)
    item = {"text": "[네이버] 백엔드 채용\n서류 마감: 2026.03.15"}
    r = await client.post("/ai/calendar/parse/batch", json={"inputs": [item] * 4})
    assert r.status_code == 422 and "at most 3 items" in r.json()["error"]["message"]
    ok = await client.post("/ai/calendar/parse/batch", json={"inputs": [item] * 3})
    assert ok.status_code == 200 and len(ok.json()["output"]) == 3
    assert fake.calls == []  # company and dates come from the text


async def test_a_chat_batch_answers_each_room_in_its_own_thread(use_fake_model, client):
    use_fake_model(lambda messages: "네, 알겠습니다.")
    inputs = [
        {
            "user_id": "u1",
            "room_id": room,
            "message": f"{room} 면접 준비는 어떻게 할까요",
            "now": CHAT_NOW,
        }
        for room in ("ra", "rb")
    ]
    r = await client.post("/ai/chat/batch", json={"inputs": inputs})
    assert r.status_code == 200, r.text
    assert [o["answer"] for o in r.json()["output"]] == ["네, 알겠습니다."] * 2
    for room in ("ra", "rb"):
        saved = await saved_state(f"chat:u1:{room}")
        assert [t["user"] for t in saved["history"]] == [f"{room} 면접 준비는 어떻게 할까요"]


async def test_an_interview_batch_starts_each_session(use_fake_model, client):
    use_fake_model(interview_question_source="template")
    start = {"user_id": "u1", "resume_text": RESUME, "posting_text": POSTING}
    inputs = [{**start, "session_id": s} for s in ("s1", "s2")]
    r = await client.post("/ai/interview/question/batch", json={"inputs": inputs})
    assert r.status_code == 200, r.text
    assert [o["session_id"] for o in r.json()["output"]] == ["s1", "s2"]
    assert all(o["question_number"] == 1 and o["question"] for o in r.json()["output"])
    assert (await saved_state("interview:u1:s1"))["plan"]
    assert (await saved_state("interview:u1:s2"))["plan"]


# --- rate limits and quotas ---------------------------------------------------------------


async def calendar(client, user, headers=None):
    body = {"input": {"text": f"[카카오] 백엔드 채용 {user}\n서류 마감: 2026.03.15"}}
    body["input"]["user_id"] = user  # optional (contract v1.2): whose posting it is
    return await client.post("/ai/calendar/parse/invoke", json=body, headers=headers or {})


async def test_a_user_past_the_rate_gets_429_with_retry_after(use_fake_model, client):
    use_fake_model(rate_limit_per_minute=3)
    for _ in range(3):
        assert (await calendar(client, "alice")).status_code == 200
    refused = await calendar(client, "alice")
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "RATE_LIMITED"
    assert refused.json()["error"]["field"] in ("user_id", "X-API-Key")
    assert 1 <= int(refused.headers["retry-after"]) <= 60
    assert (await calendar(client, "bob")).status_code == 200  # others are not affected


async def test_a_batch_counts_each_item_against_its_user(use_fake_model, client):
    use_fake_model(rate_limit_per_minute=3)
    item = {"text": "[카카오] 백엔드 채용\n서류 마감: 2026.03.15", "user_id": "carol"}
    assert (await client.post("/ai/calendar/parse/batch", json={"inputs": [item] * 2})).is_success
    over = await client.post("/ai/calendar/parse/batch", json={"inputs": [item] * 2})
    assert over.status_code == 429
    assert (await calendar(client, "carol")).status_code == 200  # the refused batch cost 0


async def test_the_per_key_limit_counts_every_request_of_a_key(use_fake_model, client, monkeypatch):
    use_fake_model(rate_limit_per_key_per_minute=2)
    monkeypatch.setenv("AI_API_KEY", "old-key, new-key")
    get_settings.cache_clear()
    try:
        old, new = {"X-API-Key": "old-key"}, {"X-API-Key": "new-key"}
        assert (await calendar(client, "u1", old)).status_code == 200
        assert (await calendar(client, "u2", old)).status_code == 200
        refused = await calendar(client, "u3", old)
        assert refused.status_code == 429 and refused.json()["error"]["code"] == "RATE_LIMITED"
        assert (await calendar(client, "u3", new)).status_code == 200  # another key
    finally:
        get_settings.cache_clear()


def analysis_reply(messages):
    from tests.conftest import scripted_analysis_reply

    return scripted_analysis_reply(messages)


async def test_the_token_quota_counts_model_tokens_and_not_cache_hits(use_fake_model, client):
    fake = use_fake_model(analysis_reply, token_quota_per_day=1_000_000)
    limits = get_services().limits
    user = "0f5da64db821e7a6"  # hash_user_id("u1"), as the quota keys it
    from core.security import hash_user_id

    assert hash_user_id("u1") == user
    first = await client.post("/ai/analyze/invoke", json={"input": ANALYZE})
    assert first.status_code == 200
    spent = sum(sum(len(m.text) for m in call) + len(analysis_reply(call)) for call in fake.calls)
    assert spent > 0 and await limits.tokens_left(user) == 1_000_000 - spent
    again = await client.post("/ai/analyze/invoke", json={"input": ANALYZE})
    assert again.json()["output"]["cached"] is True
    assert await limits.tokens_left(user) == 1_000_000 - spent  # the cache hit cost nothing


async def test_a_spent_quota_is_429_quota_exceeded_before_any_model_call(use_fake_model, client):
    fake = use_fake_model(analysis_reply, token_quota_per_day=100)
    first = await client.post("/ai/analyze/invoke", json={"input": ANALYZE})
    assert first.status_code == 200  # admitted with quota left; it spends more than 100
    calls = len(fake.calls)
    other = {**ANALYZE, "resume_text": RESUME + "\n[수상]\n교내 해커톤 대상"}
    refused = await client.post("/ai/analyze/invoke", json={"input": other})
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "QUOTA_EXCEEDED"
    assert refused.json()["error"]["field"] == "user_id"
    assert int(refused.headers["retry-after"]) > 60 * 60  # renews with the day's window
    assert len(fake.calls) == calls
    stream = await client.post("/ai/analyze/stream_events", json={"input": other})
    assert stream.status_code == 429  # refused before the stream starts, not inside it


# --- keys and the API's own pages ---------------------------------------------------------


@pytest.mark.parametrize("path", ["/docs", "/redoc", "/openapi.json", "/metrics"])
async def test_api_pages_need_a_key_when_keys_are_set(use_fake_model, client, monkeypatch, path):
    use_fake_model()
    assert (await client.get(path)).status_code == 200  # open without keys
    monkeypatch.setenv("AI_API_KEY", "k1,k2")
    get_settings.cache_clear()
    try:
        refused = await client.get(path)
        assert refused.status_code == 401 and refused.json()["error"]["code"] == "UNAUTHORIZED"
        assert (await client.get(path, headers={"X-API-Key": "k2"})).status_code == 200
        assert (await client.get("/health")).status_code == 200  # always open
    finally:
        get_settings.cache_clear()


async def test_metrics_public_opens_only_metrics(use_fake_model, client, monkeypatch):
    use_fake_model()
    monkeypatch.setenv("AI_API_KEY", "k1")
    monkeypatch.setenv("METRICS_PUBLIC", "true")
    get_settings.cache_clear()
    try:
        assert (await client.get("/metrics")).status_code == 200
        assert (await client.get("/openapi.json")).status_code == 401
    finally:
        get_settings.cache_clear()


# --- task ownership and framework errors --------------------------------------------------


async def test_another_users_task_is_404_and_the_owners_is_served(
    use_fake_model, client, monkeypatch
):
    use_fake_model()
    ocr = {"extracted_text": "ok", "pages": [{"page": 1, "text": "ok"}], "ocr_engine": "t"}

    async def work(data, progress, owner):
        return {**ocr, "cached": False}

    from core import jobs
    from core.security import hash_user_id

    monkeypatch.setitem(jobs._HANDLERS, "ocr", work)  # the real OCR again after the test
    # As graphs.documents.submit records it: the uploader's pseudonym, never the raw id.
    record = await get_services().jobs.submit("ocr", b"", hash_user_id("alice"))
    await get_services().jobs.wait(record["task_id"], 5)
    path = f"/ai/tasks/{record['task_id']}"
    mallory = await client.get(path, params={"user_id": "mallory"})
    assert mallory.status_code == 404 and mallory.json()["error"]["code"] == "TASK_NOT_FOUND"
    unknown = await client.get("/ai/tasks/nope", params={"user_id": "mallory"})
    assert unknown.json() == mallory.json() | {
        "error": {**mallory.json()["error"], "message": "No task nope"}
    }
    alice = await client.get(path, params={"user_id": "alice"})
    assert alice.status_code == 200 and alice.json()["result"] == {**ocr, "cached": False}
    assert "owner" not in alice.json()
    assert (await client.get(path)).status_code == 200  # the parameter is optional


async def test_framework_errors_are_in_the_contract_shape(use_fake_model, client):
    use_fake_model()
    missing = await client.get("/ai/nowhere")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "NOT_FOUND"
    wrong = await client.get("/ai/analyze/invoke")
    assert wrong.status_code == 405
    assert wrong.json()["error"]["code"] == "METHOD_NOT_ALLOWED"


# --- found in review: pathological bodies, uncharged tokens, repeated threads -------------


def test_an_unclosed_string_is_scanned_once_and_counts_nothing_inside_it():
    # 4 MB of `\"` after an opening quote: with the earlier pattern every quote restarted a
    # scan to the end of the body (quadratic; 32 KB took 5 s). No time is asserted: a
    # regression makes this test run for hours, which CI's limit reports.
    body = b'["' + b'\\"' * 2_000_000 + b"[[[["
    assert json_shape(body) == (1, 1)


async def test_a_streamed_answers_tokens_are_charged(use_fake_model, client):
    fake = use_fake_model(analysis_reply, token_quota_per_day=1_000_000)
    from core.security import hash_user_id

    r = await client.post("/ai/analyze/stream_events", json={"input": ANALYZE})
    assert r.status_code == 200 and "event: end" in r.text
    spent = sum(sum(len(m.text) for m in call) + len(analysis_reply(call)) for call in fake.calls)
    left = await get_services().limits.tokens_left(hash_user_id("u1"))
    assert spent > 0 and left == 1_000_000 - spent


def test_a_call_cut_short_is_charged_an_estimate():
    from uuid import uuid4

    from langchain_core.messages import HumanMessage, SystemMessage

    from core.telemetry import REQUEST, ModelUsageCallback

    record: dict = {}
    token = REQUEST.set(record)
    try:
        usage = ModelUsageCallback("analysis", "fake")
        run = uuid4()
        prompt = [[SystemMessage(content="시스템" * 10), HumanMessage(content="이력서" * 100)]]
        usage.on_chat_model_start({}, prompt, run_id=run)
        for chunk in ("강점", "은 ", "..."):
            usage.on_llm_new_token(chunk, run_id=run)
        usage.on_llm_error(RuntimeError("client left"), run_id=run)
    finally:
        REQUEST.reset(token)
    assert record["tokens_input"] == 30 + 300 and record["tokens_output"] == 3


async def test_a_calendar_request_without_user_id_is_limited_only_per_key(use_fake_model, client):
    use_fake_model(rate_limit_per_minute=1, rate_limit_per_key_per_minute=3)
    body = {"input": {"text": "[카카오] 백엔드 개발자 채용\n서류 마감: 2026.03.15"}}
    codes = [
        (await client.post("/ai/calendar/parse/invoke", json=body)).status_code for _ in range(4)
    ]
    assert codes == [200, 200, 200, 429]  # past the per-user 1/min, stopped by the key's 3


async def test_a_batch_may_not_name_one_thread_twice(use_fake_model, client):
    fake = use_fake_model(interview_question_source="template")
    start = {"user_id": "u1", "session_id": "s1", "resume_text": RESUME, "posting_text": POSTING}
    r = await client.post("/ai/interview/question/batch", json={"inputs": [start, start]})
    assert r.status_code == 422
    assert r.json()["error"]["field"] == "inputs.1.session_id"
    assert await saved_state("interview:u1:s1") is None and fake.calls == []


async def test_a_refused_batch_counts_for_none_of_its_users(use_fake_model, client):
    use_fake_model(rate_limit_per_minute=2)
    text = "[카카오] 백엔드 채용\n서류 마감: 2026.03.15"
    assert (await calendar(client, "dave")).status_code == 200
    assert (await calendar(client, "dave")).status_code == 200  # dave is now at his limit
    items = [{"text": text, "user_id": "erin"}, {"text": text, "user_id": "dave"}]
    assert (
        await client.post("/ai/calendar/parse/batch", json={"inputs": items})
    ).status_code == 429
    erin = [(await calendar(client, "erin")).status_code for _ in range(3)]
    assert erin == [200, 200, 429]  # the refused batch took none of erin's two
