"""Session 43: what chat_xa_dev33/dev34 showed the room missed. A clock written in four
digits after a day ("12월 15일 1000"); a day of the month checked by its weekday ("8일
화욜"); a period up to the month's or the year's end ("월말까지", "연말 전에"); "X 말고 또
뭐" answered with the rest; text pasted in quotes, named by the user's own words; the
room's item in the half of the day said ("오전 거"); a listing of one kind ("면접 몇 개")
shown as that kind; "X로 ㄱ" as a change; "X도요~ <a remark>" as one more add; "없으면 …
넣어줘" right after a look at a day adds on that day. (Written in other words than the dev
rows.)"""

from __future__ import annotations

from datetime import date

import pytest

from nodes.chat.grounded import Passage, rag_answer, without_besides
from nodes.chat.router import keyword_route, operation_kind
from nodes.chat.schedule_requests import title_of
from tests.unit.test_chat import chat
from tests.unit.test_chat_focus import seed, titles
from text.dates import date_range, find_when

pytestmark = pytest.mark.usefixtures("fresh_schedules")

SUNDAY = date(2026, 11, 29)


def _calls(out: dict) -> list[tuple[str, dict]]:
    return [(c["name"], c["args"]) for c in out["tool_calls"]]


# --- a clock in four digits, a day with its weekday, a period to an end -------------------


@pytest.mark.parametrize(
    ("message", "day", "clock"),
    [
        ("1월 8일 0930 삼성전기 면접 잡아줘", "2027-01-08", "09:30"),
        ("12월 11일, 1330 신한은행 인터뷰", "2026-12-11", "13:30"),
        ("17일 목요일 1900 스터디 모임", "2026-12-17", "19:00"),
        ("모임 시각을 1845로 바꿔줘", None, "18:45"),
    ],
)
def test_a_clock_in_four_digits_where_it_can_be_nothing_else(message, day, clock) -> None:
    when = find_when(message, SUNDAY)
    assert (str(when.date) if when.date else None, when.time) == (day, clock)


@pytest.mark.parametrize(
    "message",
    [
        "12월 5일 2000명 뽑는 채용박람회",  # a count
        "12월 5일 1500원 환불",  # an amount
        "근무시간 0900-1800 회사 면접 12월 5일",  # a range of hours in a posting's words
        "2027년 1월 채용 일정",  # a year
        "사번 1234 로 로그인",  # no day before it
    ],
)
def test_four_digits_that_are_no_clock(message) -> None:
    assert find_when(message, SUNDAY).time is None


@pytest.mark.parametrize(
    ("message", "day"),
    [
        ("15일 화요일 오후 2시 토스 코테", "2026-12-15"),
        ("5일(토) 오전 9시 필기", "2026-12-05"),
        ("22일 금욜 면접", "2027-01-22"),  # December's 22nd is a Tuesday: January's is a Friday
    ],
)
def test_a_day_of_the_month_checked_by_its_weekday(message, day) -> None:
    assert str(find_when(message, SUNDAY).date) == day


@pytest.mark.parametrize(
    ("message", "period"),
    [
        ("월말까지 남은 거 뭐 있어", ("2026-11-29", "2026-11-30")),
        ("이번 달 말까지 잡힌 거 보여줘", ("2026-11-29", "2026-11-30")),
        ("연말 전까지 면접 몇 개야", ("2026-11-29", "2026-12-31")),
        ("올해 안에 있는 일정 전부", ("2026-11-29", "2026-12-31")),
    ],
)
def test_a_period_up_to_the_end_of_the_month_or_the_year(message, period) -> None:
    start, end = date_range(message, SUNDAY)
    assert (str(start), str(end)) == period


def test_a_period_already_begun_and_one_ahead() -> None:
    # (the month's last third, begun: from today; next month's end: that part of it)
    assert date_range("다음 달 말까지 일정", SUNDAY) == (SUNDAY, date(2026, 12, 31))
    assert date_range("12월 중순까지 뭐 있어", SUNDAY) == (SUNDAY, date(2026, 12, 20))


# --- "X 말고 또 뭐": the rest ---------------------------------------------------------------

POSTING = Passage(
    "line",
    "posting",
    "자격요건",
    "[자격요건]\n- Go 언어 실무 경험\n- Kubernetes, Docker 운영 경험\n- 영어 커뮤니케이션",
    0.9,
    "라인",
)
SKILLS = Passage(
    "resume", "resume", "기술 스택", "[기술 스택]\nPython, Django, PostgreSQL, AWS", 0.9, None
)


def test_the_rest_of_a_list_besides_the_thing_named() -> None:
    answer = rag_answer("라인 자격요건에 Go 말고 또 뭐가 있어?", [POSTING])
    assert "Kubernetes" in answer and "Go 언어" not in answer
    listed = rag_answer("이력서 기술 스택에 Python 말고 뭐 적었지", [SKILLS])
    assert listed.startswith("Django, PostgreSQL, AWS")


def test_a_line_with_more_than_the_thing_named_still_answers() -> None:
    answer = rag_answer("라인 자격요건에서 Docker 말고 또 뭐 써?", [POSTING])
    assert "Kubernetes" in answer  # the line names another tool beside it


def test_a_company_named_instead_is_not_searched_for() -> None:
    assert "카카오" not in without_besides("카카오 말고 네이버 우대사항은 뭐야?")
    # a skill named as not asked stays in the search: it finds the list it is in
    assert "Python" in without_besides("자격요건에 Python 말고 또 뭐 있어?")
    # a pointer is the earlier answer's, not a thing named here
    assert without_besides("그거 말고 다른 프로젝트는?") == "그거 말고 다른 프로젝트는?"


