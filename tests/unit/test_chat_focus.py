"""The room remembers what its turns did (nodes/chat/focus.py): "방금 추가한 일정", "그거",
"두 번째 거", "거기 면접은?" resolve to the object a previous turn produced; when two fit,
the room asks back and the next turn's pick completes the operation. Deterministic path
(the chat's model is the embedded stand-in, never called), in-process schedules and saver,
real embedded embeddings."""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from nodes.chat.focus import after_turn, points_at_noun, points_back, refers_to
from tests.conftest import POSTING as POSTING_WITH_DUTIES
from tests.conftest import RESUME, saved_state
from tests.unit.test_chat import chat, embed
from tools.schedule import ScheduleStore

POSTING = """[카카오] 백엔드 개발자 채용
■ 자격요건
- Java, Spring 기반 개발 경력 3년 이상
■ 일정
- 서류 마감: 2026.12.15
- 코딩테스트: 2026.12.20 14:00
- 1차 면접: 2027.01.05
"""

pytestmark = pytest.mark.usefixtures("fresh_schedules")


async def seed(user: str = "u1") -> dict[str, str]:
    from datetime import date

    store = ScheduleStore(None)
    ids = {}
    for title, day, time in (
        ("네이버 1차 면접", "2026-12-04", "15:00"),
        ("코딩 스터디", "2026-12-01", "19:00"),
        ("카카오 면접", "2026-12-10", "14:00"),
    ):
        ids[title] = (await store.add(user, title, date.fromisoformat(day), time))["schedule_id"]
    return ids


async def titles(user: str = "u1") -> dict[str, dict]:
    return {i["title"]: i for i in await ScheduleStore(None).get(user)}


# --- the mechanism on its own ------------------------------------------------------------


def _turn(calls: list[tuple[str, dict, dict]]) -> list:
    ai = AIMessage(
        content="",
        tool_calls=[
            {"name": n, "args": a, "id": f"c{i}", "type": "tool_call"}
            for i, (n, a, _) in enumerate(calls)
        ],
    )
    results = [
        ToolMessage(content="", tool_call_id=f"c{i}", artifact=art)
        for i, (_, _, art) in enumerate(calls)
    ]
    return [HumanMessage(content="..."), ai, *results, AIMessage(content="done")]


A = {"schedule_id": "a", "title": "토스 면접", "date": "2026-12-08", "time": "14:00"}
B = {"schedule_id": "b", "title": "코딩 스터디", "date": "2026-12-01", "time": "19:00"}
C = {"schedule_id": "c", "title": "네이버 1차 면접", "date": "2026-12-04", "time": "15:00"}


def test_pointing_words_are_a_closed_class_not_any_demonstrative_syllable():
    pointing = ("그거 취소해줘", "그 일정 4시로", "방금 넣은 거", "두 번째 거", "거기 면접은?")
    for text in pointing:
        assert points_back(text), text
    plain = ("그리고 내일 면접 잡아줘", "이번 주 일정 보여줘", "이력서 요약해줘", "그룹 면접")
    for text in plain:
        assert not points_back(text), text


def test_a_demonstrative_before_any_noun_points_at_an_object_but_not_before_order_words():
    for text in (
        "그 프로젝트 무슨 기술 썼어?",
        "저 항목은?",
        "그 회사 얼마나 다녔어",
        "그 자격증 언제 땄어",
    ):
        assert points_at_noun(text), text
    for text in (
        "그 다음 일정 보여줘",
        "그 외에 우대사항은?",
        "그 중에 뭐가 나아",
        "그리고 기술 스택은?",
    ):
        assert not points_at_noun(text), text


def test_the_focus_keeps_what_each_turn_did_most_recent_first():
    focus = after_turn(None, _turn([("get_schedule", {}, {"schedules": [B, C]})]), None)
    assert [i["schedule_id"] for i in focus["listed"]] == ["b", "c"]
    focus = after_turn(focus, _turn([("add_schedule", {}, {"schedule": A})]), None)
    assert [(i["schedule_id"], i["how"]) for i in focus["items"]] == [
        ("a", "added"),
        ("b", "listed"),
        ("c", "listed"),
    ]
    # the last listing is still what "두 번째 거" counts in
    assert refers_to("두 번째 거", focus, [A, B, C]).item == C
    assert refers_to("방금 추가한 거", focus, [A, B, C]).item == A
    assert refers_to("그거", focus, [A, B, C]).item == A  # the last turn touched one item
    # an item that no longer exists is never the answer
    assert refers_to("방금 추가한 거", focus, [B, C]).item != A


def test_two_items_that_fit_are_choices_not_a_guess():
    focus = after_turn(None, _turn([("get_schedule", {}, {"schedules": [B, C]})]), None)
    resolved = refers_to("그거 취소해줘", focus, [A, B, C])
    assert resolved.item is None and [c["schedule_id"] for c in resolved.choices] == ["b", "c"]
    # words of the clause narrow the choices when they can
    narrowed = refers_to("그 스터디", focus, [A, B, C], lambda t, pool: pool[0])
    assert narrowed.item == B


# --- in a room ---------------------------------------------------------------------------


async def test_the_item_just_added_is_moved_then_cancelled_by_pointing(stand_in, client):
    await seed()
    added = await chat(client, "12월 8일 오후 2시에 토스 면접 일정 추가해줘")
    assert added["tool_calls"][0]["name"] == "add_schedule"
    new_id = (await titles())["토스 면접"]["schedule_id"]
    moved = await chat(client, "방금 추가한 일정 4시로 바꿔줘")
    assert moved["tool_calls"] == [
        {"name": "update_schedule", "args": {"schedule_id": new_id, "time": "16:00"}}
    ]
    gone = await chat(client, "그 일정 취소해줘")
    assert gone["tool_calls"] == [{"name": "delete_schedule", "args": {"schedule_id": new_id}}]
    assert "토스 면접" not in await titles()
    assert set(await titles()) == {"네이버 1차 면접", "코딩 스터디", "카카오 면접"}
    saved = await saved_state("chat:u1:r1")
    assert saved["focus"]["items"][0]["how"] == "deleted"  # kept in the checkpointed room
    assert stand_in.calls == []


async def test_a_position_counts_in_the_listing_the_user_saw(stand_in, client):
    ids = await seed()
    listing = await chat(client, "다음주 일정 보여줘")
    assert listing["answer"].index("코딩 스터디") < listing["answer"].index("네이버 1차 면접")
    out = await chat(client, "두 번째 거 지워줘")
    assert out["tool_calls"] == [
        {"name": "delete_schedule", "args": {"schedule_id": ids["네이버 1차 면접"]}}
    ]


async def test_an_ambiguous_pointer_asks_back_and_the_pick_completes_it(stand_in, client):
    ids = await seed()
    await chat(client, "다음주 일정 보여줘")
    asked = await chat(client, "그거 취소해줘")
    assert asked["tool_calls"] == [] and asked["route"] == "schedule"
    assert "어느 일정" in asked["answer"]
    assert "코딩 스터디" in asked["answer"] and "네이버 1차 면접" in asked["answer"]
    assert len(await titles()) == 3  # nothing was guessed
    picked = await chat(client, "첫 번째 거")
    assert picked["tool_calls"] == [
        {"name": "delete_schedule", "args": {"schedule_id": ids["코딩 스터디"]}}
    ]
    # the pending question is answered: the next pointer is not read as a pick
    state = await saved_state("chat:u1:r1")
    assert state["focus"]["pending"] is None


async def test_a_pointer_in_another_room_finds_nothing_of_this_one(stand_in, client):
    await seed()
    await chat(client, "12월 8일 오후 2시에 토스 면접 일정 추가해줘")
    other = await chat(client, "방금 추가한 일정 4시로 바꿔줘", room="r2")
    assert other["tool_calls"] == []
    assert (await titles())["토스 면접"]["time"] == "14:00"


async def test_the_posting_just_discussed_answers_the_follow_up_and_its_stage_is_added(
    stand_in, client
):
    await seed()
    await embed(client, "u1", "kakao", "posting", POSTING)
    first = await chat(client, "카카오 코딩테스트 언제야?")
    assert first["route"] == "calendar"
    follow = await chat(client, "거기 1차 면접은?")
    assert follow["route"] == "calendar" and "2027-01-05" in follow["answer"]
    added = await chat(client, "아까 말한 코딩테스트 일정도 내 캘린더에 넣어줘")
    assert added["tool_calls"] == [
        {
            "name": "add_schedule",
            "args": {"title": "카카오 코딩테스트", "date": "2026-12-20", "time": "14:00"},
        }
    ]


async def test_the_day_of_a_stage_just_discussed_dates_another_event(stand_in, client):
    await embed(client, "u1", "kakao", "posting", POSTING)
    await chat(client, "카카오 코딩테스트 언제야?")
    added = await chat(client, "그 코테 날 오후 5시에 리뷰 스터디 추가")
    assert added["tool_calls"] == [
        {
            "name": "add_schedule",
            "args": {"title": "리뷰 스터디", "date": "2026-12-20", "time": "17:00"},
        }
    ]


async def test_the_same_day_as_the_item_in_focus(stand_in, client):
    await seed()
    await chat(client, "12월 8일 오후 2시에 토스 면접 잡아줘")
    out = await chat(client, "그날 저녁 7시에 스터디도 잡아줘")
    args = out["tool_calls"][0]["args"]
    assert args == {"title": "스터디", "date": "2026-12-08", "time": "19:00"}


NAVER = """[네이버] 데이터 엔지니어 채용
■ 자격요건
- Python, Airflow 기반 데이터 파이프라인 경력 2년 이상
■ 일정
- 서류 마감: 2026.12.10
- 코딩테스트: 2026.12.19 10:00
- 1차 면접: 2027.01.08
"""


async def _postings(client) -> None:
    await embed(client, "u1", "kakao", "posting", POSTING)
    await embed(client, "u1", "naver", "posting", NAVER)


def _looked_up(out: dict) -> list:
    return [
        c["args"]["doc_id"] for c in out["tool_calls"] if c["name"] == "get_recruitment_schedule"
    ]


async def test_that_company_is_the_posting_a_document_answer_was_about(stand_in, client):
    await _postings(client)
    assert (await chat(client, "카카오 자격요건이 뭐야?"))["route"] == "rag"
    out = await chat(client, "그 회사 서류 마감은?")
    assert out["route"] == "calendar" and _looked_up(out) == ["kakao"]
    assert "2026-12-15" in out["answer"]


async def test_a_pointer_reaches_the_posting_across_a_turn_about_something_else(stand_in, client):
    await _postings(client)
    await chat(client, "네이버 공고 자격요건 알려줘")
    await chat(client, "면접 전에 긴장 푸는 법 있어?")
    out = await chat(client, "아까 말한 그 회사 코테 몇 시였지?")
    assert out["route"] == "calendar" and _looked_up(out) == ["naver"]
    assert "10:00" in out["answer"]


async def test_the_company_a_follow_up_names_becomes_the_posting_in_focus(stand_in, client):
    await _postings(client)
    await chat(client, "카카오 자격요건 뭐야")
    await chat(client, "네이버는?")
    out = await chat(client, "방금 그 회사 코딩테스트는 언제야")
    assert _looked_up(out) == ["naver"] and "2026-12-19" in out["answer"]


async def test_that_company_after_a_schedule_turn_is_the_company_it_named(stand_in, client):
    await seed()
    await _postings(client)
    await chat(client, "카카오 면접 메모에 '포트폴리오 지참' 추가해줘")
    # the pointer decides, even where the words are nearer another posting (네이버's)
    out = await chat(client, "그 회사 데이터 파이프라인 공고 코테는 언제야?")
    assert _looked_up(out) == ["kakao"] and "2026-12-20" in out["answer"]


async def test_a_follow_up_that_settles_its_own_route_is_not_carried_by_the_last(stand_in, client):
    await _postings(client)
    assert (await chat(client, "카카오 코딩테스트 언제야?"))["route"] == "calendar"
    # the posting's text, not its timeline
    assert (await chat(client, "거기 자격요건은 뭐야?"))["route"] == "rag"
    # advice, not the document again
    assert (await chat(client, "그럼 면접 전날엔 보통 뭘 준비하면 좋아?"))["route"] == "general"


async def test_an_add_on_condition_uses_the_look_the_last_turn_made(stand_in, client):
    await seed()  # nothing on 12-24; 네이버 1차 면접 on 12-04
    looked = await chat(client, "12월 24일에 일정 있어?")
    assert looked["tool_calls"][0]["args"] == {"start_date": "2026-12-24", "end_date": "2026-12-24"}
    out = await chat(client, "비어 있으면 그날 저녁 7시에 친구 약속 잡아줘")
    assert out["tool_calls"] == [
        {
            "name": "add_schedule",
            "args": {"title": "친구 약속", "date": "2026-12-24", "time": "19:00"},
        }
    ]
    # the day just listed had a schedule: nothing added, and no second look
    await chat(client, "12월 4일 일정 뭐 있어?", room="r2")
    busy = await chat(client, "없으면 그날 오후 2시에 헬스 넣어줘", room="r2")
    assert busy["tool_calls"] == [] and "헬스" not in (await titles())


