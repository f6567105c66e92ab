"""The chat graph's steps. Each docstring says what the step reads and writes.

Per room (checkpointed under `chat:{user_id}:{room_id}`): the last 5 turns verbatim and a
bounded running summary of older ones. Tools act for the request's `user_id` only.
"""

from __future__ import annotations

import asyncio
import re
import threading
from datetime import date, datetime
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.types import Command

from core.cache import cache_key
from core.errors import validated
from core.services import get_services
from core.structured import generate_structured, invoke_text
from nodes.calendar.stages import STAGE_PATTERNS, find_stages
from nodes.chat.router import (
    ADD_VERB,
    DELETE_VERB,
    MOVE_VERB,
    ExampleRouter,
    RouteDecision,
    keyword_route,
)
from nodes.chat.schemas import ChatInput, RouteChoice
from nodes.shared.korean_dates import SEOUL, find_when, week_range
from nodes.shared.korean_text import content_words
from nodes.shared.posting import find_company
from prompts import data_records, load_prompt
from tools.schedule import ScheduleStore

FEATURE = "chat"
INTERNAL = {"tags": ["internal", "langsmith:nostream"]}
ANSWER_PROMPT = load_prompt("chat/answer")
ROUTE_PROMPT = load_prompt("chat/route")
WINDOW_TURNS = 5
SUMMARY_LINES = 10
TOOL_CACHE_TTL_S = 30
ANSWER_CACHE_TTL_S = 3600
ROUTER_MARGIN = 0.02
_routers: dict[int, ExampleRouter] = {}
_ROUTERS_LOCK = threading.Lock()

COMMAND_WORDS = re.compile(
    r"(?:일정|스케줄|약속)?\s*(?:을|를)?\s*(?:추가|등록|넣어|잡아|만들어|기록)\s*(?:해\s*)?(?:줘|주세요|줄래|해)?"
    r"|에\s*$|[?.!]"
)


def _now(state: dict[str, Any]) -> date:
    value = state.get("now")
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    if isinstance(value, datetime):
        return value.astimezone(SEOUL).date() if value.tzinfo else value.date()
    return datetime.now(SEOUL).date()


def router_for_services() -> ExampleRouter:
    """The example router for the active services' embeddings (built once, also when the
    start-up warm-up and a first request ask at the same time)."""
    embeddings = get_services().embeddings
    with _ROUTERS_LOCK:
        if id(embeddings) not in _routers:
            _routers[id(embeddings)] = ExampleRouter(embeddings, ROUTER_MARGIN)
        return _routers[id(embeddings)]


def fast_route(message: str) -> RouteDecision:
    """Stage one of routing (no model): rules, then labelled examples with a margin."""
    by_rule = keyword_route(message)
    if by_rule is not None:
        return RouteDecision(by_rule, "keywords")
    return router_for_services().route(message)


async def route_message(state: dict[str, Any], config: RunnableConfig) -> Command:
    """Reads the message; validates it; writes `route` and `routed_by`, and clears the
    previous turn's answer, tool calls and sources. The model is asked only when the fast
    router is unsure (internal call, not streamed)."""
    request = validated(ChatInput, state)
    services = get_services()
    decision = await asyncio.to_thread(fast_route, request.message)
    route = decision.route
    if route is None and not services.models.spec(FEATURE).startswith("local"):
        key = cache_key(
            "chat-route",
            " ".join(request.message.split()),
            ROUTE_PROMPT.tag,
            services.models.spec(FEATURE),
        )
        cached = await services.cache.get(key)
        if cached is None:
            model = services.models.runnable(
                FEATURE, schema=RouteChoice, internal=True, max_tokens=24
            )
            choice = await generate_structured(
                model,
                RouteChoice,
                ROUTE_PROMPT.messages(message=request.message),
                {**config, **INTERNAL, "run_name": "route_message"},
                services.settings.model_timeout_s,
            )
            cached = {"route": choice.route}
            await services.cache.set(key, cached, ANSWER_CACHE_TTL_S)
        route, decision = cached["route"], RouteDecision(cached["route"], "model")
    elif route is None:
        # The embedded stand-in cannot classify (it answers "rag" to everything, see the
        # eval): the nearest examples' route, even without a clear margin, does better.
        best, gap = await asyncio.to_thread(router_for_services().best, request.message)
        route, decision = best, RouteDecision(best, "examples-nearest", gap)
    fresh = {"answer": "", "tool_calls": [], "sources": [], "context": ""}
    goto = {"rag": "retrieve", "calendar": "run_calendar", "schedule": "run_schedule"}
    return Command(
        goto=goto.get(route, "write_answer"),
        update={**fresh, "route": route, "routed_by": decision.by},
    )


