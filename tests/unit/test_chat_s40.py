"""Session 40: an item described by its day and a half of the day it is not in is no item
of that day ("금요일 저녁 거" is not the 15:00 one); "그거 이력서에 넣어줘" right after a
posting's stage was told is written into a document, not put in the schedule."""

from __future__ import annotations

import pytest

from tests.unit.test_chat import chat
from tests.unit.test_chat_focus import _postings, seed, titles
from tests.unit.test_chat_s38_sets import SEEDED

pytestmark = pytest.mark.usefixtures("fresh_schedules")


async def _left() -> dict[str, tuple[str, str | None]]:
    return {t: (i["date"], i.get("time")) for t, i in (await titles()).items()}


@pytest.mark.parametrize(
    "message",
    [
        # the only item of that day is at 15:00 / 19:00 / 14:00: nothing of that half
        "금요일 밤에 있는 거 취소할게",
        "화욜 오전 일정 삭제 ㄱㄱ",
        "12월 10일 아침 거 빼줘",
        "delete my friday evening thing",
    ],
)
async def test_a_half_of_the_day_with_no_item_in_it_deletes_nothing(
    stand_in, client, message
) -> None:
    await seed()
    out = await chat(client, message)
    assert await _left() == SEEDED
    assert not out["tool_calls"]


@pytest.mark.parametrize(
    ("message", "gone"),
    [
        ("화요일 저녁에 있는 거 지워줘", "코딩 스터디"),
        ("12월 10일 오후 일정 취소해 주세요", "카카오 면접"),
    ],
)
async def test_the_half_the_item_is_in_still_picks_it(stand_in, client, message, gone) -> None:
    await seed()
    await chat(client, message)
    assert set(await _left()) == set(SEEDED) - {gone}


async def test_the_half_as_the_new_value_is_no_description(stand_in, client) -> None:
    """ "저녁으로" says where to move it, not which item: Friday's one is asked about."""
    await seed()
    out = await chat(client, "금요일 거 저녁으로 옮겨줘")
    assert out["route"] == "schedule"
    assert "네이버 1차 면접" in out["answer"]
    assert await _left() == SEEDED


@pytest.mark.parametrize("message", ["그거 이력서에 넣어줘", "그 날짜 자소서에다가 적어줘"])
async def test_a_stage_told_is_not_added_when_written_into_a_document(
    stand_in, client, message
) -> None:
    await _postings(client)
    await seed()
    await chat(client, "카카오 코테 언제야?")
    out = await chat(client, message)
    assert out["route"] != "schedule"
    assert await _left() == SEEDED


# --- chat_xa_dev30: pasted mail, looks after an add, "그 달" --------------------------------

_FORWARDED = """안녕하세요. 오늘 아침에 아래 메일을 받았어요. '한빛상사 2차 면접'으로 등록 부탁해요.

---------- Forwarded message ---------
From: 한빛상사 인사팀 <hr@hanbit.example>
Date: Fri, Nov 27, 2026 at 6:05 PM
Subject: [한빛상사] 2차 면접 안내

안녕하세요. 한빛상사 인사팀입니다.
2차 면접 일정을 알려 드립니다.
일시: 12월 11일(금) 오후 1시 30분
장소: 본사 5층

감사합니다."""

_NOTICE_THEN_NAME = """엄마가 문자 보내준 거 캘린더에 넣어줘

[동네치과] 안녕하세요~ 상담 예약이 12월 8일 화요일 오전 11시로 잡혔습니다. 늦지 않게 오세요^^

이름은 치과 상담이요"""


async def test_pasted_mail_is_one_add_on_the_events_day(stand_in, client) -> None:
    """The mail's sent date and the day it was received are no event; the user's own
    sentences ask for one add, named as they name it."""
    await seed()
    out = await chat(client, _FORWARDED)
    assert [c["name"] for c in out["tool_calls"]] == ["add_schedule"]
    assert (await _left())["한빛상사 2차 면접"] == ("2026-12-11", "13:30")
    assert len(await _left()) == len(SEEDED) + 1


async def test_a_name_after_the_pasted_text_names_it(stand_in, client) -> None:
    await seed()
    await chat(client, _NOTICE_THEN_NAME)
    assert (await _left())["치과 상담"] == ("2026-12-08", "11:00")


