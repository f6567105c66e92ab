"""Per-user rate limits, per-key rate limits and a daily token quota per user.

Counters live in Redis (the same client pool as everything else), so every API process
sees the same counts; without Redis they live in process (development). The strategies
and storage are the `limits` library's: a sliding-window counter for the per-minute rates
(two keys per identity, no per-hit list) and a fixed window of a day for the token quota,
which opens at the user's first charged request of that day.

Identities are pseudonyms (the hashed user id, a digest of the key), never raw ids.
A request is admitted before it runs (`admit_users`, `admit_key`); the tokens its model
calls used are charged when it ends (`charge_tokens`), so a cache hit, which calls no
model, costs nothing.
"""

from __future__ import annotations

import logging
import math
import time
from collections import Counter

from limits import RateLimitItem, RateLimitItemPerDay, RateLimitItemPerMinute
from limits.aio.storage import MemoryStorage, RedisStorage, Storage
from limits.aio.strategies import FixedWindowRateLimiter, SlidingWindowCounterRateLimiter
from redis.asyncio import Redis

from core.errors import (
    DependencyError,
    QuotaExceededError,
    RateLimitedError,
    as_ai_error,
    redis_unavailable,
)
from core.settings import Settings
from core.telemetry import LIMIT_REFUSALS as REFUSED
from core.telemetry import QUOTA_TOKENS as CHARGED

log = logging.getLogger(__name__)

KEY_PREFIX = "devths:limits"


def _storage(redis: Redis | None, redis_url: str | None) -> Storage:
    if redis is None or not redis_url:
        return MemoryStorage()
    # The server's own pool: no second set of connections, the same timeouts.
    return RedisStorage(
        "async+" + redis_url,
        implementation="redispy",
        key_prefix=KEY_PREFIX,
        wrap_exceptions=True,
        connection_pool=redis.connection_pool,  # type: ignore[arg-type]  # passed through
    )


def _storage_failed(exc: Exception) -> DependencyError:
    """503 for a request the limits could not be checked for: with Retry-After when Redis
    is unreachable (the `limits` library wraps redis-py's errors in its StorageError)."""
    if as_ai_error(exc) is not None:
        return redis_unavailable("Rate-limit storage (Redis)")
    return DependencyError("Rate-limit storage (Redis) failed")


def _retry_after(reset_at: float) -> int:
    return max(1, math.ceil(reset_at - time.time()))


class RequestLimits:
    """The server's limits, from settings; a limit of 0 is off."""

    def __init__(self, settings: Settings, redis: Redis | None = None) -> None:
        storage = _storage(redis, settings.redis_url)
        self.rates = SlidingWindowCounterRateLimiter(storage)
        self.quotas = FixedWindowRateLimiter(storage)
        self.per_user = _item(RateLimitItemPerMinute, settings.rate_limit_per_minute, "user")
        self.per_key = _item(RateLimitItemPerMinute, settings.rate_limit_per_key_per_minute, "key")
        self.quota = _item(RateLimitItemPerDay, settings.token_quota_per_day, "tokens")

    async def admit_users(self, users: list[str]) -> None:
        """Count one model-running request per entry (hashed user ids; a batch repeats a
        user per item) against the per-user rate, after checking each user's quota.
        Raises QuotaExceededError or RateLimitedError (both 429 with Retry-After)."""
        if not users:
            return
        try:
            counts = Counter(users)
            for user, count in counts.items():  # check every user before counting any
                if self.quota is not None and not await self.quotas.test(self.quota, user):
                    stats = await self.quotas.get_window_stats(self.quota, user)
                    REFUSED.labels("quota").inc()
                    raise QuotaExceededError(
                        "The daily model-token quota of this user is spent",
                        field="user_id",
                        retry_after_s=_retry_after(stats.reset_time),
                    )
                if self.per_user is not None and not await self.rates.test(
                    self.per_user, user, cost=count
                ):
                    await self._refuse(self.per_user, user, "user")
            for user, count in counts.items():
                # A concurrent request may have taken the last slot since the test.
                if self.per_user is not None and not await self.rates.hit(
                    self.per_user, user, cost=count
                ):
                    await self._refuse(self.per_user, user, "user")
        except (QuotaExceededError, RateLimitedError):
            raise
        except Exception as exc:  # the storage (Redis) failed: a coded 503, never a hang
            raise _storage_failed(exc) from exc

    async def admit_key(self, key_id: str) -> None:
        """One request of an API key (or of all callers when no keys are configured)."""
        if self.per_key is None:
            return
        try:
            if not await self.rates.hit(self.per_key, key_id):
                await self._refuse(self.per_key, key_id, "key")
        except RateLimitedError:
            raise
        except Exception as exc:
            raise _storage_failed(exc) from exc

    async def _refuse(self, item: RateLimitItem, identity: str, limit: str) -> None:
        stats = await self.rates.get_window_stats(item, identity)
        REFUSED.labels(limit).inc()
        raise RateLimitedError(
            f"More than {item.amount} requests per minute for this {limit}; slow down",
            field="user_id" if limit == "user" else "X-API-Key",
            retry_after_s=_retry_after(stats.reset_time),
        )

    async def charge_tokens(self, user: str, tokens: int) -> None:
        """Add the tokens a finished request's model calls used to the user's day."""
        if self.quota is None or tokens <= 0:
            return
        try:
            await self.quotas.hit(self.quota, user, cost=tokens)
            CHARGED.inc(tokens)
        except Exception:  # the answer was served; a lost charge is logged, not raised
            log.warning("could not charge %d tokens to a user quota", tokens, exc_info=True)

    async def tokens_left(self, user: str) -> int | None:
        """What remains of the user's quota today (None when quotas are off)."""
        if self.quota is None:
            return None
        return (await self.quotas.get_window_stats(self.quota, user)).remaining


def _item(kind: type[RateLimitItem], amount: int, namespace: str) -> RateLimitItem | None:
    return kind(amount, namespace=namespace) if amount > 0 else None
