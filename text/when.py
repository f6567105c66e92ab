"""The date, range and time reader of the calendar parser.

Dates come from the shared finder (`find_dates`); this module adds what a schedule line
means by them:

- **times** in the forms postings use: "18:00", "14시", "17시 30분", "오후 2시 반", "18시 정각",
  "정오", "밤 11시", "PM 3:00", "6 PM", "7:30 PM", "5:30 p.m.", "noon", "10:00 AM KST". A
  time belongs to the date before it in its clause ("6/12 17시 30분", "May 15, 6 PM"), or
  to the next one when none comes before ("at noon on April 17"); "3시간" and "90분" are
  durations, not times;
- **ranges**: two dates joined by "~", "-", "–", "부터", "from … to", "until", "through";
  a range keeps its start and its end (and each end's own time);
- **sent dates**: a date on which something is only sent ("과제는 6월 16일 발송", "sent
  June 8"): weak, used for a stage only when nothing else dates it; when what is sent is a
  message about the step ("안내 메일은 7월 13일에 보내드립니다", "결과는 11월 6일에
  안내드립니다") the date is never the step's.
"""

from __future__ import annotations

import bisect
import itertools
import re
from dataclasses import dataclass
from datetime import date

from text.clauses import split_clauses
from text.dates import EN_PART_OF_DAY, en_part_clock, find_dates, find_when

# One pattern, alternatives in order of preference at a position; every number has a
# `(?<!\d)` guard so "25:00" never yields "5:00".
_TIME = re.compile(
    r"(?P<ko>(?:(?P<kpart>오전|오후|아침|저녁|밤|낮|새벽)[ \t]*)?(?<![\d.:])(?P<kh>\d{1,2})"
    r"[ \t]*시(?!간|즌|작|점|청|장|험|스템|리즈)"
    r"(?:[ \t]*(?P<km>\d{1,2})[ \t]*분|[ \t]*(?P<khalf>반))?)"
    # "9 in the morning", "7:30 in the evening", "10 at night"
    r"|(?P<enw>(?<![\d.:])(?P<wh>\d{1,2})(?:[ \t]*:[ \t]*(?P<wm>\d{2}))?[ \t]+"
    rf"(?P<wpart>{EN_PART_OF_DAY})(?![A-Za-z]))"
    r"|(?P<pre>(?P<ppart>오전|오후|AM|PM|am|pm)[ \t]*(?<![\d.:])(?P<ph>\d{1,2})"
    r"[ \t]*:[ \t]*(?P<pm>\d{2})(?!\d))"
    r"|(?P<clock>(?<![\d.:])(?P<ch>\d{1,2})[ \t]*:[ \t]*(?P<cm>\d{2})(?![\d:])"
    r"(?:[ \t]*(?P<cpart>[AaPp]\.?[Mm]\.?)(?![A-Za-z]))?)"
    r"|(?P<en>(?<![\d.:])(?P<eh>\d{1,2})[ \t]*(?P<epart>[AaPp]\.?[Mm]\.?)(?![A-Za-z]))"
    r"|(?P<noon>정오|(?i:noon|midday))"
)
_AFTERNOON = ("오후", "저녁", "밤", "pm", "p.m.", "p.m", "pm.")
_MORNING = ("오전", "am", "a.m.", "a.m", "am.")
# What joins the two ends of a range (only these characters between the two dates; the
# first date may keep its closing dot: "2026.05.04.(월) ~ 2026.05.15.(금)").
_RANGE_JOIN = re.compile(
    r"^\.?[\s()（）]*(?:[~∼\-–—]|부터|(?i:from|to|until|through|thru|till))[\s()（）]*$"
)
_BETWEEN = re.compile(r"(?i)\bbetween\s+$")  # "between March 3 and March 17"
_AND = re.compile(r"(?i)^\s*and\s*$")
_OR = re.compile(r"(?i)^\s*(?:or|또는|혹은|이나|나)\s*$")
_MESSAGE = re.compile(r"메일|문자|연락|안내|통보|공지|(?i:e-?mail|notice|notif)")
_NOTICE_BEFORE = re.compile(r"(?i)(?:sent|emailed|발송|발송일)\s*(?:on|:)?\s*$")
_WEEKDAY_WORD = re.compile(
    r"[월화수목금토일]요일|(?<![가-힣])[월화수목금토일](?![가-힣])|"
    r"(?i:\b(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day)?\b\.?)|(?i:\bKST\b)|,"
)
_NOTICE_AFTER = re.compile(
    r"^[\s(（)）월화수목금토일요에는]{0,8}"
    r"(?:발송|보내|안내\s*메일|안내\s*(?:드립|해\s*드|됩|합)|통보|공지|(?i:sent|emailed|notified))"
)


@dataclass(frozen=True)
class FoundTime:
    value: str  # "HH:MM", or "24:00" for the end of a day ("마감 24:00")
    start: int
    end: int


@dataclass
class When:
    """A date in a clause, with its time; a range's start points at its end (`until`)."""

    value: date
    start: int
    end: int
    time: str | None = None
    until: When | None = None  # set on a range's start: the range's end
    is_range_end: bool = False
    since: When | None = None  # set on a range's end: the range's start
    weak: bool = False  # a sent date ("… 발송"): the stage's date only when nothing else
    notice: bool = False  # the day a message about a step is sent: never the step's date
    alternative: bool = False  # the second of "A or B": the same step's other option
    glued: bool = False  # from a clause without stage words (the one before's): a fallback


