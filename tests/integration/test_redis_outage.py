"""A Redis outage on real processes: a Redis 8 of the test's own (its own port and data
directory, AOF on), two real servers on it, and clients looping over requests while Redis
is stopped, then started again, then frozen (SIGSTOP: it accepts connections and answers
nothing), then thawed. Neither server is restarted.

During an outage every answer comes within BOUND_S: a coded 503 DEPENDENCY_UNAVAILABLE with
Retry-After, or a success when the request needs no Redis; /health says "degraded"; a stream
ends with `event: error`. Once Redis answers again, requests succeed again, checkpointed chat
included, within RECOVER_S.

Servers: `limited` runs with the limits on (the default: every /ai request is admitted
against counters in Redis first); `open` with every limit off, so its requests reach the
graphs' own Redis use (the room lock, the checkpointer) and fail inside the run.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import statistics
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

from tests.integration.conftest import ROOT, free_port, serve_app
from tests.unit.test_server import sse_events

pytestmark = pytest.mark.integration

BOUND_S = 6.0  # any answer during an outage, on a noisy 2-core machine
SOCKET_TIMEOUT_S = 3  # REDIS_SOCKET_TIMEOUT_S of the servers (the default, set explicitly)
# While Redis hangs: one socket timeout, not two (a retried timeout) nor redis-py's 5 s
# default; /health within its own 2 s check.
HUNG_BOUND_S = SOCKET_TIMEOUT_S + 1.5
HEALTH_BOUND_S = 3.0
RECOVER_S = 10.0
NOW = "2026-11-29T10:00:00+09:00"
# Company and position are in the text: parsed without the model (cheap, no CPU spike).
CALENDAR = {"input": {"text": "[네이버] 백엔드 개발자 채용\n1차 면접: 12월 4일 오후 3시"}}
NO_LIMITS = {
    "RATE_LIMIT_PER_MINUTE": "0",
    "RATE_LIMIT_PER_KEY_PER_MINUTE": "0",
    "TOKEN_QUOTA_PER_DAY": "0",
}


def chat_body(user: str, room: str, message: str = "안녕하세요") -> dict:
    return {"input": {"user_id": user, "room_id": room, "message": message, "now": NOW}}


class OwnRedis:
    """`scripts/local_redis.py` on a free port and a data directory of the test's own. Its
    pid is the one the server wrote to `redis.pid`; SIGSTOP/SIGCONT freeze and thaw it."""

    def __init__(self, data_dir: Path) -> None:
        self.port = free_port()
        self.data_dir = data_dir
        self.frozen = False
        self.url = self._run("start", "--data-dir", str(data_dir))

    def _run(self, command: str, *args: str) -> str:
        cmd = [sys.executable, str(ROOT / "scripts" / "local_redis.py"), command]
        cmd += ["--port", str(self.port), *args]
        return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.strip()

    @property
    def pid(self) -> int:
        return int((self.data_dir / "redis.pid").read_text())

    def start(self) -> None:
        self._run("start", "--data-dir", str(self.data_dir))

    def stop(self) -> None:
        pid = self.pid
        self._run("stop")  # returns once it no longer answers
        deadline = time.monotonic() + 10
        while _alive(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(pid), "Redis did not stop"

    def freeze(self) -> None:
        os.kill(self.pid, signal.SIGSTOP)
        self.frozen = True

    def thaw(self) -> None:
        os.kill(self.pid, signal.SIGCONT)
        self.frozen = False

    def close(self) -> None:
        """Thaw, stop, and if it still runs, end it by its own pid."""
        pid_file = self.data_dir / "redis.pid"
        pid = int(pid_file.read_text()) if pid_file.exists() else None
        if self.frozen and pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)
        with contextlib.suppress(subprocess.CalledProcessError):
            self._run("stop")
        if pid is not None and _alive(pid):
            os.kill(pid, signal.SIGTERM)


def _alive(pid: int) -> bool:
    """Redis daemonizes (init reaps it, no zombie of ours): signal 0 tells."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@dataclass
class Answer:
    client: str
    started: float
    ended: float
    status: int  # 0: no HTTP answer (the client's own timeout or a transport error)
    code: str | None = None
    retry_after: str | None = None
    health: dict | None = None

    @property
    def seconds(self) -> float:
        return self.ended - self.started


