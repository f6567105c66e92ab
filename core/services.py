"""Shared clients, created once: by the server's lifespan, by a test, or lazily.

Graph nodes read their dependencies from here (models, caches, embeddings) so that the
same graph runs under the server, under `langgraph dev` and under unit tests with fakes.
LangServe passes no runtime context, which is why this is a process-level registry rather
than a LangGraph `context_schema` (see docs/decisions.md).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from langchain_core.embeddings import Embeddings
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.memory import InMemorySaver
from redis.asyncio import Redis

from core.background import BackgroundTasks
from core.cache import JsonCache, MemoryJsonCache, RedisJsonCache
from core.embeddings import VectorCache, shared_embeddings
from core.errors import DependencyError
from core.event_log import EventLog, MemoryEventLog, RedisEventLog
from core.jobs import JobQueue, LocalJobs, SaqJobs
from core.models import ModelRegistry
from core.rate_limits import RequestLimits
from core.redis import check_modules, create_redis
from core.settings import Settings, get_settings
from core.vector_store import VectorStore

log = logging.getLogger(__name__)


@dataclass
class Services:
    settings: Settings
    models: ModelRegistry
    cache: JsonCache
    checkpointer: BaseCheckpointSaver
    jobs: JobQueue
    redis: Redis | None = None
    limits: RequestLimits = field(default=None)  # type: ignore[assignment]  # set below
    background: BackgroundTasks = field(default_factory=BackgroundTasks)
    # False while the start-up warm-up runs: the readiness probe (`GET /ready`) says 503.
    warm: bool = True
    _events: EventLog | None = field(default=None, repr=False)
    _embeddings: Embeddings | None = field(default=None, repr=False)
    _vectors: VectorStore | None = field(default=None, repr=False)
    _line_vectors: VectorCache | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if self.limits is None:
            self.limits = RequestLimits(self.settings, self.redis)

    @property
    def embeddings(self) -> Embeddings:
        if self._embeddings is None:
            self._embeddings = shared_embeddings(self.settings.embedding_model)
        return self._embeddings

    @property
    def events(self) -> EventLog:
        """The lean stream's run event logs: Redis streams, or this process's memory."""
        if self._events is None:
            ttl = self.settings.event_ttl_s
            self._events = (
                RedisEventLog(self.redis, ttl) if self.redis is not None else MemoryEventLog(ttl)
            )
        return self._events

    @property
    def line_vectors(self) -> VectorCache:
        """Vectors of short texts (a requirement, a resume line) by content hash."""
        if self._line_vectors is None:
            self._line_vectors = VectorCache(self.embeddings, self.settings.embedding_model)
        return self._line_vectors

    @property
    def vectors(self) -> VectorStore:
        if self._vectors is None:
            s = self.settings
            self._vectors = VectorStore(s.chroma_path, s.chroma_host, s.chroma_port)
        return self._vectors

    async def aclose(self) -> None:
        await self.background.aclose()
        await self.jobs.aclose()
        if self.redis is not None:
            await self.redis.aclose()


def in_process_services(settings: Settings | None = None, **overrides: Any) -> Services:
    """Services with no external dependencies: in-memory saver and cache."""
    settings = settings or get_settings()
    return Services(
        settings=settings,
        models=overrides.pop("models", None) or ModelRegistry(settings),
        cache=overrides.pop("cache", None) or MemoryJsonCache(),
        checkpointer=overrides.pop("checkpointer", None) or InMemorySaver(),
        jobs=overrides.pop("jobs", None) or LocalJobs(settings),
        **overrides,
    )


async def create_services(settings: Settings) -> Services:
    """Connect to Redis when configured (checking its modules), else run in process."""
    if not settings.redis_url:
        log.warning("REDIS_URL is not set: using the in-process saver and cache (degraded)")
        return in_process_services(settings)
    client = create_redis(
        settings.redis_url,
        settings.redis_max_connections,
        settings.redis_pool_timeout_s,
        connect_timeout_s=settings.redis_connect_timeout_s,
        socket_timeout_s=settings.redis_socket_timeout_s,
    )
    try:
        await client.ping()
    except Exception as exc:
        await client.aclose()
        raise DependencyError(f"Redis at REDIS_URL is unreachable: {type(exc).__name__}") from exc
    try:
        await check_modules(client)
    except Exception:
        await client.aclose()
        raise
    from langgraph.checkpoint.redis.aio import AsyncRedisSaver

    saver = AsyncRedisSaver(
        redis_client=client,
        ttl={"default_ttl": settings.checkpoint_ttl_minutes, "refresh_on_read": True},
    )
    await saver.asetup()
    return Services(
        settings=settings,
        models=ModelRegistry(settings),
        cache=RedisJsonCache(client),
        checkpointer=saver,
        redis=client,
        jobs=SaqJobs(client, settings),
    )


_current: Services | None = None


def set_services(services: Services | None) -> None:
    global _current
    _current = services


def get_services() -> Services:
    """The active services; lazily in-process ones (e.g. under `langgraph dev`)."""
    global _current
    if _current is None:
        _current = in_process_services()
    return _current
