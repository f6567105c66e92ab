"""What a request may be before anything reads it, and what it may do before it runs.

- `RequestLimitsMiddleware` (pure ASGI) refuses a body over its limit from `Content-Length`
  or, without one, as soon as the bytes received pass it (413 PAYLOAD_TOO_LARGE), before a
  parser spools it. The refused body is read and discarded up to `DRAIN_FACTOR` times the
  limit first: most HTTP clients send the whole body before they read an answer, and a
  server that answers and closes mid-body leaves them a broken connection instead of the
  413. Past that bound the connection is closed at once. JSON bodies are then checked for
  nesting depth and element count (422), which keeps a `[[[[...]]]]` bomb away from the JSON parser.
- `admit(input_type)` is a FastAPI dependency of each feature route: a `/batch` is checked
  item by item like `/invoke` (a bad item is a 422 naming `inputs.{i}.{field}`), its size
  is bounded, and the users it runs for are admitted by the rate limits and quotas.
- `TokenQuotaMiddleware` charges the model tokens a request used to its user when it ends.
"""

from __future__ import annotations

import contextlib
import math
import re
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import numpy as np
from fastapi import Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ValidationError
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from core.errors import AIError, InvalidInputError, PayloadTooLargeError
from core.security import hash_user_id
from core.services import get_services
from core.telemetry import REQUEST, RUN_SUFFIXES, note_error, note_request

# Multipart framing around an upload (boundaries, part headers, the user_id field).
UPLOAD_FRAMING_BYTES = 64 * 1024
# A body over its limit is read (and discarded) up to this many times the limit before the
# 413, so the client, still sending, receives it; a bigger one is cut off.
DRAIN_FACTOR = 2
# Possessive, and an unclosed string ends the body: each string is scanned once (a body of
# unclosed `"\"\"...` was quadratic: 32 KB took 5 s on the event loop).
_JSON_STRING = re.compile(rb'"(?:[^"\\]|\\.)*+(?:"|\\?\Z)', re.DOTALL)
_OPEN = np.frombuffer(b"[{", dtype=np.uint8)
_CLOSE = np.frombuffer(b"]}", dtype=np.uint8)


def json_shape(body: bytes) -> tuple[int, int]:
    """(deepest nesting, containers + separators: about the number of values) of a JSON
    text, without parsing it: strings are blanked out first, so brackets inside them do
    not count."""
    skeleton = np.frombuffer(_JSON_STRING.sub(b'""', body), dtype=np.uint8)
    opens = np.isin(skeleton, _OPEN)
    steps = opens.astype(np.int32) - np.isin(skeleton, _CLOSE)
    depth = int(np.cumsum(steps).max(initial=0))
    elements = int(np.count_nonzero(opens)) + int(np.count_nonzero(skeleton == ord(",")))
    return depth, elements


def _is_upload(headers: dict[bytes, bytes]) -> bool:
    return headers.get(b"content-type", b"").lower().startswith(b"multipart/")


def _too_large(limit: int) -> PayloadTooLargeError:
    return PayloadTooLargeError(f"Request body is larger than {limit} bytes", field="body")


class RequestLimitsMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        settings = get_services().settings
        headers = dict(scope.get("headers") or ())
        upload = _is_upload(headers)
        if upload:
            limit = settings.upload_max_bytes + UPLOAD_FRAMING_BYTES
        else:
            limit = settings.request_max_bytes
        declared = headers.get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            if declared.isdigit() and int(declared) <= DRAIN_FACTOR * limit:
                await _drain(receive, DRAIN_FACTOR * limit)
            await _refuse(scope, receive, send, _too_large(limit))
            return
        if upload:
            await self._counted(scope, receive, send, limit)
            return
        # Other bodies (JSON) are small by the limit: read them here, check their shape,
        # and hand the app the same bytes.
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                note_error("CLIENT_DISCONNECTED")
                return
            body += message.get("body", b"")
            if len(body) > limit:
                if message.get("more_body", False):
                    await _drain(receive, DRAIN_FACTOR * limit - len(body))
                await _refuse(scope, receive, send, _too_large(limit))
                return
            if not message.get("more_body", False):
                break
        try:
            bytes(body).decode("utf-8")
        except UnicodeDecodeError:  # the JSON parser would raise it past LangServe: a 500
            error = InvalidInputError("Request body must be UTF-8 JSON", field="body")
            await _refuse(scope, receive, send, error)
            return
        # Whatever the body looks like: the JSON parser also reads a BOM or UTF-16.
        if body:
            depth, elements = json_shape(bytes(body))
            problem = None
            if depth > settings.json_max_depth:
                problem = f"JSON nests deeper than {settings.json_max_depth} levels"
            elif elements > settings.json_max_elements:
                problem = f"JSON has more than {settings.json_max_elements} elements"
            if problem:
                await _refuse(scope, receive, send, InvalidInputError(problem, field="body"))
                return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()  # after the body: wait for the disconnect
            replayed = True
            return {"type": "http.request", "body": bytes(body), "more_body": False}

        await self.app(scope, replay, send)

    async def _counted(self, scope: Scope, receive: Receive, send: Send, limit: int) -> None:
        """An upload streams through, counted. Past the limit the client gets the 413 at
        once and the app sees a disconnect (so it stops reading); whatever the app answers
        after that is dropped."""
        seen = 0
        started = refused = False

        async def counting_receive() -> Message:
            nonlocal seen, refused
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > limit:
                refused = True
                if not started:
                    if message.get("more_body", False):
                        await _drain(receive, DRAIN_FACTOR * limit - seen)
                    await _refuse(scope, receive, send, _too_large(limit))
                return {"type": "http.disconnect"}
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if refused:
                return
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counting_receive, tracking_send)
        except Exception:
            if not refused:
                raise
        if refused:  # the app saw a disconnect and may have noted its own error
            note_error("PAYLOAD_TOO_LARGE")