def test_the_users_words_and_the_block() -> None:
    from nodes.chat.router import pasted_block, split_operations

    words, block = pasted_block(_FORWARDED)
    assert "오늘" not in words and "한빛상사 2차 면접" in words
    # the header's date line is left out, the body's kept
    assert "Nov 27" not in block and "12월 11일" in block
    assert len(split_operations(_FORWARDED)) == 1
    # a notice with no request of the user's is no such message
    assert pasted_block("[한빛상사] 2차 면접 안내\n일시: 12월 11일 오후 1시") is None


@pytest.mark.parametrize(
    "look",
    [
        "그날 다른 거랑 겹치는지 확인 좀",
        "그 날 뭐 또 있는지 봐줘",
        "anything else on that day?",
        "what else is on that day",
    ],
)
async def test_a_look_right_after_an_add_adds_nothing(stand_in, client, look) -> None:
    await seed()
    await chat(client, "12월 17일 오후 4시 쿠팡 면접 등록")
    out = await chat(client, look)
    assert [c["name"] for c in out["tool_calls"]] == ["get_schedule"]
    assert out["tool_calls"][0]["args"]["start_date"] == "2026-12-17"
    assert len(await _left()) == len(SEEDED) + 1


async def test_that_month_is_the_month_of_the_rooms_day(stand_in, client) -> None:
    await seed()
    await chat(client, "1월 14일 오전 10시에 공사 면접 잡아줘")
    out = await chat(client, "그 달엔 또 뭐 있어")
    assert out["tool_calls"][0]["args"] == {"start_date": "2027-01-01", "end_date": "2027-01-31"}


def test_ttaeng_gyeo_is_dang_gyeo() -> None:
    from text.colloquial import standard_spelling

    assert standard_spelling("면접 1시간 땡겨줘") == "면접 1시간 당겨줘"
    assert standard_spelling("땡처리 땡땡이") == "땡처리 땡땡이"


# --- review (fresh helper, ~90 rooms against this code and 46defe1) ------------------------


@pytest.mark.parametrize(
    ("turns", "gone"),
    [
        # the half is the one that describes an item, the last one said
        (
            ["12월 4일 오전 9시 치과 넣어줘", "금요일 오전 거는 놔두고 오후 일정 취소해줘"],
            "네이버 1차 면접",
        ),
        # a half of the day that is not an item's description says nothing of one
        (["새벽에 깼는데 금요일 거 그냥 지워줘"], "네이버 1차 면접"),
        (["Cancel my Friday interview, I'm busy that morning"], "네이버 1차 면접"),
    ],
)
async def test_review_half_of_the_day_describing_an_item(stand_in, client, turns, gone) -> None:
    await seed()
    for message in turns:
        await chat(client, message)
    assert gone not in await _left()
    assert len(await _left()) == len(SEEDED) - 1 + (len(turns) - 1)


async def test_review_a_day_said_of_learning_it_is_no_value(stand_in, client) -> None:
    """ "오늘 밤에 알았는데 …": the day the user learned it; the move is a day from the item."""
    await seed()
    await chat(client, "오늘 밤에 알았는데 스터디 하루 뒤로 밀어줘")
    assert (await _left())["코딩 스터디"] == ("2026-12-02", "19:00")


_CHANGED = """아까 받은 문자인데 카카오 면접 시간이 바뀌었대요 수정 부탁해요

[카카오] 면접 일정 변경 안내
면접 일시가 12월 10일 오후 5시로 변경되었습니다."""

_REPLACED = """기존 네이버 면접은 지우고 아래 걸로 새로 넣어줘

[네이버] 2차 면접 안내
일시: 12월 16일 오전 10시"""


async def test_review_a_change_reads_the_pasted_notice(stand_in, client) -> None:
    await seed()
    await chat(client, _CHANGED)
    assert (await _left())["카카오 면접"] == ("2026-12-10", "17:00")


async def test_review_a_delete_naming_its_item_is_not_moved_by_the_notice(stand_in, client):
    await seed()
    await chat(client, _REPLACED)
    left = await _left()
    assert "네이버 1차 면접" not in left
    assert left["네이버 2차 면접"] == ("2026-12-16", "10:00")


@pytest.mark.parametrize(
    "message",
    [
        # a form the user filled is no mail header
        "이거 등록 부탁\n제목: 디자인 과제 발표\n날짜: 12월 9일 오후 3시",
        # a notice's closing line to the applicant asks the user nothing
        "이거 일정에 넣어줘\n\n[토스] 과제 발표 안내\n일시: 12월 9일 오후 3시\n\n"
        "일정 변경을 원하시면 12월 5일까지 회신 부탁드립니다.",
    ],
)
async def test_review_forms_and_notice_closings(stand_in, client, message) -> None:
    await seed()
    out = await chat(client, message)
    assert [c["name"] for c in out["tool_calls"]] == ["add_schedule"]
    args = out["tool_calls"][0]["args"]
    assert (args["date"], args["time"]) == ("2026-12-09", "15:00")
    assert len(await _left()) == len(SEEDED) + 1


