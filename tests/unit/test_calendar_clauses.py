"""The calendar parser's parts, one phrasing family at a time (evals/datasets/calendar_spec.md):
the clause splitter, the date/range/time reader, the stage classifier, the assembly of
stages, and the company/position finder. Every input here is written for the test, not
copied from an eval set."""

from __future__ import annotations

import time
from datetime import date

import pytest

from text.clauses import split_clauses
from text.dates import find_dates
from text.header import clean_company, find_header
from text.stages import find_mentions, find_stages
from text.when import find_times, read_when

NOW = date(2026, 4, 1)


def got(text: str, now: date = NOW) -> list[tuple[str, str | None, str | None]]:
    """(stage type, ISO date, time) of every stage found, in order."""
    return [
        (s.stage_type, s.date.isoformat() if s.date else None, s.time)
        for s in find_stages(text, now)
    ]


def dates_in(text: str, now: date = NOW) -> list[str]:
    return [f.value.isoformat() for f in find_dates(text, now)]


# ---------------------------------------------------------------------------- clauses


def test_a_line_is_cut_at_separators_but_not_inside_brackets_dates_or_times():
    line = "서류 ~4/10 / 코테 4/18 | 면접 4/25 → 입사 5/4, 필기(NCS·전공) 17:00. 끝"
    spans = [(d.start, d.end) for d in read_when(line, NOW).dates]
    spans += [(t.start, t.end) for t in find_times(line)]
    clauses = [line[s:e].strip() for s, e in split_clauses(line, spans)]
    assert clauses == [
        "서류 ~4/10",
        "코테 4/18",
        "면접 4/25",
        "입사 5/4",
        "필기(NCS·전공) 17:00",
        "끝",
    ]


# ---------------------------------------------------------------------------- dates


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2026.05.20", ["2026-05-20"]),
        ("2026/9/7", ["2026-09-07"]),
        ("26.08.14", ["2026-08-14"]),  # a two-digit year that is the year it resolves to
        ("면접 06.09", ["2026-06-09"]),  # zero-padded month.day
        ("마감: 5.7 ~ 5.21", ["2026-05-07", "2026-05-21"]),  # month.day framed as a date
        ("5.12(화)", ["2026-05-12"]),
        ("4/30/2026", ["2026-04-30"]),  # US order in English text
        ("30/04/2026", ["2026-04-30"]),  # day first when the first number is no month
        ("6월 2일 화요일", ["2026-06-02"]),
    ],
)
def test_numeric_and_korean_dates(text, expected):
    assert dates_in(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("June 12, 2026", ["2026-06-12"]),
        ("12 June 2026", ["2026-06-12"]),
        ("Thu, Jun 11", ["2026-06-11"]),
        ("Jun 11 (Thu)", ["2026-06-11"]),
        ("May 2nd", ["2026-05-02"]),
        ("Wednesday 10 June", ["2026-06-10"]),
        ("Sept. 3", ["2026-09-03"]),
        ("the week of May 18", ["2026-05-18"]),  # a week named by its day is that day
        ("what do i have on dec 10?", ["2026-12-10"]),  # lower case, as typed in chat
        ("moved to oct 2nd", ["2026-10-02"]),
        ("you may 15 minutes early", []),  # "may" in lower case is the modal
    ],
)
def test_english_month_names(text, expected):
    assert dates_in(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Java 1.8, Spring Boot 3.2, Python 3.11, Node 20.11",
        "macOS 10.15 이상",
        "경력 3.5년, 평점 4.5 (필수), 주 4.5일제",
        "GPA: 3.5 이상",
        "3/4분기 실적",
        "May we ask 5 questions",  # a month word in a sentence, lower-cased or not a date
        "mid-June, early May, 5월 초, 4월 중, 8월 말, 5월 첫째 주",
        "2011년 설립, 2023.05 런칭",
    ],
)
def test_numbers_that_are_not_dates(text):
    assert dates_in(text) == []


def test_a_range_keeps_both_ends_and_a_day_only_end_takes_the_month():
    assert dates_in("5월 4일(월)~15일(금)") == ["2026-05-04", "2026-05-15"]
    assert dates_in("from May 4 to 15") == ["2026-05-04", "2026-05-15"]
    assert dates_in("Jun 1–12") == ["2026-06-01", "2026-06-12"]
    when = read_when("접수: 5.4(월) 09:00 ~ 5.15(금) 18:00", NOW)
    start, end = when.dates
    assert start.until is end and end.is_range_end
    assert (start.time, end.time) == ("09:00", "18:00")  # each end its own time
    between = read_when("between June 1 and June 12", NOW).dates
    assert between[0].until is between[1]
    both = read_when("Interviews June 3 and June 10", NOW).dates
    assert both[0].until is None  # two dates, not a range


