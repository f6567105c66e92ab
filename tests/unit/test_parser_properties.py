"""Property-based tests (Hypothesis) for the deterministic text parsers that read untrusted
input: Korean dates and times, calendar stages, the section splitter and the PII detectors.

Each property holds for arbitrary text (never raises, and the results keep their
invariants) and for values embedded in random surrounding text (still found, exactly).
Pathological inputs (long digit runs, repeated separators, long whitespace runs) run under
Hypothesis's deadline, which catches super-linear regex backtracking. Runs are
derandomized (the same examples every run) and bounded, so the file is fast and stable.
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import date, timedelta

import pytest
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

from nodes.calendar.schemas import Schedule
from nodes.calendar.steps import extract_schedule
from scan.masking import find_pii_tolerant
from scan.pii import find_pii, rrn_checksum_ok
from text.dates import find_dates, find_when, week_range
from text.sections import POSTING_HEADINGS, RESUME_HEADINGS, split_sections
from text.stages import Stage, find_stages

# A noisy shared 2-core VM: the deadline is generous; quadratic backtracking on the
# pathological inputs below takes seconds, linear matching takes milliseconds.
PROPS = settings(
    derandomize=True,
    database=None,
    deadline=2000,
    max_examples=200,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# ---------------------------------------------------------------------------- strategies

HANGUL = st.characters(min_codepoint=0xAC00, max_codepoint=0xD7A3)
ASCII_LETTERS = st.sampled_from("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
# What the parsers look for: separators, date/time words, stage words, PII labels.
PARSER_TOKENS = st.sampled_from(
    [
        ".",
        "/",
        "~",
        ":",
        "(",
        ")",
        "-",
        "–",
        ",",
        "|",
        "·",
        "→",
        "->",
        "▶",
        ">",
        "년",
        "월",
        "일",
        "시",
        "분",
        "반",
        "오전",
        "오후",
        "AM",
        "pm",
        "까지",
        "(금)",
        "(월)",
        "요일",
        "다음주",
        "이번 달 말",
        "내일",
        "차",
        "1차 면접",
        "서류",
        "마감",
        "접수기간",
        "코딩테스트",
        "과제",
        "상시 채용",
        "합격자 발표",
        "■ ",
        "[",
        "]",
        "자격요건",
        "우대사항",
        "경력",
        "기술 스택",
        "@",
        ".com",
        "www.",
        "+82",
        "010",
        "02",
        "20",
        "19",
        "이름",
        "생년월일",
        "주소",
        "서울특별시",
        "강남구",
        "테헤란로",
        "url",
        "*",
    ]
)
WHITESPACE = st.sampled_from([" ", "  ", "\n", "\t", "\r\n", "\u3000", "\xa0", "\u2028"])
DIGITS = st.text(alphabet="0123456789", min_size=1, max_size=6)
PIECE = st.one_of(
    st.text(alphabet=HANGUL, min_size=1, max_size=4),
    st.text(alphabet=ASCII_LETTERS, min_size=1, max_size=4),
    DIGITS,
    PARSER_TOKENS,
    WHITESPACE,
    st.text(max_size=3),  # any unicode at all
)
KOREAN_MIX = st.lists(PIECE, max_size=60).map("".join)
ANY_TEXT = st.one_of(st.text(max_size=300), KOREAN_MIX)

# Reference dates: the whole range a request's `now` may carry, and a realistic one.
ANY_DAY = st.dates()
RECENT_DAY = st.dates(min_value=date(2000, 1, 1), max_value=date(2098, 12, 31))

# Surrounding words for embedding a value: Korean and ASCII words without digits (digits
# would legitimately make other dates or numbers), joined by single spaces.
WORD = st.text(
    alphabet=st.one_of(HANGUL, ASCII_LETTERS, st.sampled_from("!?'\"#&*_=;")), max_size=6
)
WORDS = st.lists(WORD, max_size=5).map(lambda ws: " ".join(w for w in ws if w))


def embed(left: str, value: str, right: str) -> tuple[str, int]:
    """`left value right` with single spaces; the value's offset."""
    prefix = f"{left} " if left else ""
    return prefix + value + (f" {right}" if right else ""), len(prefix)


