"""More than one process, as real processes on loopback: a real Redis, a real `chroma run`,
two API servers (JOB_WORKER_IN_PROCESS=false) and two document workers (`worker.py`).
Processes are killed by their own pid, the way an operator or the OS kills them.

The tests run in file order on one topology; the last two kill parts of it.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
import redis

from core.thread_lock import LOCK_PREFIX
from evals.documents import PEOPLE, render_page, to_pdf, with_noise
from tests.conftest import POSTING, RESUME
from tests.integration.conftest import ROOT, free_port, wait_http

pytestmark = pytest.mark.integration
NOW = "2026-11-29T10:00:00+09:00"
HEARTBEAT_S = 3
# A queue of this module's own: servers of other tests on the same Redis run in-process
# workers on the default queue, and would take these jobs.
QUEUE_NAME = f"test-procs-{uuid.uuid4().hex[:8]}"


@dataclass
class Proc:
    name: str
    proc: subprocess.Popen
    log: Path
    base: str = ""

    def kill(self) -> None:
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=30)

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=40)
            except subprocess.TimeoutExpired:
                os.kill(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)


def spawn(name: str, cmd: list[str], env: dict[str, str], logs: Path) -> Proc:
    log = logs / f"{name}.log"
    with log.open("w") as out:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    return Proc(name, proc, log)


def wait_log(p: Proc, pattern: str, timeout_s: float) -> re.Match:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        found = re.search(pattern, p.log.read_text())
        if found:
            return found
        if p.proc.poll() is not None:
            raise RuntimeError(f"{p.name} exited: {p.log.read_text()[-2000:]}")
        time.sleep(0.2)
    raise TimeoutError(f"{p.name}: no {pattern!r} within {timeout_s} s")


@dataclass
class Topology:
    redis_url: str
    apis: list[Proc]
    workers: list[Proc]
    worker_ids: list[str]
    chroma: Proc
    env: dict[str, str]
    logs: Path


@pytest.fixture(scope="module")
def topology(redis_url, tmp_path_factory) -> Iterator[Topology]:
    logs = tmp_path_factory.mktemp("processes")
    started: list[Proc] = []
    try:
        chroma_port = free_port()
        chroma = spawn(
            "chroma",
            [
                str(Path(sys.executable).parent / "chroma"),
                "run",
                "--path",
                str(logs / "chroma-data"),
                "--host",
                "127.0.0.1",
                "--port",
                str(chroma_port),
            ],
            {**os.environ, "ANONYMIZED_TELEMETRY": "False"},
            logs,
        )
        started.append(chroma)
        wait_http(f"http://127.0.0.1:{chroma_port}/api/v2/heartbeat", 60, chroma.proc)
        common = {
            **os.environ,
            "REDIS_URL": redis_url,
            "CHROMA_HOST": "127.0.0.1",
            "CHROMA_PORT": str(chroma_port),
            "RATE_LIMIT_PER_MINUTE": "100000",
            "TOKEN_QUOTA_PER_DAY": "1000000000",
            "JOB_HEARTBEAT_S": str(HEARTBEAT_S),
            "JOB_QUEUE": QUEUE_NAME,
            "JOB_SWEEP_S": "1",
            "CHAT_MAX_OUTPUT_TOKENS": "48",
            "INTERVIEW_QUESTIONS": "2",
            "INTERVIEW_MAX_FOLLOWUP_DEPTH": "0",
        }
        common.pop("AI_API_KEY", None)
        workers, worker_ids = [], []
        for i in range(2):
            w = spawn(f"worker{i}", [sys.executable, "worker.py"], {**common}, logs)
            started.append(w)
            workers.append(w)
        for w in workers:
            found = wait_log(w, r"document worker (\S+) started", 60)
            worker_ids.append(found.group(1))
        apis = []
        for i in range(2):
            port = free_port()
            env = {**common, "JOB_WORKER_IN_PROCESS": "false", "PORT": str(port)}
            cmd = [sys.executable, "-m", "uvicorn", "server:app", "--port", str(port)]
            api = spawn(f"api{i}", [*cmd, "--no-access-log"], env, logs)
            api.base = f"http://127.0.0.1:{port}"
            started.append(api)
            apis.append(api)
        for api in apis:
            wait_http(f"{api.base}/health", 90, api.proc)
        topology = Topology(redis_url, apis, workers, worker_ids, chroma, common, logs)
        yield topology
        started.extend(topology.workers[2:])  # started by the tests
    finally:
        for p in reversed(started):
            p.stop()


def unique_pdf(pages: int, seed: int) -> bytes:
    """A multi-page scan no cache has seen (noise from a fresh seed); page i shows
    `person(seed, i)`."""
    return to_pdf(
        [with_noise(render_page(person=person(seed, i)), 6, seed * 10 + i) for i in range(pages)]
    )


def person(seed: int, page: int) -> int:
    return (seed + page) % 3


def assert_read(task: dict, seed: int, pages: int) -> None:
    """Every page came back, in order, each with its own person's name read."""
    assert [p["page"] for p in task["result"]["pages"]] == list(range(1, pages + 1))
    for i, page in enumerate(task["result"]["pages"]):
        assert PEOPLE[person(seed, i)]["name"] in page["text"]


