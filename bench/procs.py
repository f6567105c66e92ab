"""Server processes for benchmarks: a free loopback port, a readiness wait, and the real
server on the simulated model as a context manager."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_ready(url: str, proc: subprocess.Popen, timeout_s: float) -> None:
    """Until `url` answers 200; fails fast when the process dies or time runs out."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited before {url} answered")
        try:
            if httpx.get(url, timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise TimeoutError(f"{url} did not answer within {timeout_s} s")


@contextlib.contextmanager
def simulated_server(
    ttft_ms: float = 600, tps: float = 28, *server_args: str, env: dict[str, str] | None = None
) -> Iterator[tuple[str, int]]:
    """Our server (real Redis from REDIS_URL) on the simulated model: (base URL, pid).
    `server_args` go to bench.sim_server (e.g. "--loop", "asyncio"); `env` adds settings."""
    port = free_port()
    cmd = [
        sys.executable,
        "-m",
        "bench.sim_server",
        "--port",
        str(port),
        "--ttft-ms",
        str(ttft_ms),
        "--tps",
        str(tps),
        *server_args,
    ]
    # Limits stay on (their Redis round trips are part of the overhead measured), sized so
    # the benchmark's one user is never refused.
    limits = {"RATE_LIMIT_PER_MINUTE": "1000000", "TOKEN_QUOTA_PER_DAY": "1000000000"}
    proc = subprocess.Popen(cmd, cwd=ROOT, env={**os.environ, **limits, **(env or {})})
    base = f"http://127.0.0.1:{port}"
    try:
        wait_ready(f"{base}/health", proc, 60)
        yield base, proc.pid
    finally:
        proc.terminate()
        proc.wait(timeout=20)
