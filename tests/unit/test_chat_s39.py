"""Session 39: "all but X" said in English, and "the rest" after an earlier operation of
the same message (the rest is not the item that operation acted on); then what the 28th
cross-author dev split (chat_xa_dev28) showed, tested in other words: an item described by
its half of the day or as the later of those described, a stage put in with no day, every
changed field put back, an English field word in a Korean sentence, a stage just told put
in by "그거" / "it"."""

from __future__ import annotations

import pytest

from nodes.chat.router import all_but, keyword_route, split_operations
from tests.unit.test_chat import chat
from tests.unit.test_chat_focus import _postings, seed, titles
from tests.unit.test_chat_s38_sets import SEEDED, _but
from text.colloquial import standard_spelling
from tools.schedule import ScheduleStore

pytestmark = pytest.mark.usefixtures("fresh_schedules")


async def _left() -> dict[str, tuple[str, str | None]]:
    return {t: (i["date"], i.get("time")) for t, i in (await titles()).items()}


@pytest.mark.parametrize(
    ("turns", "expected"),
    [
        # the one spared stays; before, each of these deleted exactly the one spared
        (["remove everything except the Kakao interview"], _but("카카오 면접")),
        (["Cancel all of them but Naver pls"], _but("네이버 1차 면접")),
        (["apart from the study, delete everything"], _but("코딩 스터디")),
        (["keep just the naver interview and cancel the rest"], _but("네이버 1차 면접")),
        # by its place in the listing just shown
        (["show my schedule", "delete all except the last one"], _but("카카오 면접")),
        # nothing is done when the one spared is not there
        (["delete everything except the Toss interview"], SEEDED),
    ],
)
async def test_english_all_but_deletes(stand_in, client, turns, expected) -> None:
    await seed()
    for message in turns:
        await chat(client, message)
    assert await _left() == expected


async def test_english_all_but_moves_the_others(stand_in, client) -> None:
    """The new value after the words spared is the others' ("… back 30 minutes")."""
    await seed()
    await chat(client, "move every event other than the coding study back 30 minutes")
    assert await _left() == {
        "네이버 1차 면접": ("2026-12-04", "15:30"),
        "코딩 스터디": ("2026-12-01", "19:00"),
        "카카오 면접": ("2026-12-10", "14:30"),
    }


@pytest.mark.parametrize(
    ("message", "spared", "rest"),
    [
        ("delete all except the coding study", "the coding study", "delete all"),
        ("reschedule everything but Kakao to friday", "Kakao", "reschedule everything to friday"),
        ("except for the Naver one, drop everything", "the Naver one", ", drop everything"),
    ],
)
def test_english_all_but_reads_the_words_spared(message, spared, rest) -> None:
    said = all_but(message)
    assert said is not None
    assert (said.spared, said.rest) == (spared, rest)


@pytest.mark.parametrize(
    "message",
    [
        "I finished everything but the study",  # said of the rest, no marker of a request
        "all good except the time",
        "delete the study and add a dentist appointment on friday",
    ],
)
def test_english_without_all_but(message) -> None:
    said = all_but(message)
    assert said is None or split_operations(message)[0][1] not in (
        "delete_schedule",
        "update_schedule",
    )


def test_keep_and_delete_the_rest_is_one_request() -> None:
    assert split_operations("leave the study as is and delete the rest") == [
        ("leave the study as is and delete the rest", "delete_schedule")
    ]


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # before: the rest was read before the delete, so the deleted item was "moved" too
        # and the answer ended in "찾지 못했어요"
        (
            "스터디는 취소하고 나머지 일정은 이틀씩 미뤄줘",
            {"네이버 1차 면접": ("2026-12-06", "15:00"), "카카오 면접": ("2026-12-12", "14:00")},
        ),
        # a change of one, then the rest deleted: the one changed stays
        (
            "카카오 면접은 4시로 바꾸고 남은 건 다 삭제해줘",
            {"카카오 면접": ("2026-12-10", "16:00")},
        ),
    ],
)
async def test_the_rest_after_an_earlier_operation(stand_in, client, message, expected) -> None:
    await seed()
    body = await chat(client, message)
    assert await _left() == expected
    assert "찾지 못" not in body["answer"]


