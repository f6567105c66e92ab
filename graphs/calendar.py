"""Recruitment calendar parsing: deterministic extraction, the model only for a missing
company or position (checked against the text).

    START -> extract_schedule --all found--> END
                   | company or position unknown
               ask_model -> END
"""

from __future__ import annotations

from langgraph.graph import END, START, StateGraph

from nodes.calendar import steps
from nodes.calendar.state import CalendarIn, CalendarOut, CalendarState


def build_calendar_graph() -> StateGraph:
    graph = StateGraph(CalendarState, input_schema=CalendarIn, output_schema=CalendarOut)
    graph.add_node("extract_schedule", steps.extract_schedule, destinations=("ask_model", END))
    graph.add_node("ask_model", steps.ask_model)
    graph.add_edge(START, "extract_schedule")
    graph.add_edge("ask_model", END)
    return graph


builder = build_calendar_graph()
