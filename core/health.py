"""GET /health: one check per dependency; "degraded" when any is not ok."""

from __future__ import annotations

import asyncio
from typing import Any, Literal

from pydantic import BaseModel

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


class ReadyReport(BaseModel):
    """GET /ready's answer, 200 or 503."""

    status: Literal["ready", "warming_up", "unavailable"]
    checks: dict[str, str] | None = None


class HealthReport(BaseModel):
    """GET /health's answer: one check per dependency."""

    status: Literal["ok", "degraded"]
    checks: dict[str, str]


async def readiness_report(services: Services) -> tuple[int, dict[str, Any]]:
    """GET /ready, for a balancer or Kubernetes' readinessProbe: 200 once the start-up
    warm-up has finished and Redis answers; 503 before (`warming_up`) or while Redis cannot
    be reached (`unavailable`). /health stays the operators' detailed view."""
    if not services.warm:
        return 503, {"status": "warming_up"}
    redis = await _redis_check(services)
    if redis not in ("ok", "not_configured"):
        return 503, {"status": "unavailable", "checks": {"redis": redis}}
    return 200, {"status": "ready"}


async def health_report(services: Services) -> dict[str, Any]:
    # Side by side: the answer takes the slower check's bounded time, not their sum.
    redis, vector_store = await asyncio.gather(_redis_check(services), services.vectors.check())
    checks = {"redis": redis, "vector_store": vector_store, "llm": _llm_check(services)}
    healthy = all(checks[k] == "ok" for k in ("redis", "vector_store")) and checks[
        "llm"
    ].startswith("ok")
    return {"status": "ok" if healthy else "degraded", "checks": checks}
