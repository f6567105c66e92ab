"""API-key check for /ai/* and pseudonymous user ids for logs and traces."""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import Request

from core.errors import InvalidInputError, UnauthorizedError
from core.services import get_services
from core.settings import get_settings
from core.telemetry import REQUEST


def matching_key(given: str, keys: list[str]) -> str | None:
    """The configured key equal to `given`, compared in constant time with every key (so
    timing does not tell which key, or how much of one, matched)."""
    found = None
    for key in keys:
        if hmac.compare_digest(given.encode("utf-8"), key.encode("utf-8")):
            found = key
    return found


async def check_api_key(request: Request) -> str:
    """When AI_API_KEY holds keys, X-API-Key must be one of them (else 401). Returns the
    caller's identity for the per-key rate limit: a digest of its key, or "all" without
    keys."""
    keys = get_settings().api_keys
    if not keys:
        return "all"
    key = matching_key(request.headers.get("x-api-key", ""), keys)
    if key is None:
        raise UnauthorizedError("Missing or invalid X-API-Key", field="X-API-Key")
    return "key-" + hashlib.sha256(key.encode()).hexdigest()[:12]


async def require_api_key(request: Request) -> None:
    """FastAPI dependency of /ai/*: a valid key (when keys are set), then one request
    against that key's per-minute limit (429 RATE_LIMITED past it)."""
    await get_services().limits.admit_key(await check_api_key(request))


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


def run_metadata(feature: str) -> PerRequestConfig:
    """A LangServe `per_req_config_modifier` that tags runs (and so traces) with the feature,
    the route and a hashed user id; the raw id never leaves the request. (Checkpoint thread
    ids are set per input by `core.thread_lock`, which also serves `/batch`.)"""

    async def modify(config: dict[str, Any], request: Request) -> dict[str, Any]:
        # The route's admission (core.request_limits.admit) has read the body and noted
        # the hashed user in the request record: no second parse, no second hash.
        record = REQUEST.get() or {}
        metadata = {
            **config.get("metadata", {}),
            "feature": feature,
            "route": request.url.path,
            "user": record.get("user"),
        }
        return {**config, "metadata": metadata}

    return modify