# --- round two (chat_xa_dev28) -------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "route"),
    [
        # a hiring stage to put in, with no day yet (was: read as a document question)
        ("삼성전자 인적성 등록해줘", "schedule"),
        ("LG CNS 코테 넣어줘", "schedule"),
        # written into a document, not the schedule
        ("이력서에 면접 경험 넣어줘", None),
        ("자기소개서에 인적성 준비 과정 넣어줘", None),
        # the user's chances or how to show something: advice
        ("회계 10년 하다가 개발자로 가려는데 30대 후반이면 늦었을까요", "general"),
        ("면접에서 물류 경력 어케 어필하면 돼?", "general"),
        ("비전공인데 데이터 분석 직무 가능할까요?", "general"),
    ],
)
def test_routes_of_round_two(message, route) -> None:
    assert keyword_route(message) == route


async def test_a_stage_with_no_day_is_asked_for_its_day(stand_in, client) -> None:
    await seed()
    asked = await chat(client, "현대오토에버 인적성 등록해줘")
    assert asked["route"] == "schedule" and asked["tool_calls"] == []
    await chat(client, "다음 주 수요일")
    assert (await titles())["현대오토에버 인적성"]["date"] == "2026-12-02"


async def test_the_evening_one_of_a_listing(stand_in, client) -> None:
    await seed()
    await chat(client, "12월 일정 보여줘")
    await chat(client, "그 저녁 거 30분 미뤄줘")
    assert (await titles())["코딩 스터디"]["time"] == "19:30"


async def test_the_earlier_of_the_items_described(stand_in, client) -> None:
    await seed()
    await chat(client, "12월 10일 오전 10시 라인 면접 추가")
    await chat(client, "10일에 면접이 두 개네, 이른 거 30분 당겨줘")
    now = await titles()
    assert (now["라인 면접"]["time"], now["카카오 면접"]["time"]) == ("09:30", "14:00")


async def test_every_changed_field_put_back(stand_in, client) -> None:
    await seed()
    await chat(client, "카카오 면접 5시로 옮겨줘")
    await chat(client, "이름도 '카카오 최종 면접'으로 바꿔줘")
    await chat(client, "전부 원래대로 돌려줘")
    assert (await titles())["카카오 면접"]["time"] == "14:00"


async def test_put_back_is_the_value_before_the_rooms_first_change(stand_in, client) -> None:
    await seed()
    await chat(client, "스터디 8시로")
    await chat(client, "아니 9시로")
    await chat(client, "원래대로 해줘")
    assert (await titles())["코딩 스터디"]["time"] == "19:00"


async def test_put_back_after_a_posting_question(stand_in, client) -> None:
    """Across a question about a posting: the item the room changed (of two interviews)."""
    await _postings(client)
    await seed()
    await chat(client, "네이버 면접 5시로 바꿔줘")
    await chat(client, "네이버 공고 코테 언제야?")
    out = await chat(client, "면접 시간 다시 원래대로 돌려놔")
    assert out["route"] == "schedule"
    now = await titles()
    assert (now["네이버 1차 면접"]["time"], now["카카오 면접"]["time"]) == ("15:00", "14:00")


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("그거 title을 '토스 과제'로 바꿔줘", "그거 제목을 '토스 과제'로 바꿔줘"),
        ("memo에 신분증 적어줘", "메모에 신분증 적어줘"),
        ("time은 그대로 두고 date만 바꿔", "시간은 그대로 두고 날짜만 바꿔"),
        # not inside an English sentence or another word
        ("set the time to 3pm", "set the time to 3pm"),
        ("username을 몰라", "username을 몰라"),
    ],
)
def test_english_field_words_in_a_korean_sentence(typed, read) -> None:
    assert standard_spelling(typed) == read


async def test_a_renamed_item_by_an_english_field_word(stand_in, client) -> None:
    await seed()
    await chat(client, "내일 저녁 7시 SQLD도 추가해줘")
    await chat(client, "방금 거 name을 'SQLD 실기'로 바꿔줘")
    assert "SQLD 실기" in await titles()


async def test_a_pasted_notice_keeps_the_team_and_its_place_line(stand_in, client) -> None:
    await seed()
    await chat(
        client,
        "[면접 안내] 지원자님 안녕하세요. (주)대한통운 인사기획팀 1차 면접을 아래와 같이 "
        "안내드립니다. 일시: 2026년 12월 9일(수) 오전 10시 / 장소: 본관 3층 세미나실. "
        "--- 등록 부탁해",
    )
    await chat(client, "장소 메모로 남겨줘")
    item = (await titles())["대한통운 인사기획팀 1차 면접"]
    assert (item["date"], item["time"], item["memo"]) == (
        "2026-12-09",
        "10:00",
        "본관 3층 세미나실",
    )