@pytest.mark.parametrize(
    "text",
    [
        # the date written with its closing dot, as Korean forms and job sites print it
        "접수기간: 2026.05.04.(월) ~ 2026.05.15.(금)",
        "면접전형: 5. 4.(월) ~ 5. 15.(금)",
        "면접 | 5.4.(월) ~ 5.15.(금)",
        "2026. 5. 4. ~ 2026. 5. 15.",
    ],
)
def test_a_range_between_dates_written_with_their_closing_dot(text):
    start, end = read_when(text, NOW).dates
    assert (str(start.value), str(end.value)) == ("2026-05-04", "2026-05-15")
    assert start.until is end and end.is_range_end


@pytest.mark.parametrize(
    ("text", "ends"),
    [
        ("Panel interviews on 14–15 May 2026", ("2026-05-14", "2026-05-15")),
        ("Assessment centre: 3 to 7 June", ("2026-06-03", "2026-06-07")),
        ("Interviews 21-23 April, Seoul office", ("2026-04-21", "2026-04-23")),
    ],
)
def test_a_day_first_english_range_keeps_its_first_day(text, ends):
    start, end = read_when(text, NOW).dates
    assert (str(start.value), str(end.value)) == ends and start.until is end


def test_a_number_before_a_day_first_date_that_is_no_day_stays_out():
    assert dates_in("Release 2.1-15 May") == []
    assert dates_in("Call 010-1234-15 May") == []
    assert dates_in("Call 010-1234 15 May") == ["2026-05-15"]


def test_a_sentence_ending_after_a_date_is_no_range():
    # the dot closing a sentence, then a list dash: two steps, not one range
    first, second = read_when("서류 마감 5.4. - 면접 5.15.", NOW).dates
    assert first.until is None and second.since is None
    assert (first.value.isoformat(), second.value.isoformat()) == ("2026-05-04", "2026-05-15")


def test_a_year_less_date_after_now_crosses_into_next_year():
    assert dates_in("1/8", date(2026, 12, 10)) == ["2027-01-08"]
    assert dates_in("12.21(월) ~ 1.4(월)", date(2026, 12, 10)) == ["2026-12-21", "2027-01-04"]
    assert dates_in("Jan 5", date(2026, 12, 10)) == ["2027-01-05"]


# ---------------------------------------------------------------------------- times


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("19:30", "19:30"),
        ("15시", "15:00"),
        ("16시 45분", "16:45"),
        ("오후 4시 반", "16:30"),
        ("오전 9시 30분", "09:30"),
        ("정오", "12:00"),
        ("밤 10시", "22:00"),
        ("저녁 8시", "20:00"),
        ("PM 4:00", "16:00"),
        ("AM 11:15", "11:15"),
        ("5 PM", "17:00"),
        ("8:45 PM", "20:45"),
        ("4:15 p.m.", "16:15"),
        ("noon", "12:00"),
        ("9:00 AM KST", "09:00"),
        ("11:59 PM", "23:59"),
        ("12 AM", "00:00"),
        ("마감 24:00", "24:00"),
    ],
)
def test_times_in_the_forms_postings_use(text, expected):
    assert [t.value for t in find_times(text)][:1] == [expected]


@pytest.mark.parametrize("text", ["3시간 동안", "90분", "24:30", "시즌 2", "25:00"])
def test_durations_and_impossible_clocks_are_no_times(text):
    assert find_times(text) == []


def test_a_time_belongs_to_its_date_and_a_slot_to_its_start():
    assert got("코딩테스트: 4/18 오후 1시~3시") == [("CODING_TEST", "2026-04-18", "13:00")]
    assert got("Applications close at noon on May 8.") == [("DOCUMENT", "2026-05-08", "12:00")]
    # "7/15 PM 3:00": the meridiem before the clock, not "15 PM"
    assert got("면접: 7/15 PM 3:00") == [("INTERVIEW", "2026-07-15", "15:00")]


# ---------------------------------------------------------------------------- stage words