# ---------------------------------------------------------------------------- helpers

TIME_24H = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")
STAGE_TYPES = {"DOCUMENT", "CODING_TEST", "INTERVIEW", "OTHER"}
PII_TYPES = {"email", "rrn", "phone", "birth_date", "address", "name", "url"}
WEEKDAY_CHARS = "월화수목금토일"


def resolve_yearless(month: int, day: int, ref: date) -> date | None:
    """The documented rule, written independently: the first of (ref's year, the next
    year) where the date exists and is not more than 60 days before `ref`."""
    for year in (ref.year, ref.year + 1):
        try:
            candidate = date(year, month, day)
        except ValueError:
            continue
        if (candidate - ref).days >= -60:
            return candidate
    return None


def assert_resolved_yearless(value: date, ref: date) -> None:
    assert value.year in (ref.year, ref.year + 1)
    assert (value - ref).days >= -60
    earlier = resolve_yearless(value.month, value.day, ref)
    assert earlier == value  # the nearest one: no earlier candidate qualified


# ---------------------------------------------------------------------------- dates


@PROPS
@given(text=ANY_TEXT, ref=ANY_DAY)
# A request's `now` may be any date: the first and last days of the calendar included.
@example("면접 3/15", date.min)
@example("3월 15일", date.max)
def test_find_dates_returns_real_dates_at_their_place_in_the_text(text: str, ref: date) -> None:
    found = find_dates(text, ref)
    previous_end = 0
    for f in found:
        assert isinstance(f.value, date)
        assert 0 <= f.start < f.end <= len(text)
        assert f.start >= previous_end  # in text order, never overlapping
        previous_end = f.end
        if f.had_year:
            assert 2000 <= f.value.year <= 2099 and str(f.value.year) in text[f.start : f.end]
        else:
            assert_resolved_yearless(f.value, ref)


def _written_date(d: date, form: str, weekday: str) -> str:
    return {
        "dots": f"{d.year}.{d.month:02d}.{d.day:02d}",
        "dashes": f"{d.year}-{d.month:02d}-{d.day:02d}",
        "slashes": f"{d.year}/{d.month}/{d.day}",
        "korean": f"{d.year}년 {d.month}월 {d.day}일",
        "korean_tight": f"{d.year}년{d.month}월{d.day}일",
        "md_korean": f"{d.month}월 {d.day}일",
        "md_slash": f"{d.month}/{d.day}",
        "md_slash_weekday": f"{d.month}/{d.day}({weekday})",
        "md_dot_weekday": f"{d.month}.{d.day}({weekday})",
        "md_dot_weekday_spaced": f"{d.month}.{d.day} ( {weekday} )",
    }[form]


DATE_FORMS = st.sampled_from(
    [
        "dots",
        "dashes",
        "slashes",
        "korean",
        "korean_tight",
        "md_korean",
        "md_slash",
        "md_slash_weekday",
        "md_dot_weekday",
        "md_dot_weekday_spaced",
    ]
)


@PROPS
@given(
    written=st.dates(min_value=date(2000, 1, 1), max_value=date(2099, 12, 31)),
    form=DATE_FORMS,
    weekday=st.sampled_from(WEEKDAY_CHARS),
    left=WORDS,
    right=WORDS,
    ref=RECENT_DAY,
)
# Feb 29 written without a year, read in the year before a leap year: the next Feb 29.
@example(date(2028, 2, 29), "md_korean", "화", "마감", "", date(2027, 12, 1))
@example(date(2028, 2, 29), "md_slash", "화", "", "까지", date(2027, 3, 1))
def test_a_written_date_is_found_in_any_surrounding_text(
    written: date, form: str, weekday: str, left: str, right: str, ref: date
) -> None:
    value = _written_date(written, form, weekday)
    text, at = embed(left, value, right)
    found = [f for f in find_dates(text, ref) if f.start == at]
    if form.startswith("md_"):
        expected = resolve_yearless(written.month, written.day, ref)
        assert [f.value for f in found] == ([expected] if expected else [])
        if found:
            assert not found[0].had_year
    else:
        assert [(f.value, f.had_year) for f in found] == [(written, True)]