@pytest.mark.parametrize(
    "turns",
    [
        ["네이버 코테 언제야", "ok 그거 스케줄에 추가"],
        ["when's naver's coding test?", "please add it to my schedule"],
    ],
)
async def test_the_stage_just_told_put_in(stand_in, client, turns) -> None:
    await _postings(client)
    for message in turns:
        await chat(client, message)
    # (titled as the user called the stage: "네이버 코테"; in English, as the posting does)
    added = [i for t, i in (await titles()).items() if "코테" in t or "코딩테스트" in t]
    assert [(i["date"], i["time"]) for i in added] == [("2026-12-19", "10:00")]


async def test_an_event_counted_from_the_stage_is_the_users_own(stand_in, client) -> None:
    await _postings(client)
    await chat(client, "네이버 코테 언제야")
    await chat(client, "그거 끝나고 스터디원들이랑 회고 일정 넣어줘")
    assert not [t for t in await titles() if "코딩테스트" in t]


LONG_POSTING = """회사명: 토스뱅크
모집부문: 서버 개발자
[회사 소개]
- 모두를 위한 은행을 만드는 팀입니다. 고객 경험을 가장 중요하게 생각합니다.
[담당 업무]
- 여신 심사 시스템 설계와 운영
- 대출 실행 배치와 정산 파이프라인 개선
[자격 요건]
- Kotlin 능숙자
- 대규모 트랜잭션 처리 경험
[우대 사항]
- 금융권 도메인 경험
[복지]
- 자율 출퇴근, 점심 식대 지원
"""


@pytest.mark.parametrize(
    "question",
    [
        "토스뱅크 공고는 어떤 프로그래밍 언어를 써?",
        "which coding language does the Toss posting want?",
    ],
)
async def test_a_kind_of_skill_asked_by_its_category(stand_in, client, question) -> None:
    """A line naming a skill of the kind asked answers it, though it has no word of the
    question (and the search, led by those words, may not reach it)."""
    from tests.unit.test_chat import embed

    await embed(client, "u1", "toss", "posting", LONG_POSTING)
    out = await chat(client, question)
    assert out["route"] == "rag"
    assert out["answer"].startswith("Kotlin")


# --- the review's findings (each was wrong in the first version of this session) ------------


@pytest.mark.parametrize(
    ("turns", "expected"),
    [
        # a set named by its kind: only those items, never the one spared
        (
            ["push all my meetings and interviews except the kakao one back 2 hours"],
            {**SEEDED, "네이버 1차 면접": ("2026-12-04", "17:00")},
        ),
        (["cancel every interview but the Naver one"], _but("네이버 1차 면접", "코딩 스터디")),
        # "늦은 거" of someone being late is no item
        (["연락 늦은 거 죄송합니다 면접 하나 지워주세요"], SEEDED),
        # a half of the day of another day than the items'
        (["12월 일정 전부 보여줘", "월요일 저녁 거 삭제"], SEEDED),
        # "all but" said of something else is no request of it
        (["Delete the study, that's all but thank you"], _but("네이버 1차 면접", "카카오 면접")),
        (
            ["I'll take care of the rest but please delete the Kakao one"],
            _but("네이버 1차 면접", "코딩 스터디"),
        ),
        # an item the message acts on later is not in "everything"
        (
            ["Remove everything but the Naver interview, and move the study to 9pm"],
            {"네이버 1차 면접": SEEDED["네이버 1차 면접"], "코딩 스터디": ("2026-12-01", "21:00")},
        ),
    ],
)
async def test_s39_review_guards(stand_in, client, turns, expected) -> None:
    await seed()
    for message in turns:
        await chat(client, message)
    assert await _left() == expected


async def test_s39_review_all_but_then_an_add(stand_in, client) -> None:
    await seed()
    await chat(
        client, "delete everything except the study and then add a dentist appointment Friday 4pm"
    )
    left = await _left()
    assert set(left) - {"코딩 스터디"} and ("2026-12-04", "16:00") in left.values()
    assert "네이버 1차 면접" not in left and "카카오 면접" not in left


@pytest.mark.parametrize(
    "typed",
    ["메모에 'Lead time을 줄인 사례' 적어줘", "'Team name을 정하는 회의'", "Lead time을 줄였어"],
)
def test_s39_review_field_words_as_written(typed) -> None:
    assert standard_spelling(typed) == typed


@pytest.mark.parametrize(
    ("message", "route"),
    [
        # a posting's step named: its deadline, not advice (the examples decide)
        ("토스 서류 접수 아직 가능할까?", None),
        # written into an application form
        ("지원서에 어학 점수 추가해줘", None),
    ],
)
def test_s39_review_routes(message, route) -> None:
    assert keyword_route(message) == route


