"""Document jobs on SAQ over a real Redis 8, in process: progress, outcomes, retries, the
bounded backlog, the sweep that rescues a dead worker's job, and a graceful stop.
(The same with real processes killed by SIGKILL: tests/integration/test_processes.py.)"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid

import pytest
from saq import Status
from saq.utils import now as saq_now

from core.errors import InvalidInputError
from core.jobs import QueueFullError, SaqJobs, register_handler, upload_key
from core.redis import create_redis
from core.settings import Settings


@pytest.fixture
async def make_jobs(redis_url):
    """SaqJobs on a queue of its own (a fresh name per test), and its workers stopped after."""
    clients, made = [], []

    def make(**overrides) -> SaqJobs:
        client = create_redis(redis_url, 32, 5)
        clients.append(client)
        settings = Settings(
            **{"redis_url": redis_url, "job_workers": 2, "job_sweep_s": 1, **overrides}
        )
        jobs = SaqJobs(client, settings, name=f"test-{uuid.uuid4().hex[:8]}")
        made.append(jobs)
        return jobs

    yield make
    for jobs in made:
        await jobs.aclose()
    for client in clients:
        await client.aclose()


@contextlib.asynccontextmanager
async def running(jobs: SaqJobs, grace_s: int | None = None):
    worker = jobs.worker(handle_signals=False)
    if grace_s is not None:
        worker._shutdown_grace_period_s = grace_s
    task = asyncio.create_task(worker.start())
    try:
        yield worker
    finally:
        await worker.stop()
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


async def test_a_job_runs_on_the_worker_with_progress_and_drops_its_upload(make_jobs):
    gate = asyncio.Event()

    async def handler(data, progress, owner):
        await progress(50)
        await gate.wait()
        return {"text": data.decode(), "owner": owner}

    register_handler("q-ok", handler)
    jobs = make_jobs()
    record = await jobs.submit("q-ok", "이력서".encode(), "pseudonym-1")
    task_id = record["task_id"]
    assert await jobs.redis.get(upload_key(task_id)) == "이력서".encode()
    async with running(jobs):
        for _ in range(100):
            mid = await jobs.load(task_id)
            if mid["progress"] == 50:
                break
            await asyncio.sleep(0.05)
        assert (mid["status"], mid["progress"], mid["result"]) == ("processing", 50, None)
        gate.set()
        done = await jobs.wait(task_id, 10)
    assert (done["status"], done["progress"]) == ("completed", 100)
    assert done["result"] == {"text": "이력서", "owner": "pseudonym-1"}
    assert await jobs.redis.get(upload_key(task_id)) is None  # personal data not kept


async def test_a_refusal_fails_at_once_and_a_crash_is_retried_then_fails(make_jobs):
    calls = {"refused": 0, "crashed": 0}

    async def refused(data, progress, owner):
        calls["refused"] += 1
        raise InvalidInputError("page 2 is not a PDF page", code="BROKEN_PDF")

    async def crashed(data, progress, owner):
        calls["crashed"] += 1
        raise RuntimeError("internals that must not leak")

    register_handler("q-refused", refused)
    register_handler("q-crashed", crashed)
    jobs = make_jobs(job_retries=3)
    async with running(jobs):
        a = await jobs.wait((await jobs.submit("q-refused", b"x", None))["task_id"], 10)
        b = await jobs.wait((await jobs.submit("q-crashed", b"x", None))["task_id"], 10)
    assert a["status"] == "failed" and a["error"]["code"] == "BROKEN_PDF"
    assert b["status"] == "failed"
    assert b["error"] == {"code": "INTERNAL_ERROR", "message": "The job failed unexpectedly"}
    assert calls == {"refused": 1, "crashed": 3}


async def test_a_full_backlog_is_503_queue_full_with_retry_after(make_jobs):
    register_handler("q-full", lambda data, progress, owner: asyncio.sleep(0, {}))
    jobs = make_jobs(job_queue_max=2, job_retry_after_s=12)
    for _ in range(2):
        await jobs.submit("q-full", b"x", None)  # no worker: they wait
    assert await jobs.depth() == 2
    with pytest.raises(QueueFullError) as full:
        await jobs.submit("q-full", b"x", None)
    assert full.value.code == "QUEUE_FULL" and full.value.status_code == 503
    assert full.value.headers == {"Retry-After": "12"}


async def test_wait_gives_the_processing_record_at_its_deadline(make_jobs):
    register_handler("q-never", lambda data, progress, owner: asyncio.sleep(0, {}))
    jobs = make_jobs()
    record = await jobs.submit("q-never", b"x", None)  # no worker runs it
    started = time.monotonic()
    waited = await jobs.wait(record["task_id"], 0.5)
    assert waited["status"] == "processing"
    assert 0.5 <= time.monotonic() - started < 3


async def test_a_dead_workers_job_is_swept_back_and_completed_by_a_live_one(make_jobs):
    """A worker that took a job and died never touches it again: a live worker's sweep
    finds the stale heartbeat, re-enqueues it, and runs it."""
    runs = []

    async def handler(data, progress, owner):
        runs.append(time.monotonic())
        return {"ok": True}

    register_handler("q-swept", handler)
    jobs = make_jobs(job_heartbeat_s=2, job_retries=3)
    record = await jobs.submit("q-swept", b"x", None)
    # What a worker does when it takes a job, then it dies before doing anything more.
    taken = await jobs.queue.dequeue(timeout=1)
    assert taken is not None and taken.key == record["task_id"]
    taken.attempts += 1
    taken.started = saq_now()
    await taken.update(status=Status.ACTIVE)
    died = time.monotonic()
    async with running(jobs):
        done = await jobs.wait(record["task_id"], 30)
    assert done["status"] == "completed" and done["result"] == {"ok": True}
    assert len(runs) == 1
    assert runs[0] - died >= 2  # not before the heartbeat went stale
    final = await jobs.queue.job(record["task_id"])
    assert final.attempts == 2


async def test_a_stopping_worker_requeues_the_job_it_cannot_finish(make_jobs):
    started = asyncio.Event()
    release = asyncio.Event()

    async def handler(data, progress, owner):
        started.set()
        await release.wait()
        return {"done": data.decode()}

    register_handler("q-stop", handler)
    jobs = make_jobs()
    record = await jobs.submit("q-stop", b"kept", None)
    async with running(jobs, grace_s=0):
        await asyncio.wait_for(started.wait(), 10)
    # Stopped with no grace: the job went back to the queue, its upload kept.
    back = await jobs.queue.job(record["task_id"])
    assert back.status == Status.QUEUED
    assert (await jobs.load(record["task_id"]))["status"] == "processing"
    assert await jobs.redis.get(upload_key(record["task_id"])) == b"kept"
    release.set()
    async with running(jobs):
        done = await jobs.wait(record["task_id"], 10)
    assert done["status"] == "completed" and done["result"] == {"done": "kept"}


async def test_a_worker_told_to_stop_hands_back_a_job_its_idle_slot_dequeues(make_jobs):
    """After the stop signal SAQ's idle slot is still blocked in its dequeue (up to a
    second); a job enqueued then must stay queued for another worker, not run here."""
    started = asyncio.Event()
    release = asyncio.Event()
    ran: list[bytes] = []

    async def handler(data, progress, owner):
        ran.append(data)
        started.set()
        await release.wait()
        return {"done": data.decode()}

    register_handler("q-handback", handler)
    jobs = make_jobs()  # two slots: one runs `first`, the other waits in its dequeue
    first = await jobs.submit("q-handback", b"first", None)
    async with running(jobs, grace_s=10) as worker:
        await asyncio.wait_for(started.wait(), 10)
        worker.event.set()  # what SIGTERM does
        second = await jobs.submit("q-handback", b"second", None)
        await asyncio.sleep(1.5)  # past the idle slot's dequeue timeout
        release.set()
    assert ran == [b"first"]
    assert (await jobs.load(first["task_id"]))["status"] == "completed"
    waiting = await jobs.queue.job(second["task_id"])
    assert (waiting.status, waiting.attempts) == (Status.QUEUED, 0)
    assert await jobs.depth() == 1
    async with running(jobs):
        done = await jobs.wait(second["task_id"], 10)
    assert done["status"] == "completed" and done["result"] == {"done": "second"}


async def test_a_task_is_read_the_same_through_another_client(make_jobs, redis_url):
    register_handler("q-shared", lambda data, progress, owner: asyncio.sleep(0, {"n": 1}))
    jobs = make_jobs()
    async with running(jobs):
        record = await jobs.submit("q-shared", b"x", "p")
        await jobs.wait(record["task_id"], 10)
    other_client = create_redis(redis_url, 4, 5)
    try:
        other = SaqJobs(other_client, jobs.settings, name=jobs.queue.name)
        seen = await other.load(record["task_id"])
    finally:
        await other_client.aclose()
    assert (seen["status"], seen["result"], seen["owner"]) == ("completed", {"n": 1}, "p")


async def test_a_live_job_behind_dead_workers_jobs_is_not_swept(make_jobs):
    """The sweep waits for each stuck job in turn; a live job judged after them must be
    judged on its current heartbeat (SAQ's own sweep swept it: see core/jobs.py)."""
    live_runs = 0

    async def quick(data, progress, owner):
        return {"rescued": True}

    async def long_running(data, progress, owner):
        nonlocal live_runs
        live_runs += 1
        await asyncio.sleep(7)
        return {"live": True}

    register_handler("q-dead", quick)
    register_handler("q-live", long_running)
    jobs = make_jobs(job_heartbeat_s=2, job_retries=3, job_workers=3)
    dead = [(await jobs.submit("q-dead", b"x", None))["task_id"] for _ in range(2)]
    for _ in dead:  # taken by workers that then died
        taken = await jobs.queue.dequeue(timeout=1)
        taken.attempts += 1
        taken.started = saq_now()
        await taken.update(status=Status.ACTIVE)
    async with running(jobs):
        live = (await jobs.submit("q-live", b"x", None))["task_id"]
        results = [await jobs.wait(task_id, 40) for task_id in [*dead, live]]
    assert [r["status"] for r in results] == ["completed"] * 3
    assert [(await jobs.queue.job(t)).attempts for t in dead] == [2, 2]
    assert (await jobs.queue.job(live)).attempts == 1 and live_runs == 1


async def test_a_job_just_taken_is_left_alone_and_one_taken_by_a_dead_worker_is_swept(make_jobs):
    """Between moving a job to the active list and marking it active a worker takes a few
    ms; a sweep in that window must not take the job away (it did: a re-run then found its
    upload deleted). A job left unmarked (its worker died in that window) is swept."""
    register_handler("q-window", lambda data, progress, owner: asyncio.sleep(0, {}))
    jobs = make_jobs(job_heartbeat_s=2)
    first = (await jobs.submit("q-window", b"x", None))["task_id"]
    taken = await jobs.queue.dequeue(timeout=1)  # in the active list, not yet marked
    sweep = asyncio.create_task(jobs.queue.sweep(lock=1))
    await asyncio.sleep(0.2)
    taken.attempts += 1
    taken.started = saq_now()
    await taken.update(status=Status.ACTIVE)  # what the live worker does next
    assert await sweep == []
    kept = await jobs.queue.job(first)
    assert (kept.status, kept.attempts) == (Status.ACTIVE, 1)

    second = (await jobs.submit("q-window", b"x", None))["task_id"]
    assert (await jobs.queue.dequeue(timeout=1)).key == second  # and its worker died
    await jobs.redis.delete(jobs.queue._sweep)  # the sweep lock of the first sweep
    swept = await jobs.queue.sweep(lock=1)
    assert swept == [jobs.queue.job_id(second)]
    assert (await jobs.queue.job(second)).status == Status.QUEUED  # back in the queue
