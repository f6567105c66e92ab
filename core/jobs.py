"""Document jobs: SAQ (a maintained job queue) over the shared Redis; in process without Redis.

With Redis, a job travels like this:
  1. the API checks the upload, stores its bytes under `devths:upload:{task_id}` (TTL
     `JOB_TTL_S`) and enqueues a SAQ job whose key is the task id (the job record holds
     only the kind and the owner's pseudonym, so its frequent rewrites stay small);
  2. any worker process dequeues it (`make worker`, or the worker inside the API when
     `JOB_WORKER_IN_PROCESS=true`), runs the handler registered for its kind and touches
     the job every `JOB_HEARTBEAT_S / 3` seconds while it runs;
  3. progress and the outcome live in SAQ's job record; `load` maps it to the contract's
     task shape, on any process.
A worker that dies stops touching its job; a sweep that any live worker runs every
`JOB_SWEEP_S` finds the stale heartbeat and re-enqueues the job (up to `JOB_RETRIES`
attempts). A worker told to stop (SIGTERM, or the API's shutdown) takes no new job and
finishes its jobs within `JOB_SHUTDOWN_GRACE_S` or re-queues them. Handlers are idempotent
by (kind, file SHA-256, settings): a re-delivered job reuses the pages already done.

The handlers are feature code: `graphs/documents.py` registers them; this module knows
only kinds.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from saq import Job, Status, Worker
from saq.queue.redis import RedisQueue
from saq.types import Context

from core.errors import AIError, NotFoundError
from core.settings import Settings
from core.telemetry import JOB_SECONDS

log = logging.getLogger(__name__)

Progress = Callable[[int], Awaitable[None]]
# (upload bytes, progress callback, owner pseudonym) -> the contract's result object
Handler = Callable[[bytes, Progress, str | None], Awaitable[dict[str, Any]]]

JOB_FUNCTION = "document_job"
# How long a sweep waits for a stuck job's worker to acknowledge its abort: a dead worker
# never does, and the sweep handles stuck jobs one after another.
ABORT_WAIT_S = 2.0
UNMARKED_GRACE_S = 1.0
_HANDLERS: dict[str, Handler] = {}
UNEXPECTED = {"code": "INTERNAL_ERROR", "message": "The job failed unexpectedly"}


def register_handler(kind: str, handler: Handler) -> None:
    """Make `kind` runnable by every job runner of this process."""
    _HANDLERS[kind] = handler


def upload_key(task_id: str) -> str:
    return f"devths:upload:{task_id}"


class QueueFullError(AIError):
    code = "QUEUE_FULL"
    status_code = 503


def _task(
    task_id: str,
    kind: str,
    owner: str | None,
    status: str,
    progress: int,
    result: dict[str, Any] | None = None,
    error: dict[str, Any] | None = None,
    attempts: int = 0,
) -> dict[str, Any]:
    """A task record: the contract's fields plus the owner and the attempts so far."""
    return {
        "task_id": task_id,
        "kind": kind,
        "status": status,
        "progress": progress,
        "result": result,
        "error": error,
        "owner": owner,
        "attempts": attempts,
    }


async def _outcome(handler: Handler, data: bytes, progress: Progress, owner: str | None) -> Any:
    """{"result": ...} or {"error": ...}: a refusal (bad page, no model) is an answer, not a
    crash to retry; anything else is raised so the queue retries it."""
    try:
        return {"result": await handler(data, progress, owner)}
    except AIError as exc:
        return {"error": exc.to_dict()["error"]}


class JobQueue(Protocol):
    async def submit(self, kind: str, data: bytes, owner: str | None) -> dict[str, Any]: ...
    async def load(self, task_id: str) -> dict[str, Any]: ...
    async def wait(self, task_id: str, timeout_s: float) -> dict[str, Any]: ...
    async def start_worker(self) -> None: ...
    async def aclose(self) -> None: ...


