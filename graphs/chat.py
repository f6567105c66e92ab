"""Chat agent: route first, then one tool path or retrieval, one answer, remembered.

    START -> route_message --rag--------> retrieve --> write_answer (streamed) --> remember -> END
                 |  \\--general-----------------------^                           ^
                 |--calendar--> run_calendar ---------------------------------------|
                 \\--schedule--> run_schedule ---------------------------------------/

Checkpointed per `chat:{user_id}:{room_id}`; the last 5 turns and a bounded summary.
"""

from __future__ import annotations

from typing import Any

from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict

from nodes.chat import steps


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
    answer_cached: bool
    history: list[dict[str, Any]]
    summary_lines: list[str]


def build_chat_graph() -> StateGraph:
    graph = StateGraph(ChatState, input_schema=ChatIn, output_schema=ChatOut)
    graph.add_node(
        "route_message",
        steps.route_message,
        destinations=("retrieve", "run_calendar", "run_schedule", "write_answer"),
    )
    graph.add_node("retrieve", steps.retrieve)
    graph.add_node("run_calendar", steps.run_calendar)
    graph.add_node("run_schedule", steps.run_schedule)
    graph.add_node("write_answer", steps.write_answer)
    graph.add_node("remember", steps.remember)
    graph.add_edge(START, "route_message")
    graph.add_edge("retrieve", "write_answer")
    graph.add_edge("write_answer", "remember")
    graph.add_edge("run_calendar", "remember")
    graph.add_edge("run_schedule", "remember")
    graph.add_edge("remember", END)
    return graph


builder = build_chat_graph()
