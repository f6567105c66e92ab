"""Session 42: turns that lean on an earlier turn of another kind. A posting's stage asked
with a date word the router did not read ("일자", "공고 기준"); the values a posting's answer
showed, pointed at ("거기 나온 날짜로", "그 시간으로": only the field named); "네이버는?"
after "카카오 코테 날짜" asks the same stage, and "둘 다 넣어줘" adds both, titled as the user
called them; "그 기간" is the period a posting's answer told; a weekday clipped to its
syllable before a time ("목 오후4시"); an English month named before "schedule"; which item
when "아까 넣은 면접" fits two adds, or "방금 한 것 중에 하나"; the one item a look just
showed."""

from __future__ import annotations

from datetime import date

import pytest

from nodes.chat.focus import said_stage
from nodes.chat.grounded import Passage, rag_answer
from nodes.chat.router import keyword_route
from tests.unit.test_chat import chat, embed
from tests.unit.test_chat_focus import _postings, seed, titles
from text.dates import date_range, find_when

pytestmark = pytest.mark.usefixtures("fresh_schedules")

SUNDAY = date(2026, 11, 29)


def _added(out: dict) -> list[dict]:
    return [c["args"] for c in out["tool_calls"] if c["name"] == "add_schedule"]


def _changed(out: dict) -> list[dict]:
    return [c["args"] for c in out["tool_calls"] if c["name"] == "update_schedule"]


# --- a posting's stage asked with words the router did not read --------------------------


@pytest.mark.parametrize(
    "message",
    [
        "카카오 채용공고상 코딩테스트 일자 알려주실 수 있나요?",
        "카카오 코테는. 공고 기준",
        "공고에 면접 시간 나와 있어요? 카카오 거",
        "공고 기준으로 네이버 서류 마감 일시 좀",
    ],
)
def test_a_stage_asked_by_the_posting_goes_to_the_calendar(message) -> None:
    assert keyword_route(message) == "calendar"


@pytest.mark.parametrize(
    "message",
    [
        "공고상 코테 언어 제한 있어?",  # what its text says of the stage
        "공고 기준으로 면접 준비 어떻게 해야 돼?",  # advice about the stage
    ],
)
def test_more_asked_of_a_stage_is_not_its_date(message) -> None:
    assert keyword_route(message) != "calendar"


# --- the values a posting's answer showed, pointed at ------------------------------------


async def test_the_date_shown_is_the_date_only(stand_in, client) -> None:
    await _postings(client)
    await chat(client, "12월 21일 카카오 코테 일정 넣어줘")
    await chat(client, "카카오 코테 공고에 언제로 나와 있어?")  # 12-20 14:00
    out = await chat(client, "앗 거기 적힌 날짜로 고쳐 주세요")
    assert _changed(out)[0].keys() == {"schedule_id", "date"}
    item = (await titles())["카카오 코테"]
    assert (item["date"], item.get("time")) == ("2026-12-20", None)


async def test_that_time_is_the_time_only(stand_in, client) -> None:
    await _postings(client)
    await chat(client, "12월 19일 네이버 코테 일정 잡아줘")
    await chat(client, "공고상 네이버 코테 몇 시야")  # 12-19 10:00
    out = await chat(client, "내 거 그 시각으로 맞춰줘")
    assert _changed(out)[0].keys() == {"schedule_id", "time"}
    item = (await titles())["네이버 코테"]
    assert (item["date"], item["time"]) == ("2026-12-19", "10:00")


async def test_the_date_and_time_in_the_posting_in_english(stand_in, client) -> None:
    await _postings(client)
    await chat(client, "add kakao coding test on 12월 22일")
    await chat(client, "when is the kakao coding test on the posting?")
    await chat(client, "please update my kakao coding test to the date and time in the posting")
    item = (await titles())["kakao coding test"]
    assert (item["date"], item["time"]) == ("2026-12-20", "14:00")


async def test_the_date_in_the_posting_and_its_time_said_apart(stand_in, client) -> None:
    await _postings(client)
    await seed()
    await chat(client, "네이버 1차 면접 공고엔 언제로 돼 있어?")  # 2027-01-08, no time
    await chat(client, "내 네이버 면접 공고 날짜로 바꾸고 시간은 그대로 둬")
    item = (await titles())["네이버 1차 면접"]
    assert (item["date"], item["time"]) == ("2027-01-08", "15:00")


