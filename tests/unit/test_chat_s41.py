"""Session 41: an event placed around one of the user's items ("스터디 끝나고 밤 10시에 …",
"면접 1시간 전에 …") is on that item's day; a memo said as a duty ("신분증 챙겨야 함. 메모
좀"), by a notice's label and the user's short form of its value ("복장 비캐 메모"), or after
an adverb-like noun ("대신 메모에 …") goes on the room's item; a move written down ("10분
당겨서 적어 둬") is a move; a notice's line dated from its own event ("면접 전날 18시까지")
has that day; the request's own sentence names the item, not a remark before it; "the last
one" is the last of a listing; a look at a day counted from the room's ("그 전 날 …?")."""

from __future__ import annotations

import pytest

from tests.unit.test_chat import chat
from tests.unit.test_chat_focus import _postings, seed, titles
from tests.unit.test_chat_s38_sets import SEEDED

pytestmark = pytest.mark.usefixtures("fresh_schedules")


async def _left() -> dict[str, tuple[str, str | None]]:
    return {t: (i["date"], i.get("time")) for t, i in (await titles()).items()}


def _added(out: dict) -> list[dict]:
    return [c["args"] for c in out["tool_calls"] if c["name"] == "add_schedule"]


# --- an event placed around an item -----------------------------------------------------


@pytest.mark.parametrize(
    ("message", "title", "day", "time"),
    [
        ("카카오 면접 마치고 저녁 6시에 가족 외식 잡아줘", "가족 외식", "2026-12-10", "18:00"),
        ("네이버 면접 보고 나서 오후 5시 카페 정리 넣어줘", "카페 정리", "2026-12-04", "17:00"),
        ("코딩 스터디 끝난 뒤에 밤 9시 반 헬스 등록", "헬스", "2026-12-01", "21:30"),
        # counted from the item's own time
        ("코딩 스터디 30분 전에 자료 출력 일정 넣어줘", "자료 출력", "2026-12-01", "18:30"),
        ("카카오 면접 2시간 전에 '리허설' 추가해줘", "리허설", "2026-12-10", "12:00"),
    ],
)
async def test_an_event_placed_around_an_item_is_on_its_day(
    stand_in, client, message, title, day, time
) -> None:
    await seed()
    out = await chat(client, message)
    assert _added(out) == [{"title": title, "date": day, "time": time}]


@pytest.mark.parametrize(
    "message",
    [
        # before an item, with no time: any day before it; asked
        "카카오 면접 전에 포트폴리오 점검 넣어줘",
        # two interviews fit "면접": which one is not guessed
        "면접 끝나고 저녁 8시 동기 약속 잡아줘",
        # no item of the user's is named
        "토익 시험 끝나고 오후 2시 점심 약속 잡아줘",
    ],
)
async def test_around_no_single_item_adds_nothing(stand_in, client, message) -> None:
    await seed()
    out = await chat(client, message)
    assert not _added(out)
    assert await _left() == SEEDED


# --- memos --------------------------------------------------------------------------------


async def test_a_memo_after_an_adverb_like_noun_goes_on_the_item(stand_in, client) -> None:
    await seed()
    await chat(client, "12월 8일 오후 3시 토스 면접 추가")
    out = await chat(client, "대신 메모에 '주차 불가' 적어 주세요")
    assert not _added(out)
    assert (await titles())["토스 면접"].get("memo") == "주차 불가"


@pytest.mark.parametrize(
    ("said", "memo"),
    [
        ("신분증 챙겨야 함. 메모 좀", "신분증 챙기기"),
        ("포트폴리오 출력 해야 돼요 메모 해줘", "포트폴리오 출력"),
        ("우산 가져가야 해요. 메모 부탁해요", "우산 가져가기"),
    ],
)
async def test_a_duty_said_before_a_bare_memo_request_is_the_memo(
    stand_in, client, said, memo
) -> None:
    await seed()
    await chat(client, "12월 8일 오후 3시 토스 면접 추가")
    out = await chat(client, said)
    assert not _added(out)
    assert (await titles())["토스 면접"].get("memo") == memo


