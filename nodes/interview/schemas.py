"""The interview feature's contract types: InterviewTurnInput / InterviewQuestion and
InterviewReportInput / InterviewReport."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, StrictStr, field_validator

from core.ids import ID_PATTERN
from core.settings import get_settings
from text.text_bounds import bounded_text


class InterviewTurnInput(BaseModel):
    """The first turn carries resume_text and posting_text; later turns carry `answer`."""

    model_config = ConfigDict(extra="ignore")

    user_id: StrictStr = Field(pattern=ID_PATTERN)
    session_id: StrictStr = Field(pattern=ID_PATTERN)
    interview_type: Literal["technical", "personality"] = "technical"
    resume_text: StrictStr | None = None
    posting_text: StrictStr | None = None
    answer: StrictStr | None = None
    # Optional: the `question_id` this answer is for. A retry of an answer already recorded
    # then returns the current question instead of answering that one with it.
    answer_for: StrictStr | None = Field(default=None, max_length=32)

    @field_validator("resume_text", "posting_text")
    @classmethod
    def _document_bounds(cls, value: str | None) -> str | None:
        return None if value is None else bounded_text(value, allow_blank=True)

    @field_validator("answer")
    @classmethod
    def _answer_bounds(cls, value: str | None) -> str | None:
        limit = get_settings().interview_answer_max_chars
        if value is not None and len(value) > limit:
            raise ValueError(f"must be at most {limit} characters (got {len(value)})")
        return value


class InterviewQuestion(BaseModel):
    session_id: str
    question_id: str
    question_number: int
    total_questions: int
    category: str
    question: str | None
    is_followup: bool
    depth: int = Field(ge=0)
    done: bool


class InterviewReportInput(BaseModel):
    model_config = ConfigDict(extra="ignore")

    user_id: StrictStr = Field(pattern=ID_PATTERN)
    session_id: StrictStr = Field(pattern=ID_PATTERN)


class AnswerEvaluation(BaseModel):
    question_id: str
    question: str
    answer: str
    score: int = Field(ge=0, le=100)
    good_points: list[str]
    improvements: list[str]


class ReportSummary(BaseModel):
    total_score: int = Field(ge=0, le=100)
    grade: Literal["A", "B", "C", "D", "F"]
    strength_patterns: list[str]
    weakness_patterns: list[str]
    learning_guide: list[str]


class InterviewReport(BaseModel):
    evaluations: list[AnswerEvaluation]
    report: ReportSummary
    cached: bool


class ReportPatterns(BaseModel):
    """What the model writes (the rest of the report is computed)."""

    strength_patterns: list[str] = Field(min_length=1)
    weakness_patterns: list[str] = Field(min_length=1)
    learning_guide: list[str] = Field(min_length=1)
