"""Session 44: what chat_xa_dev35 showed the room missed. A booking asked for ("예약해줘") is
an add; a value set ("지정해 주세요") is a change; an item picked by its clock alone is not
the one meant when the clause says another day or names another event; the polite 요 after
a title's noun is no part of it; "that day" after an English title is the room's day; "…
넣어주시구요, …" ends one request; "그 주에 … 있었나요?" and "X 있는 주/날" look at the
week or the day of the room or of an item; what to say or what to do first is advice; a
follow-up naming another part of the documents ("그럼 자격증은?", "what about
certificates then") asks that part, not the earlier words no document holds, and keeps the
company the earlier question named. (Written in other words than the dev rows.)"""

from __future__ import annotations

import pytest

from nodes.chat.grounded import Passage, asked_words, rag_answer
from nodes.chat.router import ADD_VERB, keyword_route
from nodes.chat.schedule_requests import _without_particle
from tests.unit.test_chat import chat
from tests.unit.test_chat_focus import seed, titles

pytestmark = pytest.mark.usefixtures("fresh_schedules")


def _calls(out: dict) -> list[tuple[str, dict]]:
    return [(c["name"], c["args"]) for c in out["tool_calls"]]


# --- a booking, a value set ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "title", "day", "clock"),
    [
        ("12월 9일 오후 2시 치과 예약해줘", "치과", "2026-12-09", "14:00"),
        ("다음 주 수요일 저녁 7시 헬스 PT 예약 좀 부탁해요", "헬스 PT", "2026-12-02", "19:00"),
    ],
)
async def test_a_booking_asked_for_is_an_add(stand_in, client, message, title, day, clock) -> None:
    out = await chat(client, message)
    assert _calls(out) == [("add_schedule", {"title": title, "date": day, "time": clock})]


@pytest.mark.parametrize(
    "message",
    ["예약 확인 좀 해줘", "병원 예약했는데 괜찮을까", "미용실 예약 취소됐대"],
)
def test_a_booking_told_or_checked_is_no_add(message) -> None:
    assert ADD_VERB.search(message) is None


async def test_a_value_set_for_the_item_is_a_change(stand_in, client) -> None:
    await seed()
    await chat(client, "1월 20일에 자격증 필기 넣어줘")
    out = await chat(client, "그거 오후 1시로 시간 지정해 줘")
    assert [n for n, _ in _calls(out)] == ["update_schedule"]
    assert (await titles())["자격증 필기"]["time"] == "13:00"


# --- an item picked by its clock alone --------------------------------------------------------


@pytest.mark.parametrize(
    "message",
    [
        "모레 오후 3시 안과 진료 취소해줘",  # another day, another event: Friday's interview stays
        "오후 3시 피부과 지워줘",  # an event no item is
        "내일 저녁 7시 일정 취소",  # the study is on Tuesday, not tomorrow
    ],
)
async def test_an_item_is_not_deleted_for_its_clock_alone(stand_in, client, message) -> None:
    await seed()
    out = await chat(client, message)
    assert "delete_schedule" not in [n for n, _ in _calls(out)]
    assert {"네이버 1차 면접", "코딩 스터디", "카카오 면접"} <= set(await titles())


async def test_the_clock_alone_still_picks_when_nothing_else_is_said(stand_in, client) -> None:
    await seed()
    await chat(client, "오후 7시 거 지워줘")
    assert "코딩 스터디" not in await titles()


# --- the title's own words ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("title", "bare"),
    [
        ("동아리 정기 모임요", "동아리 정기 모임"),
        ("피부과요", "피부과"),
        ("AWS 스터디요", "AWS 스터디"),
        ("토요", "토요"),  # a word of its own
        ("세미나실 대관이요", "세미나실 대관"),
    ],
)
def test_the_polite_yo_after_a_title_is_no_part_of_it(title, bare) -> None:
    assert _without_particle(title) == bare


