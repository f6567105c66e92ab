"""The HTTP contract: routes, error shape, auth, streaming, health (fake model, no Redis)."""

import json

import pytest

from core.settings import get_settings
from tests.conftest import GOOD_FEEDBACK, POSTING, RESUME

BODY = {"input": {"user_id": "u1", "resume_text": RESUME, "posting_text": POSTING}}


def sse_events(text: str) -> list[tuple[str, str]]:
    events = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        lines = block.strip().splitlines()
        kind = next((ln[7:] for ln in lines if ln.startswith("event: ")), None)
        data = next((ln[6:] for ln in lines if ln.startswith("data: ")), "")
        if kind:
            events.append((kind, data))
    return events


def stream_parts(text: str) -> tuple[list[dict], list[int], int]:
    """A finished `stream_events` response: (payloads, indexes of user-visible token events,
    index of the root run's end, which carries the final output). The stream must have
    ended with `event: end`, not an error."""
    events = sse_events(text)
    assert events[-1][0] == "end", events[-1]
    payloads = [json.loads(d) for k, d in events if k == "data"]
    token_at = [i for i, p in enumerate(payloads) if p["event"] == "on_chat_model_stream"]
    final_at = max(
        i for i, p in enumerate(payloads) if p["event"] == "on_chain_end" and not p["parent_ids"]
    )
    return payloads, token_at, final_at


async def test_invoke_returns_the_analysis_result(use_fake_model, client):
    use_fake_model()
    r = await client.post("/ai/analyze/invoke", json=BODY)
    assert r.status_code == 200
    out = r.json()["output"]
    assert out["matching"]["grade"] == "B" and out["cached"] is False
    r2 = await client.post("/ai/analyze/invoke", json=BODY)
    assert r2.json()["output"]["cached"] is True


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"input": {"user_id": "u", "resume_text": " ", "posting_text": "x"}}, "resume_text"),
        ({"input": {"user_id": "u", "resume_text": 5, "posting_text": "x"}}, "resume_text"),
        ({"input": {"user_id": "u", "resume_text": "x"}}, "posting_text"),
        # The wrapper itself missing: the client sent the input bare.
        ({"user_id": "u", "resume_text": "x", "posting_text": "y"}, "input"),
    ],
)
async def test_bad_input_is_422_in_the_contract_shape(use_fake_model, client, body, field):
    fake = use_fake_model()
    r = await client.post("/ai/analyze/invoke", json=body)
    assert r.status_code == 422
    assert r.json()["error"]["code"] == "INVALID_INPUT"
    assert r.json()["error"]["field"] == field
    assert fake.calls == []


