"""The malformed-request battery: every feature route and run endpoint, each malformed body
a buggy client or an attacker sends. Every answer is a 4xx in the contract's shape, never
a 5xx, and no model runs. (Before the request limits, 238 of the 990 were not: 192 500s.)"""

from __future__ import annotations

import json

import pytest

from tests.conftest import POSTING, RESUME
from tests.unit.test_server import sse_events

VALID = {
    "/ai/analyze": {"user_id": "u1", "resume_text": RESUME, "posting_text": POSTING},
    "/ai/chat": {"user_id": "u1", "room_id": "r1", "message": "안녕하세요"},
    "/ai/interview/question": {"user_id": "u1", "session_id": "s1", "resume_text": RESUME},
    "/ai/interview/report": {"user_id": "u1", "session_id": "s1"},
    "/ai/calendar/parse": {"text": POSTING},
    "/ai/file/embed": {"user_id": "u1", "doc_id": "d1", "doc_type": "resume", "text": RESUME},
}
ENDPOINTS = ["invoke", "batch", "stream", "stream_events", "stream_log"]
HUGE = "가" * 100_001


def bad_items(valid: dict) -> list:
    """Inputs that break the schema: not objects, empty, wrong types, blank or huge text."""
    text_fields = [k for k, v in valid.items() if isinstance(v, str) and k.endswith("_text")]
    text_fields += [k for k in ("message", "text") if k in valid]
    items = [None, "a string", 5, [], {}, [valid]]
    for field in valid:
        items.append({**valid, field: None if field.endswith("id") else 5})
        items.append({k: v for k, v in valid.items() if k != field})
        items.append({**valid, field: {"nested": True}})
    for field in text_fields:
        items.append({**valid, field: ""})
        items.append({**valid, field: " \n\t "})
        items.append({**valid, field: HUGE})
    return items


def bodies(route: str, endpoint: str) -> list[bytes]:
    valid = VALID[route]
    raw = [
        b"",
        b"{not json",
        b'\xff\xfe{"input": 1}',
        b'{"input": "\xed\xa0\x80"}',
        b"\xef\xbb\xbf" + b"[" * 5000 + b"]" * 5000,  # a BOM, which the JSON parser skips
        ("[" * 5000 + "]" * 5000).encode("utf-16-be"),  # also valid UTF-8, parsed as UTF-16
        b"null",
        b"[]",
        b'"text"',
        b"{}",
        b"[[[[" * 1250 + b"]]]]" * 1250,
    ]
    if endpoint == "batch":
        shaped = [{"inputs": item} for item in (None, "x", {}, valid, [])]
        shaped += [{"inputs": [valid, item]} for item in bad_items(valid)]
        shaped += [{"inputs": [valid], "config": "x"}, {"inputs": [valid], "config": [{}, {}]}]
        shaped += [{"inputs": [valid], "config": None}, {"inputs": [valid], "kwargs": None}]
    else:
        shaped = [{"input": item} for item in bad_items(valid)]
        shaped += [{"input": valid, "config": "x"}, {"input": valid, "config": [1]}]
        shaped += [{"input": valid, "config": None}, {"input": valid, "kwargs": None}]
    return raw + [json.dumps(b, ensure_ascii=False).encode() for b in shaped]


def contract_error(payload: object) -> bool:
    """The contract's error object, naming the field at fault (every 4xx of this battery
    is about the body: the wrapper, an item, a field of the input)."""
    error = payload.get("error") if isinstance(payload, dict) else None
    return isinstance(error, dict) and all(
        isinstance(error.get(k), str) and error[k] for k in ("code", "message", "field")
    )


def refused(r) -> bool:
    try:
        return 400 <= r.status_code < 500 and contract_error(r.json())
    except ValueError:
        return False


def ended_with_error_event(r) -> bool:
    """A check that needs the thread's state (the first interview turn must carry the
    resume) fails inside the stream: it ends with the contract's error event (no model ran:
    the test checks the fake's calls)."""
    events = sse_events(r.text)
    return (
        r.status_code == 200
        and bool(events)
        and events[-1][0] == "error"
        and contract_error(json.loads(events[-1][1]))
        and json.loads(events[-1][1])["error"]["code"] == "INVALID_INPUT"
    )


CASES = [(r, e) for r in VALID for e in ENDPOINTS]


@pytest.mark.parametrize(("route", "endpoint"), CASES)
async def test_malformed_requests_are_coded_4xx_and_run_nothing(
    use_fake_model, client, route, endpoint
):
    fake = use_fake_model(rate_limit_per_minute=0)
    failures = []
    sent = bodies(route, endpoint)
    for body in sent:
        r = await client.post(
            f"{route}/{endpoint}", content=body, headers={"content-type": "application/json"}
        )
        if not (refused(r) or (endpoint != "invoke" and ended_with_error_event(r))):
            failures.append((body[:80], r.status_code, r.text[-300:]))
    assert failures == [], f"{len(failures)} of {len(sent)} malformed bodies: {failures[:3]}"
    assert fake.calls == []
