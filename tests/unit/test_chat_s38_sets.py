"""Operations on several items (session 38): "all but X" read by one reader for deletes
and changes, with or without a listing before it; the items spared by their words, day or
position; nothing done when the ones spared are not found. Written in other words than the
dev split that showed them (chat_xa_dev27)."""

from __future__ import annotations

import pytest

from nodes.chat.router import all_but, split_operations
from tests.unit.test_chat import chat
from tests.unit.test_chat_focus import _postings, seed, titles

pytestmark = pytest.mark.usefixtures("fresh_schedules")

# NOW is Sunday 2026-11-29; the seed: 네이버 1차 면접 Fri 12-04 15:00, 코딩 스터디 Tue 12-01
# 19:00, 카카오 면접 Thu 12-10 14:00.
SEEDED = {
    "네이버 1차 면접": ("2026-12-04", "15:00"),
    "코딩 스터디": ("2026-12-01", "19:00"),
    "카카오 면접": ("2026-12-10", "14:00"),
}


def _but(*kept: str) -> dict[str, tuple[str, str]]:
    return {k: v for k, v in SEEDED.items() if k in kept}


@pytest.mark.parametrize(
    ("turns", "expected"),
    [
        # the one spared stays, every other item from today on goes (no listing)
        (["카카오 면접 빼고 다 지워줘"], _but("카카오 면접")),
        (["스터디 말고 나머지 전부 삭제해 주세요"], _but("코딩 스터디")),
        # a kind word spares every item of that kind
        (["면접만 남기고 싹 지워"], _but("네이버 1차 면접", "카카오 면접")),
        # two named, joined
        (["네이버랑 카카오 빼고 다 취소"], _but("네이버 1차 면접", "카카오 면접")),
        # the one spared by its day
        (["금요일 거 빼고 전부 지워줘"], _but("네이버 1차 면접")),
        # by its position in the listing just shown
        (
            ["다음 주 일정 보여줘", "두 번째 거만 남기고 지워"],
            _but("네이버 1차 면접", "카카오 면접"),
        ),
        (["일정 전부 보여줘", "마지막 거 빼고 다 지워줘"], _but("카카오 면접")),
        # of a period the message names
        (["다음 주 일정 중에 네이버 빼고 다 지워줘"], _but("네이버 1차 면접", "카카오 면접")),
        # nothing is done when the one spared is not there
        (["토스 면접 빼고 다 지워줘"], SEEDED),
    ],
)
async def test_all_but_deletes(stand_in, client, turns, expected) -> None:
    await seed()
    for message in turns:
        await chat(client, message)
    assert {t: (i["date"], i.get("time")) for t, i in (await titles()).items()} == expected


async def test_all_but_moves_the_rest_and_deletes_nothing(stand_in, client) -> None:
    """ "스터디 빼고 전부 한 시간 뒤로": a change of each other item; 빼고 is no delete."""
    await seed()
    await chat(client, "스터디 빼고 전부 한 시간 뒤로 미뤄줘")
    assert {t: (i["date"], i.get("time")) for t, i in (await titles()).items()} == {
        "네이버 1차 면접": ("2026-12-04", "16:00"),
        "코딩 스터디": ("2026-12-01", "19:00"),
        "카카오 면접": ("2026-12-10", "15:00"),
    }


async def test_all_but_says_why_nothing_was_done(stand_in, client) -> None:
    await seed()
    body = await chat(client, "토스 면접 빼고 다 지워줘")
    assert body["tool_calls"] == []
    assert "남겨 두실 일정을 찾지 못" in body["answer"]


@pytest.mark.parametrize(
    ("message", "spared"),
    [
        ("카카오 면접 빼고 다 지워줘", "카카오 면접"),
        ("이번 달 일정 중에 스터디 말고 나머지 다 취소", "스터디"),
        ("네이버꺼만 남기고 싹 지워", "네이버꺼"),
        ("첫 번째 거 제외하고 모두 삭제", "첫 번째 거"),
    ],
)
def test_all_but_reads_the_words_spared(message: str, spared: str) -> None:
    said = all_but(message)
    assert said is not None and said.spared == spared


