"""The analysis feature's data: the contract's AnalyzeInput / AnalysisResult and the
structured outputs its model calls must produce."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictStr, field_validator

from text.text_bounds import bounded_text


class AnalyzeInput(BaseModel):
    """Contract: {user_id, resume_text, posting_text}. Strings only; not empty; bounded."""

    model_config = ConfigDict(extra="ignore")

    user_id: StrictStr = Field(min_length=1, max_length=128)
    resume_text: StrictStr
    posting_text: StrictStr
    # Extension (#26): "today" for career spans that run to "현재" (default: today in Seoul).
    now: date | None = None

    @field_validator("user_id")
    @classmethod
    def _user_id_not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be blank")
        return value

    @field_validator("resume_text", "posting_text")
    @classmethod
    def _text_bounds(cls, value: str) -> str:
        return bounded_text(value)


class ResumeAnalysis(BaseModel):
    strengths: list[str]
    weaknesses: list[str]
    suggestions: list[str]
    skills: list[str]


class PostingAnalysis(BaseModel):
    company: str | None
    position: str | None
    required_skills: list[str]
    preferred_skills: list[str]
    deadline: date | None


class RequirementResult(BaseModel):
    """Extension (#26): one requirement line of the posting and the resume's evidence."""

    text: str
    kind: Literal["required", "preferred"]
    type: Literal["skill", "years", "domain", "credential", "language", "duty"]
    status: Literal["met", "partial", "missing"]
    evidence: str | None


class Matching(BaseModel):
    score: int = Field(ge=0, le=100)
    grade: Literal["A", "B", "C", "D", "F"]
    matched_skills: list[str]
    missing_skills: list[str]
    bonus_skills: list[str]
    strength_summary: str
    weakness_summary: str
    recommendations: list[str]
    # Extensions (#26): every requirement with its status and evidence; false when the
    # posting states no requirement the analysis could read (the score is then not a match).
    requirements: list[RequirementResult] = Field(default_factory=list)
    requirements_read: bool = True


class AnalysisResult(BaseModel):
    resume_analysis: ResumeAnalysis
    posting_analysis: PostingAnalysis
    matching: Matching
    cached: bool


class SectionDigest(BaseModel):
    """What the section summariser must return (JSON, schema-constrained where possible).
    The bounds keep a constrained generation inside its token budget."""

    summary: str = Field(min_length=1, max_length=80)
    skills: list[Annotated[str, Field(max_length=24)]] = Field(default_factory=list, max_length=6)


class MatchFeedback(BaseModel):
    """The written part of a result, parsed from the model's sectioned text."""

    strengths: list[str] = Field(min_length=1)
    weaknesses: list[str] = Field(min_length=1)
    suggestions: list[str] = Field(min_length=1)
    strength_summary: str = Field(min_length=1)
    weakness_summary: str = Field(min_length=1)
    recommendations: list[str] = Field(min_length=1)
