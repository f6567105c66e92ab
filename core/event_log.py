"""Where a run's events wait for their reader: a Redis stream per run (any API process can
serve a client that reconnects), or a list in this process when no Redis is configured.

A run's log is created with its owner (the user's pseudonym), appended to by the run as it
goes, and read from any point: an event's id is its position, so a client resuming with
`Last-Event-ID` gets exactly the events after it. The log expires `ttl_s` after its last
event: a client that has not come back by then starts a new run.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

from redis.asyncio import Redis
from redis.exceptions import TimeoutError as RedisTimeoutError

from core.errors import redis_failure

PREFIX = "devths:run:"


class ReadTimedOut(Exception):
    """A blocking read got no answer within the socket timeout."""


Event = tuple[str, str, Any]  # (id, kind, data)


class EventLog(Protocol):
    async def create(self, run_id: str, owner: str | None) -> None: ...
    async def owner(self, run_id: str) -> str | None:
        """The run's owner pseudonym ("" for a run without one); None for an unknown run."""
        ...

    async def append(self, run_id: str, kind: str, data: Any) -> str: ...
    async def read(self, run_id: str, after: str, block_s: float) -> list[Event]:
        """Events after `after` ("0" for all), waiting up to `block_s` for the first."""
        ...


class RedisEventLog:
    """A Redis stream `devths:run:{id}` (entry ids are the event ids) beside the owner key.

    The process running a run wakes its own readers when it appends (they then read what is
    new without blocking a Redis connection: 50 streams would hold 50 of the pool's
    connections in `XREAD BLOCK`); a reader on another process (a client that reconnected
    elsewhere) blocks on Redis."""

    def __init__(self, redis: Redis, ttl_s: int, max_events: int = 20_000) -> None:
        self.redis, self.ttl_s, self.max_events = redis, ttl_s, max_events
        # Runs this process is producing: their condition and how many events were appended.
        self._local: dict[str, list[Any]] = {}

    async def create(self, run_id: str, owner: str | None) -> None:
        try:
            await self.redis.set(f"{PREFIX}{run_id}:owner", owner or "", ex=self.ttl_s)
        except Exception as exc:
            raise redis_failure(exc, "Saving the run") from exc
        self._local[run_id] = [asyncio.Condition(), 0]

    async def owner(self, run_id: str) -> str | None:
        try:
            value = await self.redis.get(f"{PREFIX}{run_id}:owner")
        except Exception as exc:
            raise redis_failure(exc, "Reading the run") from exc
        return None if value is None else value.decode() if isinstance(value, bytes) else value

    async def append(self, run_id: str, kind: str, data: Any) -> str:
        key = f"{PREFIX}{run_id}"
        fields: dict[Any, Any] = {"e": kind, "d": json.dumps(data, ensure_ascii=False)}
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.xadd(key, fields, maxlen=self.max_events, approximate=True)
            if kind in ("run", "end"):  # the TTL counts from the first and the last event
                pipe.expire(key, self.ttl_s)
                pipe.expire(f"{key}:owner", self.ttl_s)
            entry, *_ = await pipe.execute()
        local = self._local.get(run_id)
        if local is not None:
            async with local[0]:
                local[1] += 1
                local[0].notify_all()
            if kind == "end":
                del self._local[run_id]
        return _text(entry)

    async def read(self, run_id: str, after: str, block_s: float) -> list[Event]:
        local = self._local.get(run_id)
        if local is None:
            return await self._blocking_read(run_id, after, block_s)
        changed, seen = local[0], local[1]  # an append after this count wakes the wait
        found = await self._range(run_id, after)
        if not found:
            async with changed:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(changed.wait_for(lambda: local[1] != seen), block_s)
            found = await self._range(run_id, after)
        return found

    async def _range(self, run_id: str, after: str) -> list[Event]:
        start = "-" if after in ("0", "0-0") else f"({after}"
        try:
            entries = await self.redis.xrange(f"{PREFIX}{run_id}", min=start, count=500)
        except Exception as exc:
            raise redis_failure(exc, "Reading the run's events") from exc
        return [_event(entry_id, fields) for entry_id, fields in entries or []]

    async def _blocking_read(self, run_id: str, after: str, block_s: float) -> list[Event]:
        try:
            found = await self.redis.xread(
                {f"{PREFIX}{run_id}": after}, count=500, block=max(1, int(block_s * 1000))
            )
        except RedisTimeoutError as exc:
            # A blocking read answered late (this process's event loop was busy): the reader
            # retries a few times before it calls Redis unreachable.
            raise ReadTimedOut from exc
        except Exception as exc:
            raise redis_failure(exc, "Reading the run's events") from exc
        streams: Any = found or []  # RESP2: [[key, [(id, fields), ...]]]
        return [_event(entry_id, fields) for _, entries in streams for entry_id, fields in entries]


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _event(entry_id: Any, fields: Any) -> Event:
    get = {_text(k): _text(v) for k, v in fields.items()}
    return _text(entry_id), get["e"], json.loads(get["d"])


@dataclass
class _Run:
    owner: str
    events: list[Event] = field(default_factory=list)
    changed: asyncio.Condition = field(default_factory=asyncio.Condition)
    last: float = field(default_factory=time.monotonic)


class MemoryEventLog:
    """The same in this process (no REDIS_URL: one process, nothing to share)."""

    def __init__(self, ttl_s: int) -> None:
        self.ttl_s = ttl_s
        self._runs: dict[str, _Run] = {}

    def _expire(self) -> None:
        now = time.monotonic()
        for run_id in [r for r, run in self._runs.items() if now - run.last > self.ttl_s]:
            del self._runs[run_id]

    async def create(self, run_id: str, owner: str | None) -> None:
        self._expire()
        self._runs[run_id] = _Run(owner or "")

    async def owner(self, run_id: str) -> str | None:
        self._expire()
        run = self._runs.get(run_id)
        return None if run is None else run.owner

    async def append(self, run_id: str, kind: str, data: Any) -> str:
        run = self._runs[run_id]
        event_id = f"{len(run.events) + 1}-0"
        async with run.changed:
            run.events.append((event_id, kind, json.loads(json.dumps(data))))
            run.last = time.monotonic()
            run.changed.notify_all()
        return event_id

    async def read(self, run_id: str, after: str, block_s: float) -> list[Event]:
        run = self._runs.get(run_id)
        if run is None:
            return []
        start = int(after.split("-")[0]) if after[:1].isdigit() else 0
        if len(run.events) <= start:
            async with run.changed:
                try:
                    await asyncio.wait_for(
                        run.changed.wait_for(lambda: len(run.events) > start), block_s
                    )
                except TimeoutError:
                    return []
        return run.events[start:]