@PROPS
@given(text=ANY_TEXT, now=ANY_DAY)
@example("내일 오후 3시", date.max)
@example("다음 달 말", date.max)
@example("지난주 월요일", date.min)
@example("3/15 14:00", date.min)
def test_find_when_returns_a_date_a_24h_time_and_spans_inside_the_text(
    text: str, now: date
) -> None:
    when = find_when(text, now)
    assert when.date is None or isinstance(when.date, date)
    assert when.time is None or TIME_24H.match(when.time)
    for start, end in when.spans:
        assert 0 <= start <= end <= len(text)


# Words ending with a part-of-day word would legitimately change the hour ("밤 3시").
NOT_PART_OF_DAY = WORDS.filter(lambda s: not s.endswith(("전", "후", "침", "녁", "밤", "낮")))
# ... and a word after it that starts with a meridiem ("1:00 PM") legitimately makes it p.m.
NOT_HALF = WORDS.filter(
    lambda s: not s.startswith("반") and not re.match(r"[AaPp]\.?[Mm](?![A-Za-z])", s)
)


@PROPS
@given(
    hour=st.integers(0, 23),
    minute=st.integers(0, 59),
    form=st.sampled_from(["colon", "korean", "korean_minutes", "meridiem", "half"]),
    left=NOT_PART_OF_DAY,
    right=NOT_HALF,
    now=RECENT_DAY,
)
def test_a_written_time_is_read_as_24h_in_any_surrounding_text(
    hour: int, minute: int, form: str, left: str, right: str, now: date
) -> None:
    if form == "colon":
        value, expected = f"{hour}:{minute:02d}", f"{hour:02d}:{minute:02d}"
    elif form == "korean":
        value, expected = f"{hour}시", f"{hour:02d}:00"
    elif form == "korean_minutes":
        value, expected = f"{hour}시 {minute}분", f"{hour:02d}:{minute:02d}"
    elif form == "half":
        value, expected = f"{hour}시 반", f"{hour:02d}:30"
    else:
        part, twelve = ("오후", hour % 12 or 12) if hour >= 12 else ("오전", hour or 12)
        value, expected = f"{part} {twelve}시", f"{hour:02d}:00"  # 오전 12시 is midnight
    text, _ = embed(left, value, right)
    assert find_when(text, now).time == expected


@PROPS
@given(text=ANY_TEXT, now=ANY_DAY)
@example("지난주", date.min)
@example("다음 달", date.max)
@example("다음 주", date.max)
def test_week_range_is_a_whole_week_or_a_whole_month(text: str, now: date) -> None:
    span = week_range(text, now)
    if span is None:
        return
    start, end = span
    if (end - start).days == 6 and start.weekday() == 0:
        return  # Monday..Sunday
    assert start.day == 1 and start.month == end.month and start.year == end.year
    assert (end + timedelta(days=1)).day == 1


# ---------------------------------------------------------------------------- calendar

# A posting-like text: lines of mixed pieces, stage words and dates.
POSTING_LINE = st.lists(
    st.one_of(PIECE, PARSER_TOKENS, st.just(" "), DIGITS), min_size=1, max_size=14
).map("".join)
POSTING = st.lists(POSTING_LINE, max_size=8).map("\n".join)


def _dates_written_in(text: str, now: date) -> set[date]:
    return {f.value for line in text.splitlines() for f in find_dates(line.strip(), now)}


def assert_valid_stages(stages: list[Stage], text: str, now: date) -> None:
    written = _dates_written_in(text, now)
    squashed = re.sub(r"\s+", "", text)
    seen = set()
    for s in stages:
        assert s.stage_type in STAGE_TYPES
        assert s.stage and s.stage == " ".join(s.stage.split())  # trimmed, single spaces
        assert s.stage.replace(" ", "") in squashed or s.stage == "상시 채용"
        assert (s.stage_type, s.stage) not in seen
        seen.add((s.stage_type, s.stage))
        if s.date is not None:
            assert s.date in written  # a date the text wrote, never an invented one
        if s.time is not None:
            assert s.date is not None  # a time only with its date
            assert TIME_24H.match(s.time) or s.time == "24:00"  # 24:00: the end of that day
        Schedule.model_validate(s.as_dict())  # the contract's schedule item
    assert sum(s.stage_type == "DOCUMENT" for s in stages) <= 1  # one application period


