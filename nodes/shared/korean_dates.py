"""Deterministic Korean date finding: "2026.03.15", "2026-03-15", "2026년 3월 15일",
"3월 15일", "3/15(금)". Year-less dates resolve against a reference date: the nearest
such date that is not more than 60 days in the past.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

SEOUL = ZoneInfo("Asia/Seoul")

_FULL = re.compile(r"(?<!\d)(20\d{2})\s*[.\-/년]\s*(\d{1,2})\s*[.\-/월]\s*(\d{1,2})\s*일?(?!\d)")
_MONTH_DAY = re.compile(r"(?<![\d.\-/])(\d{1,2})\s*(?:월\s*(\d{1,2})\s*일|/(\d{1,2}))(?![\d/])")


@dataclass(frozen=True)
class FoundDate:
    value: date
    start: int
    end: int
    had_year: bool


def today_seoul() -> date:
    return datetime.now(SEOUL).date()


def _resolve(month: int, day: int, ref: date) -> date | None:
    for year in (ref.year, ref.year + 1):
        try:
            candidate = date(year, month, day)
        except ValueError:
            return None
        if candidate >= ref - timedelta(days=60):
            return candidate
    return None


def find_dates(text: str, ref: date | None = None) -> list[FoundDate]:
    """All dates in text order; impossible dates (2월 30일) are skipped, never guessed."""
    ref = ref or today_seoul()
    found: list[FoundDate] = []
    taken: list[tuple[int, int]] = []
    for m in _FULL.finditer(text):
        try:
            value = date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        except ValueError:
            continue
        found.append(FoundDate(value, m.start(), m.end(), True))
        taken.append((m.start(), m.end()))
    for m in _MONTH_DAY.finditer(text):
        if any(s <= m.start() < e for s, e in taken):
            continue
        month = int(m.group(1))
        day = int(m.group(2) or m.group(3))
        if not (1 <= month <= 12):
            continue
        value = _resolve(month, day, ref)
        if value:
            found.append(FoundDate(value, m.start(), m.end(), False))
    return sorted(found, key=lambda f: f.start)
