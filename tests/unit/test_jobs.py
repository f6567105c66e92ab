import asyncio

import pytest

from core.errors import InvalidInputError, NotFoundError
from core.jobs import JobRunner, JobStore


@pytest.fixture
def runner():
    return JobRunner(JobStore(None, ttl_s=60), workers=1)


async def test_a_job_reports_progress_and_its_result(runner):
    gate = asyncio.Event()

    async def work(progress):
        await progress(40)
        await gate.wait()
        return {"answer": 42}

    record = await runner.submit("ocr", work)
    await asyncio.sleep(0.01)
    mid = await runner.store.load(record["task_id"])
    assert (mid["status"], mid["progress"]) == ("processing", 40)
    gate.set()
    done = await runner.wait(record["task_id"], 5)
    assert (done["status"], done["progress"], done["result"]) == ("completed", 100, {"answer": 42})


async def test_a_failed_job_keeps_its_code_and_unknown_errors_hide_details(runner):
    async def refused(progress):
        raise InvalidInputError("bad page", code="BROKEN_PDF")

    async def crashed(progress):
        raise RuntimeError("secret internals")

    a = await runner.wait((await runner.submit("ocr", refused))["task_id"], 5)
    b = await runner.wait((await runner.submit("ocr", crashed))["task_id"], 5)
    assert a["status"] == "failed" and a["error"]["code"] == "BROKEN_PDF"
    assert b["error"] == {"code": "INTERNAL_ERROR", "message": "The job failed unexpectedly"}


async def test_the_pool_is_bounded(runner):
    running = 0
    peak = 0

    async def work(progress):
        nonlocal running, peak
        running += 1
        peak = max(peak, running)
        await asyncio.sleep(0.02)
        running -= 1
        return {}

    records = [await runner.submit("masking", work) for _ in range(4)]
    for r in records:
        assert (await runner.wait(r["task_id"], 5))["status"] == "completed"
    assert peak == 1


async def test_unknown_task_is_not_found(runner):
    with pytest.raises(NotFoundError):
        await runner.store.load("nope")
