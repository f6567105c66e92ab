"""The chat room's memory: the last WINDOW_TURNS turns kept whole in the `messages`
channel, older turns folded into at most SUMMARY_LINES summary lines (by the model when a
provider writes, by rule on the embedded stand-in), and the `remember_turn` node that
updates both after every answer."""

from __future__ import annotations

import logging
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage, RemoveMessage, trim_messages
from langchain_core.runnables import RunnableConfig
from langgraph.graph.message import REMOVE_ALL_MESSAGES

from core.services import get_services
from core.structured import INTERNAL, invoke_text
from nodes.chat.agent import FEATURE, agent_available
from nodes.chat.focus import after_turn
from nodes.chat.state import ChatState
from prompts import data_records, load_prompt

log = logging.getLogger(__name__)
SUMMARY_PROMPT = load_prompt("chat/summary")
WINDOW_TURNS = 5
SUMMARY_LINES = 10
SUMMARY_MAX_CHARS = 600
SUMMARY_MAX_TOKENS = 256


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
    state: ChatState,
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
    update: dict[str, Any] = {
        "history": history,
        "message": None,
        "context": "",
        "passages": [],
        "focus": after_turn(
            state.get("focus"),
            list(state.get("messages") or []),
            state.get("asked_back"),
            # the passages carry each posting's company ("네이버는?" -> 네이버's posting)
            (state.get("passages") or state.get("sources"))
            if state.get("route") == "rag"
            else None,
        ),
    }
    trimmed = trimmed_messages(list(state.get("messages") or []))
    if trimmed:
        update["messages"] = trimmed
    return update, dropped, list(state.get("summary_lines") or [])


def remember(state: ChatState) -> dict[str, Any]:
    """Reads the turn; appends it to `history` (last 5 turns), trims `messages` to the
    same turns and folds older turns into `summary_lines` by rule: one short line per
    turn, the last 10. State stays bounded."""
    update, dropped, summary = _turn_update(state)
    summary += [_summary_line(t) for t in dropped]
    return {**update, "summary_lines": summary[-SUMMARY_LINES:]}


async def remember_turn(state: ChatState, config: RunnableConfig) -> dict[str, Any]:
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
