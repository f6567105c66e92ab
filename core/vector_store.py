"""Document vectors in Chroma through LangChain (`langchain_chroma.Chroma`), one collection
per user: a persistent directory by default, a Chroma server when CHROMA_HOST is set (the
path for more than one process or machine).

Why a collection per user (docs/decisions.md, measured in bench/retrieval.py): a query then
searches only that user's chunks, so its cost follows the user's own documents rather than
everyone's. Over 1,000 users, one shared collection with a user filter answered a top-5
in 9 ms at 10k chunks and 214 ms at 100k; a collection per user in 3.3 and 3.7 ms (warm),
22 and 22 ms for a user's first query after a restart. A collection's name is derived from
the user id (a hash: user ids may hold characters Chroma's names refuse), so every process
finds the same one without a lookup table.

Isolation does not rest on the name alone: every chunk still carries `user_id`, `doc_id`,
`doc_type`, `section` and the document's content hash, and every read is also filtered by
`user_id` inside Chroma's query. Writes and deletes touch only the user's own collection.
Reads for a user who has stored nothing create nothing (no empty collection per chatting
user). Calls are blocking (chromadb's client), so they run in a thread.

LangChain surfaces: `store_for(user_id)` is the user's `langchain_core` VectorStore and
`retriever(user_id, ...)` a VectorStoreRetriever over it, so any LangChain component can
search a user's documents with the same filter.
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from langchain_core.embeddings import Embeddings
from langchain_core.vectorstores import VectorStoreRetriever

from core.errors import DependencyError
from core.telemetry import RETRIEVAL_SECONDS

if TYPE_CHECKING:
    from chromadb.api.collection_configuration import CreateCollectionConfiguration

# The logical collection reported to the backend (FileEmbedResult.collection) and the prefix
# of every user's Chroma collection.
COLLECTION = "devths_documents"
# Chroma collection objects kept per process (least recently used dropped first). Opening
# one is a lookup (a round trip to a Chroma server), so active users skip it.
OPEN_COLLECTIONS = 2048
# A user's HNSW index is written to disk every HNSW_SYNC_THRESHOLD records (Chroma's default
# is 1000): the records since the last write are replayed from Chroma's log when a process
# first reads the collection, so with the default a user's first query in a process cost
# more the more chunks the user had (13 ms at 100, 34 ms at 300), against 6 and 9 ms when
# the index file is fresh; writes were no slower (docs/decisions.md, bench/retrieval.py).
HNSW_SYNC_THRESHOLD = 20
COLLECTION_CONFIGURATION: CreateCollectionConfiguration = {
    "hnsw": {"space": "cosine", "sync_threshold": HNSW_SYNC_THRESHOLD}
}

T = TypeVar("T")


@dataclass(frozen=True)
class Hit:
    doc_id: str
    doc_type: str
    section: str
    text: str
    score: float  # cosine similarity, 1 = same direction
    company: str | None = None  # postings: the company the document names
    position: str | None = None  # postings: the job the document is for


def collection_name(user_id: str) -> str:
    """The user's Chroma collection: stable across processes, within Chroma's name rules
    (3-512 of [A-Za-z0-9._-]), whatever characters the user id holds."""
    digest = hashlib.blake2b(user_id.encode(), digest_size=16).hexdigest()
    return f"{COLLECTION}-{digest}"


def user_filter(user_id: str, **equal: Any) -> dict[str, Any]:
    """A Chroma `where` that always holds the user: `{"user_id": u}` plus any equalities
    (a list value means "one of")."""
    parts: list[dict[str, Any]] = [{"user_id": user_id}]
    for key, value in equal.items():
        parts.append({key: {"$in": value} if isinstance(value, list) else value})
    return parts[0] if len(parts) == 1 else {"$and": parts}


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
    """A user's chunks in the user's own collection; public methods are async (thread)."""

    def __init__(
        self,
        path: str | None = None,
        host: str | None = None,
        port: int = 8000,
        embeddings: Embeddings | None = None,
        open_collections: int = OPEN_COLLECTIONS,
    ):
        self.path, self.host, self.port = path, host, port
        self.embeddings = embeddings
        self._max_open = open_collections
        self._client: Any = None
        self._stores: OrderedDict[str, Any] = OrderedDict()
        self._lock = threading.Lock()

    @property
    def where(self) -> str:
        return f"http://{self.host}:{self.port}" if self.host else f"dir:{self.path}"

    # --- opening ------------------------------------------------------------------------

    def _open_client(self) -> Any:
        with self._lock:
            if self._client is None:
                try:
                    import chromadb
                    from chromadb.config import Settings as ChromaSettings

                    settings = ChromaSettings(anonymized_telemetry=False)
                    if self.host:
                        self._client = chromadb.HttpClient(
                            host=self.host, port=self.port, settings=settings
                        )
                    else:
                        path = self.path or ".data/chroma"
                        Path(path).mkdir(parents=True, exist_ok=True)
                        self._client = chromadb.PersistentClient(path=path, settings=settings)
                except Exception as exc:
                    raise DependencyError(
                        f"Chroma at {self.where} is unavailable: {type(exc).__name__}"
                    ) from exc
            return self._client

    def store_for(self, user_id: str, create: bool = True) -> Any:
        """The user's LangChain vector store (`langchain_chroma.Chroma` over the user's
        collection), or None when `create` is false and the user has stored nothing."""
        from chromadb.errors import NotFoundError
        from langchain_chroma import Chroma

        name = collection_name(user_id)
        with self._lock:
            store = self._stores.get(name)
            if store is not None:
                self._stores.move_to_end(name)
                return store
        client = self._open_client()
        try:
            store = Chroma(
                collection_name=name,
                embedding_function=self.embeddings,
                client=client,
                collection_configuration=COLLECTION_CONFIGURATION,
                create_collection_if_not_exists=create,
            )
        except NotFoundError:
            return None
        with self._lock:
            self._stores[name] = store
            while len(self._stores) > self._max_open:
                self._stores.popitem(last=False)
        return store

    def _with_store(self, user_id: str, create: bool, fn: Callable[[Any], T], empty: T) -> T:
        """Runs `fn` on the user's store; once more on a fresh one if the cached collection
        is gone (deleted by another process, or a Chroma server started anew)."""
        from chromadb.errors import NotFoundError

        for attempt in (1, 2):
            store = self.store_for(user_id, create)
            if store is None:
                return empty
            try:
                return fn(store)
            except NotFoundError:
                self._forget(user_id)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def _forget(self, user_id: str) -> None:
        with self._lock:
            self._stores.pop(collection_name(user_id), None)

    # --- blocking operations ------------------------------------------------------------

    def _stored_hash(self, user_id: str, doc_id: str) -> tuple[str | None, int]:
        def read(store: Any) -> tuple[str | None, int]:
            found = store.get(where=user_filter(user_id, doc_id=doc_id), include=["metadatas"])
            metas = found.get("metadatas") or []
            return (metas[0].get("doc_hash") if metas else None), len(found.get("ids") or [])

        nothing: tuple[str | None, int] = (None, 0)
        return self._with_store(user_id, False, read, nothing)

    def _replace(
        self,
        user_id: str,
        doc_id: str,
        ids: list[str],
        texts: list[str],
        vectors: list[list[float]] | None,
        metadatas: list[dict[str, Any]],
    ) -> int:
        """Writes the document's chunks, then deletes its earlier chunks that the new ones
        did not overwrite (ids are per chunk position): a reader never finds the document
        empty. Returns how many chunks the document had before."""

        def write(store: Any) -> int:
            old = store.get(where=user_filter(user_id, doc_id=doc_id), include=[])["ids"]
            if ids and vectors is not None:
                # Vectors the embed graph computed (in batches, off the loop). LangChain's
                # VectorStore has no "add with these vectors", so they go to the Chroma
                # collection the LangChain store wraps.
                store._collection.upsert(
                    ids=ids, documents=texts, embeddings=vectors, metadatas=metadatas
                )
            elif ids:
                store.add_texts(texts, metadatas=metadatas, ids=ids)  # embeds with our model
            stale = sorted(set(old) - set(ids))
            if stale:
                store.delete(ids=stale)
            return len(old)

        create = bool(ids)  # deleting a document of a user with nothing stored is a no-op
        return self._with_store(user_id, create, write, 0)

    def _query(
        self, user_id: str, vector: list[float], k: int, doc_types: list[str] | None
    ) -> list[Hit]:
        where = user_filter(user_id, **({"doc_type": doc_types} if doc_types else {}))

        def search(store: Any) -> list[Hit]:
            found = store.similarity_search_by_vector_with_relevance_scores(
                vector, k=k, filter=where
            )
            return [
                Hit(
                    doc.metadata["doc_id"],
                    doc.metadata["doc_type"],
                    doc.metadata.get("section", ""),
                    doc.page_content,
                    1 - distance,
                    doc.metadata.get("company") or None,
                    doc.metadata.get("position") or None,
                )
                for doc, distance in found
                if doc.metadata.get("user_id") == user_id  # the filter's result, re-checked
            ]

        return self._with_store(user_id, False, search, [])

    def _containing(
        self,
        user_id: str,
        words: list[str],
        vector: list[float],
        limit: int,
        doc_types: list[str] | None,
    ) -> list[Hit]:
        where = user_filter(user_id, **({"doc_type": doc_types} if doc_types else {}))
        contains: list[dict[str, Any]] = [{"$contains": w} for w in words]
        where_document = contains[0] if len(contains) == 1 else {"$or": contains}

        def read(store: Any) -> list[Hit]:
            found = store.get(
                where=where,
                where_document=where_document,
                include=["documents", "metadatas", "embeddings"],
            )
            norm = sum(x * x for x in vector) ** 0.5 or 1.0
            hits = []
            for text, meta, emb in zip(
                found.get("documents") or [],
                found.get("metadatas") or [],
                found.get("embeddings") if found.get("embeddings") is not None else [],
                strict=False,
            ):
                if meta.get("user_id") != user_id:
                    continue
                dot = sum(a * b for a, b in zip(vector, emb, strict=False))
                size = sum(b * b for b in emb) ** 0.5 or 1.0
                hits.append(
                    Hit(
                        meta["doc_id"],
                        meta["doc_type"],
                        meta.get("section", ""),
                        text,
                        float(dot / (norm * size)),
                        meta.get("company") or None,
                        meta.get("position") or None,
                    )
                )

            # the chunks holding the rarer asked words first (a word every chunk holds, the
            # company's name, says little), then the nearest; a chunk of a posting holds its
            # company's name though its own lines do not say it ("카카오 공고에 Kafka 있어?":
            # the 우대사항 chunk of 카카오's posting holds both)
            def holds(h: Hit, w: str) -> bool:
                return w in h.text or (h.company is not None and w in h.company)

            weight = {
                w: math.log(1 + len(hits) / df)
                for w in words
                if (df := sum(holds(h, w) for h in hits))
            }

            def lexical(h: Hit) -> float:
                return sum(v for w, v in weight.items() if holds(h, w))

            return sorted(hits, key=lambda h: (-round(lexical(h), 6), -h.score))[:limit]

        return self._with_store(user_id, False, read, [])

    def _document_text(self, user_id: str, doc_id: str) -> str:
        def read(store: Any) -> str:
            found = store.get(
                where=user_filter(user_id, doc_id=doc_id), include=["documents", "metadatas"]
            )
            pairs = sorted(
                zip(found.get("metadatas") or [], found.get("documents") or [], strict=True),
                key=lambda p: p[0].get("chunk", 0),
            )
            return "\n".join(text for _, text in pairs)

        return self._with_store(user_id, False, read, "")

    def _delete_user(self, user_id: str) -> bool:
        from chromadb.errors import NotFoundError

        self._forget(user_id)
        try:
            self._open_client().delete_collection(collection_name(user_id))
        except NotFoundError:
            return False
        return True

    def _migrate_shared(self, page: int = 1000) -> int:
        """Moves the chunks of the single shared collection of earlier versions (named
        COLLECTION) into their users' collections, vectors and ids unchanged, then drops it.
        A run cut short can be run again: it rewrites the same ids. Returns chunks moved."""
        from chromadb.errors import NotFoundError

        client = self._open_client()
        try:
            shared = client.get_collection(COLLECTION)
        except NotFoundError:
            return 0
        moved = 0
        while True:
            found = shared.get(
                include=["embeddings", "documents", "metadatas"], limit=page, offset=moved
            )
            ids = found["ids"]
            if not ids:
                break
            by_user: dict[str, list[int]] = {}
            for i, meta in enumerate(found["metadatas"]):
                by_user.setdefault(str(meta["user_id"]), []).append(i)
            for user_id, rows in by_user.items():
                self.store_for(user_id)._collection.upsert(
                    ids=[ids[i] for i in rows],
                    embeddings=[found["embeddings"][i] for i in rows],
                    documents=[found["documents"][i] for i in rows],
                    metadatas=[found["metadatas"][i] for i in rows],
                )
            moved += len(ids)
        client.delete_collection(COLLECTION)
        return moved

    def _heartbeat(self) -> int:
        return int(self._open_client().heartbeat())

    # --- async API ----------------------------------------------------------------------

    async def stored_hash(self, user_id: str, doc_id: str) -> tuple[str | None, int]:
        return await self._call(self._stored_hash, user_id, doc_id)

    async def replace(
        self,
        user_id: str,
        doc_id: str,
        ids: list[str],
        texts: list[str],
        vectors: list[list[float]] | None,
        metadatas: list[dict[str, Any]],
    ) -> int:
        """Replaces the user's document `doc_id` by these chunks (`vectors` None: embedded
        here with the store's embeddings). Returns the number of chunks it had before."""
        if any(m.get("user_id") != user_id or m.get("doc_id") != doc_id for m in metadatas):
            raise ValueError("every chunk's metadata must name this user and document")
        return await self._call(self._replace, user_id, doc_id, ids, texts, vectors, metadatas)

    async def query(
        self, user_id: str, vector: list[float], k: int, doc_types: list[str] | None = None
    ) -> list[Hit]:
        started = time.perf_counter()
        try:
            return await self._call(self._query, user_id, vector, k, doc_types)
        finally:
            RETRIEVAL_SECONDS.observe(time.perf_counter() - started)

    async def containing(
        self,
        user_id: str,
        words: list[str],
        vector: list[float],
        limit: int,
        doc_types: list[str] | None = None,
    ) -> list[Hit]:
        """The user's chunks whose text holds any of `words` (the lexical half of a hybrid
        search: a chunk naming the asked term is found even when its vector is not among
        the nearest), scored by cosine to `vector` like `query`'s hits, best first."""
        if not words:
            return []
        started = time.perf_counter()
        try:
            return await self._call(self._containing, user_id, words, vector, limit, doc_types)
        finally:
            RETRIEVAL_SECONDS.observe(time.perf_counter() - started)

    async def document_text(self, user_id: str, doc_id: str) -> str:
        """A stored document's chunks in order (for re-reading a posting's schedule)."""
        return await self._call(self._document_text, user_id, doc_id)

    async def delete_user(self, user_id: str) -> bool:
        """Drops every chunk of the user (the user's collection); False if there was none."""
        return await self._call(self._delete_user, user_id)

    async def migrate_shared_collection(self) -> int:
        """Earlier versions kept every user's chunks in one collection: move them to the
        users' own (`python -m core.vector_store migrate`, once, after upgrading)."""
        return await self._call(self._migrate_shared)

    def retriever(
        self,
        user_id: str,
        k: int = 5,
        doc_types: list[str] | None = None,
        embeddings: Embeddings | None = None,
    ) -> VectorStoreRetriever:
        """A LangChain retriever over the user's documents (the same user filter inside the
        query). The question is embedded with `embeddings` (e.g. the services' model), else
        the store's own. Blocking: it may open (or create) the user's collection."""
        from langchain_chroma import Chroma

        model = embeddings or self.embeddings
        if model is None:
            raise ValueError("a retriever needs embeddings (the store's or passed in)")
        store = self.store_for(user_id, create=True)
        if store.embeddings is not model:  # same collection, this question's embeddings
            store = Chroma(
                collection_name=collection_name(user_id),
                embedding_function=model,
                client=self._open_client(),
                collection_configuration=COLLECTION_CONFIGURATION,
            )
        where = user_filter(user_id, **({"doc_type": doc_types} if doc_types else {}))
        return store.as_retriever(search_kwargs={"k": k, "filter": where})

    async def check(self) -> str:
        try:
            await asyncio.wait_for(self._call(self._heartbeat), timeout=5)
            return "ok"
        except Exception as exc:
            return f"error: {type(exc).__name__}"

    async def _call(self, fn: Callable[..., T], *args: Any) -> T:
        try:
            return await asyncio.to_thread(fn, *args)
        except DependencyError:
            raise
        except Exception as exc:
            raise DependencyError(f"Chroma call failed: {type(exc).__name__}: {exc}"[:300]) from exc


if __name__ == "__main__":  # python -m core.vector_store migrate
    import sys

    from core.settings import get_settings

    if sys.argv[1:] != ["migrate"]:
        raise SystemExit("usage: python -m core.vector_store migrate")
    conf = get_settings()
    target = VectorStore(conf.chroma_path, conf.chroma_host, conf.chroma_port)
    moved = asyncio.run(target.migrate_shared_collection())
    print(f"moved {moved} chunks from {COLLECTION!r} into per-user collections at {target.where}")