async def test_the_same_change_again_on_another_item(stand_in, client):
    await seed()  # 네이버 1차 면접 12-04 15:00, 카카오 면접 12-10 14:00
    await chat(client, "네이버 면접 1시간 당겨줘")
    out = await chat(client, "카카오 면접도 마찬가지로")
    assert out["route"] == "schedule"
    assert (await titles())["카카오 면접"]["time"] == "13:00"  # the same move, from its own time
    await chat(client, "코딩 스터디 12월 2일로 옮겨줘", room="r2")
    await chat(client, "네이버 것도 똑같이", room="r2")
    assert (await titles())["네이버 1차 면접"]["date"] == "2026-12-02"


async def test_a_change_taken_back_restores_what_it_replaced(stand_in, client):
    await seed()  # 카카오 면접 12-10 14:00, 코딩 스터디 12-01 19:00
    await chat(client, "카카오 면접 12월 11일로 옮겨줘")
    assert (await titles())["카카오 면접"]["date"] == "2026-12-11"
    out = await chat(client, "아 아니다 원래 날짜로 돌려줘")
    assert out["route"] == "schedule"
    assert (await titles())["카카오 면접"]["date"] == "2026-12-10"
    assert (await titles())["카카오 면접"]["time"] == "14:00"  # only what the change set
    await chat(client, "코딩 스터디 저녁 8시로 바꿔줘", room="r2")
    await chat(client, "그거 다시 원래대로 해줘", room="r2")
    assert (await titles())["코딩 스터디"]["time"] == "19:00"


async def test_a_delete_taken_back_adds_the_item_again(stand_in, client):
    await seed()
    await chat(client, "카카오 면접 삭제해줘")
    assert "카카오 면접" not in await titles()
    await chat(client, "앗 원래대로 돌려놔")
    restored = (await titles())["카카오 면접"]
    assert (restored["date"], restored["time"]) == ("2026-12-10", "14:00")


async def test_a_value_stated_after_an_add_completes_it(stand_in, client):
    await seed()
    await chat(client, "12월 8일 토스 코테 추가해줘")
    out = await chat(client, "시간 말 안 했네 오후 1시야")
    assert out["route"] == "schedule"
    assert (await titles())["토스 코테"]["time"] == "13:00"


async def test_a_listing_follow_up_naming_another_week_lists_it(stand_in, client):
    await seed()  # 코딩 스터디 12-01, 네이버 1차 면접 12-04, 카카오 면접 12-10
    await chat(client, "이번 주 일정 보여줘")
    out = await chat(client, "그럼 담주는?")
    assert out["route"] == "schedule"
    (call,) = out["tool_calls"]
    assert call["name"] == "get_schedule"
    assert (call["args"]["start_date"], call["args"].get("end_date")) == (
        "2026-11-30",
        "2026-12-06",
    )


async def test_the_first_item_added_is_the_oldest_add_of_the_room(stand_in, client):
    await chat(client, "12월 8일 오후 2시 카카오페이 코테 추가")
    await chat(client, "12월 9일 저녁 7시 카카오페이 면접 준비 스터디도 넣어줘")
    await chat(client, "처음에 넣은 거 지워줘")
    left = await titles()
    assert "카카오페이 코테" not in left and "카카오페이 면접 준비 스터디" in left


async def test_an_english_relative_move_on_the_item_just_listed(stand_in, client):
    await seed()
    await chat(client, "what do I have on Dec 4?")
    await chat(client, "move that one 30 minutes later")
    assert (await titles())["네이버 1차 면접"]["time"] == "15:30"


async def test_an_ask_back_answered_with_what_the_room_did(stand_in, client):
    await seed()  # 코딩 스터디 12-01 19:00
    await chat(client, "12월 3일 저녁 7시에 영어 스터디 추가")
    asked = await chat(client, "스터디 30분 당겨줘")
    assert asked["tool_calls"] == [] and "어느" in asked["answer"]
    await chat(client, "방금 추가한 거")
    assert (await titles())["영어 스터디"]["time"] == "18:30"
    assert (await titles())["코딩 스터디"]["time"] == "19:00"


async def test_a_memo_for_a_listed_item_named_by_position_needs_no_verb(stand_in, client):
    await seed()
    await chat(client, "12월 일정 보여줘")  # 코딩 스터디, 네이버 1차 면접, 카카오 면접
    await chat(client, "마지막 거 메모에 '포트폴리오 출력'")
    assert (await titles())["카카오 면접"].get("memo") == "포트폴리오 출력"


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("그 담날은?", "2026-12-05"),  # 담 is 다음 clipped, as in 담주
        ("그 다음날은?", "2026-12-05"),
        ("그 전날은?", "2026-12-03"),
        ("그 담주는?", "2026-12-11"),
        ("그날은?", "2026-12-04"),
    ],
)
def test_a_day_said_from_the_day_just_looked_at(text: str, day: str) -> None:
    from nodes.chat.focus import DAY_POINTER, shifted_day

    assert DAY_POINTER.search(text)
    assert shifted_day("2026-12-04", text) == day


# Each conversation: the turns, then the item it must leave (title -> expected fields).
# Written for session 26 from the kinds a fifth author's exchanges showed (chat_xa_dev6):
# a day pointed at by a place word or an end ("거기에", "그거 끝나고"), a count of days from the
# room's day, a change reported in the passive with its new value, a value filled into the
# item just added, a memo for the item a position or a day names, "ㄱㄱ" urging the verb
# before it.
ROOM_CASES = [
    (
        ["금요일 일정 좀 보여줘", "거기에 오후 1시 병원 예약 추가"],
        "병원 예약",
        {"date": "2026-12-04", "time": "13:00"},
    ),
    (
        ["12월 4일 일정 보여줘", "그거 끝나면 저녁 7시에 동기 모임 넣어줘"],
        "동기 모임",
        {"date": "2026-12-04", "time": "19:00"},
    ),
    (
        ["12월 18일 오후 2시 현대 면접 넣어줘", "그 사흘 전 저녁 8시에 모의면접 잡아줘"],
        "모의면접",
        {"date": "2026-12-15", "time": "20:00"},
    ),
    (
        ["12/15 오후 6시 쿠팡 서류 마감 일정 추가", "아 그 전날로 옮겨줘"],
        "쿠팡 서류 마감",
        {"date": "2026-12-14", "time": "18:00"},
    ),
    (
        ["다음주 금요일 일정 확인해줘", "연락 왔는데 그 면접 그 다음날로 바뀌었대"],
        "네이버 1차 면접",
        {"date": "2026-12-05", "time": "15:00"},
    ),
    (
        ["1월 5일에 카카오 1차 면접 추가해줘", "아까 넣은 거 오전 10시로 시간 넣어줘"],
        "카카오 1차 면접",
        {"date": "2027-01-05", "time": "10:00"},
    ),
    (
        ["12월 9일 오후 2시 토스 면접 넣어줘", "아 그거 오후 4시였다"],
        "토스 면접",
        {"date": "2026-12-09", "time": "16:00"},
    ),
    (
        ["12월 일정 다 보여줘", "세번째꺼 메모에 '노트북 챙기기' 적어줘"],
        "카카오 면접",
        {"memo": "노트북 챙기기"},
    ),
    (
        ["금요일 면접 메모에 '신분증 지참' 추가"],
        "네이버 1차 면접",
        {"memo": "신분증 지참", "date": "2026-12-04"},
    ),
    (
        ["카카오 면접 날 오전 10시에 본사 방문 추가해줘"],
        "본사 방문",
        {"date": "2026-12-10", "time": "10:00"},
    ),
    (
        ["코딩 스터디 12월 2일 저녁 8시로 바뀜"],
        "코딩 스터디",
        {"date": "2026-12-02", "time": "20:00"},
    ),
    # session 28 (chat_xa_dev8's kinds, in other words)
    (
        ["12월 9일 라인 과제 마감 넣어줘", "아 잘못 봤다 그 다음날로 해줘"],
        "라인 과제 마감",
        {"date": "2026-12-10"},
    ),
    (["네이버 인턴 면접 잡혔다 12월 16일 오전 11시"], "네이버 인턴 면접", {"date": "2026-12-16"}),
    (["카카오 면접에 메모 좀 달아줘: 신분증 챙기기"], "카카오 면접", {"memo": "신분증 챙기기"}),
    (["the naver interview was pushed to dec 7"], "네이버 1차 면접", {"date": "2026-12-07"}),
    (
        ["12월 5일 오후 3시 토스 스터디 추가해줘", "이름도 그냥 '알고리즘 스터디'로 바꿔줘"],
        "알고리즘 스터디",
        {"date": "2026-12-05", "time": "15:00"},
    ),
    (
        ["모레 오전 9시 우리은행 서류 제출이랑 오후 4시 당근 커피챗 둘 다 넣어줘"],
        "당근 커피챗",
        {"date": "2026-12-01", "time": "16:00"},
    ),
    # session 28 (chat_xa_dev9's kinds, in other words)
    (["카카오 면접 2시간 미뤄줘", "ㄴㄴ 취소 원래시간으로"], "카카오 면접", {"time": "14:00"}),
    (
        ["담주 화욜 아니 금욜 오전 11시 즐거운상사 커피챗"],
        "즐거운상사 커피챗",
        {"date": "2026-12-04"},
    ),
    (
        [
            "12월 16일 오후 3시 라인 2차면접",
            "걔네가 하루 미뤄달래",
            "그리고 그 전날 밤 9시에 기출 복습",
        ],
        "기출 복습",
        {"date": "2026-12-16", "time": "21:00"},
    ),
    # session 29 (chat_xa_dev9's kinds, in other words)
    # a position counts in the listing, not in the one item changed since
    (
        ["12/1부터 12/10까지 일정 보여줘", "두번째꺼 메모: 정장", "첫번째꺼 8시로"],
        "코딩 스터디",
        {"time": "20:00"},
    ),
    # a memo's words ask nothing ("공고", "날짜" in it)
    (
        ["1/5 카카오 1차면접 넣어줘", "거기 메모로 공고상 날짜임 이라고"],
        "카카오 1차면접",
        {"memo": "공고상 날짜임"},
    ),
    # the deleted item the clause names comes back; the changed one stays changed
    (
        ["네이버면접 오후4시로 미루고 카카오면접은 지워줘", "아 카카오건 원래대로 살려놔"],
        "카카오 면접",
        {"date": "2026-12-10", "time": "14:00"},
    ),
    (
        ["네이버면접 오후4시로 미루고 카카오면접은 지워줘", "아 카카오건 원래대로 살려놔"],
        "네이버 1차 면접",
        {"time": "16:00"},
    ),
    # the week after the item's, same weekday, said without a verb
    (
        [
            "12월 9일 수 오전 10시 토스 과제 발표 추가",
            "메모: 온라인",
            "날짜만 그 다음주 같은 요일로",
        ],
        "토스 과제 발표",
        {"date": "2026-12-16", "time": "10:00"},
    ),
    # "내일정" is 내 일정, no tomorrow
    (["카카오 면접 내일정에서 1시간 뒤로"], "카카오 면접", {"date": "2026-12-10", "time": "15:00"}),
    # session 29 (chat_xa_dev10's kinds, in other words)
    # a memo said with the word 메모 alone before it
    (["토요일 오후 1시 모각코 추가", "메모 역삼 스벅"], "모각코", {"memo": "역삼 스벅"}),
    # the item the user had before the room added another on that day
    (
        [
            "12월 10일 일정 보여줘",
            "그날 오전 9시 은행 업무 추가",
            "원래 있던 면접 메모에 '정장' 달아줘",
        ],
        "카카오 면접",
        {"memo": "정장"},
    ),
    # a delete taken back ("지우면 안 되는데") puts the item back as it was
    (
        ["네이버 면접 지워줘", "아 네이버는 지우면 안 되는데 다시 넣어줘"],
        "네이버 1차 면접",
        {"date": "2026-12-04", "time": "15:00"},
    ),
    # an answer to the ask-back that names the one it is not
    (
        ["면접 하나 목요일로 옮겨줘", "카카오 말고 다른 거"],
        "네이버 1차 면접",
        {"date": "2026-12-03"},
    ),
    # an English memo and an English part of the day
    (
        ["move my kakao interview to 11am", "and add a memo: bring ID"],
        "카카오 면접",
        {"time": "11:00", "memo": "bring ID"},
    ),
    (["add a mock interview on dec 3 at 8 in the evening"], "mock interview", {"time": "20:00"}),
    # a part of the day with its particle before the event is no part of its name
    (["금요일 6시 저녁에 회고 넣어줘"], "회고", {"date": "2026-12-04", "time": "18:00"}),
    # session 29 (chat_xa_dev11's kinds, in other words)
    # a day of the month said with 날, then the item it showed
    (["4일날 뭐 있더라", "그거 오후 5시로 바꿔줘"], "네이버 1차 면접", {"time": "17:00"}),
    # a correction with a clipped weekday and a copula
    (
        ["금요일 오전 10시 토스 과제 추가", "아 잘못 말함 금욜 아니고 목욜이야"],
        "토스 과제",
        {"date": "2026-12-03"},
    ),
    # an English request's opening and its title said with "as"
    (["Could you add a Toss coffee chat on Dec 9 at 4pm?"], "Toss coffee chat", {"time": "16:00"}),
    (["add a meeting on Dec 8 at 2pm as 멘토링"], "멘토링", {"date": "2026-12-08"}),
]


@pytest.mark.parametrize(("turns", "title", "fields"), ROOM_CASES)
async def test_the_room_resolves_days_values_and_positions_it_just_produced(
    stand_in, client, turns, title, fields
):
    await seed()
    for message in turns:
        out = await chat(client, message)
    assert out["tool_calls"], out["answer"]
    item = (await titles())[title]
    assert {k: item.get(k) for k in fields} == fields
    assert stand_in.calls == []


