"""Properties of the one date-and-time resolver the chat, the calendar and the interview
share (text/dates.py), over any reference day."""

from __future__ import annotations

from datetime import date, timedelta
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from text.dates import date_range, find_when

DAYS = st.dates(min_value=date(2020, 1, 1), max_value=date(2035, 12, 31))
WEEKDAYS = "월화수목금토일"


@given(DAYS, st.integers(min_value=1, max_value=120))
def test_n_days_later_is_today_plus_n(now: date, n: int) -> None:
    assert find_when(f"{n}일 뒤에 과제 마감", now).date == now + timedelta(days=n)


@given(
    DAYS,
    st.integers(min_value=1, max_value=60),
    st.sampled_from(
        [
            "Applications close in {n} days",
            "Your assessment expires in {n} days.",
            "{n} days left to apply",
            "서류 마감 {n}일 남음",
            "마감까지 {n}일 남았어요",
        ]
    ),
)
def test_what_is_left_counts_from_today(now: date, n: int, form: str) -> None:
    found = find_when(form.format(n=n), now)
    assert found.date == now + timedelta(days=n) and found.from_today


@given(DAYS, st.integers(min_value=1, max_value=8))
def test_weeks_left_and_a_year_is_no_offset(now: date, n: int) -> None:
    assert find_when(f"Closes in {n} weeks", now).date == now + timedelta(days=7 * n)
    assert find_when("in a week", now).date == now + timedelta(days=7)
    assert find_when("In 2024 we grew to 80 people", now).date is None


@given(DAYS, st.integers(min_value=0, max_value=6), st.sampled_from(["다음 주", "다음주", "담주"]))
def test_next_weeks_weekday_is_that_weekday_of_next_week(now: date, wd: int, week: str) -> None:
    found = find_when(f"{week} {WEEKDAYS[wd]}요일 오후 3시 면접", now).date
    monday = now - timedelta(days=now.weekday()) + timedelta(days=7)
    assert found is not None and found.weekday() == wd
    assert monday <= found <= monday + timedelta(days=6)
    short = find_when(f"{week} {WEEKDAYS[wd]}욜", now).date
    assert short == found  # "월욜" is 월요일


@given(DAYS, st.integers(min_value=1, max_value=12), st.integers(min_value=1, max_value=28))
def test_a_yearless_date_is_its_next_occurrence(now: date, month: int, day: int) -> None:
    found = find_when(f"{month}월 {day}일에 면접 잡아줘", now).date
    assert found is not None and (found.month, found.day) == (month, day)
    assert now - timedelta(days=60) <= found <= now + timedelta(days=366)


@given(DAYS, st.integers(min_value=1, max_value=11))
def test_clock_words(now: date, hour: int) -> None:
    assert find_when(f"내일 오후 {hour}시", now).time == f"{hour + 12:02d}:00"
    assert find_when(f"내일 오전 {hour}시 반", now).time == f"{hour:02d}:30"
    assert find_when(f"내일 {hour}pm", now).time == f"{hour + 12:02d}:00"
    assert find_when("내일 정오에", now).time == "12:00"


@given(
    DAYS, st.sampled_from([("크리스마스", 12, 25), ("크리스마스 이브", 12, 24), ("한글날", 10, 9)])
)
def test_fixed_holidays(now: date, holiday: tuple[str, int, int]) -> None:
    name, month, day = holiday
    found = find_when(f"{name} 저녁 6시에 약속", now).date
    assert found is not None and (found.month, found.day) == (month, day)
    assert now - timedelta(days=60) <= found <= now + timedelta(days=366)


@given(DAYS)
def test_next_weeks_listing_is_monday_to_sunday(now: date) -> None:
    start, end = date_range("담주 스케줄 알려줘", now)
    assert start.weekday() == 0 and end is not None and (end - start).days == 6
    assert start == now - timedelta(days=now.weekday()) + timedelta(days=7)


@given(
    DAYS,
    st.integers(min_value=0, max_value=300),
    st.sampled_from(["{m}월 {d}일 {w}요일", "{m}/{d}({w})", "{m}월 {d}일, {w}욜", "{m}.{d} ({w})"]),
)
def test_a_weekday_after_a_date_checks_it_and_adds_no_day(now: date, ahead: int, form: str) -> None:
    from nodes.chat.schedule_requests import mentions

    day = now + timedelta(days=ahead)
    written = form.format(m=day.month, d=day.day, w=WEEKDAYS[day.weekday()])
    text = f"{written} 오후 3시 넥슨 서류 발표 추가해줘"
    found = find_when(text, now)
    assert found.date == day and found.date_span == (0, len(written))
    assert [(m.kind, m.value) for m in mentions(text, now)] == [
        ("date", day.isoformat()),
        ("time", "15:00"),
    ]


