"""A stream cut by the server's shutdown ends with the contract's error event.

uvicorn cancels a request's task when `--timeout-graceful-shutdown` runs out. Here a
hand-driven ASGI app stands for LangServe's stream and the test cancels it the same way."""

from __future__ import annotations

import asyncio
import json

import pytest
from sse_starlette.sse import AppStatus

from core.streaming import ERROR_MARK, StreamErrorMiddleware
from core.telemetry import REQUEST

START = {"type": "http.response.start", "status": 200, "headers": []}
CHUNK = {
    "type": "http.response.body",
    "body": b"event: data\r\ndata: {}\r\n\r\n",
    "more_body": True,
}
END = {"type": "http.response.body", "body": b"", "more_body": False}
# What LangServe sends when anything, the cancellation included, escapes its stream.
GENERIC = {
    "type": "http.response.body",
    "body": b'event: error\r\ndata: {"status_code": 500, "message": "Internal Server Error"}'
    b"\r\n\r\n",
    "more_body": True,
}
SCOPE = {"type": "http", "method": "POST", "path": "/ai/chat/stream_events", "headers": []}


class Stream:
    """An ASGI app that sends `before` messages, optionally reads the client's messages
    first, then waits forever (a model still streaming) until it is cancelled; like
    LangServe, it may answer the cancellation with its generic error event."""

    def __init__(self, *before: dict, read_first: bool = False, generic: bool = False) -> None:
        self.before = before
        self.read_first = read_first
        self.generic = generic
        self.waiting = asyncio.Event()

    async def __call__(self, scope, receive, send) -> None:
        if self.read_first:
            while (await receive())["type"] != "http.disconnect":
                pass
        for message in self.before:
            await send(message)
        self.waiting.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            if self.generic:
                await send(GENERIC)
            raise


async def cut(app: Stream, scope: dict = SCOPE, send=None, receive=None) -> tuple[list, dict]:
    """Run the app behind the middleware, cancel it once it waits (as uvicorn's shutdown
    does) and return (what the client was sent, the request's telemetry record)."""
    sent: list[dict] = []

    async def collect(message: dict) -> None:
        sent.append(message)

    async def nothing_yet() -> dict:
        await asyncio.Event().wait()
        return {}

    record: dict = {}
    token = REQUEST.set(record)
    try:
        middleware = StreamErrorMiddleware(app)
        task = asyncio.create_task(middleware(scope, receive or nothing_yet, send or collect))
    finally:
        REQUEST.reset(token)
    await asyncio.wait_for(app.waiting.wait(), 2)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    return sent, record


def events(sent: list[dict]) -> list[str]:
    return [m["body"].decode().split("\r\n")[0] for m in sent if m.get("body")]


async def test_a_stream_cut_mid_way_ends_with_one_shutdown_error_and_a_closed_body():
    sent, record = await cut(Stream(START, CHUNK, CHUNK))
    assert sent[:3] == [START, CHUNK, CHUNK]
    assert events(sent) == ["event: data", "event: data", "event: error"]
    last = sent[-1]
    assert len(sent) == 4 and last["more_body"] is False
    data = last["body"].decode().split("\r\n")[1].removeprefix("data: ")
    error = json.loads(data)["error"]
    assert error["code"] == "SERVER_SHUTTING_DOWN" and error["message"]
    assert last["body"].endswith(b"\r\n\r\n")  # a whole SSE message
    assert record["error"] == "SERVER_SHUTTING_DOWN"  # counted like other errors


async def test_langserves_generic_error_on_the_cancellation_becomes_the_shutdown_error():
    sent, record = await cut(Stream(START, CHUNK, generic=True))
    assert (
        events(sent) == ["event: data", "event: error"] and b"status_code" not in sent[-1]["body"]
    )
    assert b"SERVER_SHUTTING_DOWN" in sent[-1]["body"] and sent[-1]["more_body"] is False
    assert record["error"] == "SERVER_SHUTTING_DOWN"


