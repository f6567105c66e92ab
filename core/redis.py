"""The one shared async Redis client, and the start-up check for the modules we need."""

from __future__ import annotations

from redis.asyncio import BlockingConnectionPool, Redis

from core.errors import DependencyError

REQUIRED_MODULES = {"ReJSON": "RedisJSON", "search": "RediSearch"}


def create_redis(url: str, max_connections: int, pool_timeout_s: float) -> Redis:
    """A client on a blocking pool: past `max_connections`, callers wait for a free
    connection (up to `pool_timeout_s`) instead of failing with MaxConnectionsError."""
    pool = BlockingConnectionPool.from_url(
        url, max_connections=max_connections, timeout=pool_timeout_s
    )
    return Redis(connection_pool=pool)


async def check_modules(client: Redis) -> None:
    """Fail fast when the server lacks RedisJSON or RediSearch (checkpoints need both)."""
    modules = await client.module_list()
    names = {
        (m.get(b"name") or m.get("name") or b"").decode()
        if isinstance(m.get(b"name") or m.get("name"), bytes)
        else str(m.get(b"name") or m.get("name"))
        for m in modules
    }
    missing = [label for key, label in REQUIRED_MODULES.items() if key not in names]
    if missing:
        raise DependencyError(
            "Redis at REDIS_URL lacks required modules: "
            + ", ".join(missing)
            + ". Use Redis 8 (or Redis Stack); `make redis` starts one locally."
        )