async def test_review_both_lines_of_a_notice_after_the_request(stand_in, client) -> None:
    await seed()
    await chat(
        client,
        "두 개 다 캘린더에 넣어줘\n\n[현대오토에버] 전형 안내\n- 코딩테스트: 12월 13일 오전 10시\n"
        "- 1차 면접: 12월 20일 오후 2시",
    )
    left = await _left()
    assert len(left) == len(SEEDED) + 2
    assert {v for k, v in left.items() if k not in SEEDED} == {
        ("2026-12-13", "10:00"),
        ("2026-12-20", "14:00"),
    }


async def test_review_filler_words_are_no_title(stand_in, client) -> None:
    await seed()
    await chat(
        client, "엄마가 보내준 문자인데 넣어줘\n\n[한샘] 인테리어 상담 안내\n12월 9일 오후 5시 본점"
    )
    titles_now = set(await _left())
    assert not any(t.startswith(("엄마", "아래")) for t in titles_now)
    assert len(titles_now) == len(SEEDED) + 1


async def test_review_that_month_gives_an_add_no_day(stand_in, client) -> None:
    await seed()
    await chat(client, "1월 14일 오전 10시에 공사 면접 잡아줘")
    out = await chat(client, "그 달 말쯤 토스 면접도 넣어줘")
    assert not out["tool_calls"]
    assert len(await _left()) == len(SEEDED) + 1


async def test_review_an_event_before_a_look_is_still_added(stand_in, client) -> None:
    await seed()
    await chat(client, "12월 8일 오후 2시 토스 면접 넣어줘")
    await chat(client, "그 다음날 오전 11시엔 당근 면접도. 시간 겹치는지 봐줘")
    assert (await _left())["당근 면접"] == ("2026-12-09", "11:00")


# --- chat_xa_dev30, round two: replies with words around them, a notice the room keeps ----


@pytest.mark.parametrize(
    ("asked", "reply", "expected"),
    [
        # the value in one part of the reply, the rest says nothing asked of
        ("토익 시험 일정 추가해줘", "앗 깜빡했네요. 다음 주 토요일이에요.", ("2026-12-05", None)),
        (
            "스터디 시간 좀 바꾸고 싶어요",
            "밤 10시로요 알바 끝나고 가야 돼서",
            ("2026-12-01", "22:00"),
        ),
    ],
)
async def test_a_reply_with_words_around_its_value(stand_in, client, asked, reply, expected):
    await seed()
    await chat(client, asked)
    out = await chat(client, reply)
    assert out["tool_calls"], out["answer"]
    args = out["tool_calls"][0]["args"]
    assert (args.get("date", expected[0]), args.get("time")) == expected


async def test_a_reply_naming_a_day_without_a_space(stand_in, client) -> None:
    """ "10일거" picks the choice on the 10th (the date reader reads 거 after 일)."""
    await seed()
    await chat(client, "면접 하나 지워야 할 듯")
    await chat(client, "10일거요")
    assert "카카오 면접" not in await _left()
    assert "네이버 1차 면접" in await _left()


_EXAM = """이거 등록 좀 '공단 필기'

■ 2026년 하반기 공단 신입 채용 필기전형 안내
○ 시험일: 2026. 12. 20.(일) 10:00
○ 수험표 출력: 12. 14.(월) 09:00 ~
○ 준비물: 수험표, 신분증"""


async def test_a_line_of_the_notice_pasted_before(stand_in, client) -> None:
    await seed()
    await chat(client, _EXAM)
    assert (await _left())["공단 필기"] == ("2026-12-20", "10:00")
    await chat(client, "출력 시작하는 날에도 '수험표 뽑기' 넣어줘")
    assert (await _left())["수험표 뽑기"] == ("2026-12-14", "09:00")


def test_the_line_a_request_names_by_its_rarest_word() -> None:
    from datetime import date

    from nodes.chat.schedule_requests import notice_line

    lines = [
        "[토스] 과제 전형 안내",
        "과제 전형을 아래와 같이 진행합니다.",
        "- 과제 공개: 2026-12-02 (수) 10:00",
        "- 제출 마감: 2026-12-06 (일) 23:59",
    ]
    focus = {"notice": {"lines": lines}}
    now = date(2026, 11, 29)
    assert notice_line("마감 날도 넣어줘 과제 마감", focus, now) == ("2026-12-06", "23:59")
    assert notice_line("과제 공개일도", focus, now) == ("2026-12-02", "10:00")
    assert notice_line("스터디 넣어줘", focus, now) is None


