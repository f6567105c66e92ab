"""The chat's second stage with a tool-calling model: the model with the tools bound,
LangGraph's `ToolNode` running what it asks for, in a loop bounded by CHAT_MAX_TOOL_STEPS.

    call_model --tool calls, under the limit--> run_tools --> call_model
        \\--an answer, or the limit reached--> finish_agent

Only messages the fast router is unsure of, and compound requests ("보여주고 ... 옮겨줘"),
come here, and only when the feature's primary model can call tools. The embedded
stand-in (llama.cpp, `_llm_type == "local-llama-cpp"`) cannot: everything stays on the
deterministic path there, as before.
"""

from __future__ import annotations

import asyncio
import json
import logging
import uuid
from collections.abc import Sequence
from datetime import date, timedelta
from typing import Any, cast

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.runnables import Runnable, RunnableConfig
from langchain_core.tools import BaseTool, ToolException
from langgraph.prebuilt import ToolNode
from pydantic import BaseModel

from core.errors import ModelTimeoutError
from core.services import get_services
from core.telemetry import DEGENERATE
from nodes.chat.grounded import general_answer, junk_reason, tool_results_answer
from nodes.chat.state import ChatState
from prompts import load_prompt
from tools.calendar import get_recruitment_schedule, today_of
from tools.documents import search_documents
from tools.schedule_tools import SCHEDULE_TOOLS

log = logging.getLogger(__name__)
FEATURE = "chat"
AGENT_PROMPT = load_prompt("chat/agent")
CHAT_TOOLS: tuple[BaseTool, ...] = (*SCHEDULE_TOOLS, get_recruitment_schedule, search_documents)
TOOLS_BY_NAME = {t.name: t for t in CHAT_TOOLS}
SCHEDULE_TOOL_NAMES = frozenset(t.name for t in SCHEDULE_TOOLS)
WEEKDAYS = "월화수목금토일"
STEP_LIMIT_NOTE = "실행하지 않음: 이번 요청의 도구 호출 단계 제한(CHAT_MAX_TOOL_STEPS)에 도달"


def can_call_tools(model: BaseChatModel) -> bool:
    """The model implements `bind_tools` (LangChain's base class raises) and is not the
    embedded stand-in, which has no tool calling."""
    if getattr(model, "_llm_type", "") == "local-llama-cpp":
        return False
    return type(model).bind_tools is not BaseChatModel.bind_tools


def agent_available() -> bool:
    """Whether the chat feature's primary model can call tools. A primary that cannot (the
    embedded stand-in) keeps every message on the deterministic path, even when a fallback
    could call tools: the fallback is for failures, not for routing."""
    chain = get_services().models.chain(FEATURE)
    return can_call_tools(chain[0][1])


def tool_model() -> Runnable:
    """The feature's model chain with the chat tools bound (on every model of the chain that
    can call tools; a fallback that cannot, e.g. the embedded model, answers in text), the
    answer capped at CHAT_MAX_OUTPUT_TOKENS; retries and fallbacks are the chain's."""
    services = get_services()
    return services.models.runnable(
        FEATURE, tools=list(CHAT_TOOLS), max_tokens=services.settings.chat_max_output_tokens
    )


def tool_error_text(exc: ToolException) -> str:
    """What the model reads when a tool call fails in a way it can fix: bad arguments (the
    ToolNode's `ToolInvocationError`, a `ToolException`) or a refusal such as an id that
    is not this user's. Other failures (Redis down) are not handled here: they end the
    request with their coded error."""
    message = getattr(exc, "message", None) or str(exc)
    return message if message.startswith("Error") else f"Error: {message}"


def build_tool_node() -> ToolNode:
    return ToolNode(list(CHAT_TOOLS), handle_tool_errors=tool_error_text)


def _turn_start(messages: Sequence[BaseMessage]) -> int:
    """Index of the current turn's HumanMessage (the last one)."""
    for i in range(len(messages) - 1, -1, -1):
        if isinstance(messages[i], HumanMessage):
            return i
    return 0