async def test_broken_json_is_422_not_500(use_fake_model, client):
    use_fake_model()
    r = await client.post(
        "/ai/analyze/invoke", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert r.status_code == 422 and r.json()["error"]["code"] == "INVALID_INPUT"
    assert r.json()["error"]["field"] == "body"


async def test_api_key_is_required_when_configured(use_fake_model, client, monkeypatch):
    use_fake_model()
    monkeypatch.setenv("AI_API_KEY", "s3cret")
    get_settings.cache_clear()
    try:
        assert (await client.post("/ai/analyze/invoke", json=BODY)).status_code == 401
        wrong = await client.post("/ai/analyze/invoke", json=BODY, headers={"X-API-Key": "nope"})
        assert wrong.status_code == 401
        assert wrong.json()["error"]["code"] == "UNAUTHORIZED"
        assert wrong.json()["error"]["field"] == "X-API-Key"
        ok = await client.post("/ai/analyze/invoke", json=BODY, headers={"X-API-Key": "s3cret"})
        assert ok.status_code == 200
        assert (await client.get("/health")).status_code == 200
    finally:
        get_settings.cache_clear()


async def test_stream_events_carry_feedback_tokens_before_the_final_output(use_fake_model, client):
    use_fake_model()
    r = await client.post("/ai/analyze/stream_events", json={**BODY, "version": "v2"})
    events = sse_events(r.text)
    kinds = [k for k, _ in events]
    assert kinds[-1] == "end"
    payloads = [json.loads(d) for k, d in events if k == "data"]
    token_idx = [i for i, p in enumerate(payloads) if p["event"] == "on_chat_model_stream"]
    final_idx = next(  # the root run's end carries the final output
        i for i, p in enumerate(payloads) if p["event"] == "on_chain_end" and not p["parent_ids"]
    )
    assert token_idx and max(token_idx) < final_idx
    text = "".join(payloads[i]["data"]["chunk"]["content"] for i in token_idx)
    assert text == GOOD_FEEDBACK
    final = payloads[final_idx]["data"]["output"]
    assert set(final) == {"resume_analysis", "posting_analysis", "matching", "cached"}
    assert final["matching"]["score"] == 75
    # The deterministic match comes first, over the wire as the contract names it (v1.2).
    [match_idx] = [i for i, p in enumerate(payloads) if p["event"] == "on_custom_event"]
    assert payloads[match_idx]["name"] == "analysis_match" and match_idx < min(token_idx)
    assert payloads[match_idx]["data"]["missing_skills"] == final["matching"]["missing_skills"]


async def test_a_model_failure_inside_a_stream_is_a_contract_error_event(use_fake_model, client):
    def broken(messages):
        raise RuntimeError("model exploded with secret details")

    use_fake_model(respond=broken)
    r = await client.post("/ai/analyze/stream_events", json={**BODY, "version": "v2"})
    events = sse_events(r.text)
    assert events[-1][0] == "error"
    error = json.loads(events[-1][1])["error"]
    assert error["code"] == "INTERNAL_ERROR"
    assert "secret" not in r.text
    assert "end" not in [k for k, _ in events]


async def test_a_model_output_error_keeps_its_code_in_the_stream(use_fake_model, client):
    use_fake_model(respond=lambda m: "{}" if "섹션:" in m[-1].text else "x")
    r = await client.post("/ai/analyze/stream_events", json={**BODY, "version": "v2"})
    kind, data = sse_events(r.text)[-1]
    assert kind == "error"
    assert json.loads(data)["error"]["code"] == "MODEL_OUTPUT_INVALID"


async def test_invoke_failure_is_a_5xx_in_the_contract_shape(use_fake_model, client):
    use_fake_model(respond=lambda m: "{}" if "섹션:" in m[-1].text else "x")
    r = await client.post("/ai/analyze/invoke", json=BODY)
    assert r.status_code == 502
    assert r.json()["error"]["code"] == "MODEL_OUTPUT_INVALID"


async def test_health_is_degraded_without_redis_and_metrics_are_exposed(use_fake_model, client):
    use_fake_model()
    health = (await client.get("/health")).json()
    assert health["status"] == "degraded"
    assert health["checks"]["redis"] == "not_configured"
    await client.post("/ai/analyze/invoke", json=BODY)
    metrics = (await client.get("/metrics")).text
    assert 'devths_request_seconds_count{route="/ai/analyze/invoke",status="200"}' in metrics
    assert "devths_cache_lookups_total" in metrics


async def test_runs_carry_feature_and_a_hashed_user_never_the_raw_id(use_fake_model, client):
    from core.security import hash_user_id

    use_fake_model()
    body = {"input": {**BODY["input"], "user_id": "user-8841"}}
    r = await client.post("/ai/analyze/stream_events", json={**body, "version": "v2"})
    payloads = [json.loads(d) for k, d in sse_events(r.text) if k == "data"]
    meta = payloads[0]["metadata"]
    assert meta["feature"] == "analysis" and meta["user"] == hash_user_id("user-8841")
    assert all("user-8841" not in json.dumps(p["metadata"]) for p in payloads)


def test_tracing_stays_off_without_a_key(monkeypatch):
    import os

    from core.settings import Settings
    from core.telemetry import configure_tracing

    assert configure_tracing(Settings(langsmith_tracing=True, langsmith_api_key=None)) is False
    assert os.environ["LANGSMITH_TRACING"] == "false"
    monkeypatch.delenv("LANGSMITH_HIDE_INPUTS", raising=False)
    assert configure_tracing(Settings(langsmith_tracing=True, langsmith_api_key="k")) is True
    assert os.environ["LANGSMITH_HIDE_INPUTS"] == "true"
    monkeypatch.setenv("LANGSMITH_TRACING", "false")


async def test_a_redis_failure_is_a_503_and_an_error_event_not_a_hang(use_fake_model, client):
    from redis.exceptions import ConnectionError as RedisConnectionError

    from core.cache import RedisJsonCache
    from core.services import get_services

    class DeadRedis:
        async def get(self, key):
            raise RedisConnectionError("connection refused")

    fake = use_fake_model()
    get_services().cache = RedisJsonCache(DeadRedis())  # type: ignore[arg-type]
    r = await client.post("/ai/analyze/invoke", json=BODY)
    assert r.status_code == 503
    assert r.json()["error"]["code"] == "DEPENDENCY_UNAVAILABLE"
    stream = await client.post("/ai/analyze/stream_events", json={**BODY, "version": "v2"})
    kind, data = sse_events(stream.text)[-1]
    assert kind == "error" and json.loads(data)["error"]["code"] == "DEPENDENCY_UNAVAILABLE"
    assert fake.calls == []


async def test_one_json_log_line_per_request_with_the_seed_fields(use_fake_model, client, caplog):
    import logging

    from core.security import hash_user_id

    use_fake_model()
    body = {"input": {**BODY["input"], "user_id": "log-user-1"}}
    with caplog.at_level(logging.INFO, logger="devths.access"):
        await client.post("/ai/analyze/stream_events", json={**body, "version": "v2"})
        await client.post("/ai/analyze/invoke", json={"input": {"user_id": "x"}})
    lines = [r.msg for r in caplog.records if r.name == "devths.access"]
    stream, bad = lines[-2], lines[-1]
    assert stream["endpoint"] == "/ai/analyze/stream_events" and stream["success"] is True
    assert stream["user_id_hash"] == hash_user_id("log-user-1")
    assert stream["ttft_ms"] is not None and stream["ttft_ms"] <= stream["latency_ms"]
    assert set(stream) >= {
        "request_id",
        "latency_ms",
        "tokens_input",
        "tokens_output",
        "status_code",
        "error",
    }
    assert (bad["status_code"], bad["error"], bad["success"]) == (422, "INVALID_INPUT", False)
    assert "log-user-1" not in str(lines)


def test_a_salt_keys_the_user_pseudonym(monkeypatch):
    from core.security import hash_user_id
    from core.settings import get_settings

    plain = hash_user_id("42")
    monkeypatch.setenv("USER_HASH_SALT", "s3cret")
    get_settings.cache_clear()
    try:
        keyed = hash_user_id("42")
        assert keyed != plain and len(keyed) == 16 and "42" not in keyed
        assert hash_user_id("42") == keyed  # stable
        monkeypatch.setenv("USER_HASH_SALT", "other")
        get_settings.cache_clear()
        assert hash_user_id("42") != keyed
    finally:
        monkeypatch.delenv("USER_HASH_SALT")
        get_settings.cache_clear()