@pytest.mark.parametrize(
    ("text", "stage_type"),
    [
        ("코딩테스트", "CODING_TEST"),
        ("코테", "CODING_TEST"),
        ("알고리즘 테스트", "CODING_TEST"),
        ("SW역량테스트", "CODING_TEST"),
        ("코딩 Pre-Test", "CODING_TEST"),
        ("Live coding test", "CODING_TEST"),
        ("Take-home coding assignment", "CODING_TEST"),
        ("사전 과제", "CODING_TEST"),
        ("필기(코딩) 테스트", "CODING_TEST"),
        ("필기 전형(코딩테스트)", "CODING_TEST"),  # a parenthesis refines the step
        ("실기 테스트(Python 구현)", "CODING_TEST"),
        ("디자인 과제", "OTHER"),
        ("과제 전형(PM 케이스 스터디)", "OTHER"),
        ("Take-home design exercise", "OTHER"),
        ("Art test", "OTHER"),
        ("필기시험(전공)", "OTHER"),
        ("NCS 필기", "OTHER"),
        ("Written exam", "OTHER"),
        ("인적성검사", "OTHER"),
        ("인성검사", "OTHER"),
        ("GSAT(직무적성검사)", "OTHER"),
        ("SKCT", "OTHER"),
        ("HMAT", "OTHER"),
        ("LG Way Fit Test", "OTHER"),
        ("Online aptitude test", "OTHER"),
        ("처우 협의", "OTHER"),
        ("레퍼런스 체크", "OTHER"),
        ("채용 건강검진", "OTHER"),
        ("입사 예정일", "OTHER"),
        ("임용", "OTHER"),
        ("Offer", "OTHER"),
        ("Onboarding", "OTHER"),
        ("Start date", "OTHER"),
        ("2차 임원 면접", "INTERVIEW"),
        ("1차 면접(PT 면접)", "INTERVIEW"),
        ("컬처핏 인터뷰", "INTERVIEW"),
        ("Recruiter phone screen", "INTERVIEW"),
        ("Panel interview", "INTERVIEW"),
        ("Final round", "INTERVIEW"),
        ("Onsite", "INTERVIEW"),
        ("서류 마감", "DOCUMENT"),
        ("지원서 접수", "DOCUMENT"),
        ("Application deadline", "DOCUMENT"),
        ("Apply by", "DOCUMENT"),
        ("Applications close", "DOCUMENT"),
        ("Closing date", "DOCUMENT"),
        ("Resume deadline", "DOCUMENT"),
    ],
)
def test_stage_words_are_typed_per_the_spec(text, stage_type):
    assert got(f"{text}: 5/20") == [(stage_type, "2026-05-20", None)]


def test_words_that_are_not_a_stage_here():
    assert find_mentions("서류 합격자에 한해 개별 안내") == []
    assert [m.name for m in find_mentions("면접 대상자 선정을 위해 서류 접수는 마감")] == [
        "서류 접수",
        "마감",
    ]
    assert find_mentions("신입사원 공개 채용, 연구 과제 수행 경험") == []


# ---------------------------------------------------------------------------- stages


def test_each_date_goes_to_the_stage_of_its_own_clause():
    one_line = "서류 ~4/10 / 코테 4/18 / 면접 4/25 / 입사 5/11"
    assert got(one_line) == [
        ("DOCUMENT", "2026-04-10", None),
        ("CODING_TEST", "2026-04-18", None),
        ("INTERVIEW", "2026-04-25", None),
        ("OTHER", "2026-05-11", None),
    ]
    flow = "전형: 서류(~4/10) → 과제(4/17) → 1차 면접(4/24) → 최종 면접(5/1) → 처우협의"
    assert got(flow) == [
        ("DOCUMENT", "2026-04-10", None),
        ("CODING_TEST", "2026-04-17", None),
        ("INTERVIEW", "2026-04-24", None),
        ("INTERVIEW", "2026-05-01", None),
        ("OTHER", None, None),
    ]


def test_a_date_in_a_parenthesis_naming_a_step_of_its_own_is_that_steps():
    # the application's deadline stays its own; the announcement in the parenthesis of the
    # document step takes the date written beside it
    text = (
        "- 원서 접수: 4월 6일(월) ~ 4월 17일(금) 18:00\n"
        "- 전형 순서: 서류심사(4월 22일 합격자 발표) → 필기(5월 2일) → 면접"
    )
    assert got(text) == [
        ("DOCUMENT", "2026-04-17", "18:00"),
        ("OTHER", "2026-04-22", None),
        ("OTHER", "2026-05-02", None),
        ("INTERVIEW", None, None),
    ]
    # a date in a parenthesis of its own step's is still that step's
    assert got("서류 전형(~4/10) → 면접(4월 셋째 주)")[0] == ("DOCUMENT", "2026-04-10", None)


def test_a_mail_gives_the_step_its_date_and_time_on_lines_of_their_own():
    text = (
        "Your second interview has been scheduled as follows.\n\n"
        "Date: Thursday, April 16, 2026\n"
        "Time: 10 AM (please arrive 10 minutes early)\n"
        "Please complete the online aptitude assessment by Tuesday, April 14.\n"
        "On-boarding: May 4 (Mon)"
    )
    assert got(text) == [
        ("INTERVIEW", "2026-04-16", "10:00"),
        ("OTHER", "2026-04-14", None),
        ("OTHER", "2026-05-04", None),
    ]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("- 시연 강의 : 4월 20일(월) 중 개별 지정", ("OTHER", "2026-04-20", None)),
        ("▷ 첫 출근일: 2026.05.04(월)", ("OTHER", "2026-05-04", None)),
        ("* 실무역량평가는 4/25(토) 예정", ("OTHER", "2026-04-25", None)),
        ("신입 연수 | 5/11(월) ~ 5/22(금)", ("OTHER", "2026-05-11", None)),
        ("파이썬 코딩 시험: 4/18(토) 14:00", ("CODING_TEST", "2026-04-18", "14:00")),
        ("Info session: April 9, 7 PM", ("OTHER", "2026-04-09", "19:00")),
        ("Closes in 5 days", ("DOCUMENT", "2026-04-06", None)),
    ],
)
def test_a_dated_label_naming_a_step_is_a_step(line: str, expected: tuple) -> None:
    assert got(line) == [expected]


