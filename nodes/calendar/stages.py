"""Recruitment stages, dates and times read from Korean posting text, deterministically.

Forms handled: "~ 3/15(금) 18:00까지", "2026.03.22 14시", "오후 3시", "3월 넷째 주" (a week is
not a date: the stage is kept with date null), "상시 채용", "추후 안내" (date null), process
lines "서류 → 코딩테스트 → 1차 면접" (stages without dates, filled when a later line dates
them) and a heading line ("■ 접수기간") whose dates are on the next line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from nodes.shared.korean_dates import find_dates

STAGE_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    (
        "INTERVIEW",
        re.compile(
            # The optional round word takes its own spaces: a leading `\s*` would be tried
            # from every position of a long run of spaces (quadratic).
            r"(?:(?:(\d)\s*차|최종|임원|기술|실무|인성|컬처\s*핏|팀)\s*)?(?:면접|인터뷰)"
            r"(?!\s*(?:대상자|결과))"
        ),
    ),
    (
        "CODING_TEST",
        re.compile(
            r"(?:온라인\s*)?코딩\s*테스트|알고리즘\s*테스트|과제\s*전형|사전\s*과제|기술\s*과제|"
            r"필기\s*(?:시험|전형)|필기\s*\(?\s*코딩\s*\)?\s*테스트|코테|"
            r"(?<![가-힣])(?:[가-힣]+\s)?과제(?!\s*(?:해결|수행))"
        ),
    ),
    (
        "OTHER",
        re.compile(
            r"인적성(?:\s*검사)?|GSAT|SKCT|HMAT|CJAT|적성\s*검사|"
            r"(?:최종\s*)?합격자?\s*발표|결과\s*발표|최종\s*발표|최종\s*합격|"
            r"(?<![신])입사(?:\s*예정일?)?|처우\s*협의|건강\s*검진|오리엔테이션"
        ),
    ),
    (
        "DOCUMENT",
        re.compile(
            r"서류\s*(?:접수|마감|전형|제출|지원)?|지원서\s*(?:접수|마감|제출)|원서\s*접수|"
            r"접수\s*(?:기간|마감)?|지원\s*(?:기간|마감)|모집\s*기간|마감일?|상시\s*채용|채용\s*시\s*마감|"
            r"(?i:application\s+deadline|deadline|apply\s+by)"
        ),
    ),
]
_TIME = re.compile(
    r"(?:(오전|오후|AM|PM|am|pm)\s*)?(\d{1,2})\s*(?::\s*(\d{2})|시(?:\s*(\d{1,2})\s*분|\s*반)?)"
)
_SPLIT = re.compile(r"\s*(?:→|->|▶|>|,|/(?!\d)|\||·)\s*|\s[-–]\s")
ROLLING = re.compile(r"상시\s*채용|채용\s*시\s*마감")


@dataclass
class Stage:
    stage: str
    stage_type: str
    date: date | None = None
    time: str | None = None

    def as_dict(self) -> dict[str, str | None]:
        """The contract's schedule item."""
        return {
            "stage": self.stage,
            "stage_type": self.stage_type,
            "date": self.date.isoformat() if self.date else None,
            "time": self.time,
        }


def _stage_in(segment: str) -> tuple[str, str] | None:
    for stage_type, pattern in STAGE_PATTERNS:
        found = pattern.search(segment)
        if found and found.group(0).strip():
            return stage_type, re.sub(r"\s+", " ", found.group(0).strip())
    return None


def _time_after(segment: str, start: int) -> str | None:
    for m in _TIME.finditer(segment, start):
        hour, minute = int(m.group(2)), int(m.group(3) or m.group(4) or 0)
        if "반" in m.group(0):
            minute = 30
        meridiem = (m.group(1) or "").lower()
        if meridiem in ("오후", "pm") and hour < 12:
            hour += 12
        if meridiem in ("오전", "am") and hour == 12:
            hour = 0
        if hour == 24 and minute == 0:
            return "24:00"  # "마감 24:00": the end of that day, as the posting wrote it
        if 0 <= hour <= 23 and 0 <= minute < 60:  # "24:30" is no time of that day
            return f"{hour:02d}:{minute:02d}"
    return None


def _dated(stage_type: str, text: str, now: date) -> tuple[date | None, str | None]:
    """The stage's date and time in `text`: a period's end for document deadlines, else its
    first date; the time is the first one after that date (or anywhere, without a date)."""
    dates = find_dates(text, now)
    if not dates:
        return None, None
    chosen = dates[-1] if stage_type == "DOCUMENT" else dates[0]
    return chosen.value, _time_after(text, chosen.end)


def find_stages(text: str, now: date) -> list[Stage]:
    """Every stage in document order; a stage type and name seen twice is one stage (a
    later line can date a stage the process line only named)."""
    stages: list[Stage] = []
    # Runs of spaces become one: every pattern here reads `\s*` alike, and _SPLIT's leading
    # `\s*` would otherwise rescan a long run from each of its positions (quadratic).
    lines = [" ".join(ln.split()) for ln in text.splitlines() if ln.strip()]
    for i, line in enumerate(lines):
        segments = [s for s in _SPLIT.split(line) if s] if not find_dates(line, now) else [line]
        for segment in segments:
            found = _stage_in(segment)
            if found is None:
                continue
            stage_type, name = found
            when, at = _dated(stage_type, segment, now)
            if when is None and i + 1 < len(lines) and _stage_in(lines[i + 1]) is None:
                when, at = _dated(stage_type, lines[i + 1], now)  # "■ 접수기간" then dates
            if when is None and ROLLING.search(segment):
                name = "상시 채용"
            _merge(stages, Stage(name, stage_type, when, at))
    return stages


def _merge(stages: list[Stage], new: Stage) -> None:
    for old in stages:
        same = old.stage_type == new.stage_type and (
            old.stage == new.stage or new.stage_type == "DOCUMENT"
        )
        if same:
            if old.date is None and new.date is not None:
                old.date, old.time = new.date, new.time
            elif old.date is not None and new.date is not None and new.stage_type == "DOCUMENT":
                old.date, old.time = max(
                    (old.date, old.time), (new.date, new.time), key=lambda p: (p[0], p[1] or "")
                )
            return
    stages.append(new)