@dataclass
class Load:
    """Clients looping over requests in threads; every answer is recorded."""

    answers: list[Answer] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)
    threads: list[threading.Thread] = field(default_factory=list)

    def loop(self, name: str, base: str, method: str, path: str, body=None, pause=0.0):
        def run() -> None:
            with httpx.Client(base_url=base, timeout=60) as client:
                while not self.stop.is_set():
                    payload = body() if callable(body) else body
                    started = time.monotonic()
                    try:
                        r = client.request(method, path, json=payload)
                    except httpx.HTTPError:
                        self.answers.append(Answer(name, started, time.monotonic(), 0))
                        self.stop.wait(pause)
                        continue
                    answer = Answer(name, started, time.monotonic(), r.status_code)
                    if r.status_code >= 400:
                        with contextlib.suppress(ValueError, KeyError, TypeError):
                            answer.code = r.json()["error"]["code"]
                        answer.retry_after = r.headers.get("retry-after")
                    elif path == "/health":
                        answer.health = r.json()
                    self.answers.append(answer)
                    self.stop.wait(pause)

        thread = threading.Thread(target=run, name=name, daemon=True)
        thread.start()
        self.threads.append(thread)

    def between(self, start: float, end: float, client: str | None = None) -> list[Answer]:
        """Answers to requests sent in [start, end)."""
        return [
            a
            for a in list(self.answers)
            if start <= a.started < end and (client is None or a.client.startswith(client))
        ]

    def close(self) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=90)


@pytest.fixture(scope="module")
def own_redis(tmp_path_factory) -> Iterator[OwnRedis]:
    redis = OwnRedis(tmp_path_factory.mktemp("outage-redis"))
    try:
        yield redis
    finally:
        redis.close()


@pytest.fixture(scope="module")
def servers(own_redis: OwnRedis, tmp_path_factory) -> Iterator[tuple[str, str]]:
    tmp = tmp_path_factory.mktemp("outage-servers")
    common = {
        "WARM_UP_ON_START": "false",
        "CHAT_MAX_OUTPUT_TOKENS": "32",
        "REDIS_SOCKET_TIMEOUT_S": str(SOCKET_TIMEOUT_S),
    }
    with (
        serve_app(
            own_redis.url, tmp / "limited.log", CHROMA_PATH=str(tmp / "c1"), **common
        ) as limited,
        serve_app(
            own_redis.url, tmp / "open.log", CHROMA_PATH=str(tmp / "c2"), **common, **NO_LIMITS
        ) as open_,
    ):
        yield limited, open_


def summary(answers: list[Answer]) -> str:
    seconds = [a.seconds for a in answers]
    return f"n={len(seconds)} max={max(seconds):.3f}s median={statistics.median(seconds):.3f}s"


def assert_outage_answers(load: Load, start: float, end: float, label: str) -> None:
    """What every client got for the requests it sent while Redis was unusable: each
    answer within BOUND_S; the ones that also ended before Redis was back, by kind."""
    sent = load.between(start, end)
    for a in sent:
        assert a.seconds < BOUND_S, (label, a)
        assert a.seconds < (HEALTH_BOUND_S if a.client == "health" else HUNG_BOUND_S), a
    done = [a for a in sent if a.ended < end]
    limited = [a for a in done if a.client.startswith("limited")]
    open_calendar = [a for a in done if a.client == "open-calendar"]
    health = [a for a in done if a.client == "health"]
    assert len(limited) >= 3 and open_calendar and health, (label, done)
    for a in limited:  # the admission needs Redis: a coded, retryable refusal
        assert (a.status, a.code, a.retry_after) == (503, "DEPENDENCY_UNAVAILABLE", "5"), a
    for a in open_calendar:  # needs no Redis at all: served
        assert a.status == 200, a
    for a in health:
        assert a.status == 200 and a.health["status"] == "degraded", a
        assert a.health["checks"]["redis"].startswith("error"), a
        assert a.health["checks"]["vector_store"] == "ok", a
    print(f"\n{label}: answers to requests sent during the outage: {summary(sent)}")
    print(f"{label}: limited server's 503s: {summary(limited)}")


def assert_recovered(load: Load, up: float, label: str) -> None:
    """Every looping client succeeds again within RECOVER_S of Redis answering (the first
    success it got for a request sent since), and nothing sent since then fails: not even
    the first command on a pooled connection the old server had closed."""
    clients = {a.client for a in load.between(up - 30, up)}
    first: dict[str, float | None] = {}
    while time.monotonic() < up + RECOVER_S + 5:
        ok = [a for a in load.between(up, time.monotonic()) if a.status == 200]
        first = {c: min((a.ended - up for a in ok if a.client == c), default=None) for c in clients}
        if all(v is not None for v in first.values()):
            break
        time.sleep(0.2)
    assert all(v is not None and v < RECOVER_S for v in first.values()), (label, first)
    time.sleep(2)
    failed = [a for a in load.between(up, time.monotonic()) if a.status != 200]
    assert failed == [], (label, failed)
    health = load.between(up, time.monotonic(), "health")
    assert health and all(a.health["status"] == "ok" for a in health), health
    print(f"{label}: first success after Redis answered again, seconds: {first}")