def test_s39_review_a_spoken_language_is_no_programming_language() -> None:
    from nodes.chat.grounded import asks_skill_category

    assert not asks_skill_category("카카오 공고에 언어 점수 필요해?")
    assert not asks_skill_category("외국어나 언어 능력 우대 있어?")


async def test_s39_review_an_address_keeps_its_full_stop(stand_in, client) -> None:
    await seed()
    await chat(
        client,
        "[면접 안내] (주)한빛 2차 면접 안내드립니다. 일시: 2026년 12월 11일(금) 오후 3시 / "
        "장소: 서울 중구 세종대로 9. 한빛타워 5층\n이거 일정에 등록해줘",
    )
    await chat(client, "장소 메모로 넣어줘")
    memos = [i.get("memo") for i in (await titles()).values() if i.get("memo")]
    assert memos == ["서울 중구 세종대로 9. 한빛타워 5층"]


# --- round four (chat_xa_dev29: the everyday mix of the test brief) ---------------------------


async def test_a_memo_with_words_before_its_colon(stand_in, client) -> None:
    await seed()
    await chat(client, "네이버 면접에 메모 한 줄 남겨줘: 신분증 지참")
    assert (await titles())["네이버 1차 면접"]["memo"] == "신분증 지참"


async def test_a_value_put_in_by_reflect(stand_in, client) -> None:
    await seed()
    await chat(client, "12월 8일 구청 상담 추가해줘")
    await chat(client, '방금 받은 안내: "상담은 17시 시작입니다" 시간 반영해 주세요')
    assert (await titles())["구청 상담"]["time"] == "17:00"


async def test_the_date_and_time_pointed_at_after_a_stage(stand_in, client) -> None:
    await _postings(client)
    await chat(client, "네이버 코테 날짜 알려줘")
    await chat(client, "그 날짜랑 시간으로 내 캘린더에 등록해, 제목은 네이버 코테")
    item = (await titles())["네이버 코테"]
    assert (item["date"], item["time"]) == ("2026-12-19", "10:00")


async def test_moved_to_the_date_in_the_posting_in_english(stand_in, client) -> None:
    await _postings(client)
    await seed()
    await chat(client, "When is Kakao's first interview?")
    await chat(client, "please reschedule my Kakao interview to the date in the posting")
    assert (await titles())["카카오 면접"]["date"] == "2027-01-05"


def test_manners_are_advice() -> None:
    assert keyword_route("면접관한테 연봉 먼저 물어보는 거 실례일까?") == "general"


async def test_a_typo_in_the_title_just_added_is_fixed(stand_in, client) -> None:
    await seed()
    await chat(client, "12월 12일 오후 1시 카카우페이 면접 넣어줘")
    assert "카카우페이 면접" in await titles()  # (the typo kept whole, not cut by the analyser)
    await chat(client, "아 오타 카카오페이 면접으로 수정")
    now = await titles()
    assert "카카오페이 면접" in now and "카카우페이 면접" not in now


async def test_a_far_title_is_no_typo_fix(stand_in, client) -> None:
    await seed()
    await chat(client, "12월 12일 오후 1시 토스 과제 발표 넣어줘")
    await chat(client, "당근 면접으로 바꿔줘")
    assert "토스 과제 발표" in await titles()


async def test_a_day_counted_from_an_item_of_the_listing_shown(stand_in, client) -> None:
    await seed()
    await chat(client, "다음 주 일정 보여줘")
    await chat(client, "면접 준비는 어떻게 해?")
    await chat(client, "ㅇㅋ 보여준 거 중에 면접 전날 오후 8시에 예상질문 정리 넣어줘")
    item = (await titles())["예상질문 정리"]
    assert (item["date"], item["time"]) == ("2026-12-03", "20:00")


RESUME = """박서연 | 마케터
[경력]
브라이트랩 2021.01 ~ 2024.06
- 퍼포먼스 마케팅, 월 광고비 3억 운영
[학력]
서울여자대학교 경영학과 졸업 (2020)
[자격증]
GA4 인증
"""


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Which college did I go to, per my resume?", "서울여자대학교"),
        ("내 이력서에 전 직장 어디라고 돼 있지?", "브라이트랩"),
    ],
)
async def test_a_part_asked_by_what_it_holds(stand_in, client, question, expected) -> None:
    from tests.unit.test_chat import embed

    await embed(client, "u1", "resume", "resume", RESUME)
    out = await chat(client, question)
    assert out["route"] == "rag"
    assert out["answer"].startswith(expected)


# --- the second review's findings (round four) -----------------------------------------------


