"""Chat agent: route first; the clear cases on a deterministic path (no model call), the rest
to a tool-calling model; one answer, remembered.

    START -> route_message --rag--------> retrieve --> write_answer (streamed) --> remember -> END
                 |  \\--general-----------------------^                           ^
                 |--calendar--> run_calendar ---------------------------------------|
                 |--schedule--> run_schedule ---------------------------------------|
                 \\--unsure or compound, model calls tools-->                       |
                      call_model --tool calls--> run_tools (ToolNode) --> call_model |
                          \\--answer, or CHAT_MAX_TOOL_STEPS reached--> finish_agent -/

Checkpointed per `chat:{user_id}:{room_id}`. `messages` (add_messages: Human, AI with
tool_calls, Tool messages) holds the last 5 turns, deterministic ones included, so Studio's
chat view shows the conversation and its tool calls; `history` keeps the same turns as
compact records (the answer prompt's window; rooms saved before `messages` existed are
carried over from it), `summary_lines` the bounded summary of older turns.

No junk reaches a user: on the embedded stand-in `write_answer` answers with grounded text
(the retrieved passages quoted with their documents, or an honest reply in the user's terms
for free answers), streamed as tokens with no model call; with any other model a junk
answer (`write_answer`'s or `finish_agent`'s) is replaced by grounded text and counted in
`devths_degenerate_outputs_total{feature="chat"}`. Schedule and calendar answers are
built from the tools' results on the deterministic path.
"""

from __future__ import annotations

from langgraph.graph import END, START, StateGraph

from nodes.chat import agent, memory, steps, tool_routes
from nodes.chat.state import ChatIn, ChatOut, ChatState


def build_chat_graph() -> StateGraph:
    graph = StateGraph(ChatState, input_schema=ChatIn, output_schema=ChatOut)
    graph.add_node(
        "route_message",
        steps.route_message,
        destinations=("retrieve", "run_calendar", "run_schedule", "write_answer", "call_model"),
    )
    graph.add_node("retrieve", steps.retrieve)
    graph.add_node("run_calendar", tool_routes.run_calendar)
    graph.add_node("run_schedule", tool_routes.run_schedule)
    graph.add_node("write_answer", steps.write_answer)
    graph.add_node("call_model", agent.call_model)
    graph.add_node("run_tools", agent.build_tool_node())
    graph.add_node("finish_agent", agent.finish_agent)
    graph.add_node("remember", memory.remember_turn)
    graph.add_edge(START, "route_message")
    graph.add_edge("retrieve", "write_answer")
    graph.add_edge("write_answer", "remember")
    graph.add_edge("run_calendar", "remember")
    graph.add_edge("run_schedule", "remember")
    graph.add_conditional_edges("call_model", agent.after_model, ["run_tools", "finish_agent"])
    graph.add_edge("run_tools", "call_model")
    graph.add_edge("finish_agent", "remember")
    graph.add_edge("remember", END)
    return graph


builder = build_chat_graph()