# --- the same stage of another posting, and both of them added --------------------------


async def test_another_company_alone_asks_the_same_stage(stand_in, client) -> None:
    await _postings(client)
    await chat(client, "카카오 1차 면접 언제야")
    out = await chat(client, "그럼 네이버는?")
    assert "2027-01-08" in out["answer"]
    assert "2026-12-10" not in out["answer"]  # not every stage of it


async def test_both_stages_added_as_the_user_called_them(stand_in, client) -> None:
    await _postings(client)
    await chat(client, "네이버 코테 며칠이야")
    await chat(client, "카카오는?")
    out = await chat(client, "두 개 다 내 캘린더에")
    assert _added(out) == [
        {"title": "네이버 코테", "date": "2026-12-19", "time": "10:00"},
        {"title": "카카오 코테", "date": "2026-12-20", "time": "14:00"},
    ]


async def test_both_needs_two_postings_asked_in_a_row(stand_in, client) -> None:
    await _postings(client)
    await seed()
    await chat(client, "네이버 코테 며칠이야")
    await chat(client, "12월 일정 보여줘")
    out = await chat(client, "둘 다 넣어줘")
    assert not [a for a in _added(out) if "코테" in a.get("title", "")]


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("카카오 코테 언제예요?", "코테"),
        ("네이버 1차면접은. 공고 기준", "1차면접"),
        ("토스 1차 면접 공고상 몇 시냐", "1차 면접"),
        ("카카오 최종발표 날짜가 언제지", "최종발표"),
        ("when is the coding test?", None),  # the posting's own name, not an English one
        ("카카오 공고 우대사항 뭐야", None),
    ],
)
def test_the_stage_in_the_users_words(question, said) -> None:
    assert said_stage(question) == said


async def test_that_companys_stage_after_a_document_answer(stand_in, client) -> None:
    await _postings(client)
    await chat(client, "카카오 공고 자격요건 뭐야?")
    out = await chat(client, "그 회사 코딩테스트도 내 캘린더에 넣어줘")
    assert _added(out) == [{"title": "카카오 코딩테스트", "date": "2026-12-20", "time": "14:00"}]


# --- the period a posting's answer told ------------------------------------------------


async def test_that_period_is_the_period_told(stand_in, client) -> None:
    await embed(
        client,
        "u1",
        "toss",
        "posting",
        "[토스] 서버 개발자 채용\n■ 지원서 접수\n2026.12.07 ~ 2026.12.18 17:00\n"
        "■ 일정\n- 과제 전형: 2026.12.22\n",
    )
    await seed()
    await chat(client, "토스 지원서 접수 기간이 언제부터예요?")
    out = await chat(client, "그 사이에 잡힌 내 일정 보여줘")
    looked = [c["args"] for c in out["tool_calls"] if c["name"] == "get_schedule"]
    assert looked == [{"start_date": "2026-12-07", "end_date": "2026-12-18"}]
    assert "카카오 면접" in out["answer"] and "코딩 스터디" not in out["answer"]


# --- dates in clipped and English forms -------------------------------------------------


@pytest.mark.parametrize(
    ("text", "day", "time"),
    [
        ("금 오후 3시 토스 면접", date(2026, 12, 4), "15:00"),
        ("화 10:30 치과", date(2026, 12, 1), "10:30"),
        ("토 아침 9시 등산", date(2026, 12, 5), "09:00"),
    ],
)
def test_a_weekday_clipped_before_a_time(text, day, time) -> None:
    when = find_when(text, SUNDAY)
    assert (when.date, when.time) == (day, time)


@pytest.mark.parametrize(
    "text", ["할 수 3시간 걸려", "월 2회 스터디", "수 많은 일정", "금 시세 확인"]
)
def test_a_syllable_that_is_no_weekday(text) -> None:
    assert find_when(text, SUNDAY).date is None


@pytest.mark.parametrize(
    ("text", "first", "last"),
    [
        ("what's on my january schedule", date(2027, 1, 1), date(2027, 1, 31)),
        ("show me the december calendar", date(2026, 12, 1), date(2026, 12, 31)),
    ],
)
def test_an_english_month_before_schedule(text, first, last) -> None:
    assert date_range(text, SUNDAY) == (first, last)


