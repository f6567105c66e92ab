"""Graceful stop on a real process: SIGTERM stops accepting, streams in flight may finish
within `--timeout-graceful-shutdown`, a stream still running then ends with the contract's
`event: error` `SERVER_SHUTTING_DOWN` (not a cut connection), and the process exits.

The server is the real app on real Redis, started through uvicorn's own command line; only
the chat model is the bench's simulated one (deterministic pace, no CPU), paced by the
message: a "[slow]" question streams for far longer than the grace period, others finish
well within it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field

import httpx
import pytest

from tests.integration.conftest import ROOT, free_port, wait_http
from tests.unit.test_server import sse_events

pytestmark = pytest.mark.integration
GRACE_S = 3
SLOW_TPS, FAST_TPS = 1.0, 10.0  # tokens per second; the simulated answer is 9 tokens

# `python -m uvicorn server:app ...`, with the chat model swapped before uvicorn starts.
LAUNCHER = f"""
import sys

import uvicorn.main

import server
from bench.simulated import SimulatedChatModel
from core.models import ModelRegistry


class PacedModel(SimulatedChatModel):
    async def _astream(self, messages, stop=None, run_manager=None, **kwargs):
        slow = any("[slow]" in m.text for m in messages)
        pace = SimulatedChatModel(ttft_s=0.1, tokens_per_s={SLOW_TPS} if slow else {FAST_TPS})
        async for chunk in pace._astream(messages, stop, run_manager, **kwargs):
            yield chunk


real_create = server.create_services


async def paced_services(settings):
    services = await real_create(settings)
    services.models = ModelRegistry(settings, {{"*": PacedModel(ttft_s=0.1)}})
    return services


server.create_services = paced_services  # the lifespan looks it up at start-up
sys.argv = ["uvicorn", *sys.argv[1:]]
uvicorn.main.main()
"""


@dataclass
class Stream:
    """One `/ai/chat/stream_events` call read on a thread: each SSE event with the
    monotonic time it arrived, and how the body ended."""

    base: str
    message: str
    events: list[tuple[float, str, str]] = field(default_factory=list)
    started: threading.Event = field(default_factory=threading.Event)
    first_token: threading.Event = field(default_factory=threading.Event)
    ended_at: float | None = None
    failure: BaseException | None = None

    def start(self) -> threading.Thread:
        thread = threading.Thread(target=self._read, daemon=True)
        thread.start()
        return thread

    def _read(self) -> None:
        room = f"r{uuid.uuid4().hex[:10]}"
        body = {
            "input": {"user_id": "graceful", "room_id": room, "message": self.message},
            "version": "v2",
        }
        buffer = ""
        try:
            with (
                httpx.Client(base_url=self.base, timeout=60) as client,
                client.stream("POST", "/ai/chat/stream_events", json=body) as response,
            ):
                assert response.status_code == 200, response.read()
                for text in response.iter_text():
                    buffer += text.replace("\r\n", "\n")
                    while "\n\n" in buffer:
                        block, buffer = buffer.split("\n\n", 1)
                        for kind, data in sse_events(block + "\n\n"):
                            self.events.append((time.monotonic(), kind, data))
                            self.started.set()
                            if '"on_chat_model_stream"' in data:
                                self.first_token.set()
        except BaseException as exc:  # a cut connection shows here (RemoteProtocolError)
            self.failure = exc
        finally:
            self.ended_at = time.monotonic()
            self.started.set()
            self.first_token.set()

    def kinds(self) -> list[str]:
        return [kind for _, kind, _ in self.events]

    def tokens_after(self, moment: float) -> int:
        return sum(
            1 for at, _, data in self.events if at > moment and "on_chat_model_stream" in data
        )


def refused(base: str) -> bool:
    try:
        httpx.get(f"{base}/health", timeout=1)
    except httpx.TransportError:  # refused, reset or no answer
        return True
    return False


def test_sigterm_lets_streams_finish_within_the_grace_period_then_ends_them(redis_url, tmp_path):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {**os.environ, "REDIS_URL": redis_url, "HOST": "127.0.0.1", "PORT": str(port)}
    env.pop("AI_API_KEY", None)
    env.update(
        RATE_LIMIT_PER_MINUTE="100000",
        TOKEN_QUOTA_PER_DAY="1000000000",
        WARM_UP_ON_START="false",
        CHROMA_PATH=str(tmp_path / "chroma"),
    )
    cmd = [
        sys.executable,
        "-c",
        LAUNCHER,
        "server:app",
        "--port",
        str(port),
        "--timeout-graceful-shutdown",
        str(GRACE_S),
        "--no-access-log",
    ]
    log_path = tmp_path / "server.log"
    tag = uuid.uuid4().hex[:8]  # fresh questions: no answer cache hit on a reused Redis
    with log_path.open("w") as log:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            wait_http(f"{base}/health", 60, proc)
            # Before the stop: a fast answer streams to its end (and warms the graph up).
            warm = Stream(base, f"면접 준비는 어떻게 하면 좋아? {tag}-warm")
            warm.start().join(30)
            assert warm.failure is None and warm.kinds()[-1] == "end", warm.kinds()
            fast_s = warm.ended_at - warm.events[0][0]

            long = Stream(base, f"코딩테스트 공부는 어떤 순서로 하면 좋아? [slow] {tag}")
            long_thread = long.start()
            assert long.first_token.wait(30) and long.failure is None
            short = Stream(base, f"포트폴리오 준비는 어떻게 하면 좋아? {tag}")
            short_thread = short.start()
            assert short.started.wait(30) and short.failure is None

            os.kill(proc.pid, signal.SIGTERM)
            sigterm_at = time.monotonic()
            time.sleep(0.5)
            refused_new = refused(base)
            refused_at = time.monotonic() - sigterm_at

            short_thread.join(GRACE_S + 10)
            long_thread.join(GRACE_S + 10)
            proc.wait(timeout=GRACE_S + 15)
            exited_at = time.monotonic() - sigterm_at
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait(timeout=30)

    server_log = log_path.read_text()
    short_end = short.ended_at - sigterm_at
    long_end = long.ended_at - sigterm_at
    print(
        f"\nfast answer alone {fast_s:.2f}s; after SIGTERM: new connection refused "
        f"{refused_new} at {refused_at:.2f}s, short stream ended {short_end:.2f}s, long "
        f"stream ended {long_end:.2f}s ({long.tokens_after(sigterm_at)} tokens after "
        f"SIGTERM), process exited {exited_at:.2f}s, returncode {proc.returncode}"
    )
    # (a) no new connections once SIGTERM arrived
    assert refused_new, server_log
    # (c) the short stream was in flight at SIGTERM and finished normally
    assert short.failure is None, (short.failure, server_log)
    assert short_end > 0 and short.kinds()[-1] == "end", short.kinds()
    assert "error" not in short.kinds()
    # (b) the long stream kept streaming through the grace period, then got the error event
    # and a cleanly ended body (a cut connection would be a failure of the read)
    assert long.failure is None, (long.failure, server_log)
    assert long.tokens_after(sigterm_at + 1) > 0
    assert long.kinds()[-1] == "error", long.kinds()[-5:]
    error = json.loads(long.events[-1][2])["error"]
    assert error["code"] == "SERVER_SHUTTING_DOWN" and error["message"]
    assert long.kinds().count("error") == 1 and "end" not in long.kinds()
    assert GRACE_S - 0.5 <= long_end <= GRACE_S + 5
    assert "failed while unwinding" not in server_log  # the cut graph run unwound cleanly
    # (d) the process exited by itself soon after the grace period
    assert proc.returncode is not None and exited_at <= GRACE_S + 10
