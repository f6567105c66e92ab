"""The calendar parsing graph's steps.

Deterministic extraction does the exact work (stages, dates, times, company and position
in known forms); the model is asked only for what is still missing, and what it answers
is kept only when the text contains it.
"""

from __future__ import annotations

import re
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.graph import END
from langgraph.types import Command

from core.errors import validated
from core.services import get_services
from core.structured import INTERNAL, generate_structured
from core.writing import grounded_for
from nodes.calendar.schemas import CalendarParseInput, PostingHeader
from nodes.calendar.state import CalendarState
from prompts import load_prompt
from text.dates import today_seoul
from text.header import find_header
from text.job_title import rank as rank_job_title
from text.organization import rank as rank_organization
from text.posting import (
    addressed_to_staff,
    reads_as_conversation,
    reads_as_news,
    reads_as_other_genre,
    speaks_of_hiring,
)
from text.skills import taxonomy
from text.stages import ROLLING, find_stages, names_a_stage

FEATURE = "calendar"
HEADER_PROMPT = load_prompt("calendar/posting_header")
EMPLOYMENT = ("신입", "경력", "인턴", "정규직", "계약직", "전환형")
MODEL_TEXT_CHARS = 1500


def _squash(text: str) -> str:
    return re.sub(r"\s", "", text).lower()


def _squash_case(text: str) -> str:
    return re.sub(r"\s", "", text)


def hashtags(text: str, company: str | None, position: str | None) -> list[str]:
    """Company, position, employment terms and the first skills the text names."""
    tags = [company, position]
    tags += [term for term in EMPLOYMENT if term in text]
    if ROLLING.search(text):
        tags.append("상시채용")
    tags += list(taxonomy().mentions(text).values())[:3]
    return list(dict.fromkeys("#" + _squash_case(t) for t in tags if t))


def plausible(value: str) -> bool:
    """A model's company or position is a name (it has a letter), not a label, a stage, a
    date or a time ("17:00" from the stand-in model once reached the hashtags)."""
    stripped = value.strip()
    if not 2 <= len(stripped) <= 40 or not re.search(r"[가-힣A-Za-z]", stripped):
        return False
    if re.search(r"\d{1,4}\s*[./월-]\s*\d|\d{1,2}\s*(?::\s*\d{2}|시)", stripped):
        return False
    return not names_a_stage(stripped)


def extract_schedule(state: CalendarState) -> Command:
    """Reads text and now; writes the stages, company, position and hashtags; goes on to
    `ask_model` only when company or position is still unknown (a company the text says it
    does not name, "our client", is not asked for)."""
    request = validated(CalendarParseInput, state)
    now = request.now or today_seoul()
    text = request.text
    stages = find_stages(text, now)
    header = find_header(text)
    # the header's company is one candidate among every kind of evidence (organization.py)
    company = None if header.company_absent else rank_organization(text, header.company)
    position = rank_job_title(text, header.position, company)
    dated = [s for s in stages if s.date]
    if reads_as_news(text) or reads_as_other_genre(text):
        # a news article about a hiring ("삼성, 하반기 공채 돌입 …"), a newsletter's issue, a
        # tender, a job fair: their dates are no posting's steps, and whom they name is no
        # company that hires
        company, position, stages = None, None, []
    elif (reads_as_conversation(text) or addressed_to_staff(text)) and not speaks_of_hiring(text):
        # a pasted chat that speaks of no hiring ("[오후 12:05] 민호: 나 금요일에 면접있어서 …"),
        # a notice to the staff ("임직원 여러분 … 서류 제출: 1/22까지"): the days it names are no
        # hiring's steps, and nobody in it is a company ("수아: … 지원했던 거 연락 왔어 … 오전
        # 11시까지 오라는데" relays an invitation: it stays)
        company, position, stages = None, None, []
    elif dated and all(s.stage_type == "OTHER" for s in dated) and not speaks_of_hiring(text):
        # no dated step of a hiring kind and no word of hiring anywhere (a new-job post's
        # "starting a new position as …, my first day is March 9", an internal notice): its
        # dates are no steps of a hiring, and the title it names is nobody's opening
        company, position, stages = None, None, []
    elif position is None and not dated:
        # no job and no dated step of a hiring: a news article, a company's introduction,
        # an event notice. Not a posting: no company is guessed (contract: empty, not 4xx);
        # the steps it names without dates stay (a posting whose job was missed keeps them)
        company = None
    update = {
        "company": company,
        "position": position,
        "schedules": [s.as_dict() for s in stages],
        "hashtags": hashtags(text, company, position),
        "company_absent": header.company_absent,
    }
    if (company or header.company_absent) and position:
        return Command(goto=END, update=update)
    if grounded_for(FEATURE):
        # the embedded stand-in cannot read a name the rules did not find (8.7 s a call,
        # nothing kept on the cross-author set): nothing is asked, nothing guessed
        return Command(goto=END, update=update)
    return Command(goto="ask_model", update=update)


async def ask_model(state: CalendarState, config: RunnableConfig) -> dict[str, Any]:
    """Reads text and what is missing; asks the model for company/position and keeps an
    answer only if the text contains it (nothing is guessed)."""
    services = get_services()
    model = services.models.runnable(FEATURE, schema=PostingHeader, internal=True, max_tokens=96)
    header = await generate_structured(
        model,
        PostingHeader,
        HEADER_PROMPT.messages(text=state["text"][:MODEL_TEXT_CHARS]),
        {**config, **INTERNAL, "run_name": "ask_model"},
        services.settings.model_timeout_s,
    )
    body = _squash(state["text"])
    found: dict[str, Any] = {}
    for name in ("company", "position"):
        value = getattr(header, name)
        if name == "company" and state.get("company_absent"):
            continue  # "our client": the text says the company is not named
        if state.get(name) is None and value and plausible(value) and _squash(value) in body:
            found[name] = value.strip()
    if not found:
        return {}
    company = found.get("company", state.get("company"))
    position = found.get("position", state.get("position"))
    return {**found, "hashtags": hashtags(state["text"], company, position)}