def test_may_as_a_verb_is_no_month() -> None:
    assert date_range("you may see my schedule", SUNDAY) == (SUNDAY, None)


# --- which item ---------------------------------------------------------------------------


async def test_earlier_added_fits_two_adds_asks(stand_in, client) -> None:
    await seed()
    await chat(client, "화요일 오후 2시 영어 스터디 추가")
    await chat(client, "목요일 오후 4시 독서 스터디도")
    out = await chat(client, "아까 넣은 스터디 30분 미뤄줘")
    assert out["tool_calls"] == [] and "어느" in out["answer"]
    out = await chat(client, "방금 넣은 스터디 30분 미뤄줘")  # the last one
    assert (await titles())["독서 스터디"]["time"] == "16:30"


async def test_one_of_what_was_just_done_asks(stand_in, client) -> None:
    await seed()
    await chat(client, "코딩 스터디 지워줘")
    await chat(client, "카카오 면접 11일로 옮겨줘")
    out = await chat(client, "방금 한 거 중에 하나 취소할래요")  # undo which one
    assert out["tool_calls"] == [] and "어느" in out["answer"]
    assert (await titles())["카카오 면접"]["date"] == "2026-12-11"


async def test_the_one_item_a_look_just_showed(stand_in, client) -> None:
    await seed()
    await chat(client, "금요일에 뭐 있어?")  # 네이버 1차 면접 only
    await chat(client, "면접 전에 긴장 풀리는 팁 있어?")
    await chat(client, "면접 4시로 바꿔줘")
    assert (await titles())["네이버 1차 면접"]["time"] == "16:00"
    assert (await titles())["카카오 면접"]["time"] == "14:00"


async def test_an_item_added_is_not_the_one_in_view(stand_in, client) -> None:
    await seed()
    await chat(client, "12월 3일 저녁 7시에 영어 스터디 추가")
    out = await chat(client, "스터디 30분 당겨줘")
    assert out["tool_calls"] == [] and "어느" in out["answer"]


# --- titles and general questions ---------------------------------------------------------


async def test_a_title_with_a_polite_ending(stand_in, client) -> None:
    await seed()
    out = await chat(client, "12월 8일 오후 3시 일정 추가해 주세요 제목은 토스 과제로요")
    assert _added(out) == [{"title": "토스 과제", "date": "2026-12-08", "time": "15:00"}]


@pytest.mark.parametrize(
    "message",
    [
        "what can you do? can u read my docs",
        "면접에 넥타이 꼭 매야됨? 없는데",
    ],
)
def test_asked_of_the_assistant_or_advice_is_general(message) -> None:
    assert keyword_route(message) == "general"


async def test_what_it_can_do_is_told(stand_in, client) -> None:
    out = await chat(client, "what can you actually do?")
    assert out["route"] == "general"
    assert "일정" in out["answer"] and "이력서" in out["answer"]
    assert "답하기 어려워요" not in out["answer"]


# --- round 2: the memo's field, a subject that ends the title, an arrow rename ------------


async def test_the_memo_as_a_forms_field(stand_in, client) -> None:
    await seed()
    out = await chat(
        client,
        "12월 11일 오전 10시에 한국전력 필기시험이 있사오니 일정에 넣어 주시고 "
        "메모칸에는 '수험표 출력'이라고 적어 주세요.",
    )
    assert _added(out) == [
        {"title": "한국전력 필기시험", "date": "2026-12-11", "time": "10:00", "memo": "수험표 출력"}
    ]


@pytest.mark.parametrize(
    ("message", "title"),
    [
        ("12월 9일 3시 토스 면접이 잡혀서 추가해줘", "토스 면접"),
        ("모레 저녁 7시 동아리 모임이 있는데 넣어줘", "동아리 모임"),
    ],
)
async def test_an_event_said_as_a_subject_is_the_title(stand_in, client, message, title) -> None:
    await seed()
    out = await chat(client, message)
    assert [a["title"] for a in _added(out)] == [title]


async def test_a_rename_with_an_arrow(stand_in, client) -> None:
    await seed()
    await chat(client, "카카오 면접 -> 카카오 최종 면접 제목 변경")
    assert "카카오 최종 면접" in await titles() and "카카오 면접" not in await titles()


# --- round 2: documents -------------------------------------------------------------------

