"""Integration fixtures: a real Redis 8 (RedisJSON + RediSearch) and real servers.

Nothing here skips: when a real part is missing, the tests fail and say what is missing.
"""

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
import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.integration


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def redis_url() -> str:
    """TEST_REDIS_URL (set by `make test`), else the local Redis 8 launcher."""
    url = os.environ.get("TEST_REDIS_URL")
    if url:
        return url
    out = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "local_redis.py"), "start"],
        check=True,
        capture_output=True,
        text=True,
    )
    return out.stdout.strip()


def wait_http(url: str, timeout_s: float, proc: subprocess.Popen | None = None) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"process exited with {proc.returncode} before {url} answered")
        try:
            if httpx.get(url, timeout=1).status_code < 500:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.3)
    raise TimeoutError(f"{url} did not answer within {timeout_s} s")


@contextlib.contextmanager
def running_process(
    cmd: list[str],
    env: dict[str, str],
    log_path: Path,
    ready_path: str,
    port: int,
    timeout_s: float,
) -> Iterator[str]:
    """Start a server process, wait until `ready_path` answers, yield its base URL, stop it."""
    with log_path.open("w") as log:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        base = f"http://127.0.0.1:{port}"
        try:
            wait_http(f"{base}{ready_path}", timeout_s, proc)
            yield base
        finally:
            proc.terminate()
            proc.wait(timeout=30)


def serve_app(
    redis_url: str, log_path: Path, **environment: str
) -> contextlib.AbstractContextManager[str]:
    """`uvicorn server:app` as a real process on real Redis (embedded defaults unless
    `environment` says otherwise); a context manager yielding its base URL."""
    port = free_port()
    env = {**os.environ, "REDIS_URL": redis_url, "HOST": "127.0.0.1", "PORT": str(port)}
    env.pop("AI_API_KEY", None)
    # Limits stay on, sized so tests that are not about them (and reuse users across runs
    # on a persistent Redis) are never refused; tests/integration/test_abuse.py sets its own.
    env.update(RATE_LIMIT_PER_MINUTE="100000", TOKEN_QUOTA_PER_DAY="1000000000")
    env.update(environment)
    cmd = [sys.executable, "-m", "uvicorn", "server:app", "--port", str(port), "--no-access-log"]
    return running_process(cmd, env, log_path, "/health", port, 60)


@contextlib.contextmanager
def serve_apps(redis_url: str, logs: Path, count: int, **environment: str) -> Iterator[list[str]]:
    """`count` servers (`serve_app`) on one Redis, each with its own log and Chroma
    directory under `logs`: their base URLs."""
    with contextlib.ExitStack() as stack:
        yield [
            stack.enter_context(
                serve_app(
                    redis_url,
                    logs / f"server{i}.log",
                    CHROMA_PATH=str(logs / f"chroma{i}"),
                    **environment,
                )
            )
            for i in range(count)
        ]


@pytest.fixture(scope="session")
def live_server(redis_url: str, tmp_path_factory) -> Iterator[str]:
    """`uvicorn server:app` as a real process on real Redis and the embedded local model."""
    with serve_app(redis_url, tmp_path_factory.mktemp("server") / "server.log") as base:
        yield base