async def test_go_go_after_a_verb_urges_that_verb(stand_in, client):
    await seed()
    await chat(client, "담주 일정 뭐있어?")
    out = await chat(client, "첫번째꺼 취소됐어 삭제 ㄱㄱ")
    assert [c["name"] for c in out["tool_calls"]] == ["delete_schedule"]
    assert "코딩 스터디" not in await titles()


async def test_the_room_s_day_names_the_item_of_that_day_after_an_add_on_it(stand_in, client):
    await seed()
    await chat(client, "금욜 일정 확인좀")
    await chat(client, "거기에 오전 11시 치과 추가")
    out = await chat(client, "그날 면접은 30분 앞당겨줘")
    assert [c["name"] for c in out["tool_calls"]] == ["update_schedule"]
    now = await titles()
    # the interview of that day moved; the dentist just added there did not
    assert (now["네이버 1차 면접"]["time"], now["치과"]["time"]) == ("14:30", "11:00")


async def test_the_day_of_a_step_glued_to_its_noun_is_that_step_s_day(stand_in, client):
    await seed()
    out = await chat(client, "카카오 면접날 오전 10시에 본사 방문 추가해줘")
    assert [c["name"] for c in out["tool_calls"]] == ["add_schedule"]
    visit = (await titles())["본사 방문"]
    assert (visit["date"], visit["time"]) == ("2026-12-10", "10:00")


async def test_one_stage_just_shown_is_added_under_the_users_name_and_all_of_them_copied(
    stand_in, client
):
    await embed(client, "u1", "kakao", "posting", POSTING)
    await chat(client, "카카오 공고 일정 다 알려줘")
    one = await chat(client, "거기 코테 날짜에 카카오 코테 연습 일정 만들어줘 시간도 공고대로")
    # one add, from the date the room already has, under the name the user gave it
    assert one["route"] == "schedule"
    assert one["tool_calls"] == [
        {
            "name": "add_schedule",
            "args": {"title": "카카오 코테 연습", "date": "2026-12-20", "time": "14:00"},
        }
    ]
    await chat(client, "카카오 공고 일정 다 알려줘")
    every = await chat(client, "그거 전부 내 캘린더에 넣어줘")
    assert every["route"] == "calendar"
    added = [c["args"] for c in every["tool_calls"] if c["name"] == "add_schedule"]
    assert [a["date"] for a in added] == ["2026-12-15", "2026-12-20", "2027-01-05"]
    assert all(a["title"].startswith("카카오 ") for a in added)


async def test_a_noun_after_a_pointer_picks_the_item_and_a_bare_memo_goes_to_the_last(
    stand_in, client
):
    await chat(client, "다음주 목요일 오후 4시 현대카드 면접 추가")
    await chat(client, "그날 오전 11시에 구두 수선도")
    moved = await chat(client, "아까 면접은 30분 당겨줘")
    assert moved["tool_calls"][0]["name"] == "update_schedule"
    assert moved["tool_calls"][0]["args"]["time"] == "15:30"
    assert (await titles())["현대카드 면접"]["time"] == "15:30"
    noted = await chat(client, "그리고 메모에 '포트폴리오 출력' 넣어줘")
    assert noted["tool_calls"][0]["name"] == "update_schedule"
    assert (await titles())["현대카드 면접"].get("memo") == "포트폴리오 출력"
    # the answer says what changed: the memo, then the new name
    assert "메모" in noted["answer"] and "포트폴리오 출력" in noted["answer"]
    renamed = await chat(client, "그거 이름을 '현대카드 최종 면접'으로 바꿔줘")
    assert renamed["answer"].startswith("일정 이름을 '현대카드 최종 면접'으로 바꿨어요")


async def test_the_posting_time_of_the_day_in_focus_moves_an_item_with_it(stand_in, client):
    await seed()
    await embed(client, "u1", "kakao", "posting", POSTING)
    await chat(client, "카카오 공고 코딩테스트 언제야?")
    moved = await chat(client, "내 네이버 1차 면접도 그 날짜로 바꿔줘 시간도 공고대로")
    assert moved["tool_calls"][0]["name"] == "update_schedule"
    assert {k: moved["tool_calls"][0]["args"].get(k) for k in ("date", "time")} == {
        "date": "2026-12-20",
        "time": "14:00",
    }


async def test_a_short_reported_question_after_a_document_answer_is_about_that_document(
    stand_in, client
):
    await embed(client, "u1", "kakao", "posting", POSTING)
    await chat(client, "카카오 공고 자격요건 뭐야")
    asked = await chat(client, "연봉은 얼마래?")
    assert asked["route"] == "rag" and "찾지 못했어요" in asked["answer"]


async def test_a_day_pointer_on_a_day_with_two_items_asks_which(stand_in, client):
    await seed()
    await chat(client, "12/4 일정 보여줘")
    await chat(client, "그날 저녁 7시에 스터디 모임 추가")
    asked = await chat(client, "그날 거 30분 당겨줘")
    assert asked["tool_calls"] == [] and "어느 일정" in asked["answer"]
    assert "네이버 1차 면접" in asked["answer"] and "스터디 모임" in asked["answer"]
    assert (await titles())["스터디 모임"]["time"] == "19:00"  # nothing was guessed


async def test_the_time_as_the_posting_gives_it_in_other_words(stand_in, client):
    await embed(client, "u1", "kakao", "posting", POSTING)
    await chat(client, "카카오 코테 언제야?")
    out = await chat(client, "그날 '코테 실전'으로 내 일정에 등록해줘, 시간도 공고에 적힌 대로")
    assert out["tool_calls"] == [
        {
            "name": "add_schedule",
            "args": {"title": "코테 실전", "date": "2026-12-20", "time": "14:00"},
        }
    ]


async def test_a_follow_up_naming_the_users_own_document_is_no_posting_question(stand_in, client):
    await embed(client, "u1", "kakao", "posting", POSTING)
    await embed(client, "u1", "cv", "resume", RESUME)
    await chat(client, "카카오 공고 자격요건 뭐야?")
    own = await chat(client, "거기 3년 이상이라는데 내 이력서상 경력은 언제부터 언제까지야?")
    assert own["route"] == "rag" and "2022.03" in own["answer"]


async def test_picking_among_the_lines_just_shown_stays_with_the_documents(stand_in, client):
    await embed(client, "u1", "cv", "resume", RESUME)
    await chat(client, "이력서 기술 스택에 뭐 적혀있어?")
    among = await chat(client, "거기 나온 것 중에 DB는 뭐야")
    assert among["route"] == "rag" and among["answer"].startswith("Java, Spring Boot")


async def test_that_week_s_weekday_is_of_the_week_the_room_was_about(stand_in, client):
    await embed(client, "u1", "kakao", "posting", POSTING)
    await chat(client, "카카오 코테 언제야?")  # 2026-12-20, a Sunday: the week of 12-14
    look = await chat(client, "그주 금요일에 나 머있지")
    assert look["tool_calls"] == [
        {"name": "get_schedule", "args": {"start_date": "2026-12-18", "end_date": "2026-12-18"}}
    ]
    add = await chat(client, "그날 오전10시 포폴 정리 넣어")
    assert add["tool_calls"][0]["args"]["date"] == "2026-12-18"


async def test_one_more_of_the_same_copies_time_and_memo_to_the_day_it_names(stand_in, client):
    await seed()
    await chat(client, "12월 8일 저녁 7시 스터디 모임 추가 메모: 알고리즘 2문제")
    again = await chat(client, "같은걸로 하나더 목욜에")
    assert again["tool_calls"] == [
        {
            "name": "add_schedule",
            "args": {
                "title": "스터디 모임",
                "date": "2026-12-03",
                "time": "19:00",
                "memo": "알고리즘 2문제",
            },
        }
    ]
    before = await chat(client, "그 전날도 같은걸로 하나더")
    assert before["tool_calls"][0]["args"]["date"] == "2026-12-02"


async def test_one_more_of_the_same_copies_an_added_item_changed_since(stand_in, client):
    await seed()
    await chat(client, "월욜 오전9시반 잡플래닛 리뷰 확인 넣어")
    await chat(client, "그거 메모에 둘다 보기 라고 써줘")
    again = await chat(client, "같은걸로 하나더 화욜에")
    assert again["tool_calls"] == [
        {
            "name": "add_schedule",
            "args": {
                "title": "잡플래닛 리뷰 확인",
                "date": "2026-12-01",
                "time": "09:30",
                "memo": "둘다 보기",
            },
        }
    ]


@pytest.mark.parametrize(
    ("turns", "args"),
    [
        # the same event the week after the one of the item just added
        (
            ["수요일 저녁 7시 독서 모임 추가", "그다음주 수요일도 똑같이"],
            {"title": "독서 모임", "date": "2026-12-09", "time": "19:00"},
        ),
        # "하나 더" on the day counted from it: no name of its own, the same event
        (
            ["헬스 12월 1일 저녁 8시 추가", "그 다음날도 같은 시간에 하나 더"],
            {"title": "헬스", "date": "2026-12-02", "time": "20:00"},
        ),
    ],
)
async def test_the_same_event_again_on_a_day_counted_from_it(stand_in, client, turns, args):
    await seed()
    for message in turns:
        out = await chat(client, message)
    assert out["tool_calls"] == [{"name": "add_schedule", "args": args}]


async def test_a_stage_by_its_place_and_a_day_counted_from_a_stage(stand_in, client):
    await embed(client, "u1", "kakao", "posting", POSTING)
    await seed()
    await chat(client, "카카오 전형 절차 알려줘")
    second = await chat(client, "거기서 두번째 단계는 언제야?")
    # the second stage only (the coding test), not the whole process
    assert "2026-12-20" in second["answer"] and "2026-12-15" not in second["answer"]
    look = await chat(client, "ㅇㅋ 그날 나 뭐 다른거 있나 봐줘")
    assert look["tool_calls"] == [
        {"name": "get_schedule", "args": {"start_date": "2026-12-20", "end_date": "2026-12-20"}}
    ]
    # the weekday said with "그 전날" is that day's (12-19, a Saturday), not the next Saturday
    add = await chat(client, "그 전날 토요일 오후 3시에 모의 코테 넣어줘")
    assert add["tool_calls"][0]["args"]["date"] == "2026-12-19"


async def test_an_english_reminder_counted_from_the_stage_just_shown(stand_in, client):
    await embed(client, "u1", "kakao", "posting", POSTING)
    await seed()
    await chat(client, "when is the kakao document deadline?")
    out = await chat(
        client,
        "Great, add a reminder two days before that at 9 in the morning titled 'final check'",
    )
    assert out["tool_calls"] == [
        {
            "name": "add_schedule",
            "args": {"title": "final check", "date": "2026-12-13", "time": "09:00"},
        }
    ]


@pytest.mark.parametrize(
    ("question", "move"),
    [
        ("카카오 공고 자격요건 뭐야", "ㅇㅋ 그회사 면접 1시간 늦춰줘"),
        ("카카오 공고 우대사항 알려줘", "아까 그 회사 면접 1시간 뒤로"),
        ("카카오 공고 자격요건 알려줘", "방금 말한 회사 면접 1시간 늦춰줘"),
    ],
)
async def test_that_company_is_the_company_of_the_posting_discussed(
    stand_in, client, question, move
):
    await embed(client, "u1", "kakao", "posting", POSTING)
    await seed()
    asked = await chat(client, question)
    assert asked["route"] == "rag"
    out = await chat(client, move)
    assert [c["name"] for c in out["tool_calls"]] == ["update_schedule"], out["answer"]
    now = await titles()
    # the interview of that company moved, not the other one (two interviews fit "면접")
    assert (now["카카오 면접"]["time"], now["네이버 1차 면접"]["time"]) == ("15:00", "15:00")


async def test_a_new_event_on_the_day_in_focus_keeps_its_memo_and_touches_no_item(stand_in, client):
    await embed(client, "u1", "kakao", "posting", POSTING)
    await seed()
    await chat(client, "카카오 서류 마감 언제야")
    out = await chat(client, "그 마감날 오후5시에 카카오 서류 최종점검 넣어줘 메모엔 마감 6시")
    assert out["tool_calls"] == [
        {
            "name": "add_schedule",
            "args": {
                "title": "카카오 서류 최종점검",
                "date": "2026-12-15",
                "time": "17:00",
                "memo": "마감 6시",
            },
        }
    ]
    assert (await titles())["카카오 면접"].get("memo") in (None, "")


async def test_the_week_after_the_period_looked_at(stand_in, client):
    await seed()
    await chat(client, "담주 일정 보여줘")  # 11-30 .. 12-06
    after = await chat(client, "그 담주는")
    assert after["tool_calls"] == [
        {"name": "get_schedule", "args": {"start_date": "2026-12-07", "end_date": "2026-12-13"}}
    ]
    await chat(client, "다음주 일정")
    day = await chat(client, "그 다음주 목요일은?")
    assert day["tool_calls"][0]["args"] == {"start_date": "2026-12-10", "end_date": "2026-12-10"}
    await chat(client, "add a call on Dec 2 at 9am")
    week = await chat(client, "and what else do I have that week?")
    assert week["tool_calls"][0]["args"] == {"start_date": "2026-11-30", "end_date": "2026-12-06"}