def submit(base: str, data: bytes, kind: str = "ocr") -> str:
    path = {"ocr": "/ai/ocr/extract", "masking": "/ai/masking/draft"}[kind]
    r = httpx.post(
        f"{base}{path}", files={"file": ("scan.pdf", data)}, data={"user_id": "ops"}, timeout=60
    )
    assert r.status_code == 202, r.text
    return r.json()["task_id"]


def poll(base: str, task_id: str, timeout_s: float) -> dict:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        task = httpx.get(f"{base}/ai/tasks/{task_id}", timeout=30).json()
        if task["status"] != "processing":
            return task
        time.sleep(0.3)
    raise TimeoutError(f"task {task_id} still processing after {timeout_s} s")


def invoke(base: str, path: str, body: dict) -> dict:
    r = httpx.post(f"{base}{path}/invoke", json={"input": body}, timeout=600)
    assert r.status_code == 200, r.text
    return r.json()["output"]


def test_a_job_submitted_on_one_server_is_run_by_a_worker_and_polled_on_the_other(topology):
    a, b = topology.apis
    seed = random.randrange(10**6)
    task_id = submit(a.base, unique_pdf(2, seed))
    task = poll(b.base, task_id, 180)
    assert task["status"] == "completed" and task["kind"] == "ocr"
    assert_read(task, seed, 2)
    # The API servers only enqueue: a worker process ran it.
    record = json.loads(
        redis.Redis.from_url(topology.redis_url).get(f"saq:job:{QUEUE_NAME}:{task_id}")
    )
    assert record["worker_id"] in topology.worker_ids


def test_an_interview_alternates_between_servers_and_either_gives_the_report(topology):
    a, b = topology.apis
    ids = {"user_id": "procs", "session_id": uuid.uuid4().hex[:10]}
    path = "/ai/interview/question"
    out = invoke(a.base, path, {**ids, "resume_text": RESUME, "posting_text": POSTING})
    assert out["question_id"] == "q1" and out["total_questions"] == 2
    seen = [out["question_id"]]
    turn = 0
    while not out["done"]:
        server = (b, a)[turn % 2]  # q1 from A, then B, A, ...
        out = invoke(
            server.base,
            path,
            {**ids, "answer": f"{turn}번째 답변: Redis 캐시로 응답 시간을 줄였습니다"},
        )
        seen.append(out["question_id"])
        turn += 1
    assert seen[:2] == ["q1", "q2"] and turn >= 2  # the session moved on across servers
    report_b = invoke(b.base, "/ai/interview/report", ids)
    report_a = invoke(a.base, "/ai/interview/report", ids)
    assert [e["question_id"] for e in report_b["evaluations"]] == ["q1", "q2"]
    assert report_b["evaluations"][1]["answer"].startswith("1번째 답변")
    assert report_a["cached"] is True and report_a["report"] == report_b["report"]


def test_a_document_embedded_through_one_server_is_found_by_a_chat_on_the_other(topology):
    a, b = topology.apis
    user = f"p{uuid.uuid4().hex[:8]}"
    body = {"user_id": user, "doc_id": "cv", "doc_type": "resume", "text": RESUME}
    assert invoke(a.base, "/ai/file/embed", body)["chunks"] > 0
    question = "내 이력서에 적은 기술 스택이 뭐였지?"
    chat = {"user_id": user, "room_id": "r1", "message": question, "now": NOW}
    out = invoke(b.base, "/ai/chat", chat)
    assert out["route"] == "rag" and {s["doc_id"] for s in out["sources"]} == {"cv"}
    stranger = invoke(b.base, "/ai/chat", {**chat, "user_id": f"q{uuid.uuid4().hex[:8]}"})
    assert stranger["sources"] == []


def test_a_worker_killed_mid_job_loses_none_of_four_multi_page_jobs(topology):
    a, b = topology.apis
    seed = random.randrange(10**6)
    # rendered first, then submitted together: rendering takes seconds a PDF, and a job
    # submitted alone was done (3 s) before the watch below began (CI, session 9)
    pdfs = [unique_pdf(3, seed + i) for i in range(4)]
    tasks = [submit((a, b)[i % 2].base, pdf) for i, pdf in enumerate(pdfs)]
    store = redis.Redis.from_url(topology.redis_url)
    victim_id = topology.worker_ids[0]
    deadline = time.monotonic() + 120
    victim_task = None
    while victim_task is None and time.monotonic() < deadline:
        for task_id in tasks:
            raw = store.get(f"saq:job:{QUEUE_NAME}:{task_id}")
            job = json.loads(raw) if raw else {}
            if job.get("worker_id") == victim_id and job.get("status") == "active":
                victim_task = task_id
                break
        time.sleep(0.1)
    assert victim_task is not None, "worker 0 never took one of the jobs"
    topology.workers[0].kill()
    killed_at = time.monotonic()
    finished = {task_id: poll(b.base, task_id, 240) for task_id in tasks}
    rescued_after = time.monotonic() - killed_at
    assert {t["status"] for t in finished.values()} == {"completed"}
    for i, task_id in enumerate(tasks):
        assert_read(finished[task_id], seed + i, 3)
    rescued = json.loads(store.get(f"saq:job:{QUEUE_NAME}:{victim_task}"))
    assert rescued["attempts"] == 2 and rescued["worker_id"] == topology.worker_ids[1]
    assert rescued_after < 60
    print(f"\nworker SIGKILL -> all 4 jobs completed in {rescued_after:.1f} s")