@pytest.mark.parametrize(
    "line",
    [
        "등록일: 2026.04.01",
        "근무기간: 2026.05.01 ~ 2026.10.31",
        "수정일 | 4/2(목)",
        "급여일: 매월 10일",
    ],
)
def test_a_dated_label_that_is_no_step_stays_out(line: str) -> None:
    assert got(line) == []


def test_each_clause_of_a_line_resolves_its_own_relative_day():
    # NOW is Wednesday 2026-04-01
    text = "이력서는 이번 주 금요일까지 보내 주시고, 다음 주 수요일 오후 2시에 면접 보시면 됩니다"
    assert got(text) == [("DOCUMENT", "2026-04-03", None), ("INTERVIEW", "2026-04-08", "14:00")]


def test_eligibility_to_join_is_no_joining_step():
    assert got("지원자격: 2027년 1월 입사 가능자\n서류 마감 4/10") == [
        ("DOCUMENT", "2026-04-10", None)
    ]
    # those who joined before a day are employees, not a step
    assert got("■ 대상 : 2026년 3월 1일 이전 입사자 전원") == []


def test_a_date_before_its_stage_in_korean_order():
    text = "합격자는 4월 20일 기술 면접, 4월 27일 임원 면접을 봅니다."
    assert got(text) == [("INTERVIEW", "2026-04-20", None), ("INTERVIEW", "2026-04-27", None)]
    mixed = "Resume는 4/12까지 받고, 4/19에 coding test, 4/26에 onsite interview를 봅니다."
    assert got(mixed) == [
        ("DOCUMENT", "2026-04-12", None),
        ("CODING_TEST", "2026-04-19", None),
        ("INTERVIEW", "2026-04-26", None),
    ]


def test_english_prose_sentences():
    text = (
        "Applications are open from April 6 to 17. A coding challenge follows on April 22, "
        "and interviews are held on April 28 and May 5. Offers go out the week of May 11."
    )
    assert got(text) == [
        ("DOCUMENT", "2026-04-17", None),
        ("CODING_TEST", "2026-04-22", None),
        ("INTERVIEW", "2026-04-28", None),
        ("INTERVIEW", "2026-05-05", None),  # one stage word, two dates: two interviews
        ("OTHER", "2026-05-11", None),
    ]


def test_a_deadline_sentence_with_a_time_is_the_deadline_not_an_interview():
    text = "면접 대상자 선정을 위해 서류 접수는 4월 24일 17:00에 마감됩니다."
    assert got(text) == [("DOCUMENT", "2026-04-24", "17:00")]
    text = "지원은 4월 24일 오전 10시에 마감되며, 면접은 5월 중 진행합니다."
    assert got(text) == [("DOCUMENT", "2026-04-24", "10:00"), ("INTERVIEW", None, None)]
    separate = "접수 마감: 4월 24일\n마감 시각: 오후 6시"
    assert got(separate) == [("DOCUMENT", "2026-04-24", "18:00")]
    english = "Submit your resume by April 24, 11:59 PM."
    assert got(english) == [("DOCUMENT", "2026-04-24", "23:59")]


def test_ranges_give_a_deadline_its_end_and_an_assignment_its_due_date():
    text = (
        "원서 접수: 4.6(월) 10:00 ~ 4.17(금) 15:00\n"
        "과제 전형: 4/20 ~ 4/26\n"
        "1차 면접: 5월 4일 ~ 5월 8일"
    )
    assert got(text) == [
        ("DOCUMENT", "2026-04-17", "15:00"),
        ("CODING_TEST", "2026-04-26", None),  # an assignment: its due date
        ("INTERVIEW", "2026-05-04", None),  # a slot: its start
    ]
    assert got("모집 기간은 4월 6일부터 17일까지입니다.") == [("DOCUMENT", "2026-04-17", None)]


def test_unknown_dates_stay_null():
    text = (
        "서류 마감: 채용 시 마감\n코딩테스트: 추후 안내\n1차 면접: 5월 첫째 주\n"
        "2차 면접: 5월 중\nOffer: TBD\nOnboarding: mid-June"
    )
    assert got(text) == [
        ("DOCUMENT", None, None),
        ("CODING_TEST", None, None),
        ("INTERVIEW", None, None),
        ("INTERVIEW", None, None),
        ("OTHER", None, None),
        ("OTHER", None, None),
    ]