async def test_what_a_job_does_is_its_duties(stand_in, client):
    await embed(client, "u1", "kakao", "posting", POSTING_WITH_DUTIES)
    out = await chat(client, "카카오 백엔드 포지션 무슨 일 하는 거야?")
    assert out["route"] == "rag" and out["answer"].startswith("커머스 API 개발")


def test_an_english_pronoun_points_back_only_at_the_posting_s_company():
    # "they/their" of the posting's company point back (session 29 rows) …
    for text in ("and what do they ask for?", "when's their coding test?", "do they want Java?"):
        assert points_back(text), text
    # … any other pronoun does not (session 30 review)
    for text in ("add lunch with them on friday at noon", "their mom's birthday on the 12th"):
        assert not points_back(text), text


# --- session 30 (chat_xa_dev12): the other posting, a month, what an item is not ----------


@pytest.mark.parametrize(
    ("first", "other"),
    [
        ("카카오 코테 언제임?", "what about the other company?"),
        ("카카오 서류 마감 언제야", "ㅇㅋ 그럼 다른 데는?"),
        ("네이버 코테 몇시야", "나머지 회사는?"),
    ],
)
async def test_the_other_company_is_the_user_s_other_posting(stand_in, client, first, other):
    await _postings(client)
    one = await chat(client, first)
    assert one["route"] == "calendar"
    out = await chat(client, other)
    assert out["route"] == "calendar"
    assert _looked_up(out) == [d for d in ("kakao", "naver") if d not in _looked_up(one)]


async def test_the_other_company_after_a_document_answer_reads_the_other_posting(stand_in, client):
    await _postings(client)
    first = await chat(client, "카카오 공고 자격요건 뭐야")
    assert "Java" in first["answer"]
    out = await chat(client, "그럼 다른 데는?")
    assert out["route"] == "rag"
    assert "Airflow" in out["answer"] and "Java" not in out["answer"]


async def test_a_day_of_that_month_is_in_the_month_just_looked_at(stand_in, client):
    await seed()
    await chat(client, "1월 일정 뭐 있어?")
    out = await chat(client, "그럼 그 달 5일 오후 2시에 카카오 1차 면접 넣어줘")
    assert out["tool_calls"] == [
        {
            "name": "add_schedule",
            "args": {"title": "카카오 1차 면접", "date": "2027-01-05", "time": "14:00"},
        }
    ]


async def test_an_item_said_by_what_it_is_not(stand_in, client):
    await seed()
    await chat(client, "다음 주 뭐 있지")
    await chat(client, "면접 말고 그 다른 거, 그거 저녁 8시로 옮겨줘")
    now = await titles()
    assert (now["코딩 스터디"]["time"], now["네이버 1차 면접"]["time"]) == ("20:00", "15:00")
    # a day said by what it is not is a correction of the day, not of the item
    await chat(client, "목요일 오후 7시에 라인 커피챗 넣어줘")
    out = await chat(client, "아 아니다 목요일 말고 금요일이었음")
    assert (await titles())["라인 커피챗"]["date"] == "2026-12-04", out["answer"]


async def test_a_quoted_memo_on_an_item_of_the_listing(stand_in, client):
    await seed()
    await chat(client, "12월 일정 싹 다 보여줘")
    await chat(client, "마지막 거 오후 3시로 바꿔줘")
    # the words of a quoted memo ask nothing ('자소서' is no document question), and the
    # ordinal counts in the listing, not the item just changed
    out = await chat(client, "아 그리고 두번째 건 메모 좀 달아줘 '자소서 다시 읽기'")
    assert out["route"] == "schedule"
    now = await titles()
    assert now["네이버 1차 면접"].get("memo") == "자소서 다시 읽기"
    assert not now["카카오 면접"].get("memo")


async def test_a_quoted_title_on_the_day_before_is_the_user_s(stand_in, client):
    await _postings(client)
    await chat(client, "카카오 코테 날짜가 공고에 언제로 나와있어?")
    await chat(client, "그날 오후 1시에 '코테 전 최종 점검' 넣어줘")
    out = await chat(client, "그 전날 밤 10시에도 '일찍 자기' 하나 넣어줘")
    assert out["tool_calls"] == [
        {
            "name": "add_schedule",
            "args": {"title": "일찍 자기", "date": "2026-12-19", "time": "22:00"},
        }
    ]


async def test_a_period_of_a_stage_after_a_document_answer_is_the_posting_s_dates(stand_in, client):
    await _postings(client)
    await chat(client, "카카오 공고에 근무지 나와 있어?")
    out = await chat(client, "그럼 서류 접수 기간은?")
    assert out["route"] == "calendar" and _looked_up(out) == ["kakao"]


# --- session 30 (chat_xa_dev13): corrections, putting back, asking back by a shared noun ---


async def test_a_correction_right_after_an_add_changes_the_item_just_added(stand_in, client):
    await seed()
    await chat(client, "목요일 오후 6시 쿠팡 커피챗 추가해줘")
    # 금요일 (12-04) already holds 네이버 1차 면접: the correction is of the coffee chat
    await chat(client, "아 잘못말함 금요일이야")
    now = await titles()
    assert now["쿠팡 커피챗"]["date"] == "2026-12-04"
    assert (now["네이버 1차 면접"]["date"], now["네이버 1차 면접"]["time"]) == (
        "2026-12-04",
        "15:00",
    )


async def test_put_back_right_after_a_delete(stand_in, client):
    await seed()
    await chat(client, "카카오 면접 지워줘")
    out = await chat(client, "헐 잘못 지움 ㅠㅠ 다시 넣어줘")
    assert out["tool_calls"] == [
        {
            "name": "add_schedule",
            "args": {"title": "카카오 면접", "date": "2026-12-10", "time": "14:00"},
        }
    ]


async def test_one_word_of_a_title_for_another(stand_in, client):
    await seed()
    await chat(client, "12월 22일 화요일 오후 3시 '배민 1차 면접' 추가")
    await chat(client, "아 배민 말고 배달의민족으로 이름 바꿔줘")
    now = await titles()
    assert "배달의민족 1차 면접" in now and "배민 1차 면접" not in now


async def test_a_greeting_before_a_formal_request_is_no_small_talk(stand_in, client):
    await seed()
    out = await chat(
        client,
        "안녕하세요. 제가 12월 4일에 면접이 하나 있는 것으로 기억하는데, 몇 시인지 확인 "
        "부탁드립니다.",
    )
    assert out["tool_calls"] == [
        {"name": "get_schedule", "args": {"start_date": "2026-12-04", "end_date": "2026-12-04"}}
    ]
    await chat(client, "감사합니다. 그 면접을 오후 다섯 시로 변경해 주시겠습니까?")
    assert (await titles())["네이버 1차 면접"]["time"] == "17:00"
    english = await chat(client, "Hi, can you show me everything I have scheduled in December?")
    assert [c["name"] for c in english["tool_calls"]] == ["get_schedule"]


async def test_two_items_of_that_day_sharing_the_noun_said_are_asked_about(stand_in, client):
    await seed()
    await chat(client, "모레 저녁 9시 영어 스터디 추가해줘")
    asked = await chat(client, "헐 그날 스터디 취소됐대 지워줘")
    assert asked["tool_calls"] == [] and "영어 스터디" in asked["answer"]
    assert "코딩 스터디" in asked["answer"]
    # a reply by the half of the day picks the one choice in it
    await chat(client, "다음주 금요일 오전 10시 CJ 면접 추가")
    await chat(client, "그날 면접 한 시간 미뤄줘")
    await chat(client, "오전 거요")
    now = await titles()
    assert (now["CJ 면접"]["time"], now["네이버 1차 면접"]["time"]) == ("11:00", "15:00")


async def test_a_propositive_asks_for_the_add(stand_in, client):
    await seed()
    out = await chat(client, "ㅇㅋ 그럼 스파크 공부 일정 잡자. 담주 월욜 밤 10시")
    assert out["tool_calls"] == [
        {
            "name": "add_schedule",
            "args": {"title": "스파크 공부", "date": "2026-11-30", "time": "22:00"},
        }
    ]


async def test_one_of_those_just_added_is_asked_about_and_the_reply_picks_it(stand_in, client):
    await seed()
    await chat(client, "낼 오전 10시 토스 코테, 모레 오후 3시 당근 면접 둘 다 넣어줘")
    asked = await chat(client, "아 근데 생각해보니 그 중 하나는 못 갈 듯 지워줘")
    assert asked["tool_calls"] == [] and "토스 코테" in asked["answer"]
    assert "당근 면접" in asked["answer"]
    await chat(client, "당근 거")
    now = await titles()
    assert "당근 면접" not in now and "토스 코테" in now


async def test_the_day_an_item_was_moved_to(stand_in, client):
    await seed()
    await chat(client, "카카오 면접 12월 17일로 옮겨줘")
    out = await chat(client, "그리고 바뀐 날 아침 9시에 '카카오 면접 준비'도 넣어주라")
    assert out["tool_calls"] == [
        {
            "name": "add_schedule",
            "args": {"title": "카카오 면접 준비", "date": "2026-12-17", "time": "09:00"},
        }
    ]


async def test_a_new_item_said_with_again_after_a_delete_is_added_as_said(stand_in, client):
    await seed()
    await chat(client, "카카오 면접 지워줘")
    out = await chat(client, "토익 시험 12월 20일 오전 9시로 다시 등록해줘")
    assert out["tool_calls"] == [
        {
            "name": "add_schedule",
            "args": {"title": "토익 시험", "date": "2026-12-20", "time": "09:00"},
        }
    ]


async def test_a_whole_word_of_a_title_is_swapped(stand_in, client):
    await seed()
    await chat(client, "12월 22일 오후 3시 '카카오페이 면접' 추가")
    await chat(client, "카카오페이 말고 토스로 이름 바꿔줘")
    assert "토스 면접" in await titles()


async def test_a_correction_naming_another_item_by_its_day_changes_that_item(stand_in, client):
    await seed()
    await chat(client, "토스 2차 면접 12월 3일 오전 11시 추가")
    # 12월 1일, not marked as the new value, describes the study on that day
    await chat(client, "아니 12월 1일 일정 8시로 바꿔줘")
    now = await titles()
    assert (now["코딩 스터디"]["time"], now["토스 2차 면접"]["time"]) == ("20:00", "11:00")


async def test_an_item_is_renamed_by_its_name_then_the_new_name_and_by_haejwo(stand_in, client):
    await seed()
    # the item as the object, then the new name: "A를 B로 이름 바꿔줘"
    await chat(client, "카카오 면접을 카카오 1차 면접으로 이름 바꿔줘")
    renamed = await titles()
    assert "카카오 1차 면접" in renamed and "카카오 면접" not in renamed
    # the item just added, renamed with 해줘
    await chat(client, "12월 9일 오후 1시 반 라인플러스 1차 기술면접 추가")
    await chat(client, "제목 그냥 라인 면접으로 해줘")
    now = await titles()
    assert "라인 면접" in now and now["라인 면접"]["time"] == "13:30"
    assert "라인플러스 1차 기술면접" not in now


async def test_the_stage_just_shown_goes_into_the_schedule_under_the_title_given(stand_in, client):
    await seed()
    await embed(client, "u1", "kakao", "posting", POSTING)
    await chat(client, "카카오 채용 일정 알려줘")
    added = await chat(client, "그 코테 내 일정에도 넣어줘 시간까지 똑같이. 제목은 카카오 코테")
    assert added["tool_calls"] == [
        {
            "name": "add_schedule",
            "args": {"title": "카카오 코테", "date": "2026-12-20", "time": "14:00"},
        }
    ]


async def test_a_memo_said_before_its_word_goes_on_the_item_just_changed(stand_in, client):
    await seed()
    await chat(client, "코딩 스터디 시간을 저녁 8시로 변경 부탁드려요")
    await chat(client, "그 일정에 '그래프 문제 3개 풀기'라고 메모도 남겨주세요")
    now = await titles()
    assert now["코딩 스터디"]["memo"] == "그래프 문제 3개 풀기"
    assert "그래프 문제 3개 풀기" not in now  # no item of that name added


async def test_the_hour_that_names_an_item_is_not_its_new_hour(stand_in, client):
    await seed()
    await chat(client, "담주 화욜에 뭐 있더라")
    await chat(client, "7시 거 1시간 당겨줘")
    assert (await titles())["코딩 스터디"]["time"] == "18:00"


async def test_the_earliest_of_a_kind_in_a_listing_is_counted_among_that_kind(stand_in, client):
    await seed()
    await chat(client, "앞으로 일정 다 보여줘")
    await chat(client, "거기서 제일 먼저 있는 면접 30분 당겨줘")
    now = await titles()
    assert now["네이버 1차 면접"]["time"] == "14:30"
    assert now["코딩 스터디"]["time"] == "19:00"


async def test_a_period_s_schedule_asked_is_the_user_s_own_even_with_a_company(stand_in, client):
    await seed()
    await embed(client, "u1", "kakao", "posting", POSTING)
    shown = await chat(client, "카카오 면접 날짜 좀 보자. 다다음주 일정 보여줘")
    assert shown["tool_calls"] == [
        {"name": "get_schedule", "args": {"start_date": "2026-12-07", "end_date": "2026-12-13"}}
    ]


