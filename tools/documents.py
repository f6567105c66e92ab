"""Retrieval over the user's own documents: the function the chat's `retrieve` step uses,
and the same as a LangChain tool (`search_documents`) for a tool-calling model.

The user filter is inside the vector-store query (`user_id` from the graph state, never a
model's argument); chunks below `RAG_MIN_SCORE` are dropped. What a model reads back is
document text, so it is escaped and fenced like every other document text in a prompt.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any, Literal

from langchain_core.tools import StructuredTool
from langgraph.prebuilt import InjectedState
from pydantic import BaseModel, Field

from core.services import get_services
from core.vector_store import Hit
from prompts import escape_data, fence

# Chunks found by a word of the question, beside the nearest ones.
KEYWORD_HITS = 4


def _terms(query: str) -> list[str]:
    """The query's nouns, an English word for a part of a document also as the heading a
    Korean document gives it ("certification" -> "자격증")."""
    from text.korean_text import content_words
    from text.sections import DUTIES_ASKED, asked_heading

    words = content_words(query)
    headings = [h for w in words if (h := asked_heading(w)) is not None]
    headings += ["담당업무"] if DUTIES_ASKED.search(query) else []
    return list(dict.fromkeys([*headings, *words]))[:8]


async def query_vector(query: str) -> list[float]:
    """The query's embedding (off the event loop), for searches that share it."""
    return await asyncio.to_thread(get_services().embeddings.embed_query, query)


async def search_user_documents(
    user_id: str, query: str, doc_type: str | None = None, vector: list[float] | None = None
) -> list[Hit]:
    """Hybrid retrieval over the user's chunks: the nearest to `query` (top `RAG_TOP_K`,
    at least `RAG_MIN_SCORE`), then up to KEYWORD_HITS more that contain one of the
    query's nouns ("경력 회사 어디야" finds the "[경력]" chunk even when its vector is not
    among the nearest), each once, best score first. `vector`: the query's embedding when
    the caller has it already."""
    services = get_services()
    settings = services.settings
    vector = vector if vector is not None else await query_vector(query)
    doc_types = [doc_type] if doc_type else None
    hits = await services.vectors.query(user_id, vector, settings.rag_top_k, doc_types)
    near = [h for h in hits if h.score >= settings.rag_min_score]
    terms = await asyncio.to_thread(_terms, query)
    lexical = await services.vectors.containing(user_id, terms, vector, KEYWORD_HITS, doc_types)
    seen = {(h.doc_id, h.text) for h in near}
    extra = [h for h in lexical if (h.doc_id, h.text) not in seen]
    return sorted(near + extra, key=lambda h: -h.score)


async def whole_documents(user_id: str, vector: list[float], doc_type: str) -> list[Hit]:
    """The user's document of a type nearest the query `vector`, whole (its chunks in order,
    as one hit): for a question about everything it says ("그 중에 내 이력서에 있는 거
    있어?"), which top-k chunks would cut short. Empty when the user has none of that type."""
    services = get_services()
    nearest = await services.vectors.query(user_id, vector, 1, [doc_type])
    whole = []
    for hit in {h.doc_id: h for h in reversed(nearest)}.values():
        text = await services.vectors.document_text(user_id, hit.doc_id)
        # (a posting's company and job go with it: a question naming the company keeps it)
        whole.append(
            Hit(
                doc_id=hit.doc_id,
                doc_type=doc_type,
                section="",
                text=text,
                score=0.0,
                company=hit.company,
                position=hit.position,
            )
        )
    return whole


def sources_of(hits: list[Hit]) -> list[dict[str, Any]]:
    return [
        {"doc_id": h.doc_id, "doc_type": h.doc_type, "text": h.text, "score": round(h.score, 4)}
        for h in hits
    ]


def context_of(hits: list[Hit]) -> str:
    # The source goes in parentheses, not brackets: the passages are document text, which
    # a prompt escapes as a whole (a "[...]" head would be escaped with it).
    return "\n\n".join(f"({h.doc_type}/{h.section}) {h.text}" for h in hits)


class SearchDocumentsArgs(BaseModel):
    query: str = Field(min_length=1, max_length=500, description="찾을 내용 (한국어 문장이나 단어)")
    doc_type: Literal["resume", "posting", "portfolio", "note"] | None = Field(
        default=None, description="문서 종류로 좁힐 때만"
    )
    user_id: Annotated[str, InjectedState("user_id")]


async def _search(
    user_id: str, query: str, doc_type: str | None = None
) -> tuple[str, dict[str, Any]]:
    hits = await search_user_documents(user_id, query, doc_type)
    if not hits:
        return "(찾은 문서 없음)", {"sources": []}
    return fence(escape_data(context_of(hits)), "documents"), {"sources": sources_of(hits)}


search_documents = StructuredTool.from_function(
    coroutine=_search,
    name="search_documents",
    description=(
        "사용자가 올린 이력서, 자기소개서, 포트폴리오, 채용공고에서 질문과 관련된 부분을 "
        "찾습니다. 문서 내용에 대한 질문에 답하기 전에 씁니다."
    ),
    args_schema=SearchDocumentsArgs,
    response_format="content_and_artifact",
)