@PROPS
@given(text=st.one_of(ANY_TEXT, POSTING), now=ANY_DAY)
@example("1차 면접 3/15 14:00", date.min)
def test_find_stages_returns_contract_schedules_for_any_text(text: str, now: date) -> None:
    assert_valid_stages(find_stages(text, now), text, now)


STAGE_WORDS = st.sampled_from(
    [
        ("DOCUMENT", "서류 마감"),
        ("DOCUMENT", "접수기간"),
        ("CODING_TEST", "코딩테스트"),
        ("CODING_TEST", "사전 과제"),
        ("INTERVIEW", "1차 면접"),
        ("INTERVIEW", "최종 면접"),
        ("OTHER", "인적성검사"),
        ("OTHER", "합격자 발표"),
    ]
)
CLOCKS = st.one_of(
    st.tuples(st.integers(0, 23), st.integers(0, 59)).map(lambda hm: f"{hm[0]:02d}:{hm[1]:02d}"),
    st.just("24:00"),
)
IMPOSSIBLE_CLOCKS = st.one_of(
    st.tuples(st.just(24), st.integers(1, 59)),
    st.tuples(st.integers(25, 99), st.integers(0, 59)),
    st.tuples(st.integers(0, 23), st.integers(60, 99)),
).map(lambda hm: f"{hm[0]:02d}:{hm[1]:02d}")


@PROPS
@given(
    stage=STAGE_WORDS,
    written=st.dates(min_value=date(2000, 1, 1), max_value=date(2099, 12, 31)),
    clock=CLOCKS,
    left=WORDS,
    right=WORDS,
    now=RECENT_DAY,
)
def test_a_dated_stage_line_keeps_its_type_date_and_time(
    stage: tuple[str, str], written: date, clock: str, left: str, right: str, now: date
) -> None:
    stage_type, word = stage
    line, _ = embed(left, f"{word}: {written:%Y.%m.%d} {clock}", right)
    got = [s for s in find_stages(line, now) if s.stage_type == stage_type]
    assert [(s.date, s.time) for s in got][:1] == [(written, clock)]


@PROPS
@example(stage=("DOCUMENT", "서류 마감"), clock="24:30")
@given(stage=STAGE_WORDS, clock=IMPOSSIBLE_CLOCKS)
def test_an_impossible_clock_gives_no_time_rather_than_a_wrong_one(
    stage: tuple[str, str], clock: str
) -> None:
    stage_type, word = stage
    [got] = [s for s in find_stages(f"{word} 2026.03.20 {clock}", date(2026, 3, 1))]
    assert (got.stage_type, got.date, got.time) == (stage_type, date(2026, 3, 20), None)


@pytest.fixture(scope="module", autouse=True)
def _warm() -> None:
    """Load what the first call would (the skill taxonomy), outside the deadline."""
    extract_schedule({"text": "[카카오] 백엔드 개발자\n서류 마감 3/15", "now": date(2026, 3, 1)})


@PROPS
@given(text=st.one_of(ANY_TEXT, POSTING).filter(str.strip), now=ANY_DAY)
@example("[카카오] 백엔드 개발자\n서류 마감 3/15 18:00", date.min)
def test_calendar_extraction_of_any_text_returns_contract_schedules(text: str, now: date) -> None:
    command = extract_schedule({"text": text, "now": now})
    assert command.goto in ("__end__", "ask_model")
    update = command.update
    for item in update["schedules"]:
        schedule = Schedule.model_validate(item)
        assert schedule.stage_type in STAGE_TYPES
    assert all(tag.startswith("#") and " " not in tag for tag in update["hashtags"])


# ---------------------------------------------------------------------------- sections

