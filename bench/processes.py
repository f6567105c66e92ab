"""More than one process: what a second worker or a second API process buys, and how long a
job whose worker died takes to finish elsewhere. Real processes on loopback, real Redis
(REDIS_URL), each run on a queue of its own.

    python -m bench.run --only processes

1. Documents per minute with 1 vs 2 worker processes (`worker.py`, JOB_WORKERS=1 each, so
   the count of processes is what changes), multi-page scanned PDFs no cache has seen.
2. Time to first token and RPS at 50 analysis streams (simulated model) with 1 vs 2
   uvicorn worker processes (WEB_CONCURRENCY).
3. A worker SIGKILLed mid-job: seconds from its death to the job's completion on the other
   worker, with the default heartbeat and sweep (JOB_HEARTBEAT_S, JOB_SWEEP_S).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import redis

from bench.overhead import level
from bench.procs import ROOT, free_port, simulated_server, wait_ready
from bench.simulated import model_alone_seconds
from core.settings import Settings
from evals.documents import render_page, to_pdf, with_noise

LOGS = Path(os.environ.get("BENCH_LOG_DIR", "/tmp/devths-bench"))


def _env(queue: str, **extra: str) -> dict[str, str]:
    env = {
        **os.environ,
        "JOB_QUEUE": queue,
        "JOB_WORKER_IN_PROCESS": "false",
        "RATE_LIMIT_PER_MINUTE": "1000000",
        "TOKEN_QUOTA_PER_DAY": "1000000000",
        "WARM_UP_ON_START": "false",
        **extra,
    }
    env.pop("AI_API_KEY", None)
    return env


def _spawn(name: str, cmd: list[str], env: dict[str, str]) -> tuple[subprocess.Popen, Path]:
    LOGS.mkdir(parents=True, exist_ok=True)
    log = LOGS / f"{name}.log"
    with log.open("w") as out:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    return proc, log


def _end(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.kill(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=40)
        except subprocess.TimeoutExpired:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)


@contextlib.contextmanager
def topology(
    workers: int, **settings: str
) -> Iterator[tuple[str, list[tuple[subprocess.Popen, str]], str]]:
    """An API server that only enqueues and `workers` worker processes on a fresh queue:
    (base URL, [(worker process, its SAQ id)], queue name)."""
    queue = f"bench-{uuid.uuid4().hex[:8]}"
    env = _env(queue, **settings)
    started: list[subprocess.Popen] = []
    try:
        port = free_port()
        api, _ = _spawn(
            "api", [sys.executable, "-m", "uvicorn", "server:app", "--port", str(port)], env
        )
        started.append(api)
        running = []
        for i in range(workers):
            proc, log = _spawn(f"worker{i}", [sys.executable, "worker.py"], env)
            started.append(proc)
            running.append((proc, log))
        base = f"http://127.0.0.1:{port}"
        wait_ready(f"{base}/health", api, 90)
        ids = [(proc, _worker_id(proc, log)) for proc, log in running]
        yield base, ids, queue
    finally:
        for proc in reversed(started):
            _end(proc)


def _worker_id(proc: subprocess.Popen, log: Path, timeout_s: float = 60) -> str:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        found = re.search(r"document worker (\S+) started", log.read_text())
        if found:
            return found.group(1)
        if proc.poll() is not None:
            raise RuntimeError(f"worker exited: {log.read_text()[-1000:]}")
        time.sleep(0.2)
    raise TimeoutError("worker did not start")


def _pdf(pages: int, seed: int) -> bytes:
    return to_pdf(
        [with_noise(render_page(person=(seed + i) % 3), 6, seed * 10 + i) for i in range(pages)]
    )


def _submit(client: httpx.Client, data: bytes) -> str:
    r = client.post(
        "/ai/ocr/extract", files={"file": ("scan.pdf", data)}, data={"user_id": "bench"}
    )
    r.raise_for_status()
    return r.json()["task_id"]


def _until_done(client: httpx.Client, task_ids: list[str], timeout_s: float) -> dict[str, float]:
    """Seconds (monotonic) at which each task was seen finished; every one must complete."""
    deadline = time.monotonic() + timeout_s
    done: dict[str, float] = {}
    while len(done) < len(task_ids) and time.monotonic() < deadline:
        for task_id in task_ids:
            if task_id in done:
                continue
            task = client.get(f"/ai/tasks/{task_id}").json()
            if task["status"] == "failed":
                raise RuntimeError(f"task failed: {task['error']}")
            if task["status"] == "completed":
                done[task_id] = time.monotonic()
        time.sleep(0.1)
    if len(done) < len(task_ids):
        raise TimeoutError(f"{len(task_ids) - len(done)} tasks unfinished after {timeout_s} s")
    return done


def documents_per_minute(docs: int = 8, pages: int = 3) -> dict[str, Any]:
    rows = []
    for workers in (1, 2):
        seed = random.randrange(10**6)
        pdfs = [_pdf(pages, seed + i * 7) for i in range(docs)]
        with (
            topology(workers, JOB_WORKERS="1") as (base, _ids, _queue),
            httpx.Client(base_url=base, timeout=120) as client,
        ):
            started = time.monotonic()
            task_ids = [_submit(client, pdf) for pdf in pdfs]
            finished = _until_done(client, task_ids, 900)
            wall = max(finished.values()) - started
        rows.append(
            {
                "workers": workers,
                "documents": docs,
                "pages_each": pages,
                "wall_s": round(wall, 1),
                "documents_per_min": round(60 * docs / wall, 2),
                "pages_per_min": round(60 * docs * pages / wall, 1),
            }
        )
    return {
        "rows": rows,
        "ratio_2_vs_1": round(rows[1]["documents_per_min"] / rows[0]["documents_per_min"], 2),
    }


def web_concurrency(streams: int = 50, rounds: int = 2) -> dict[str, Any]:
    rows = []
    model_ttft, _ = model_alone_seconds(0.6, 28)
    for workers in (1, 2):
        with simulated_server(600, 28, "--workers", str(workers)) as (base, _pid):
            row = asyncio.run(level(base, streams, rounds))
        rows.append(
            {
                "web_concurrency": workers,
                "streams": streams,
                "errors": row["errors"],
                "ttft_p50_s": round(row["ttft_p50_s"], 3),
                "added_ttft_p50_ms": round(1000 * (row["ttft_p50_s"] - model_ttft), 1),
                "total_p95_s": round(row["total_p95_s"], 3),
                "rps": round(row["rps"], 2),
            }
        )
    return {
        "rows": rows,
        "added_ttft_ratio_2_vs_1": round(
            rows[1]["added_ttft_p50_ms"] / rows[0]["added_ttft_p50_ms"], 2
        ),
        "rps_ratio_2_vs_1": round(rows[1]["rps"] / rows[0]["rps"], 2),
    }


def worker_death(trials: int = 2, pages: int = 4) -> dict[str, Any]:
    """SIGKILL the worker running a job; seconds until the other worker completed it."""
    defaults = Settings()
    rows = []
    with topology(2) as (base, workers, queue), httpx.Client(base_url=base, timeout=120) as client:
        store = redis.Redis.from_url(os.environ["REDIS_URL"])
        alive = dict((wid, proc) for proc, wid in workers)
        for trial in range(trials):
            task_id = _submit(client, _pdf(pages, random.randrange(10**6)))
            deadline = time.monotonic() + 60
            job: dict[str, Any] = {}
            while time.monotonic() < deadline:
                job = json.loads(store.get(f"saq:job:{queue}:{task_id}") or "{}")
                if job.get("status") == "active" and job.get("progress", 0) > 0:
                    break
                time.sleep(0.05)
            victim = alive.pop(job["worker_id"])
            os.kill(victim.pid, signal.SIGKILL)
            victim.wait(timeout=10)
            killed = time.monotonic()
            done = _until_done(client, [task_id], 300)[task_id]
            final = json.loads(store.get(f"saq:job:{queue}:{task_id}"))
            rows.append(
                {
                    "trial": trial + 1,
                    "death_to_completion_s": round(done - killed, 1),
                    "attempts": final["attempts"],
                    "pages": pages,
                }
            )
            # a replacement, so the next trial again has a survivor
            proc, log = _spawn(f"worker-r{trial}", [sys.executable, "worker.py"], _env(queue))
            alive[_worker_id(proc, log)] = proc
        for proc in alive.values():
            _end(proc)
    return {
        "heartbeat_s": defaults.job_heartbeat_s,
        "sweep_s": defaults.job_sweep_s,
        "rows": rows,
    }


def run() -> dict[str, Any]:
    return {
        "documents_per_minute": documents_per_minute(),
        "web_concurrency": web_concurrency(),
        "worker_death": worker_death(),
        "cpu_count": os.cpu_count(),
    }
