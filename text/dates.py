"""Deterministic date finding in Korean, English and mixed text.

Forms: "2026.03.15", "2026-03-15", "2026년 3월 15일", "26.07.03" (a two-digit year), "3월 15일",
"3/15(금)", "3. 20(금)", a bare "7.19" where the text frames it as a date ("기간: 7.6 ~ 7.19"),
"3/23/2026" (US order; day first when the first number cannot be a month), "March 18, 2026",
"Mar 20", "20 March 2026", "April 3rd", a range's day-only end ("3월 2일~13일",
"March 3 to 17") and a day-first range's day-only start ("14–15 April 2026"). Year-less
dates resolve against a reference date: the nearest such date that is not more than 60
days in the past.
"""

from __future__ import annotations

import bisect
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
    r"(?:월\s*(\d{1,2})\s*일|/(\d{1,2})(?!\s*분기)|\.[^\S\r\n]?(\d{1,2})(?=\s*\(\s*[월화수목금토일]\s*\)))(?![\d/])"
)
# "3/23/2026" (US order) or "23/3/2026" (day first, when the first number is no month).
_NUMERIC_YEAR_LAST = re.compile(r"(?<![\d./\-])(\d{1,2})/(\d{1,2})/(20\d{2})(?![\d/])")
# "26.07.03": kept only when the two digits are the year the date resolves to anyway, so a
# version number ("20.11.1") is no date.
_SHORT_YEAR = re.compile(r"(?<![\d./\-])(\d{2})\.(\d{1,2})\.(\d{1,2})(?![\d]|\.\d)")
# A bare "7.19": a date only where the text frames it as one (after ":", "~" or "|", or
# before "~"/"까지"/"부터"); "Java 1.8", "3.5년", "평점 4.5 (필수)" stay numbers.
_BARE_DOT = re.compile(
    r"(?<![\w.\-/])(\d{1,2})\.[^\S\r\n]?(\d{1,2})(?![\d%]|\.\d|\s*(?:년|일|배|점|만|억|개|시간|세|[xX]\b))"
)
_DATE_FRAME_BEFORE = re.compile(
    r"(?:[:：~∼|]|마감|기간|일정|일시|날짜|기한|면접|테스트|코테|접수|전형|발표|검사|과제|입사|시험)\s*$"
)
# "07.17": a zero-padded month and a two-digit day are a date without a frame.
_PADDED_DOT = re.compile(r"(?<![\w.\-/])(0[1-9])\.([0-3]\d)(?![\d%]|\.\d)")
_LATIN_WORD_BEFORE = re.compile(r"[A-Za-z][^\S\n]*$")
_DATE_FRAME_AFTER = re.compile(r"^\s*(?:[~∼]|까지|부터)")
_NOT_A_DATE_LABEL = re.compile(r"(?i)(?:gpa|학점|평점|버전|version|ver|v)\s*[:：]?\s*$")