HEADING_LINES = st.sampled_from(
    [
        "■ 자격요건",
        "[우대사항]",
        "## 담당 업무",
        "담당업무:",
        "1. 경력사항",
        "자격요건: Java 3년 이상",
        "【기술 스택】",
        "프로젝트",
        "Skills",
        "전형 절차 : 서류 > 면접",
        "혜택",
        "About",
    ]
)
DOCUMENT_TEXT = st.one_of(
    ANY_TEXT,
    st.lists(st.one_of(HEADING_LINES, POSTING_LINE, st.just("")), max_size=12).map("\n".join),
)
KEYWORDS = {w for table in (RESUME_HEADINGS, POSTING_HEADINGS) for ws in table.values() for w in ws}


def _squash(line: str) -> str:
    return re.sub(r"\s", "", line).lower()


@PROPS
@given(
    text=DOCUMENT_TEXT,
    kind=st.sampled_from(["resume", "posting"]),
    max_chars=st.integers(1, 2000),
)
def test_sections_are_named_bounded_and_drawn_from_the_text(
    text: str, kind: str, max_chars: int
) -> None:
    table = RESUME_HEADINGS if kind == "resume" else POSTING_HEADINGS
    sections = split_sections(text, kind, max_chars=max_chars)
    names = [s.name for s in sections]
    assert len(names) == len(set(names))  # a repeated heading is merged
    assert set(names) <= set(table) | {"개요"}
    for s in sections:
        assert s.document == kind
        assert 0 < len(s.text) <= max_chars and not s.text[0].isspace()
        for line in s.text.splitlines():
            assert line in text
    out = Counter(c for s in sections for c in s.text if not c.isspace())
    assert not out - Counter(c for c in text if not c.isspace())  # nothing invented


@PROPS
@given(text=DOCUMENT_TEXT, kind=st.sampled_from(["resume", "posting"]))
def test_uncapped_sections_lose_nothing_but_heading_labels(text: str, kind: str) -> None:
    sections = split_sections(text, kind, max_chars=len(text) + 1)
    kept = [line for s in sections for line in s.text.splitlines()]
    for s in sections:
        assert s.text == s.text.strip()
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line in kept:
            continue
        # Only a heading line is dropped: short, naming a section...
        assert len(line) <= 80 and any(k in _squash(line) for k in KEYWORDS), line
        # ...and content after its label is kept ("자격요건: Java 3년 이상" -> "Java 3년 이상").
        label = re.match(r"^(.{1,40}?)\s*[:：]\s*(.*)$", line)
        if label and label.group(2).strip():
            assert any(line.endswith(k) for k in kept), line


# ---------------------------------------------------------------------------- PII


def assert_valid_matches(matches: list, text: str) -> None:
    previous_end = 0
    for m in matches:
        assert m.type in PII_TYPES
        assert 0 <= m.start < m.end <= len(text)
        assert text[m.start : m.end] == m.text  # the span is exactly the value
        assert m.start >= previous_end  # sorted, never overlapping
        previous_end = m.end
        assert 0 < m.confidence <= 1


@PROPS
@given(text=ANY_TEXT, bare=st.booleans())
# Values whose pattern ends in optional spaces: the span is the value, not its spaces.
@example("주소: 서울 강남구 역삼동 ", False)
@example("생년월일: 1995.03.14 이후", False)
@example("포트폴리오: a.io   ", False)
def test_pii_spans_lie_in_the_text_and_are_the_matched_text(text: str, bare: bool) -> None:
    assert_valid_matches(find_pii(text, allow_bare_name=bare), text)


@PROPS
@given(text=ANY_TEXT, bare=st.booleans())
def test_tolerant_pii_spans_lie_in_the_text(text: str, bare: bool) -> None:
    for m in find_pii_tolerant(text, allow_bare_name=bare):
        assert m.type in PII_TYPES
        assert 0 <= m.start < m.end <= len(text)
        # The value with split syllables rejoined: the same characters, fewer spaces.
        assert text[m.start : m.end].replace(" ", "") == m.text.replace(" ", "")


def _digits(n: int) -> st.SearchStrategy[str]:
    return st.text(alphabet="0123456789", min_size=n, max_size=n)


