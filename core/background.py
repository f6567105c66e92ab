"""Keyed background work that outlives the request that started it (e.g. prefetching the
next interview question while the candidate is answering).

One task per key: asking again for a key that is still running returns the running task,
so a retry never doubles the model calls. Results go wherever the work puts them (Redis);
this registry only lets a later request in the same process wait for work in flight, and
cancels what is left on shutdown.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections.abc import Callable, Coroutine
from typing import Any

log = logging.getLogger(__name__)


class BackgroundTasks:
    def __init__(self, limit: int = 256) -> None:
        self.limit = limit
        self._tasks: dict[str, asyncio.Task[Any]] = {}

    def spawn(
        self, key: str, work: Callable[[], Coroutine[Any, Any, Any]]
    ) -> asyncio.Task[Any] | None:
        """Start `work()` under `key` unless it is already running; None when full (the
        caller then simply does the work on demand later)."""
        running = self._tasks.get(key)
        if running is not None and not running.done():
            return running
        if len(self._tasks) >= self.limit:
            return None
        # An empty context: the work belongs to no request (its log line, its trace and its
        # model-call count have ended with it).
        task: asyncio.Task[Any] = asyncio.get_running_loop().create_task(
            work(), context=contextvars.Context()
        )
        self._tasks[key] = task
        task.add_done_callback(lambda t: self._finished(key, t))
        return task

    def _finished(self, key: str, task: asyncio.Task[Any]) -> None:
        if self._tasks.get(key) is task:
            del self._tasks[key]
        if not task.cancelled() and task.exception() is not None:
            exc = task.exception()
            log.warning("background task failed: %s: %s", type(exc).__name__, exc)

    def running(self, key: str) -> asyncio.Task[Any] | None:
        task = self._tasks.get(key)
        return task if task is not None and not task.done() else None

    async def drain(self) -> None:
        """Wait for everything in flight (tests, benchmarks); failures are only logged."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)

    async def aclose(self) -> None:
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._tasks.clear()
