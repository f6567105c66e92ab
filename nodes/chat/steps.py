"""The chat graph's steps. Each docstring says what the step reads and writes.

Per room (checkpointed under `chat:{user_id}:{room_id}`): `messages` (LangGraph's
convention: Human, AI with `tool_calls`, Tool messages) trimmed to the last 5 turns, the
same turns as compact `history` records for the answer prompt, and a bounded running
summary of older ones. Tools act for the request's `user_id` only (injected from the state).
"""

from __future__ import annotations

import asyncio
import logging
import re
import threading
import uuid
from datetime import date
from typing import Any

from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    RemoveMessage,
    ToolMessage,
    trim_messages,
)
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool, ToolException
from langgraph.graph.message import REMOVE_ALL_MESSAGES
from langgraph.types import Command

from core.cache import cache_key
from core.errors import validated
from core.grounded import GroundedWriter
from core.services import get_services
from core.structured import generate_structured, invoke_text
from core.telemetry import DEGENERATE
from nodes.calendar.stages import STAGE_PATTERNS
from nodes.chat.agent import agent_available
from nodes.chat.grounded import (
    Passage,
    added_text,
    deleted_text,
    general_answer,
    junk_reason,
    moved_text,
    rag_answer,
    schedule_list_text,
    stages_text,
)
from nodes.chat.router import (
    ADD_VERB,
    DELETE_VERB,
    MOVE_VERB,
    ExampleRouter,
    RouteDecision,
    is_compound,
    keyword_route,
)
from nodes.chat.schemas import ChatInput, RouteChoice
from nodes.shared.degenerate import writes_grounded_text
from nodes.shared.korean_dates import find_when, week_range
from nodes.shared.korean_text import content_words
from prompts import data_records, load_prompt
from tools.calendar import get_recruitment_schedule, source_of, today_of
from tools.documents import context_of, search_user_documents, sources_of
from tools.schedule import ScheduleStore
from tools.schedule_tools import add_schedule, delete_schedule, get_schedule, update_schedule

log = logging.getLogger(__name__)
FEATURE = "chat"
INTERNAL = {"tags": ["internal", "langsmith:nostream"]}
ANSWER_PROMPT = load_prompt("chat/answer")
ROUTE_PROMPT = load_prompt("chat/route")
SUMMARY_PROMPT = load_prompt("chat/summary")
WINDOW_TURNS = 5
SUMMARY_LINES = 10
SUMMARY_MAX_CHARS = 600
SUMMARY_MAX_TOKENS = 256
ANSWER_CACHE_TTL_S = 3600
ROUTER_MARGIN = 0.02
_routers: dict[int, ExampleRouter] = {}
_ROUTERS_LOCK = threading.Lock()

COMMAND_WORDS = re.compile(
    r"(?:일정|스케줄|약속)?\s*(?:을|를)?\s*(?:추가|등록|넣어|잡아|만들어|기록)\s*(?:해\s*)?(?:줘|주세요|줄래|해)?"
    r"|에\s*$|[?.!]"
)


def _now(state: dict[str, Any]) -> date:
    return today_of(state.get("now"))


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


def _carried_over(state: dict[str, Any]) -> list[BaseMessage]:
    """A room checkpointed before the `messages` channel existed has only `history`: its
    turns become messages on the room's first new turn, so the model and Studio see them."""
    if state.get("messages") or not state.get("history"):
        return []
    return [
        message
        for turn in state["history"]
        for message in (HumanMessage(content=turn["user"]), AIMessage(content=turn["assistant"]))
    ]


async def route_message(state: dict[str, Any], config: RunnableConfig) -> Command:
    """Reads the message; validates it; appends it to `messages`; writes `route` and
    `routed_by`, and clears the previous turn's answer, tool calls, sources and tool steps.

    Stage one has no model (rules, then examples with a margin). When it is unsure, or the
    message asks for two things at once, a tool-calling model takes the turn (`call_model`:
    the route then follows from the tools it calls); a model that cannot call tools picks
    a route (internal call, not streamed); the embedded stand-in is not asked at all."""
    request = validated(ChatInput, state)
    services = get_services()
    decision = await asyncio.to_thread(fast_route, request.message)
    route = decision.route
    fresh = {
        "answer": "",
        "tool_calls": [],
        "sources": [],
        "context": "",
        "passages": [],
        "tool_steps": 0,
        "messages": [*_carried_over(state), HumanMessage(content=request.message)],
    }
    if (route is None or is_compound(request.message)) and agent_available():
        return Command(
            goto="call_model", update={**fresh, "route": "general", "routed_by": "model-tools"}
        )
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