SKILLED = Passage(
    "cv",
    "resume",
    "자격증",
    "[자격증]\n정보처리기사 (2021)\nSQLD (2023)",
    0.8,
)
PREFERRED = Passage(
    "toss",
    "posting",
    "우대사항",
    "[우대사항]\n- Kafka 기반 메시징 시스템 운영 경험\n- Kubernetes 환경 배포 경험",
    0.8,
    "토스",
    "서버 개발자",
)
WORKED = Passage(
    "cv",
    "resume",
    "경력",
    "[경력]\n에이비씨커머스 2022.03 ~ 2025.02\n- 주문 API 개발\n- Kafka 기반 주문 이벤트 처리",
    0.8,
)


def test_the_lines_asked_with_which_are_held() -> None:
    answer = rag_answer(
        "토스 우대사항 뭐가 있었지? 내 이력서에 해당되는 거 있나 보게", [PREFERRED, WORKED]
    )
    first, second = answer.split("\n")[:2]
    assert "Kubernetes 환경 배포 경험" in first and "Kafka" in first
    assert second.startswith("이력서에도 있는 건 Kafka")


def test_only_which_are_held_when_only_that_is_asked() -> None:
    answer = rag_answer("토스 우대사항 중 내 이력서에 있는 거 뭐야?", [PREFERRED, WORKED])
    assert answer.startswith("이력서에도 있는 건 Kafka")


def test_a_section_asked_in_formal_words() -> None:
    answer = rag_answer(
        "이력서에 기재된 자격증 목록과 취득 연도를 확인해 주시겠어요?", [SKILLED, WORKED]
    )
    assert answer.startswith("정보처리기사 (2021)") and "SQLD (2023)" in answer


def test_a_qualified_heading_is_not_the_heading() -> None:
    answer = rag_answer("이력서에 봉사 경력 기재돼 있나요?", [SKILLED, WORKED])
    assert "찾지 못했어요" in answer and "에이비씨커머스" not in answer


def test_a_period_asked_after_a_work_entry() -> None:
    answer = rag_answer(
        "언제부터 언제까지야?", [SKILLED, WORKED], "이력서 경력에 어디 다녔다고 돼 있어"
    )
    assert answer.startswith("에이비씨커머스 2022.03 ~ 2025.02")


async def test_a_memo_of_what_the_last_answer_said(stand_in, client) -> None:
    await embed(client, "u1", "cv", "resume", "[자격증]\n정보처리기사 (2021)\n")
    await chat(client, "제 이력서에 자격증 뭐라고 적혀 있어요?")
    out = await chat(client, "12월 18일 사본 발급 일정 넣고 메모엔 방금 알려준 자격증 이름 적어줘")
    assert _added(out) == [{"title": "사본 발급", "date": "2026-12-18", "memo": "정보처리기사"}]


# --- review guards: what the new readers must leave alone -----------------------------------


async def test_the_item_in_view_is_not_deleted_wondered_about_or_the_other(stand_in, client):
    await seed()
    await chat(client, "금요일 일정 보여줘")  # 네이버 1차 면접 only
    for message in (
        "면접 지우지 마",
        "면접 4시로 바뀌었나?",
        "다른 면접 4시로 바꿔",
        "면접 지워줘",
    ):
        out = await chat(client, message)
        assert out["tool_calls"] == [], message
    assert (await titles())["네이버 1차 면접"]["time"] == "15:00"


@pytest.mark.parametrize(
    "message",
    [
        "둘 다 안 넣어도 돼",
        "둘 다 넣어야 되나?",
        "둘 다 전날 밤 9시에 복습 일정 넣어줘",
        "둘 다 추가하지 말고 기억만 해줘",
    ],
)
async def test_both_is_only_a_plain_put_in(stand_in, client, message) -> None:
    await _postings(client)
    await chat(client, "카카오 코테 날짜 알려줘")
    await chat(client, "네이버는?")
    await chat(client, message)
    assert not [t for t in await titles() if "코테" in t or "코딩테스트" in t]


async def test_both_then_another_operation_is_not_only_adds(stand_in, client) -> None:
    await _postings(client)
    await seed()
    await chat(client, "카카오 코테 날짜 알려줘")
    await chat(client, "네이버는?")
    out = await chat(client, "둘 다 넣고 코딩 스터디는 지워줘")
    assert len([c for c in out["tool_calls"] if c["name"] == "add_schedule"]) < 2