@pytest.mark.parametrize(
    "message",
    [
        "네이버 말고 다른 거 지워줘",  # one other item, not all
        "카카오 면접만 남기고 방금 넣은 거 하루 당겨줘",  # another item named after it
        "면접 말고 스터디 지워줘",
        "스터디 빼고 다음 주에 보자",
    ],
)
def test_not_all_but(message: str) -> None:
    assert all_but(message) is None


def test_all_but_is_one_operation() -> None:
    """The clause is not cut at 빼고, and its verb is the one after it."""
    assert split_operations("스터디 빼고 전부 한 시간 뒤로 미뤄줘") == [
        ("스터디 빼고 전부 한 시간 뒤로 미뤄줘", "update_schedule")
    ]
    assert [k for _, k in split_operations("카카오 면접 빼고 다 지워줘")] == ["delete_schedule"]


# Sets: every item of the days named, of the listing, of a kind, or the rest (session 38).
@pytest.mark.parametrize(
    ("turns", "expected"),
    [
        # a bare 다 before the verb, after a listing: each listed item moved
        (
            ["12월 일정 좀", "다 30분씩 당겨 줘"],
            {
                "네이버 1차 면접": ("2026-12-04", "14:30"),
                "코딩 스터디": ("2026-12-01", "18:30"),
                "카카오 면접": ("2026-12-10", "13:30"),
            },
        ),
        # only the items of a kind ("면접만"), no listing
        (
            ["면접만 오전 11시로 옮겨줘"],
            SEEDED
            | {"네이버 1차 면접": ("2026-12-04", "11:00"), "카카오 면접": ("2026-12-10", "11:00")},
        ),
        # every item of the days named, moved by a week (not the week said as the new one)
        (
            ["담주 스케줄 전부 일주일 뒤로 미뤄줘"],
            SEEDED
            | {"코딩 스터디": ("2026-12-08", "19:00"), "네이버 1차 면접": ("2026-12-11", "15:00")},
        ),
        # the rest of the listing after one was deleted
        (
            ["12월 일정 알려줘", "제일 빠른 거 지워줘", "남은 거 전부 하루 뒤로"],
            {"네이버 1차 면접": ("2026-12-05", "15:00"), "카카오 면접": ("2026-12-11", "14:00")},
        ),
        # two named and joined, a memo on each
        (["카카오 면접하고 코딩 스터디 둘 다 지워"], _but("네이버 1차 면접")),
        # the week the room was about ("그 주 거"), then an add in the same message
        (
            ["다음주 일정 보여줘", "그 주 거 전부 취소하고 12월 5일 오후 1시에 가족 모임 넣어줘"],
            _but("카카오 면접") | {"가족 모임": ("2026-12-05", "13:00")},
        ),
    ],
)
async def test_sets(stand_in, client, turns, expected) -> None:
    await seed()
    for message in turns:
        await chat(client, message)
    assert {t: (i["date"], i.get("time")) for t, i in (await titles()).items()} == expected


async def test_memo_on_each_of_two(stand_in, client) -> None:
    await seed()
    await chat(client, "네이버 면접이랑 카카오 면접 둘 다 메모에 '포트폴리오 출력' 넣어줘")
    memos = {t: i.get("memo") for t, i in (await titles()).items()}
    assert memos["네이버 1차 면접"] == memos["카카오 면접"] == "포트폴리오 출력"
    assert not memos["코딩 스터디"]


@pytest.mark.parametrize(
    ("turns", "expected"),
    [
        # a field said with 만 is no kind of item
        (
            ["네이버 면접 시간만 4시로 바꿔줘"],
            SEEDED | {"네이버 1차 면접": ("2026-12-04", "16:00")},
        ),
        # a word of one item with 만: that one
        (["스터디만 8시로 바꿔줘"], SEEDED | {"코딩 스터디": ("2026-12-01", "20:00")}),
    ],
)
async def test_not_sets(stand_in, client, turns, expected) -> None:
    await seed()
    for message in turns:
        await chat(client, message)
    assert {t: (i["date"], i.get("time")) for t, i in (await titles()).items()} == expected