def stream_during_outage(base: str, user: str) -> tuple[float, httpx.Response]:
    started = time.monotonic()
    r = httpx.post(f"{base}/ai/chat/stream", json=chat_body(user, "stream-room"), timeout=60)
    return time.monotonic() - started, r


def test_an_outage_is_a_quick_coded_503_and_service_resumes_by_itself(own_redis, servers):
    limited, open_ = servers
    user = f"outage-{uuid.uuid4().hex[:8]}"
    with httpx.Client(timeout=120) as c:  # warm both (model load, first imports)
        for base in (limited, open_):
            assert c.post(f"{base}/ai/calendar/parse/invoke", json=CALENDAR).status_code == 200
            assert c.post(f"{base}/ai/chat/invoke", json=chat_body(user, "kept")).status_code == 200

    load = Load()
    load.loop("limited-calendar-1", limited, "POST", "/ai/calendar/parse/invoke", CALENDAR)
    load.loop("limited-calendar-2", limited, "POST", "/ai/calendar/parse/invoke", CALENDAR)
    load.loop(
        "limited-chat",
        limited,
        "POST",
        "/ai/chat/invoke",
        lambda: chat_body(user, f"r{uuid.uuid4().hex[:6]}"),  # a new room: no lock left over
        pause=0.5,
    )
    load.loop("open-calendar", open_, "POST", "/ai/calendar/parse/invoke", CALENDAR, pause=0.1)
    load.loop("health", limited, "GET", "/health", pause=0.3)
    try:
        time.sleep(3)
        before = load.between(0, time.monotonic())
        assert before and all(a.status == 200 for a in before), before

        # --- Redis stopped: connections are refused -------------------------------------
        own_redis.stop()
        down = time.monotonic()
        seconds, limited_stream = stream_during_outage(limited, user)
        assert seconds < BOUND_S
        assert limited_stream.status_code == 503  # refused at admission, before the stream
        assert limited_stream.json()["error"]["code"] == "DEPENDENCY_UNAVAILABLE"
        seconds, open_stream = stream_during_outage(open_, user)
        assert seconds < BOUND_S and open_stream.status_code == 200
        kind, data = sse_events(open_stream.text)[-1]  # the room lock failed inside the run
        assert kind == "error", open_stream.text
        assert json.loads(data)["error"]["code"] == "DEPENDENCY_UNAVAILABLE"
        started = time.monotonic()
        r = httpx.post(f"{open_}/ai/chat/invoke", json=chat_body(user, "kept"), timeout=60)
        assert time.monotonic() - started < BOUND_S
        assert r.status_code == 503 and r.headers["retry-after"] == "5", r.text
        time.sleep(max(0.0, down + 6 - time.monotonic()))
        up_begin = time.monotonic()
        own_redis.start()
        up = time.monotonic()
        assert_outage_answers(load, down, up_begin, "stopped")
        assert_recovered(load, up, "stopped")

        # --- Redis frozen: connections open, replies never come -------------------------
        own_redis.freeze()
        frozen = time.monotonic()
        seconds, open_stream = stream_during_outage(open_, user)
        assert seconds < BOUND_S
        assert sse_events(open_stream.text)[-1][0] == "error", open_stream.text
        time.sleep(max(0.0, frozen + 9 - time.monotonic()))
        thaw_begin = time.monotonic()
        own_redis.thaw()
        thawed = time.monotonic()
        assert_outage_answers(load, frozen, thaw_begin, "frozen")
        assert_recovered(load, thawed, "frozen")
    finally:
        load.close()
    # Requests caught mid-run by either outage included: no 500, no dropped connection.
    coded = (200, None), (503, "DEPENDENCY_UNAVAILABLE")
    assert [a for a in load.answers if (a.status, a.code) not in coded] == []

    # The checkpointer works on the Redis that came back (its indexes were kept by AOF):
    # a second turn in a room whose first turn was before both outages.
    with httpx.Client(timeout=120) as c:
        for base in (limited, open_):
            r = c.post(f"{base}/ai/chat/invoke", json=chat_body(user, "kept", "다음 주 일정?"))
            assert r.status_code == 200, r.text
