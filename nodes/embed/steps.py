"""The document embedding graph's steps: check for an unchanged document, chunk and embed
in batches, replace the document's chunks in the vector store."""

from __future__ import annotations

import asyncio
import hashlib
from typing import Any

from langgraph.graph import END
from langgraph.types import Command

from core.errors import validated
from core.services import get_services
from core.vector_store import COLLECTION
from nodes.embed.chunking import chunk_text
from nodes.embed.schemas import FileEmbedInput
from nodes.embed.state import EmbedState
from text import job_title
from text.posting import find_company


def document_hash(text: str, doc_type: str, embedding_model: str) -> str:
    """Content hash of what would be stored: same text, type and model -> same chunks."""
    normalised = " ".join(text.split())
    return hashlib.sha256(f"{embedding_model}\x1f{doc_type}\x1f{normalised}".encode()).hexdigest()


async def check_unchanged(state: EmbedState) -> Command:
    """Reads the input; validates it; ends at once (nothing re-embedded) when this doc_id
    already holds chunks of the same content, else writes `doc_hash` and goes on."""
    request = validated(FileEmbedInput, state)
    services = get_services()
    digest = document_hash(request.text, request.doc_type, services.settings.embedding_model)
    stored, count = await services.vectors.stored_hash(request.user_id, request.doc_id)
    if stored == digest and count:
        done = {"doc_id": request.doc_id, "chunks": count, "collection": COLLECTION}
        return Command(goto=END, update={**done, "replaced": 0})
    return Command(goto="embed_chunks", update={"doc_hash": digest})


async def embed_chunks(state: EmbedState) -> dict[str, Any]:
    """Reads the text; writes `chunk_texts`, `sections` and `vectors` (embedded in batches of
    EMBED_BATCH_SIZE, off the event loop)."""
    services = get_services()
    settings = services.settings
    chunks = await asyncio.to_thread(  # section splitting and packing: CPU, off the loop
        chunk_text,
        state["text"],
        state["doc_type"],
        settings.embed_chunk_chars,
        settings.embed_chunk_overlap,
    )
    texts = [c.text for c in chunks]
    vectors: list[list[float]] = []
    for start in range(0, len(texts), settings.embed_batch_size):
        batch = texts[start : start + settings.embed_batch_size]
        vectors += await asyncio.to_thread(services.embeddings.embed_documents, batch)
    return {"chunk_texts": texts, "sections": [c.section for c in chunks], "vectors": vectors}


async def store_chunks(state: EmbedState) -> dict[str, Any]:
    """Reads the chunks and vectors; replaces the document's earlier chunks in the store;
    writes the FileEmbedResult fields."""
    user_id, doc_id = state["user_id"], state["doc_id"]
    texts = state["chunk_texts"]
    # A posting's company rides on every chunk, so a chunk found alone still says whose it is.
    company = find_company(state["text"]) if state["doc_type"] == "posting" else None
    # and the job it is for ("네이버 공고 무슨 직무야" is answered from any chunk)
    position = (
        job_title.rank(state["text"], company=company) if state["doc_type"] == "posting" else None
    )
    metadatas = [
        {
            **({"company": company} if company else {}),
            **({"position": position} if position else {}),
            "user_id": user_id,
            "doc_id": doc_id,
            "doc_type": state["doc_type"],
            "section": section,
            "doc_hash": state["doc_hash"],
            "chunk": i,
        }
        for i, section in enumerate(state["sections"])
    ]
    ids = [f"{user_id}:{doc_id}:{i}" for i in range(len(texts))]
    replaced = await get_services().vectors.replace(
        user_id, doc_id, ids, texts, state["vectors"], metadatas
    )
    return {
        "doc_id": doc_id,
        "chunks": len(texts),
        "collection": COLLECTION,
        "replaced": replaced,
        "vectors": [],  # not kept in state
    }