async def test_a_duty_that_is_an_operation_is_no_memo(stand_in, client) -> None:
    await seed()
    await chat(client, "12월 8일 오후 3시 토스 면접 추가")
    await chat(client, "카카오 면접 옮겨야 돼요. 메모해줘")
    assert not any("옮" in (i.get("memo") or "") for i in (await titles()).values())


_NOTICE = """아래 안내 일정 등록 부탁해요. 제목은 '한결건설 면접'

[한결건설] 현장관리직 면접 안내
- 일시: 2026년 12월 15일(화) 오후 2시
- 장소: 본사 5층 회의실
- 복장: 단정한 정장 차림
- 서류: 면접 전날 오후 5시까지 메일로 제출
한결건설 인사팀 드림"""


async def test_a_notice_label_with_the_users_short_value_is_that_lines_memo(
    stand_in, client
) -> None:
    await seed()
    first = await chat(client, _NOTICE)
    assert _added(first) == [{"title": "한결건설 면접", "date": "2026-12-15", "time": "14:00"}]
    await chat(client, "복장 정장 메모")
    assert (await titles())["한결건설 면접"].get("memo") == "단정한 정장 차림"


async def test_a_notice_line_dated_from_its_event_gives_its_day(stand_in, client) -> None:
    await seed()
    await chat(client, _NOTICE)
    out = await chat(client, "서류 제출도 따로 '한결 서류 제출'로 넣어줘")
    assert _added(out) == [{"title": "한결 서류 제출", "date": "2026-12-14", "time": "17:00"}]
    # the notice's own event keeps its day
    assert (await _left())["한결건설 면접"] == ("2026-12-15", "14:00")


# --- operations ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "title", "moved"),
    [
        ("카카오 면접 20분 당겨서 적어 둬", "카카오 면접", ("2026-12-10", "13:40")),
        ("코딩 스터디 8시로 바꿔서 저장해 주세요", "코딩 스터디", ("2026-12-01", "20:00")),
    ],
)
async def test_a_move_written_down_is_a_move(stand_in, client, message, title, moved) -> None:
    await seed()
    out = await chat(client, message)
    assert not _added(out)
    assert (await _left())[title] == moved
    assert len(await _left()) == len(SEEDED)


async def test_the_requests_own_sentence_names_the_item(stand_in, client) -> None:
    """The remark before names the 15:00 interview with its hour; the request names the
    study."""
    await seed()
    await chat(client, "네이버 1차 면접 3시니까 괜찮겠다. 스터디는 9시로 바꿔줘")
    left = await _left()
    assert left["코딩 스터디"] == ("2026-12-01", "21:00")
    assert left["네이버 1차 면접"] == SEEDED["네이버 1차 면접"]


async def test_the_last_one_is_the_last_of_the_listing(stand_in, client) -> None:
    await seed()
    await chat(client, "show me everything coming up")
    await chat(client, "move the first one to 8pm")
    await chat(client, "and the last one - add a memo 'bring id card'")
    now = await titles()
    assert now["카카오 면접"].get("memo") == "bring id card"
    assert not now["코딩 스터디"].get("memo")


async def test_a_position_with_nothing_listed_is_no_title(stand_in, client) -> None:
    await seed()
    await chat(client, "이번주 일정 보여줘")
    out = await chat(client, "마지막 거 메모에 '노트북' 추가")
    assert not _added(out)
    assert "마지막" not in out["answer"]


# --- looks at a day counted from the room's -----------------------------------------------


@pytest.mark.parametrize("message", ["그 전 날 저녁에 뭐 있나요?", "그 전날 스터디 몇 시예요?"])
async def test_a_look_at_the_day_before_the_rooms(stand_in, client, message) -> None:
    await seed()
    await chat(client, "12월 2일 오후 4시 토스 면접 추가")
    out = await chat(client, message)
    assert out["route"] == "schedule"
    assert out["tool_calls"][0]["name"] == "get_schedule"
    assert out["tool_calls"][0]["args"] == {"start_date": "2026-12-01", "end_date": "2026-12-01"}


