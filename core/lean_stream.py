"""The lean event stream: one SSE endpoint per feature beside LangServe's routes.

`POST {feature}/events` with `{"input": {...}}` (checked like `/invoke`: a bad input is a 4xx
before anything runs) starts the run in the background and streams its events:

    id: 1733212800000-0        event: run      data: {"run_id": "..."}
    id: ...                    event: match    data: {score, grade, requirements, ...}
    id: ...                    event: token    data: {"field": "feedback", "text": "..."}
    id: ...                    event: result   data: {the contract's output object}
    id: ...                    event: error    data: {"error": {code, message, field}}
    id: ...                    event: end      data: {}

Events are written to the run's event log (core/event_log.py: a Redis stream) as the run
produces them, from LangGraph's own stream modes (`messages` for tokens, `custom` for
what a node writes with `get_stream_writer`, `values` for the final output), and read from
there by the response. So the run goes on when its client drops, and a client reconnecting
to `GET /ai/runs/{run_id}/events` with `Last-Event-ID` (on any API process) continues
after the last event it received. The log expires EVENT_TTL_S after its last event.
"""

from __future__ import annotations

import asyncio
import json
import logging
import uuid
from collections.abc import AsyncIterator, Mapping
from typing import Any

from langchain_core.messages import AIMessageChunk

from core.errors import AIError, DependencyError, NotFoundError, error_body, redis_failure
from core.event_log import EventLog, ReadTimedOut
from core.request_limits import charged_to
from core.security import hash_user_id
from core.services import Services
from core.streaming import SHUTDOWN_CODE, SHUTDOWN_MESSAGE, output_keys
from core.telemetry import note_error

log = logging.getLogger(__name__)
FINAL = ("end",)
# Token deltas after the first are merged for at most this long (one event per window).
TOKEN_WINDOW_S = 0.05
# Blocking reads in a row that may time out (a busy event loop answers them late) before
# the stream ends with Redis unreachable.
READ_RETRIES = 5
# A reader quiet this long checks that its run's log still exists.
EXPIRY_CHECK_S = 30.0


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # content blocks
        return "".join(b.get("text", "") for b in content if isinstance(b, dict))
    return ""


class _Tokens:
    """Token deltas of one run, merged per field while they come faster than `window_s`:
    the first goes out at once (time to first token), later ones at most one window late,
    in one event (one Redis write, one SSE message) per window instead of one per token."""

    def __init__(self, events: EventLog, run_id: str, window_s: float = TOKEN_WINDOW_S) -> None:
        self.events, self.run_id, self.window_s = events, run_id, window_s
        self.pending: dict[str, str] = {}
        self.sent_any = False
        self.lock = asyncio.Lock()
        self.timer: asyncio.Task[None] | None = None

    async def add(self, field: str, text: str) -> None:
        async with self.lock:
            self.pending[field] = self.pending.get(field, "") + text
            if not self.sent_any:
                await self._flush()
            elif self.timer is None:
                self.timer = asyncio.create_task(self._later())

    async def _later(self) -> None:
        await asyncio.sleep(self.window_s)
        async with self.lock:
            self.timer = None
            await self._flush()

    async def flush(self) -> None:
        """Before any other event: what is pending goes first, in order."""
        async with self.lock:
            if self.timer is not None:
                self.timer.cancel()
                self.timer = None
            await self._flush()

    async def _flush(self) -> None:
        for field, text in self.pending.items():
            await self.events.append(self.run_id, "token", {"field": field, "text": text})
            self.sent_any = True
        self.pending.clear()