class _DocumentQueue(RedisQueue):
    """SAQ's Redis queue, with two changes to its dequeue:
    - while Redis is unreachable it waits a second and reports "no job" (SAQ would retry
      at once, a busy loop for the outage);
    - a job it brings once its worker is stopping is handed back to the head of the queue.
      SAQ leaves an idle slot's blocking dequeue running after the stop signal, and a job
      enqueued in that window (up to `dequeue_timeout`) was taken by a worker that was
      shutting down; CI saw it once in test_processes."""

    _outage_logged = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Set by the worker that dequeues from this queue (see _DocumentWorker).
        self.stopping: Callable[[], bool] = lambda: False

    async def dequeue(
        self,
        timeout: float = 0.0,  # noqa: ASYNC109 (SAQ's signature)
        poll_interval: float = 0.0,
    ) -> Job | None:
        try:
            job = await super().dequeue(timeout, poll_interval)
        except (RedisConnectionError, RedisTimeoutError) as exc:
            if not self._outage_logged:
                log.warning("job queue: Redis unreachable (%s); retrying", type(exc).__name__)
                self._outage_logged = True
            await asyncio.sleep(1.0)
            return None
        self._outage_logged = False
        if job is not None and self.stopping():
            await self._hand_back(job.id)
            return None
        return job

    async def _hand_back(self, job_id: str) -> None:
        """Undo a dequeue before the job was marked active: its id goes from the active
        list back to the head of the queue, in one transaction (its record still reads
        "queued", so nothing else changes)."""
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.lrem(self._active, 1, job_id)
            pipe.lpush(self._queued, job_id)
            await pipe.execute()
        log.info("job %s: taken while its worker was stopping; handed back", job_id)

    async def sweep(self, lock: int = 60, abort: float = ABORT_WAIT_S) -> list[str]:
        """Rescue the jobs of dead workers: SAQ's sweep, with each job judged on a fresh read.

        SAQ 0.26.4 reads every active job once, then handles the stuck ones in turn, waiting
        up to `abort` seconds for each. A live job further down the list was then judged on
        a heartbeat read that many seconds earlier and swept while it ran: with two dead
        workers' jobs ahead of it and a 3 s heartbeat, our SIGKILL test saw live jobs
        aborted and one end ABORTED. Only one worker sweeps per `lock` seconds (SAQ's
        key)."""
        if not await self.redis.set(self._sweep, 1, ex=lock, nx=True):
            return []
        swept: list[str] = []
        ids = await self._active_ids()
        # A job a live worker has just moved to the active list is not marked active yet
        # (a few ms): such a job is only swept if it is still unmarked a moment later.
        unmarked = {
            i for i, job in zip(ids, await self._jobs_by_id(ids), strict=True) if _unmarked(job)
        }
        if unmarked:
            await asyncio.sleep(UNMARKED_GRACE_S)
        for job_id in ids:
            job = await self._get_job_by_id(job_id)  # now, not at the start of the sweep
            if job is None:  # a record gone with its TTL: drop the dangling id
                await self.redis.lrem(self._active, 0, job_id)
                await self.redis.zrem(self._incomplete, job_id)
                swept.append(job_id)
                continue
            if job.status == Status.ACTIVE and not job.stuck:
                continue
            if _unmarked(job) and (
                job_id not in unmarked or job_id not in await self._active_ids()
            ):
                continue  # just taken (or put back) by a live worker
            log.info("job %s: worker gone or stuck (attempt %d); sweeping", job.key, job.attempts)
            swept.append(job_id)
            await self.abort(job, error=self.swept_error_message)
            with contextlib.suppress(TimeoutError):
                await job.refresh(abort)  # a live but stuck worker acknowledges the abort
            if job.retryable:
                await self.retry(job, error=self.swept_error_message)
            else:
                await self.finish(job, Status.ABORTED, error=self.swept_error_message)
        return swept

    async def _active_ids(self) -> list[str]:
        ids = await self.redis.lrange(self._active, 0, -1)  # type: ignore[misc]
        return [i.decode() if isinstance(i, bytes) else str(i) for i in ids]

    async def _jobs_by_id(self, ids: list[str]) -> list[Job | None]:
        return [await self._get_job_by_id(i) for i in ids]


HEARTBEAT_STOP_S = 1.0


async def heartbeat(job: Job, stop: asyncio.Event, heartbeat_s: float) -> None:
    """Touch the job (its worker is alive) every third of its heartbeat until `stop`."""
    every = max(0.5, heartbeat_s / 3)
    while not stop.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), every)
            return
        try:
            await job.update()
        except (RedisConnectionError, RedisTimeoutError):
            log.warning("job %s: heartbeat missed (Redis unreachable)", job.key)


async def stop_heartbeat(beat: asyncio.Task[None], stop: asyncio.Event) -> None:
    """End a job's heartbeat without ever waiting on it for long. A cancel alone is not
    enough if it can be lost: one turned into a Redis error inside a call (as a socket
    timeout firing at the same moment may) leaves the loop running, and awaiting the task
    then holds a finished job as "processing" for good, touched all the while so no sweep
    takes it. CI saw a job stuck so once (its results were cached, its record stayed
    "processing" until its worker died); this await is the one in a job's tail that can
    wait forever, the likely cause. The event ends the loop; the wait is bounded."""
    stop.set()
    beat.cancel()
    done, _ = await asyncio.wait({beat}, timeout=HEARTBEAT_STOP_S)
    for task in done:
        if not task.cancelled():
            task.exception()  # retrieved, not raised: the job's own outcome stands