# --- a review of the round above (a fresh helper played ~220 rooms against a1708dc) ------


@pytest.mark.parametrize(
    ("message", "kept"),
    [
        # the request's sentence names another item beside the one meant: not the target
        ("카카오 면접 얘기예요. 스터디랑 안 겹치게 오후 4시로 바꿔줘", "코딩 스터디"),
        ("카카오 면접 시간이요. 스터디 시간이랑 같게 7시로 바꿔주세요", "코딩 스터디"),
    ],
)
async def test_review_an_item_named_beside_the_request_is_not_its_target(
    stand_in, client, message, kept
) -> None:
    await seed()
    await chat(client, message)
    assert (await _left())[kept] == SEEDED[kept]


async def test_review_an_item_named_beside_a_delete_is_not_deleted(stand_in, client) -> None:
    await seed()
    await chat(client, "카카오 면접 없어졌어요. 네이버 면접이랑 헷갈리지 말고 지워주세요")
    assert "네이버 1차 면접" in await _left()


@pytest.mark.parametrize(
    "message",
    [
        "면접 시간 바꿔서 생긴 오전에 12월 10일 오전 10시 병원 넣어줘",
        "스터디 시간 당겨서 생긴 빈 시간에 12월 1일 오후 5시 운동 넣어줘",
    ],
)
async def test_review_a_verb_with_seo_inside_a_new_event_moves_nothing(
    stand_in, client, message
) -> None:
    await seed()
    out = await chat(client, message)
    left = await _left()
    assert {t: left[t] for t in SEEDED} == SEEDED
    assert len(_added(out)) == 1


@pytest.mark.parametrize("fix", ["오타ㅋㅋ 8일 아니고 9일", "아 오타 ㅈㅅ 8일 말고 9일"])
async def test_review_a_typo_owned_up_to_with_the_right_value_corrects(
    stand_in, client, fix
) -> None:
    await seed()
    await chat(client, "12월 8일 오후 3시 치과 넣어줘")
    out = await chat(client, fix)
    assert not _added(out)
    assert (await _left())["치과"] == ("2026-12-09", "15:00")


@pytest.mark.parametrize(
    ("message", "day"),
    [
        # a range, a new value, one of them asked for: never two adds
        ("12월 7일 가족여행 12월 9일까지 등록해줘", None),
        ("12월 5일 오후 2시 면접 12월 8일로 옮겨졌대 그거 등록해줘", "2026-12-08"),
        ("12월 7일 헬스 12월 9일 필라테스 중에 하나만 넣어줘", None),
    ],
)
async def test_review_two_dates_that_are_not_two_events_are_at_most_one_add(
    stand_in, client, message, day
) -> None:
    await seed()
    out = await chat(client, message)
    added = _added(out)
    assert len(added) <= 1
    if day is not None:
        assert [a["date"] for a in added] == [day]


@pytest.mark.parametrize(
    "errand", ["아 그리고 내일 은행 가야 돼. 메모 좀", "오늘 빨래 해야 됨 메모 ㄱ"]
)
async def test_review_an_errand_of_its_own_day_is_no_memo(stand_in, client, errand) -> None:
    await seed()
    await chat(client, "12월 8일 오후 2시 토스 면접 넣어줘")
    out = await chat(client, errand)
    assert not (await titles())["토스 면접"].get("memo")
    # (the errand may be put in as an item of its own day; never under the title '메모')
    assert all("메모" not in a["title"] for a in _added(out))


_INVITE = (
    "[카카오 2차 면접 안내]\n- 일시: 12월 11일 오후 2시\n- 복장: 비즈니스 캐주얼\n일정 추가해줘"
)


async def test_review_the_users_own_value_is_not_replaced_by_the_notices(stand_in, client) -> None:
    await seed()
    await chat(client, _INVITE)
    await chat(client, "복장 정장으로 메모해줘")
    assert (await titles())["카카오 2차 면접"].get("memo") != "비즈니스 캐주얼"