async def test_a_stage_with_no_date_is_not_another_of_its_kind(stand_in, client) -> None:
    await _postings(client)
    await chat(client, "카카오 최종 면접 언제야")  # not in the posting's dates
    await chat(client, "네이버는?")
    await chat(client, "둘 다 넣어줘")
    # (this posting has no final: the interview it told is its 1차, named so)
    assert not [t for t in await titles() if "최종" in t]


@pytest.mark.parametrize(
    ("before", "message"),
    [
        ("카카오 공고 자격요건 뭐야?", "그 회사 면접 준비 일정 추가해줘"),
        ("카카오 공고 자격요건 뭐야?", "그 회사 코테 후기 기록해줘"),
        ("내 이력서 경력 요약해줘", "그 회사 면접 일정 넣어줘"),
    ],
)
async def test_that_companys_stage_only_when_only_the_stage_is_asked(
    stand_in, client, before, message
) -> None:
    await _postings(client)
    await embed(client, "u1", "cv", "resume", "[경력]\n에이비씨커머스 2022.03 ~ 2025.02\n")
    await chat(client, before)
    out = await chat(client, message)
    posted = {"2026-12-20", "2027-01-05", "2027-01-08", "2026-12-19"}
    assert not [a for a in _added(out) if a["date"] in posted]


@pytest.mark.parametrize(
    "message",
    [
        "카카오 면접 리마인더 전날 9시로 맞춰줘",
        "change my kakao interview reminder to 9am",
        "카카오 면접 복장 비즈니스 캐주얼로 맞춰줘",
    ],
)
async def test_set_to_a_value_of_something_else_moves_nothing(stand_in, client, message) -> None:
    await seed()
    await chat(client, message)
    item = (await titles())["카카오 면접"]
    assert (item["date"], item["time"]) == ("2026-12-10", "14:00")


async def test_that_time_after_a_look_at_a_day_is_its_slot(stand_in, client) -> None:
    await seed()
    await chat(client, "금요일 일정 보여줘")  # 12-04 15:00
    await chat(client, "그 시간으로 스터디 옮겨줘")
    item = (await titles())["코딩 스터디"]
    assert (item["date"], item["time"]) == ("2026-12-04", "15:00")


async def test_that_time_of_a_stage_with_no_time_moves_nothing(stand_in, client) -> None:
    await _postings(client)
    await seed()
    await chat(client, "카카오 1차 면접 언제야")  # 2027-01-05, no time
    await chat(client, "카카오 면접 그 시간으로 바꿔")
    assert (await titles())["카카오 면접"]["date"] == "2026-12-10"


@pytest.mark.parametrize(
    ("message", "route"),
    [
        ("카카오 지원하려면 경력 3년 있어야됨?", "general"),  # not advice: the posting says
        ("What do you do with my data?", "general"),  # no list of abilities
        ("what can you do to help me prepare for the kakao interview?", "general"),
    ],
)
def test_review_routes(message, route) -> None:
    if message.startswith("카카오"):
        assert keyword_route(message) != route
    else:
        from nodes.chat.grounded import CAN_ALL, general_answer

        assert CAN_ALL not in general_answer(message, SUNDAY, stand_in=True)


async def test_one_of_what_was_done_undone_by_the_reply(stand_in, client) -> None:
    await seed()
    await chat(client, "12월 7일 오후 2시 토스 면접 추가해줘")
    await chat(client, "카카오 면접 지워줘")
    await chat(client, "방금 한 것 중에 하나 되돌려줘")
    await chat(client, "카카오 면접 지운 거")
    now = await titles()
    assert now["카카오 면접"]["date"] == "2026-12-10" and "토스 면접" in now
    await chat(client, "네이버 면접 5시로 바꿔")
    await chat(client, "코딩 스터디 지워줘")
    await chat(client, "방금 한 거 중에 하나 취소해줘")
    await chat(client, "1번")  # the delete, listed first (most recent first)
    now = await titles()
    assert "코딩 스터디" in now and now["네이버 1차 면접"]["time"] == "17:00"