async def test_that_day_after_an_english_title_is_the_rooms_day(stand_in, client) -> None:
    await seed()
    await chat(client, "what's on Tuesday?")
    out = await chat(client, "put gym with Minsu that day at 6am")
    assert _calls(out) == [
        ("add_schedule", {"title": "gym with Minsu", "date": "2026-12-01", "time": "06:00"})
    ]


# --- the week or the day of the room or of an item ---------------------------------------------


async def test_that_week_asked_whether_it_holds_more(stand_in, client) -> None:
    await seed()
    await chat(client, "12월 16일 오후 4시 현대차 인적성 추가해줘")
    out = await chat(client, "그 주에 스터디도 있나?")
    assert _calls(out) == [("get_schedule", {"start_date": "2026-12-14", "end_date": "2026-12-20"})]


@pytest.mark.parametrize(
    "message",
    ["그 주제로 자소서 쓰는 법 알려줄 수 있나?", "그 주식 얘기 있잖아 그거 뭐였지"],
)
def test_a_word_beginning_with_ju_is_no_week(message) -> None:
    assert keyword_route(message) != "schedule"


@pytest.mark.parametrize(
    ("message", "start", "end"),
    [
        ("카카오 면접 있는 주에 다른 거 뭐 있지?", "2026-12-07", "2026-12-13"),
        ("네이버 면접 잡힌 날 일정 보여줘", "2026-12-04", "2026-12-04"),
    ],
)
async def test_the_week_or_the_day_of_an_item_named(stand_in, client, message, start, end) -> None:
    await seed()
    out = await chat(client, message)
    assert _calls(out) == [("get_schedule", {"start_date": start, "end_date": end})]


async def test_an_item_two_of_which_fit_names_no_week(stand_in, client) -> None:
    await seed()
    out = await chat(client, "면접 있는 주 일정 알려줘")  # two interviews, two weeks
    assert _calls(out) != [("get_schedule", {"start_date": "2026-11-30", "end_date": "2026-12-06"})]
    assert _calls(out) != [("get_schedule", {"start_date": "2026-12-07", "end_date": "2026-12-13"})]


# --- advice: what to say, what to do first -----------------------------------------------------


@pytest.mark.parametrize(
    "message",
    [
        "면접에서 야근 가능하다고 해야 돼?",
        "희망 연봉 물어보면 뭐라고 대답해야 할까",
        "간호사에서 마케터로 전향하는데 자소서는 뭐부터 만들어야 됨?",
    ],
)
def test_what_to_say_or_do_first_is_advice(message) -> None:
    assert keyword_route(message) == "general"


@pytest.mark.parametrize(
    "message",
    ["토요일 오전 10시 스터디 일정 만들어야 돼", "카카오 면접 취소해야 할 것 같아 지워줘"],
)
def test_a_request_beside_a_modal_stays_a_request(message) -> None:
    assert keyword_route(message) == "schedule"


# --- a follow-up naming another part of the documents -----------------------------------------

RESUME = [
    Passage("cv", "resume", "학력", "[학력]\n서울대학교 경영학과 졸업 (2020)", 0.8),
    Passage("cv", "resume", "자격증", "[자격증]\nAICPA (2022)\n전산회계 1급 (2019)", 0.7),
]
POSTINGS = [
    Passage("a", "posting", "우대사항", "[우대사항]\n- SAP 사용 경험\n- 영어 가능자", 0.7, "삼일"),
    Passage("b", "posting", "우대사항", "[우대사항]\n- IFRS 실무 경험\n- SAP 숙련", 0.8, "한영"),
    Passage("a", "posting", "자격요건", "[자격요건]\n- 회계 관련 학과 졸업", 0.6, "삼일"),
]