@pytest.mark.parametrize(
    ("message", "title"),
    [
        ("라인 면접 등록은 12월 9일 오후 4시로 부탁드려요", "라인 면접"),
        (
            "면접관님께 감사합니다 문자 보내기 내일 오전 10시에 넣어줘",
            "면접관님께 감사합니다 문자 보내기",
        ),
    ],
)
async def test_review_a_verbal_noun_as_topic_and_thanks_in_a_title_still_add(
    stand_in, client, message, title
) -> None:
    await seed()
    out = await chat(client, message)
    assert [a["title"] for a in _added(out)] == [title]


async def test_review_a_bare_hour_after_an_evening_item_is_in_the_evening(stand_in, client) -> None:
    await seed()
    out = await chat(client, "스터디 끝나고 10시에 헬스 넣어줘")
    assert _added(out) == [{"title": "헬스", "date": "2026-12-01", "time": "22:00"}]


async def test_review_a_question_about_the_day_that_is_advice_is_no_look(stand_in, client) -> None:
    await seed()
    await chat(client, "12월 2일 오후 3시 치과 넣어줘")
    out = await chat(client, "그날 면접 질문 뭐 나올까요?")
    assert not any(c["name"] == "get_schedule" for c in out["tool_calls"])


async def test_review_a_period_with_a_posting_word_is_no_relisting(stand_in, client) -> None:
    await seed()
    await chat(client, "오늘 일정 있어?")
    out = await chat(client, "그럼 12월 채용공고는요?")
    assert not any(c["name"] == "get_schedule" for c in out["tool_calls"])


# --- chat_xa_dev31, round two --------------------------------------------------------------


async def test_a_memo_changed_to_quoted_words_then_a_look(stand_in, client) -> None:
    await seed()
    await chat(client, "12월 3일 오전 11시 토스 PT 면접 추가해줘, 메모는 '작년 자료'")
    out = await chat(client, "메모를 '올해 자료 준비'로 고쳐주시고 그날 일정도 보여주세요")
    assert [c["name"] for c in out["tool_calls"]] == ["update_schedule", "get_schedule"]
    assert out["tool_calls"][1]["args"] == {"start_date": "2026-12-03", "end_date": "2026-12-03"}
    memos = {t: i.get("memo") for t, i in (await titles()).items()}
    assert "올해 자료 준비" in memos.values()
    assert memos["네이버 1차 면접"] is None


async def test_the_other_item_of_the_day_is_not_the_one_just_added(stand_in, client) -> None:
    await seed()
    await chat(client, "12월 4일 오후 6시 동아리 모임 추가")
    await chat(client, "그날 다른 일정 있죠? 그거 취소해 주세요")
    left = await _left()
    assert "동아리 모임" in left
    assert "네이버 1차 면접" not in left


async def test_a_day_remarked_on_is_no_value_beside_the_rooms_day(stand_in, client) -> None:
    await _postings(client)
    await seed()
    await chat(client, "카카오 코테 언제야?")  # 12-20, a Sunday
    out = await chat(client, "아 일요일이네 그 전날 저녁 8시에 최종 점검 넣어줘")
    assert _added(out) == [{"title": "최종 점검", "date": "2026-12-19", "time": "20:00"}]


async def test_a_move_to_the_postings_stage_date(stand_in, client) -> None:
    await _postings(client)
    await seed()
    await chat(client, "카카오 1차 면접 언제야?")
    out = await chat(client, "내 카카오 면접을 공고상 1차 면접 날짜로 옮겨줘")
    assert out["route"] == "schedule"
    assert (await _left())["카카오 면접"] == ("2027-01-05", "14:00")


async def test_an_english_question_on_a_postings_deadlines_asks_the_posting(
    stand_in, client
) -> None:
    await _postings(client)
    out = await chat(client, "What are the deadlines in the kakao posting?")
    assert out["route"] == "calendar"