async def test_a_pasted_notice_s_event_is_named_as_its_dated_line_names_it(stand_in, client):
    await seed()
    added = await chat(
        client,
        "[라인플러스] 면접 일정 안내\n안녕하세요 지원자님, 라인플러스 채용담당자입니다.\n"
        "1차 기술면접이 12월 9일(수) 오후 1시 30분으로 확정되었습니다.\n"
        "장소: 분당 본사 / 소요시간 약 1시간\n\n↑ 이거 일정에 넣어줘",
    )
    assert added["tool_calls"] == [
        {
            "name": "add_schedule",
            "args": {"title": "라인플러스 1차 기술면접", "date": "2026-12-09", "time": "13:30"},
        }
    ]


async def test_a_name_given_beside_an_add_names_the_added_item(stand_in, client):
    # session 31 review: "이름 … 해줘" beside an add is the new item's name, not a rename
    await seed()
    await chat(client, "12월 12일 오전 11시에 일정 하나 잡아줘. 제목 토스 코테로 해줘")
    await chat(client, "12월 13일 오후 3시 면접 일정 추가해줘 이름 라인 면접으로 해줘")
    now = await titles()
    assert now["토스 코테"]["date"] == "2026-12-12" and now["토스 코테"]["time"] == "11:00"
    assert now["라인 면접"]["date"] == "2026-12-13" and now["라인 면접"]["time"] == "15:00"
    assert now["카카오 면접"]["date"] == "2026-12-10"  # nothing renamed or moved


async def test_an_undecided_title_is_no_title(stand_in, client):
    await seed()
    await chat(client, "12월 12일 오후 2시 토스 코테 추가해줘, 제목은 아직 몰라")
    now = await titles()
    assert "토스 코테" in now and "아직 몰라" not in now


async def test_naming_another_of_the_user_s_documents_asks_the_same_question_of_it(
    stand_in, client
):
    # a portfolio is also a posting's step: "포폴은?" after a resume question is no stage
    await embed(client, "u1", "kakao", "posting", POSTING)
    await embed(client, "u1", "cv", "resume", RESUME)
    await embed(
        client, "u1", "pf", "portfolio", "[프로젝트]\nRedis 캐시로 상품 조회 API 응답 800ms → 120ms"
    )
    await chat(client, "카카오 코딩테스트 언제야?")
    await chat(client, "내 이력서에 Redis 관련해서 뭐라고 써놨었지")
    other = await chat(client, "포폴은?")
    assert other["route"] == "rag" and "120ms" in other["answer"]


async def test_a_stage_s_weekday_is_answered_of_the_posting_just_discussed(stand_in, client):
    await seed()
    await embed(client, "u1", "kakao", "posting", POSTING)
    await chat(client, "카카오 코딩테스트 언제야?")
    asked = await chat(client, "코테 몇요일?")
    assert asked["route"] == "calendar" and "2026-12-20(일)" in asked["answer"]


# --- session 32 (chat_xa_dev15): the answer to an ask-back, two changes, days left -------


async def test_a_memo_asked_back_goes_into_the_item_the_reply_names(stand_in, client):
    await seed()
    await chat(client, "다음 주 스케줄 좀 알려주세요")
    asked = await chat(client, "그거 메모에 '30분 일찍 출발' 넣어주세요")
    assert asked["tool_calls"] == []  # two items listed: which one?
    picked = await chat(client, "스터디요!")
    assert [c["name"] for c in picked["tool_calls"]] == ["update_schedule"]
    now = await titles()
    assert now["코딩 스터디"]["memo"] == "30분 일찍 출발"
    assert not now["네이버 1차 면접"].get("memo") and len(now) == 3


async def test_two_changes_of_one_item_in_one_message_are_one_change(stand_in, client):
    await seed()
    await chat(client, "12월 10일에 뭐 있는지 보여줘")
    out = await chat(client, "그거 오후 4시로 옮기고 제목도 카카오 1차 면접으로 바꿔줘")
    assert len(out["tool_calls"]) == 1
    assert {k: v for k, v in out["tool_calls"][0]["args"].items() if k != "schedule_id"} == {
        "time": "16:00",
        "title": "카카오 1차 면접",
    }
    both = await chat(client, "카카오 1차 면접 5시로 옮기고 네이버 면접은 6시로 옮겨줘")
    assert len(both["tool_calls"]) == 2  # two items: two changes
    now = await titles()
    assert now["카카오 1차 면접"]["time"] == "17:00" and now["네이버 1차 면접"]["time"] == "18:00"


async def test_a_bare_correction_after_an_add_moves_the_item_just_added(stand_in, client):
    await seed()
    await chat(client, "수욜 오후3시반 토스 최종면접 ㄱ")
    await chat(client, "아니 목욜")
    await chat(client, "add schedule pls: 토스 coffee chat, 12/2 4pm")
    await chat(client, "oh wait no 5시")
    now = await titles()
    assert now["토스 최종면접"]["date"] == "2026-12-03"
    assert now["토스 coffee chat"]["time"] == "17:00"


async def test_a_question_about_what_was_written_changes_nothing(stand_in, client):
    await _postings(client)
    await seed()
    out = await chat(client, "자소서 메모에 입사 가능 시기 적어놨었나?")
    assert out["route"] == "rag" and out["tool_calls"] == []
    assert len(await titles()) == 3


async def test_days_left_until_the_stage_just_discussed(stand_in, client):
    await _postings(client)
    await chat(client, "when is the kakao coding test?")
    out = await chat(client, "how many days left till then")
    assert out["route"] == "calendar" and _looked_up(out) == ["kakao"]
    assert "2026-12-20(일)" in out["answer"] and "21일" in out["answer"]  # from 11-29
    added = await chat(client, "그 전날 저녁 8시에 '코테 모의' 넣어줘")
    assert added["tool_calls"][0]["args"] == {
        "title": "코테 모의",
        "date": "2026-12-19",
        "time": "20:00",
    }


async def test_a_weekday_after_a_listing_is_the_listed_item_s(stand_in, client):
    await seed()
    await chat(client, "12월 일정 전부 보여줘")
    await chat(client, "목요일에 있는 거 메모에 '포트폴리오 출력해가기' 적어둬")
    now = await titles()
    assert now["카카오 면접"]["memo"] == "포트폴리오 출력해가기"  # 12-10, a Thursday
    assert len(now) == 3  # no item titled "거"


async def test_a_request_of_its_own_after_a_memo_ask_back_is_no_answer_to_it(stand_in, client):
    await seed()
    await chat(client, "면접 메모에 '정장' 넣어줘")  # two interviews: which one?
    out = await chat(client, "카카오 면접 4시로 옮겨줘")
    assert out["tool_calls"][0]["args"].get("time") == "16:00"
    now = await titles()
    assert now["카카오 면접"]["time"] == "16:00" and not now["카카오 면접"].get("memo")


async def test_an_english_take_back_after_a_listing_changes_nothing(stand_in, client):
    await seed()
    await chat(client, "12월 4일 일정 뭐야?")
    await chat(client, "wait 5시?")
    assert (await titles())["네이버 1차 면접"]["time"] == "15:00"


async def test_an_add_with_a_memo_after_a_listing_keeps_its_weekday(stand_in, client):
    await seed()
    await chat(client, "12월 일정 전부 보여줘")
    await chat(client, "목요일 오후 7시에 모의면접 추가해줘 메모에 포폴 지참")
    assert (await titles())["모의면접"]["date"] == "2026-12-03"  # the next Thursday


async def test_days_left_until_an_item_of_the_user_s_own_is_no_posting_question(stand_in, client):
    await _postings(client)
    await seed()
    await chat(client, "카카오 코딩테스트 언제야?")
    out = await chat(client, "코딩 스터디까지 몇일 남았지?")
    assert out["route"] == "schedule" and not _looked_up(out)


async def test_a_second_change_naming_an_item_the_user_lacks_changes_nothing_else(stand_in, client):
    await seed()
    out = await chat(client, "카카오 면접 3시로 옮기고 제목도 카카오 2차 면접으로 바꿔줘")
    assert len(out["tool_calls"]) == 1  # no listing before it: one change all the same
    await chat(client, "카카오 2차 면접 11일로 옮기고 라인 면접은 5시로 옮겨줘")
    now = await titles()
    assert (now["카카오 2차 면접"]["date"], now["카카오 2차 면접"]["time"]) == (
        "2026-12-11",
        "15:00",
    )  # 라인 면접 is no item of the user's: its 5시 is not put on another


async def test_the_start_of_a_period_just_shown_is_its_first_day(stand_in, client):
    await embed(
        client,
        "u1",
        "kakao",
        "posting",
        "[카카오] 백엔드 개발자 채용\n■ 접수기간\n2026.12.01 ~ 2026.12.15 18:00\n"
        "■ 일정\n- 코딩테스트: 2026.12.20(일) 14시\n",
    )
    shown = await chat(client, "카카오 공고 지원 기간 알려줘")
    assert "2026-12-01(화) ~ 2026-12-15(화) 18:00" in shown["answer"]
    added = await chat(client, "접수 시작하는 날 아침 9시에 '카카오 지원 시작' 넣어줘")
    assert added["tool_calls"][0]["args"] == {
        "title": "카카오 지원 시작",
        "date": "2026-12-01",
        "time": "09:00",
    }


async def test_a_stated_event_with_its_title_is_added_and_a_rename_stays_a_rename(stand_in, client):
    await seed()
    out = await chat(
        client,
        "12월 16일 오전 10시에 넥슨 서버개발 면접 있어요. 일정 제목은 '넥슨 1차'로 짧게 해주세요",
    )
    assert out["tool_calls"][0] == {
        "name": "add_schedule",
        "args": {"title": "넥슨 1차", "date": "2026-12-16", "time": "10:00"},
    }
    await chat(client, "12월 10일 면접 있잖아 제목은 카카오 최종으로 해줘")
    now = await titles()
    assert "카카오 최종" in now and "카카오 면접" not in now


# --- session 33: values said after an add, a restore, an item left alone ----------------


async def test_a_value_said_with_its_field_name_goes_into_the_item_just_added(stand_in, client):
    await seed()
    await chat(client, "12월 6일에 우테코 회고 모임 넣어줘")
    await chat(client, "시간은 오후 1시")
    day = await chat(client, "그날 다른 거 있나")
    await chat(client, "12/5 토요일에 쿠팡 과제 마감 추가해줘")
    await chat(client, "아 그거 밤 11시 59분까지야 시간도 넣어줘")
    now = await titles()
    assert now["우테코 회고 모임"]["time"] == "13:00"
    assert day["tool_calls"][0]["args"] == {"start_date": "2026-12-06", "end_date": "2026-12-06"}
    assert now["쿠팡 과제 마감"]["time"] == "23:59"
    assert "시간" not in now and len(now) == 5  # no event named "시간"


async def test_a_corrected_day_said_with_a_copula_moves_the_item_just_added(stand_in, client):
    await seed()
    await chat(client, "쿠팡 면접 12월 8일 오후 2시에 잡아줘")
    await chat(client, "아 날짜 잘못말함 9일임")
    assert (await titles())["쿠팡 면접"]["date"] == "2026-12-09"


async def test_an_item_deleted_by_mistake_is_put_back_as_it_was(stand_in, client):
    await seed()
    await chat(client, "코딩 스터디 삭제")
    out = await chat(client, "헐 잘못 지움 방금 지운 거 다시 살려줘")
    assert out["tool_calls"][0]["name"] == "add_schedule"
    back = (await titles())["코딩 스터디"]
    assert (back["date"], back["time"]) == ("2026-12-01", "19:00")


async def test_an_item_said_to_be_left_alone_is_not_the_one_changed(stand_in, client):
    await seed()
    await chat(client, "LG CNS 코테 12월 13일 오후 2시 추가")
    await chat(client, "그 주에 다른 일정 뭐 있어?")
    await chat(client, "카카오 면접은 그대로 두고 방금 넣은 거 하루 당겨줘")
    now = await titles()
    assert now["LG CNS 코테"]["date"] == "2026-12-12"
    assert now["카카오 면접"]["date"] == "2026-12-10"


async def test_a_notice_line_asked_for_as_a_memo_is_read_from_the_pasted_notice(stand_in, client):
    await seed()
    await chat(
        client,
        "[당근] 안녕하세요 김지원님, 1차 기술면접 일정 안내드립니다.\n"
        "- 일시: 12월 9일(수) 오후 4시\n- 장소: 판교 오피스 2층 라운지\n"
        "- 소요시간: 약 1시간\n이거 일정 추가해줘 '당근 1차 기술면접'으로",
    )
    await chat(client, "장소도 메모로 넣어줘")
    now = await titles()
    assert now["당근 1차 기술면접"]["memo"] == "판교 오피스 2층 라운지"
    assert "장소" not in now


async def test_my_item_set_to_the_posting_s_date_and_time_as_posted(stand_in, client):
    await _postings(client)
    await seed()
    await chat(client, "네이버 공고에 1차 면접 날짜 언제로 돼 있어?")
    await chat(client, "헐 내 일정엔 12월 4일로 돼있네;; 공고대로 날짜랑 시간 고쳐줘")
    moved = (await titles())["네이버 1차 면접"]
    assert moved["date"] == "2027-01-08"


# --- session 33 ---------------------------------------------------------------------------


async def test_polite_compound_requests_run_each_operation(stand_in, client):
    await seed()
    out = await chat(
        client, "네이버 1차 면접 12월 7일 오전 11시로 변경해주시고, 코딩 스터디는 삭제해주세요"
    )
    assert [c["name"] for c in out["tool_calls"]] == ["update_schedule", "delete_schedule"]
    now = await titles()
    assert (now["네이버 1차 면접"]["date"], now["네이버 1차 면접"]["time"]) == (
        "2026-12-07",
        "11:00",
    )
    assert "코딩 스터디" not in now