@given(DAYS, st.sampled_from(["담달", "담 달", "다음 달", "다음달"]))
def test_next_month_in_any_spelling_is_the_whole_next_month(now: date, word: str) -> None:
    first = (now.replace(day=1) + timedelta(days=32)).replace(day=1)
    last = (first + timedelta(days=32)).replace(day=1) - timedelta(days=1)
    assert date_range(f"{word} 일정 보여줘", now) == (first, last)


NATIVE = ["한", "두", "세", "네", "다섯", "여섯", "일곱", "여덟", "아홉", "열", "열한", "열두"]


@given(DAYS, st.integers(min_value=1, max_value=11), st.sampled_from(["", " "]))
def test_hours_in_native_numerals(now: date, hour: int, space: str) -> None:
    word = NATIVE[hour - 1]
    assert find_when(f"내일 오후 {word}{space}시에 면접", now).time == f"{hour + 12:02d}:00"
    assert find_when(f"내일 오전 {word}{space}시 반", now).time == f"{hour:02d}:30"
    # a duration and a word going on after 시 are no time
    assert find_when(f"{word} 시간 동안 회의", now).time is None
    assert find_when("한시적으로 운영", now).time is None


@given(
    DAYS,
    st.sampled_from(
        [("주말", 0), ("이번 주말", 0), ("다음 주말", 1), ("담주 주말", 1), ("다음 주 주말", 1),
         ("next weekend", 1), ("다다음주 주말", 2)]
    ),
)  # fmt: skip
def test_a_weekend_is_the_saturday_and_sunday_of_the_week_named_before_it(
    now: date, form: tuple[str, int]
) -> None:
    words, weeks = form
    start, end = date_range(f"{words}에 뭐 있어?", now)
    assert start == now - timedelta(days=now.weekday()) + timedelta(days=7 * weeks + 5)
    assert end == start + timedelta(days=1)


@given(DAYS, st.integers(min_value=0, max_value=5), st.integers(min_value=1, max_value=6))
def test_a_span_of_weekdays_keeps_both_ends(now: date, first: int, length: int) -> None:
    last = min(first + length, 6)
    text = f"{WEEKDAYS[first]}요일부터 {WEEKDAYS[last]}요일까지 뭐 있어"
    start, end = date_range(text, now)
    assert start == find_when(f"{WEEKDAYS[first]}요일", now).date
    assert end is not None and (end - start).days == last - first


@given(DAYS)
def test_nael_before_a_word_for_plans_is_tomorrow(now: date) -> None:
    assert date_range("낼 일정", now) == (now + timedelta(days=1), now + timedelta(days=1))
    assert find_when("지원서 낼 건데", now).date is None


@given(DAYS, st.integers(min_value=1, max_value=28))
def test_an_english_ordinal_day_is_its_next_occurrence(now: date, day: int) -> None:
    suffix = {1: "st", 2: "nd", 3: "rd", 21: "st", 22: "nd", 23: "rd"}.get(day, "th")
    found = find_when(f"move it to the {day}{suffix}", now).date
    assert found is not None and found.day == day and now <= found < now + timedelta(days=62)
    # an order, not a day
    assert find_when(f"the {day}{suffix} round is online", now).date is None


@pytest.mark.parametrize(
    ("text", "clock"),
    [
        ("a reminder at 9 in the morning", "09:00"),
        ("dinner at 7:30 in the evening", "19:30"),
        ("call at 10 at night", "22:00"),
        ("leave at 12 at night", "00:00"),
    ],
)
def test_an_english_part_of_the_day_sets_the_hour(text, clock):
    from text.when import find_times

    assert find_when(text, date(2026, 11, 29)).time == clock
    assert [t.value for t in find_times(text)] == [clock]


@pytest.mark.parametrize(
    "text", ["Friday, December 18 at 3 PM", "금요일, 12월 18일 오후 3시", "on Fri 12/18 3pm"]
)
def test_a_weekday_beside_its_date_names_that_date(text):
    from nodes.chat.schedule_requests import mentions

    days = {m.value for m in mentions(text, date(2026, 11, 29)) if m.kind == "date"}
    assert days == {"2026-12-18"}


# A week or a weekday counted inside a month (session 37): "다음 달 마지막 금요일" was read as
# this week's Friday, "다음 달 첫째 주" as the whole month.
ORDINALS = ["첫째", "둘째", "셋째", "넷째"]
MONTHS_AHEAD = {"이번 달": 0, "다음 달": 1, "담달": 1, "다다음 달": 2}


