"""Retrieval and embedding benchmarks.

- Retrieval P50/P95 of a user-filtered top-5 query in Chroma (persistent directory) at 10k
  and 100k chunks spread over 100 users. Vectors are random unit vectors of the embedded
  model's size (384): query latency does not depend on what the text says, and embedding
  100k passages would take the benchmark's whole budget.
- Embedding throughput (passages/s) of the configured model, one passage per call versus
  batches of 64, on Korean resume-like lines.
"""

from __future__ import annotations

import asyncio
import random
import tempfile
import time
from typing import Any

from bench.measure import percentile
from core.embeddings import build_embeddings
from core.settings import get_settings
from core.vector_store import VectorStore

DIM = 384
USERS = 100


def _unit(rng: random.Random) -> list[float]:
    v = [rng.gauss(0, 1) for _ in range(DIM)]
    norm = sum(x * x for x in v) ** 0.5
    return [x / norm for x in v]


async def retrieval_latency(sizes: tuple[int, ...] = (10_000, 100_000), queries: int = 200):
    rng = random.Random(0)
    out: dict[str, Any] = {}
    store = VectorStore(path=tempfile.mkdtemp(prefix="bench-chroma-"))
    collection = store._open()
    stored = 0
    for size in sizes:
        started = time.perf_counter()
        while stored < size:
            n = min(5000, size - stored)
            ids = [f"c{stored + i}" for i in range(n)]
            metas = [
                {
                    "user_id": f"u{(stored + i) % USERS}",
                    "doc_id": f"d{(stored + i) // 10}",
                    "doc_type": "resume",
                    "section": "경력",
                    "chunk": 0,
                }
                for i in range(n)
            ]
            vectors = [_unit(rng) for _ in range(n)]
            await asyncio.to_thread(
                collection.add,
                ids=ids,
                embeddings=vectors,
                metadatas=metas,
                documents=[f"chunk {stored + i}" for i in range(n)],
            )
            stored += n
        load_s = time.perf_counter() - started
        seconds = []
        for q in range(queries):
            vector = _unit(rng)
            t = time.perf_counter()
            hits = await store.query(f"u{q % USERS}", vector, 5)
            seconds.append(time.perf_counter() - t)
            assert hits and all(h.doc_id for h in hits)
        out[str(size)] = {
            "chunks": size,
            "p50_ms": round(percentile(seconds, 0.5) * 1000, 2),
            "p95_ms": round(percentile(seconds, 0.95) * 1000, 2),
            "insert_s": round(load_s, 1),
        }
    return out


def embedding_throughput(passages: int = 256, batch: int = 64) -> dict[str, Any]:
    embeddings = build_embeddings(get_settings().embedding_model)
    texts = [
        f"- 프로젝트 {i}: 주문 API 개발, MySQL 쿼리 튜닝으로 응답 시간 {i % 50}% 단축"
        for i in range(passages)
    ]
    embeddings.embed_documents(texts[:4])  # load and warm up
    started = time.perf_counter()
    for text in texts:
        embeddings.embed_documents([text])
    single = passages / (time.perf_counter() - started)
    started = time.perf_counter()
    for i in range(0, passages, batch):
        embeddings.embed_documents(texts[i : i + batch])
    batched = passages / (time.perf_counter() - started)
    return {
        "model": get_settings().embedding_model,
        "passages": passages,
        "single_per_s": round(single, 1),
        "batched_per_s": round(batched, 1),
        "batch": batch,
        "ratio": round(batched / single, 2),
    }