async def test_a_slip_taken_back_right_after_an_add(stand_in, client) -> None:
    await seed()
    await chat(client, "담주 수욜 오후 1시에 29CM 면접 넣어줘")
    out = await chat(client, "앗 수요일 말고 목요일이요 착각했어요")
    assert out["route"] == "schedule"
    assert (await _left())["29CM 면접"] == ("2026-12-03", "13:00")


async def test_a_day_told_of_a_call_keeps_the_item_it_names(stand_in, client) -> None:
    """ "방금 네이버에서 연락 왔는데": the day words of that clause are none, its company is
    the item's."""
    await seed()
    await chat(client, "방금 네이버에서 연락 왔는데 같은 날 오전 11시로 옮겨달래요")
    assert (await _left())["네이버 1차 면접"] == ("2026-12-04", "11:00")


async def test_set_it_earlier_in_english(stand_in, client) -> None:
    await seed()
    await chat(client, "make the kakao interview 45 minutes earlier")
    assert (await _left())["카카오 면접"] == ("2026-12-10", "13:15")


# --- second review (fresh helper, ~90 rooms against this code and 46defe1) ----------------


@pytest.mark.parametrize(
    ("asked", "reply"),
    [
        # a day turned down or put off gives no value
        ("네이버 면접 옮겨야 돼요", "목요일은 안 될 것 같아요 다른 날 알아볼게요"),
        ("네이버 면접 옮겨야 돼요", "12월 9일은 어렵다네요, 다시 연락 준대요"),
        ("롯데 면접 일정 추가해줘", "다음 주 화요일은 안 돼요 그 주는 바빠서"),
    ],
)
async def test_second_review_a_day_turned_down_is_no_value(stand_in, client, asked, reply):
    await seed()
    await chat(client, asked)
    await chat(client, reply)
    assert await _left() == SEEDED


@pytest.mark.parametrize(
    "message",
    [
        "Add a note to the naver interview: I should get there 20 minutes earlier",
        "I'll make sure to arrive 15 min earlier for the kakao interview",
        "set my alarm 10 minutes earlier for the naver interview",
    ],
)
async def test_second_review_earlier_said_of_something_else_moves_nothing(
    stand_in, client, message
) -> None:
    await seed()
    await chat(client, message)
    left = await _left()
    assert {k: left[k] for k in SEEDED} == SEEDED


@pytest.mark.parametrize("question", ["4일 일정은?", "10일엔 뭐 있더라"])
async def test_second_review_a_question_after_which_one_picks_nothing(
    stand_in, client, question
) -> None:
    await seed()
    await chat(client, "면접 하나 취소해줘")
    await chat(client, question)
    assert await _left() == SEEDED


_CIVIL = """이거 넣어줘 '군무원 필기'

■ 2026년 군무원 채용 필기시험 안내
○ 원서접수: 12. 2.(수) ~ 12. 4.(금) 18:00
○ 시험일: 12. 19.(토) 10:00
○ 합격자 발표: 12. 30.(수) 15:00"""


@pytest.mark.parametrize(
    "own",
    ["시험 끝나고 친구랑 저녁 약속 추가해줘", "군무원 시험 준비 스터디 모임 추가해줘"],
)
async def test_second_review_an_event_of_ones_own_takes_no_notice_line(
    stand_in, client, own
) -> None:
    await seed()
    await chat(client, _CIVIL)
    out = await chat(client, own)
    assert not out["tool_calls"]  # its day is asked for
    assert len(await _left()) == len(SEEDED) + 1


async def test_second_review_a_slip_weekday_is_of_the_items_week(stand_in, client) -> None:
    await seed()
    await chat(client, "12월 10일에 우리은행 면접 넣어줘")
    await chat(client, "아 목요일 말고 금요일이에요 헷갈렸다")
    assert (await _left())["우리은행 면접"][0] == "2026-12-11"


@pytest.mark.parametrize(
    ("message", "day"),
    [
        # the day in a clause of learning that is the item's new one stays
        ("네이버 면접이 다음 주 목요일로 바뀐 거 방금 알았는데 옮겨줘", "2026-12-03"),
        ("카카오 면접이 12월 11일로 바뀌었다고 들었는데 바꿔줘", "2026-12-11"),
    ],
)
async def test_second_review_a_learned_day_that_is_the_value(stand_in, client, message, day):
    await seed()
    await chat(client, message)
    left = await _left()
    name = "네이버 1차 면접" if "네이버" in message else "카카오 면접"
    assert left[name][0] == day