def test_another_part_named_after_an_unanswered_question() -> None:
    answer = rag_answer("자격증은?", RESUME, "이력서에 오픽 등급 적혀 있어?")
    assert answer.startswith("AICPA")
    english = rag_answer("okay, what about certificates then", RESUME, "any IELTS score on my cv?")
    assert "AICPA" in english


def test_what_about_asks_no_about_me() -> None:
    words = asked_words("okay what about certificates then")
    assert words and all(w not in ("ok", "then", "자기소개") for w in words)


def test_the_earlier_questions_company_is_kept() -> None:
    answer = rag_answer("우대사항은?", POSTINGS, "삼일 자격요건 뭐야")
    assert "SAP 사용 경험" in answer and "IFRS" not in answer


# --- the resume compared with a posting, no line named ---------------------------------------

CV = Passage("cv", "resume", "기술 스택", "[기술 스택]\nExcel, Java, Python", 0.6)
FIRM = [
    Passage(
        "f", "posting", "자격요건", "[자격요건]\n- Java 개발 경험\n- Kubernetes 운영", 0.5, "삼정"
    ),
    Passage("f", "posting", "우대사항", "[우대사항]\n- Python 자동화 경험", 0.4, "삼정"),
]


def test_the_skills_a_posting_and_the_resume_share() -> None:
    answer = rag_answer("삼정 공고랑 내 이력서 비교하면 겹치는 기술 있어?", [CV, *FIRM])
    assert answer.startswith("이력서에도 있는 건") and "Java" in answer and "Python" in answer
    assert "Kubernetes" not in answer.split(":")[0]


def test_what_the_resume_lacks_asked_after_the_comparison() -> None:
    context = "삼정 공고랑 내 이력서 비교하면 겹치는 기술 있어?"
    answer = rag_answer("부족한 건 뭐야", [CV, *FIRM], context)
    assert answer.startswith("이력서에 없는 건") and "Kubernetes" in answer
    assert "Java" not in answer.split(":")[0]


# --- what the review found in the first version (each was wrong in it) ----------------------


@pytest.mark.parametrize(
    "message",
    [
        "카카오 면접 알림 하루 전으로 지정 좀 해줘",  # an alarm's time, not the item's
        "네이버 면접 푸시 알림 오전 9시로 지정 부탁",
    ],
)
async def test_review_an_alarm_set_moves_nothing(stand_in, client, message) -> None:
    await seed()
    await chat(client, message)
    now = await titles()
    assert (now["카카오 면접"]["date"], now["카카오 면접"]["time"]) == ("2026-12-10", "14:00")
    assert (now["네이버 1차 면접"]["date"], now["네이버 1차 면접"]["time"]) == (
        "2026-12-04",
        "15:00",
    )


@pytest.mark.parametrize(
    "message",
    [
        "내일 피부과 예약해요 떨린다",  # told, not asked
        "부장님이 12월 8일 오후 3시 세미나실 예약 부탁하셨어",  # someone else's request
        "국민은행 면접 12월 9일로 재예약해줘",  # a move, said as booking again
    ],
)
async def test_review_a_booking_told_adds_nothing(stand_in, client, message) -> None:
    await seed()
    out = await chat(client, message)
    assert "add_schedule" not in [n for n, _ in _calls(out)]


@pytest.mark.parametrize(
    ("message", "gone"),
    [
        ("cancel my Tuesday 7pm", "코딩 스터디"),
        ("12월 4일 3시 거 지워 주세요 갑자기 출장 잡혀서", "네이버 1차 면접"),
        ("12월 10일 오후 2시 건 삭제 처리 부탁드립니다", "카카오 면접"),
    ],
)
async def test_review_a_day_and_clock_still_pick_the_item(stand_in, client, message, gone) -> None:
    await seed()
    await chat(client, message)
    assert gone not in await titles()


