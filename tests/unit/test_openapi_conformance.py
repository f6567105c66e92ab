"""The OpenAPI document is the contract: real answers of every route, success and error,
checked against what `/openapi.json` declares for that route and status (schemathesis's
response conformance: the status is declared, the content type is the declared one, the
body validates against the declared schema), and every error's code is one the route
lists in `x-error-codes`. The coverage (routes x statuses) is asserted at the end."""

from __future__ import annotations

import io
import json

import httpx
import pytest
import schemathesis
from PIL import Image

from core.settings import get_settings
from server import create_app
from tests.conftest import POSTING, RESUME

DOC = create_app().openapi()
SCHEMA = schemathesis.openapi.from_dict(DOC)
ANALYZE = {"user_id": "u1", "resume_text": RESUME, "posting_text": POSTING}
START = {"user_id": "u1", "session_id": "s1", "resume_text": RESUME, "posting_text": POSTING}
SEEN: set[tuple[str, str, int]] = set()


def png() -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (64, 32), "white").save(buf, "PNG")
    return buf.getvalue()


def conforms(method: str, path: str, response) -> None:
    """`response` is what `path` (as written in the document) declares for its status."""
    declared = DOC["paths"][path][method.lower()]["responses"]
    status = str(response.status_code)
    assert status in declared, f"{method} {path} answered {status}, declares {sorted(declared)}"
    content = declared[status].get("content", {})
    kind = response.headers.get("content-type", "").split(";")[0]
    assert kind in content, f"{method} {path} {status}: {kind} not in {sorted(content)}"
    # A copy whose request is plain (an upload's multipart request is a consumed stream).
    copy = httpx.Response(
        response.status_code,
        headers=response.headers,
        content=response.content,
        request=httpx.Request(method, str(response.request.url)),
    )
    copy.elapsed = response.elapsed
    SCHEMA[path][method.upper()].validate_response(copy)  # raises on a mismatch
    if "x-error-codes" in declared[status]:  # every error but /ready's 503 (a probe's)
        error = response.json()["error"]
        assert error["code"] in declared[status]["x-error-codes"], (path, status, error)
        if response.status_code < 500:
            assert error.get("field"), (path, status, error)
    SEEN.add((method.upper(), path, response.status_code))


async def test_feature_runs_answer_as_declared(use_fake_model, client, monkeypatch):
    use_fake_model(request_max_bytes=64 * 1024, rate_limit_per_minute=4)
    for path, body in [
        ("/ai/analyze/invoke", {"input": ANALYZE}),
        ("/ai/analyze/batch", {"inputs": [ANALYZE]}),
        ("/ai/calendar/parse/invoke", {"input": {"text": POSTING}}),
        ("/ai/chat/invoke", {"input": {"user_id": "u2", "room_id": "r", "message": "안녕"}}),
    ]:
        conforms("POST", path, await client.post(path, json=body))
    stream = await client.post("/ai/analyze/stream_events", json={"input": ANALYZE})
    conforms("POST", "/ai/analyze/stream_events", stream)
    stream = await client.post("/ai/analyze/stream", json={"input": ANALYZE})
    conforms("POST", "/ai/analyze/stream", stream)
    bare = await client.post("/ai/analyze/invoke", json=ANALYZE)  # no input wrapper
    conforms("POST", "/ai/analyze/invoke", bare)
    big = {"input": {**ANALYZE, "resume_text": "가" * 70_000}}
    conforms("POST", "/ai/analyze/invoke", await client.post("/ai/analyze/invoke", json=big))
    for _ in range(3):  # u1 had 2 runs (invoke, batch) and 2 streams: the 5th is refused
        last = await client.post("/ai/analyze/invoke", json={"input": ANALYZE})
    assert last.status_code == 429
    conforms("POST", "/ai/analyze/invoke", last)
    monkeypatch.setenv("AI_API_KEY", "s3cret")
    get_settings.cache_clear()
    try:
        refused = await client.post("/ai/analyze/invoke", json={"input": ANALYZE})
        conforms("POST", "/ai/analyze/invoke", refused)
    finally:
        get_settings.cache_clear()


