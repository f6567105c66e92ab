"""The one shared async Redis client, and the start-up check for the modules we need.

An outage is bounded, and the server recovers from it by itself:

- Every wait has an end. Connecting gives up after REDIS_CONNECT_TIMEOUT_S, a reply after
  REDIS_SOCKET_TIMEOUT_S (a silent or frozen server); a refused connection fails at once.
  The failure (redis-py's ConnectionError or TimeoutError) becomes 503
  DEPENDENCY_UNAVAILABLE with Retry-After (`core.errors.as_ai_error`).
- One quick retry, on ConnectionError only. redis-py's own client default (10 retries,
  backoff up to 1 s, timeouts retried too) does not apply to a client built on a pool, which
  retries nothing; then, after Redis came back, the first command on a pooled connection
  that the old server closed failed ("Connection closed by server"). The retry reconnects
  and sends it again. A timeout is not retried: it would double the wait of every request
  while Redis hangs.
- Nothing is cached about the connection: the pool reconnects on the next command once
  Redis answers again, so no restart is needed.
"""

from __future__ import annotations

from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialWithJitterBackoff
from redis.exceptions import ConnectionError as RedisConnectionError

from core.errors import DependencyError

REQUIRED_MODULES = {"ReJSON": "RedisJSON", "search": "RediSearch"}


def create_redis(
    url: str,
    max_connections: int,
    pool_timeout_s: float,
    *,
    connect_timeout_s: float | None = None,
    socket_timeout_s: float | None = None,
) -> Redis:
    """A client on a blocking pool: past `max_connections`, callers wait for a free
    connection (up to `pool_timeout_s`) instead of failing with MaxConnectionsError.
    Timeouts default to REDIS_CONNECT_TIMEOUT_S and REDIS_SOCKET_TIMEOUT_S (see the module
    docstring); query parameters of the URL (`?socket_timeout=...`) override them."""
    if connect_timeout_s is None or socket_timeout_s is None:
        from core.settings import get_settings

        settings = get_settings()
        connect_timeout_s = connect_timeout_s or settings.redis_connect_timeout_s
        socket_timeout_s = socket_timeout_s or settings.redis_socket_timeout_s
    pool = BlockingConnectionPool.from_url(
        url,
        max_connections=max_connections,
        timeout=pool_timeout_s,
        socket_connect_timeout=connect_timeout_s,
        # Also the limit of a blocking command's reply (BLMOVE, BLPOP): it must stay well
        # above their block time (the job queue blocks for 1 s; the setting is >= 2 s).
        socket_timeout=socket_timeout_s,
        # A peer that vanished without closing (a host gone) is noticed on an idle
        # connection too, not only by the next command's timeout.
        socket_keepalive=True,
        # No health_check_interval: the pool already checks a connection when it hands it
        # out, and a PING before commands would add a round trip without bounding anything.
        retry=Retry(
            ExponentialWithJitterBackoff(cap=0.2, base=0.05),
            retries=1,
            supported_errors=(RedisConnectionError,),
        ),
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
