"""LangSmith tracing end to end: the real server with tracing on sends its runs to a local
stand-in for the LangSmith API (no network), and what leaves the process carries the
feature, the route and the hashed user, never the raw user id or the documents' text."""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar

import httpx
import pytest

from core.security import hash_user_id
from tests.conftest import POSTING, RESUME
from tests.integration.conftest import serve_app

pytestmark = pytest.mark.integration


class Collector(BaseHTTPRequestHandler):
    """Answers like the LangSmith API and keeps every request body it is sent."""

    bodies: ClassVar[list[bytes]] = []

    def _answer(self, payload: dict) -> None:
        data = json.dumps(payload).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:  # /info: no compression, defaults otherwise
        self._answer({"version": "0.0.0", "instance_flags": {}})

    def _store(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        assert self.headers.get("Content-Encoding") in (None, "identity"), "compressed"
        self.bodies.append(self.rfile.read(length))
        self._answer({})

    do_POST = do_PATCH = _store

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def collector() -> Iterator[tuple[str, list[bytes]]]:
    Collector.bodies = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), Collector)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", Collector.bodies
    finally:
        server.shutdown()


def test_traces_carry_the_hashed_user_and_no_personal_data(redis_url, tmp_path, collector):
    endpoint, bodies = collector
    user = f"trace-user-{uuid.uuid4().hex[:8]}"
    # A phrase only this resume contains, new on every run: no cached analysis answers it.
    marker = f"연락처비공개표시{uuid.uuid4().hex[:6]}"
    settings = {
        "LANGSMITH_TRACING": "true",
        "LANGSMITH_API_KEY": "test-key-not-real",
        "LANGSMITH_ENDPOINT": endpoint,
        "LANGSMITH_PROJECT": "devths-test",
        "TRACE_HIDE_IO": "true",
        "CHROMA_PATH": str(tmp_path / "chroma"),
        "CHAT_MAX_OUTPUT_TOKENS": "32",
    }
    analysis = {"user_id": user, "resume_text": f"{RESUME}\n{marker}", "posting_text": POSTING}
    chat = {"user_id": user, "room_id": "r1", "message": f"면접 준비는 어떻게 해? {marker}"}
    with (
        serve_app(redis_url, tmp_path / "server.log", **settings) as base,
        httpx.Client(base_url=base, timeout=600) as client,
    ):
        assert client.post("/ai/analyze/invoke", json={"input": analysis}).status_code == 200
        assert client.post("/ai/chat/invoke", json={"input": chat}).status_code == 200
        deadline = time.monotonic() + 60
        hashed = hash_user_id(user).encode()
        while time.monotonic() < deadline and not any(hashed in b for b in bodies):
            time.sleep(0.5)
    sent = b"".join(bodies)
    assert hashed in sent, "no run reached the tracing endpoint"
    assert b'"feature":"analysis"' in sent.replace(b" ", b"")
    assert b'"feature":"chat"' in sent.replace(b" ", b"")
    assert f"chat:{hash_user_id(user)}:r1".encode() in sent  # the pseudonymous thread
    assert user.encode() not in sent
    assert marker.encode() not in sent
    assert b"Spring Boot" not in sent  # a resume line