def _clock(hour: int, minute: int, part: str) -> str | None:
    part = part.lower().replace(" ", "")
    if part in _AFTERNOON and hour < 12:
        hour += 12
    elif part in _MORNING and hour == 12:
        hour = 0  # 오전 12시, 12 AM: midnight
    elif part == "낮" and hour < 7:
        hour += 12
    if hour == 24 and minute == 0:
        return "24:00"  # "마감 24:00": the end of that day, as the posting wrote it
    if 0 <= hour <= 23 and 0 <= minute < 60:  # "24:30" is no time of that day
        return f"{hour:02d}:{minute:02d}"
    return None


def find_times(text: str, skip: list[tuple[int, int]] | None = None) -> list[FoundTime]:
    """Every time of day in `text`, in order, outside the `skip` spans (the dates)."""
    # The skipped spans are blanked, not jumped: "7/15 PM 3:00" reads "PM 3:00", not "15 PM".
    chars = list(text)
    for s, e in skip or []:
        chars[s:e] = "#" * (e - s)
    times: list[FoundTime] = []
    for m in _TIME.finditer("".join(chars)):
        value: str | None
        if m.group("ko"):
            minute = 30 if m.group("khalf") else int(m.group("km") or 0)
            value = _clock(int(m.group("kh")), minute, m.group("kpart") or "")
        elif m.group("enw"):
            value = en_part_clock(int(m.group("wh")), int(m.group("wm") or 0), m.group("wpart"))
        elif m.group("pre"):
            value = _clock(int(m.group("ph")), int(m.group("pm")), m.group("ppart"))
        elif m.group("clock"):
            value = _clock(int(m.group("ch")), int(m.group("cm")), m.group("cpart") or "")
        elif m.group("en"):
            value = _clock(int(m.group("eh")), 0, m.group("epart"))
        else:
            value = "12:00"
        if value is not None:
            times.append(FoundTime(value, m.start(), m.end()))
    return times


@dataclass
class LineWhen:
    dates: list[When]
    times: list[FoundTime]  # every time of the line
    loose: list[FoundTime]  # the times no date took ("마감 시각: 18시")

    @property
    def spans(self) -> list[tuple[int, int]]:
        return [(d.start, d.end) for d in self.dates] + [(t.start, t.end) for t in self.times]


def _gap(text: str, first: When, second: When, times: list[FoundTime]) -> str:
    """The text between two dates without its times, weekdays and commas."""
    gap = list(text[first.end : second.start])
    for t in times:
        for i in range(max(t.start, first.end), min(t.end, second.start)):
            gap[i - first.end] = " "
    return _WEEKDAY_WORD.sub(" ", "".join(gap))


def read_when(text: str, now: date) -> LineWhen:
    """The dates of a line with their times and ranges, and the times no date took."""
    dates = [When(f.value, f.start, f.end) for f in find_dates(text, now)]
    if not dates:
        # no written date: the shared resolver's relative words ("다음 주 월요일 오후 6시",
        # "이번 주 토요일까지", "접수 마감 D-7", "Monday"), resolved against `now`, one
        # per clause ("이번 주 금요일까지 받고, 다음 주 화요일에 면접")
        for start, end in split_clauses(text) or [(0, len(text))]:
            relative = find_when(text[start:end], now)
            span = relative.date_span
            # only words counted from today; a bare "24일" in prose is a day of a month the
            # posting does not name
            # (a weekday clipped to its syllable after a list mark is one of a weekly slot's
            # days: "매주 화·목 오후 방문 면접")
            listed = (
                span is not None
                and span[1] - span[0] == 1
                and (text[: start + span[0]].rstrip()[-1:] in ("·", "/", ",", "、", "&"))
            )
            if relative.date is not None and span and relative.from_today and not listed:
                dates.append(When(relative.date, start + span[0], start + span[1]))
    times = find_times(text, [(d.start, d.end) for d in dates])
    time_starts = [t.start for t in times]
    for first, second in itertools.pairwise(dates):
        if second.start - first.end > 40 or second.value < first.value:
            continue
        at = bisect.bisect_left(time_starts, first.end)
        near = [t for t in times[at : at + 3] if t.start < second.start]
        gap = _gap(text, first, second, near)
        between = _BETWEEN.search(text, max(0, first.start - 12), first.start)
        if _RANGE_JOIN.match(gap) or (between and _AND.match(gap)):
            first.until, second.is_range_end, second.since = second, True, first
        elif _OR.match(gap):
            second.alternative = True  # "June 17 or June 18": one step, its first date
    for d in dates:
        before = text[max(0, d.start - 12) : d.start]
        d.weak = bool(
            _NOTICE_AFTER.match(text[d.end : d.end + 20]) or _NOTICE_BEFORE.search(before)
        )
        around = text[max(0, d.start - 25) : d.end + 20]
        d.notice = d.weak and bool(_MESSAGE.search(around))
    loose: list[FoundTime] = []
    at = 0  # dates before the time: dates[:at] (both lists are in text order)
    for t in times:
        while at < len(dates) and dates[at].end <= t.start:
            at += 1
        owner = dates[at - 1] if at else (dates[0] if dates else None)
        if owner is None:
            loose.append(t)
        elif owner.time is None:
            owner.time = t.value  # the first time after a date: a slot's start ("1시~3시")
    return LineWhen(dates, times, loose)