async def test_a_memo_in_the_sentence_after_its_request_or_after_an_add_is_kept(stand_in, client):
    await seed()
    await chat(client, "네이버 1차 면접에 메모 좀 달아줘. 신분증이랑 포트폴리오 출력본 챙기기")
    out = await chat(client, "낼 오후 1시 당근 코테 넣고 메모엔 '프로그래머스 환경'")
    now = await titles()
    assert now["네이버 1차 면접"]["memo"] == "신분증이랑 포트폴리오 출력본 챙기기"
    assert now["당근 코테"]["memo"] == "프로그래머스 환경"
    assert "프로그래머스 환경" in out["answer"]  # the answer says the memo went in


async def test_laughter_after_the_verb_is_not_part_of_the_title(stand_in, client):
    await seed()
    await chat(client, "크리스마스 이브 저녁 6시에 가족 모임 추가 ㅎㅎ")
    now = await titles()
    assert (now["가족 모임"]["date"], now["가족 모임"]["time"]) == ("2026-12-24", "18:00")


async def test_a_condition_on_a_delete_done_asks_for_the_listing(stand_in, client):
    await seed()
    await chat(client, "10일 2시 면접 삭제 ㄱㄱ")
    out = await chat(client, "지웠으면 12월 일정 다시 쫙 보여줘")
    assert out["tool_calls"] == [
        {"name": "get_schedule", "args": {"start_date": "2026-12-01", "end_date": "2026-12-31"}}
    ]


async def test_the_role_of_a_posting_comes_from_its_head_stored_with_every_chunk(stand_in, client):
    await _postings(client)
    out = await chat(client, "카카오 공고 포지션이 뭐야")
    assert out["route"] == "rag"
    assert out["answer"].startswith("백엔드 개발자"), out["answer"]
    naver = await chat(client, "네이버 공고 무슨 직무야", room="r2")
    assert naver["answer"].startswith("데이터 엔지니어"), naver["answer"]


async def test_a_notice_on_one_line_gives_its_event_as_title_and_its_place_as_memo(
    stand_in, client
):
    await seed()
    await chat(
        client,
        "[쿠팡] 안녕하세요 김지원님, 1차 기술면접 일정 안내드립니다. 일시: 2026년 12월 11일(금) "
        "오후 4시 / 장소: 잠실 본사\n← 이거 일정에 넣어줘",
    )
    await chat(client, "장소도 메모로 넣어줘")
    now = await titles()
    assert now["쿠팡 1차 기술면접"]["memo"] == "잠실 본사"


async def test_a_memo_about_the_place_goes_into_the_listed_item_of_that_weekday(stand_in, client):
    await seed()
    await chat(client, "다다음주 일정 알려줘")
    await chat(client, "거기 목요일 거에 장소 메모 좀 남겨줘. 판교 아지트")
    now = await titles()
    assert now["카카오 면접"]["memo"] == "판교 아지트" and len(now) == 3


async def test_review_guards_for_session_33_schedule_rules(stand_in, client):
    await seed()
    # a field kept of the item changed is no item left alone
    await chat(client, "카카오 면접 시간은 그대로 두고 날짜만 12월 11일로 옮겨줘")
    assert (await titles())["카카오 면접"]["date"] == "2026-12-11"
    # another of the item just added, on another day, is an add, not its time
    await chat(client, "12월 6일에 우테코 회고 모임 넣어줘")
    out = await chat(client, "12월 13일도 시간은 오후 1시로 하나 더 넣어줘")
    assert out["tool_calls"][0]["name"] == "add_schedule"
    # (the new one is another 우테코 회고 모임 since session 39: the first keeps no time)
    first = [i for i in await ScheduleStore(None).get("u1") if i["date"] == "2026-12-06"]
    assert [i.get("time") for i in first] == [None]
    # the user's own label of a title is no notice line
    out = await chat(client, "일정: 토스 커피챗 12월 7일 오후 2시 추가해줘")
    assert out["tool_calls"][0]["args"]["date"] == "2026-12-07"


async def test_a_question_about_a_labelled_memo_writes_nothing(stand_in, client):
    await seed()
    await chat(
        client,
        "[쿠팡] 안녕하세요 김지원님, 1차 기술면접 일정 안내드립니다. 일시: 2026년 12월 11일(금) "
        "오후 4시 / 장소: 잠실 본사\n← 이거 일정에 넣어줘",
    )
    out = await chat(client, "장소 메모 들어갔는지 보여줘")
    assert all(c["name"] == "get_schedule" for c in out["tool_calls"])
    assert not (await titles())["쿠팡 1차 기술면접"].get("memo")


async def test_session_33_dev18_references(stand_in, client):
    await seed()
    # the same again, of another item, right after a delete
    await chat(client, "네이버 면접 삭제")
    await chat(client, "코딩 스터디 걔도")
    assert set(await titles()) == {"카카오 면접"}
    # a reply to an ask-back by its day
    await chat(client, "내일 오전 10시 카카오뱅크 코테, 모레 오후 2시 카카오페이 코테 둘 다 넣어줘")
    await chat(client, "그 코테 시간 1시간 늦춰줘")
    await chat(client, "모레 꺼")
    assert (await titles())["카카오페이 코테"]["time"] == "15:00"
    # an ordinal counts among the last adds still there
    await chat(
        client,
        "12월 11일 오전 10시 삼성SDS 코테, 12일 오후 1시 LG CNS 면접, "
        "13일 오후 4시 포스코DX 면접 다 넣어줘",
    )
    assert "포스코DX 면접" in await titles()  # ("다" is no part of the title)
    await chat(client, "마지막에 말한 거 취소. 안 가기로 함")
    await chat(client, "첫 번째 건 메모에 '알고리즘 2문제' 적어둬")
    now = await titles()
    assert now["삼성SDS 코테"]["memo"] == "알고리즘 2문제" and "포스코DX 면접" not in now


async def test_a_mail_pasted_then_called_mail_gives_its_event(stand_in, client):
    await seed()
    await chat(
        client,
        "안녕하세요 김지원님, 라인플러스 인사팀입니다. 서류 전형 합격을 축하드립니다. "
        "1차 기술면접은 12월 16일(수) 오후 2시 30분에 화상으로 진행될 예정입니다.\n\n"
        "이렇게 메일 왔는데 일정에 등록 부탁드려요",
    )
    assert (await titles())["라인플러스 1차 기술면접"]["time"] == "14:30"


async def test_an_item_set_to_the_named_stage_of_the_posting_just_shown(stand_in, client):
    await _postings(client)
    await seed()
    await chat(client, "네이버 코테랑 1차 면접 날짜 공고에 뭐라고 나와있어")
    await chat(client, "면접은 내 일정에 있는 네이버 1차 면접을 공고에 나온 날짜랑 시간으로 바꿔줘")
    assert (await titles())["네이버 1차 면접"]["date"] == "2027-01-08"


async def test_a_when_only_follow_up_keeps_the_stage_and_that_day_follows(stand_in, client):
    await _postings(client)
    await seed()
    await chat(client, "네이버 코테 언제야")
    out = await chat(client, "몇 시에 봐?")
    assert "코딩테스트" in out["answer"] and "1차 면접" not in out["answer"]
    day = await chat(client, "그날 내 일정 뭐 있는지 봐줘")
    assert day["tool_calls"][0]["args"] == {"start_date": "2026-12-19", "end_date": "2026-12-19"}


async def test_that_interview_of_a_listing_and_an_english_field_word(stand_in, client):
    await seed()
    await chat(client, "다음 주에 면접 있는 거 맞지?")
    await chat(client, "그 면접 전날 저녁 8시에 모의면접 넣어줘")
    await chat(client, "네이버 1차면접 memo 추가: 코테 복기하기")
    await chat(client, "time도 4pm으로 ㄱㄱ")
    now = await titles()
    assert (now["모의면접"]["date"], now["모의면접"]["time"]) == ("2026-12-03", "20:00")
    assert now["네이버 1차 면접"]["time"] == "16:00"


async def test_second_review_guards_for_the_room(stand_in, client):
    await _postings(client)
    await seed()
    # the whole schedule asked after one stage is no longer that stage's day
    await chat(client, "카카오 코테 언제야?")
    await chat(client, "카카오 전형 일정 전부 언제야?")
    out = await chat(client, "그날 스터디 추가해줘")
    assert out["tool_calls"] == []
    # after a delete, the remaining items are listed, a new event is no delete
    await chat(client, "코딩 스터디 지워줘")
    listed = await chat(client, "남은 일정도")
    assert [c["name"] for c in listed["tool_calls"]] == ["get_schedule"]
    # a new value in a reply to an ask-back is no choice
    await chat(client, "면접 시간 바꿔줘")
    again = await chat(client, "오후 3시로")
    assert not any(c["name"] == "update_schedule" for c in again["tool_calls"])


async def test_a_change_then_a_memo_in_one_sentence_is_one_change_of_the_named_item(
    stand_in, client
):
    ids = await seed()
    # the verb left once the memo is read ("넣어줘") was the memo's: no add, no ask-back
    # between the item named and the one whose time the new time happens to be
    out = await chat(client, "네이버 면접 오후 2시로 당기고 메모에 '신분증 챙기기' 넣어줘")
    assert out["tool_calls"] == [
        {
            "name": "update_schedule",
            "args": {
                "schedule_id": ids["네이버 1차 면접"],
                "time": "14:00",
                "memo": "신분증 챙기기",
            },
        }
    ]
    assert "14:00" in out["answer"] and "신분증 챙기기" in out["answer"]


# --- session 34 (chat_xa_dev19) ----------------------------------------------------------


async def test_the_one_a_word_describes_among_the_items_just_listed(stand_in, client):
    ids = await seed()
    await chat(client, "12월 10일 오전 9시 SK 인적성 등록해줘")
    await chat(client, "그날 일정 다 보여줘")
    # "저녁 거" / "오후 거": the listed item in that half of the day, not the one just added
    out = await chat(client, "오후 꺼는 30분 뒤로 미뤄줘")
    assert out["tool_calls"] == [
        {"name": "update_schedule", "args": {"schedule_id": ids["카카오 면접"], "time": "14:30"}}
    ]


async def test_both_of_the_listed_items_each_get_the_change(stand_in, client):
    ids = await seed()
    await chat(client, "12월 1일부터 4일까지 일정 보여줘")
    out = await chat(client, "둘 다 이틀씩 뒤로 미뤄줘")
    assert out["tool_calls"] == [
        {
            "name": "update_schedule",
            "args": {"schedule_id": ids["코딩 스터디"], "date": "2026-12-03"},
        },
        {
            "name": "update_schedule",
            "args": {"schedule_id": ids["네이버 1차 면접"], "date": "2026-12-06"},
        },
    ]
    # "둘 다" over a listing of three is no answer: nothing is changed
    await chat(client, "12월 일정 보여줘")
    out = await chat(client, "둘 다 하루씩 당겨줘")
    assert [c["name"] for c in out["tool_calls"]] != ["update_schedule"] * 2


async def test_one_of_the_two_just_added_is_asked_back_then_picked_by_name(stand_in, client):
    await seed()
    await chat(client, "12월 14일 월요일 오전 10시 GS칼텍스 면접 추가해줘")
    await chat(client, "12월 15일 화요일 오후 3시 에쓰오일 면접도")
    out = await chat(client, "둘 중 하나 시간 바뀌었대 오후 5시로")
    assert out["tool_calls"] == [] and "GS칼텍스" in out["answer"] and "에쓰오일" in out["answer"]
    out = await chat(client, "에쓰오일 거")
    now = await titles()
    assert now["에쓰오일 면접"]["time"] == "17:00" and now["GS칼텍스 면접"]["time"] == "10:00"


async def test_memo_phrases_said_of_a_topic_or_after_a_colon(stand_in, client):
    await seed()
    await chat(client, "12/14 월 오전 10시 LG 인적성, 12/16 수 오후 1시 LG 임원면접 둘 다 넣어줘")
    # the item its words name (인적성은: the analyser splits it, the title holds it whole)
    await chat(client, "인적성은 온라인 응시라고 메모 달아줘")
    now = await titles()
    assert now["LG 인적성"].get("memo") == "온라인 응시" and not now["LG 임원면접"].get("memo")
    # a phrase after the topic it is said of, on the item named by position
    await chat(client, "두 번째 거 복장은 정장 차림이라고 메모해줘")
    assert (await titles())["LG 임원면접"].get("memo") == "정장 차림"
    # "메모해줘: …" on the item just added
    await chat(client, "12월 18일 오후 4시 병원 실무면접 넣어줘")
    await chat(client, "거기 챙길 거 메모해줘: 면허증 사본, 증명사진")
    assert (await titles())["병원 실무면접"].get("memo") == "면허증 사본, 증명사진"