@pytest.mark.parametrize(
    "message",
    [
        "카카오 코테 마감 있는 주에 나 뭐 있어?",  # not the week of 카카오 면접
        "네이버 면접 있는 날 전까지 뭐 있지?",  # counted from it: up to that day
    ],
)
async def test_review_an_item_period_needs_the_whole_name_and_no_count(
    stand_in, client, message
) -> None:
    await seed()
    out = await chat(client, message)
    assert _calls(out) != [("get_schedule", {"start_date": "2026-12-07", "end_date": "2026-12-13"})]
    assert _calls(out) != [("get_schedule", {"start_date": "2026-12-04", "end_date": "2026-12-04"})]


def test_review_another_company_is_not_the_one_held_over() -> None:
    answer = rag_answer("다른 회사 우대사항은?", POSTINGS, "삼일 자격요건 뭐야")
    assert "IFRS" in answer


@pytest.mark.parametrize("message", ["스터디 일정 지워야 돼", "네이버 면접 취소해야 됨"])
def test_review_a_delete_said_as_a_must_is_asked_for(message) -> None:
    assert keyword_route(message) == "schedule"


def test_review_what_to_say_about_a_posting_asks_the_posting() -> None:
    assert keyword_route("네이버 공고에 3년 이상이라는데 2년이라고 해야 돼?") != "general"


def test_review_an_english_title_keeps_that_night() -> None:
    from nodes.chat.schedule_requests import ENGLISH_TAIL

    assert ENGLISH_TAIL.sub("", "movie That Night") == "movie That Night"


# --- a request beside a feeling; what the user says they will do; a day of the item's month ---


@pytest.mark.parametrize(
    "message",
    [
        "방금 그거 2시로 해 주세요 ㅠㅠ 제가 잘못 말했어요",
        "이번 달 일정 전부 볼 수 있을까요? 마감이 몰려서 불안하네요",
    ],
)
def test_a_request_beside_a_feeling_is_no_small_talk(message) -> None:
    assert keyword_route(message) != "general"


@pytest.mark.parametrize(
    ("message", "kind"),
    [("스터디 하루 미룰게요", "update_schedule"), ("그 일정 그냥 지울게", "delete_schedule")],
)
def test_what_the_user_says_they_will_do_is_asked(message, kind) -> None:
    from nodes.chat.router import operation_kind

    assert operation_kind(message) == kind


async def test_a_bare_day_is_the_one_nearest_the_items_day(stand_in, client) -> None:
    await seed()
    await chat(client, "1월 28일 오후 1시에 롯데호텔 면접 넣어주세요")
    await chat(client, "롯데호텔 건 2일로 옮겨 주세요")  # February 2nd, not December's
    assert (await titles())["롯데호텔 면접"]["date"] == "2027-02-02"


async def test_a_remark_on_the_day_is_no_new_event(stand_in, client) -> None:
    await seed()
    await chat(client, "12월 10일 오전 9시 서류 제출 넣어줘")
    out = await chat(client, "카카오 면접이랑 같은 날이구나 ㅋㅋ 바쁘겠다")
    assert "add_schedule" not in [n for n, _ in _calls(out)]
    assert len(await titles()) == 4


async def test_one_more_is_no_part_of_the_title(stand_in, client) -> None:
    await seed()
    await chat(client, "12월 7일 오후 2시 토스 면접 넣어줘")
    out = await chat(client, "그 다음날 오전 9시에 당근 과제 면접도 하나 더")
    assert _calls(out) == [
        ("add_schedule", {"title": "당근 과제 면접", "date": "2026-12-08", "time": "09:00"})
    ]


# --- a posting named by its job; whether a thing is required; a year a line shows ---------------

JOBS = [
    Passage("h", "posting", "모집 부문", "[모집 부문]\n회계 담당자", 0.9, "한빛", "회계 담당자"),
    Passage(
        "h", "posting", "우대사항", "[우대사항]\n- 더존 ERP 사용 경험\n- CPA 보유", 0.5, "한빛"
    ),
    Passage("h", "posting", "자격요건", "[자격요건]\n- 전산회계 1급 이상", 0.4, "한빛"),
]


