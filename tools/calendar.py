"""The recruitment-calendar lookup as a LangChain tool: `get_recruitment_schedule`.

It reads one of the user's embedded postings (Chroma, the user's filter inside the query)
and runs the calendar extractor on it: the stages, dates and times are the extractor's,
never a model's. The chat's deterministic path calls it with the `doc_id` of the posting
the message is nearest to; a model calls it with the company's name. `user_id` and `now`
come from the graph state (`InjectedState`), so a model cannot ask for another user's
postings, and year-less dates resolve against the request's `now`.
"""

from __future__ import annotations

import asyncio
import json
from datetime import date, datetime
from typing import Annotated, Any

from langchain_core.tools import StructuredTool, ToolException
from langgraph.prebuilt import InjectedState
from pydantic import BaseModel, Field

from core.cache import cache_key
from core.services import get_services
from core.vector_store import Hit
from text.dates import SEOUL, today_seoul
from text.posting import find_company
from text.stages import find_stages

PARSE_CACHE_TTL_S = 30
SOURCE_CHARS = 300


def today_of(now: Any) -> date:
    """The request's day in Asia/Seoul (`now` is an ISO string, a datetime, or None)."""
    if isinstance(now, str):
        now = datetime.fromisoformat(now)
    if isinstance(now, datetime):
        return now.astimezone(SEOUL).date() if now.tzinfo else now.date()
    if isinstance(now, date):
        return now
    return today_seoul()


class RecruitmentScheduleArgs(BaseModel):
    company: str | None = Field(
        default=None,
        max_length=60,
        description="채용 일정을 볼 회사 이름 (예: 카카오). 사용자가 올린 공고 중에서 찾습니다",
    )
    doc_id: str | None = Field(
        default=None, max_length=200, description="공고 문서 id (알 때만; 주면 company보다 우선)"
    )
    user_id: Annotated[str, InjectedState("user_id")]
    now: Annotated[Any, InjectedState("now")] = None  # an ISO string or a datetime


def source_of(hit: Hit) -> dict[str, Any]:
    return {
        "doc_id": hit.doc_id,
        "doc_type": "posting",
        "text": hit.text[:SOURCE_CHARS],
        "score": round(hit.score, 4),
    }


def _names_company(hit: Hit, company: str) -> bool:
    wanted = "".join(company.split())
    found = "".join((hit.company or "").split())
    return bool(found) and (wanted in found or found in wanted)


async def _find_posting(user_id: str, company: str) -> Hit:
    services = get_services()
    vector = await asyncio.to_thread(services.embeddings.embed_query, company)
    hits = await services.vectors.query(user_id, vector, 10, ["posting"])
    named = [h for h in hits if _names_company(h, company)] or [
        h for h in hits if "".join(company.split()) in "".join(h.text.split())
    ]
    if named:
        return named[0]
    known = sorted({f"{h.company or '회사 미상'} (doc_id={h.doc_id})" for h in hits})
    listed = ", ".join(known) if known else "없음"
    raise ToolException(
        f"POSTING_NOT_FOUND: 사용자가 올린 공고 중 {company!r} 공고가 없어요. 올린 공고: {listed}."
    )


async def posting_stages(user_id: str, doc_id: str, day: date) -> dict[str, Any]:
    """The posting's company and stages (cached briefly: re-reading a posting is cheap, but
    not free)."""
    services = get_services()
    key = cache_key("tool-calendar", user_id, doc_id, str(day))
    parsed = await services.cache.get(key)
    if parsed is None:
        text = await services.vectors.document_text(user_id, doc_id)
        if not text.strip():
            raise ToolException(
                f"POSTING_NOT_FOUND: 이 사용자에게 doc_id {doc_id!r} 문서가 없어요. "
                "company로 찾아 보세요."
            )
        stages = await asyncio.to_thread(find_stages, text, day)
        parsed = {
            "company": find_company(text),
            "stages": [s.as_dict() for s in stages],
            "source_text": text[:SOURCE_CHARS],
        }
        await services.cache.set(key, parsed, PARSE_CACHE_TTL_S)
    return parsed


async def _lookup(
    user_id: str,
    company: str | None = None,
    doc_id: str | None = None,
    now: Any = None,
) -> tuple[str, dict[str, Any]]:
    day = today_of(now)
    hit: Hit | None = None
    if not doc_id:
        if not (company and company.strip()):
            raise ToolException("company(회사 이름)나 doc_id 중 하나를 주세요.")
        hit = await _find_posting(user_id, company.strip())
        doc_id = hit.doc_id
    parsed = await posting_stages(user_id, doc_id, day)
    if hit is not None:
        source = source_of(hit)
    else:  # named by id: no similarity was computed; the document itself is the source
        text = parsed.get("source_text", "")
        source = {"doc_id": doc_id, "doc_type": "posting", "text": text, "score": 1.0}
    content = {"company": parsed["company"], "doc_id": doc_id, "stages": parsed["stages"]}
    artifact = {**content, "sources": [source]}
    return json.dumps(content, ensure_ascii=False), artifact


get_recruitment_schedule = StructuredTool.from_function(
    coroutine=_lookup,
    name="get_recruitment_schedule",
    description=(
        "사용자가 올린 채용공고에서 그 회사의 채용 전형 일정(서류 마감, 코딩테스트, 면접, "
        "발표)을 읽습니다. 날짜가 없는 전형은 date가 null입니다."
    ),
    args_schema=RecruitmentScheduleArgs,
    response_format="content_and_artifact",
)
