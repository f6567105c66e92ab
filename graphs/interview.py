"""Mock interview: one checkpointed thread per `interview:{user_id}:{session_id}`.

Turn graph (`/ai/interview/question`):

    START -> begin_turn --new session--> prepare_session -> ask_main_question
                 |  \\--no answer / finished--> END                  |
                 | answer                                            v
            choose_next --dig deeper--> ask_followup ----> present_question -> END
                 |  \\--next main question--> ask_main_question --^   (starts the prefetch
                 \\--all asked--> finish -> END                         of the next main one)

Report graph (`/ai/interview/report`):

    START -> load_session --cached--> END
                 | (rubric scores computed)
            write_report (streamed) -> END
"""

from __future__ import annotations

from langgraph.graph import END, START, StateGraph

from nodes.interview import report, steps
from nodes.interview.state import (
    InterviewQuestionOut,
    InterviewState,
    InterviewTurnIn,
    ReportIn,
    ReportOut,
    ReportState,
)


def build_interview_graph() -> StateGraph:
    graph = StateGraph(
        InterviewState, input_schema=InterviewTurnIn, output_schema=InterviewQuestionOut
    )
    graph.add_node(
        "begin_turn", steps.begin_turn, destinations=("prepare_session", "choose_next", END)
    )
    graph.add_node("prepare_session", steps.prepare_session, destinations=("ask_main_question",))
    graph.add_node(
        "choose_next",
        steps.choose_next,
        destinations=("ask_followup", "ask_main_question", "finish"),
    )
    graph.add_node("ask_main_question", steps.ask_main_question)
    graph.add_node("ask_followup", steps.ask_followup)
    graph.add_node("present_question", steps.present_question)
    graph.add_node("finish", steps.finish)
    graph.add_edge(START, "begin_turn")
    graph.add_edge("ask_main_question", "present_question")
    graph.add_edge("ask_followup", "present_question")
    graph.add_edge("present_question", END)
    graph.add_edge("finish", END)
    return graph


def build_report_graph() -> StateGraph:
    graph = StateGraph(ReportState, input_schema=ReportIn, output_schema=ReportOut)
    graph.add_node("load_session", report.load_session, destinations=("write_report", END))
    graph.add_node("write_report", report.write_report)
    graph.add_edge(START, "load_session")
    graph.add_edge("write_report", END)
    return graph


builder = build_interview_graph()
report_builder = build_report_graph()
