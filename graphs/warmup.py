"""Start-up warm-up: what the first request would otherwise wait for.

Kiwi's model (about 2.5 s on 2 cores), the chat router's example embeddings (about 0.7 s)
and the analysis's requirement matching (the embedding model, the taxonomy, the career and
requirement readers: the first `analysis_match` took 0.87 s cold, 11 ms warm) load lazily.
The server's lifespan starts this in the background, so start-up is not delayed, and the
readiness probe (`GET /ready`) answers 503 until it has finished, so a balancer sends no
traffic to a cold process. Everything it loads is also loaded on demand, so a failure here
only costs the first request the wait (and the process is ready all the same).
"""

from __future__ import annotations

import asyncio
import logging
from datetime import date

from core.errors import ModelUnavailableError
from core.services import get_services
from nodes.analysis.requirements import assess_requirements
from nodes.chat.steps import router_for_services
from text.korean_text import kiwi
from text.requirements import extract_requirements

log = logging.getLogger("devths.warmup")

_POSTING = "[자격요건]\n- Python 개발 경력 3년 이상\n- 대용량 트래픽 처리 경험"
_RESUME = "경력\n- ○○ (2021.03 - 현재) 백엔드 개발, 일 100만 건 처리\n기술: Python, Redis"


def _analysis_matching() -> None:
    vectors = queries = None
    try:
        cache = get_services().line_vectors
        vectors, queries = cache.vectors, cache.query_vectors
        vectors(["요건"])
    except ModelUnavailableError:
        log.warning("warm-up: embedding model unavailable; analysis runs without it")
    reqs = extract_requirements(_POSTING)
    assess_requirements(reqs, _RESUME, date(2026, 1, 1), ["Python", "Redis"], vectors, queries)


def _load() -> None:
    kiwi().tokenize("면접 준비")
    router_for_services()
    _analysis_matching()


async def warm_up() -> None:
    """Loads everything above; the process counts as warm when it ends, however it ends."""
    services = get_services()  # the lifespan marked it cold before starting this
    try:
        await asyncio.to_thread(_load)
    except Exception:
        log.exception("warm-up failed; the first requests load what they need themselves")
    finally:
        services.warm = True