async def test_a_quantifier_inside_another_clause_moves_no_interview(stand_in, client) -> None:
    """ "면접 다 끝나고 스터디는 목요일로": 다 belongs to 끝나고; no interview is moved (the
    study is moved, or asked about)."""
    await seed()
    await chat(client, "면접 다 끝나고 스터디는 목요일로 옮겨줘")
    now = {t: (i["date"], i.get("time")) for t, i in (await titles()).items()}
    assert now["네이버 1차 면접"] == SEEDED["네이버 1차 면접"]
    assert now["카카오 면접"] == SEEDED["카카오 면접"]


# The room after a change of several, a question for one place, and answers to ask-backs
# (session 38, the second round on chat_xa_dev27).
@pytest.mark.parametrize(
    ("turns", "expected"),
    [
        # the items of a kind put back as they were, after a change of all
        (
            ["일정 다 보여줘", "전부 30분씩 미뤄줘", "면접은 원래 시간으로 돌려줘"],
            {
                "네이버 1차 면접": ("2026-12-04", "15:00"),
                "코딩 스터디": ("2026-12-01", "19:30"),
                "카카오 면접": ("2026-12-10", "14:00"),
            },
        ),
        # one of them put back
        (
            ["12월 일정", "다 하루씩 당겨줘", "카카오 건 원래대로"],
            {
                "네이버 1차 면접": ("2026-12-03", "15:00"),
                "코딩 스터디": ("2026-11-30", "19:00"),
                "카카오 면접": ("2026-12-10", "14:00"),
            },
        ),
        # counted among the items just changed
        (
            ["다음 주 일정 전부 이틀 뒤로 미뤄줘", "미룬 것 중에 두 번째 거 오전 10시로"],
            SEEDED
            | {"코딩 스터디": ("2026-12-03", "19:00"), "네이버 1차 면접": ("2026-12-06", "10:00")},
        ),
        # the later of the two just changed
        (
            [
                "네이버 면접하고 카카오 면접 둘 다 메모에 '자소서 출력' 넣어줘",
                "둘 중 늦은 거 오전 9시로",
            ],
            SEEDED | {"카카오 면접": ("2026-12-10", "09:00")},
        ),
        # the value the last change set, for the rest of a kind
        (
            ["카카오 면접 12월 14일로 옮겨줘", "나머지 면접도 같은 날로 해줘"],
            SEEDED
            | {"카카오 면접": ("2026-12-14", "14:00"), "네이버 1차 면접": ("2026-12-14", "15:00")},
        ),
        # all but one of the days a set phrase names, after the marker
        (
            ["이번 달 일정 보여줘", "스터디만 남기고 다음 주 거 다 지워"],
            _but("코딩 스터디", "카카오 면접"),
        ),
        # the one a question asked for by its place is what "그거" means next
        (
            ["제 일정 중에 제일 늦은 게 뭐예요?", "그거 지워 주세요"],
            _but("코딩 스터디", "네이버 1차 면접"),
        ),
    ],
)
async def test_after_a_set(stand_in, client, turns, expected) -> None:
    await seed()
    for message in turns:
        await chat(client, message)
    assert {t: (i["date"], i.get("time")) for t, i in (await titles()).items()} == expected


async def test_the_one_asked_is_answered_alone(stand_in, client) -> None:
    await seed()
    body = await chat(client, "다음주 일정 중 제일 빠른 거 뭐야?")
    assert "코딩 스터디" in body["answer"] and "네이버" not in body["answer"]
    assert "'코딩 스터디'예요" in body["answer"]  # (the copula after a vowel)


@pytest.mark.parametrize(
    ("reply", "target"),
    [
        # a company word the analyser reads as a verb ("세운" = 세우 + ㄴ), and 거
        ("세운 거요", "세운 필기"),
        ("원래 있던 거", "코딩 스터디"),  # the one the room did not add
    ],
)
async def test_replies_to_an_ask_back(stand_in, client, reply, target) -> None:
    await seed()
    if target == "코딩 스터디":
        await chat(client, "목요일 저녁 8시 영어 스터디 추가해줘")
        await chat(client, "스터디 지워줘")
    else:
        await chat(client, "목요일 오후 2시 토스 PT면접, 금요일 오전 9시 세운 필기 넣어줘")
        await chat(client, "그거 지워줘")
    await chat(client, reply)
    assert target not in await titles()