def test_the_day_a_message_is_sent_never_dates_a_step_and_a_sent_day_only_as_a_fallback():
    assert got("코딩테스트 안내 메일은 4월 13일에 보내드립니다.") == [("CODING_TEST", None, None)]
    assert got("사전 과제는 합격자에게 4/20(월) 발송") == [("CODING_TEST", "2026-04-20", None)]


def test_a_notice_date_is_not_the_stage_date():
    text = (
        "코딩테스트 안내 메일은 4월 13일에 보내드립니다. 코딩테스트는 4월 18일입니다.\n"
        "과제는 4월 20일 발송되며 4월 26일 오후 6시까지 제출합니다."
    )
    assert got(text) == [
        ("CODING_TEST", "2026-04-18", None),
        ("CODING_TEST", "2026-04-26", "18:00"),
    ]


def test_lookalike_numbers_do_not_become_stages_or_dates():
    text = (
        "[테스트랩] 백엔드 개발자\n- 2015년 설립, 직원 90명\n- Java 1.8, Spring Boot 3.2\n"
        "- 근무시간 09:00 ~ 18:00, 점심시간 12시~1시\n- 10월 9일 창립기념일 휴무\n"
        "- 문의: 02-555-1234\n- 서류 마감: 4/20\n- 면접: 4/27"
    )
    assert got(text) == [("DOCUMENT", "2026-04-20", None), ("INTERVIEW", "2026-04-27", None)]


def test_tables_and_headings():
    markdown = (
        "| 전형 | 일정 |\n|---|---|\n| 서류 접수 | 4.6 ~ 4.17 |\n| 코딩테스트 | 4.25 (토) 13:00 |"
    )
    assert got(markdown) == [
        ("DOCUMENT", "2026-04-17", None),
        ("CODING_TEST", "2026-04-25", "13:00"),
    ]
    aligned = (
        "단계        날짜        시간\n서류 마감   4월 17일    18:00\n면접        4월 28일    -"
    )
    assert got(aligned) == [("DOCUMENT", "2026-04-17", "18:00"), ("INTERVIEW", "2026-04-28", None)]
    headed = "◇ 서류 접수\n  - 기간: 4.6 ~ 4.17\n◇ 면접\n  - 1차: 4.27\n  - 2차: 5.4"
    assert got(headed) == [
        ("DOCUMENT", "2026-04-17", None),
        ("INTERVIEW", "2026-04-27", None),
        ("INTERVIEW", "2026-05-04", None),
    ]


def test_a_step_named_in_a_process_line_and_a_dated_line_is_one_stage():
    text = (
        "채용 절차: 서류 검토 → 사전 과제 → 기술 인터뷰 → 최종 인터뷰\n"
        "- 서류 마감: 4/10\n- 사전 과제 제출: 4/17\n- 기술 인터뷰: 4/24\n"
        "기술면접 후 최종 인터뷰 일정은 개별 안내합니다."
    )
    assert got(text) == [
        ("DOCUMENT", "2026-04-10", None),
        ("CODING_TEST", "2026-04-17", None),
        ("INTERVIEW", "2026-04-24", None),
        ("INTERVIEW", None, None),
    ]
    bilingual = "코딩테스트 / Coding Test: 4/18"
    assert got(bilingual) == [("CODING_TEST", "2026-04-18", None)]
    assert got("서류전형 - 과제전형 - 1차면접 - 2차면접") == [
        ("DOCUMENT", None, None),
        ("CODING_TEST", None, None),
        ("INTERVIEW", None, None),
        ("INTERVIEW", None, None),
    ]


def test_two_dated_steps_with_one_name_are_two_stages_with_distinct_names():
    text = "Programming test, online round: 5/9\nProgramming test, onsite round: 5/16"
    found = find_stages(text, NOW)
    assert [(s.stage_type, s.date.isoformat()) for s in found if s.date] == [
        ("CODING_TEST", "2026-05-09"),
        ("CODING_TEST", "2026-05-16"),
    ]
    assert len({s.stage for s in found}) == len(found)


# ---------------------------------------------------------------------------- company


