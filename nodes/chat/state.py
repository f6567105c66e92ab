"""The chat graph's input, output and state (the room's memory and focus live in the
checkpointed state, so any API process continues a room)."""

from __future__ import annotations

from typing import Annotated, Any

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages
from typing_extensions import TypedDict


class ChatIn(TypedDict, total=False):
    user_id: str
    room_id: str
    message: str
    now: str | None


class ChatOut(TypedDict):
    answer: str
    route: str
    tool_calls: list[dict[str, Any]]
    sources: list[dict[str, Any]]


class ChatState(ChatIn, ChatOut, total=False):
    routed_by: str
    context: str
    passages: list[dict[str, Any]]
    answer_cached: bool
    messages: Annotated[list[AnyMessage], add_messages]
    history: list[dict[str, Any]]
    summary_lines: list[str]
    tool_steps: int
    # what the room's turns produced (schedules, the posting, a pending ask-back):
    # nodes/chat/focus.py
    focus: dict[str, Any]
    asked_back: dict[str, Any] | None