def test_a_worker_told_to_stop_finishes_its_job_and_takes_no_new_one(topology):
    b = topology.apis[1]
    stopping, stopping_id = topology.workers[1], topology.worker_ids[1]
    assert stopping.proc.poll() is None
    seed = random.randrange(10**6)
    later = unique_pdf(1, seed + 1)  # rendered now: it is to arrive while the worker stops
    first = submit(b.base, unique_pdf(3, seed))
    store = redis.Redis.from_url(topology.redis_url)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        job = json.loads(store.get(f"saq:job:{QUEUE_NAME}:{first}") or "{}")
        if job.get("status") == "active":
            break
        time.sleep(0.1)
    assert job.get("worker_id") == stopping_id  # the only worker alive
    os.kill(stopping.proc.pid, signal.SIGTERM)
    time.sleep(0.5)
    second = submit(b.base, later)  # arrives while it is stopping
    assert stopping.proc.wait(timeout=40) == 0  # exits by itself, within the grace period
    done = json.loads(store.get(f"saq:job:{QUEUE_NAME}:{first}"))
    assert (done["status"], done["attempts"], done["worker_id"]) == ("complete", 1, stopping_id)
    waiting = json.loads(store.get(f"saq:job:{QUEUE_NAME}:{second}"))
    assert waiting["status"] == "queued"  # not taken by the stopping worker
    fresh = spawn("worker2", [sys.executable, "worker.py"], topology.env, topology.logs)
    topology.workers.append(fresh)
    fresh_id = wait_log(fresh, r"document worker (\S+) started", 60).group(1)
    assert_read(poll(b.base, second, 120), seed + 1, 1)
    taken = json.loads(store.get(f"saq:job:{QUEUE_NAME}:{second}"))
    assert taken["worker_id"] == fresh_id and taken["attempts"] == 1


def test_a_server_killed_mid_stream_frees_the_room_for_the_other_server(topology):
    a, b = topology.apis
    user, room = f"k{uuid.uuid4().hex[:8]}", "room"
    lock = f"{LOCK_PREFIX}chat:{user}:{room}"
    store = redis.Redis.from_url(topology.redis_url)
    body = {
        "user_id": user,
        "room_id": room,
        "message": "자기소개서 첫 문장은 어떻게 쓰면 좋을까?",
        "now": NOW,
    }

    def stream() -> None:
        with (
            contextlib.suppress(httpx.HTTPError),
            httpx.stream(
                "POST",
                f"{a.base}/ai/chat/stream_events",
                json={"input": body, "version": "v2"},
                timeout=120,
            ) as r,
        ):
            for _ in r.iter_lines():
                pass

    reader = threading.Thread(target=stream, daemon=True)
    reader.start()
    deadline = time.monotonic() + 60
    while not store.exists(lock) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert store.exists(lock) == 1, "the run on A never took the room"
    a.kill()  # mid-run: A holds the room and will never release it
    reader.join(timeout=30)
    killed_at = time.monotonic()
    assert store.exists(lock) == 1  # the dead server's lock is still there
    out = invoke(b.base, "/ai/chat", {**body, "message": "다음 주 일정 알려줘"})
    answered_after = time.monotonic() - killed_at
    assert out["route"] == "schedule" and out["tool_calls"][0]["name"] == "get_schedule"
    assert answered_after < 60
    print(
        f"\nAPI SIGKILL mid-stream -> room answered on the other server in {answered_after:.1f} s"
    )


def test_several_api_processes_without_a_chroma_server_refuse_to_start(redis_url, tmp_path):
    """A Chroma directory is not safe for two writers: WEB_CONCURRENCY=2 with no
    CHROMA_HOST stops at start-up with a message that says what to do."""
    env = {**os.environ, "REDIS_URL": redis_url, "WEB_CONCURRENCY": "2"}
    env.pop("CHROMA_HOST", None)
    port = free_port()
    cmd = [sys.executable, "-m", "uvicorn", "server:app", "--port", str(port), "--workers", "2"]
    refused = spawn("refused", cmd, env, tmp_path)
    try:
        # It stops by itself (uvicorn's supervisor then exits with status 0: its choice).
        refused.proc.wait(timeout=120)
    finally:
        refused.stop()
    log = refused.log.read_text()
    assert "WEB_CONCURRENCY=2 needs a Chroma server" in log and "CHROMA_HOST" in log
    with pytest.raises(httpx.HTTPError):
        httpx.get(f"http://127.0.0.1:{port}/health", timeout=2)
