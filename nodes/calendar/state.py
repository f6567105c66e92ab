"""The calendar parser graph's input, output and state."""

from __future__ import annotations

from typing import Any

from typing_extensions import TypedDict


class CalendarIn(TypedDict, total=False):
    text: str
    now: str | None


class CalendarOut(TypedDict):
    company: str | None
    position: str | None
    schedules: list[dict[str, Any]]
    hashtags: list[str]


class CalendarState(CalendarIn, CalendarOut, total=False):
    company_absent: bool  # the text says it does not name the company ("our client")
