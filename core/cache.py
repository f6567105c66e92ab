"""The one cache helper: JSON values under hashed keys, in Redis or (degraded) in process.

Keys are `devths:{namespace}:{sha256 of the parts}`; callers pass every input that changes
the answer (normalised text, prompt version, model spec), so a prompt change is a new key.
"""

from __future__ import annotations

import hashlib
import json
import time
from typing import Any, Protocol

from redis.asyncio import Redis
from redis.exceptions import RedisError

from core.errors import redis_failure
from core.telemetry import CACHE_LOOKUPS


def cache_key(namespace: str, *parts: str) -> str:
    digest = hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()
    return f"devths:{namespace}:{digest}"


def _record(key: str, hit: bool) -> None:
    namespace = key.split(":")[1] if key.count(":") >= 2 else "other"
    CACHE_LOOKUPS.labels(namespace, "hit" if hit else "miss").inc()


class JsonCache(Protocol):
    async def get(self, key: str) -> Any | None: ...
    async def set(self, key: str, value: Any, ttl_s: int) -> None: ...
    async def delete(self, key: str) -> None: ...


class RedisJsonCache:
    def __init__(self, client: Redis) -> None:
        self.client = client

    async def get(self, key: str) -> Any | None:
        try:
            raw = await self.client.get(key)
        except RedisError as exc:
            raise redis_failure(exc, "Redis cache read") from exc
        _record(key, raw is not None)
        return None if raw is None else json.loads(raw)

    async def set(self, key: str, value: Any, ttl_s: int) -> None:
        try:
            await self.client.set(key, json.dumps(value, ensure_ascii=False), ex=ttl_s)
        except RedisError as exc:
            raise redis_failure(exc, "Redis cache write") from exc

    async def delete(self, key: str) -> None:
        try:
            await self.client.delete(key)
        except RedisError as exc:
            raise redis_failure(exc, "Redis cache delete") from exc


class MemoryJsonCache:
    """In-process fallback when no Redis is configured (and for unit tests)."""

    def __init__(self, max_items: int = 10_000) -> None:
        self._items: dict[str, tuple[float, str]] = {}
        self.max_items = max_items

    async def get(self, key: str) -> Any | None:
        item = self._items.get(key)
        if item is not None and item[0] < time.monotonic():
            self._items.pop(key, None)
            item = None
        _record(key, item is not None)
        return None if item is None else json.loads(item[1])

    async def set(self, key: str, value: Any, ttl_s: int) -> None:
        if len(self._items) >= self.max_items:
            self._items.pop(next(iter(self._items)))
        self._items[key] = (time.monotonic() + ttl_s, json.dumps(value, ensure_ascii=False))

    async def delete(self, key: str) -> None:
        self._items.pop(key, None)


class MissingCache(MemoryJsonCache):
    """For measuring (evals, benchmarks): lookups under the given namespaces always miss
    (all of them when none are given); writes are kept, so other caches still work."""

    def __init__(self, *namespaces: str) -> None:
        super().__init__()
        self.prefixes = tuple(f"devths:{n}:" for n in namespaces)

    async def get(self, key: str) -> Any | None:
        if not self.prefixes or key.startswith(self.prefixes):
            _record(key, False)
            return None
        return await super().get(key)
