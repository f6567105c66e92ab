"""The mock interview's graphs (turns and report): input, output and state."""

from __future__ import annotations

from typing import Any

from typing_extensions import TypedDict


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
