"""GET /health: one check per dependency; "degraded" when any is not ok."""

from __future__ import annotations

import asyncio
from typing import Any

from core.errors import AIError
from core.services import Services

REDIS_CHECK_TIMEOUT_S = 2


async def _redis_check(services: Services) -> str:
    """A PING, bounded: a refused connection fails at once, a hung Redis after 2 s."""
    if services.redis is None:
        return "not_configured"
    try:
        await asyncio.wait_for(services.redis.ping(), timeout=REDIS_CHECK_TIMEOUT_S)
        return "ok"
    except Exception as exc:
        return f"error: {type(exc).__name__}"


def _llm_check(services: Services) -> str:
    try:
        return f"ok ({services.models.spec('analysis')})"
    except AIError as exc:
        return f"error: {exc.message}"


async def health_report(services: Services) -> dict[str, Any]:
    # Side by side: the answer takes the slower check's bounded time, not their sum.
    redis, vector_store = await asyncio.gather(_redis_check(services), services.vectors.check())
    checks = {"redis": redis, "vector_store": vector_store, "llm": _llm_check(services)}
    healthy = all(checks[k] == "ok" for k in ("redis", "vector_store")) and checks[
        "llm"
    ].startswith("ok")
    return {"status": "ok" if healthy else "degraded", "checks": checks}