def _dates(state: ChatState) -> dict[str, str]:
    """Today and this week (Monday to Sunday) in Asia/Seoul, for relative dates."""
    day = today_of(state.get("now"))
    monday = day - timedelta(days=day.weekday())

    def label(d: date) -> str:
        return f"{d.isoformat()} ({WEEKDAYS[d.weekday()]})"

    return {"today": label(day), "week": f"{label(monday)} ~ {label(monday + timedelta(6))}"}


def agent_messages(state: ChatState) -> list[BaseMessage]:
    """The model's input: the system part (today's date, this week), the running summary
    as fenced data when there is one, then the room's messages (the window and this
    turn)."""
    summary = "\n".join(state.get("summary_lines") or [])
    system, summary_message = AGENT_PROMPT.messages(**_dates(state), summary=summary or "(없음)")
    head: list[BaseMessage] = [system]
    if summary:
        head.append(summary_message)
    return [*head, *(state.get("messages") or [])]


def _fresh_ids(message: AIMessage) -> AIMessage:
    """Every tool call needs an id its ToolMessage can answer (some providers omit it)."""
    if all(call.get("id") for call in message.tool_calls):
        return message
    calls = [
        {**c, "id": c.get("id") or f"call_{uuid.uuid4().hex[:12]}"} for c in message.tool_calls
    ]
    return message.model_copy(update={"tool_calls": calls})


async def call_model(state: ChatState, config: RunnableConfig) -> dict[str, Any]:
    """Reads the room's messages and the summary; appends the model's reply (an answer, or
    tool calls) to `messages` and counts the step in `tool_steps`."""
    services = get_services()
    messages = agent_messages(state)
    timeout_s = services.settings.model_timeout_s
    try:
        reply = await asyncio.wait_for(
            tool_model().ainvoke(messages, {**config, "run_name": "call_model"}), timeout_s
        )
    except TimeoutError as exc:
        raise ModelTimeoutError(f"The model did not answer within {timeout_s:.0f} s") from exc
    if not isinstance(reply, AIMessage):
        reply = AIMessage(content=getattr(reply, "content", str(reply)))
    return {"messages": [_fresh_ids(reply)], "tool_steps": (state.get("tool_steps") or 0) + 1}


def after_model(state: ChatState) -> str:
    """Run the tools the model asked for, unless the turn has used its tool rounds."""
    messages = state.get("messages") or []
    last = messages[-1] if messages else None
    if not isinstance(last, AIMessage) or not last.tool_calls:
        return "finish_agent"
    limit = get_services().settings.chat_max_tool_steps
    return "run_tools" if (state.get("tool_steps") or 0) <= limit else "finish_agent"


def _model_args(name: str, args: dict[str, Any]) -> dict[str, Any]:
    """The arguments as the contract reports them: only the tool's own (model-facing)
    fields; an injected or made-up field (`user_id`) never appears."""
    tool = TOOLS_BY_NAME.get(name)
    if tool is None:
        return dict(args)
    # every chat tool is a StructuredTool whose schema is a pydantic (v2) model
    schema = cast("type[BaseModel]", tool.tool_call_schema)
    fields = schema.model_json_schema().get("properties", {})
    return {k: v for k, v in args.items() if k in fields}


def route_of(names: list[str]) -> str:
    """The contract's route for the tools a turn called (failed calls included: a schedule
    change that was refused is still a schedule turn)."""
    if "get_recruitment_schedule" in names:
        return "calendar"
    if SCHEDULE_TOOL_NAMES & set(names):
        return "schedule"
    if "search_documents" in names:
        return "rag"
    return "general"


def _turn_message(turn: Sequence[BaseMessage]) -> str:
    """The user's message of the turn (its first message)."""
    return turn[0].text if turn and isinstance(turn[0], HumanMessage) else ""


