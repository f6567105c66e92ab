"""Asynchronous jobs: records in Redis (or in process), a bounded pool of workers.

A job is a coroutine started by the server on behalf of a request; it keeps running when
the client goes away. Its record (status, progress, result or error) lives under
`devths:task:{id}` with a TTL. Failures are recorded with the error's code and message;
nothing is raised into the void.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from redis.asyncio import Redis

from core.errors import AIError, NotFoundError
from core.telemetry import JOB_SECONDS

log = logging.getLogger(__name__)
Progress = Callable[[int], Awaitable[None]]


class JobStore:
    """Task records; Redis when a client is given, else a dict (degraded mode, tests)."""

    def __init__(self, redis: Redis | None, ttl_s: int) -> None:
        self.redis = redis
        self.ttl_s = ttl_s
        self._local: dict[str, str] = {}

    @staticmethod
    def key(task_id: str) -> str:
        return f"devths:task:{task_id}"

    async def save(self, record: dict[str, Any]) -> None:
        raw = json.dumps(record, ensure_ascii=False)
        if self.redis is None:
            self._local[record["task_id"]] = raw
        else:
            await self.redis.set(self.key(record["task_id"]), raw, ex=self.ttl_s)

    async def load(self, task_id: str) -> dict[str, Any]:
        raw: str | bytes | None
        if self.redis is None:
            raw = self._local.get(task_id)
        else:
            raw = await self.redis.get(self.key(task_id))
        if raw is None:
            raise NotFoundError(f"No task {task_id}", field="task_id", code="TASK_NOT_FOUND")
        return json.loads(raw)

    async def update(self, task_id: str, **changes: Any) -> dict[str, Any]:
        record = await self.load(task_id)
        record.update(changes, updated_at=time.time())
        await self.save(record)
        return record


class JobRunner:
    def __init__(self, store: JobStore, workers: int) -> None:
        self.store = store
        self.slots = asyncio.Semaphore(workers)
        self._running: set[asyncio.Task[None]] = set()
        self._done: dict[str, asyncio.Event] = {}

    async def submit(
        self,
        kind: str,
        work: Callable[[Progress], Awaitable[dict[str, Any]]],
        owner: str | None = None,
    ) -> dict[str, Any]:
        """Record the job (with the uploader's user id as `owner`) and start it."""
        task_id = uuid.uuid4().hex
        now = time.time()
        record = {
            "task_id": task_id,
            "kind": kind,
            "owner": owner,
            "status": "processing",
            "progress": 0,
            "result": None,
            "error": None,
            "created_at": now,
            "updated_at": now,
        }
        await self.store.save(record)
        self._done[task_id] = asyncio.Event()
        task = asyncio.create_task(self._run(task_id, kind, work), name=f"job-{kind}-{task_id}")
        self._running.add(task)
        task.add_done_callback(self._running.discard)
        return record

    async def _run(
        self, task_id: str, kind: str, work: Callable[[Progress], Awaitable[dict[str, Any]]]
    ) -> None:
        queued = time.perf_counter()
        try:
            async with self.slots:
                JOB_SECONDS.labels(kind, "queue_wait").observe(time.perf_counter() - queued)
                started = time.perf_counter()

                async def progress(percent: int) -> None:
                    await self.store.update(task_id, progress=max(0, min(99, percent)))

                try:
                    result = await work(progress)
                except AIError as exc:
                    await self.store.update(task_id, status="failed", error=exc.to_dict()["error"])
                except Exception:
                    log.exception("job %s (%s) failed", task_id, kind)
                    await self.store.update(
                        task_id,
                        status="failed",
                        error={"code": "INTERNAL_ERROR", "message": "The job failed unexpectedly"},
                    )
                else:
                    await self.store.update(
                        task_id, status="completed", progress=100, result=result
                    )
                JOB_SECONDS.labels(kind, "run").observe(time.perf_counter() - started)
        finally:
            done = self._done.pop(task_id, None)
            if done is not None:
                done.set()

    async def wait(self, task_id: str, timeout_s: float) -> dict[str, Any]:
        """The record once the job has finished (or as it is at the deadline)."""
        done = self._done.get(task_id)
        if done is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(done.wait(), timeout_s)
        return await self.store.load(task_id)

    async def aclose(self) -> None:
        for task in list(self._running):
            task.cancel()
        await asyncio.gather(*self._running, return_exceptions=True)