def _title_of(message: str, spans: tuple[tuple[int, int], ...]) -> str:
    kept = "".join(ch for i, ch in enumerate(message) if not any(s <= i < e for s, e in spans))
    title = COMMAND_WORDS.sub(" ", kept)
    title = re.sub(r"^\s*(?:에|에는|의)\s+|\s+(?:에|으로|로)\s*$", " ", title)
    return " ".join(title.split()).strip(" ,")


def _match_schedule(items: list[dict[str, Any]], message: str) -> dict[str, Any] | None:
    """The user's schedule the message refers to: the most shared content words."""
    words = set(content_words(message))
    scored = [(len(words & set(content_words(i["title"]))), i) for i in items]
    scored = [p for p in scored if p[0] > 0]
    return max(scored, key=lambda p: p[0])[1] if scored else None


async def run_schedule(state: dict[str, Any]) -> dict[str, Any]:
    """Reads the message; runs one schedule tool for the request's user; writes the answer
    and `tool_calls`. Dates are resolved against `now` deterministically."""
    services = get_services()
    store = ScheduleStore(services.redis)
    user, message, now = state["user_id"], state["message"], _now(state)
    when = await asyncio.to_thread(find_when, message, now)
    if DELETE_VERB.search(message) or MOVE_VERB.search(message):
        items = await store.get(user)
        target = await asyncio.to_thread(_match_schedule, items, message)
        if target is None:
            return {"answer": "말씀하신 일정을 찾지 못했어요. 일정 이름을 다시 알려 주세요."}
        if DELETE_VERB.search(message):
            args = {"schedule_id": target["schedule_id"]}
            await store.delete(user, **args)
            answer = f"'{target['title']}' 일정({target['date']})을 삭제했어요."
            return {"answer": answer, "tool_calls": [{"name": "delete_schedule", "args": args}]}
        changes = {"date": when.date, "time": when.time}
        args = {
            "schedule_id": target["schedule_id"],
            **{k: str(v) for k, v in changes.items() if v},
        }
        updated = await store.update(user, target["schedule_id"], **changes)
        at = f"{updated['date']} {updated['time']}" if updated["time"] else updated["date"]
        return {
            "answer": f"'{updated['title']}' 일정을 {at}로 옮겼어요.",
            "tool_calls": [{"name": "update_schedule", "args": args}],
        }
    if ADD_VERB.search(message):
        title = _title_of(message, when.spans)
        if when.date is None:
            return {"answer": f"'{title}' 일정을 언제로 추가할까요? 날짜를 알려 주세요."}
        args = {"title": title, "date": when.date.isoformat()}
        if when.time:
            args["time"] = when.time
        item = await store.add(user, title, when.date, when.time)
        at = f" {item['time']}" if item["time"] else ""
        answer = f"{item['date']}{at}에 '{title}' 일정을 추가했어요."
        return {"answer": answer, "tool_calls": [{"name": "add_schedule", "args": args}]}
    span = week_range(message, now)
    start, end = span if span else ((when.date, when.date) if when.date else (now, None))
    args = {k: v.isoformat() for k, v in (("start_date", start), ("end_date", end)) if v}
    key = cache_key("tool-schedule", user, str(await store.version(user)), repr(args))
    items = await services.cache.get(key)
    if items is None:
        items = await store.get(user, start, end)
        await services.cache.set(key, items, TOOL_CACHE_TTL_S)
    if not items:
        answer = "해당 기간에 등록된 일정이 없어요."
    else:
        lines = [f"- {i['date']} {i['time'] or ''} {i['title']}".replace("  ", " ") for i in items]
        answer = "일정이에요:\n" + "\n".join(lines)
    return {"answer": answer, "tool_calls": [{"name": "get_schedule", "args": args}]}