async def _produce(
    services: Services,
    runnable: Any,
    payload: dict[str, Any],
    config: dict[str, Any],
    run_id: str,
    tokens: Mapping[str, str],
) -> None:
    """Runs the graph and writes its events; always ends the log with `end`."""
    events = services.events
    tokens_out = _Tokens(events, run_id)
    keys = output_keys(runnable)
    last: Any = None
    try:
        async with charged_to(config["metadata"].get("user")):
            stream = runnable.astream(payload, config, stream_mode=["messages", "custom", "values"])
            async for mode, chunk in stream:
                if mode == "messages":
                    message, meta = chunk
                    # Streamed chunks only: the whole message a node then writes to its
                    # state repeats them (a model that did not stream: its `result`).
                    field = tokens.get(meta.get("langgraph_node", ""))
                    text = _text(message.content) if isinstance(message, AIMessageChunk) else ""
                    if field and text:
                        await tokens_out.add(field, text)
                elif mode == "custom" and isinstance(chunk, dict) and "event" in chunk:
                    await tokens_out.flush()
                    await events.append(run_id, str(chunk["event"]), chunk.get("data"))
                elif mode == "values":
                    last = chunk
        result = {k: v for k, v in last.items() if k in keys} if isinstance(last, dict) else last
        await tokens_out.flush()
        await events.append(run_id, "result", result)
    except asyncio.CancelledError:  # the server is shutting down
        note_error(SHUTDOWN_CODE)
        await asyncio.shield(tokens_out.flush())
        body = {"error": {"code": SHUTDOWN_CODE, "message": SHUTDOWN_MESSAGE}}
        await asyncio.shield(events.append(run_id, "error", body))
        await asyncio.shield(events.append(run_id, "end", {}))
        raise
    except Exception as exc:
        await tokens_out.flush()
        body = error_body(exc)
        if not isinstance(exc, AIError):
            log.exception("unhandled error in an event-stream run", exc_info=exc)
        note_error(body["error"]["code"])
        await events.append(run_id, "error", body)
    await events.append(run_id, "end", {})


async def start_run(
    services: Services,
    runnable: Any,
    raw: dict[str, Any],
    metadata: dict[str, Any],
    tokens: Mapping[str, str],
) -> str:
    """Creates the log of a run of `runnable` on `raw` (an input the route has checked)
    and starts the run; its id."""
    run_id = uuid.uuid4().hex
    owner = metadata.get("user")
    await services.events.create(run_id, owner)
    await services.events.append(run_id, "run", {"run_id": run_id})
    config = {"metadata": {**metadata, "run": "events"}, "run_name": metadata.get("feature")}
    task = services.background.spawn(
        f"events:{run_id}", lambda: _produce(services, runnable, raw, config, run_id, tokens)
    )
    if task is None:
        raise DependencyError(
            "The server is at its limit of running streams; retry shortly", retry_after_s=5
        )
    return run_id


async def check_owner(services: Services, run_id: str, user_id: str | None) -> None:
    """404 RUN_NOT_FOUND for an unknown or expired run, and (with `user_id`) for another
    user's: its existence is not revealed."""
    owner = await services.events.owner(run_id)
    if owner is None or (user_id is not None and owner != hash_user_id(user_id)):
        raise NotFoundError(f"No run {run_id}", code="RUN_NOT_FOUND", field="run_id")


async def sse(services: Services, run_id: str, after: str | None) -> AsyncIterator[dict[str, Any]]:
    """The run's events after `after` as SSE messages (for sse-starlette), until `end`.
    A Redis failure while reading ends the stream with an `error` event, and so does a run
    whose log expired without its `end` (its process died mid-run): quiet for
    `EXPIRY_CHECK_S`, the reader checks that the run still exists."""
    events = services.events
    # Blocking reads shorter than the Redis socket timeout; sse-starlette's pings keep
    # proxies from closing a quiet stream.
    block_s = max(0.5, min(2.0, services.settings.redis_socket_timeout_s - 1))
    position, timeouts, quiet = after or "0", 0, 0.0
    while True:
        try:
            batch = await events.read(run_id, position, block_s)
            timeouts = 0
            quiet = 0.0 if batch else quiet + block_s
            if quiet >= EXPIRY_CHECK_S:
                quiet = 0.0
                if await events.owner(run_id) is None:
                    gone = NotFoundError(
                        "The run ended without finishing; start it again",
                        code="RUN_EXPIRED",
                        field="run_id",
                    )
                    yield {"event": "error", "data": _json(gone.to_dict())}
                    return
        except ReadTimedOut as exc:
            timeouts += 1
            if timeouts < READ_RETRIES:
                continue
            error = redis_failure(exc.__cause__ or exc, "Reading the run's events")
            yield {"event": "error", "data": _json(error.to_dict())}
            return
        except AIError as exc:
            yield {"event": "error", "data": _json(exc.to_dict())}
            return
        for event_id, kind, data in batch:
            position = event_id
            yield {"id": event_id, "event": kind, "data": _json(data)}
            if kind in FINAL:
                return


def _json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