@pytest.mark.parametrize(
    ("text", "company", "position"),
    [
        ("회사명: (주)바람소프트\n모집 분야: 안드로이드 개발자", "바람소프트", "안드로이드 개발자"),
        ("Company: Northwind Labs Inc.\nRole: Data Engineer", "Northwind Labs", "Data Engineer"),
        ("회사\t누리테크\n직무\t임베디드 개발자", "누리테크", "임베디드 개발자"),
        ("【별빛게임즈】 2026 상반기 신입 게임 기획자 공개채용", "별빛게임즈", "게임 기획자"),
        ("『해담』 백엔드 개발자 채용", "해담", "백엔드 개발자"),
        ("🔥 [(주)다온랩] 프론트엔드 개발자 (상시채용)", "다온랩", "프론트엔드 개발자"),
        ("[채용] 보안 엔지니어 — 시큐어웨이브", "시큐어웨이브", "보안 엔지니어"),
        ("채용 | 온누리페이 | 결제 서버 개발자 | 경력", "온누리페이", "결제 서버 개발자"),
        ("솔빛 | iOS 개발자", "솔빛", "iOS 개발자"),
        ("iOS 개발자 채용 — 솔빛", "솔빛", "iOS 개발자"),
        ("Brightlane – Senior Data Analyst", "Brightlane", "Senior Data Analyst"),
        ("핀테크 기업 ‘머니랩’이 데이터 분석가를 찾습니다.", "머니랩", "데이터 분석가"),
        ("스타트업 “하루”에서 Flutter 개발자를 모십니다.", "하루", "Flutter 개발자"),
        (
            "보안 전문 기업 가드원에서 보안 관제 엔지니어를 채용합니다.",
            "가드원",
            "보안 관제 엔지니어",
        ),
        (
            "Orbit Analytics Inc. is hiring a Staff Data Engineer.",
            "Orbit Analytics",
            "Staff Data Engineer",
        ),
        (
            "We're Lumen, a Series A health startup, and we're hiring a QA Engineer.",
            "Lumen",
            "QA Engineer",
        ),
        ("Lumen, a health startup, is hiring a QA Engineer.", "Lumen", "QA Engineer"),
        ("Applications for the ML Engineer role at Quanta are open.", "Quanta", "ML Engineer"),
        ("모집: 데이터 엔지니어 @ 하늘데이터", "하늘데이터", "데이터 엔지니어"),
        ("저희 Blue Harbor 팀은 DevOps 엔지니어를 찾고 있어요.", "Blue Harbor", "DevOps 엔지니어"),
        ("코딩테스트는 4/18입니다.\n감사합니다.\n- 나래소프트 채용팀 드림", "나래소프트", None),
        ("안녕하세요, 나래소프트 인사팀입니다.\n면접은 4/18입니다.", "나래소프트", None),
        (
            "서류 마감은 4/10입니다. 면접은 4/20입니다. [초록마을] 웹 퍼블리셔",
            "초록마을",
            "웹 퍼블리셔",
        ),
        ("SK플래닛 데이터 엔지니어 채용", "SK플래닛", "데이터 엔지니어"),
        ("[네이버] 백엔드 채용", "네이버", "백엔드"),  # what a bracketed title hires
        ("Our client, a fintech company, is hiring a Backend Engineer.", None, "Backend Engineer"),
    ],
)
def test_company_and_position_in_the_forms_postings_use(text, company, position):
    header = find_header(text)
    assert (header.company, header.position) == (company, position)


def test_a_headhunters_posting_names_no_company_and_says_so():
    header = find_header("Our client, a Series C fintech, is hiring a Platform Engineer.")
    assert header.company is None and header.company_absent
    assert not find_header("[나래소프트] 백엔드 개발자").company_absent


def test_legal_forms_quotes_and_team_words_are_not_the_name():
    for written in (
        "(주)한빛",
        "㈜한빛",
        "주식회사 한빛",
        "한빛 주식회사",
        "'한빛'",
        "한빛 채용팀",
    ):
        assert clean_company(written) == "한빛", written
    for written in ("Acme Inc.", "Acme, Inc.", "Acme Corp", "Acme Co., Ltd.", "Acme LLC"):
        assert clean_company(written) == "Acme", written


# ---------------------------------------------------------------------------- more forms


def test_a_step_sent_on_one_day_and_due_on_another_takes_its_due_date():
    assert got("Coding exercise: sent June 8, due June 12") == [("CODING_TEST", "2026-06-12", None)]
    text = "기획 과제 : 10월 21일(수) 발송 / 10월 26일(월) 제출 마감"
    assert got(text) == [("OTHER", "2026-10-26", None)]  # a planning assignment: not code


def test_a_choice_of_days_is_one_step_and_rounds_named_alone_are_steps():
    assert got("Technical interview: June 17 or June 18") == [("INTERVIEW", "2026-06-17", None)]
    text = "Interview rounds: 1st (Sep 10), 2nd (Sep 17), final (Sep 24)"
    assert got(text) == [
        ("INTERVIEW", "2026-09-10", None),
        ("INTERVIEW", "2026-09-17", None),
        ("INTERVIEW", "2026-09-24", None),
    ]


def test_a_clause_without_stage_words_does_not_add_a_date_to_a_dated_step():
    text = "최종 면접은 5월 8일 예정이며, 결과는 5월 15일에 안내드립니다."
    assert got(text) == [("INTERVIEW", "2026-05-08", None)]


def test_korean_connectives_end_a_clause():
    text = "지원은 4월 12일 자정까지이며 코테는 4월 18일, 면접은 4월 말입니다."
    assert got(text) == [
        ("DOCUMENT", "2026-04-12", None),
        ("CODING_TEST", "2026-04-18", None),
        ("INTERVIEW", None, None),
    ]