_MONTH_NAMES = {
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6,
    "jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12,
}  # fmt: skip
_MONTH = (
    r"(?<![A-Za-z])(Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|"
    r"Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?(?![A-Za-z])"
)
_ORDINAL = r"(?:st|nd|rd|th)?"
# "March 18, 2026", "Mar 20", "April 3rd", "Sep 15 (Tue)"; not "Mar 3/15" (another date).
_EN_MONTH_DAY = re.compile(
    _MONTH
    + r"[^\S\r\n]*(\d{1,2})"
    + _ORDINAL
    + r"(?![\d]|[./:]\d)(?:,?[^\S\r\n]*(20\d{2})(?!\d))?",
    re.IGNORECASE,
)
# "20 March 2026", "Tuesday 14 July".
_EN_DAY_MONTH = re.compile(
    # after a hyphen only as a range's end after a day ("21-23 April"), not "010-1234-15"
    r"(?<![\d./:])(?<!\d{3}-)(?<![./:\-]\d-)(?<![./:\-]\d\d-)(?<![^\d]-)(?<!^-)(\d{1,2})"
    + _ORDINAL
    + r"[^\S\r\n]+(?:of[^\S\r\n]+)?"
    + _MONTH
    + r"(?:,?[^\S\r\n]*(20\d{2})(?!\d))?",
    re.IGNORECASE,
)
# A range whose end names only the day: "3월 2일~13일", "March 3 to 17", "Aug 3–14".
_WEEKDAY_AFTER = r"(?:[^\S\r\n]*\([^\S\r\n]*(?:[월화수목금토일]|[A-Za-z]{3,4}\.?)[^\S\r\n]*\))?"
_KO_DAY_TAIL = re.compile(
    _WEEKDAY_AFTER + r"[^\S\r\n]*(?:[~∼\-–—]|부터)[^\S\r\n]*(\d{1,2})[^\S\r\n]*일"
)
_EN_DAY_HEAD = re.compile(
    r"(?<![\d.,/:])(\d{1,2})(?:st|nd|rd|th)?[^\S\r\n]*(?:[~∼\-–—]|to|until|through)[^\S\r\n]*$"
)
_LATIN = re.compile(r"[A-Za-z]")
_EN_DAY_TAIL = re.compile(
    _WEEKDAY_AFTER
    + r"[^\S\r\n]*(?:[~∼\-–—]|to|until|through|thru)[^\S\r\n]*(\d{1,2})"
    + _ORDINAL
    + r"(?![\d]|[./:]\d|[^\S\r\n]*(?:[AaPp]\.?[Mm]\b|[A-Za-z]{3}|시|월|일))"
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


def _month_of(name: str) -> int:
    return _MONTH_NAMES[name[:3].lower()]


def _english_month(m: re.Match[str], group: int) -> bool:
    """A month name written as one: capitalised, or lower-case as people type in chat ("what
    do i have on dec 10?"), except "may", which is also the modal ("you may 15…")."""
    name = m.group(group)
    return name[0].isupper() or name.lower() != "may"


def find_dates(text: str, ref: date | None = None) -> list[FoundDate]:
    """All dates in text order, never overlapping; impossible dates (2월 30일) are skipped,
    never guessed."""
    ref = ref or today_seoul()
    found: list[FoundDate] = []  # kept sorted by start, never overlapping
    starts: list[int] = []

    def add(value: date | None, start: int, end: int, had_year: bool) -> None:
        at = bisect.bisect(starts, start)
        if value is None or (at and found[at - 1].end > start):
            return
        if at < len(found) and found[at].start < end:
            return
        found.insert(at, FoundDate(value, start, end, had_year))
        starts.insert(at, start)

    def written(year: int, month: int, day: int) -> date | None:
        try:
            return date(year, month, day)
        except ValueError:
            return None

    def yearless(month: int, day: int) -> date | None:
        return _resolve(month, day, ref) if 1 <= month <= 12 else None

    for m in _FULL.finditer(text):
        add(written(int(m.group(1)), int(m.group(2)), int(m.group(3))), *m.span(), True)
    for m in _NUMERIC_YEAR_LAST.finditer(text):
        first, second, year = int(m.group(1)), int(m.group(2)), int(m.group(3))
        month, day = (second, first) if first > 12 else (first, second)
        add(written(year, month, day), *m.span(), True)
    for m in _EN_MONTH_DAY.finditer(text):
        if not _english_month(m, 1):
            continue
        month, day = _month_of(m.group(1)), int(m.group(2))
        if m.group(3):
            add(written(int(m.group(3)), month, day), *m.span(), True)
        else:
            add(yearless(month, day), *m.span(), False)
    for m in _EN_DAY_MONTH.finditer(text):
        if not _english_month(m, 2):
            continue
        month, day = _month_of(m.group(2)), int(m.group(1))
        if m.group(3):
            add(written(int(m.group(3)), month, day), *m.span(), True)
        else:
            add(yearless(month, day), *m.span(), False)
    for m in _SHORT_YEAR.finditer(text):
        value = yearless(int(m.group(2)), int(m.group(3)))
        if value is not None and value.year % 100 == int(m.group(1)):
            add(value, *m.span(), False)
    for m in _MONTH_DAY.finditer(text):
        day = int(m.group(2) or m.group(3) or m.group(4))
        add(yearless(int(m.group(1)), day), *m.span(), False)
    for m in _PADDED_DOT.finditer(text):
        window = text[max(0, m.start() - 20) : m.start()]
        if not _LATIN_WORD_BEFORE.search(window) and not _NOT_A_DATE_LABEL.search(window):
            add(yearless(int(m.group(1)), int(m.group(2))), *m.span(), False)
    for m in _BARE_DOT.finditer(text):
        # A bounded look around: a line of many numbers stays linear.
        window_start = max(0, m.start() - 40)
        line_start = max(text.rfind("\n", window_start, m.start()) + 1, window_start)
        line_before, after = text[line_start : m.start()], text[m.end() : m.end() + 8]
        framed = _DATE_FRAME_BEFORE.search(line_before) or _DATE_FRAME_AFTER.match(after)
        if framed and not _NOT_A_DATE_LABEL.search(line_before.rstrip(" :：")):
            add(yearless(int(m.group(1)), int(m.group(2))), *m.span(), False)
    for f in list(found):
        tail = (_KO_DAY_TAIL if "일" in text[f.start : f.end] else _EN_DAY_TAIL).match(text, f.end)
        if tail is None or int(tail.group(1)) <= f.value.day:
            continue
        value = yearless(f.value.month, int(tail.group(1)))
        if value is not None and value.year == f.value.year:
            add(value, tail.start(1), tail.end(), False)
    # a day-first range's day-only start ("14–15 April 2026", "3 to 7 May"): the same month
    for f in list(found):
        if not text[f.start].isdigit() or not _LATIN.search(text, f.start, f.end):
            continue
        head = _EN_DAY_HEAD.search(text, max(0, f.start - 12), f.start)
        if head is None or not 1 <= int(head.group(1)) < f.value.day:
            continue
        add(written(f.value.year, f.value.month, int(head.group(1))), *head.span(1), f.had_year)
    return found


EN_WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
_WEEKDAYS = {"월": 0, "화": 1, "수": 2, "목": 3, "금": 4, "토": 5, "일": 6}
_REL_DAY = {"오늘": 0, "금일": 0, "내일": 1, "명일": 1, "모레": 2, "내일모레": 2, "글피": 3}
_WEEK_REF = re.compile(
    r"(이번\s*주|이번주|금주|다다음\s*주|다다음주|다음\s*주|다음주|차주|담담\s*주|다담\s*주|담\s*주|"
    r"저번\s*주|지난\s*주|"
    r"(?i:\b(?:the\s+)?week\s+after\s+next\b|\b(?:this|next|last)\s+week\b))"
)
# "금요일", "금욜", and a weekday clipped to its syllable right after a week word ("담주 금
# 일정", "이번주 토 오후 3시"; not 일, which is also "work", nor "다음주 월급") or standing
# alone right before a time ("목 오후4시 라인 포폴리뷰", "수 2시에"; not "할 수 있어").
_WEEKDAY = re.compile(
    r"([월화수목금토일])(?:요일|욜)|(?<=주)[^\S\n]*([월화수목금토])(?![가-힣A-Za-z0-9])|"
    # (not one of a list of weekdays, a weekly slot: "매주 화·목 오후")
    r"(?<![가-힣A-Za-z0-9·/,、&])([월화수목금토])(?=[^\S\n]+(?:오전|오후|아침|저녁|밤|낮|새벽|"
    r"\d{1,2}[^\S\n]*(?:시(?![간작])|:\d{2})))"
)
# A weekday right after a date: "금요일", "(금)", "금욜", "(Fri)", "Friday".
_WEEKDAY_CHECK = re.compile(
    r"[^\S\n]*,?[^\S\n]*(?:\([^\S\n]*[월화수목금토일](?:요일)?[^\S\n]*\)|[월화수목금토일](?:요일|욜)|"
    r"(?i:\(?(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?\)?))(?![가-힣A-Za-z])"
)
_EN_WEEKDAY = re.compile(
    r"(?i)\b(next\s+)?(mon|tue|wed|thu|fri|sat|sun)(?:day|sday|nesday|rsday|urday)?\b"
)
_EN_REL_DAY = re.compile(r"(?i)\b(?:(day after tomorrow)|(tomorrow)|(today|tonight))\b")
# "일주일 뒤", "3일 후", "2주 뒤에", "한 달 뒤", "열흘 뒤": an offset from today.
_AFTER = re.compile(
    r"(?<![\d가-힣])(?:(\d{1,3})\s*일|(일주일|열흘|보름|이틀|사흘|나흘)|(\d{1,2}|한|두|세)\s*(주|달|개월))\s*(?:뒤|후)"
)
# The same in English and as what is left ("closes in 5 days", "in 2 weeks", "3 days
# left", "마감 5일 남음"): an offset from today.
EN_COUNT = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_LEFT = re.compile(
    r"(?i)\bin\s+(\d{1,3}|an?|one|two|three|four|five|six)\s+(days?|weeks?)\b"
    r"|\b(\d{1,3})\s+(days?|weeks?)\s+(?:left|remaining|to\s+go)\b"
    r"|(?<![\d가-힣])(\d{1,3})\s*(일|주)\s*(?:남음|남았|남은|남아)"
)
_KOREAN_COUNT = {"한": 1, "두": 2, "세": 3}
_SPANS_OF_DAYS = {"이틀": 2, "사흘": 3, "나흘": 4, "일주일": 7, "열흘": 10, "보름": 15}
# "이번 달 30일", "다음 달 5일": a day of this or next month.
_DAY_OF_MONTH = re.compile(r"(이번|다음)\s*달\s*(\d{1,2})\s*일")
# A bare "12.16" in a request ("12.16 저녁 8시 ..."): a month and a day followed by a space,
# the end or a particle; "3.5년", "Java 1.8" are not dates (units and letters are excluded).
_REQUEST_DOT = re.compile(r"(?<![\w.\-/])(1[0-2]|0?[1-9])\.(\d{1,2})(?=\s|$|에|까지|부터|로)")
# "10am", "2:30 pm", "2pm에" (a Korean particle may follow at once).
_EN_CLOCK = re.compile(r"(?i)(?<![\d:])(\d{1,2})(?::(\d{2}))?\s*([ap])\.?m(?![a-z])\.?")
# "낼" is 내일 in a chat ("낼 오후3시 …", "낼 일정"), but also the verb 내다 ("지원서 낼 건데"):
# a day only when a time, a part of day, a particle or a word for plans follows, or nothing.
_NAEL = re.compile(
    r"(?<![가-힣])낼(?=\s*(?:오전|오후|아침|저녁|밤|낮|새벽|정오|\d|까지|은|는|도|로|으로|에|$|"
    # or the subject after the day ("낼 나 뭐있음", "낼 저 면접이에요")
    r"일정|스케줄|약속|뭐|몇\s*시|(?:나|저|우리)\s))"
)
# Days named by a fixed-date holiday ("크리스마스 이브 저녁 6시", "한글날"): the next one.
_HOLIDAYS = {
    r"크리스마스\s*이브": (12, 24),
    "크리스마스|성탄절": (12, 25),
    r"신정|새해\s*첫\s*날": (1, 1),
    "삼일절": (3, 1),
    "어린이날": (5, 5),
    "현충일": (6, 6),
    "광복절": (8, 15),
    "개천절": (10, 3),
    "한글날": (10, 9),
    r"(?i:christmas\s+eve)": (12, 24),
    "(?i:christmas)": (12, 25),
    r"(?i:new\s+year'?s\s+day)": (1, 1),
    # the year's last day ("올해 마지막 날 송년회", "올해 말일")
    r"올해\s*(?:의\s*)?(?:마지막\s*날|말일)|연말일|(?i:new\s+year'?s\s+eve)": (12, 31),
}
_HOLIDAY = re.compile("|".join(f"({name})" for name in _HOLIDAYS))
# "D-7", "D-14", "D-day": a countdown to a deadline, from today.
_D_DAY = re.compile(r"(?i)(?<![A-Za-z])D\s*[-–]\s*(?:(\d{1,3})(?!\d)|day\b)")
# Noon and midnight as a time of day.
_NOON = re.compile(r"정오|(?i:\bnoon\b)|(자정)|(?i:\b(midnight)\b)")
# A day of the month alone ("11일로 미뤄줘", "4일에 잡힌 면접"): its next occurrence. Not a
# count of days ("3일 뒤", "3일간", "2일 동안", "1일 1커밋") and not after a month.
_DAY_ONLY = re.compile(
    r"(?<![\d.\-/월])(?<!월\s)([1-9]|[12]\d|3[01])\s*일(?![가-힣\d]|\s*(?:뒤|후|동안|전|이내|\d))"
    r"|(?<![\d.\-/월])(?<!월\s)([1-9]|[12]\d|3[01])\s*일(?=(?:에|로|으로|까지|부터|은|는|자)(?![가-힣]))"
    # "10일거", "4일꺼요", "10일껄로": the item of that day, said without a space
    r"|(?<![\d.\-/월])(?<!월\s)([1-9]|[12]\d|3[01])\s*일(?=(?:거|꺼|껄|건|껀|것)(?:요|로|은|는|도|를|만)?(?![가-힣]))"
    # "10일날 뭐 있었지", "15일날에": the day said with 날
    r"|(?<![\d.\-/월])(?<!월\s)([1-9]|[12]\d|3[01])\s*일(?=날(?:에|엔|은|는|로)?(?![가-힣]))"
    # with a copula: "15일이었다", "15일이야", "20일이래", "9일임", "9일입니다", "9일이요"
    r"|(?<![\d.\-/월])(?<!월\s)([1-9]|[12]\d|3[01])\s*일"
    r"(?=이(?:었|야|에요|예요|요|래|라|던)|였|임(?![가-힣])|입니다)"
    # English: "the 11th", "on the 3rd" (a month's name before it is read as a date above)
    # (not an order: "the 1st round", "the 2nd interview", "the 3rd one")
    r"|(?i:\bthe\s+([1-9]|[12]\d|3[01])(?:st|nd|rd|th)\b"
    r"(?!\s+(?:round|interview|stage|step|floor|place|time|one|try|attempt|year|week|month|"
    r"quarter|half|item|slot|option|choice|person|candidate)s?\b))"
)
# A day of the month with its weekday ("8일 화욜", "15일(화)", "9일 수요일"), no month said.
_DAY_AND_WEEKDAY = re.compile(
    r"(?<![\d.\-/월])(?<!월\s)([1-9]|[12]\d|3[01])\s*일[^\S\n]*,?[^\S\n]*"
    r"\(?([월화수목금토일])(?:요일|욜)?\)?(?![가-힣A-Za-z])"
)
# What a number of days after it measures ("기간은 3일임", "연차 2일", "제출 기한 5일").
_SPAN_OF_DAYS = re.compile(r"(?:기간|동안|연차|휴가|기한|소요|걸리|걸려)\S*\s*(?:은|는|이|가)?\s*$")
_MONTH_END = re.compile(
    r"(이번\s*달|이번달|금월|다음\s*달|다음달|담\s*달)\s*(?:말일|말|마지막\s*날)"
)
# "4:30pm", "10:15 am": a meridiem after a clock written the 24-hour way
_MERIDIEM_AFTER = re.compile(r"\s*([AaPp])\.?[Mm](?![A-Za-z])")
_CLOCK = re.compile(
    r"(?:(오전|오후|아침|저녁|밤|낮)\s*)?(\d{1,2})\s*(?::\s*(\d{2})|시(?!간)(?:\s*(\d{1,2})\s*분|\s*(반))?)"
)


# Hours in native Korean numerals, as people say them: "오후 두시", "저녁 일곱시 반", "열한 시
# 10분"; not "한시적", "두 시간", "세시봉" (a word goes on after 시).
_NATIVE_HOURS = {
    "한": 1, "두": 2, "세": 3, "네": 4, "다섯": 5, "여섯": 6, "일곱": 7, "여덟": 8,
    "아홉": 9, "열": 10, "열한": 11, "열두": 12,
}  # fmt: skip
_NATIVE_CLOCK = re.compile(
    r"(?:(오전|오후|아침|저녁|밤|낮)\s*)?(?<![가-힣])(열한|열두|다섯|여섯|일곱|여덟|아홉|한|두|세|네|열)"
    # (반 with its particle or copula: "두시 반이야", "세시 반에")
    r"\s*시(?:\s*(반)(?=[이에으까부쯤요입]|[^가-힣]|$)|\s*(\d{1,2})\s*분|(?![가-힣]|\s*간))"
    r"|(?:(오전|오후|아침|저녁|밤|낮)\s*)?(?<![가-힣])(열한|열두|다섯|여섯|일곱|여덟|아홉|한|두|세|네|열)"
    r"\s*시(?:\s*(반)|\s*(\d{1,2})\s*분)?(?=에|까지|부터|로|쯤|즈음|정각)"
)


# An hour with the part of the day said in English words: "9 in the morning", "7:30 in the
# evening", "10 at night" (shared with the calendar's reader, text/when.py).
EN_PART_OF_DAY = r"(?i:in[ \t]+the[ \t]+(?:morning|afternoon|evening)|at[ \t]+night|tonight)"
EN_PART_CLOCK = re.compile(
    rf"(?<![\d.:])(\d{{1,2}})(?:[ \t]*:[ \t]*(\d{{2}}))?[ \t]+({EN_PART_OF_DAY})(?![A-Za-z])"
)


def en_part_clock(hour: int, minute: int, part: str) -> str | None:
    """The 24-hour clock of an hour said with an English part of the day."""
    if not 1 <= hour <= 12 or minute >= 60:
        return None
    evening = not part.lower().endswith("morning")
    if hour == 12 and part.lower().endswith("night"):
        return f"00:{minute:02d}"  # "12 at night": midnight
    hour = hour % 12 + (12 if evening else 0)
    return f"{hour:02d}:{minute:02d}"


@dataclass(frozen=True)
class RelativeWhen:
    date: date | None
    time: str | None
    spans: tuple[tuple[int, int], ...]  # where the date/time words are, to cut them out
    date_span: tuple[int, int] | None = None  # from the first to the last date word
    time_span: tuple[int, int] | None = None
    from_today: bool = False  # the date is counted from today (내일, 다음 주 금요일, D-7)


# A month said by itself in a request: "이번 달", "담달", "다음 달", "다다음 달", "1월",
# "next month", "January".
_MONTH_REF = (
    r"(?:(?<![가-힣])(이번|이|다음|담|다다음)\s*달|(?<![\d.\-/])(1[0-2]|0?[1-9])\s*월"
    r"|(?i:(this|next)\s+month|" + _MONTH + r"))"
)
_NTH = {
    "첫": 1, "첫째": 1, "첫번째": 1, "1": 1, "둘째": 2, "두번째": 2, "2": 2, "셋째": 3,
    "세번째": 3, "3": 3, "넷째": 4, "네번째": 4, "4": 4, "다섯째": 5, "다섯번째": 5, "5": 5,
    "마지막": -1, "막": -1, "first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3,
    "fourth": 4, "4th": 4, "fifth": 5, "5th": 5, "last": -1,
}  # fmt: skip
_NTH_KO = (
    r"(첫\s*(?:번\s*)?째|첫|둘\s*째|두\s*번\s*째|셋\s*째|세\s*번\s*째|넷\s*째|네\s*번\s*째"
    r"|다섯\s*(?:번\s*)?째|마지막|막)"
)
_EN_WEEKDAY_NAME = r"(mon|tues|wednes|thurs|fri|satur|sun)day"
# A week or a weekday counted inside a month: "다음 달 첫째 주", "1월 2주차", "12월 마지막 주
# 금요일", "다음 달 둘째 월요일", "담달 막주"; "the first week of January", "the last Friday
# of next month".
_MONTH_WEEK = re.compile(
    _MONTH_REF + r"\s*(?:의\s*)?(?:" + _NTH_KO + r"\s*(주(?!\s*말|간|년|일|\s*동안))?"
    r"|([1-5])\s*주\s*차)\s*(?:([월화수목금토일])(?:요일|욜))?"
)
_EN_MONTH_WEEK = re.compile(
    r"(?i)\b(?:the\s+)?(first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th|last)\s+(?:(week)|"
    + _EN_WEEKDAY_NAME
    + r")\s+(?:of|in)\s+"
    + _MONTH_REF
)
# The beginning, middle or end of a month, as a span of its days: 초 (1-10), 중순 (11-20), 말
# (21 to the end), the old 상순/중순/하순 tenths ("다음 달 초", "12월 중순", "1월 말쯤"; not 말일,
# "말고", 말씀).
_MONTH_PART = re.compile(
    _MONTH_REF + r"\s*(?:의\s*)?(초순|초반|초|상순|중순|중반|하순|후반|말)"
    r"(?=(?:에|엔|쯤|경|께|부터|까지|의|은|는|도|이|에는|으로|로)?(?![가-힣]))"
    r"|(?i:\b(early|mid|late|end\s+of)[\s-]+(?:(this|next)\s+month\b|" + _MONTH + r"))"
)
_PART_DAYS = {"초": (1, 10), "상": (1, 10), "중": (11, 20), "하": (21, 31), "후": (21, 31)}
_PART_DAYS |= {"말": (21, 31), "early": (1, 10), "mid": (11, 20), "late": (21, 31), "end": (21, 31)}


@dataclass(frozen=True)
class MonthPeriod:
    """Days named inside a month: one day ("다음 달 둘째 월요일"), or a span ("1월 첫째 주",
    "12월 중순"); `span` is where its words are. A day the month does not have ("다섯째
    금요일" of a month with four) is None, with `month` the month it was looked for in."""

    start: date | None
    end: date | None
    span: tuple[int, int]
    month: tuple[date, date]


def _named_month(m: re.Match[str], first: int, now: date) -> tuple[date, date] | None:
    """The month a _MONTH_REF match (its groups from `first`) names: this or next month, or
    the next time a named month comes (this month included)."""
    this_next, number, en_this_next, name = m.group(first, first + 1, first + 2, first + 3)
    if this_next:
        return _month(now, {"이번": 0, "이": 0, "다음": 1, "담": 1, "다다음": 2}[this_next])
    if en_this_next:
        return _month(now, 0 if en_this_next.lower() == "this" else 1)
    target = int(number) if number else _month_of(name)
    return _month(now, (target - now.month) % 12)


def _nth_weekday(month: tuple[date, date], nth: int, weekday: int) -> date | None:
    """The nth given weekday of the month (-1: the last)."""
    first, last = month
    if nth < 0:
        return last - timedelta(days=(last.weekday() - weekday) % 7)
    day = first + timedelta(days=(weekday - first.weekday()) % 7 + 7 * (nth - 1))
    return day if day <= last else None


def _nth_week(month: tuple[date, date], nth: int) -> tuple[date, date]:
    """The nth Monday-to-Sunday week of the month (-1: the last), a week belonging to the
    month that holds its Thursday (the usual 주차 numbering); the first week starts on the
    1st and the last ends on the month's last day, so no day of the month falls outside
    its weeks."""
    first, last = month
    thursdays = [first + timedelta(days=(3 - first.weekday()) % 7 + 7 * k) for k in range(5)]
    thursdays = [t for t in thursdays if t <= last]
    # (a fifth week of a month with four Thursdays is its last: counted from the week of the
    # 1st, as people also count, the month has five)
    thursday = thursdays[min(nth, len(thursdays)) - 1] if nth > 0 else thursdays[-1]
    start, end = thursday - timedelta(days=3), thursday + timedelta(days=3)
    if thursday == thursdays[0]:
        start = first
    if thursday == thursdays[-1]:
        end = last
    return start, end


def month_period(text: str, now: date) -> MonthPeriod | None:
    """A week, a weekday or a part counted inside a named month (see _MONTH_WEEK and
    _MONTH_PART), or None."""
    for m in _MONTH_WEEK.finditer(text):
        nth_word, week, week_number, weekday = m.group(5, 6, 7, 8)
        if not (week or week_number or weekday) or (nth_word == "막" and not week):
            continue  # "다음 달 첫 면접": an ordinal of something else
        month = _named_month(m, 1, now)
        nth = _NTH[re.sub(r"\s", "", nth_word or week_number)]
        if month is None:
            continue
        if weekday and week_number:
            # "1월 2주차 금요일": the day of that numbered week (주차 counts weeks)
            first, last = _nth_week(month, nth)
            in_week = first + timedelta(days=(_WEEKDAYS[weekday] - first.weekday()) % 7)
            found = in_week if in_week <= last else None
            return MonthPeriod(found, found, m.span(), month)
        if weekday:
            # "둘째 주 일요일", "마지막 주 금요일": the month's second Sunday, its last Friday,
            # as people mean them (the mart's "둘째·넷째 주 일요일")
            found = _nth_weekday(month, nth, _WEEKDAYS[weekday])
            return MonthPeriod(found, found, m.span(), month)
        weeks = _nth_week(month, nth)
        return MonthPeriod(weeks[0], weeks[1], m.span(), month)
    for m in _EN_MONTH_WEEK.finditer(text):
        month = _named_month(m, 4, now)
        if month is None:
            continue
        nth = _NTH[m.group(1).lower()]
        if m.group(2):
            weeks = _nth_week(month, nth)
            return MonthPeriod(weeks[0], weeks[1], m.span(), month)
        found = _nth_weekday(month, nth, EN_WEEKDAYS.index(m.group(3)[:3].lower()))
        return MonthPeriod(found, found, m.span(), month)
    for m in _MONTH_PART.finditer(text):
        if m.group(5):
            month, part = _named_month(m, 1, now), m.group(5)[0]
        else:  # "early January", "mid-next month", "end of this month"
            this_next, name = m.group(7, 8)
            if this_next:
                month = _month(now, 0 if this_next.lower() == "this" else 1)
            else:
                month = _month(now, (_month_of(name) - now.month) % 12)
            part = m.group(6).split()[0].lower()
        if month is None:
            continue
        low, high = _PART_DAYS[part]
        last = month[1]
        return MonthPeriod(
            month[0].replace(day=low), last.replace(day=min(high, last.day)), m.span(), month
        )
    return None


def _week_offset(word: str) -> int:
    word = re.sub(r"\s", "", word).lower()
    if word in ("이번주", "금주", "thisweek"):
        return 0
    if word in ("다음주", "차주", "담주", "nextweek"):
        return 1
    if word in ("다다음주", "다담주", "담담주", "weekafternext", "theweekafternext"):
        return 2
    return -1  # 저번주, 지난주


def _add_months(day: date, months: int) -> date | None:
    """The same day `months` later (the month's last day when it is shorter)."""
    span = _month(day, months)
    return span[0].replace(day=min(day.day, span[1].day)) if span else None


def _ends_on_a_day(text: str, now: date) -> bool:
    """Whether the text ends on a day it names ("크리스마스", "금요일의")."""
    said = re.sub(r"(?:\s*의)?\s*$", "", text)
    _, spans, _ = _dates_in(said, now) if said else (None, [], False)
    return bool(spans) and max(e for _, e in spans) == len(said)


def _dates_in(text: str, now: date) -> tuple[date | None, list[tuple[int, int]], bool]:
    """The first date a request names, where its words are, and whether it is counted
    from today (내일, 다음 주 금요일, D-7: True; a written date, a holiday, a bare "24일":
    False), by the first form found in this order: written dates, "이번 달 30일", "N일 뒤",
    "이번 달 말", 오늘/내일/모레 (tomorrow), then a weekday with or without its week
    ("다음주 금요일", "next Friday")."""
    absolute = find_dates(text, now)
    if absolute:
        return absolute[0].value, [(absolute[0].start, absolute[0].end)], False
    value: date | None
    dot = _REQUEST_DOT.search(text)
    if dot and int(dot.group(2)) <= 31:
        value = _resolve(int(dot.group(1)), int(dot.group(2)), now)
        if value is not None:
            return value, [dot.span(0)], False
    of_month = _DAY_OF_MONTH.search(text)
    if of_month:
        month = _month(now, 1 if of_month.group(1) == "다음" else 0)
        if month and int(of_month.group(2)) <= month[1].day:
            return month[0].replace(day=int(of_month.group(2))), [of_month.span()], True
    d_day = _D_DAY.search(text)
    if d_day:  # "접수 마감 D-7": the deadline is seven days from today
        value = _plus(now, int(d_day.group(1) or 0))
        if value is not None:
            return value, [d_day.span()], True
    after = _AFTER.search(text)
    if after and _ends_on_a_day(text[: after.start()], now):
        after = None  # "크리스마스 5일 후", "금요일 사흘 뒤": counted from that day (find_when)
    if after:
        days, word, count, unit = after.groups()
        value = None
        if days:
            value = _plus(now, int(days))
        elif word:
            value = _plus(now, _SPANS_OF_DAYS[word])
        else:
            n = _KOREAN_COUNT.get(count) or int(count)
            value = _plus(now, 7 * n) if unit == "주" else _add_months(now, n)
        if value is not None:
            return value, [after.span()], True
    left = _LEFT.search(text)
    if left:
        groups = left.groups()
        count, unit = next((g, u) for g, u in zip(groups[::2], groups[1::2], strict=True) if g)
        n = EN_COUNT.get(count.lower()) or int(count)
        value = _plus(now, n * (7 if unit.lower().startswith(("w", "주")) else 1))
        if value is not None:
            return value, [left.span()], True
    month_end = _MONTH_END.search(text)
    if month_end:
        month = _month(now, 1 if month_end.group(1).startswith(("다음", "담")) else 0)
        if month:
            return month[1], [month_end.span()], True
    period = month_period(text, now)
    if period is not None and period.start is not None and period.start == period.end:
        return period.start, [period.span], True  # "다음 달 마지막 금요일": that day
    if period is not None:
        # "1월 첫째 주", "12월 중순" (or a day the month does not have): days, not one of
        # them; a day said elsewhere is still read ("12월 중순이었는데 다음 주 금요일로"),
        # and none of the period's words again
        start, end = period.span
        text = text[:start] + " " * (end - start) + text[end:]
    holiday = _HOLIDAY.search(text)
    if holiday:
        # Every alternative of _HOLIDAY is one capturing group.
        assert holiday.lastindex is not None
        holiday_month, holiday_day = list(_HOLIDAYS.values())[holiday.lastindex - 1]
        value = _resolve(holiday_month, holiday_day, now)
        if value is not None:
            return value, [holiday.span()], False
    # the relative day said first ("낼 … cu면접 모레 … gs면접": 낼), the longest word at a
    # place ("내일모레" over its "내일")
    said: list[tuple[int, int, int, tuple[int, int]]] = []
    for word, offset in _REL_DAY.items():
        # "내일모레" is written with a space as often as without ("내일 모레 금요일")
        found = re.search(r"내일\s*모레" if word == "내일모레" else word, text)
        if found:
            said.append((found.start(), found.start() - found.end(), offset, found.span()))
    nael = _NAEL.search(text)
    if nael:
        said.append((nael.start(), nael.start() - nael.end(), 1, nael.span()))
    if said:
        _, _, offset, span = min(said)
        return _plus(now, offset), [span], True
    english = _EN_REL_DAY.search(text)
    if english:
        offset = 2 if english.group(1) else 1 if english.group(2) else 0
        return _plus(now, offset), [english.span()], True
    checked = _DAY_AND_WEEKDAY.search(text)
    if checked:
        # "8일 화욜", "15일(화)": the next such day of a month that falls on that weekday
        # (within a season: a day that never falls so soon is no check of this one)
        day, target = int(checked.group(1)), _WEEKDAYS[checked.group(2)]
        for ahead in range(3):
            month = _month(now, ahead)
            if month and day <= month[1].day:
                value = month[0].replace(day=day)
                if value >= now and value.weekday() == target:
                    # (counted from today, as the weekday alone was: the calendar's reader
                    # takes only such days from prose)
                    return value, [checked.span()], True
    weekday = _WEEKDAY.search(text)
    if weekday:
        target = _WEEKDAYS[next(g for g in weekday.groups() if g)]
        # The week word just before the weekday ("수요일 스터디를 다음주 목요일로": 목요일's);
        # any week word when the text names one weekday only.
        near = [
            m
            for m in _WEEK_REF.finditer(text, max(0, weekday.start() - 12), weekday.start())
            if not text[m.end() : weekday.start()].strip()
        ]
        if near:
            week: re.Match[str] | None = near[-1]
        elif len(_WEEKDAY.findall(text)) == 1:
            week = _WEEK_REF.search(text)
        else:
            week = None
        if week:
            # Monday of the week that word names, plus the weekday.
            weeks = _week_offset(week.group(1))
            value = _plus(now, 7 * weeks - now.weekday() + target)
            return value, [week.span(), weekday.span()], True
        return _plus(now, (target - now.weekday()) % 7), [weekday.span()], True
    en_weekday = _EN_WEEKDAY.search(text)
    if en_weekday and (en_weekday.group(0)[-3:].lower() == "day" or en_weekday.group(1)):
        target = EN_WEEKDAYS.index(en_weekday.group(2).lower())
        if en_weekday.group(1):  # "next Friday": that day of next week
            return _plus(now, 7 - now.weekday() + target), [en_weekday.span()], True
        return _plus(now, (target - now.weekday()) % 7), [en_weekday.span()], True
    day_only = _DAY_ONLY.search(text)
    if day_only and _SPAN_OF_DAYS.search(text[max(0, day_only.start() - 12) : day_only.start()]):
        day_only = None  # "준비 기간은 3일임", "연차 2일이야": a number of days, no date
    if day_only:
        day = int(next(g for g in day_only.groups() if g))
        for ahead in (0, 1, 2):  # this month's when it is still ahead, else the next one's
            month = _month(now, ahead)
            if month and day <= month[1].day and month[0].replace(day=day) >= now:
                return month[0].replace(day=day), [day_only.span()], False
    if period is not None:
        return None, [period.span], True
    return None, [], False


# A clock written the 24-hour way in four digits ("12월 15일 1000", "8일 화욜 1400", "시간을
# 2000으로"): read only where it can be nothing else: right after a day said (with its
# weekday), or after the word for the time; never a count or a year ("1500원", "2026년",
# "0900-1800").
_HHMM = re.compile(r"(?<![\d.:/\-,~])([01]\d|2[0-3])([0-5]\d)(?![\d.,:/\-~])")
_HHMM_UNIT = re.compile(
    r"(?:년|원|명|개|번|호|점|만|천|억|위|등|차|회|기|일|월|분|초|건|세|살|평|자|%|"
    r"(?i:m|km|kg|g|ml|cc|mb|gb|p)\b)"
)
_HHMM_UNIT_SPACED = re.compile(
    r"[^\S\n]+(?:원|명|개|m|km|시간|분|세대|년|회|번|호|점|위|등|페이지|자|곳|단어|문항|문제|걸음|"
    r"글자|장|쪽|권|줄|개국|칼로리|kcal)(?![가-힣A-Za-z])|[^\S\n]*[-~–][^\S\n]*\d"
)
_HHMM_AFTER_DAY = re.compile(
    r"[^\S\n]*,?[^\S\n]*(?:\(?[월화수목금토일](?:요일|욜)?\)?[^\S\n]*,?[^\S\n]*)?$"
)
_HHMM_LABEL = re.compile(
    r"(?:시간|시각|time)[^\S\n]*(?:을|은|는|이|도|:)?[^\S\n]*$|(?i:\bat[^\S\n]+)$|@$"
)


def _hhmm(text: str, skip: list[tuple[int, int]]) -> tuple[str | None, tuple[int, int] | None]:
    for m in _HHMM.finditer(text):
        if any(s <= m.start() < e for s, e in skip) or _HHMM_UNIT.match(text, m.end()):
            continue
        ends = [e for _, e in skip if e <= m.start()]
        # (right after a day, a clock on the quarter hour: "1004 강의실", "2025 회고" are a
        # room and a year)
        after_day = (
            bool(ends)
            and _HHMM_AFTER_DAY.match(text[max(ends) : m.start()]) is not None
            and (m.group(2) == "00" or m.group(1).startswith("0"))
            and not _HHMM_UNIT_SPACED.match(text, m.end())
        )
        if after_day or _HHMM_LABEL.search(text[: m.start()]):
            return f"{m.group(1)}:{m.group(2)}", m.span()
    return None, None


def _clock_in(text: str, skip: list[tuple[int, int]]) -> tuple[str | None, tuple[int, int] | None]:
    for m in EN_PART_CLOCK.finditer(text):  # "9 in the morning", "7:30 in the evening"
        if not any(s <= m.start() < e for s, e in skip):
            value = en_part_clock(int(m.group(1)), int(m.group(2) or 0), m.group(3))
            if value is not None:
                return value, m.span()
    for m in _CLOCK.finditer(text):
        if any(s <= m.start() < e for s, e in skip):
            continue
        hour, minute = int(m.group(2)), int(m.group(3) or m.group(4) or 0)
        if m.group(5):
            minute = 30
        part = m.group(1) or ""
        meridiem = _MERIDIEM_AFTER.match(text, m.end())
        if not part and meridiem and 1 <= hour <= 12:  # "4:30pm", "10:15 am"
            hour = hour % 12 + (12 if meridiem.group(1).lower() == "p" else 0)
        if part in ("오후", "저녁", "밤") and hour < 12:
            hour += 12
        if part == "오전" and hour == 12:
            hour = 0  # 오전 12시 is midnight, as the calendar parser reads it
        if part == "낮" and hour < 7:
            hour += 12
        if hour <= 23 and minute < 60:
            # (the meridiem read is the clock's: "4:30pm 당근 …" leaves no "pm" behind)
            end = (
                meridiem.end() if not part and meridiem and 1 <= int(m.group(2)) <= 12 else m.end()
            )
            return f"{hour:02d}:{minute:02d}", (m.start(), end)
    for m in _NATIVE_CLOCK.finditer(text):  # "오후 두시", "저녁 일곱시 반"
        if any(s <= m.start() < e for s, e in skip):
            continue
        g = m.groups()
        part, word, half, minutes = g[0:4] if g[1] else g[4:8]
        hour = _NATIVE_HOURS[word]
        if part in ("오후", "저녁", "밤") and hour < 12:
            hour += 12
        if part == "낮" and hour < 7:
            hour += 12
        minute = 30 if half else int(minutes or 0)
        if minute < 60:
            return f"{hour:02d}:{minute:02d}", m.span()
    for m in _NOON.finditer(text):  # "정오에", "자정까지"
        if not any(s <= m.start() < e for s, e in skip):
            return ("00:00" if m.group(1) or m.group(2) else "12:00"), m.span()
    for m in _EN_CLOCK.finditer(text):  # "10am", "2:30 pm", "4 p.m."
        hour, minute = int(m.group(1)), int(m.group(2) or 0)
        if not 1 <= hour <= 12 or minute >= 60:
            continue
        hour = hour % 12 + (12 if m.group(3).lower() == "p" else 0)
        return f"{hour:02d}:{minute:02d}", m.span()
    return _hhmm(text, skip)


_EN_WEEKDAY_BEFORE = re.compile(
    r"(?i)(?<![A-Za-z])(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)"
    r"(?:day|sday|nesday|rsday|urday)?\.?,?[^\S\n]*$"
)
_KST = re.compile(r"[^\S\n]*(?:KST|(?i:seoul\s+time)|한국\s*시간)(?![A-Za-z가-힣])")
# A count of days right after a day ("신정 다음날", "크리스마스 이틀 전", "12월 10일 전날",
# "금요일 하루 전"): that day moved by the count.
_SHIFT_AFTER = re.compile(
    r"[^\S\n]*(?:의[^\S\n]*)?(?:(전날|전\s날|하루\s*전)|(다음\s*날|담\s*날|이튿날|하루\s*(?:뒤|후))"
    r"|(이틀|사흘|나흘|닷새|일주일|\d{1,2}\s*일|(?:\d{1,2}|한|두|세)\s*(?:주|달|개월))\s*(전|뒤|후))"
    r"(?![가-힣])"
)
_COUNTED_DAYS = {"이틀": 2, "사흘": 3, "나흘": 4, "닷새": 5, "일주일": 7}


def _shifted(day: date, m: re.Match[str]) -> date | None:
    """The day moved by a _SHIFT_AFTER count: days, weeks ("2주 뒤") or months ("한 달 뒤")."""
    if m.group(1) or m.group(2):
        return _plus(day, -1 if m.group(1) else 1)
    said, sign = m.group(3), -1 if m.group(4) == "전" else 1
    unit = re.search(r"주|달|개월", said)
    if unit is None or said == "일주일":
        count = _COUNTED_DAYS.get(said) or int(re.sub(r"\D", "", said))
        return _plus(day, sign * count)
    number = said[: unit.start()].strip()
    count = _KOREAN_COUNT.get(number) or int(number)
    if unit.group() == "주":
        return _plus(day, sign * 7 * count)
    return _add_months(day, sign * count)


def find_when(text: str, now: date) -> RelativeWhen:
    """The date and time a Korean request means, resolved against `now` deterministically:
    "내일", "모레", "다음주 금요일 오후 3시", "이번 달 말", "금요일" (the next one, today
    included), "일주일 뒤", "이번 달 30일", absolute dates ("3/15", "2026.03.15", a bare
    "12.16"), English "tomorrow at 10am"; None where the text says nothing."""
    when, spans, from_today = _dates_in(text, now)
    shift = _SHIFT_AFTER.match(text, max(e for _, e in spans)) if when and spans else None
    if when is not None and shift is not None:
        # "신정 다음날", "크리스마스 이틀 전", "12월 10일 전날": a day counted from the day said
        when = _shifted(when, shift)
        spans = [*spans[:-1], (spans[-1][0], shift.end())]
    if spans and not from_today:
        # a weekday written after a date checks it ("12월 18일 금요일", "12/18 (금)"): one
        # mention with the date, never a second day of its own
        check = _WEEKDAY_CHECK.match(text, spans[0][1])
        if check:
            spans = [(spans[0][0], check.end()), *spans[1:]]
        # and before it, as English writes it ("on Tue Dec 8", "Wed, Dec 9")
        ahead = _EN_WEEKDAY_BEFORE.search(text[: spans[0][0]])
        if ahead and _LATIN.match(text, spans[0][0]):  # (not "SAT 12월 5일": the exam)
            spans = [(ahead.start(), spans[0][1]), *spans[1:]]
    clock, clock_span = _clock_in(text, spans)
    zone = _KST.match(text, clock_span[1]) if clock_span else None
    if clock_span and zone:
        clock_span = (clock_span[0], zone.end())  # "9pm KST": the zone is the clock's
    date_span = (min(s for s, _ in spans), max(e for _, e in spans)) if spans else None
    return RelativeWhen(
        when,
        clock,
        tuple([*spans, *([clock_span] if clock_span else [])]),
        date_span,
        clock_span,
        from_today,
    )


def week_range(text: str, now: date) -> tuple[date, date] | None:
    """("이번 주" | "다음 주" ...) -> (Monday, Sunday) of that week; "이번 달" -> the month."""
    week = _WEEK_REF.search(text)
    if week and not _WEEKDAY.search(text):
        offsets = [_week_offset(week.group(1))]
        other = _WEEK_REF.search(text, week.end())
        if other and _AND_JOIN.fullmatch(text[week.end() : other.start()]):
            offsets.append(_week_offset(other.group(1)))  # "이번주랑 다음주": both weeks
        monday = _plus(now, 7 * min(offsets) - now.weekday())
        sunday = _plus(now, 7 * max(offsets) - now.weekday() + 6)
        return (monday, sunday) if monday and sunday else None
    # "담달": next month, as "담주" is next week
    month = re.search(r"(이번\s*달|이번달|다음\s*달|다음달|담\s*달)(?!\s*말)", text)
    if month:
        return _month(now, 1 if month.group(1).startswith(("다음", "담")) else 0)
    return None


_AND_JOIN = re.compile(r"\s*(?:이?랑|하고|과|와|및|,|&|(?i:and))\s*")
# Two days said as a span: "<day>부터 <day>까지" (each a word or two).
_FROM_TO = re.compile(r"((?:\S+\s)?\S+?)\s*(?:부터|에서)\s*((?:\S+\s)?\S+?)\s*까지")
_RANGE_JOIN = re.compile(r"\s*(?:부터|에서|~|∼|-|–|to|until|through)\s*", re.IGNORECASE)
# Two days said as the ends of a span with 사이 ("12월 10일에서 20일 사이", "월요일이랑 수요일
# 사이에", "between Dec 10 and 20" is read by find_dates' range forms).
_BETWEEN = re.compile(
    r"((?:\S+\s)?\S+?)\s*(?:부터|에서|와|과|하고|이랑|랑)\s*((?:\S+\s)?\S+?)\s*사이"
)
# Relative day words said one after another ("오늘 내일 모레", "오늘, 내일"): a run of them
# starting today, or of three or more ("내일 모레" alone is the day after tomorrow).
_DAY_RUN = re.compile(
    r"(?<![가-힣])오늘(?:[\s,]*(?:이랑|랑|하고)?[\s,]*(?:내일|낼|모레|글피))+"
    r"|(?<![가-힣])(?:내일|낼)[\s,]*(?:모레)[\s,]*(?:글피)"
)
# The week a day falls in: "크리스마스 있는 주", "12월 10일 껴 있는 주", "the week of Dec 7".
_WEEK_HOLDING = re.compile(
    r"(?:이|가)?\s*(있는|낀|껴\s*있는|끼어\s*있는|들어\s*있는|포함된)\s*주(?:에|엔|의|는|도|를|동안)?(?![가-힣]|\s*말)"
    r"|(?i:\b(?:the\s+)?week\s+of\b)"
)
# "…까지" with no start said, "until/till/through Friday" (the text before it names the end).
UNTIL = re.compile(r"까지|(?i:\b(?:until|till|through|thru)\b)")
_SINCE = re.compile(r"부터|에서|(?i:\bfrom\b)")
# "A 말고 B", "A 아니고 B": B said instead of A
_INSTEAD = re.compile(r"(?<=\S)\s*(?:말고|아니고|아니라)\s")
_WEEKEND = re.compile(r"주\s*말(?![고구씀])|(?i:(?<![A-Za-z])weekends?(?![A-Za-z]))")
_WEEKEND_OF = re.compile(r"(?i)(이번|금|다다음|다음|담담|다담|담|차|this|next)\s*주?\s*$")
# The end of this year or month as a deadline ("연말 전에", "연말까지", "올해 안에", "월말까지",
# "이번 달 안에"): everything from today to it.
_BY_END = re.compile(
    r"(연말\s*(?:까지|전에?|전까지)|올해\s*말\s*(?:까지|전에?)|(?:연내|올해\s*(?:안|내))(?:에|으로)?(?![가-힣]))"
    r"|(월말\s*(?:까지|전에?|전까지)|이번\s*달\s*(?:안|내)(?:에|으로)?(?![가-힣]))"
)
_REMAINING = re.compile(r"(이번\s*(달|주))\s*(?:에\s*)?남은|남은\s*(?:이번\s*)?(달|주)")
_MONTH_ONLY = re.compile(r"(?<![\d.\-/])(\d{1,2})\s*월(?!\s*\d)")
# "in December", "for January", "my december schedule": an English month with no day
_EN_MONTH_ONLY = re.compile(
    r"(?i)(?:\b(?:in|for|during|of|this|next|my|the)\s+"
    + _MONTH
    + r"(?!\s*\d)|"
    + _MONTH
    + r"(?=\s+(?:schedule|calendar|events?|plans?|agenda|appointments?)\b))"
)


_WEEKDAY_SPAN = re.compile(
    r"(?<![\d가-힣])([월화수목금토일])(?:요일|욜)?\s*(?:부터|~|-|–)\s*([월화수목금토일])(?:요일|욜)?"
    r"(?=\s|$|까지|[?!.,])"
)


# Two periods asked for together that meet ("다음 주랑 그 다음 주", "이번 달이랑 다음 달",
# "12월하고 1월"): one listing from the first's start to the second's end.
_PERIOD_AND = re.compile(r"(?:이랑|랑|하고|&|,|(?i:\s+and\s+))\s*")
# The second said as the one after the first ("그 다음 주", "그담달", "the week after").
_THE_ONE_AFTER = re.compile(
    r"\s*그\s*(?:다음|담)\s*(주|달)(?!\s*말)|(?i:\s*the\s+(week|month)\s+after)"
)


def _joined_periods(text: str, now: date) -> tuple[date, date] | None:
    for joint in _PERIOD_AND.finditer(text):
        left = date_range(text[: joint.start()], now)
        if left[1] is None:
            continue
        first, last = left[0], left[1]
        after = _THE_ONE_AFTER.match(text, joint.end())
        if after:
            unit = after.group(1) or after.group(2)
            if unit in ("주", "week"):
                end = _plus(last, 7)
            else:
                month = _month(first, 1)
                end = month[1] if month else None
            if end is not None:
                return first, end
            continue
        right = date_range(text[joint.end() :], now)
        # (only periods that meet: "이번 주말하고 다음 주말", "월요일하고 수요일" are two
        # listings, not the days between them)
        if right[1] is not None and right[0] == _plus(last, 1):
            return first, right[1]
    return None


def date_range(text: str, now: date) -> tuple[date, date | None]:
    """The days a schedule listing asks for, (start, end): "12월 1일부터 12월 10일까지",
    "다음 주말" (its Saturday and Sunday), "이번 달 남은" (today to the month's end), a week
    or a month (`week_range`), "1월" (that month, the next one), one day ("내일"), or,
    when the text names none, (today, None): from today on. Of "A 말고 B", B."""
    instead = _INSTEAD.search(text)
    if instead is not None:
        # "이번 주 말고 다음 주 일정": the period said instead (when it names one)
        after = date_range(text[instead.end() :], now)
        if after != (now, None):
            return after
    found = find_dates(text, now)
    if len(found) >= 2 and _RANGE_JOIN.match(text, found[0].end):
        return found[0].value, found[1].value
    joined = _joined_periods(text, now)
    if joined is not None:
        return joined
    between = _BETWEEN.search(text)
    if between:
        # "12월 10일에서 20일 사이", "월요일이랑 수요일 사이": from the first to the second
        start = find_when(between.group(1), now).date
        end = find_when(between.group(2), start).date if start else None
        if start is not None and end is not None and start <= end:
            return start, end
    run = _DAY_RUN.search(text)
    if run:
        # "오늘 내일 모레 일정", "오늘 내일 뭐 있어": the days said one after another
        offsets = [_REL_DAY.get(w, 1) for w in re.findall(r"오늘|내일|낼|모레|글피", run.group())]
        if offsets == list(range(offsets[0], offsets[0] + len(offsets))):
            first_day, last_day = _plus(now, offsets[0]), _plus(now, offsets[-1])
            if first_day is not None and last_day is not None:
                return first_day, last_day
    holding = _WEEK_HOLDING.search(text)
    if holding:
        # "크리스마스 있는 주", "12월 10일 낀 주", "the week of Dec 7": Monday to Sunday
        said = text[: holding.start()] if holding.group(1) else text[holding.end() :]
        day = find_when(said, now).date
        monday = _plus(day, -day.weekday()) if day else None
        if monday is not None:
            return monday, _plus(monday, 6)
    ends = _FROM_TO.search(text)
    if ends:
        # "내일부터 글피까지", "오늘부터 금요일까지": each end read as a day of its own
        # ("12월 초부터 1월 초까지": the first period's start to the second's end)
        first_end, second_end = month_period(ends.group(1), now), month_period(ends.group(2), now)
        start = first_end.start if first_end else find_when(ends.group(1), now).date
        end = second_end.end if second_end else find_when(ends.group(2), now).date
        if start is not None and end is not None and start <= end:
            return start, end
    by_end = _BY_END.search(text)
    if by_end and not _SINCE.search(text[: by_end.start()]):
        # "연말 전에 잡힌 일정", "월말까지", "올해 안에": from today to the year's (month's) end
        next_year = bool(re.search(r"(?:내년|다음\s*해)\s*$", text[: by_end.start()]))
        year = now.year + (1 if next_year else 0)
        end = date(year, 12, 31) if by_end.group(1) else (_month(now, 0) or (now, now))[1]
        return now, end
    until = UNTIL.search(text)
    if until and not _SINCE.search(text[: until.start()]):
        # "금요일까지 뭐 있어", "이번 달 말까지 일정", "until Friday": from today to that day's
        # (or that period's) end
        said = text[: until.start()] if until.group() == "까지" else text[until.end() :]
        _, finish = date_range(said, now)
        # (a period already begun counts from today: "이번달 말까지 남은 일정")
        if finish is not None and finish >= now:
            return now, finish
    period = month_period(text, now)
    if period is not None:
        # (a day the month does not have: the month it was looked for in)
        if period.start is None or period.end is None:
            return period.month
        return period.start, period.end
    weekend = _WEEKEND.search(text)
    if weekend:
        # the week named right before it: "다음 주말", "담주 주말", "다음 주 주말", "next weekend"
        of = _WEEKEND_OF.search(text[: weekend.start()])
        word = of.group(1).lower() if of else ""
        weeks = {"다음": 1, "담": 1, "차": 1, "next": 1, "다다음": 2, "담담": 2, "다담": 2}.get(
            word, 0
        )
        saturday = _plus(now, 7 * weeks - now.weekday() + 5)
        if saturday is not None:
            return saturday, _plus(saturday, 1)
    remaining = _REMAINING.search(text)
    if remaining:
        unit = remaining.group(2) or remaining.group(3)
        if unit == "달":
            month = _month(now, 0)
            return now, month[1] if month else None
        return now, _plus(now, 6 - now.weekday())
    days = _WEEKDAY_SPAN.search(text)
    if days:
        # "담주 수요일부터 금요일까지", "다음주 화~목": the first weekday with its week, then
        # as many days on as the second is after it
        first, last = _WEEKDAYS[days.group(1)], _WEEKDAYS[days.group(2)]
        start = find_when(text[: days.start()] + days.group(1) + "요일", now).date
        if start is not None and start.weekday() == first and last > first:
            return start, _plus(start, last - first)
    span = week_range(text, now)
    if span:
        return span
    when = find_when(text, now)
    if when.date is not None:
        return when.date, when.date
    month_only = _MONTH_ONLY.search(text) or _EN_MONTH_ONLY.search(text)
    name = next((g for g in month_only.groups() if g), "") if month_only else ""
    if month_only and name.isdigit() and not 1 <= int(name) <= 12:
        month_only = None
    if month_only:
        target = int(name) if name.isdigit() else _month_of(name)
        month = _month(now, (target - now.month) % 12)
        if month:
            return month
    return now, None
