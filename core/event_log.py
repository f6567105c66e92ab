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


@dataclass
class _Produced:
    """A run's events held in this process, and the condition its readers wait on."""

    events: list[Event] = field(default_factory=list)
    changed: asyncio.Condition = field(default_factory=asyncio.Condition)

    async def add(self, event: Event) -> None:
        async with self.changed:
            self.events.append(event)
            self.changed.notify_all()

    async def newer(self, after: str, block_s: float) -> list[Event]:
        """The events after `after`, waiting up to `block_s` for the first (an append
        between the check and the wait is seen: the wait re-checks under the lock)."""
        start = _position(after)

        def found() -> list[Event]:
            index = len(self.events)
            while index and _position(self.events[index - 1][0]) > start:
                index -= 1
            return self.events[index:]

        if not found():
            async with self.changed:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.changed.wait_for(lambda: bool(found())), block_s)
        return found()


def _position(event_id: str) -> tuple[int, int]:
    ms, _, seq = event_id.partition("-")
    return (int(ms), int(seq or 0)) if ms.isdigit() else (0, 0)


class RedisEventLog:
    """A Redis stream `devths:run:{id}` (entry ids are the event ids) beside the owner key.

    The process producing a run also keeps its events in memory while the run lasts: its
    own readers take them from there, woken by each append, and touch Redis not at all (one
    Redis read per event per stream was a third of the server's CPU at 50 streams, and a
    blocking read per stream would hold one of the pool's connections each). A reader on
    another process (a client that reconnected elsewhere), or after the run ended, reads
    the Redis stream, blocking there."""

    def __init__(self, redis: Redis, ttl_s: int, max_events: int = 20_000) -> None:
        self.redis, self.ttl_s, self.max_events = redis, ttl_s, max_events
        self._local: dict[str, _Produced] = {}

    async def create(self, run_id: str, owner: str | None) -> None:
        try:
            await self.redis.set(f"{PREFIX}{run_id}:owner", owner or "", ex=self.ttl_s)
        except Exception as exc:
            raise redis_failure(exc, "Saving the run") from exc
        self._local[run_id] = _Produced()

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
        event_id = _text(entry)
        local = self._local.get(run_id)
        if local is not None:
            await local.add((event_id, kind, data))
            if kind == "end":
                del self._local[run_id]  # later readers: the Redis stream
        return event_id

    async def read(self, run_id: str, after: str, block_s: float) -> list[Event]:
        local = self._local.get(run_id)
        if local is None:
            return await self._blocking_read(run_id, after, block_s)
        return await local.newer(after, block_s)

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
class _Run(_Produced):
    owner: str = ""
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
        self._runs[run_id] = _Run(owner=owner or "")

    async def owner(self, run_id: str) -> str | None:
        self._expire()
        run = self._runs.get(run_id)
        return None if run is None else run.owner

    async def append(self, run_id: str, kind: str, data: Any) -> str:
        run = self._runs[run_id]
        event_id = f"{len(run.events) + 1}-0"
        run.last = time.monotonic()
        await run.add((event_id, kind, json.loads(json.dumps(data))))  # as Redis returns it
        return event_id

    async def read(self, run_id: str, after: str, block_s: float) -> list[Event]:
        run = self._runs.get(run_id)
        return [] if run is None else await run.newer(after, block_s)