def _limit_answer(done: list[dict[str, Any]], limit: int) -> str:
    did = ", ".join(c["name"] for c in done) or "없음"
    return (
        f"요청을 처리하는 데 도구 호출이 {limit}단계를 넘어 여기서 멈췄어요 (지금까지 한 작업: "
        f"{did}). 요청을 나눠서 다시 말씀해 주세요."
    )


def finish_agent(state: ChatState) -> dict[str, Any]:
    """Reads this turn's messages; writes the contract's output: `answer` (the model's last
    text, or a composed message when the step limit stopped it), `route` (from the tools
    used), `tool_calls` (the calls that ran without error, model-facing arguments only)
    and `sources` (from the tools' artifacts). Tool calls left unrun by the limit get a
    ToolMessage saying so, so the stored conversation stays well-formed for any provider.
    A final text that is junk (a loop, the prompt echoed, not Korean, empty) is replaced
    by what the tools did (nodes/chat/grounded.py), in the answer and in the room, and
    counted in `devths_degenerate_outputs_total{feature="chat"}`."""
    messages = list(state.get("messages") or [])
    turn = messages[_turn_start(messages) :]
    # keyed by str | None: a tool call's id may be None, and then no result is found
    results: dict[str | None, ToolMessage] = {
        m.tool_call_id: m for m in turn if isinstance(m, ToolMessage)
    }
    done: list[dict[str, Any]] = []
    ran: list[tuple[str, dict[str, Any]]] = []  # (name, artifact) of the calls that ran
    attempted: list[str] = []
    sources: list[dict[str, Any]] = []
    for message in turn:
        if not isinstance(message, AIMessage):
            continue
        for call in message.tool_calls:
            if call["name"] in TOOLS_BY_NAME:
                attempted.append(call["name"])
            result = results.get(call["id"])
            if result is None or result.status == "error":
                continue
            done.append({"name": call["name"], "args": _model_args(call["name"], call["args"])})
            artifact = result.artifact if isinstance(result.artifact, dict) else {}
            ran.append((call["name"], artifact))
            sources.extend(artifact.get("sources") or [])
    last = turn[-1] if turn else None
    added: list[BaseMessage] = []
    if isinstance(last, AIMessage) and last.tool_calls:
        limit = get_services().settings.chat_max_tool_steps
        added = [
            ToolMessage(STEP_LIMIT_NOTE, tool_call_id=c["id"], name=c["name"], status="error")
            for c in last.tool_calls
        ]
        answer = _limit_answer(done, limit)
        added.append(AIMessage(content=answer))
    elif isinstance(last, AIMessage) and last.text.strip():
        answer = last.text.strip()
        reason = junk_reason(answer, "\n".join(m.text for m in turn[:-1]))
        if reason is not None:
            DEGENERATE.labels(FEATURE, reason).inc()
            log.info("chat agent answer replaced by grounded text: %s", reason)
            user_text = _turn_message(turn)
            answer = (
                tool_results_answer(user_text, ran)
                if attempted
                else general_answer(user_text, today_of(state.get("now")), stand_in=False)
            )
            added.append(AIMessage(content=answer, id=last.id))  # same id: replaces the junk
    else:
        answer = (
            "도구 호출 형식이 올바르지 않아 요청을 처리하지 못했어요. 다시 말씀해 주세요."
            if isinstance(last, AIMessage) and last.invalid_tool_calls
            else "요청하신 작업을 처리했어요."
        )
        # An empty reply is replaced (same id), so the room does not keep a blank turn.
        reply_id = last.id if isinstance(last, AIMessage) else None
        added.append(AIMessage(content=answer, id=reply_id))
    unique = list({json.dumps(s, sort_keys=True, ensure_ascii=False): s for s in sources}.values())
    return {
        "answer": answer,
        "route": route_of(attempted),
        "tool_calls": done,
        "sources": unique,
        "messages": added,
    }