@pytest.mark.parametrize(
    ("text", "company", "position"),
    [
        ("[회사] 스텔라랩\n[직무] AI 리서처", "스텔라랩", "AI 리서처"),
        ("Role: Product Designer | Company: Mosaic Labs | Location: Seoul", "Mosaic Labs", None),
        ("1. 모집부문 - 백엔드 개발자\n2. 회사 - 한별소프트", "한별소프트", "백엔드 개발자"),
        ("Senior Backend Engineer at Northstar Robotics", "Northstar Robotics", None),
        ("Sky Mobility (Series C) is hiring an iOS Engineer!", "Sky Mobility", "iOS Engineer"),
        ("Join Tidal Wave Studio as a Unity Developer.", "Tidal Wave Studio", "Unity Developer"),
        (
            "<하나데이터 2026 하반기 경력 채용>\n직무: 데이터 엔지니어",
            "하나데이터",
            "데이터 엔지니어",
        ),
        ("【스타트업 미래로】 채용\n포지션 | 풀스택 개발자", "미래로", "풀스택 개발자"),
        (
            "서류 마감: 6/19\n면접: 6/24\nMeridian Cloud, Inc. — Platform Engineer",
            "Meridian Cloud",
            None,
        ),
        (
            "Thanks for applying to the Data Engineer position at Bluefin. We'd like…",
            "Bluefin",
            None,
        ),
    ],
)
def test_more_company_and_position_forms(text, company, position):
    header = find_header(text)
    assert header.company == company
    if position is not None:
        assert header.position == position


def test_a_section_heading_or_a_stage_in_brackets_is_no_company():
    assert find_header("함께할 분을 찾습니다\n서류 마감: 3/15\n[강점]\n- 좋은 팀").company is None
    assert find_header("[접수 기간] 3/2 ~ 3/13").company is None
    assert find_header("[자격요건] Java 3년 이상").company is None


def test_a_parenthesis_naming_another_kind_of_step_does_not_retype_the_step():
    text = "서류 접수(합격자 발표: 3/20)\n면접: 3/27"
    assert got(text, date(2026, 3, 1)) == [
        ("DOCUMENT", None, None),
        ("OTHER", "2026-03-20", None),
        ("INTERVIEW", "2026-03-27", None),
    ]
    assert got("◇ 과제 전형\n - 기간: 3/20 ~ 3/26", date(2026, 3, 1)) == [
        ("CODING_TEST", "2026-03-26", None)  # an assignment under its heading: the due date
    ]


def test_a_long_line_of_dated_stages_is_read_in_linear_time():
    """Every stage word and date on one 90k-character line: a check of each word against
    each date was quadratic (27 s). Read as a growth, not a wall-clock limit: ten times the
    line takes about ten times as long, where the quadratic reading took about a hundred
    times. Timed in this process's CPU time, which other processes on a loaded machine do not
    add to (wall-clock time failed it once beside an eval run: 66x)."""

    def seconds(repeats: int) -> float:
        line = "면접 5/15 " * repeats
        best = float("inf")
        for _ in range(3):
            started = time.process_time()
            find_stages(line, NOW)
            best = min(best, time.process_time() - started)
        return best

    small, large = seconds(600), seconds(6_000)
    assert large < 40 * small + 0.05, (small, large)
    found = find_stages("면접 5/15 " * 6_000, NOW)
    assert [(s.stage_type, s.date) for s in found] == [("INTERVIEW", date(2026, 5, 15))]


@pytest.mark.parametrize(
    ("text", "company", "position"),
    [
        (
            "Join us at Polaris Health! We're hiring a Senior Android Engineer.",
            "Polaris Health",
            None,
        ),
        ("Orbit is an AI infrastructure startup in Seoul.", "Orbit", None),
        (
            "Your coding test is on June 16.\nKind regards,\nTalent Acquisition, Hexa Systems",
            "Hexa Systems",
            None,
        ),
        ("Interviews on June 23.\nThanks,\nHexa Systems Recruiting Team", "Hexa Systems", None),
        (
            "안녕하세요, 스카이넷소프트 채용담당자입니다.\n"
            "지원해 주신 보안 엔지니어 포지션의 면접 안내",
            "스카이넷소프트",
            "보안 엔지니어",
        ),
    ],
)
def test_english_prose_and_email_signatures_name_the_company(text, company, position):
    header = find_header(text)
    assert header.company == company
    if position is not None:
        assert header.position == position