async def test_a_notice_with_two_dated_lines_asked_for_both_is_two_adds(stand_in, client):
    await seed()
    notice = (
        "[한국전력공사] 필기전형 합격 안내\n"
        "- 인성검사: 12/11(금) 오후 2시\n"
        "- 직무면접: 12/18(금) 오전 9시 30분\n"
        "합격을 축하드립니다.\n\n"
    )
    out = await chat(client, notice + "둘 다 일정에 넣어줘 '한전 인성', '한전 면접'으로")
    assert [c["args"] for c in out["tool_calls"]] == [
        {"title": "한전 인성", "date": "2026-12-11", "time": "14:00"},
        {"title": "한전 면접", "date": "2026-12-18", "time": "09:30"},
    ]
    # without titles: each line's label after the organisation
    out = await chat(client, notice + "이거 전부 등록해줘", room="r2")
    titles_said = [c["args"]["title"] for c in out["tool_calls"]]
    assert titles_said == ["한국전력공사 인성검사", "한국전력공사 직무면접"]


async def test_the_question_asked_before_small_talk_is_asked_again_of_another(stand_in, client):
    await _postings(client)
    await chat(client, "카카오 공고 자격요건 뭐야?")
    await chat(client, "아 면접 생각하니까 떨린다")
    out = await chat(client, "아까 그 질문 네이버 공고로도 알려줘")
    assert out["route"] == "rag"
    assert out["answer"].startswith("Python, Airflow")


async def test_a_shorter_name_for_the_item_just_added(stand_in, client):
    await seed()
    await chat(client, "모레 저녁 8시 디자인 포폴 리뷰 모임 추가")
    out = await chat(client, "그거 이름 '포폴 리뷰'로 줄여줘")
    assert out["route"] == "schedule"
    assert "포폴 리뷰" in await titles() and "디자인 포폴 리뷰 모임" not in await titles()


async def test_what_can_be_done_here_is_answered_not_declined(stand_in, client):
    out = await chat(client, "여기서 일정 삭제도 돼?")
    assert out["route"] == "general" and out["tool_calls"] == []
    assert out["answer"].startswith("네, 개인 일정은") and "어려워요" not in out["answer"]


async def test_s34_review_guard_every_one_of_a_day_named_is_only_that_day_s(stand_in, client):
    # guard (passes before the session too): "전부" with a day named keeps to that day
    await seed()
    await chat(client, "다음 주 일정 보여줘")
    await chat(client, "금요일 일정 전부 지워줘")
    assert set(await titles()) == {"코딩 스터디", "카카오 면접"}
    # and a document question asked before is no reason to read a request as one
    await _postings(client)
    await chat(client, "카카오 공고 자격요건 뭐야?")
    out = await chat(client, "아까 물어본 질문은 됐고, 카카오 면접 4시로 옮겨줘")
    assert out["route"] == "schedule" and (await titles())["카카오 면접"]["time"] == "16:00"


async def test_an_item_spoken_of_in_small_talk_is_the_one_a_later_clause_means(stand_in, client):
    await seed()  # 네이버 1차 면접 12-04 (Fri) 15:00, 카카오 면접 12-10 14:00
    # by a word of its title and its day
    await chat(client, "금요일 네이버 면접 때문에 벌써 떨려요 ㅠㅠ")
    await chat(client, "그럼 면접 전날 밤 10시에 '일찍 자기' 넣어줘")
    # by a period that holds only it
    await chat(client, "나 다음주에 면접 있는데 너무 떨려", room="r2")
    await chat(client, "그 면접 전날 저녁 8시에 '면접 리허설' 넣어줘", room="r2")
    # a change that points back
    await chat(client, "카카오 면접 준비가 제일 걱정이야", room="r3")
    await chat(client, "그 면접 30분 미뤄줘", room="r3")
    now = await titles()
    assert (now["일찍 자기"]["date"], now["일찍 자기"]["time"]) == ("2026-12-03", "22:00")
    assert (now["면접 리허설"]["date"], now["면접 리허설"]["time"]) == ("2026-12-03", "20:00")
    assert now["카카오 면접"]["time"] == "14:30" and now["네이버 1차 면접"]["time"] == "15:00"


async def test_small_talk_that_names_no_one_item_still_asks(stand_in, client):
    await seed()
    await chat(client, "면접 너무 떨려요")
    out = await chat(client, "그 면접 30분 미뤄줘")
    assert out["tool_calls"] == []  # two interviews, neither singled out: asked back
    now = await titles()
    assert now["카카오 면접"]["time"] == "14:00" and now["네이버 1차 면접"]["time"] == "15:00"


async def test_the_next_one_of_a_listing_and_the_slot_a_change_left(stand_in, client):
    await seed()  # 코딩 스터디 12-01 19:00, 네이버 1차 면접 12-04 15:00, 카카오 면접 12-10 14:00
    await chat(client, "다음주 일정 알려줘")
    await chat(client, "저녁 7시 거 빼줘")
    await chat(client, "그 다음 거는 메모에 '포폴 출력' 달아줘")
    # the slot the change left
    await chat(client, "카카오 면접 하루 뒤 같은 시간으로 옮겨졌어 수정해줘", room="r2")
    await chat(client, "그럼 비는 원래 시간에 딜로이트 면접 넣어줘", room="r2")
    now = await titles()
    assert "코딩 스터디" not in now and now["네이버 1차 면접"]["memo"] == "포폴 출력"
    assert (now["카카오 면접"]["date"], now["카카오 면접"]["time"]) == ("2026-12-11", "14:00")
    assert (now["딜로이트 면접"]["date"], now["딜로이트 면접"]["time"]) == ("2026-12-10", "14:00")


async def test_a_listing_with_nothing_touched_has_no_next_one(stand_in, client):
    await seed()
    await chat(client, "다음주 일정 알려줘")
    out = await chat(client, "그 다음 거 지워줘")
    assert out["tool_calls"] == [] and len(await titles()) == 3


async def test_a_memo_for_that_interview_goes_to_the_one_just_spoken_of(stand_in, client):
    await seed()
    await chat(client, "앞으로 잡힌 일정 다 보여줘")
    await chat(client, "네이버 면접 준비해야겠네.. 네이버 공고 우대사항 뭐였지")
    await chat(client, "그 면접 메모에 'Elasticsearch 복습' 추가")
    now = await titles()
    assert now["네이버 1차 면접"]["memo"] == "Elasticsearch 복습"
    assert not now["카카오 면접"].get("memo")


async def test_the_items_the_user_set_are_listed_beside_a_stage_named_as_the_reason(
    stand_in, client
):
    await _postings(client)
    await seed()
    out = await chat(
        client, "12월에 잡힌 일정 전부 보여주세요. 지방직 원서 접수랑 겹치는지 보려구요"
    )
    assert out["route"] == "schedule"
    assert out["tool_calls"][0]["args"] == {"start_date": "2026-12-01", "end_date": "2026-12-31"}
    # guard: the dates a posting sets are the calendar's
    assert (await chat(client, "카카오 공고에 잡힌 일정 알려줘"))["route"] == "calendar"


async def test_s35_review_guards_for_the_room(stand_in, client):
    await _postings(client)
    await seed()
    # free time in general is no slot a change left
    await chat(client, "네이버 면접 30분 미뤄줘")
    out = await chat(client, "빈 시간에 헬스 일정 넣어줘")
    assert out["tool_calls"] == []
    # a question about a posting speaks of the posting, not of the interview
    await chat(client, "카카오 공고 우대사항 뭐야?", room="r2")
    out = await chat(client, "면접 전날 저녁 8시에 복습 일정 넣어줘", room="r2")
    assert out["tool_calls"] == []
    # "다음 거" in reply to an ask-back is no next one of the listing
    await chat(client, "12월 일정 보여줘", room="r3")
    await chat(client, "코딩 스터디 지워줘", room="r3")
    await chat(client, "면접 30분 미뤄줘", room="r3")
    await chat(client, "다음 거", room="r3")
    now = await titles()
    assert now["네이버 1차 면접"]["time"] == "15:30" and now["카카오 면접"]["time"] == "14:00"


async def test_s35_dev22_families(stand_in, client):
    await _postings(client)
    await seed()
    # a memo given before the word 메모, then the same memo on another item
    await chat(client, "네이버 1차 면접에 '포트폴리오 출력본 3부' 메모 남겨줘")
    await chat(client, "카카오 면접에도 똑같이")
    # a correction of the value just said, of the item just added, though another item
    # has that value too
    await chat(client, "12월 23일 오후 2시에 교육청 심층면접이 있어요. 등록해 주세요", room="r2")
    await chat(
        client, "아 죄송해요, 오후 2시가 아니라 오전 10시네요. 수정 부탁드립니다.", room="r2"
    )
    now = await titles()
    assert now["네이버 1차 면접"]["memo"] == "포트폴리오 출력본 3부"
    assert now["카카오 면접"]["memo"] == "포트폴리오 출력본 3부"
    assert now["교육청 심층면접"]["time"] == "10:00" and now["카카오 면접"]["time"] == "14:00"
    # "my upcoming interviews" are the user's; "one of them" asks back; "the later one" picks
    listed = await chat(client, "show me all my upcoming interviews", room="r3")
    assert listed["route"] == "schedule"
    asked = await chat(client, "one of them got cancelled, delete it", room="r3")
    assert asked["tool_calls"] == []
    await chat(client, "the later one", room="r3")
    assert "교육청 심층면접" not in await titles()
    # "몇 시였지?" after a posting's stage: that posting's
    await chat(client, "네이버 코테 언제야?", room="r4")
    out = await chat(client, "몇 시였지?", room="r4")
    assert _looked_up(out) == ["naver"]
    # what a posting asks, right after its dates: its text
    await chat(client, "카카오 접수 언제까지야?", room="r5")
    out = await chat(client, "거기 경력 몇 년 이상 요구해?", room="r5")
    assert out["route"] == "rag" and "3년 이상" in out["answer"].split("\n")[0]


async def test_s36_a_question_with_a_verb_of_its_own_after_a_postings_dates_asks_its_text(
    stand_in, client
):
    await _postings(client)
    for room, question in enumerate(
        ("거기 학력 제한 있어?", "거기 영어 점수 봐?", "거기 나이 제한 있나요?")
    ):
        await chat(client, "카카오 접수 언제까지야?", room=f"q{room}")
        out = await chat(client, question, room=f"q{room}")
        assert out["route"] == "rag", question
    # guard: a question of when, or a company said again, stays with the dates
    await chat(client, "네이버 코테 언제야?", room="w")
    assert _looked_up(await chat(client, "그럼 몇 시에 봐?", room="w")) == ["naver"]
    assert _looked_up(await chat(client, "카카오는?", room="w")) == ["kakao"]


async def test_an_item_of_a_list_by_its_position_is_looked_for_in_the_document_named(
    stand_in, client
):
    await embed(
        client,
        "u1",
        "cv",
        "resume",
        "[기술 스택]\nJava, Spring Boot, Kafka\n[경력]\n"
        "에이비씨커머스 2022.03 ~ 2025.02\n- Kafka 기반 주문 이벤트 처리로 피크 처리량 3배 향상",
    )
    await embed(client, "u1", "kakao", "posting", POSTING_WITH_DUTIES)  # 우대사항: Kafka, …
    await chat(client, "카카오 공고 우대사항 알려줘")
    out = await chat(client, "첫번째 거 관련해서 내 이력서엔 뭐라고 써놨지?")
    assert out["route"] == "rag" and "Kafka" in out["answer"].split("\n")[0]
    assert "이력서" in out["answer"]


async def test_s35_second_review_guards(stand_in, client):
    await _postings(client)
    await seed()
    # "X 말고": the item excluded is not the one meant, just added or not
    await chat(client, "12월 4일 오후 3시 토스 면접 추가해줘")
    out = await chat(client, "아니 4일 면접 말고 10일 면접 지워줘")
    assert "토스 면접" in await titles()
    # a question about a memo asks for none
    out = await chat(client, "'정장 지참' 메모해둔 거 뭐였지", room="r2")
    assert not any(c["name"] == "add_schedule" for c in out["tool_calls"])
    # advice about "my interviews" is no listing
    out = await chat(client, "How should I prepare for my interviews?", room="r3")
    assert out["route"] == "general"
    # a number alone after a posting's dates stays with the dates
    await chat(client, "카카오 서류 마감 언제야", room="r4")
    out = await chat(client, "그날 오전에 스터디 가능?", room="r4")
    assert out["route"] != "rag"


# --- session 36: references that reach past other turns (chat_xa_dev23's families) -------

RESUME_WITH_RESULTS = """[경력]
에이비씨커머스 2022.03 ~ 2025.02
- 주문 API 개발, MySQL 쿼리 튜닝으로 응답 시간 40% 단축
- Redis 분산 락으로 중복 결제 0건 달성
[자격증]
정보처리기사 (2021)
"""


async def test_s36_an_operation_pointed_back_past_other_talk(stand_in, client):
    await _postings(client)
    await seed()
    # a delete taken back after a question about a posting
    await chat(client, "코딩 스터디 삭제해줘", room="a")
    await chat(client, "네이버 공고에 우대사항 뭐 있었지?", room="a")
    out = await chat(client, "아 아까 지운 거 다시 넣어줘 ㅠ 갈 수 있게 됐어", room="a")
    assert out["route"] == "schedule"
    assert (await titles())["코딩 스터디"]["date"] == "2026-12-01"
    # the clipped imperative 빼, of the listing's Tuesday item, after a document answer
    await chat(client, "담주 일정", room="b")
    await chat(client, "카카오 공고 자격요건 뭐냐", room="b")
    await chat(client, "아까 화요일 거 빼", room="b")
    assert "코딩 스터디" not in await titles()
    # another item the day after the one added two turns before, at its time
    await chat(client, "12월 17일 오전 10시 체력시험 넣어줘", room="c")
    await chat(client, "카카오 공고 자격요건 뭐냐", room="c")
    await chat(client, "그 다음날 같은 시간에 '체력시험 결과 확인' 하나 더", room="c")
    added = (await titles())["체력시험 결과 확인"]
    assert (added["date"], added["time"]) == ("2026-12-18", "10:00")