# --- second review guards -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reply", "kakao_time", "study_kept"),
    [
        ("카카오 면접 5시로 바꿔줘", "17:00", False),  # a request of its own, no choice
        ("스터디는 그대로 놔둬", "16:00", False),
        ("코딩 스터디 지운 거", "16:00", True),  # the choice: the delete undone
    ],
)
async def test_a_reply_to_which_undo_is_a_choice_only_when_it_is_one(
    stand_in, client, reply, kakao_time, study_kept
) -> None:
    await seed()
    await chat(client, "코딩 스터디 지워줘")
    await chat(client, "카카오 면접 4시로 옮겨줘")
    await chat(client, "방금 한 거 중에 하나 되돌려줘")
    await chat(client, reply)
    now = await titles()
    assert now["카카오 면접"]["time"] == kakao_time
    assert ("코딩 스터디" in now) == study_kept


async def test_one_of_what_was_added_is_no_undo(stand_in, client) -> None:
    await seed()
    await chat(client, "12월 8일 오후 2시 토스 면접 추가해줘")
    await chat(client, "12월 9일 오전 10시 라인 면접 추가해줘")
    await chat(client, "아까 추가한 거 중에 하나 시간 바꿔야 돼")
    await chat(client, "1번")
    assert {"토스 면접", "라인 면접"} <= set(await titles())


@pytest.mark.parametrize("message", ["그 다음주 면접 4시로 옮겨줘", "목요일 면접 4시로 옮겨줘"])
async def test_another_day_named_is_not_the_item_in_view(stand_in, client, message) -> None:
    await seed()
    await chat(client, "다음주 일정 보여줘")  # 네이버 1차 면접 only
    await chat(client, message)
    assert (await titles())["네이버 1차 면접"]["time"] == "15:00"


@pytest.mark.parametrize(
    ("message", "title"),
    [
        ("12월 5일 오후 3시 친구가 소개해준 스타트업 커피챗 추가해줘", "스타트업 커피챗"),
        ("12월 8일 오후 2시 헤드헌터가 연결해준 토스 면접 추가해줘", "토스 면접"),
    ],
)
async def test_a_subject_of_another_verb_is_no_title(stand_in, client, message, title) -> None:
    await seed()
    out = await chat(client, message)
    assert [a["title"] for a in _added(out)] == [title]


@pytest.mark.parametrize(
    "message",
    [
        "코딩 스터디 -> 알고리즘 스터디 이름 변경은 하지 마",
        "코딩 스터디 -> 알고리즘 스터디 이름 변경해도 될까?",
    ],
)
async def test_an_arrow_rename_declined_or_asked_renames_nothing(stand_in, client, message):
    await seed()
    await chat(client, message)
    assert "코딩 스터디" in await titles()


@pytest.mark.parametrize(
    "question",
    ["내 이력서 주요 경력 알려줘", "이력서 최근 경력 뭐야?", "내 이력서 실무 경력 알려줘"],
)
def test_a_modifier_of_a_heading_still_asks_the_heading(question) -> None:
    assert "에이비씨커머스" in rag_answer(question, [SKILLED, WORKED])


async def test_a_memo_declined_is_no_memo(stand_in, client) -> None:
    await seed()
    out = await chat(client, "12월 5일 오후 3시 치과 추가해줘 메모칸엔 아무것도 적지 마")
    assert _added(out) == [{"title": "치과", "date": "2026-12-05", "time": "15:00"}]


async def test_the_users_word_for_a_stage_keeps_its_round(stand_in, client) -> None:
    await _postings(client)
    await seed()
    await chat(client, "카카오 면접 언제야?")
    await chat(client, "네이버는?")
    out = await chat(client, "둘다 넣어줘")
    assert [a["title"] for a in _added(out)] == ["카카오 1차 면접", "네이버 1차 면접"]


async def test_a_memo_that_says_do_not_is_a_memo(stand_in, client) -> None:
    await seed()
    out = await chat(
        client, "12월 15일 오전 10시 토스 과제 마감, 메모에 링크 첨부 잊지 말기 라고 적어줘"
    )
    assert _added(out)[0]["memo"] == "링크 첨부 잊지 말기"


def test_a_weekday_in_a_weekly_slot_is_no_day() -> None:
    from text.when import read_when

    found = read_when("면접: 매주 화·목 오후 방문 면접 (사전 전화 필수)", date(2026, 11, 2))
    assert date(2026, 11, 5) not in [d.value for d in found.dates]
