"""Retrieval and embedding benchmarks.

- Retrieval: a user's top-5 at 10k and 100k chunks spread over 1,000 users (10 chunks per
  document, one document per request), per partitioning design:
  - `filter`: one collection for everyone, the user as a metadata filter (the seed's design);
  - `shards`: 32 collections by a hash of the user, plus the user filter (a bounded count);
  - `databases` / `tenants`: a Chroma database (or tenant) per user, one collection in it;
  - `collections`: a collection per user in one database, Chroma's default HNSW settings,
    no filter;
  - `store`: what ships, `core.vector_store.VectorStore`: langchain-chroma, a collection per
    user with its HNSW index written to disk every 20 records, the user filter kept in the
    query, through the store's async API;
  - `store_server`: the same against a `chroma run` server (CHROMA_HOST), over HTTP.
  Per design and size, 200 random users queried three times: `first` right after the
  writes, `warm` again (the index loaded: the headline P50/P95), `cold` after reopening the
  directory or restarting the server (each user's index read from disk); then one
  10-chunk document replaced (P50 of 50), the load time and the size on disk. Vectors are
  random unit vectors of the embedded model's size (384): query latency does not depend on
  what the text says, and embedding 100k passages would take the whole budget.
- Embedding throughput (passages/s) of the configured model, one passage per call versus
  batches of 64, on Korean resume-like lines.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import numpy as np

from bench.measure import percentile
from core.embeddings import build_embeddings
from core.settings import get_settings
from core.vector_store import VectorStore, user_filter

DIM = 384
USERS = 1000
PER_DOC = 10
SHARDS = 32
QUERIES = 200
WRITES = 50
SIZES = (10_000, 100_000)
# `tenants` is measured on request (python -m bench.retrieval tenants ...): a tenant per user
# was within the noise of a database per user in the first run (docs/decisions.md).
DESIGNS = ("filter", "shards", "databases", "collections", "store", "store_server")


def _unit(rng: np.random.Generator, n: int) -> np.ndarray:
    v = rng.standard_normal((n, DIM)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def _chunks(start: int, stop: int, rng: np.random.Generator) -> list[dict[str, Any]]:
    """Documents of PER_DOC chunks; document d belongs to user d % USERS."""
    vectors = _unit(rng, stop - start)
    out = []
    for i in range(start, stop):
        doc, user = i // PER_DOC, (i // PER_DOC) % USERS
        out.append(
            {
                "id": f"u{user}:d{doc}:{i % PER_DOC}",
                "text": f"chunk {i}",
                "vector": vectors[i - start],
                "meta": {
                    "user_id": f"u{user}",
                    "doc_id": f"d{doc}",
                    "doc_type": "resume",
                    "section": "경력",
                    "doc_hash": "h",
                    "chunk": i % PER_DOC,
                },
            }
        )
    return out


def _by_doc(chunks: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    docs: dict[str, list[dict[str, Any]]] = {}
    for c in chunks:
        docs.setdefault(c["meta"]["doc_id"], []).append(c)
    return list(docs.values())


def _by_key(chunks: list[dict[str, Any]], key: Callable[[str], str]) -> dict[str, list[dict]]:
    groups: dict[str, list[dict[str, Any]]] = {}
    for c in chunks:
        groups.setdefault(key(c["meta"]["user_id"]), []).append(c)
    return groups


def _upsert(collection: Any, chunks: list[dict[str, Any]]) -> None:
    for i in range(0, len(chunks), 5000):
        part = chunks[i : i + 5000]
        collection.upsert(
            ids=[c["id"] for c in part],
            embeddings=np.stack([c["vector"] for c in part]),
            documents=[c["text"] for c in part],
            metadatas=[c["meta"] for c in part],
        )


def _replace_raw(collection: Any, where: dict[str, Any], doc: list[dict[str, Any]]) -> None:
    """The write path of a request, on a raw collection: find the document's old chunks,
    write the new ones, delete the old ones not overwritten."""
    old = collection.get(where=where, include=[])["ids"]
    _upsert(collection, doc)
    stale = sorted(set(old) - {c["id"] for c in doc})
    if stale:
        collection.delete(ids=stale)


def _shard(user: str) -> str:
    return f"shard-{int(hashlib.blake2b(user.encode(), digest_size=4).hexdigest(), 16) % SHARDS}"


def _settings() -> Any:
    from chromadb.config import Settings

    return Settings(anonymized_telemetry=False)


def _reopen_directory() -> None:
    """Forget the process's open Chroma systems, so the next client reads from disk."""
    from chromadb.api.client import SharedSystemClient

    SharedSystemClient.clear_system_cache()


