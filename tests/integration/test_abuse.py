"""Abuse limits across real processes: two API servers on one real Redis share each user's
rate limit and token quota; bodies are refused by the real server before they are read;
keys rotate; a task is only its owner's. (Unit tests cover the same rules in process.)"""

from __future__ import annotations

import socket
import time
import uuid
from collections.abc import Iterator

import httpx
import pytest

from evals.documents import render_page, to_png
from tests.conftest import POSTING, RESUME
from tests.integration.conftest import serve_app, serve_apps

KEYS = {"X-API-Key": "key-new"}
SETTINGS = {
    "AI_API_KEY": "key-old,key-new",
    "RATE_LIMIT_PER_MINUTE": "3",
    "TOKEN_QUOTA_PER_DAY": "1",
    "CHAT_MAX_OUTPUT_TOKENS": "32",
    "INTERVIEW_QUESTION_SOURCE": "model",  # the embedded model writes (and spends on) them
    "UPLOAD_MAX_BYTES": "1048576",
    "WARM_UP_ON_START": "false",
}


@pytest.fixture(scope="module")
def two_servers(redis_url, tmp_path_factory) -> Iterator[tuple[str, str]]:
    logs = tmp_path_factory.mktemp("abuse")
    with serve_apps(redis_url, logs, 2, **SETTINGS) as (a, b):
        yield a, b


def calendar(base: str, user: str) -> httpx.Response:
    body = {
        "input": {"text": "[카카오] 백엔드 개발자 채용\n서류 마감: 2026.03.15", "user_id": user}
    }
    return httpx.post(f"{base}/ai/calendar/parse/invoke", json=body, headers=KEYS, timeout=60)


def test_a_users_rate_is_shared_by_both_servers(two_servers):
    a, b = two_servers
    user = f"rate-{uuid.uuid4().hex[:8]}"  # Redis outlives test runs: a fresh user each run
    assert [calendar(base, user).status_code for base in (a, b, a)] == [200, 200, 200]
    refused = calendar(b, user)
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "RATE_LIMITED"
    assert 1 <= int(refused.headers["retry-after"]) <= 60
    assert calendar(b, f"other-{user}").status_code == 200


def test_a_spent_token_quota_is_refused_by_the_other_server(two_servers):
    a, b = two_servers
    user = f"quota-{uuid.uuid4().hex[:8]}"
    # On the embedded default a chat answer is grounded text (no model call, no tokens);
    # an interview question written by the model spends tokens.
    start = {
        "user_id": user,
        "session_id": "s1",
        "interview_type": "technical",
        "resume_text": RESUME,
        "posting_text": POSTING,
    }
    first = httpx.post(
        f"{a}/ai/interview/question/invoke", json={"input": start}, headers=KEYS, timeout=120
    )
    assert first.status_code == 200, first.text  # admitted with 1 token left; spends more
    body = {"input": {"user_id": user, "room_id": "r1", "message": "안녕하세요, 반가워요"}}
    metrics = httpx.get(f"{a}/metrics", headers=KEYS).text
    assert "devths_quota_tokens_total" in metrics
    refused = httpx.post(f"{b}/ai/chat/invoke", json=body, headers=KEYS, timeout=120)
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "QUOTA_EXCEEDED"
    assert int(refused.headers["retry-after"]) > 3600


def test_an_oversized_upload_is_refused_before_it_is_sent_whole(two_servers):
    """A client announcing 50 MB gets its 413 after sending only the headers."""
    a, _ = two_servers
    host, port = a.removeprefix("http://").split(":")
    head = (
        "POST /ai/ocr/extract HTTP/1.1\r\n"
        f"Host: {host}\r\nX-API-Key: key-new\r\n"
        "Content-Type: multipart/form-data; boundary=xyz\r\n"
        f"Content-Length: {50 * 1024 * 1024}\r\n\r\n"
    )
    with socket.create_connection((host, int(port)), timeout=30) as conn:
        conn.sendall(head.encode())
        received = b""
        while b"}}" not in received and (chunk := conn.recv(65536)):  # status, then body
            received += chunk
        answer = received.decode("utf-8", "replace")
    assert answer.startswith("HTTP/1.1 413"), answer[:200]
    assert '"code":"PAYLOAD_TOO_LARGE"' in answer.replace(" ", "")


