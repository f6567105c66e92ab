"""API-key check for /ai/* and pseudonymous user ids for logs and traces."""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import Request

from core.errors import InvalidInputError, UnauthorizedError
from core.settings import get_settings
from core.telemetry import note_request


async def require_api_key(request: Request) -> None:
    """FastAPI dependency: when AI_API_KEY is set, X-API-Key must equal it (constant time)."""
    expected = get_settings().ai_api_key
    if not expected:
        return
    given = request.headers.get("x-api-key", "")
    if not hmac.compare_digest(given.encode("utf-8"), expected.encode("utf-8")):
        raise UnauthorizedError("Missing or invalid X-API-Key")


def hash_user_id(user_id: str) -> str:
    """A stable pseudonym: logs and traces never carry the raw user id. Keyed with
    USER_HASH_SALT when it is set (HMAC-SHA256): without the key, enumerating user ids
    cannot reverse it. Unset, a plain prefixed SHA-256 (fine for development only)."""
    salt = get_settings().user_hash_salt
    if salt:
        return hmac.new(salt.encode(), user_id.encode(), hashlib.sha256).hexdigest()[:16]
    return hashlib.sha256(f"devths:{user_id}".encode()).hexdigest()[:16]


PerRequestConfig = Callable[[dict[str, Any], Request], Awaitable[dict[str, Any]]]


# Ids that go into thread ids: no separators, no whitespace ("a:b"+"c" != "a"+"b:c").
_ID = re.compile(r"^[A-Za-z0-9_.@-]{1,128}$")


def checked_id(value: object, field: str) -> str:
    """A user/session/room id that is safe inside a thread id; InvalidInputError if not."""
    if not isinstance(value, str) or not _ID.match(value):
        raise InvalidInputError(
            f"{field} must be 1-128 characters of letters, digits, '_', '.', '@' or '-'",
            field=field,
        )
    return value


def thread_id(
    prefix: str, user_id: object, key: object, key_field: str, *, pseudonymous: bool = False
) -> str:
    """The server-side checkpoint thread, e.g. `interview:{user_id}:{session_id}`; with
    `pseudonymous` the same id with the hashed user, as traces and logs may show it."""
    user = checked_id(user_id, "user_id")
    return f"{prefix}:{hash_user_id(user) if pseudonymous else user}:{checked_id(key, key_field)}"


def run_metadata(feature: str, thread: tuple[str, str] | None = None) -> PerRequestConfig:
    """A LangServe `per_req_config_modifier` that tags runs (and so traces) with the feature,
    the route and a hashed user id; the raw id never leaves the request.

    With `thread=(prefix, key_field)` it also sets `configurable.thread_id` from the body
    (`{prefix}:{user_id}:{key}`), replacing whatever thread id the client sent."""

    async def modify(config: dict[str, Any], request: Request) -> dict[str, Any]:
        try:
            body = await request.json()
            given = body.get("input", {})
            user_id = str(given.get("user_id", ""))
        except (ValueError, AttributeError):
            given, user_id = {}, ""
        user = hash_user_id(user_id) if user_id else None
        note_request(user=user)
        metadata = {
            **config.get("metadata", {}),
            "feature": feature,
            "route": request.url.path,
            "user": user,
        }
        config = {**config, "metadata": metadata}
        if thread is not None:
            prefix, key_field = thread
            if not isinstance(given, dict):
                raise InvalidInputError("input must be an object", field="input")
            ids = (prefix, given.get("user_id"), given.get(key_field), key_field)
            configurable = {**config.get("configurable", {}), "thread_id": thread_id(*ids)}
            config["configurable"] = configurable
            # LangGraph copies configurable.thread_id into run metadata (and so traces)
            # unless metadata already has one: give it the pseudonymous form.
            metadata["thread_id"] = thread_id(*ids, pseudonymous=True)
        return config

    return modify