class RawDesign:
    """A design on chromadb's own client (persistent directory)."""

    def __init__(self, name: str, path: str):
        self.name, self.path = name, path
        self._cache: dict[str, Any] = {}
        self._created: set[str] = set()  # users whose tenant/database exists
        self._admin: Any = None

    def reopen(self) -> None:
        _reopen_directory()
        self._cache.clear()
        self._admin = None

    def _client(self, tenant: str | None = None, database: str | None = None) -> Any:
        import chromadb

        kwargs: dict[str, Any] = {}
        if tenant:
            kwargs["tenant"] = tenant
        if database:
            kwargs["database"] = database
        return chromadb.PersistentClient(path=self.path, settings=_settings(), **kwargs)

    def collection(self, user: str) -> Any:
        """The collection holding `user`'s chunks (opened once per process)."""
        import chromadb

        key = {"filter": "all", "shards": _shard(user)}.get(self.name, user)
        if key in self._cache:
            return self._cache[key]
        meta = {"hnsw:space": "cosine"}
        if self.name in ("filter", "shards", "collections"):
            client = self._cache.get("__client") or self._client()
            self._cache["__client"] = client
            name = {"filter": "all", "shards": key}.get(self.name, f"user-{user}")
            col = client.get_or_create_collection(name, metadata=meta, embedding_function=None)
        else:
            tenant = f"tenant-{user}" if self.name == "tenants" else chromadb.DEFAULT_TENANT
            database = f"db-{user}" if self.name == "databases" else chromadb.DEFAULT_DATABASE
            if user not in self._created:
                self._created.add(user)
                if self._admin is None:
                    self._admin = chromadb.AdminClient(_settings_with_path(self.path))
                if self.name == "tenants":
                    self._admin.create_tenant(tenant)
                    self._admin.create_database(database, tenant)
                else:
                    self._admin.create_database(database)
            client = self._client(tenant, database)
            col = client.get_or_create_collection("chunks", metadata=meta, embedding_function=None)
        self._cache[key] = col
        return col

    def where(self, user: str, **equal: Any) -> dict[str, Any] | None:
        """The query's filter: the user wherever a collection holds several users."""
        if self.name in ("filter", "shards"):
            return user_filter(user, **equal)
        return user_filter(user, **equal) if equal else None

    async def load(self, chunks: list[dict[str, Any]]) -> None:
        if self.name == "filter":
            await asyncio.to_thread(_upsert, self.collection("all"), chunks)
            return
        key = _shard if self.name == "shards" else (lambda u: u)
        for group in _by_key(chunks, key).values():
            user = group[0]["meta"]["user_id"]
            col = await asyncio.to_thread(self.collection, user)
            await asyncio.to_thread(_upsert, col, group)

    async def query(self, user: str, vector: np.ndarray, k: int) -> int:
        col = self.collection(user)
        found = await asyncio.to_thread(
            col.query, query_embeddings=[vector], n_results=k, where=self.where(user)
        )
        return len(found["ids"][0])

    async def replace(self, doc: list[dict[str, Any]]) -> None:
        meta = doc[0]["meta"]
        col = self.collection(meta["user_id"])
        where = user_filter(meta["user_id"], doc_id=meta["doc_id"])
        await asyncio.to_thread(_replace_raw, col, where, doc)


def _settings_with_path(path: str) -> Any:
    from chromadb.config import Settings

    return Settings(anonymized_telemetry=False, is_persistent=True, persist_directory=path)


class StoreDesign:
    """What ships: the VectorStore, on a directory or on a `chroma run` server."""

    def __init__(self, name: str, path: str, server: bool = False):
        self.name, self.path = name, path
        self.server: subprocess.Popen | None = None
        self.port = 8000
        if server:
            self.server, self.port = start_chroma_server(f"{path}/server", Path(path) / "log")
        self.store = self._store()

    def _store(self) -> VectorStore:
        if self.server is not None:
            return VectorStore(host="127.0.0.1", port=self.port)
        return VectorStore(path=self.path)

    def reopen(self) -> None:
        """A directory read anew, or the Chroma server restarted (the same data)."""
        if self.server is not None:
            self.close()
            self.server, self.port = start_chroma_server(
                f"{self.path}/server", Path(self.path) / "log"
            )
        else:
            _reopen_directory()
        self.store = self._store()

    def close(self) -> None:
        if self.server is not None:
            self.server.terminate()
            self.server.wait(timeout=30)
            self.server = None

    async def load(self, chunks: list[dict[str, Any]]) -> None:
        """Bulk, a user at a time, into the collections the store opens (the per-request
        write path is measured separately, as `write`)."""
        for group in _by_key(chunks, lambda u: u).values():
            store = await asyncio.to_thread(self.store.store_for, group[0]["meta"]["user_id"])
            await asyncio.to_thread(_upsert, store._collection, group)

    async def query(self, user: str, vector: np.ndarray, k: int) -> int:
        hits = await self.store.query(user, vector.tolist(), k)
        assert all(h.doc_id for h in hits)
        return len(hits)

    async def replace(self, doc: list[dict[str, Any]]) -> None:
        meta = doc[0]["meta"]
        await self.store.replace(
            meta["user_id"],
            meta["doc_id"],
            [c["id"] for c in doc],
            [c["text"] for c in doc],
            [c["vector"].tolist() for c in doc],
            [c["meta"] for c in doc],
        )