# --- text pasted in quotes, named by the user ----------------------------------------------


@pytest.mark.parametrize(
    ("message", "title"),
    [
        (
            "동생이 보낸 카톡이야 '누나 12월 9일 수요일 오후 1시 롯데칠성 면접 확정이래'\n"
            "이거 롯데칠성 면접으로 넣어줘",
            "롯데칠성 면접",
        ),
        (
            "학원 공지 복붙 “12/12(토) 오전 10시 모의고사 실시, 수험표 지참”\n모의고사 일정 넣어줘",
            "모의고사",
        ),
        (
            "링크드인에서 본 거 '쿠팡 물류센터 관리직 | ~12/20(일) 마감'\n"
            "일정에 넣어줘 쿠팡 서류마감으로",
            "쿠팡 서류마감",
        ),
        # no name given: the event the quote tells, not its first words
        ("엄마 문자 '12월 5일 오후 3시 치과 예약했다' 이거 일정에 넣어줘", "치과"),
    ],
)
def test_a_quoted_paste_is_named_by_the_users_own_words(message, title) -> None:
    assert title_of(message, list(find_when(message, SUNDAY).spans)) == title


async def test_a_quoted_paste_is_added_with_its_day_and_time(stand_in, client) -> None:
    await seed()
    out = await chat(
        client,
        "인사팀 메일 일부예요 「SK하이닉스 2차 면접은 12월 14일(월) 오후 2시 30분입니다」\n"
        "SK하이닉스 2차 면접으로 등록 부탁드려요",
    )
    assert _calls(out) == [
        (
            "add_schedule",
            {"title": "SK하이닉스 2차 면접", "date": "2026-12-14", "time": "14:30"},
        )
    ]


# --- the room's item in the half of the day said --------------------------------------------


async def test_the_morning_one_of_the_rooms_adds(stand_in, client) -> None:
    await seed()
    await chat(client, "12월 7일 오전 9시 건강검진 넣어줘")
    await chat(client, "같은 날 오후 3시에 포트폴리오 리뷰도 넣어줘")
    out = await chat(client, "오전 거 1시간 뒤로 미뤄줘")
    assert (await titles())["건강검진"]["time"] == "10:00"
    assert (await titles())["포트폴리오 리뷰"]["time"] == "15:00"
    assert [n for n, _ in _calls(out)] == ["update_schedule"]


async def test_a_half_of_another_day_is_no_item_of_the_room(stand_in, client) -> None:
    await seed()
    await chat(client, "12월 7일 오전 9시 건강검진 넣어줘")
    await chat(client, "같은 날 오후 3시에 포트폴리오 리뷰도 넣어줘")
    await chat(client, "수요일 오전 거 지워줘")  # Wednesday has no morning item
    assert {"건강검진", "포트폴리오 리뷰"} <= set(await titles())


# --- a listing of one kind, and its earlier or later one -------------------------------------


async def test_a_listing_of_one_kind_is_shown_and_counted(stand_in, client) -> None:
    await seed()
    out = await chat(client, "이번 달이랑 다음 달 면접 몇 개 잡혀 있지?")
    assert out["answer"].startswith("면접은 2개예요")
    assert "코딩 스터디" not in out["answer"]
    moved = await chat(client, "그중에 늦게 있는 거 30분 당겨줘")
    assert (await titles())["카카오 면접"]["time"] == "13:30"
    assert [n for n, _ in _calls(moved)] == ["update_schedule"]
    await chat(client, "빠른 거엔 메모로 '포트폴리오 출력' 남겨줘")
    assert (await titles())["네이버 1차 면접"].get("memo") == "포트폴리오 출력"


async def test_a_kind_said_for_its_day_is_no_listing_of_the_kind(stand_in, client) -> None:
    await seed()
    out = await chat(client, "카카오 면접 있는 주 일정 보여줘")
    assert "면접은" not in out["answer"] and "면접 일정이에요" not in out["answer"]


# --- "X로 ㄱ", "X도요~ …", "없으면 …" -------------------------------------------------------


def test_go_with_a_new_value_is_a_change() -> None:
    assert operation_kind("스터디 밤 9시로 ㄱ") == "update_schedule"
    assert operation_kind("카카오 면접 금요일로 ㄱㄱ") == "update_schedule"
    # a new event with its day is still an add
    assert operation_kind("토욜 오후 2시 헬스 ㄱㄱ") == "add_schedule"


async def test_one_more_add_said_with_do_and_a_remark(stand_in, client) -> None:
    await seed()
    await chat(client, "12월 8일 오전 11시 우리은행 필기 넣어줘")
    out = await chat(
        client, "12월 9일 오후 4시 하나은행 면접도요!! 은행권만 벌써 세 번째라 떨리네요"
    )
    assert _calls(out) == [
        ("add_schedule", {"title": "하나은행 면접", "date": "2026-12-09", "time": "16:00"})
    ]


def test_a_day_said_with_do_is_no_add() -> None:
    assert keyword_route("내일도 화이팅 ㅠ 면접 준비할 게 산더미") != "schedule"


async def test_if_none_after_a_look_adds_on_that_day(stand_in, client) -> None:
    await seed()
    await chat(client, "12월 18일에 뭐 있어?")
    out = await chat(client, "없으면 오전 11시에 치과 예약 넣어줘")
    assert _calls(out) == [
        ("add_schedule", {"title": "치과 예약", "date": "2026-12-18", "time": "11:00"})
    ]