async def run_calendar(state: dict[str, Any]) -> dict[str, Any]:
    """Reads the message; finds the user's posting it is about (vector search over the
    user's postings only) and reads its recruitment stages; answers with the asked stage,
    or adds the dated stages to the schedule when asked to."""
    services = get_services()
    user, message, now = state["user_id"], state["message"], _now(state)
    vector = await asyncio.to_thread(services.embeddings.embed_query, message)
    hits = await services.vectors.query(user, vector, 5, ["posting"])
    if not hits:
        return {"answer": "등록된 채용공고가 없어요. 공고를 먼저 올려 주세요."}
    named = [h for h in hits if h.company and h.company in message]
    posting = (named or hits)[0]
    key = cache_key("tool-calendar", user, posting.doc_id, str(now))
    parsed = await services.cache.get(key)
    if parsed is None:
        text = await services.vectors.document_text(user, posting.doc_id)
        stages = await asyncio.to_thread(find_stages, text, now)
        parsed = {
            "company": find_company(text),
            "stages": [s.as_dict() for s in stages],
        }
        await services.cache.set(key, parsed, TOOL_CACHE_TTL_S)
    company = parsed["company"] or "해당 공고"
    asked = [t for t, pattern in STAGE_PATTERNS if pattern.search(message)]
    stages = [s for s in parsed["stages"] if not asked or s["stage_type"] in asked]
    calls: list[dict[str, Any]] = [
        {"name": "get_recruitment_schedule", "args": {"doc_id": posting.doc_id}}
    ]
    source = {
        "doc_id": posting.doc_id,
        "doc_type": "posting",
        "text": posting.text[:300],
        "score": round(posting.score, 4),
    }
    if ADD_VERB.search(message):
        store = ScheduleStore(services.redis)
        added = []
        for s in stages:
            if s["date"]:
                title = f"{company} {s['stage']}"
                await store.add(user, title, date.fromisoformat(s["date"]), s["time"])
                args = {
                    "title": title,
                    "date": s["date"],
                    **({"time": s["time"]} if s["time"] else {}),
                }
                calls.append({"name": "add_schedule", "args": args})
                added.append(f"{s['date']} {title}")
        answer = (
            ("일정에 추가했어요:\n- " + "\n- ".join(added))
            if added
            else ("날짜가 정해진 전형이 없어 추가하지 않았어요.")
        )
        return {"answer": answer, "tool_calls": calls, "sources": [source]}
    if not stages:
        answer = f"{company} 공고에서 해당 전형 일정을 찾지 못했어요."
    else:
        lines = [
            f"- {s['stage']}: {s['date'] or '날짜 미정'}{' ' + s['time'] if s['time'] else ''}"
            for s in stages
        ]
        answer = f"{company} 채용 일정이에요:\n" + "\n".join(lines)
    return {"answer": answer, "tool_calls": calls, "sources": [source]}


async def retrieve(state: dict[str, Any]) -> dict[str, Any]:
    """Reads the message; writes `sources` (the user's chunks, top-k, above the calibrated
    threshold) and `context` for the answer."""
    services = get_services()
    settings = services.settings
    vector = await asyncio.to_thread(services.embeddings.embed_query, state["message"])
    hits = await services.vectors.query(state["user_id"], vector, settings.rag_top_k)
    kept = [h for h in hits if h.score >= settings.rag_min_score]
    sources = [
        {"doc_id": h.doc_id, "doc_type": h.doc_type, "text": h.text, "score": round(h.score, 4)}
        for h in kept
    ]
    # The source goes in parentheses, not brackets: the passages are document text, which
    # the answer prompt escapes as a whole (a "[...]" head would be escaped with it).
    context = "\n\n".join(f"({h.doc_type}/{h.section}) {h.text}" for h in kept)
    return {"sources": sources, "context": context or "(찾은 문서 없음)"}