def test_the_job_named_names_the_posting_not_the_question() -> None:
    answer = rag_answer("한빛 회계 담당자 공고 우대사항 뭐였지?", JOBS)
    assert answer.startswith("더존 ERP")


@pytest.mark.parametrize(
    ("message", "kind"),
    [("한빛 공고에 CPA 필수임?", "우대예요"), ("한빛 공고 전산회계 꼭 있어야 돼?", "필수예요")],
)
def test_whether_a_thing_is_required_is_answered_by_its_list(message, kind) -> None:
    assert rag_answer(message, JOBS).startswith(kind)


def test_a_year_the_line_pointed_at_shows() -> None:
    certificates = [
        Passage("cv", "resume", "자격증", "[자격증]\nADsP (2023)", 0.8),
        Passage("cv", "resume", "경력", "[경력]\n한빛상사 2020.03 ~ 2024.02", 0.4),
    ]
    answer = rag_answer("그거 취득 연도는?", certificates, "나 자격증 뭐 있다고 적었지")
    assert answer.startswith("ADsP (2023)")


# --- what the second review found (each was wrong in 696e82a) -----------------------------


def test_second_review_a_booking_reported_adds_nothing() -> None:
    assert ADD_VERB.search("엄마가 병원 예약 좀 부탁한대 12월 7일 10시") is None
    assert ADD_VERB.search("면접장 근처 카페 예약해 줘야 하나?") is None


@pytest.mark.parametrize(
    "message",
    [
        "제가 해본 게 많지 않아서 네이버 공고 자격요건부터 알려주세요",  # a list asked
        "포트폴리오랑 카카오 공고 겹치는 기술 있어?",  # the portfolio, not the resume
    ],
)
def test_second_review_no_resume_comparison_asked(message) -> None:
    from nodes.chat.grounded import asks_held_by_resume

    assert not asks_held_by_resume(message)


def test_second_review_a_section_compared_is_the_whole_section() -> None:
    lists = [
        Passage(
            "f", "posting", "우대사항", "[우대사항]\n- Java 경험\n- Kubernetes 운영", 0.5, "삼정"
        ),
        CV,
    ]
    answer = rag_answer("부족한 건 뭐야", lists, "삼정 우대사항에 Java 있어?")
    assert "Kubernetes" in answer.split(":")[0]


def test_second_review_the_held_over_company_yields_to_the_one_that_holds_it() -> None:
    answer = rag_answer("IFRS는?", POSTINGS, "삼일 우대사항에 SAP 있어?")
    assert "IFRS" in answer


async def test_second_review_a_reason_after_the_request_keeps_the_item(stand_in, client) -> None:
    await seed()
    await chat(client, "저녁 7시 거 취소해줘 회식 잡혀서")
    assert "코딩 스터디" not in await titles()


async def test_second_review_an_overlap_of_days_after_a_posting_is_a_look(stand_in, client) -> None:
    await seed()
    await chat(client, "카카오 공고 우대사항 뭐야")
    out = await chat(client, "12월 10일에 겹치는 거 있어?")
    assert _calls(out) == [("get_schedule", {"start_date": "2026-12-10", "end_date": "2026-12-10"})]


def test_second_review_among_those_shown_stays_those_lines() -> None:
    lists = [
        Passage(
            "f",
            "posting",
            "우대사항",
            "[우대사항]\n- Python 자동화\n- Kubernetes 운영",
            0.5,
            "삼정",
        ),
        Passage("f", "posting", "자격요건", "[자격요건]\n- Java 개발 경험", 0.4, "삼정"),
        CV,
    ]
    answer = rag_answer("그 중에 내 이력서에 있는 거 있어?", lists, "삼정 우대사항 뭐야")
    assert answer.startswith("이력서에도 있는 건 Python")
    assert "Java" not in answer