async def call_tool(tool: BaseTool, args: dict[str, Any], **injected: Any) -> ToolMessage:
    """The deterministic path calls the same tools a model would, as a tool call (so the
    result is a ToolMessage with its artifact); `injected` carries what the graph state
    gives a tool (`user_id`, `now`). A `ToolException` (e.g. an id that is gone) is raised
    to the caller."""
    call = {
        "type": "tool_call",
        "id": f"call_{uuid.uuid4().hex[:12]}",
        "name": tool.name,
        "args": {**args, **injected},
    }
    return await tool.ainvoke(call)


Done = tuple[dict[str, Any], ToolMessage]  # the contract's {name, args} and its result


def turn_messages(rounds: list[list[Done]], answer: str) -> list[BaseMessage]:
    """What a deterministic turn adds to `messages`: one AIMessage per round of tool calls
    (model-facing arguments only, never the user), their ToolMessages, then the answer. The
    room then reads like a tool-calling model's, in Studio and for a model's later turns."""
    added: list[BaseMessage] = []
    for calls in rounds:
        tool_calls = [
            {"name": c["name"], "args": c["args"], "id": m.tool_call_id, "type": "tool_call"}
            for c, m in calls
        ]
        added += [AIMessage(content="", tool_calls=tool_calls), *(m for _, m in calls)]
    return [*added, AIMessage(content=answer)]


def _tool_turn(rounds: list[list[Done]], answer: str, **extra: Any) -> dict[str, Any]:
    return {
        "answer": answer,
        "tool_calls": [c for calls in rounds for c, _ in calls],
        "messages": turn_messages(rounds, answer),
        **extra,
    }


def _said(answer: str) -> dict[str, Any]:
    return {"answer": answer, "messages": [AIMessage(content=answer)]}


async def run_schedule(state: dict[str, Any]) -> dict[str, Any]:
    """Reads the message; runs one schedule tool for the request's user; writes the answer,
    `tool_calls` and the turn's messages. Dates are resolved against `now`
    deterministically; the schedule to change is the user's own, by shared nouns."""
    services = get_services()
    user, message, now = state["user_id"], state["message"], _now(state)
    when = await asyncio.to_thread(find_when, message, now)
    if DELETE_VERB.search(message) or MOVE_VERB.search(message):
        items = await ScheduleStore(services.redis).get(user)
        target = await asyncio.to_thread(_match_schedule, items, message)
        if target is None:
            return _said("말씀하신 일정을 찾지 못했어요. 일정 이름을 다시 알려 주세요.")
        if DELETE_VERB.search(message):
            args = {"schedule_id": target["schedule_id"]}
            try:
                result = await call_tool(delete_schedule, args, user_id=user)
            except ToolException:
                return _said("말씀하신 일정을 찾지 못했어요. 일정 이름을 다시 알려 주세요.")
            answer = deleted_text(target)
            return _tool_turn([[({"name": "delete_schedule", "args": args}, result)]], answer)
        changes = {"date": when.date.isoformat() if when.date else None, "time": when.time}
        if not any(changes.values()):
            return _said(f"'{target['title']}' 일정을 언제로 옮길까요? 날짜나 시간을 알려 주세요.")
        args = {"schedule_id": target["schedule_id"], **{k: v for k, v in changes.items() if v}}
        try:
            result = await call_tool(update_schedule, args, user_id=user)
        except ToolException:
            return _said("말씀하신 일정을 찾지 못했어요. 일정 이름을 다시 알려 주세요.")
        answer = moved_text(result.artifact["schedule"])
        return _tool_turn([[({"name": "update_schedule", "args": args}, result)]], answer)
    if ADD_VERB.search(message):
        title = _title_of(message, when.spans)
        if when.date is None:
            return _said(f"'{title}' 일정을 언제로 추가할까요? 날짜를 알려 주세요.")
        args = {"title": title, "date": when.date.isoformat()}
        if when.time:
            args["time"] = when.time
        result = await call_tool(add_schedule, args, user_id=user)
        answer = added_text(result.artifact["schedule"])
        return _tool_turn([[({"name": "add_schedule", "args": args}, result)]], answer)
    span = week_range(message, now)
    start, end = span if span else ((when.date, when.date) if when.date else (now, None))
    args = {k: v.isoformat() for k, v in (("start_date", start), ("end_date", end)) if v}
    result = await call_tool(get_schedule, args, user_id=user)
    answer = schedule_list_text(result.artifact["schedules"])
    return _tool_turn([[({"name": "get_schedule", "args": args}, result)]], answer)