@st.composite
def phones(draw: st.DrawFn) -> str:
    sep = draw(st.sampled_from(["-", " ", ".", ""]))
    kind = draw(st.sampled_from(["mobile", "mobile_intl", "seoul", "area", "area_intl"]))
    if kind == "mobile":
        head = "01" + draw(st.sampled_from("016789"))
        return sep.join([head, draw(_digits(draw(st.sampled_from([3, 4])))), draw(_digits(4))])
    if kind == "mobile_intl":
        lead = draw(st.sampled_from(["+82 ", "+82-", "+82"]))
        mid = draw(_digits(4))
        return f"{lead}1{draw(st.sampled_from('016789'))}{sep}{mid}{sep}{draw(_digits(4))}"
    sep = sep or "-"  # a landline's area code is always separated
    area = "2" if kind == "seoul" else draw(st.sampled_from(["31", "32", "41", "51", "62"]))
    lead = "0" if kind != "area_intl" else draw(st.sampled_from(["+82 ", "+82-", "+82"]))
    middle = draw(_digits(draw(st.sampled_from([3, 4]))))
    return f"{lead}{area}{sep}{middle}{sep}{draw(_digits(4))}"


@st.composite
def emails(draw: st.DrawFn) -> str:
    alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    local = draw(st.text(alphabet=alnum, min_size=1, max_size=8))
    local += draw(st.text(alphabet=alnum + "._%+-", max_size=8))
    labels = draw(
        st.lists(st.text(alphabet=alnum + "-", min_size=1, max_size=8), min_size=1, max_size=3)
    )
    tld = draw(st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=2, max_size=5))
    return f"{local}@{'.'.join(labels)}.{tld}"


@st.composite
def rrns(draw: st.DrawFn) -> str:
    born = draw(st.dates(min_value=date(1900, 1, 1), max_value=date(2099, 12, 31)))
    front = f"{born:%y%m%d}"
    gender = draw(st.sampled_from("12345678"))
    if draw(st.booleans()):
        return f"{front}-{gender}******"
    rest = draw(_digits(5))
    body = front + gender + rest
    weights = [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5]
    check = (11 - sum(int(d) * w for d, w in zip(body, weights, strict=True)) % 11) % 10
    if draw(st.booleans()):  # since Oct 2020 the last digit is no checksum
        check = draw(st.integers(0, 9))
    return f"{front}-{gender}{rest}{check}"


PII_VALUES = st.one_of(
    st.tuples(st.just("phone"), phones()),
    st.tuples(st.just("email"), emails()),
    st.tuples(st.just("rrn"), rrns()),
)


@PROPS
@given(value=PII_VALUES, left=WORDS, right=WORDS)
def test_a_phone_email_or_rrn_in_any_words_is_found_exactly(
    value: tuple[str, str], left: str, right: str
) -> None:
    kind, written = value
    text, at = embed(left, written, right)
    matches = find_pii(text)
    assert_valid_matches(matches, text)
    assert any((m.type, m.start, m.text) == (kind, at, written) for m in matches), matches
    if kind == "rrn":
        [m] = [m for m in matches if m.type == "rrn"]
        digits = written.replace("-", "")
        expected = 0.99 if "*" not in digits and rrn_checksum_ok(digits) else 0.8
        assert m.confidence == expected


ANY_WORDS = st.lists(st.text(min_size=1, max_size=6).filter(lambda w: not w.isspace()), max_size=5)


@PROPS
@given(value=PII_VALUES, left=ANY_WORDS, right=ANY_WORDS)
def test_a_phone_email_or_rrn_between_arbitrary_words_is_masked(
    value: tuple[str, str], left: list[str], right: list[str]
) -> None:
    """With arbitrary neighbours (digits, labels, other PII) a value may be claimed by a
    more confident neighbouring detector, but its characters are always covered."""
    _, written = value
    text, at = embed(" ".join(left), written, " ".join(right))
    matches = find_pii(text)
    assert_valid_matches(matches, text)
    covered = {i for m in matches for i in range(m.start, m.end)}
    assert all(i in covered for i in range(at, at + len(written)) if not text[i].isspace())


# ---------------------------------------------------------------------------- pathological