async def test_booked_things_of_a_month_are_the_users_own(stand_in, client) -> None:
    body = await chat(client, "12월 중에 잡힌 거 뭐뭐 있어")
    assert body["route"] == "schedule"
    assert body["tool_calls"][0]["args"] == {"start_date": "2026-12-01", "end_date": "2026-12-31"}


# Round three on chat_xa_dev27: words of a request read in general ways.
@pytest.mark.parametrize(
    ("turns", "title", "expected"),
    [
        # minutes in Sino-Korean words
        (
            ["카카오 면접 사십오분 일찍 시작한대요 당겨주세요"],
            "카카오 면접",
            ("2026-12-10", "13:15"),
        ),
        # a change of the day and then of the time, the field named ("시간은 …")
        (
            ["네이버 면접 목요일로 바꾸고 시간은 오전 11시로 해줘"],
            "네이버 1차 면접",
            ("2026-12-03", "11:00"),
        ),
        # a verb made of a noun told as done ("예약했어요") is no part of the name
        (["수요일 오후 3시에 치과 예약했어요 넣어줘"], "치과", ("2026-12-02", "15:00")),
        # two quoted titles, each with its own day
        (
            ["좋아 그럼 12월 9일 오전 10시 '현대 인적성', 12월 11일 오후 4시 'KT 면접' 등록"],
            "현대 인적성",
            ("2026-12-09", "10:00"),
        ),
        # a stage named right after the posting's stages were shown, no pointer
        (
            ["네이버 공고 일정 알려줘", "온라인 코테 내 캘린더에 넣어줘"],
            None,
            ("2026-12-19", "10:00"),
        ),
    ],
)
async def test_general_readings(stand_in, client, turns, title, expected) -> None:
    await seed()
    if "공고" in turns[0]:
        await _postings(client)
    for message in turns:
        await chat(client, message)
    now = {t: (i["date"], i.get("time")) for t, i in (await titles()).items()}
    if title is None:
        added = {t: v for t, v in now.items() if t not in SEEDED}
        assert list(added.values()) == [expected]
    else:
        assert now[title] == expected


