"""Document vectors in Chroma: a persistent directory by default, a Chroma server when
CHROMA_HOST is set (the path for more than one machine).

Every chunk carries `user_id`, `doc_id`, `doc_type`, `section` and the document's content
hash; every query is filtered by `user_id` inside Chroma, so one user's search can never
return another's chunks. Calls are blocking (chromadb's client), so they run in a thread.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.errors import DependencyError
from core.telemetry import RETRIEVAL_SECONDS

COLLECTION = "devths_documents"


@dataclass(frozen=True)
class Hit:
    doc_id: str
    doc_type: str
    section: str
    text: str
    score: float  # cosine similarity, 1 = same direction
    company: str | None = None  # postings: the company the document names


def check_topology(web_concurrency: int, host: str | None) -> None:
    """Refuse to start several API processes on one Chroma directory (SQLite under two
    writers is not safe): more than one process needs the Chroma server."""
    if web_concurrency > 1 and not host:
        raise DependencyError(
            f"WEB_CONCURRENCY={web_concurrency} needs a Chroma server: a Chroma directory is "
            "not safe for several processes. Start one (`make chroma`, or `chroma run "
            "--path DIR --port 8001`) and set CHROMA_HOST and CHROMA_PORT, or set "
            "WEB_CONCURRENCY=1."
        )


class VectorStore:
    def __init__(self, path: str | None = None, host: str | None = None, port: int = 8000):
        self.path, self.host, self.port = path, host, port
        self._collection: Any = None

    @property
    def where(self) -> str:
        return f"http://{self.host}:{self.port}" if self.host else f"dir:{self.path}"

    def _open(self) -> Any:
        if self._collection is None:
            try:
                import chromadb
                from chromadb.config import Settings as ChromaSettings

                settings = ChromaSettings(anonymized_telemetry=False)
                if self.host:
                    client = chromadb.HttpClient(host=self.host, port=self.port, settings=settings)
                else:
                    path = self.path or ".data/chroma"
                    Path(path).mkdir(parents=True, exist_ok=True)
                    client = chromadb.PersistentClient(path=path, settings=settings)
                self._collection = client.get_or_create_collection(
                    COLLECTION, metadata={"hnsw:space": "cosine"}, embedding_function=None
                )
            except Exception as exc:
                raise DependencyError(
                    f"Chroma at {self.where} is unavailable: {type(exc).__name__}"
                ) from exc
        return self._collection

    def _stored_hash(self, user_id: str, doc_id: str) -> tuple[str | None, int]:
        found = self._open().get(
            where={"$and": [{"user_id": user_id}, {"doc_id": doc_id}]}, include=["metadatas"]
        )
        metas = found.get("metadatas") or []
        return (metas[0].get("doc_hash") if metas else None), len(found.get("ids") or [])

    def _replace(
        self,
        user_id: str,
        doc_id: str,
        ids: list[str],
        texts: list[str],
        vectors: list[list[float]],
        metadatas: list[dict[str, Any]],
    ) -> int:
        collection = self._open()
        where = {"$and": [{"user_id": user_id}, {"doc_id": doc_id}]}
        old = collection.get(where=where, include=[])
        replaced = len(old.get("ids") or [])
        if replaced:
            collection.delete(ids=old["ids"])
        if ids:
            collection.add(ids=ids, documents=texts, embeddings=vectors, metadatas=metadatas)
        return replaced

    def _query(
        self, user_id: str, vector: list[float], k: int, doc_types: list[str] | None
    ) -> list[Hit]:
        where: dict[str, Any] = {"user_id": user_id}
        if doc_types:
            where = {"$and": [where, {"doc_type": {"$in": doc_types}}]}
        found = self._open().query(
            query_embeddings=[vector],
            n_results=k,
            where=where,
            include=["documents", "metadatas", "distances"],
        )
        hits = []
        for text, meta, distance in zip(
            found["documents"][0], found["metadatas"][0], found["distances"][0], strict=True
        ):
            hits.append(
                Hit(
                    meta["doc_id"],
                    meta["doc_type"],
                    meta.get("section", ""),
                    text,
                    1 - distance,
                    meta.get("company") or None,
                )
            )
        return hits

    def _count(self) -> int:
        return self._open().count()

    async def stored_hash(self, user_id: str, doc_id: str) -> tuple[str | None, int]:
        return await self._call(self._stored_hash, user_id, doc_id)

    async def replace(self, *args: Any) -> int:
        return await self._call(self._replace, *args)

    async def query(
        self, user_id: str, vector: list[float], k: int, doc_types: list[str] | None = None
    ) -> list[Hit]:
        started = time.perf_counter()
        try:
            return await self._call(self._query, user_id, vector, k, doc_types)
        finally:
            RETRIEVAL_SECONDS.observe(time.perf_counter() - started)

    async def document_text(self, user_id: str, doc_id: str) -> str:
        """A stored document's chunks in order (for re-reading a posting's schedule)."""
        return await self._call(lambda: _document_text(self._open(), user_id, doc_id))

    async def check(self) -> str:
        try:
            await asyncio.wait_for(self._call(self._count), timeout=5)
            return "ok"
        except Exception as exc:
            return f"error: {type(exc).__name__}"

    async def _call(self, fn: Any, *args: Any) -> Any:
        try:
            return await asyncio.to_thread(fn, *args)
        except DependencyError:
            raise
        except Exception as exc:
            raise DependencyError(f"Chroma call failed: {type(exc).__name__}: {exc}"[:300]) from exc


def _document_text(collection: Any, user_id: str, doc_id: str) -> str:
    found = collection.get(
        where={"$and": [{"user_id": user_id}, {"doc_id": doc_id}]},
        include=["documents", "metadatas"],
    )
    pairs = sorted(
        zip(found.get("metadatas") or [], found.get("documents") or [], strict=True),
        key=lambda p: p[0].get("chunk", 0),
    )
    return "\n".join(text for _, text in pairs)