def _unmarked(job: Job | None) -> bool:
    """In the active list but not (or no longer) marked active by a worker."""
    return job is not None and job.status != Status.ACTIVE


class _DocumentWorker(Worker):
    """SAQ's worker; once told to stop (its event set, by a signal or `stop`) it takes no
    new job, and stopping ends its upkeep loops at once instead of waiting out their sleep
    (up to the 10 s worker-info timer) inside the jobs' grace period."""

    def __init__(self, queue: _DocumentQueue, **kwargs: Any) -> None:
        super().__init__(queue, **kwargs)
        queue.stopping = lambda: self.event.is_set()

    async def stop(self) -> None:
        self.event.set()
        for task in list(self.tasks):
            if task.get_name() != "process":
                task.cancel()
        await super().stop()


class SaqJobs:
    """Jobs on SAQ: enqueue here, run by any worker process sharing the Redis."""

    def __init__(self, redis: Redis, settings: Settings, name: str | None = None) -> None:
        self.redis = redis
        self.settings = settings
        self.queue = _DocumentQueue(
            redis, name=name or settings.job_queue, dump=lambda d: json.dumps(d, ensure_ascii=False)
        )
        self._worker: Worker | None = None
        self._worker_task: asyncio.Task[None] | None = None

    async def depth(self) -> int:
        """Jobs waiting for a worker (not counting the ones running)."""
        return await self.queue.count("queued")

    async def submit(self, kind: str, data: bytes, owner: str | None) -> dict[str, Any]:
        s = self.settings
        if s.job_queue_max and await self.depth() >= s.job_queue_max:
            raise QueueFullError(
                f"The document-job backlog is full ({s.job_queue_max} waiting)",
                retry_after_s=s.job_retry_after_s,
            )
        task_id = uuid.uuid4().hex
        await self.redis.set(upload_key(task_id), data, ex=s.job_ttl_s)
        job = Job(
            function=JOB_FUNCTION,
            kwargs={"kind": kind},
            key=task_id,
            timeout=s.job_timeout_s,
            heartbeat=s.job_heartbeat_s,
            retries=s.job_retries,
            ttl=s.job_ttl_s,
            meta={"kind": kind, "owner": owner},
        )
        await self.queue.enqueue(job)
        return _task(task_id, kind, owner, "processing", 0)

    async def load(self, task_id: str) -> dict[str, Any]:
        job = await self.queue.job(task_id)
        if job is None:
            raise NotFoundError(f"No task {task_id}", field="task_id", code="TASK_NOT_FOUND")
        kind, owner = job.meta.get("kind", ""), job.meta.get("owner")
        progress = min(99, int(job.progress * 100))
        if job.status == Status.COMPLETE:
            outcome = job.result or {}
            if "error" in outcome:
                return _task(task_id, kind, owner, "failed", progress, None, outcome["error"])
            return _task(task_id, kind, owner, "completed", 100, outcome.get("result"))
        if job.status == Status.FAILED:
            return _task(task_id, kind, owner, "failed", progress, None, UNEXPECTED)
        if job.status == Status.ABORTED:
            error = {"code": "JOB_INTERRUPTED", "message": "The job was interrupted too often"}
            return _task(task_id, kind, owner, "failed", progress, None, error)
        return _task(task_id, kind, owner, "processing", progress, attempts=job.attempts)

    async def wait(self, task_id: str, timeout_s: float) -> dict[str, Any]:
        """The record once the job has finished, or as it is at the deadline. Polls the
        small record (the result is only written at the end): no pub/sub connection."""
        deadline = time.monotonic() + timeout_s
        pause = 0.05
        while True:
            record = await self.load(task_id)
            left = deadline - time.monotonic()
            if record["status"] != "processing" or left <= 0:
                return record
            await asyncio.sleep(min(pause, left))
            pause = min(pause * 1.5, 1.0)

    def worker(self, *, handle_signals: bool) -> Worker:
        """A SAQ worker for this queue: `JOB_WORKERS` jobs at once. `handle_signals` only
        in a process of its own (inside the API, uvicorn owns SIGTERM)."""
        s = self.settings
        worker = _DocumentWorker(
            self.queue,
            functions=[(JOB_FUNCTION, self._run)],
            concurrency=s.job_workers,
            timers={"sweep": s.job_sweep_s, "schedule": 5, "abort": 1, "worker_info": 10},
            # A bounded dequeue, so a stopping worker's idle slots end within a second.
            dequeue_timeout=1.0,
            shutdown_grace_period_s=s.job_shutdown_grace_s,
            after_process=self._forget_upload,
        )
        if not handle_signals:
            worker.SIGNALS = []
        return worker

    async def _run(self, ctx: Context, *, kind: str) -> dict[str, Any]:
        job = ctx["job"]
        JOB_SECONDS.labels(kind, "queue_wait").observe(max(0, job.started - job.queued) / 1000)
        handler = _HANDLERS.get(kind)
        data: bytes | None = await self.redis.get(upload_key(job.key))  # type: ignore[assignment]
        if handler is None or data is None:
            gone = "UNKNOWN_JOB_KIND" if handler is None else "UPLOAD_EXPIRED"
            return {"error": {"code": gone, "message": f"The job cannot run ({gone.lower()})"}}

        async def progress(percent: int) -> None:
            await job.update(progress=max(0, min(99, percent)) / 100)

        stop = asyncio.Event()
        beat = asyncio.create_task(heartbeat(job, stop, self.settings.job_heartbeat_s))
        started = time.perf_counter()
        try:
            return await _outcome(handler, data, progress, job.meta.get("owner"))
        finally:
            await stop_heartbeat(beat, stop)
            JOB_SECONDS.labels(kind, "run").observe(time.perf_counter() - started)

    async def _forget_upload(self, ctx: Context) -> None:
        """A finished job's upload is deleted at once (it is personal data); a re-queued
        or aborted one keeps it (a sweep re-queues an aborted job right after) until its
        TTL."""
        job = ctx.get("job")
        if job is not None and job.status in (Status.COMPLETE, Status.FAILED):
            await self.redis.delete(upload_key(job.key))

    async def start_worker(self) -> None:
        """Run a worker inside this process (JOB_WORKER_IN_PROCESS)."""
        if self._worker is None:
            self._worker = self.worker(handle_signals=False)
            self._worker_task = asyncio.create_task(self._worker.start(), name="job-worker")

    async def aclose(self) -> None:
        """Stop the in-process worker: its jobs finish within the grace period or go back
        to the queue; none is left looking "processing" with nobody on it."""
        if self._worker is not None:
            await self._worker.stop()
            if self._worker_task is not None:
                self._worker_task.cancel()
                await asyncio.gather(self._worker_task, return_exceptions=True)
            self._worker = None
        await self.queue._pubsub.close()