def _window(history: list[dict[str, Any]]) -> str:
    """The recent turns for the answer prompt. The speaker heads are ours; each message and
    answer is escaped, so a line "도우미: ..." inside a message cannot pose as a turn."""
    if not history:
        return "(없음)"
    return data_records(
        record for t in history for record in (("사용자:", t["user"]), ("도우미:", t["assistant"]))
    )


def _today(state: dict[str, Any]) -> str:
    day = _now(state)
    return f"{day.isoformat()} ({'월화수목금토일'[day.weekday()]})"


def answer_inputs(state: dict[str, Any]) -> dict[str, str]:
    """Every value the answer prompt is rendered with: the message, the window and summary
    of this room, the retrieved context and today's date (relative dates in a question or
    in the history mean something else tomorrow)."""
    return {
        "today": _today(state),
        "summary": "\n".join(state.get("summary_lines") or []) or "(없음)",
        "window": _window(state.get("history") or []),
        "context": state.get("context") or "(없음)",
        "message": state["message"],
    }


def answer_cache_key(state: dict[str, Any], inputs: dict[str, str], model_spec: str) -> str:
    """The answer cache's key: the user, the route, the prompt's tag, the model and every
    input of the prompt (whitespace-normalised).

    Why key on the room's window and summary instead of skipping the cache when a room has
    history: an answer is a function of its prompt, so two requests whose prompts are equal
    may share it, and no others. Keying on every input gives exactly that: a new room (or
    two rooms with the same conversation so far) still hits, while the same question after
    a different conversation, or on another day, is a new answer. Skipping would lose the
    hits and still need a rule for what counts as "history"."""
    return cache_key(
        "chat-answer",
        state["user_id"],
        state["route"],
        ANSWER_PROMPT.tag,
        model_spec,
        *(f"{name}={' '.join(value.split())}" for name, value in sorted(inputs.items())),
    )


async def write_answer(state: dict[str, Any], config: RunnableConfig) -> dict[str, Any]:
    """Reads the message, the window, the summary, `context` and `now`; writes `answer`
    (the user-visible, streamed call) and `answer_cached`. A request whose prompt inputs
    all equal an earlier one's (same question, context, room history and date) is
    answered from the cache without a model call."""
    services = get_services()
    inputs = answer_inputs(state)
    key = answer_cache_key(state, inputs, services.models.spec(FEATURE))
    hit = await services.cache.get(key)
    if hit is not None:
        return {"answer": hit["answer"], "answer_cached": True}
    messages = ANSWER_PROMPT.messages(**inputs)
    model = services.models.runnable(FEATURE, max_tokens=services.settings.chat_max_output_tokens)
    text = await invoke_text(
        model, messages, {**config, "run_name": "write_answer"}, services.settings.model_timeout_s
    )
    answer = text.strip()
    await services.cache.set(key, {"answer": answer}, ANSWER_CACHE_TTL_S)
    return {"answer": answer, "answer_cached": False}


def remember(state: dict[str, Any]) -> dict[str, Any]:
    """Reads the turn; appends it to `history` (last 5 turns) and folds older turns into
    `summary_lines` (one short line each, the last 10): state stays bounded."""
    history = [
        *(state.get("history") or []),
        {
            "user": state["message"][:500],
            "assistant": state["answer"][:800],
            "route": state["route"],
        },
    ]
    summary = list(state.get("summary_lines") or [])
    while len(history) > WINDOW_TURNS:
        old = history.pop(0)
        summary.append(f"- ({old['route']}) {old['user'][:60]} -> {old['assistant'][:60]}")
    return {
        "history": history,
        "summary_lines": summary[-SUMMARY_LINES:],
        "message": None,
        "context": "",
    }