async def test_the_lean_stream_answers_as_declared(use_fake_model, client):
    use_fake_model()
    started = await client.post("/ai/analyze/events", json={"input": ANALYZE})
    conforms("POST", "/ai/analyze/events", started)
    conforms("POST", "/ai/analyze/events", await client.post("/ai/analyze/events", json={}))
    path = "/ai/runs/{run_id}/events"
    run = started.headers["x-run-id"]
    conforms("GET", path, await client.get(f"/ai/runs/{run}/events"))
    conforms("GET", path, await client.get("/ai/runs/feedbeef/events"))


async def test_a_model_failure_is_a_declared_5xx(use_fake_model, client):
    use_fake_model(respond=lambda m: "{}" if "섹션:" in m[-1].text else "x")
    r = await client.post("/ai/analyze/invoke", json={"input": ANALYZE, "version": "v2"})
    assert r.status_code == 502
    conforms("POST", "/ai/analyze/invoke", r)


async def test_interview_routes_answer_as_declared(use_fake_model, client):
    use_fake_model()
    path, report = "/ai/interview/question/invoke", "/ai/interview/report/invoke"
    unknown = {"user_id": "u1", "session_id": "nope", "answer": "네"}
    conforms("POST", path, await client.post(path, json={"input": unknown}))
    conforms("POST", report, await client.post(report, json={"input": unknown}))
    first = await client.post(path, json={"input": START})
    conforms("POST", path, first)
    conforms("POST", report, await client.post(report, json={"input": START}))  # no answers
    stale = {"user_id": "u1", "session_id": "s1", "answer": "네", "answer_for": "q9"}
    conforms("POST", path, await client.post(path, json={"input": stale}))


async def test_document_routes_answer_as_declared(use_fake_model, client):
    use_fake_model(upload_max_bytes=200_000)
    route = "/ai/ocr/extract"
    for name, data in [
        ("scan.png", png()),
        ("notes.txt", b"just text"),
        ("empty.png", b""),
        ("big.png", b"\x89PNG" + b"\0" * 300_000),
    ]:
        r = await client.post(route, files={"file": (name, data)}, data={"user_id": "u1"})
        conforms("POST", route, r)
    waited = await client.post(
        f"{route}?wait=true", files={"file": ("a.png", png())}, data={"user_id": "u1"}
    )
    conforms("POST", route, waited)
    masking = await client.post(
        "/ai/masking/draft?wait=true", files={"file": ("a.png", png())}, data={"user_id": "u1"}
    )
    conforms("POST", "/ai/masking/draft", masking)
    task = "/ai/tasks/{task_id}"
    for task_id in (waited.json()["task_id"], masking.json()["task_id"], "0" * 32):
        conforms("GET", task, await client.get(f"/ai/tasks/{task_id}"))


async def test_operations_routes_answer_as_declared(use_fake_model, client):
    from core.services import get_services

    use_fake_model()
    conforms("GET", "/health", await client.get("/health"))
    conforms("GET", "/ready", await client.get("/ready"))
    get_services().warm = False
    conforms("GET", "/ready", await client.get("/ready"))
    schema = await client.get("/ai/analyze/input_schema")
    conforms("GET", "/ai/analyze/input_schema", schema)


@pytest.mark.parametrize(
    "expected",
    [
        {
            ("POST", "/ai/analyze/invoke"): {200, 401, 413, 422, 429, 502},
            ("POST", "/ai/analyze/stream_events"): {200},
            ("POST", "/ai/analyze/events"): {200, 422},
            ("GET", "/ai/runs/{run_id}/events"): {200, 404},
            ("POST", "/ai/interview/question/invoke"): {200, 404, 409},
            ("POST", "/ai/interview/report/invoke"): {404, 409},
            ("POST", "/ai/ocr/extract"): {200, 202, 413, 415, 422},
            ("POST", "/ai/masking/draft"): {200},
            ("GET", "/ai/tasks/{task_id}"): {200, 404},
            ("GET", "/ready"): {200, 503},
        }
    ],
)
def test_the_coverage_of_routes_and_statuses(expected):
    """Runs after the tests above (file order): every pair they were meant to reach."""
    reached: dict[tuple[str, str], set[int]] = {}
    for method, path, status in SEEN:
        reached.setdefault((method, path), set()).add(status)
    missing = {k: v - reached.get(k, set()) for k, v in expected.items()}
    assert not any(missing.values()), json.dumps({str(k): sorted(v) for k, v in missing.items()})
