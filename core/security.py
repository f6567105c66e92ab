"""API-key check for /ai/* and pseudonymous user ids for logs and traces."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import Request

from core.errors import UnauthorizedError
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
    """A stable pseudonym: logs and traces never carry the raw user id."""
    return hashlib.sha256(f"devths:{user_id}".encode()).hexdigest()[:16]


PerRequestConfig = Callable[[dict[str, Any], Request], Awaitable[dict[str, Any]]]


def run_metadata(feature: str) -> PerRequestConfig:
    """A LangServe `per_req_config_modifier` that tags runs (and so traces) with the feature,
    the route and a hashed user id; the raw id never leaves the request."""

    async def modify(config: dict[str, Any], request: Request) -> dict[str, Any]:
        try:
            body = await request.json()
            user_id = str(body.get("input", {}).get("user_id", ""))
        except (ValueError, AttributeError):
            user_id = ""
        user = hash_user_id(user_id) if user_id else None
        note_request(user=user)
        metadata = {
            **config.get("metadata", {}),
            "feature": feature,
            "route": request.url.path,
            "user": user,
        }
        return {**config, "metadata": metadata}

    return modify
