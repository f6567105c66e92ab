"""The document worker: a second entry point beside `server.py`. It runs the same graphs
(OCR, masking) on jobs from the queue in Redis; start as many as the load needs, on any
machine that reaches the Redis (`make worker`, or `python worker.py`).

Same settings as the server (REDIS_URL, model settings, JOB_*). SIGTERM or Ctrl-C: the
worker takes no new job, finishes its jobs within JOB_SHUTDOWN_GRACE_S, re-queues the rest.
"""

from __future__ import annotations

import asyncio
import logging
import sys

import graphs.documents  # noqa: F401  (registers the OCR and masking job handlers)
from core.errors import DependencyError
from core.jobs import SaqJobs
from core.services import create_services, set_services
from core.settings import get_settings
from core.telemetry import configure_logging, configure_tracing

log = logging.getLogger("devths.worker")


async def run_worker() -> None:
    settings = get_settings()
    if not settings.redis_url:
        raise DependencyError("The worker needs REDIS_URL: jobs come from the queue in Redis")
    configure_tracing(settings)
    services = await create_services(settings)
    set_services(services)
    assert isinstance(services.jobs, SaqJobs)
    worker = services.jobs.worker(handle_signals=True)
    log.info("document worker %s started (%d jobs at once)", worker.id, settings.job_workers)
    try:
        await worker.start()  # returns after SIGTERM/SIGINT, once its jobs are settled
    finally:
        await services.aclose()
        set_services(None)
        log.info("document worker %s stopped", worker.id)


def main() -> None:
    configure_logging()
    try:
        asyncio.run(run_worker())
    except DependencyError as exc:
        sys.exit(f"worker: {exc.message}")


if __name__ == "__main__":
    main()