# ------------------------------------------------- dated lines under a step named above


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a generic date label under a numbered heading
        ("2. 2차 면접(임원)\n - 일자: 4월 14일(화)", [("INTERVIEW", "2026-04-14", None)]),
        ("■ 필기시험\n- 시험일: 4월 18일(토) 09:30", [("OTHER", "2026-04-18", "09:30")]),
        # a weekday and a duration beside the date do not hide the label
        (
            "코딩테스트를 아래와 같이 진행합니다.\n- 일시: 4월 11일(토) 오후 2시 (120분)",
            [("CODING_TEST", "2026-04-11", "14:00")],
        ),
        (
            "Your technical interview has been confirmed.\nWhen: Friday 4/17, 3:00 PM KST",
            [("INTERVIEW", "2026-04-17", "15:00")],
        ),
        (
            "화상 면접 안내드립니다.\n시간: 4월 9일 목요일 오전 11시 (약 1시간)",
            [("INTERVIEW", "2026-04-09", "11:00")],
        ),
    ],
)
def test_a_dated_line_with_a_generic_label_belongs_to_the_step_above(text, expected):
    assert got(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "면접 일정이 아래와 같이 변경되었습니다.\n"
        "변경 전: 4월 8일(수) 10:00\n변경 후: 4월 10일(금) 15:00",
        "코딩테스트 일정 변경 안내\n기존 일정: 4월 8일 10시\n변경된 일정: 4월 10일 15시",
        "Your interview has been rescheduled.\n"
        "Previous: April 8, 10:00 AM\nNew time: April 10, 3:00 PM",
    ],
)
def test_a_rescheduled_step_takes_its_new_slot_not_the_old_one(text):
    (stage,) = find_stages(text, NOW)
    assert (stage.date.isoformat(), stage.time) == ("2026-04-10", "15:00")


@pytest.mark.parametrize(
    ("line", "stage_type", "day"),
    [
        ("서류발표: 4/20(월)", "OTHER", "2026-04-20"),
        ("- 서류 합격 발표: 4. 20.(월)", "OTHER", "2026-04-20"),
        ("서류전형 결과발표 4월 20일", "OTHER", "2026-04-20"),
        ("근무 개시: 5월 4일(월)", "OTHER", "2026-05-04"),
        ("첫 출근일 5월 4일", "OTHER", "2026-05-04"),
    ],
)
def test_document_results_and_the_first_day_of_work_are_steps_of_their_own(line, stage_type, day):
    assert got(line) == [(stage_type, day, None)]


def test_a_period_of_work_is_no_step():
    assert got("근무기간: 2026. 5. 4. ~ 2026. 10. 31. (6개월)") == []


def _read(text: str, now: date) -> list[tuple[str, str | None, str | None]]:
    return [
        (s.stage_type, s.date.isoformat() if s.date else None, s.time)
        for s in find_stages(text, now)
    ]


def test_a_notice_of_one_step_owns_the_dated_line_below_it_not_the_mails_own_date() -> None:
    mail = (
        "날짜: 2026년 10월 19일 (월) 오전 10:12\n"
        "제목: [한빛저축은행] 리테일 영업 직무 1차 면접 안내\n\n"
        "이서준 님, 안녕하십니까.\n한빛저축은행 인사부입니다.\n\n"
        " - 일시: 10월 29일 목요일 09:30 (입실 마감 09:20)\n - 장소: 본점 12층\n"
    )
    # the room closing at 09:20 is no application deadline
    assert _read(mail, date(2026, 10, 19)) == [("INTERVIEW", "2026-10-29", "09:30")]


def test_the_same_day_is_the_day_the_line_before_named() -> None:
    text = (
        "🗓 Apply via the form below by 2/20 (Sat)\n"
        "🗓 실무 점검(플레이 + 리포트): 2/25 (Thu) 10 AM, 판교\n"
        "🗓 같은 날 오후 2시 인터뷰 진행\n"
    )
    read = _read(text, date(2027, 2, 10))
    assert ("DOCUMENT", "2027-02-20", None) in read  # "apply via … by": the deadline
    assert ("INTERVIEW", "2027-02-25", "14:00") in read  # not the 20th: the line before's day
    # "내일 모레" with a space is the day after tomorrow
    assert _read("내일 모레 금요일 오후 6시 반에 면접 가능하실까요?", date(2026, 8, 12)) == [
        ("INTERVIEW", "2026-08-14", "18:30")
    ]


def test_a_submission_deadline_under_an_assignment_heading_is_its_due_date() -> None:
    text = "■ 과제: 브리프를 참고해 개선안을 제안해주세요.\n■ 제출 기한: 5/18(월) 오후 11시 59분"
    assert _read(text, date(2026, 5, 13)) == [("CODING_TEST", "2026-05-18", "23:59")]


def test_a_notice_that_selects_for_an_interview_owns_its_date_line() -> None:
    text = (
        "[hy 인재채용]\n축하합니다! 유통영업 직무 2차 면접 대상자로 선정되셨습니다.\n\n"
        "▶ 일시: 6월 17일 수요일 오전 11시 30분\n▶ 장소: 서초구 본사\n"
    )
    assert _read(text, date(2026, 6, 10)) == [("INTERVIEW", "2026-06-17", "11:30")]
    # the announcement of who is selected is no interview
    assert _read("1차 면접 대상자 발표: 6월 20일", date(2026, 6, 10)) == []
