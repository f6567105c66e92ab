"""Jobs without Redis (degraded mode): LocalJobs runs registered handlers in process.
The Redis path (SAQ) is tested on a real Redis in tests/integration/test_job_queue.py."""

import asyncio

import pytest

from core.errors import InvalidInputError, NotFoundError
from core.jobs import LocalJobs, QueueFullError, register_handler
from core.settings import Settings


def local_jobs(**overrides) -> LocalJobs:
    return LocalJobs(Settings(job_workers=1, **overrides))


async def test_a_job_reports_progress_and_its_result():
    gate = asyncio.Event()

    async def handler(data, progress, owner):
        await progress(40)
        await gate.wait()
        return {"answer": data.decode(), "owner": owner}

    register_handler("t-progress", handler)
    jobs = local_jobs()
    record = await jobs.submit("t-progress", b"42", "owner-x")
    await asyncio.sleep(0.01)
    mid = await jobs.load(record["task_id"])
    assert (mid["status"], mid["progress"]) == ("processing", 40)
    gate.set()
    done = await jobs.wait(record["task_id"], 5)
    assert (done["status"], done["progress"]) == ("completed", 100)
    assert done["result"] == {"answer": "42", "owner": "owner-x"}


async def test_a_failed_job_keeps_its_code_and_unknown_errors_hide_details():
    async def refused(data, progress, owner):
        raise InvalidInputError("bad page", code="BROKEN_PDF")

    async def crashed(data, progress, owner):
        raise RuntimeError("secret internals")

    register_handler("t-refused", refused)
    register_handler("t-crashed", crashed)
    jobs = local_jobs()
    a = await jobs.wait((await jobs.submit("t-refused", b"", None))["task_id"], 5)
    b = await jobs.wait((await jobs.submit("t-crashed", b"", None))["task_id"], 5)
    assert a["status"] == "failed" and a["error"]["code"] == "BROKEN_PDF"
    assert b["error"] == {"code": "INTERNAL_ERROR", "message": "The job failed unexpectedly"}


async def test_the_pool_is_bounded_and_the_backlog_too():
    running = peak = 0
    gate = asyncio.Event()

    async def work(data, progress, owner):
        nonlocal running, peak
        running += 1
        peak = max(peak, running)
        await gate.wait()
        running -= 1
        return {}

    register_handler("t-pool", work)
    jobs = local_jobs(job_queue_max=3, job_retry_after_s=7)
    records = [await jobs.submit("t-pool", b"", None) for _ in range(3)]
    with pytest.raises(QueueFullError) as full:
        await jobs.submit("t-pool", b"", None)
    assert full.value.status_code == 503 and full.value.headers == {"Retry-After": "7"}
    gate.set()
    for r in records:
        assert (await jobs.wait(r["task_id"], 5))["status"] == "completed"
    assert peak == 1
    assert (await jobs.submit("t-pool", b"", None))["status"] == "processing"  # room again


async def test_wait_returns_the_unfinished_record_at_its_deadline():
    async def slow(data, progress, owner):
        await asyncio.sleep(5)
        return {}

    register_handler("t-slow", slow)
    jobs = local_jobs()
    record = await jobs.submit("t-slow", b"", None)
    waited = await jobs.wait(record["task_id"], 0.05)
    assert waited["status"] == "processing"
    await jobs.aclose()


async def test_unknown_task_is_not_found():
    with pytest.raises(NotFoundError) as missing:
        await local_jobs().load("nope")
    assert missing.value.code == "TASK_NOT_FOUND"


class _StubbornJob:
    """A job whose update swallows a cancel, as a Redis call can when its timeout fires
    at the same moment (the cancel comes out as a Redis TimeoutError)."""

    key = "stubborn"

    def __init__(self) -> None:
        self.updates = 0

    async def update(self) -> None:
        from redis.exceptions import TimeoutError as RedisTimeoutError

        self.updates += 1
        try:
            await asyncio.sleep(0.05)
        except asyncio.CancelledError:
            raise RedisTimeoutError("timed out") from None


async def test_a_heartbeat_that_swallows_its_cancel_still_stops_and_never_holds_the_job():
    from core.jobs import heartbeat, stop_heartbeat

    job = _StubbornJob()
    stop = asyncio.Event()
    beat = asyncio.create_task(heartbeat(job, stop, 1.5))  # touches every 0.5 s
    await asyncio.sleep(0.52)  # inside an update now
    assert job.updates == 1
    started = asyncio.get_running_loop().time()
    await stop_heartbeat(beat, stop)
    assert asyncio.get_running_loop().time() - started < 1.0
    await asyncio.sleep(0.1)
    assert beat.done()  # the loop ended: no update after the stop
    assert job.updates == 1