# The review of the session's sets (helper-89): trigger words in other senses, and the one
# item a request names, never widened into a set.
@pytest.mark.parametrize(
    ("turns", "expected"),
    [
        # 만 after a name of one item: that item
        (["카카오 면접만 취소해줘"], _but("네이버 1차 면접", "코딩 스터디")),
        (["1차 면접만 지워줘"], _but("카카오 면접", "코딩 스터디")),
        # 다/전부/모두/남은 of something else, the item named after them
        (
            ["내 일정 보여줘", "과제 다 했어, 스터디 내일로 옮겨줘"],
            SEEDED | {"코딩 스터디": ("2026-11-30", "19:00")},
        ),
        (["안녕", "아 다 귀찮다 스터디 취소해줘"], _but("네이버 1차 면접", "카카오 면접")),
        (["안녕", "준비 다 됐어 스터디 지워줘"], _but("네이버 1차 면접", "카카오 면접")),
        (
            ["안녕", "팀원 전부 시간이 안 돼서 스터디 취소해야 할 것 같아"],
            _but("네이버 1차 면접", "카카오 면접"),
        ),
        (
            ["안녕", "가족 모두 여행 가서 스터디 12월 3일로 옮겨줘"],
            SEEDED | {"코딩 스터디": ("2026-12-03", "19:00")},
        ),
        # a quoted title spared
        (["내 일정 보여줘", "'카카오 면접' 빼고 다 지워줘"], _but("카카오 면접")),
        # "원래대로 놔두고" leaves them; the delete is of the one named with 만
        (
            [
                "내 일정 보여줘",
                "다 한 시간씩 뒤로 미뤄줘",
                "면접은 원래대로 놔두고 스터디만 지워줘",
            ],
            {"네이버 1차 면접": ("2026-12-04", "16:00"), "카카오 면접": ("2026-12-10", "15:00")},
        ),
        # an empty listing is the set: nothing
        (["오늘 일정 알려줘", "다 취소해줘"], SEEDED),
        (["안녕", "일정 다 지워줘"], SEEDED),
        # what is said of the rest after "X 빼고 다" is not the request; 만 marks the item
        (
            ["카카오 면접 빼고 다 괜찮은데 스터디만 8시로 바꿔줘"],
            SEEDED | {"코딩 스터디": ("2026-12-01", "20:00")},
        ),
        # an item to keep that the listing does not have: nothing done
        (["다음 주 일정 보여줘", "토스 면접 빼고 다 지워줘"], SEEDED),
        # "그 주" with no week in the room: nothing on a guess
        (["첫 번째 거만 남기고 그 주 거 다 지워"], SEEDED),
        # the day the last change set, not the change repeated
        (
            ["네이버 면접 하루 뒤로 미뤄줘", "스터디도 같은 날로 옮겨줘"],
            {
                "네이버 1차 면접": ("2026-12-05", "15:00"),
                "코딩 스터디": ("2026-12-05", "19:00"),
                "카카오 면접": ("2026-12-10", "14:00"),
            },
        ),
        # an add with the same day is an add, named without the pointer
        (
            ["네이버 면접 12월 7일로 옮겨줘", "포트폴리오 점검도 같은 날로 추가해줘"],
            SEEDED
            | {"네이버 1차 면접": ("2026-12-07", "15:00"), "포트폴리오 점검": ("2026-12-07", None)},
        ),
        # the rest with a particle ("나머지도"), after a delete with no listing
        (["코딩 스터디 지워줘", "나머지도 다 지워줘 처음부터 다시 짤래"], {}),
        # a set word of something else, then the items marked with 만
        (["면접 두 곳 다 미뤄졌다고 연락 왔어요 ㅠ 면접만 지워 주세요"], _but("코딩 스터디")),
        # "둘 다" of people, not of the items listed
        (
            ["다음 주 일정 보여줘", "나랑 친구 둘 다 바빠서 스터디 취소해줘"],
            _but("네이버 1차 면접", "카카오 면접"),
        ),
        # a change of several undone at once
        (["내 일정 보여줘", "다 한 시간씩 뒤로 미뤄줘", "아 아니다 원래대로 돌려줘"], SEEDED),
    ],
)
async def test_s38_review_guards(stand_in, client, turns, expected) -> None:
    await seed()
    for message in turns:
        await chat(client, message)
    assert {t: (i["date"], i.get("time")) for t, i in (await titles()).items()} == expected


async def test_s38_review_a_stage_as_a_reference_is_not_added(stand_in, client) -> None:
    """ "코테 끝나고 회고 일정 넣어줘" after the stages: the user's event, whose day is asked
    for; the posting's stage is not added in its place."""
    await seed()
    await _postings(client)
    await chat(client, "카카오 공고 일정 알려줘")
    body = await chat(client, "코테 끝나고 회고 일정 넣어줘")
    assert set(await titles()) == set(SEEDED)
    assert "회고" in body["answer"]


@pytest.mark.parametrize(
    ("message", "route"),
    [
        ("카카오 공고에 잡힌 거 뭐 있어", "schedule"),
        ("면접 잡힌 게 있어서 너무 떨려요", "schedule"),
    ],
)
async def test_s38_review_booked_words_of_others(stand_in, client, message, route) -> None:
    await seed()
    await _postings(client)
    assert (await chat(client, message))["route"] != route


def test_s38_review_minutes_in_quotes_stay_as_written() -> None:
    from text.colloquial import standard_spelling

    assert standard_spelling("12월 5일 '삼십분 명상' 넣고 스터디 삼십분 늦춰") == (
        "12월 5일 '삼십분 명상' 넣고 스터디 30분 늦춰"
    )