async def run_calendar(state: dict[str, Any]) -> dict[str, Any]:
    """Reads the message; finds the user's posting it is about (vector search over the
    user's postings only) and reads its recruitment stages with `get_recruitment_schedule`;
    answers with the asked stage, or adds the dated stages to the schedule (`add_schedule`)
    when asked to."""
    services = get_services()
    user, message = state["user_id"], state["message"]
    vector = await asyncio.to_thread(services.embeddings.embed_query, message)
    hits = await services.vectors.query(user, vector, 5, ["posting"])
    if not hits:
        return _said("등록된 채용공고가 없어요. 공고를 먼저 올려 주세요.")
    named = [h for h in hits if h.company and h.company in message]
    posting = (named or hits)[0]
    lookup_args = {"doc_id": posting.doc_id}
    lookup = await call_tool(
        get_recruitment_schedule, lookup_args, user_id=user, now=state.get("now")
    )
    parsed = lookup.artifact
    rounds: list[list[Done]] = [
        [({"name": "get_recruitment_schedule", "args": lookup_args}, lookup)]
    ]
    company = parsed["company"] or "해당 공고"
    asked = [t for t, pattern in STAGE_PATTERNS if pattern.search(message)]
    stages = [s for s in parsed["stages"] if not asked or s["stage_type"] in asked]
    sources = [source_of(posting)]
    if ADD_VERB.search(message):
        adds: list[Done] = []
        added = []
        for s in stages:
            if s["date"]:
                title = f"{company} {s['stage']}"
                args = {
                    "title": title,
                    "date": s["date"],
                    **({"time": s["time"]} if s["time"] else {}),
                }
                result = await call_tool(add_schedule, args, user_id=user)
                adds.append(({"name": "add_schedule", "args": args}, result))
                added.append(f"{s['date']} {title}")
        answer = (
            ("일정에 추가했어요:\n- " + "\n- ".join(added))
            if added
            else ("날짜가 정해진 전형이 없어 추가하지 않았어요.")
        )
        return _tool_turn([*rounds, adds] if adds else rounds, answer, sources=sources)
    return _tool_turn(rounds, stages_text(company, stages), sources=sources)


async def retrieve(state: dict[str, Any]) -> dict[str, Any]:
    """Reads the message; writes `sources` (the user's chunks, top-k, above the calibrated
    threshold), `context` for the answer prompt (the same search `search_documents` runs)
    and `passages` (the same chunks with their sections, for a grounded answer)."""
    kept = await search_user_documents(state["user_id"], state["message"])
    passages = [
        {
            "doc_id": h.doc_id,
            "doc_type": h.doc_type,
            "section": h.section,
            "text": h.text,
            "score": h.score,
            "company": h.company,
        }
        for h in kept
    ]
    return {
        "sources": sources_of(kept),
        "context": context_of(kept) or "(찾은 문서 없음)",
        "passages": passages,
    }


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


def grounded_answer(state: dict[str, Any], *, stand_in: bool) -> str:
    """The answer written from what this turn computed (nodes/chat/grounded.py): the
    retrieved passages for a document question, the honest reply otherwise. Calls the
    Korean analyser: run it in a worker thread."""
    if state.get("route") == "rag":
        passages = [Passage.of(p) for p in state.get("passages") or []]
        return rag_answer(state["message"], passages)
    return general_answer(state["message"], _now(state), stand_in=stand_in)


async def write_answer(state: dict[str, Any], config: RunnableConfig) -> dict[str, Any]:
    """Reads the message, the window, the summary, `context`, `passages` and `now`; writes
    `answer` (the user-visible, streamed call), `answer_cached` and the answer as an
    AIMessage.

    On the embedded stand-in (which cannot write Korean) the answer is grounded text,
    streamed as tokens like a model's, with no model call and no cache. With any other
    model, a request whose prompt inputs all equal an earlier one's (same question,
    context, room history and date) is answered from the cache without a model call; an
    answer that is junk (a loop, the prompt echoed, not Korean, empty) is replaced by the
    grounded one and counted. Its tokens have already streamed: the replacement is the
    final `answer` and what the room remembers."""
    services = get_services()
    inputs = answer_inputs(state)
    messages = ANSWER_PROMPT.messages(**inputs)
    timeout_s = services.settings.model_timeout_s
    call = {**config, "run_name": "write_answer"}
    spec = services.models.spec(FEATURE)
    if writes_grounded_text(spec):
        text = await asyncio.to_thread(grounded_answer, state, stand_in=True)
        answer = (await invoke_text(GroundedWriter(text=text), messages, call, timeout_s)).strip()
        return {"answer": answer, "answer_cached": False, "messages": [AIMessage(content=answer)]}
    key = answer_cache_key(state, inputs, spec)
    hit = await services.cache.get(key)
    known = "\n".join(inputs.values())  # what the model was given
    if hit is not None and junk_reason(hit["answer"], known) is None:
        return {
            "answer": hit["answer"],
            "answer_cached": True,
            "messages": [AIMessage(content=hit["answer"])],
        }
    model = services.models.runnable(FEATURE, max_tokens=services.settings.chat_max_output_tokens)
    answer = (await invoke_text(model, messages, call, timeout_s)).strip()
    reason = junk_reason(answer, known)
    if reason is not None:
        DEGENERATE.labels(FEATURE, reason).inc()
        log.info("chat answer replaced by grounded text: %s (route %s)", reason, state["route"])
        answer = await asyncio.to_thread(grounded_answer, state, stand_in=False)
    await services.cache.set(key, {"answer": answer}, ANSWER_CACHE_TTL_S)
    return {"answer": answer, "answer_cached": False, "messages": [AIMessage(content=answer)]}


