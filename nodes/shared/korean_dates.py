"""Deterministic Korean date finding: "2026.03.15", "2026-03-15", "2026년 3월 15일",
"3월 15일", "3/15(금)", "3.20(금)". Year-less dates resolve against a reference date: the nearest
such date that is not more than 60 days in the past.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

SEOUL = ZoneInfo("Asia/Seoul")

_FULL = re.compile(r"(?<!\d)(20\d{2})\s*[.\-/년]\s*(\d{1,2})\s*[.\-/월]\s*(\d{1,2})\s*일?(?!\d)")
# "3월 15일", "3/15", and "3.20(금)": month.day only with a weekday in parentheses ("3.5년",
# "Java 1.8" are not dates)
_MONTH_DAY = re.compile(
    r"(?<![\d.\-/])(\d{1,2})\s*"
    r"(?:월\s*(\d{1,2})\s*일|/(\d{1,2})|\.(\d{1,2})(?=\s*\(\s*[월화수목금토일]\s*\)))(?![\d/])"
)


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
        except ValueError:  # not in this year (2월 29일 outside a leap year), or year 10000
            continue
        if (candidate - ref).days >= -60:  # no `ref - 60 days`: it overflows near year 1
            return candidate
    return None


def _plus(day: date, days: int) -> date | None:
    """`day + days`, or None beyond the calendar's ends (a request's `now` may be any date)."""
    try:
        return day + timedelta(days=days)
    except OverflowError:
        return None


def _month(now: date, ahead: int) -> tuple[date, date] | None:
    """The first and last days of the month `ahead` months after now's (None past 9999)."""
    month = now.month + ahead
    year, month = now.year + (month - 1) // 12, (month - 1) % 12 + 1
    try:
        return date(year, month, 1), date(year + month // 12, month % 12 + 1, 1) - timedelta(1)
    except (ValueError, OverflowError):
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
        day = int(m.group(2) or m.group(3) or m.group(4))
        if not (1 <= month <= 12):
            continue
        value = _resolve(month, day, ref)
        if value:
            found.append(FoundDate(value, m.start(), m.end(), False))
    return sorted(found, key=lambda f: f.start)


_WEEKDAYS = {"월": 0, "화": 1, "수": 2, "목": 3, "금": 4, "토": 5, "일": 6}
_REL_DAY = {"오늘": 0, "금일": 0, "내일": 1, "명일": 1, "모레": 2, "내일모레": 2, "글피": 3}
_WEEK_REF = re.compile(
    r"(이번\s*주|이번주|금주|다음\s*주|다음주|차주|다다음\s*주|다다음주|저번\s*주|지난\s*주)"
)
_WEEKDAY = re.compile(r"([월화수목금토일])요일")
_MONTH_END = re.compile(r"(이번\s*달|이번달|다음\s*달|다음달)\s*(?:말|마지막\s*날)")
_CLOCK = re.compile(
    r"(?:(오전|오후|아침|저녁|밤|낮)\s*)?(\d{1,2})\s*(?::\s*(\d{2})|시(?:\s*(\d{1,2})\s*분|\s*(반))?)"
)


@dataclass(frozen=True)
class RelativeWhen:
    date: date | None
    time: str | None
    spans: tuple[tuple[int, int], ...]  # where the date/time words are, to cut them out


def _week_offset(word: str) -> int:
    word = re.sub(r"\s", "", word)
    if word in ("이번주", "금주"):
        return 0
    if word in ("다음주", "차주"):
        return 1
    if word == "다다음주":
        return 2
    return -1  # 저번주, 지난주


def find_when(text: str, now: date) -> RelativeWhen:
    """The date and time a Korean request means, resolved against `now` deterministically:
    "내일", "모레", "다음주 금요일 오후 3시", "이번 달 말", "금요일" (the next one, today
    included), absolute dates ("3/15", "2026.03.15"); None where the text says nothing."""
    spans: list[tuple[int, int]] = []
    when: date | None = None
    absolute = find_dates(text, now)
    if absolute:
        when = absolute[0].value
        spans.append((absolute[0].start, absolute[0].end))
    month_end = _MONTH_END.search(text)
    if when is None and month_end:
        month = _month(now, 1 if "다음" in month_end.group(1) else 0)
        if month:
            when = month[1]
            spans.append(month_end.span())
    if when is None:
        for word, offset in sorted(_REL_DAY.items(), key=lambda kv: -len(kv[0])):
            found = re.search(word, text)
            if found:
                when = _plus(now, offset)
                spans.append(found.span())
                break
    weekday = _WEEKDAY.search(text)
    if when is None and weekday:
        target = _WEEKDAYS[weekday.group(1)]
        week = _WEEK_REF.search(text)
        if week:
            # Monday of the week that word names, plus the weekday.
            weeks = _week_offset(week.group(1))
            when = _plus(now, 7 * weeks - now.weekday() + target)
            spans.append(week.span())
        else:
            when = _plus(now, (target - now.weekday()) % 7)
        spans.append(weekday.span())
    clock = None
    for m in _CLOCK.finditer(text):
        if any(s <= m.start() < e for s, e in spans):
            continue
        hour, minute = int(m.group(2)), int(m.group(3) or m.group(4) or 0)
        if m.group(5):
            minute = 30
        part = m.group(1) or ""
        if part in ("오후", "저녁", "밤") and hour < 12:
            hour += 12
        if part == "오전" and hour == 12:
            hour = 0  # 오전 12시 is midnight, as the calendar parser reads it
        if part == "낮" and hour < 7:
            hour += 12
        if hour <= 23 and minute < 60:
            clock = f"{hour:02d}:{minute:02d}"
            spans.append(m.span())
            break
    return RelativeWhen(when, clock, tuple(spans))


def week_range(text: str, now: date) -> tuple[date, date] | None:
    """("이번 주" | "다음 주" ...) -> (Monday, Sunday) of that week; "이번 달" -> the month."""
    week = _WEEK_REF.search(text)
    if week and not _WEEKDAY.search(text):
        monday = _plus(now, 7 * _week_offset(week.group(1)) - now.weekday())
        sunday = monday and _plus(monday, 6)
        return (monday, sunday) if monday and sunday else None
    month = re.search(r"(이번\s*달|이번달|다음\s*달|다음달)(?!\s*말)", text)
    if month:
        return _month(now, 1 if "다음" in month.group(1) else 0)
    return None