class LocalJobs:
    """Without Redis (degraded mode, unit tests): jobs are tasks of this process, at most
    `JOB_WORKERS` at once, records in a dict. Nothing survives the process."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.slots = asyncio.Semaphore(settings.job_workers)
        self._records: dict[str, dict[str, Any]] = {}
        self._running: dict[str, asyncio.Task[None]] = {}

    async def submit(self, kind: str, data: bytes, owner: str | None) -> dict[str, Any]:
        s = self.settings
        waiting = sum(1 for r in self._records.values() if r["status"] == "processing")
        if s.job_queue_max and waiting >= s.job_queue_max:
            raise QueueFullError(
                f"The document-job backlog is full ({s.job_queue_max} waiting)",
                retry_after_s=s.job_retry_after_s,
            )
        task_id = uuid.uuid4().hex
        record = _task(task_id, kind, owner, "processing", 0)
        self._records[task_id] = record
        task = asyncio.create_task(self._run(record, data), name=f"job-{kind}-{task_id}")
        self._running[task_id] = task
        task.add_done_callback(lambda _: self._running.pop(task_id, None))
        return dict(record)

    async def _run(self, record: dict[str, Any], data: bytes) -> None:
        async def progress(percent: int) -> None:
            record["progress"] = max(0, min(99, percent))

        handler = _HANDLERS[record["kind"]]
        async with self.slots:
            started = time.perf_counter()
            try:
                outcome = await _outcome(handler, data, progress, record["owner"])
            except Exception:
                log.exception("job %s (%s) failed", record["task_id"], record["kind"])
                outcome = {"error": UNEXPECTED}
            JOB_SECONDS.labels(record["kind"], "run").observe(time.perf_counter() - started)
        if "error" in outcome:
            record.update(status="failed", error=outcome["error"])
        else:
            record.update(status="completed", progress=100, result=outcome["result"])

    async def load(self, task_id: str) -> dict[str, Any]:
        record = self._records.get(task_id)
        if record is None:
            raise NotFoundError(f"No task {task_id}", field="task_id", code="TASK_NOT_FOUND")
        return dict(record)

    async def wait(self, task_id: str, timeout_s: float) -> dict[str, Any]:
        task = self._running.get(task_id)
        if task is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(task), timeout_s)
        return await self.load(task_id)

    async def start_worker(self) -> None:
        """Jobs already run in this process."""

    async def aclose(self) -> None:
        for task in list(self._running.values()):
            task.cancel()
        await asyncio.gather(*self._running.values(), return_exceptions=True)