def test_an_upload_somewhat_over_the_limit_always_gets_its_413(redis_url, tmp_path):
    """Clients send the whole body before reading an answer (no `Expect: 100-continue`):
    a body up to twice the limit is read and discarded, so each of them gets the 413, never
    a connection reset mid-body (bodies larger than the loopback socket buffers)."""
    body = (
        b'--xyz\r\nContent-Disposition: form-data; name="user_id"\r\n\r\nbig\r\n'
        b'--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n'
        b"Content-Type: image/png\r\n\r\n\x89PNG" + b"\0" * (14 * 1048576) + b"\r\n--xyz--\r\n"
    )  # limit 8 MiB (+ 64 KiB framing)
    answers = []
    with serve_app(
        redis_url,
        tmp_path / "server.log",
        UPLOAD_MAX_BYTES=str(8 * 1048576),
        WARM_UP_ON_START="false",
        CHROMA_PATH=str(tmp_path / "chroma"),
    ) as base:
        host, port = base.removeprefix("http://").split(":")
        head = (
            f"POST /ai/ocr/extract HTTP/1.1\r\nHost: {host}\r\n"
            "Content-Type: multipart/form-data; boundary=xyz\r\n"
            f"Content-Length: {len(body)}\r\n\r\n"
        ).encode()
        for _ in range(10):
            try:  # as a simple client does: send everything, then read the answer
                with socket.create_connection((host, int(port)), timeout=30) as conn:
                    conn.sendall(head + body)
                    received = b""
                    while b"}}" not in received and (chunk := conn.recv(65536)):
                        received += chunk
                answers.append(received.split(b"\r\n", 1)[0].decode())
            except OSError as exc:
                answers.append(type(exc).__name__)
    assert answers == ["HTTP/1.1 413 Request Entity Too Large"] * 10


def test_a_chunked_upload_is_cut_off_at_the_limit(two_servers):
    a, _ = two_servers
    sent = 0

    def chunks() -> Iterator[bytes]:
        nonlocal sent
        yield b'--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n'
        for _ in range(400):  # 25 MB offered in 64 KiB chunks, no Content-Length
            sent += 1
            yield b"\0" * 65536

    headers = {**KEYS, "Content-Type": "multipart/form-data; boundary=xyz"}
    try:
        r = httpx.post(f"{a}/ai/ocr/extract", content=chunks(), headers=headers, timeout=60)
    except httpx.HTTPError:  # the server may close while the client is still writing
        r = None
    if r is not None:
        assert r.status_code == 413 and r.json()["error"]["code"] == "PAYLOAD_TOO_LARGE"
    # Read to twice the limit (2 MiB: 32 chunks), then cut off; loopback socket buffers
    # take a few MB more from the client before its writes fail.
    assert sent < 200


def test_both_keys_work_and_the_api_pages_need_one(two_servers):
    a, b = two_servers
    for path in ("/metrics", "/openapi.json", "/docs"):
        assert httpx.get(f"{a}{path}").status_code == 401
        assert httpx.get(f"{b}{path}", headers={"X-API-Key": "key-old"}).status_code == 200
    assert httpx.get(f"{a}/health").status_code == 200
    assert calendar(a, f"k-{uuid.uuid4().hex[:8]}").status_code == 200  # key-new
    wrong = httpx.post(
        f"{a}/ai/calendar/parse/invoke", json={"input": {"text": "x"}}, headers={"X-API-Key": "k"}
    )
    assert wrong.status_code == 401


def test_a_task_is_visible_only_to_its_owner_on_any_server(two_servers):
    a, b = two_servers
    owner = f"owner-{uuid.uuid4().hex[:8]}"
    files = {"file": ("scan.png", to_png(render_page()), "image/png")}
    r = httpx.post(
        f"{a}/ai/ocr/extract", files=files, data={"user_id": owner}, headers=KEYS, timeout=60
    )
    assert r.status_code == 202, r.text
    path = f"/ai/tasks/{r.json()['task_id']}"
    other = httpx.get(f"{b}{path}", params={"user_id": "mallory"}, headers=KEYS)
    assert other.status_code == 404 and other.json()["error"]["code"] == "TASK_NOT_FOUND"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        mine = httpx.get(f"{b}{path}", params={"user_id": owner}, headers=KEYS)
        assert mine.status_code == 200
        if mine.json()["status"] != "processing":
            break
        time.sleep(1)
    assert mine.json()["status"] == "completed" and mine.json()["result"]["extracted_text"]
