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

from typing import Any

from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict

from nodes.interview import report, steps


class InterviewTurnIn(TypedDict, total=False):
    user_id: str
    session_id: str
    interview_type: str
    resume_text: str | None
    posting_text: str | None
    answer: str | None
    answer_for: str | None


class InterviewQuestionOut(TypedDict):
    session_id: str
    question_id: str
    question_number: int
    total_questions: int
    category: str
    question: str | None
    is_followup: bool
    depth: int
    done: bool


# session_id may be missing from a turn's input (the first turn) but is always in its
# output; the state keeps it required, as Python merges these bases at runtime, which mypy
# reports as a conflict between the bases (making either base agree would change a schema).
class InterviewState(InterviewTurnIn, InterviewQuestionOut, total=False):  # type: ignore[misc]
    facts: dict[str, Any]
    facts_digest: str
    plan: list[dict[str, Any]]
    turns: list[dict[str, Any]]
    next_index: int
    followup: dict[str, str] | None


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


class ReportIn(TypedDict):
    user_id: str
    session_id: str


class ReportOut(TypedDict):
    evaluations: list[dict[str, Any]]
    report: dict[str, Any]
    cached: bool


class ReportState(ReportIn, ReportOut, total=False):
    evidence: str
    signals: dict[str, int]
    total_score: int
    interview_type: str
    cache_key: str


def build_report_graph() -> StateGraph:
    graph = StateGraph(ReportState, input_schema=ReportIn, output_schema=ReportOut)
    graph.add_node("load_session", report.load_session, destinations=("write_report", END))
    graph.add_node("write_report", report.write_report)
    graph.add_edge(START, "load_session")
    graph.add_edge("write_report", END)
    return graph


builder = build_interview_graph()
report_builder = build_report_graph()