@pytest.mark.parametrize(
    ("then", "added"),
    [
        (
            "없으면 12월 2일 오후 3시에 치과 넣어줘",
            [{"title": "치과", "date": "2026-12-02", "time": "15:00"}],
        ),
        # the study is on Tuesday evening: the condition fails
        ("없으면 12월 1일 저녁 7시에 헬스 넣어줘", []),
    ],
)
async def test_a_conditional_add_on_a_day_of_the_period_just_listed(
    stand_in, client, then, added
) -> None:
    await seed()
    await chat(client, "다음 주 일정 보여줘")
    out = await chat(client, then)
    assert _added(out) == added
    assert not any(c["name"] == "get_schedule" for c in out["tool_calls"])


@pytest.mark.parametrize(
    ("message", "route"),
    [
        ("마흔에 개발자로 전향하려고 지원하는 거 너무 늦은 걸까요?", "general"),
        ("넌 누가 만든 거야? 내가 올린 자소서 같은 거 어디 저장돼?", "general"),
    ],
)
async def test_advice_and_the_service_are_no_posting_questions(
    stand_in, client, message, route
) -> None:
    await _postings(client)
    out = await chat(client, message)
    assert out["route"] == route


async def test_a_verb_joined_by_seo_is_not_the_add_request(stand_in, client) -> None:
    await seed()
    out = await chat(
        client, "메모 넣어서 등록해줘: 12월 6일 오후 2시 라인 인터뷰, 메모는 포트폴리오"
    )
    assert _added(out) == [
        {"title": "라인 인터뷰", "date": "2026-12-06", "time": "14:00", "memo": "포트폴리오"}
    ]


async def test_bandyeong_hae_applies_a_change(stand_in, client) -> None:
    await seed()
    await chat(client, "카카오 면접 12월 11일 오후 3시로 반영해")
    assert (await _left())["카카오 면접"] == ("2026-12-11", "15:00")


# --- a review of round two -----------------------------------------------------------------


@pytest.mark.parametrize(
    "then",
    [
        "그날 다른 일정 하나 있지요? 그건 그대로 두고 방금 거 지워 주세요",
        "그날 다른 일정도 있네요. 방금 넣은 건 지워 주세요",
        "그날 다른 일정은 그대로 두고 이건 6시로 바꿔줘",
    ],
)
async def test_second_review_the_other_item_spared_or_this_one_named_is_never_touched(
    stand_in, client, then
) -> None:
    await seed()
    await chat(client, "12월 4일 오전 10시에 토스 코테 추가해줘")
    await chat(client, then)
    assert (await _left())["네이버 1차 면접"] == SEEDED["네이버 1차 면접"]


async def test_second_review_a_move_asked_as_a_question_moves_nothing(stand_in, client) -> None:
    await _postings(client)
    await seed()
    await chat(client, "카카오 공고 1차 면접 언제야?")
    await chat(client, "12월 10일 일정 봐줘")
    await chat(client, "제 일정의 카카오 면접을 공고상 1차 면접 날짜로 옮기면 안 되겠죠?")
    assert (await _left())["카카오 면접"] == SEEDED["카카오 면접"]


async def test_second_review_a_date_said_in_full_and_checked_is_looked_at(stand_in, client) -> None:
    await _postings(client)
    await seed()
    await chat(client, "카카오 공고 1차 면접 언제야?")
    out = await chat(client, "내 일정에 카카오 면접 12월 10일 맞는지 그날 일정 봐줘")
    assert out["tool_calls"][0]["args"] == {"start_date": "2026-12-10", "end_date": "2026-12-10"}


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("quick q, when did I leave 에이비씨커머스 according to my resume?", "2025.02"),
        ("What does the Naver posting list under 우대 사항? just keywords pls", "Kafka"),
    ],
)
async def test_english_framing_words_no_document_holds_ask_for_nothing(
    stand_in, client, question, answer
) -> None:
    from evals.run_chat import seed_documents

    await seed_documents("u1")
    out = await chat(client, question)
    assert out["route"] == "rag"
    assert answer in out["answer"].split("(출처")[0]