def _month_of(now: date, ahead: int) -> tuple[date, date]:
    first = date(now.year + (now.month - 1 + ahead) // 12, (now.month - 1 + ahead) % 12 + 1, 1)
    after = date(first.year + first.month // 12, first.month % 12 + 1, 1)
    return first, after - timedelta(days=1)


@given(
    DAYS,
    st.sampled_from(sorted(MONTHS_AHEAD)),
    st.integers(min_value=1, max_value=4),
    st.integers(min_value=0, max_value=6),
    st.booleans(),
)
def test_the_nth_weekday_of_a_month(now: date, said: str, n: int, wd: int, week: bool) -> None:
    # "다음 달 둘째 주 화요일" and "다음 달 둘째 화요일": the month's second Tuesday
    first, last = _month_of(now, MONTHS_AHEAD[said])
    ordinal = ORDINALS[n - 1] + (" 주" if week else "")
    found = find_when(f"{said} {ordinal} {WEEKDAYS[wd]}요일 오후 2시 면접", now)
    assert found.date is not None and first <= found.date <= last
    assert found.date.weekday() == wd and (found.date.day - 1) // 7 == n - 1
    assert found.time == "14:00"


@given(DAYS, st.sampled_from(sorted(MONTHS_AHEAD)), st.integers(min_value=0, max_value=6))
def test_the_last_weekday_of_a_month(now: date, said: str, wd: int) -> None:
    first, last = _month_of(now, MONTHS_AHEAD[said])
    for form in (f"{said} 마지막 {WEEKDAYS[wd]}요일", f"{said} 마지막 주 {WEEKDAYS[wd]}요일"):
        day = find_when(form, now).date
        assert day is not None and first <= day <= last and day.weekday() == wd
        assert day + timedelta(days=7) > last


@given(DAYS, st.sampled_from(sorted(MONTHS_AHEAD)))
def test_the_weeks_of_a_month_cover_it_once(now: date, said: str) -> None:
    # 첫째 주 .. the last: Monday-to-Sunday weeks (the first from the 1st, the last to the
    # month's end), one after another, each holding its Thursday inside the month
    first, last = _month_of(now, MONTHS_AHEAD[said])
    weeks = []
    for word in [*ORDINALS, "다섯째"]:
        start, end = date_range(f"{said} {word} 주 일정 보여줘", now)
        assert end is not None and first <= start <= end <= last
        if weeks and (start, end) == weeks[-1]:
            break  # a fifth week of a month with four Thursdays is its last
        weeks.append((start, end))
    assert weeks[0][0] == first and weeks[-1][1] == last
    assert date_range(f"{said} 마지막 주 일정", now) == weeks[-1]
    for (_, end), (start, _) in pairwise(weeks):
        assert start == end + timedelta(days=1) and start.weekday() == 0
    for start, end in weeks:
        thursday = start + timedelta(days=(3 - start.weekday()) % 7)
        assert thursday <= end or end == last


@given(DAYS, st.integers(min_value=1, max_value=12))
def test_beginning_middle_and_end_of_a_month(now: date, month: int) -> None:
    start, end = date_range(f"{month}월 초 일정", now)
    assert (start.month, start.day, end.day) == (month, 1, 10)
    start, end = date_range(f"{month}월 중순에 뭐 있어", now)
    assert (start.month, start.day, end.day) == (month, 11, 20)
    start, end = date_range(f"{month}월 말쯤 일정", now)
    assert end is not None and (start.day, end.month) == (21, month)
    assert (end + timedelta(days=1)).day == 1


@given(DAYS, st.integers(min_value=0, max_value=6))
def test_until_a_day_lists_from_today(now: date, wd: int) -> None:
    day = find_when(f"{WEEKDAYS[wd]}요일", now).date
    assert date_range(f"{WEEKDAYS[wd]}요일까지 일정 보여줘", now) == (now, day)
    english = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
    assert date_range(f"what's on until {english[wd]}", now) == (now, day)


def test_a_week_of_a_month_is_not_a_weekday_of_this_week() -> None:
    now = date(2026, 12, 6)  # a Sunday; January 2027 starts on a Friday
    assert find_when("다음 달 마지막 금요일 면접", now).date == date(2027, 1, 29)
    assert find_when("1월 둘째 월요일", now).date == date(2027, 1, 11)
    assert find_when("the last Friday of next month", now).date == date(2027, 1, 29)
    assert date_range("다음 달 첫째 주 일정", now) == (date(2027, 1, 1), date(2027, 1, 10))
    assert date_range("first week of January", now) == (date(2027, 1, 1), date(2027, 1, 10))
    assert date_range("담달 2주차 일정", now) == (date(2027, 1, 11), date(2027, 1, 17))
    # not an ordinal of the month's weeks or days
    assert find_when("다음 달 첫 면접 준비", now).date is None
    assert date_range("이번달 말고 담달 일정 뭐있어", now) == (date(2027, 1, 1), date(2027, 1, 31))


# Days counted from a day said, weeks holding a day, spans with 사이, runs of day words.
SHIFTS = {
    "전날": -1,
    "다음날": 1,
    "다음 날": 1,
    "하루 전": -1,
    "이틀 전": -2,
    "사흘 뒤": 3,
    "5일 후": 5,
}


@given(
    DAYS,
    st.integers(min_value=1, max_value=12),
    st.integers(min_value=1, max_value=28),
    st.sampled_from(sorted(SHIFTS)),
)
def test_a_day_counted_from_a_day_said(now: date, month: int, day: int, shift: str) -> None:
    said = find_when(f"{month}월 {day}일 면접", now).date
    found = find_when(f"{month}월 {day}일 {shift} 오전 10시 스터디", now)
    assert said is not None and found.date == said + timedelta(days=SHIFTS[shift])
    assert found.time == "10:00"


@given(DAYS, st.sampled_from(sorted(SHIFTS)))
def test_a_day_counted_from_a_holiday(now: date, shift: str) -> None:
    christmas = find_when("크리스마스", now).date
    assert christmas is not None and (christmas.month, christmas.day) == (12, 25)
    assert find_when(f"크리스마스 {shift} 약속", now).date == christmas + timedelta(
        days=SHIFTS[shift]
    )


@given(DAYS, st.integers(min_value=1, max_value=12), st.integers(min_value=1, max_value=28))
def test_the_week_holding_a_day(now: date, month: int, day: int) -> None:
    said = find_when(f"{month}월 {day}일", now).date
    assert said is not None
    for form in (f"{month}월 {day}일 있는 주 일정", f"{month}월 {day}일 낀 주에 뭐 있어"):
        start, end = date_range(form, now)
        assert start.weekday() == 0 and end == start + timedelta(days=6)
        assert start <= said <= end


@given(DAYS, st.integers(min_value=1, max_value=12), st.integers(min_value=1, max_value=14))
def test_two_days_with_sai_are_a_span(now: date, month: int, day: int) -> None:
    start = find_when(f"{month}월 {day}일", now).date
    assert start is not None
    assert date_range(f"{month}월 {day}일에서 {day + 10}일 사이에 뭐 있음?", now) == (
        start,
        start + timedelta(days=10),
    )


@given(DAYS)
def test_day_words_one_after_another(now: date) -> None:
    assert date_range("오늘 내일 모레 일정", now) == (now, now + timedelta(days=2))
    assert date_range("오늘, 내일 뭐 있어", now) == (now, now + timedelta(days=1))
    # "내일 모레" alone is the day after tomorrow
    assert date_range("내일 모레 일정", now) == (now + timedelta(days=2),) * 2
    assert find_when("올해 마지막 날 저녁 6시 송년회", now).date == date(now.year, 12, 31)


def test_s37_review_guards_in_the_resolver() -> None:
    now = date(2026, 11, 29)
    # weeks and months after a day are counted from it, as days are
    assert find_when("오늘 2주 뒤", now).date == date(2026, 12, 13)
    assert find_when("오늘 한 달 뒤", now).date == date(2026, 12, 29)
    assert find_when("금요일 2주 뒤", now).date == date(2026, 12, 18)
    # a word that begins with 초 or 말 is no part of a month
    assert date_range("12월 초과근무 있는 날 알려줘", now) == (
        date(2026, 12, 1),
        date(2026, 12, 31),
    )
    assert date_range("12월 말레이시아 출장", now) == (date(2026, 12, 1), date(2026, 12, 31))
    # a numbered week's weekday is in that week; a period's ends are the periods'
    assert find_when("1월 2주차 금요일", now).date == date(2027, 1, 15)
    assert date_range("1월 2주차 일정", now) == (date(2027, 1, 11), date(2027, 1, 17))
    assert date_range("12월 초부터 1월 초까지 일정 보여줘", now) == (
        date(2026, 12, 1),
        date(2027, 1, 10),
    )
    # a day said beside a month's part is read
    assert find_when("카카오 면접 12월 중순이었는데 다음 주 금요일로", now).date == date(
        2026, 12, 4
    )