async def test_langserves_generic_error_on_a_failure_still_reaches_the_client():
    async def failing(scope, receive, send) -> None:
        await send(START)
        await send(GENERIC)
        raise RuntimeError("a bug")

    sent: list[dict] = []

    async def collect(message: dict) -> None:
        sent.append(message)

    with pytest.raises(RuntimeError):
        await StreamErrorMiddleware(failing)(SCOPE, None, collect)
    assert sent == [START, GENERIC]


async def test_the_error_is_sent_at_once_and_the_streams_clean_up_is_awaited():
    """uvicorn does not wait for cancelled requests (the process may exit right after), so
    the error must not wait for the graph run to unwind; the unwinding is still awaited."""
    streaming, unwinding, unwound = asyncio.Event(), asyncio.Event(), asyncio.Event()

    async def slow_to_unwind(scope, receive, send) -> None:
        await send(START)
        await send(CHUNK)
        streaming.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            unwinding.set()
            await asyncio.sleep(0.05)  # e.g. the room lock released in Redis
            await send(GENERIC)  # LangServe's answer to the cancellation: dropped
            unwound.set()
            raise

    sent: list[dict] = []

    async def collect(message: dict) -> None:
        sent.append(message)

    task = asyncio.create_task(StreamErrorMiddleware(slow_to_unwind)(SCOPE, None, collect))
    await asyncio.wait_for(streaming.wait(), 1)
    task.cancel()
    await asyncio.wait_for(unwinding.wait(), 1)
    assert events(sent) == ["event: data", "event: error"] and sent[-1]["more_body"] is False
    assert not task.done()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert unwound.is_set() and len(sent) == 3


async def test_a_stream_cut_before_its_response_started_gets_nothing_extra():
    sent, record = await cut(Stream())
    assert sent == [] and "error" not in record


async def test_a_stream_that_already_finished_gets_nothing_extra():
    sent, record = await cut(Stream(START, CHUNK, END))
    assert sent == [START, CHUNK, END] and "error" not in record


async def test_a_stream_whose_client_left_gets_nothing_and_counts_nothing():
    async def left() -> dict:
        return {"type": "http.disconnect"}

    sent, record = await cut(Stream(START, CHUNK, read_first=True), receive=left)
    assert sent == [START, CHUNK] and "error" not in record


async def test_a_stream_that_already_carries_its_error_only_gets_the_end_of_the_body():
    marked = json.dumps({ERROR_MARK: True, "error": {"code": "MODEL_TIMEOUT", "message": "m"}})
    error = {**CHUNK, "body": f"event: data\r\ndata: {marked}\r\n\r\n".encode()}
    sent, record = await cut(Stream(START, error))
    assert events(sent) == ["event: error"]  # the rewritten MODEL_TIMEOUT, not a second one
    assert b"MODEL_TIMEOUT" in sent[1]["body"] and sent[-1] == END
    assert "error" not in record  # the first error was counted where it happened


async def test_a_client_gone_at_the_last_send_is_not_an_error():
    def gone_at_the_end(sent: list):
        async def send(message: dict) -> None:
            if message.get("more_body") is False:
                raise OSError("connection reset")
            sent.append(message)

        return send

    seen: list[dict] = []
    _, record = await cut(Stream(START, CHUNK), send=gone_at_the_end(seen))
    assert seen == [START, CHUNK] and "error" not in record


async def test_non_stream_requests_are_left_alone():
    scope = {**SCOPE, "path": "/ai/chat/invoke"}
    sent, record = await cut(Stream(START, CHUNK), scope=scope)
    assert sent == [START, CHUNK] and "error" not in record


def test_the_middleware_turns_off_sse_starlettes_drain_on_sigterm():
    """Otherwise every open stream would end at SIGTERM, with no grace period."""
    AppStatus.enable_automatic_graceful_drain_mode()
    StreamErrorMiddleware(Stream())
    assert AppStatus.enable_automatic_graceful_drain is False