async def _drain(receive: Receive, budget: int) -> None:
    """Read and drop the rest of a refused body: until it ends, the client disconnects, or
    `budget` more bytes have come (then the 413 goes out and the connection closes)."""
    while budget > 0:
        message = await receive()
        if message["type"] != "http.request":
            return
        budget -= len(message.get("body", b""))
        if not message.get("more_body", False):
            return


async def _refuse(scope: Scope, receive: Receive, send: Send, error: AIError) -> None:
    """Answer in the contract's shape from the middleware (the app never runs)."""
    note_error(error.code)
    response = JSONResponse(error.to_dict(), error.status_code, {"connection": "close"})
    await response(scope, receive, send)


def _check_batch(body: Any, input_type: type[BaseModel], max_items: int) -> list[Any]:
    """The items of a `/batch` body, each validated like an `/invoke` input."""
    inputs = body.get("inputs") if isinstance(body, dict) else None
    if not isinstance(inputs, list) or not inputs:
        raise InvalidInputError("inputs must be a non-empty list", field="inputs")
    if len(inputs) > max_items:
        raise InvalidInputError(f"inputs may hold at most {max_items} items", field="inputs")
    for index, item in enumerate(inputs):
        try:
            input_type.model_validate(item)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in ("inputs", index, *first["loc"]))
            message = str(first["msg"]).removeprefix("Value error, ")
            raise InvalidInputError(f"{where}: {message}", field=where) from exc
    return inputs


def _check_options(body: Any, batch: bool) -> None:
    """`config` and `kwargs` are optional, but when present they must be objects (a list
    of objects for a batch's config); LangServe fails on a `null` one with a 500."""
    if not isinstance(body, dict):
        return
    config = body.get("config", {})
    if "config" in body and not isinstance(config, dict | list if batch else dict):
        raise InvalidInputError("config must be an object", field="config")
    if "kwargs" in body and not isinstance(body["kwargs"], dict):
        raise InvalidInputError("kwargs must be an object", field="kwargs")


def _check_threads(items: list[Any], key_field: str) -> None:
    """Two items of one batch may not name the same checkpoint thread (one would be
    refused or run in an arbitrary order after the other)."""
    seen: dict[tuple[str, str], int] = {}
    for index, item in enumerate(items):
        thread = (item["user_id"], item[key_field])
        if thread in seen:
            where = f"inputs.{index}.{key_field}"
            raise InvalidInputError(
                f"{where} repeats inputs.{seen[thread]}: one item per thread", field=where
            )
        seen[thread] = index


def admit(
    input_type: type[BaseModel], thread_key: str | None = None
) -> Callable[[Request], Awaitable[None]]:
    """A route dependency (see the module docstring); `thread_key` names the field that,
    with `user_id`, makes a run's checkpoint thread. Bodies LangServe would refuse anyway
    (broken JSON, a missing input) are left to its own 422."""

    async def dependency(request: Request) -> None:
        if request.method != "POST" or not request.url.path.endswith(RUN_SUFFIXES):
            return
        try:
            body = await request.json()
        except ValueError:
            return
        except RecursionError:  # not a ValueError: LangServe would make it a 500
            raise InvalidInputError("JSON nests too deeply", field="body") from None
        services = get_services()
        _check_options(body, batch=request.url.path.endswith("/batch"))
        if request.url.path.endswith("/batch"):
            items = _check_batch(body, input_type, services.settings.batch_max_items)
            if thread_key:
                _check_threads(items, thread_key)
        else:
            items = [body.get("input")] if isinstance(body, dict) else []
        users = [
            hash_user_id(item["user_id"])
            for item in items
            if isinstance(item, dict) and isinstance(item.get("user_id"), str)
        ]
        await _admit_users(users)

    return dependency


async def admit_upload(user_id: str) -> None:
    """The document routes' admission: one model-running request of `user_id`."""
    await _admit_users([hash_user_id(user_id)])


@contextlib.asynccontextmanager
async def charged_to(pseudonym: str | None) -> AsyncIterator[None]:
    """Work outside a request (a document job) whose model tokens belong to the quota of
    the user with this pseudonym (`hash_user_id`): its own usage record, charged when the
    work ends."""
    record: dict[str, Any] = {}
    token = REQUEST.set(record)
    try:
        yield
    finally:
        REQUEST.reset(token)
        if pseudonym:
            tokens = record.get("tokens_input", 0) + record.get("tokens_output", 0)
            await get_services().limits.charge_tokens(pseudonym, tokens)


async def _admit_users(users: list[str]) -> None:
    # The log line names the (first) user; the quota charge is shared by every item.
    note_request(user=users[0] if users else None, quota_users=users)
    await get_services().limits.admit_users(users)


class TokenQuotaMiddleware:
    """Charges the request's model tokens (counted by the model callbacks into the
    request record) to its user once the response, stream included, has ended."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await self.app(scope, receive, send)
        finally:
            record = REQUEST.get() or {}
            users = record.get("quota_users") or []
            if scope["type"] == "http" and users:
                tokens = record.get("tokens_input", 0) + record.get("tokens_output", 0)
                for user, items in Counter(users).items():  # a batch's users share it
                    share = math.ceil(tokens * items / len(users))
                    await get_services().limits.charge_tokens(user, share)
