"""Errors inside a stream, in the contract's shape.

LangServe ends a failed stream with `event: error` and a generic body. The contract wants
the same error object as HTTP errors (`{"error": {"code", "message"}}`). `ContractErrors`
wraps a runnable so a failure inside `astream`/`astream_events` becomes one marked item;
`StreamErrorMiddleware` rewrites that item into `event: error` carrying the contract object
and drops the `event: end` LangServe sends after it. Non-stream calls raise as usual and
are rendered by the app's exception handlers.

Graceful stop: on SIGTERM uvicorn stops accepting, lets running requests finish for up to
`--timeout-graceful-shutdown` seconds, then cancels them. A stream cut that way ends with
`event: error` `SERVER_SHUTTING_DOWN` and a closed body instead of a dropped connection.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import weakref
from collections.abc import AsyncIterator
from typing import Any

from langchain_core.runnables import RunnableBinding, RunnableConfig
from langgraph.types import Send as GraphSend
from sse_starlette.sse import AppStatus
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from core.errors import AIError, error_body
from core.telemetry import note_error

log = logging.getLogger(__name__)
ERROR_MARK = "__devths_stream_error__"
_DATA_LINE = re.compile(rb"^data: ?(.*)$", re.MULTILINE)
_STREAM_SUFFIXES = ("/stream", "/stream_events", "/stream_log")
SHUTDOWN_CODE = "SERVER_SHUTTING_DOWN"
SHUTDOWN_MESSAGE = "The server is shutting down and ended this stream early; retry the request."


def _report(exc: BaseException) -> dict[str, Any]:
    if not isinstance(exc, AIError):
        log.exception("unhandled error inside a stream", exc_info=exc)
    body = error_body(exc)
    note_error(body["error"]["code"])
    return {ERROR_MARK: True, **body}


class ContractErrors(RunnableBinding):
    """Delegates everything to the bound runnable; streams end with a contract error."""

    async def astream(
        self, input: Any, config: RunnableConfig | None = None, **kwargs: Any
    ) -> AsyncIterator[Any]:
        try:
            async for chunk in super().astream(input, config, **kwargs):
                yield chunk
        except Exception as exc:
            yield _report(exc)

    async def astream_events(  # type: ignore[override]
        self, input: Any, config: RunnableConfig | None = None, **kwargs: Any
    ) -> AsyncIterator[Any]:
        keys = output_keys(self.bound)
        try:
            async for event in super().astream_events(input, config, **kwargs):
                if event["event"] == "on_chain_end" and not event.get("parent_ids"):
                    event = _only_output(event, keys)
                yield _json_safe(event)
        except Exception as exc:
            yield {
                "event": "error",
                "name": self.get_name(),
                "run_id": "",
                "tags": [],
                "metadata": {},
                "parent_ids": [],
                "data": _report(exc),
            }


_OUTPUT_KEYS: weakref.WeakKeyDictionary[Any, frozenset[str]] = weakref.WeakKeyDictionary()


def output_keys(runnable: Any) -> frozenset[str]:
    """The output schema's fields, computed once per graph: building the JSON schema costs
    a pydantic model per call (6.5% of the server's CPU at 50 streams, before this)."""
    while isinstance(runnable, RunnableBinding):  # (unhashable) wrappers of the graph
        runnable = runnable.bound
    keys = _OUTPUT_KEYS.get(runnable)
    if keys is None:
        keys = frozenset(runnable.get_output_jsonschema().get("properties", {}))
        _OUTPUT_KEYS[runnable] = keys
    return keys


def _only_output(event: Any, keys: frozenset[str]) -> Any:
    """LangGraph ends the root run with its whole state (inputs and internals included);
    the contract's final output is the output schema's fields only."""
    output = event.get("data", {}).get("output")
    if not keys or not isinstance(output, dict):
        return event
    trimmed = {k: v for k, v in output.items() if k in keys}
    return {**event, "data": {**event["data"], "output": trimmed}}


def _json_safe(value: Any) -> Any:
    """LangGraph routing objects (`Send`) appear in chain events; LangServe cannot
    serialise them, so they travel as {"send": node}."""
    kind = type(value)
    if kind is GraphSend:
        return {"send": value.node}
    if kind is dict:
        return {k: _json_safe(v) for k, v in value.items()}
    if kind is list or kind is tuple:
        return [_json_safe(v) for v in value]
    return value


def contract_errors(runnable: Any) -> ContractErrors:
    return ContractErrors(bound=runnable, kwargs={}, config={})


def _marked(value: Any) -> dict[str, Any] | None:
    """The marked error object anywhere in an event's payload: at its top (`/stream`),
    under `data` (`/stream_events`) or inside a JSON-patch op (`/stream_log`)."""
    if isinstance(value, dict):
        if ERROR_MARK in value:
            return value
        value = list(value.values())
    if isinstance(value, list):
        for item in value:
            found = _marked(item)
            if found is not None:
                return found
    return None


def _rewrite(body: bytes) -> bytes | None:
    """The contract's error event for a marked SSE message, else None."""
    if ERROR_MARK.encode() not in body:
        return None
    match = _DATA_LINE.search(body)
    if match is None:
        return None
    marked = _marked(json.loads(match.group(1)))
    if marked is None:
        return None
    return _event({"error": marked["error"]})


def _event(error: dict[str, Any]) -> bytes:
    return b"event: error\r\ndata: " + json.dumps(error, ensure_ascii=False).encode() + b"\r\n\r\n"


def shutdown_event() -> bytes:
    """The SSE message that ends a stream the server's shutdown cut short."""
    return _event({"error": {"code": SHUTDOWN_CODE, "message": SHUTDOWN_MESSAGE}})


class StreamErrorMiddleware:
    """Pure ASGI, so streaming responses pass through chunk by chunk.

    It also ends streams cut by the server's shutdown. uvicorn cancels the request's task
    when `--timeout-graceful-shutdown` runs out, then finishes its shutdown without waiting
    for the cancelled tasks (and the process exits). So the stream runs in a task of its
    own, shielded: the cancellation reaches this middleware at once, which sends
    `event: error` `SERVER_SHUTTING_DOWN` and the end of the body (if the response had
    started and not finished, and the client is still there) before cancelling the stream
    and waiting for its clean-up; whatever the stream sends after that is dropped (such as
    LangServe's own generic error for the cancellation)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        # sse-starlette (LangServe's SSE response) ends every open stream at once on
        # SIGTERM, silently and without the final chunk, so there would be no grace period.
        # Off: streams run until they finish or uvicorn's graceful timeout cancels them.
        AppStatus.disable_automatic_graceful_drain()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].endswith(_STREAM_SUFFIXES):
            await self.app(scope, receive, send)
            return
        errored = started = finished = disconnected = False

        async def watched_receive() -> Message:
            nonlocal disconnected
            message = await receive()
            if message["type"] == "http.disconnect":
                disconnected = True
            return message

        async def send_rewritten(message: Message) -> None:
            nonlocal errored, started, finished
            if finished:
                return  # the shutdown already ended this response
            if message["type"] == "http.response.body" and message.get("body"):
                body = message["body"]
                if errored and body.lstrip().startswith(b"event: end"):
                    message = {**message, "body": b""}
                else:
                    replaced = _rewrite(body)
                    if replaced is not None:
                        errored = True
                        message = {**message, "body": replaced}
            if message["type"] == "http.response.body" and not message.get("more_body"):
                finished = True
            await send(message)
            if message["type"] == "http.response.start":
                started = True

        stream = asyncio.ensure_future(self.app(scope, watched_receive, send_rewritten))
        try:
            await asyncio.shield(stream)
        except asyncio.CancelledError:
            if stream.done():  # the stream itself was cancelled, not this request
                raise
            if started and not finished and not disconnected:
                finished = True
                await _end_cut_stream(send, already_errored=errored)
            stream.cancel()
            await _clean_up(stream)
            raise


async def _end_cut_stream(send: Send, *, already_errored: bool) -> None:
    """The error event (unless the stream already carries one) and the end of the body.
    A client that is gone by now is no error: nothing to report, nothing to log."""
    body = b"" if already_errored else shutdown_event()
    try:
        await send({"type": "http.response.body", "body": body, "more_body": False})
    except OSError:
        return
    if not already_errored:
        note_error(SHUTDOWN_CODE)


async def _clean_up(stream: asyncio.Future[None]) -> None:
    """Wait for a cancelled stream to unwind (its graph run, its room lock)."""
    try:
        await stream
    except asyncio.CancelledError:
        pass
    except Exception:
        log.exception("a stream cut by the shutdown failed while unwinding")