async def _timed(calls: list[Callable[[], Awaitable[Any]]]) -> list[float]:
    seconds = []
    for call in calls:
        t = time.perf_counter()
        await call()
        seconds.append(time.perf_counter() - t)
    return seconds


def _ms(seconds: list[float], q: float) -> float:
    return round(percentile(seconds, q) * 1000, 2)


def _disk_mb(path: str) -> float:
    total = sum(f.stat().st_size for f in Path(path).rglob("*") if f.is_file())
    return round(total / 1e6, 1)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_chroma_server(path: str, log: Path) -> tuple[subprocess.Popen, int]:
    """`chroma run` (the chromadb wheel's CLI) on a free port, answering its heartbeat."""
    port = _free_port()
    chroma = str(Path(sys.executable).parent / "chroma")
    cmd = [chroma, "run", "--path", path, "--host", "127.0.0.1", "--port", str(port)]
    env = {**os.environ, "ANONYMIZED_TELEMETRY": "False"}
    with log.open("w") as out:
        proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"chroma run exited: {log.read_text()[-1000:]}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/v2/heartbeat", timeout=1).is_success:
                return proc, port
        except httpx.HTTPError:
            pass
        time.sleep(0.3)
    proc.terminate()
    raise TimeoutError("chroma run did not answer within 60 s")


async def _queries(design: Any, users: list[str], vectors: np.ndarray) -> list[float]:
    return await _timed(
        [(lambda u=u, v=v: design.query(u, v, 5)) for u, v in zip(users, vectors, strict=True)]
    )


async def _run_design(
    name: str, data: dict[int, list[dict[str, Any]]], sizes: tuple[int, ...], queries: int
) -> dict[str, dict[str, Any]]:
    """Per size: load, then `queries` random users queried three times: first (right after
    the writes), warm (again: the index is loaded), cold (after reopening the directory or
    restarting the server); then WRITES one-document replacements."""
    root = tempfile.mkdtemp(prefix=f"bench-chroma-{name}-")
    design: Any
    if name in ("store", "store_server"):
        design = StoreDesign(name, root, server=name == "store_server")
    else:
        design = RawDesign(name, root)
    out: dict[str, dict[str, Any]] = {}
    try:
        for size in sizes:
            rng = np.random.default_rng(size)  # same queries and users for every design
            started = time.perf_counter()
            await design.load(data[size])
            insert_s = time.perf_counter() - started
            users = [f"u{u}" for u in rng.choice(USERS, size=queries, replace=False)]
            vectors = _unit(rng, queries)
            first = await _queries(design, users, vectors)
            warm = await _queries(design, users, vectors[::-1])
            design.reopen()
            cold = await _queries(design, users, vectors)
            # One request's write: replace a 10-chunk document with new vectors.
            docs = _by_doc(data[size])
            picked = [docs[int(i)] for i in rng.choice(len(docs), size=WRITES, replace=False)]
            fresh = [
                [{**c, "vector": v} for c, v in zip(d, _unit(rng, len(d)), strict=True)]
                for d in picked
            ]
            writes = await _timed([(lambda d=d: design.replace(d)) for d in fresh])
            out[str(size)] = {
                "p50_ms": _ms(warm, 0.5),
                "p95_ms": _ms(warm, 0.95),
                "first_p50_ms": _ms(first, 0.5),
                "first_p95_ms": _ms(first, 0.95),
                "cold_p50_ms": _ms(cold, 0.5),
                "cold_p95_ms": _ms(cold, 0.95),
                "write_p50_ms": _ms(writes, 0.5),
                "insert_s": round(insert_s, 1),
                "disk_mb": _disk_mb(root),
            }
    finally:
        if isinstance(design, StoreDesign):
            design.close()
        _reopen_directory()
        shutil.rmtree(root, ignore_errors=True)
    return out