def _turns(messages: list[BaseMessage]) -> int:
    """trim_messages' "token" count: one per turn (a turn starts with a HumanMessage)."""
    return sum(isinstance(m, HumanMessage) for m in messages)


def trimmed_messages(messages: list[BaseMessage]) -> list[BaseMessage]:
    """The `messages` channel's update that keeps the last WINDOW_TURNS turns whole (each
    from its HumanMessage through its tool calls, ToolMessages and answer); [] when
    nothing needs to go."""
    kept = trim_messages(
        messages, max_tokens=WINDOW_TURNS, token_counter=_turns, strategy="last", start_on="human"
    )
    if len(kept) == len(messages):
        return []
    return [RemoveMessage(id=REMOVE_ALL_MESSAGES), *kept]


def _summary_line(turn: dict[str, Any]) -> str:
    return f"- ({turn['route']}) {turn['user'][:60]} -> {turn['assistant'][:60]}"


async def model_summary(
    summary: list[str], dropped: list[dict[str, Any]], config: RunnableConfig
) -> str:
    """The running summary rewritten by the model with the turns that left the window
    (internal call, never streamed), at most SUMMARY_MAX_CHARS."""
    services = get_services()
    turns = data_records(
        record for t in dropped for record in (("사용자:", t["user"]), ("도우미:", t["assistant"]))
    )
    messages = SUMMARY_PROMPT.messages(summary="\n".join(summary) or "(없음)", turns=turns)
    text = await invoke_text(
        services.models.runnable(FEATURE, internal=True, max_tokens=SUMMARY_MAX_TOKENS),
        messages,
        {**config, **INTERNAL, "run_name": "summarise_turns"},
        services.settings.model_timeout_s,
    )
    return " ".join(text.split())[:SUMMARY_MAX_CHARS]


def _turn_update(
    state: dict[str, Any],
) -> tuple[dict[str, Any], list[dict[str, Any]], list[str]]:
    """The turn appended to `history` (last 5 turns) and `messages` trimmed to the same
    turns; with the turns that left the window and the summary so far."""
    history = [
        *(state.get("history") or []),
        {
            "user": state["message"][:500],
            "assistant": state["answer"][:800],
            "route": state["route"],
        },
    ]
    dropped = []
    while len(history) > WINDOW_TURNS:
        dropped.append(history.pop(0))
    update: dict[str, Any] = {"history": history, "message": None, "context": "", "passages": []}
    trimmed = trimmed_messages(list(state.get("messages") or []))
    if trimmed:
        update["messages"] = trimmed
    return update, dropped, list(state.get("summary_lines") or [])


def remember(state: dict[str, Any]) -> dict[str, Any]:
    """Reads the turn; appends it to `history` (last 5 turns), trims `messages` to the
    same turns and folds older turns into `summary_lines` by rule: one short line per
    turn, the last 10. State stays bounded."""
    update, dropped, summary = _turn_update(state)
    summary += [_summary_line(t) for t in dropped]
    return {**update, "summary_lines": summary[-SUMMARY_LINES:]}


async def remember_turn(state: dict[str, Any], config: RunnableConfig) -> dict[str, Any]:
    """The graph's `remember` step: as `remember`, except that with a tool-calling model
    the turns leaving the window fold into a model-written running summary (one entry, at
    most SUMMARY_MAX_CHARS); the embedded stand-in keeps the rule's lines. A failed
    summary call falls back to the rule (the answer is already made)."""
    update, dropped, summary = _turn_update(state)
    if not dropped or not agent_available():
        return remember(state)
    try:
        folded = [await model_summary(summary, dropped, config)]
    except Exception as exc:
        log.warning("chat summary by the model failed, folding by rule: %r", exc)
        folded = summary + [_summary_line(t) for t in dropped]
    return {**update, "summary_lines": folded[-SUMMARY_LINES:]}