async def test_s36_the_listings_weekday_item_and_position_beat_the_last_add(stand_in, client):
    await _postings(client)
    await seed()
    await chat(client, "다다음주 일정 알려줘", room="a")  # 카카오 면접, Thursday 12-10
    await chat(client, "그 주 수요일 오후 3시에 포트폴리오 리뷰 넣어줘", room="a")
    await chat(client, "카카오 공고 자격요건 뭐냐", room="a")
    await chat(client, "아까 목요일 거 오후 4시로 미뤄줘", room="a")
    now = await titles()
    assert now["카카오 면접"]["time"] == "16:00" and now["포트폴리오 리뷰"]["time"] == "15:00"
    # a memo for the first of a day's listing, with the day said: no new item
    await chat(client, "담주 금요일 오후 5시 학부모 상담 연수 넣어줘", room="b")
    await chat(client, "금요일 일정 전체 보여줘", room="b")
    await chat(client, "아까 금요일 목록에서 첫 번째 거 메모에 '정장' 적어줘", room="b")
    now = await titles()
    assert now["네이버 1차 면접"]["memo"] == "정장" and len(now) == 5


async def test_s36_two_periods_asked_together_are_one_listing(stand_in, client):
    await seed()
    out = await chat(client, "다음 주랑 그 다음 주 일정 보여줘")
    args = out["tool_calls"][0]["args"]
    assert (args["start_date"], args["end_date"]) == ("2026-11-30", "2026-12-13")
    assert "카카오 면접" in out["answer"] and "네이버 1차 면접" in out["answer"]


async def test_s36_a_memo_pointed_to_is_written_out(stand_in, client):
    await embed(client, "u1", "cv", "resume", RESUME_WITH_RESULTS)
    await _postings(client)
    await seed()
    # a line a document answer showed, pointed to by what it was about, a turn later
    await chat(client, "이력서에 Redis 관련 성과 뭐라고 돼있어?", room="a")
    await chat(client, "담주 금요일 일정 확인해줘", room="a")
    await chat(client, "그 면접 메모에 아까 그 Redis 얘기 적어줘", room="a")
    assert (await titles())["네이버 1차 면접"]["memo"] == "Redis 분산 락으로 중복 결제 0건 달성"
    # the part of a line that holds it, said before the item
    await chat(client, "내 이력서에 MySQL 쿼리 튜닝 성과 뭐라고 썼더라", room="b")
    await chat(client, "좋아 그 응답시간 줄인 얘기 카카오 면접 메모에 적어줘", room="b")
    assert (await titles())["카카오 면접"]["memo"] == "MySQL 쿼리 튜닝으로 응답 시간 40% 단축"
    # the memo the room last wrote, asked again after other talk
    await chat(client, "코딩 스터디 메모에 '백준 2문제' 적어줘", room="c")
    await chat(client, "카카오 공고 자격요건 뭐냐", room="c")
    await chat(client, "카카오 면접에도 같은 메모 달아줘", room="c")
    assert (await titles())["카카오 면접"]["memo"] == "백준 2문제"
    # guard: a memo that points to nothing the room was shown stays as said
    await chat(client, "네이버 면접 메모에 '그 Kafka 얘기' 적어줘", room="d")
    assert (await titles())["네이버 1차 면접"]["memo"] == "그 Kafka 얘기"


async def test_s36_the_same_amount_and_the_time_set_earlier(stand_in, client):
    await _postings(client)
    await seed()
    await chat(client, "네이버 면접 30분 당겨줘", room="a")
    out = await chat(client, "카카오 공고에서 코테 몇시야", room="a")
    assert _looked_up(out) == ["kakao"]
    await chat(client, "카카오 면접도 그만큼 당겨줘", room="a")
    assert (await titles())["카카오 면접"]["time"] == "13:30"
    # "아까 그 시간" after a listing: the time of the item the room added, not a listed one's
    await chat(client, "목요일 오후 2시에 신라호텔 컨시어지 면접 넣어줘", room="b")
    await chat(client, "다음 주 일정 보여줘", room="b")
    await chat(client, "금요일에도 아까 그 시간으로 '신라호텔 2차 면접' 추가", room="b")
    added = (await titles())["신라호텔 2차 면접"]
    assert (added["date"], added["time"]) == ("2026-12-04", "14:00")
    # a user's own event named and timed on a posting's stage day, with other talk between
    await chat(client, "카카오 채용 전형 순서 좀 알려줘", room="c")
    await chat(client, "코테 준비는 보통 어떻게 해?", room="c")
    out = await chat(
        client, "아까 그 공고 코테 날 오전 11시에 '코테 최종 복습' 일정 넣어줘", room="c"
    )
    added = (await titles())["코테 최종 복습"]
    assert (added["date"], added["time"]) == ("2026-12-20", "11:00")


async def test_s36_review_guards(stand_in, client):
    await embed(client, "u1", "cv", "resume", RESUME_WITH_RESULTS)
    await _postings(client)
    await seed()
    # after a document answer, "그거 빼고" is "except that", and a note to oneself no request
    await chat(client, "다음 주 일정 보여줘", room="a")
    await chat(client, "카카오 공고 자격요건 뭐야", room="a")
    out = await chat(client, "그거 빼고 우대사항만 알려줘", room="a")
    assert out["route"] == "rag"
    out = await chat(client, "그거 내 이력서에도 추가해야겠다", room="a")
    assert out["route"] != "schedule"
    assert len(await titles()) == 3
    # "그만큼" in small talk after a move moves nothing
    await chat(client, "카카오 면접 하루 미뤄줘", room="b")
    await chat(client, "그만큼 준비 시간이 늘었네 ㅎㅎ", room="b")
    assert (await titles())["카카오 면접"]["date"] == "2026-12-11"
    # a calendar ordinal with a quoted title and memo is a new event, not a memo on an item
    await chat(client, "다음 주 일정 보여줘", room="c")
    await chat(
        client, "다음 달 두 번째 토요일에 '알고리즘 모의고사' 추가해줘 메모 '노트북'", room="c"
    )
    now = await titles()
    assert "알고리즘 모의고사" in now and not now["네이버 1차 면접"].get("memo")
    # a quoted memo is written as quoted, even when it says "그 … 얘기"
    await chat(client, "이력서에 Redis 관련 성과 뭐라고 돼있어?", room="d")
    await chat(client, "카카오 면접 메모에 '그 Redis 얘기는 짧게' 적어줘", room="d")
    assert (await titles())["카카오 면접"]["memo"] == "그 Redis 얘기는 짧게"
    # one more look is a look; a day-word question after a stage's date stays with the dates
    await chat(client, "다음 주 일정 보여줘", room="e")
    out = await chat(client, "그 다음 주도 하나 더 보여줘", room="e")
    assert out["tool_calls"][0]["name"] == "get_schedule"
    await chat(client, "카카오 코테 언제야?", room="f")
    assert _looked_up(await chat(client, "그거 주말에 봐?", room="f")) == ["kakao"]


async def test_s36_a_day_or_time_asked_for_completes_the_waiting_operation(stand_in, client):
    await seed()
    asked = await chat(client, "토스 최종면접 일정 추가해줘", room="a")
    assert asked["tool_calls"] == [] and "언제" in asked["answer"]
    await chat(client, "금요일 오후 3시", room="a")
    added = (await titles())["토스 최종면접"]
    assert (added["date"], added["time"]) == ("2026-12-04", "15:00")
    # which one, then when: the item picked waits for its new time
    await chat(client, "면접 시간 바꿔줘", room="b")
    await chat(client, "네이버 거", room="b")
    await chat(client, "4시로", room="b")
    assert (await titles())["네이버 1차 면접"]["time"] == "16:00"
    # the day, then the time it lacked
    await chat(client, "스터디 일정 좀 넣어줘", room="c")
    await chat(client, "목요일", room="c")
    await chat(client, "저녁 8시에", room="c")
    added = (await titles())["스터디"]
    assert (added["date"], added["time"]) == ("2026-12-03", "20:00")
    # guard: a request of its own instead of the value is that request
    await chat(client, "SK 인적성 일정 넣어줘", room="d")
    out = await chat(client, "금요일 일정 보여줘", room="d")
    assert out["tool_calls"][0]["name"] == "get_schedule" and "SK 인적성" not in await titles()


async def test_s36_dev24_families_values_given_over_turns(stand_in, client):
    await _postings(client)
    await seed()
    # the reply's endings are no part of the name; a time said with its field after
    await chat(client, "중등 임용 2차 수업실연 일정 등록 좀 해주세요~", room="a")
    await chat(client, "1월 20일이요", room="a")
    await chat(client, "아 시간은 오전 8시 반 입실이에요", room="a")
    added = (await titles())["중등 임용 2차 수업실연"]
    assert (added["date"], added["time"]) == ("2027-01-20", "08:30")
    # a change asked for with no value, then a move, a day counted from the item
    await chat(client, "코딩 스터디 시간 조정해줘", room="b")
    await chat(client, "한 시간 당겨서", room="b")
    assert (await titles())["코딩 스터디"]["time"] == "18:00"
    await chat(client, "카카오 면접 날짜 변경 부탁드립니다.", room="c")
    await chat(client, "원래 날짜 그 다음날 같은 시간으로 해주세요", room="c")
    assert (await titles())["카카오 면접"]["date"] == "2026-12-11"
    # a change reported without its value: asked, then given
    await chat(client, "네이버 1차 면접 날짜가 바뀌었대요!! 어떡하죠", room="d")
    await chat(client, "12월 8일로요 시간은 그대로고요", room="d")
    now = await titles()
    assert (now["네이버 1차 면접"]["date"], now["네이버 1차 면접"]["time"]) == (
        "2026-12-08",
        "15:00",
    )
    # the day asked for, counted from another item the reply names
    await chat(client, "모의면접 일정 하나 넣어줘", room="e")
    # (카카오 면접 was moved to 12-11 above)
    await chat(client, "카카오 면접 전날 저녁 8시로", room="e")
    added = (await titles())["모의면접"]
    assert (added["date"], added["time"]) == ("2026-12-10", "20:00")


async def test_s36_dev24_families_corrections_and_names(stand_in, client):
    await _postings(client)
    await seed()
    await chat(client, "12/3 오후 2시 롯데호텔 객실팀 면접 추가해주세요", room="a")
    await chat(client, "아 잠깐 2시 말고 3시였어요 ㅠ", room="a")
    assert (await titles())["롯데호텔 객실팀 면접"]["time"] == "15:00"
    await chat(client, "add SK hynix HR interview on Dec 9 at 1:30pm", room="b")
    await chat(client, "oh wait they said 2:30 not 1:30", room="b")
    assert (await titles())["SK hynix HR interview"]["time"] == "14:30"
    await chat(client, "12월 16일 현대글로비스 물류기획 면접 넣어줘", room="c")
    await chat(client, "오후 두시 반이야", room="c")
    assert (await titles())["현대글로비스 물류기획 면접"]["time"] == "14:30"
    # the name it is put in as; a quoted title is no item counted from
    await chat(client, "카카오 공고 코테 언제임", room="d")
    await chat(client, "ㅇㅋ 그날 카카오 코테로 일정 넣어줘 시간도 공고에 나온대로", room="d")
    assert (await titles())["카카오 코테"]["date"] == "2026-12-20"
    await chat(client, "카카오 접수 마감 언제야?", room="e")
    await chat(client, "ok add 'kakao apply' the day before at 9am", room="e")
    assert (await titles())["kakao apply"]["date"] == "2026-12-14"
    # of two asked back, "더 빠른 거"; a delete put back on the posting's day
    await chat(client, "면접 하나 한 시간만 늦춰줄 수 있어?", room="f")
    await chat(client, "날짜 더 빠른 거", room="f")
    now = await titles()  # (the earliest interview now is the one added in room "a")
    assert (
        now["롯데호텔 객실팀 면접"]["time"] == "16:00" and now["네이버 1차 면접"]["time"] == "15:00"
    )


async def test_s36_second_review_guards(stand_in, client):
    await seed()
    # talk with a day or time in it while an add waits is no value given
    for room, said in enumerate(
        (
            "월요일 날 오후 3시에 알바 있어서 안 돼",
            "금요일엔 뭐 있더라",
            "12월 5일이 토요일이지",
            "3일 후에 카카오 면접 결과 나와",
        )
    ):
        await chat(client, "토스 면접 일정 추가해줘", room=f"w{room}")
        await chat(client, said, room=f"w{room}")
        assert "토스 면접" not in await titles(), said
    # a question about another item's time right after an add with no time changes nothing
    await chat(client, "금요일 토스 면접 추가해줘", room="t")
    await chat(client, "카카오 면접 시간은 2시였지", room="t")
    await chat(client, "점심 시간 12시부터야", room="t")
    now = await titles()
    assert now["카카오 면접"]["time"] == "14:00" and not now["토스 면접"].get("time")
    # a change waiting for its value, counted from another item
    await chat(client, "네이버 1차 면접 일정 옮겨줘", room="u")
    await chat(client, "카카오 면접 다음날로", room="u")
    assert (await titles())["네이버 1차 면접"]["date"] == "2026-12-11"