async def retrieval_latency(
    sizes: tuple[int, ...] = SIZES,
    queries: int = QUERIES,
    designs: tuple[str, ...] = DESIGNS,
    shipped: str = "store",
) -> dict[str, Any]:
    """Per size: the shipped design's figures at the top level (what the plot reads), and
    every design's under `designs`. Each size adds chunks to the previous one."""
    rng = np.random.default_rng(0)
    data, start = {}, 0
    for size in sizes:
        data[size] = _chunks(start, size, rng)
        start = size
    by_design = {name: await _run_design(name, data, sizes, queries) for name in designs}
    out: dict[str, Any] = {}
    for size in sizes:
        top = by_design[shipped][str(size)]
        out[str(size)] = {
            "chunks": size,
            "users": USERS,
            "design": shipped,
            "p50_ms": top["p50_ms"],
            "p95_ms": top["p95_ms"],
            "insert_s": top["insert_s"],
            "designs": {name: by_design[name][str(size)] for name in designs},
        }
    return out


def render(rt: dict[str, Any], et: dict[str, Any] | None) -> list[str]:
    """The retrieval section of bench/results/latest.md."""
    rows = sorted(rt.values(), key=lambda r: r["chunks"])
    if "designs" in rows[0]:
        lines = _render_designs(rows[0], rows[-1])
    else:  # figures of the single shared collection, before the designs were measured
        lines = [
            "",
            "Retrieval: user-filtered top-5 in Chroma (persistent directory), 100 users, 200 "
            "queries; embedding throughput of the configured model.",
            "",
            "| chunks | query P50 | query P95 | P50 / smallest collection's | insert time |",
            "|---|---|---|---|---|",
        ]
        lines += [
            f"| {r['chunks']:,} | {r['p50_ms']} ms | {r['p95_ms']} ms | "
            f"{r['p50_ms'] / rows[0]['p50_ms']:.1f}x | {r['insert_s']} s |"
            for r in rows
        ]
    if et:
        lines += [
            "",
            f"| embedding (`{et['model']}`) | one per call | batches of {et['batch']} | ratio |",
            "|---|---|---|---|",
            f"| passages/s | {et['single_per_s']} | {et['batched_per_s']} | {et['ratio']}x |",
        ]
    return lines


def _render_designs(small: dict[str, Any], large: dict[str, Any]) -> list[str]:
    a_k, b_k = f"{small['chunks'] // 1000}k", f"{large['chunks'] // 1000}k"
    ratio = large["p50_ms"] / small["p50_ms"]
    ship_a, ship_b = small["designs"][small["design"]], large["designs"][small["design"]]
    cold_ratio = ship_b["cold_p50_ms"] / ship_a["cold_p50_ms"]
    lines = [
        "",
        f"Retrieval: a user's top-5 in Chroma, {small['users']:,} users (10 chunks per "
        "document), 200 random users per size, each size adding chunks to the one before. "
        "Warm = the user's index already loaded; first = the first query after the writes; "
        "cold = after reopening the directory (restarting the server); write = replacing one "
        f"10-chunk document (P50 of 50). Shipped: `{small['design']}`, warm P50 "
        f"{large['p50_ms']} ms at {large['chunks']:,} chunks = {ratio:.2f}x its "
        f"{small['chunks']:,} figure, cold {cold_ratio:.2f}x (target: within 1.5x; the seed's "
        "single collection measured 11.4 -> 65.5 ms, 5.7x, with 100 users).",
        "",
        f"| design | warm P50 / P95 {a_k} | warm {b_k} | warm {b_k}/{a_k} | cold {a_k} | "
        f"cold {b_k} | cold {b_k}/{a_k} | first {b_k} | write {b_k} | load {b_k} | "
        f"disk {b_k} |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, a in small["designs"].items():
        b = large["designs"][name]
        lines.append(
            f"| `{name}` | {a['p50_ms']} / {a['p95_ms']} ms | {b['p50_ms']} / {b['p95_ms']} ms "
            f"| {b['p50_ms'] / a['p50_ms']:.2f}x | {a['cold_p50_ms']} / {a['cold_p95_ms']} ms "
            f"| {b['cold_p50_ms']} / {b['cold_p95_ms']} ms | "
            f"{b['cold_p50_ms'] / a['cold_p50_ms']:.2f}x | {b['first_p50_ms']} ms | "
            f"{b['write_p50_ms']} ms | {b['insert_s']} s | {b['disk_mb']} MB |"
        )
    return lines


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


if __name__ == "__main__":  # a quick look at some designs: python -m bench.retrieval filter store
    import json

    chosen = tuple(sys.argv[1:]) or DESIGNS
    result = asyncio.run(retrieval_latency(designs=chosen, shipped=chosen[0]))
    print(json.dumps(result, indent=1))
    print("\n".join(render(result, None)))