# One unit repeated to 50-70k characters (a request may carry 100k) between short non-blank
# text (lines are stripped: a bare run of spaces would test nothing). A regex that rescans a
# run from each position inside it is quadratic: seconds here, past the deadline; linear
# matching takes milliseconds. Every unit is run (parametrized); no shrinking: a failure is
# reported as drawn (its unit and length) rather than minimised for minutes.
RUN_UNITS = [
    "1",
    " ",
    "\t",
    "\u3000",
    "-",
    ".",
    "/",
    ":",
    ",",
    "→",
    "a",
    "가",
    "1 ",
    "a.",
    "a-",
    ".-a",
    "3/",
    "12:",
    "010-",
    "2026.",
    "월 ",
    "오후 ",
    "면접 ",
    "가 ",
    "url ",
    "생일 ",
    "이름 ",
    "서울 강남구 로 ",
    "a@",
    "■ ",
]
LINE_BREAK_UNITS = ["\n", "\r\n", "\n\n경력\n", "면접\n", " \n"]
RUN_ENDS = st.one_of(
    st.sampled_from(["a", "1", "면접", "서류 마감", "url a", "생일 1", "이름", "2026.03.15", "@"]),
    st.text(
        alphabet=st.one_of(HANGUL, ASCII_LETTERS, st.sampled_from("0123456789:./-")),
        min_size=1,
        max_size=8,
    ),
)
RUN_LENGTH = st.integers(min_value=50_000, max_value=70_000)
PATHOLOGICAL = settings(PROPS, max_examples=4, phases=[Phase.explicit, Phase.reuse, Phase.generate])


def run_of(unit: str, length: int, head: str, tail: str) -> str:
    return head + unit * (length // len(unit)) + tail


@PATHOLOGICAL
@pytest.mark.parametrize("unit", RUN_UNITS + LINE_BREAK_UNITS)
@given(length=RUN_LENGTH, head=RUN_ENDS, tail=RUN_ENDS, now=RECENT_DAY)
def test_date_parsers_stay_linear_on_long_runs(
    unit: str, length: int, head: str, tail: str, now: date
) -> None:
    text = run_of(unit, length, head, tail)
    for f in find_dates(text, now):
        assert 0 <= f.start < f.end <= len(text)
    when = find_when(text, now)
    assert when.time is None or TIME_24H.match(when.time)
    week_range(text, now)


@PATHOLOGICAL
@pytest.mark.parametrize("unit", RUN_UNITS + LINE_BREAK_UNITS)
@given(length=RUN_LENGTH, head=RUN_ENDS, tail=RUN_ENDS, now=RECENT_DAY)
def test_stage_parsing_stays_linear_on_long_runs(
    unit: str, length: int, head: str, tail: str, now: date
) -> None:
    text = run_of(unit, length, head, tail)
    for s in find_stages(text, now):
        assert s.stage_type in STAGE_TYPES
        assert s.time is None or TIME_24H.match(s.time) or s.time == "24:00"


@PATHOLOGICAL
@pytest.mark.parametrize("unit", RUN_UNITS + LINE_BREAK_UNITS)
@given(length=RUN_LENGTH, head=RUN_ENDS, tail=RUN_ENDS)
def test_section_splitting_stays_linear_on_long_runs(
    unit: str, length: int, head: str, tail: str
) -> None:
    text = run_of(unit, length, head, tail)
    for kind in ("resume", "posting"):
        for s in split_sections(text, kind):
            assert s.text and len(s.text) <= 1500


@PATHOLOGICAL
@pytest.mark.parametrize("unit", RUN_UNITS)  # the detectors read one OCR line at a time
@given(length=RUN_LENGTH, head=RUN_ENDS, tail=RUN_ENDS, bare=st.booleans())
def test_pii_detectors_stay_linear_on_long_runs(
    unit: str, length: int, head: str, tail: str, bare: bool
) -> None:
    text = run_of(unit, length, head, tail)
    assert_valid_matches(find_pii(text, allow_bare_name=bare), text)
    for m in find_pii_tolerant(text, allow_bare_name=bare):
        assert 0 <= m.start < m.end <= len(text)
