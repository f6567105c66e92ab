"""The analysis graph's input, output and state: one definition, used by the graph (wiring)
and by the node signatures in `nodes/analysis/`."""

from __future__ import annotations

import operator
from typing import Annotated, Any, NotRequired

from typing_extensions import TypedDict


class AnalysisInput(TypedDict):
    user_id: str
    resume_text: str
    posting_text: str
    # Extension (#26): "YYYY-MM-DD", the day "현재" in a resume means (default: today).
    now: NotRequired[str | None]


class AnalysisOutput(TypedDict):
    resume_analysis: dict[str, Any]
    posting_analysis: dict[str, Any]
    matching: dict[str, Any]
    cached: bool


class AnalysisState(AnalysisInput, AnalysisOutput, total=False):
    cache_key: str
    sections: list[dict[str, Any]]
    resume_skills: list[str]
    posting_facts: dict[str, Any]
    digests: Annotated[list[dict[str, Any]], operator.add]
    match: dict[str, Any]
    feedback: dict[str, Any]


class SectionTask(TypedDict):
    """What `fan_out_summaries` sends to `summarise_section` (a Send payload, not the state):
    one extracted section, as a dict of `text.sections.Section`."""

    section: dict[str, Any]