@pytest.mark.parametrize(
    "turns",
    [
        # another item's name, and words of when, are no typo fix of the item just added
        ["12월 15일 오후 3시 네이버 2차 면접 추가해줘", "네이버 1차 면접으로 바꿔줘"],
        ["12월 15일 오후 3시 네이버 2차 면접 추가해줘", "네이버 면접 날로 바꿔줘"],
        # nor of an item two turns back
        [
            "12월 15일 오후 3시 네이버 2차 면접 추가해줘",
            "카카오 면접 몇 시였지?",
            "네이버 3차 면접으로 고쳐줘",
        ],
    ],
)
async def test_s39_second_review_no_rename(stand_in, client, turns) -> None:
    await seed()
    for message in turns:
        await chat(client, message)
    assert "네이버 2차 면접" in await titles()


@pytest.mark.parametrize(
    "message",
    [
        "스터디에서 받은 피드백 반영해서 12월 3일에 자소서 다시 냈어",
        "멘토 의견 반영해야 하는데 막막하다",
    ],
)
def test_s39_second_review_reflect_said_of_something_else(message) -> None:
    assert split_operations(message)[0][1] != "update_schedule"


async def test_s39_second_review_the_day_pointed_at_is_no_title(stand_in, client) -> None:
    """ "그 전날 넣어줘" names no event: asked (before: titled '그')."""
    await _postings(client)
    await chat(client, "카카오 코테 언제야?")
    out = await chat(client, "그 전날 넣어줘")
    assert out["tool_calls"] == [] and "이름" in out["answer"]


async def test_s39_second_review_time_not_pointed_at(stand_in, client) -> None:
    await _postings(client)
    await chat(client, "네이버 코테 언제야?")
    await chat(client, "그날하고 시간 안 겹치게 12월 18일에 알고리즘 복습 추가해줘")
    assert (await titles())["알고리즘 복습"].get("time") is None


def test_s39_second_review_among_those_is_no_other_word() -> None:
    from nodes.chat.focus import AMONG_THOSE

    assert AMONG_THOSE.search("아까 보여준거 중에 면접 전날")
    assert not AMONG_THOSE.search("그 중요한 면접 전날")
    assert not AMONG_THOSE.search("그중간에 스터디")


@pytest.mark.parametrize(
    ("message", "words"),
    [
        ("Is Go required in the kakao posting?", "go"),
        ("이력서에 학점 몇으로 적혀있어?", "학점"),
    ],
)
def test_s39_second_review_words_kept(message, words) -> None:
    from nodes.chat.grounded import asked_words

    assert words in asked_words(message)


def test_s39_second_review_a_job_of_ones_own_is_no_duties_question() -> None:
    from text.sections import DUTIES_ASKED

    assert not DUTIES_ASKED.search("My current job involves a lot of overtime, should I quit?")
    assert DUTIES_ASKED.search("What does the Naver posting say the job involves?")


async def test_one_more_of_the_item_just_added_keeps_its_name(stand_in, client) -> None:
    """ "12월 20일도 … 하나 더 넣어줘" names nothing: another of the item just added (before:
    an item titled '더')."""
    await seed()
    await chat(client, "12월 13일에 독서 모임 넣어줘")
    await chat(client, "12월 20일도 저녁 7시로 하나 더 넣어줘")
    days = sorted(
        i["date"] for i in await ScheduleStore(None).get("u1") if i["title"] == "독서 모임"
    )
    assert days == ["2026-12-13", "2026-12-20"]
    assert "더" not in await titles()


async def test_a_word_after_one_more_is_no_copy(stand_in, client) -> None:
    await seed()
    await chat(client, "12월 6일 요가 넣어줘")
    await chat(client, "하나 더 넣어줘 수영 12월 8일")
    assert "더" not in await titles()
    assert [i["date"] for t, i in (await titles()).items() if t == "요가"] == ["2026-12-06"]


# --- round five: the field a put-back names, and "all" of a kind after the Korean marker ------


async def test_the_field_a_put_back_names(stand_in, client) -> None:
    await seed()
    await chat(client, "네이버 면접 5시로 옮겨줘")
    await chat(client, "날짜도 7일로 바꿔줘")
    await chat(client, "시간은 다시 원래대로")
    item = (await titles())["네이버 1차 면접"]
    assert (item["date"], item["time"]) == ("2026-12-07", "15:00")


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        (
            "네이버 말고 면접 전부 30분 당겨줘",
            {**SEEDED, "카카오 면접": ("2026-12-10", "13:30")},
        ),
        ("카카오 빼고 면접 다 지워", _but("카카오 면접", "코딩 스터디")),
    ],
)
async def test_all_of_a_kind_but_one(stand_in, client, message, expected) -> None:
    await seed()
    await chat(client, message)
    assert await _left() == expected