async def test_second_review_a_request_after_the_notice_it_points_up_at(stand_in, client):
    await seed()
    await chat(
        client,
        "[쿠팡] 면접 안내\n안녕하세요, 물류 관리자 1차 면접 일정입니다.\n"
        "일시: 12월 9일(수) 오후 3시\n\n↑ 이거 쿠팡 1차 면접으로 넣어줘",
    )
    assert (await _left())["쿠팡 1차 면접"] == ("2026-12-09", "15:00")


# --- chat_xa_dev30, round three: memos said tersely or of what was just said -------------


async def test_a_terse_memo_on_the_item_pointed_at(stand_in, client) -> None:
    await seed()
    await chat(client, "모레 오전 9시 쿠팡 물류센터 면접 추가")
    await chat(client, "그거 메모 작업화 챙기기")
    assert (await titles())["쿠팡 물류센터 면접"].get("memo") == "작업화 챙기기"


async def test_a_memo_of_what_the_clause_before_said(stand_in, client) -> None:
    await seed()
    await chat(client, "12월 3일 오전 8시 건강검진 넣어줘")
    out = await chat(client, "검사 전날 밤 10시부터 물도 안 된다고 하니, 그 내용도 메모로 부탁해요")
    assert [c["name"] for c in out["tool_calls"]] == ["update_schedule"]
    memo = (await titles())["건강검진"].get("memo") or ""
    assert "물도 안 된다" in memo
    assert len(await _left()) == len(SEEDED) + 1


async def test_that_whole_week_in_english(stand_in, client) -> None:
    await seed()
    await chat(client, "add Toss SQL test on December 9 at 10am")
    out = await chat(client, "what else is on my calendar that whole week")
    assert out["tool_calls"][0]["args"] == {"start_date": "2026-12-07", "end_date": "2026-12-13"}


def test_a_name_said_with_a_spaced_particle_and_a_polite_verb() -> None:
    from nodes.chat.schedule_requests import title_of

    assert title_of("내일 오후 2시 추가해 주세요. 이름은 라인 코딩테스트 으로 해 주세요", []) == (
        "라인 코딩테스트"
    )


# --- third review (fresh helper, ~90 rooms against this code and 46defe1) -----------------


@pytest.mark.parametrize(
    ("second", "expected"),
    [
        # a memo told as done, or a change told, is no memo asked for
        ("면접관이 늦지 말라고 해서 그거 메모해뒀어", ("2026-12-08", "15:00", None)),
        ("라인 면접이 12월 9일로 바뀌었다고 하니 그것도 메모해줘", ("2026-12-09", "15:00", None)),
        # the request after the memo's is done, not dropped
        (
            "복장은 자율이라고 하니 그것도 메모해 주시고, 시간은 4시로 바꿔 주세요",
            ("2026-12-08", "16:00", None),
        ),
        # a memo of what was said keeps its verb as a noun
        ("신분증 챙기라고 하니 그것도 메모로 남겨줘", ("2026-12-08", "15:00", "신분증 챙기기")),
    ],
)
async def test_third_review_memos_of_what_was_said(stand_in, client, second, expected) -> None:
    await seed()
    await chat(client, "12월 8일 오후 3시 라인 면접 추가해줘")
    await chat(client, second)
    item = (await titles())["라인 면접"]
    assert (item["date"], item.get("time"), item.get("memo")) == expected


@pytest.mark.parametrize(
    "remark", ["그거 메모 틀렸어", "그거 메모 고마워", "그거 메모 카카오 면접에도"]
)
async def test_third_review_a_remark_about_a_memo_is_no_memo(stand_in, client, remark) -> None:
    await seed()
    await chat(client, "12월 8일 오후 3시 라인 면접 추가해줘")
    await chat(client, "그거 메모에 신분증 지참 적어줘")
    await chat(client, remark)
    assert (await titles())["라인 면접"].get("memo") == "신분증 지참"


async def test_third_review_that_entire_week_names_no_item(stand_in, client) -> None:
    await seed()
    await chat(client, "Add a dentist appointment on Dec 16 at 10am")
    await chat(client, "I'm away that entire week so delete the coding study")
    left = await _left()
    assert "코딩 스터디" not in left
    assert left["dentist appointment"] == ("2026-12-16", "10:00")
