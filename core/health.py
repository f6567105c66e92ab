"""GET /health: one check per dependency; "degraded" when any is not ok."""

from __future__ import annotations

import asyncio
from typing import Any

from core.errors import AIError
from core.services import Services


async def _redis_check(services: Services) -> str:
    if services.redis is None:
        return "not_configured"
    try:
        await asyncio.wait_for(services.redis.ping(), timeout=2)
        return "ok"
    except Exception as exc:
        return f"error: {type(exc).__name__}"


def _llm_check(services: Services) -> str:
    try:
        return f"ok ({services.models.spec('analysis')})"
    except AIError as exc:
        return f"error: {exc.message}"


async def health_report(services: Services) -> dict[str, Any]:
    checks = {
        "redis": await _redis_check(services),
        "vector_store": await services.vectors.check(),
        "llm": _llm_check(services),
    }
    healthy = all(checks[k] == "ok" for k in ("redis", "vector_store")) and checks[
        "llm"
    ].startswith("ok")
    return {"status": "ok" if healthy else "degraded", "checks": checks}
