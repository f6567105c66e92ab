"""The document-embedding graph's input, output and state."""

from __future__ import annotations

from typing_extensions import TypedDict


class EmbedIn(TypedDict):
    user_id: str
    doc_id: str
    doc_type: str
    text: str


class EmbedOut(TypedDict):
    doc_id: str
    chunks: int
    collection: str
    replaced: int


class EmbedState(EmbedIn, EmbedOut, total=False):
    doc_hash: str
    chunk_texts: list[str]
    sections: list[str]
    vectors: list[list[float]]
