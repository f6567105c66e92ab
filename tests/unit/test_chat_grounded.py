"""No junk reaches a user, in the chat (issue 13): on the embedded stand-in every answer is
grounded text (the retrieved passages with their sources, or an honest reply naming the
setting for free answers), streamed as tokens with no model call; with any other model a
junk answer is replaced by grounded text and counted.

Graph logic over HTTP (the real app over ASGI, in-process saver and cache, real embedded
embeddings, a temporary Chroma directory); the chat models are scripted fakes. Which model
is "the stand-in" is decided from the feature's model spec, patched to "local" here
(tests/integration/test_chat_grounded.py runs the real embedded model).
"""

from __future__ import annotations

import json
from datetime import date
from typing import Any

import pytest
from langchain_core.messages import AIMessage
from prometheus_client import REGISTRY

from core.models import ModelRegistry
from core.services import in_process_services, set_services
from core.settings import Settings
from nodes.chat.grounded import (
    Passage,
    answer_lines,
    general_answer,
    rag_answer,
)
from tests.conftest import POSTING, RESUME, saved_state
from tests.unit.test_chat import NOW, chat, embed
from tests.unit.test_chat_tools import UNCLEAR, ToolCallingFake, asks, seed
from tests.unit.test_server import sse_events
from text.degenerate import degenerate_reason
from text.user_text import leak_reason

SKILLS = "Java, Spring Boot, JPA, MySQL, Redis, Docker"
# What the 135M stand-in wrote for "내 이력서에 적은 기술 스택이 뭐였지?" before this change.
STAND_IN_JUNK = (
    "질문\n\n## 지난 대화\n(없음)\n\n## 참고 문서\n(resume/기술 스택) [기술 스택]\n"
    "Java, Spring Boot, JPA, MySQL, Redis, Docker\n\n## 참"
)

pytestmark = pytest.mark.usefixtures("fresh_schedules")


def junk_count(reason: str) -> float:
    value = REGISTRY.get_sample_value(
        "devths_degenerate_outputs_total", {"feature": "chat", "reason": reason}
    )
    return value or 0.0


async def stream(client, message: str, user: str = "u1", room: str = "r1") -> tuple[str, dict]:
    """The answer's tokens (joined) and the final output of one /ai/chat/stream_events call;
    every token comes from the user-visible `write_answer` step."""
    body = {"user_id": user, "room_id": room, "message": message, "now": NOW}
    r = await client.post("/ai/chat/stream_events", json={"input": body, "version": "v2"})
    assert r.status_code == 200, r.text
    events = [json.loads(d) for kind, d in sse_events(r.text) if kind == "data"]
    tokens = [e for e in events if e["event"] == "on_chat_model_stream"]
    assert len(tokens) > 5
    assert {e["metadata"]["langgraph_node"] for e in tokens} == {"write_answer"}
    final = [e for e in events if e["event"] == "on_chain_end" and not e["parent_ids"]][-1]
    output = final["data"]["output"]
    assert set(output) == {"answer", "route", "tool_calls", "sources"}
    return "".join(e["data"]["chunk"]["content"] for e in tokens), output


# --- the texts ---------------------------------------------------------------------------


def test_the_answering_line_comes_first_then_its_document_and_heading():
    passages = [
        Passage("cv", "resume", "자기소개", "[자기소개]\n3년차 백엔드 개발자입니다.", 0.90),
        Passage("cv", "resume", "기술 스택", f"[기술 스택]\n{SKILLS}", 0.88),
        Passage("kakao", "posting", "우대사항", "[우대사항]\n- Kafka 운영 경험", 0.87),
    ]
    answer = rag_answer("내 이력서에 적은 기술 스택이 뭐였지?", passages)
    assert answer == f"{SKILLS}\n(출처: 이력서 · 기술 스택)"
    # A chunk holding several headed parts: only the part asked about, under its heading.
    cover = Passage(
        "cover",
        "note",
        "개요",
        "[지원 동기]\n안정적인 주문 시스템을 만들고 싶어 지원했습니다.\n[입사 후 포부]\n"
        "결제 장애를 줄이는 관측 체계를 만들고 싶습니다.",
        0.86,
    )
    assert rag_answer("입사 후 포부가 뭐였지?", [cover]) == (
        "결제 장애를 줄이는 관측 체계를 만들고 싶습니다.\n(출처: 메모 · 입사 후 포부)"
    )
    # A question naming the company of one posting never answers from another company's.
    naver = Passage("naver", "posting", "우대사항", "[우대사항]\n- Kafka 운영 경험", 0.9, "네이버")
    kakao = Passage("kakao", "posting", "우대사항", "[우대사항]\n- Kubernetes 경험", 0.8, "카카오")
    assert rag_answer("카카오 우대사항이 뭐였지?", [naver, kakao]) == (
        "Kubernetes 경험\n(출처: 카카오 채용공고 · 우대사항)"
    )
    # The question names a kind of document the user has not uploaded: said so.
    answer = rag_answer("내 포트폴리오에 적은 수상 경력 알려줘", passages)
    assert "포트폴리오에서 질문과 관련된 부분을 찾지 못했어요" in answer
    assert "포트폴리오를 아직 올리지 않으셨다면" in answer


PROJECTS = Passage(
    "pf",
    "portfolio",
    "프로젝트",
    "[프로젝트]\n1. 재고 알림 서비스\n- Kafka로 재고 변동 푸시, 알림 지연 2초 → 200ms\n"
    "2. 주식 시세 대시보드\n- React와 WebSocket으로 실시간 차트 구현",
    0.86,
)


def test_an_item_is_answered_with_the_line_under_its_name_and_a_position_picks_an_item():
    assert rag_answer("포폴 주식 시세 대시보드 뭐로 만들었어?", [PROJECTS]).startswith(
        "주식 시세 대시보드, React와 WebSocket으로 실시간 차트 구현\n"
    )
    first = rag_answer("포폴에 있는 첫 번째 프로젝트 뭐야?", [PROJECTS])
    assert first.startswith("재고 알림 서비스, Kafka로 재고 변동 푸시")
    assert "대시보드" not in first


def test_what_the_documents_do_not_say_is_said_and_nothing_unrelated_is_quoted():
    resume = [
        Passage("cv", "resume", "자격증", "[자격증]\n정보처리기사 (2021)", 0.86),
        Passage("cv", "resume", "기술 스택", f"[기술 스택]\n{SKILLS}", 0.85),
    ]
    answer = rag_answer("내 이력서에 토익 점수 몇 점으로 써놨지", resume)
    assert "'토익, 점수'에 대한 내용은 찾지 못했어요" in answer
    assert "정보처리기사" not in answer and "Java" not in answer
    # a question asking for a number is not answered by a line without one
    numbers = rag_answer("포폴 주식 시세 대시보드 사용자 몇 명이야?", [PROJECTS])
    assert "찾지 못했어요" in numbers and "React" not in numbers


def test_how_many_of_something_is_answered_only_by_a_line_counting_it():
    project = Passage(
        "pf",
        "portfolio",
        "프로젝트",
        "[프로젝트]\n- 주문 알림 서비스: 발송 지연 3초 → 300ms\n- 4명이 함께 개발한 사내 위키",
        0.9,
    )
    people = rag_answer("포폴에 주문 알림 서비스 몇 명이서 만들었다고 돼 있어?", [project])
    assert "찾지 못했어요" in people and "300ms" not in people
    wiki = rag_answer("사내 위키는 몇 명이 개발했어?", [project])
    assert wiki.startswith("4명이 함께 개발한 사내 위키")
    # a native number counts too
    native = Passage("pf", "portfolio", "수상", "[수상]\n- 교내 해커톤 두 번 입상", 0.9)
    assert rag_answer("해커톤 몇 번 입상했다고 썼지", [native]).startswith("교내 해커톤 두 번")


def test_a_kind_of_skill_is_answered_by_a_line_naming_one_of_that_kind():
    posting = [
        Passage("toss", "posting", "자격요건", "[자격요건]\n- PostgreSQL 운영 경험", 0.8, "토스"),
        Passage("toss", "posting", "우대사항", "[우대사항]\n- Terraform 사용 경험", 0.8, "토스"),
    ]
    # "요구사항" asks for the list (as "requirements" does), not for a heading with 사항
    answer = rag_answer("토스 공고에 데이터베이스 관련 요구사항 있어?", posting)
    assert answer.startswith("PostgreSQL 운영 경험") and "자격요건" in answer


def test_a_follow_up_pointing_back_is_answered_from_the_document_it_points_at():
    resume = Passage("cv", "resume", "프로젝트", "[프로젝트]\n- 사내 배포 자동화: 30분 → 5분", 0.9)
    # "그거" is the portfolio's dashboard: the resume's deployment line does not answer it
    answer = rag_answer(
        "그거 배포 주소도 적혀 있어?", [PROJECTS, resume], "포폴 주식 시세 대시보드"
    )
    assert "찾지 못했어요" in answer and "배포 자동화" not in answer
    when = rag_answer(
        "그거 언제 땄다고 돼 있어?",
        [Passage("cv", "resume", "자격증", "[자격증]\n정보처리기사 (2021)", 0.86)],
        "내 이력서에 자격증 뭐 있지?",
    )
    assert when.startswith("정보처리기사 (2021)")


def test_the_document_a_follow_up_names_wins_over_the_one_the_earlier_question_named():
    posting = Passage(
        "naver", "posting", "우대사항", "[우대사항]\n- Redis 운영 경험", 0.9, "네이버"
    )
    portfolio = Passage(
        "pf", "portfolio", "프로젝트", "[프로젝트]\n- Redis 캐시로 조회 API 응답 3배 단축", 0.8
    )
    answer = rag_answer(
        "거기 나온 Redis 경험, 내 포폴에서 어필할 만한 거 있어?",
        [posting, portfolio],
        "네이버 공고 우대사항 뭐 있어?",
    )
    assert answer.startswith("Redis 캐시로 조회 API 응답 3배 단축") and "포트폴리오" in answer


def test_an_english_question_finds_the_part_a_korean_document_heads_in_korean():
    passages = [
        Passage("cv", "resume", "자격증", "[자격증]\n정보처리기사 (2021)", 0.86),
        Passage("cv", "resume", "기술 스택", f"[기술 스택]\n{SKILLS}", 0.85),
        Passage("toss", "posting", "자격요건", "[자격요건]\n- Go 서버 개발 3년", 0.8, "토스"),
    ]
    assert rag_answer("which certifications are on my resume?", passages).startswith(
        "정보처리기사 (2021)"
    )
    assert rag_answer("what are the requirements in the toss posting?", passages).startswith(
        "Go 서버 개발 3년"
    )


def test_the_name_of_what_a_section_lists_is_asked_of_the_section():
    career = Passage(
        "cv", "resume", "경력", "[경력]\n에이비씨커머스 2022.03 ~ 2025.02\n- 주문 API 개발", 0.9
    )
    assert rag_answer("이력서 경력 회사이름 뭐였지", [career]).startswith("에이비씨커머스")


def test_the_honest_general_reply_answers_what_needs_no_model():
    today = date(2026, 11, 29)
    reply = general_answer("안녕하세요! 오늘 무슨 요일이야?", today, stand_in=True)
    assert reply.startswith("안녕하세요!") and "2026-11-29 (일요일)" in reply
    assert "답하기 어려워요" in reply
    assert leak_reason(reply) is None  # no setting, no model name: those are for operators
    after_junk = general_answer("연봉 협상 팁 알려줘", today, stand_in=False)
    assert "데모 모델" not in after_junk and "CHAT_MODEL" not in after_junk
    assert "다시 물어봐 주세요" in after_junk
    for text in (reply, after_junk):
        assert degenerate_reason(text) is None


# --- on the embedded stand-in: grounded, streamed, no model call --------------------------


async def test_on_the_stand_in_a_document_question_quotes_the_passage_and_names_its_source(
    stand_in, client
):
    await embed(client, "u1", "cv", "resume", RESUME)
    await embed(client, "u1", "kakao", "posting", POSTING)
    tokens, out = await stream(client, "내 이력서에 적은 기술 스택이 뭐였지?")
    answer = out["answer"]
    assert tokens == answer  # streamed as tokens, the same text as the final answer
    assert out["route"] == "rag" and out["tool_calls"] == []
    assert {s["doc_id"] for s in out["sources"]} >= {"cv"}  # the contract's sources, as before
    assert answer.startswith(SKILLS)  # the answer first: the line itself
    assert "(출처: 이력서 · 기술 스택)" in answer  # its document (as the user knows it), heading
    assert leak_reason(answer, ids=["cv", "kakao", "u1"]) is None  # never the internal doc_id
    assert degenerate_reason(answer) is None
    assert stand_in.calls == []
    saved = await saved_state("chat:u1:r1")
    assert saved["history"][-1]["assistant"] == answer
    assert isinstance(saved["messages"][-1], AIMessage) and saved["messages"][-1].text == answer
    assert saved["passages"] == []  # the turn's passages are not kept in the room

    posting = await chat(client, "카카오 공고의 자격요건이 뭐야?")
    assert "카카오 채용공고 · 자격요건" in posting["answer"]
    assert posting["answer"].startswith("Java, Spring 기반 개발 경력 3년 이상")
    assert leak_reason(posting["answer"], ids=["cv", "kakao"]) is None


async def test_on_the_stand_in_nothing_relevant_is_said_honestly(stand_in, client):
    out = await chat(client, "내 이력서에 적은 기술 스택이 뭐였지?", user="empty")
    assert out["route"] == "rag" and out["sources"] == []
    # the document it names is not there: said so, with what to upload
    assert "올리신 이력서에서 질문과 관련된 부분을 찾지 못했어요" in out["answer"]
    assert "이력서를 아직 올리지 않으셨다면 먼저 올려 주세요" in out["answer"]
    unnamed = await chat(client, "내가 적어 둔 기술 스택이 뭐였지?", user="empty", room="r2")
    assert "올리신 문서에서 질문과 관련된 내용을 찾지 못했어요" in unnamed["answer"]
    assert "이력서, 포트폴리오, 채용공고를 올려 주시거나" in unnamed["answer"]
    for text in (out["answer"], unnamed["answer"]):
        assert degenerate_reason(text) is None
    assert stand_in.calls == []


async def test_on_the_stand_in_a_general_question_gets_an_honest_reply_in_the_users_terms(
    stand_in, client
):
    tokens, out = await stream(client, "면접 복장은 어떻게 해?")
    answer = out["answer"]
    assert tokens == answer and out["route"] == "general"
    assert "자유로운 대화나 조언에는 답하기 어려워요" in answer
    assert leak_reason(answer) is None  # which model runs is the operators' business
    assert degenerate_reason(answer) is None
    hello = await chat(client, "안녕하세요")
    assert hello["route"] == "general" and hello["answer"].startswith("안녕하세요!")
    assert stand_in.calls == []


async def test_on_the_stand_in_schedule_answers_are_built_from_the_tools(stand_in, client):
    added = await chat(client, "다음주 금요일 오후 3시에 네이버 1차 면접 추가해줘")
    assert added["answer"] == "2026-12-04 15:00에 '네이버 1차 면접' 일정을 추가했어요."
    listed = await chat(client, "다음 주 일정 알려줘")
    assert listed["answer"] == "일정이에요:\n- 2026-12-04 15:00 네이버 1차 면접"
    assert stand_in.calls == []


# --- a capable model: it writes; junk is replaced and counted ------------------------------


async def test_a_junk_answer_from_a_capable_model_is_replaced_by_the_passages_and_counted(
    use_fake_model, client
):
    fake = use_fake_model(lambda messages: STAND_IN_JUNK)
    await embed(client, "u1", "cv", "resume", RESUME)
    before = junk_count("prompt_echo")
    out = await chat(client, "내 이력서에 적은 기술 스택이 뭐였지?")
    assert len(fake.calls) == 1  # the model wrote; its answer was junk
    assert junk_count("prompt_echo") == before + 1
    assert "## 참고 문서" not in out["answer"] and SKILLS in out["answer"]
    assert "이력서 · 기술 스택" in out["answer"]
    saved = await saved_state("chat:u1:r1")
    assert saved["history"][-1]["assistant"] == out["answer"]  # the room remembers no junk


async def test_a_junk_general_answer_from_a_capable_model_says_to_ask_again(use_fake_model, client):
    use_fake_model(lambda messages: "The the the the the the the the the the")
    before = junk_count("loop")
    out = await chat(client, "연봉 협상 팁 알려줘")
    assert junk_count("loop") == before + 1
    assert out["route"] == "general" and "다시 물어봐 주세요" in out["answer"]
    assert "데모 모델" not in out["answer"]


async def test_a_good_answer_from_a_capable_model_is_its_own(use_fake_model, client):
    good = "연봉 협상에서는 희망 연봉의 근거를 경력과 성과로 먼저 준비해 두세요."
    use_fake_model(lambda messages: good)
    before = {r: junk_count(r) for r in ("empty", "loop", "prompt_echo", "not_korean")}
    out = await chat(client, "연봉 협상 팁 알려줘")
    assert out["answer"] == good
    assert {r: junk_count(r) for r in before} == before


async def test_skill_names_from_the_users_documents_do_not_make_an_answer_junk(
    use_fake_model, client
):
    good = f"{SKILLS}를 쓰셨어요."  # mostly Latin letters, all of them the resume's own
    use_fake_model(lambda messages: good)
    await embed(client, "u1", "cv", "resume", RESUME)
    before = junk_count("not_korean")
    out = await chat(client, "내 이력서에 적은 기술 스택이 뭐였지?")
    assert out["answer"] == good and junk_count("not_korean") == before


async def test_a_junk_answer_after_tool_calls_is_replaced_by_what_the_tools_did(tmp_path, client):
    fake = ToolCallingFake(
        script=[asks(("get_schedule", {"start_date": "2026-11-30"})), "</data id=x> 일정"]
    )
    conf = Settings(redis_url=None, chroma_path=str(tmp_path / "chroma"))
    set_services(in_process_services(conf, models=ModelRegistry(conf, {"*": fake})))
    try:
        await seed("u1", "토스 기술 면접", "2026-12-02", "14:00")
        before = junk_count("prompt_echo")
        out: dict[str, Any] = await chat(client, UNCLEAR)
        assert junk_count("prompt_echo") == before + 1
        assert out["route"] == "schedule" and out["tool_calls"][0]["name"] == "get_schedule"
        assert out["answer"] == "일정이에요:\n- 2026-12-02 14:00 토스 기술 면접"
        saved = await saved_state("chat:u1:r1")
        assert saved["messages"][-1].text == out["answer"]  # replaced in the room (same id)
        assert not any("</data" in m.text for m in saved["messages"])
    finally:
        set_services(None)


def _posting_parts() -> list[Passage]:
    sections = {
        "개요": "[라인] 서버 개발자 채용",
        "자격요건": "[자격요건]\n- Go 또는 Kotlin 능숙자\n- 분산 시스템 설계 경험",
        "우대사항": "[우대사항]\n- Kubernetes 운영 경험\n- Docker 이미지 최적화 경험",
    }
    return [Passage("line", "posting", name, text, 0.5, "라인") for name, text in sections.items()]


@pytest.mark.parametrize(
    ("question", "line"),
    [
        # the section the question names holds the answer, not the title with a shared word
        ("라인 서버 공고 우대사항에 쿠버네티스 있어?", "Kubernetes 운영 경험"),
        # a skill in another script or form is the same skill
        ("라인 공고 우대사항에 도커도 있어?", "Docker 이미지 최적화 경험"),
    ],
)
def test_a_named_section_and_a_skill_in_another_script_find_the_line(question, line):
    found, missing = answer_lines(question, _posting_parts())
    assert found and found[0].text == line and missing == []


def test_a_named_section_answers_with_its_lines():
    found, _ = answer_lines("라인 서버 개발자 자격요건에 무슨 언어 써야 돼?", _posting_parts())
    assert {ln.part.section for ln in found} == {"자격요건"}
    assert "Go 또는 Kotlin 능숙자" in [ln.text for ln in found]


@pytest.mark.parametrize(
    ("question", "first"),
    [
        (
            "라인 공고에서 분산 시스템 설계 경험은 필수야 우대야?",
            "필수예요(자격요건): 분산 시스템 설계 경험",
        ),
        ("라인 공고에 Kubernetes는 우대야 필수야?", "우대예요(우대사항): Kubernetes 운영 경험"),
    ],
)
def test_required_or_preferred_is_answered_with_the_list_the_line_is_in(question, first):
    assert rag_answer(question, _posting_parts()).split("\n")[0] == first


def test_a_question_asking_for_a_link_is_answered_only_by_a_line_holding_one():
    portfolio = [
        Passage(
            "pf",
            "portfolio",
            "프로젝트",
            "[프로젝트]\n- 사내 위키 검색 서비스, OpenSearch로 구현",
            0.5,
        )
    ]
    answer = rag_answer("포트폴리오 위키 검색 서비스 깃허브 링크 뭐였지?", portfolio)
    assert "OpenSearch" not in answer and "'링크'" in answer
    linked = [
        Passage(
            "pf",
            "portfolio",
            "프로젝트",
            "[프로젝트]\n- 사내 위키 검색 서비스, OpenSearch로 구현\n"
            "- 저장소: https://github.com/example/wiki-search",
            0.5,
        )
    ]
    first = rag_answer("포트폴리오 위키 검색 서비스 깃허브 링크 뭐였지?", linked).split("\n")[0]
    assert "https://github.com/example/wiki-search" in first


# Written for session 26 from the kinds chat_xa_dev6 showed, with other documents.
APP_PROJECTS = [
    Passage("cv", "resume", "기술 스택", "[기술 스택]\nPython, Django, PostgreSQL", 0.90),
    Passage(
        "pf",
        "portfolio",
        "프로젝트",
        "[프로젝트]\n1. 사내 메신저 봇\n- Slack API와 FastAPI로 알림 자동화\n"
        "2. 중고 거래 앱\n- Flutter와 Firebase로 채팅 구현\n",
        0.85,
    ),
]


def test_a_part_naming_more_of_the_question_beats_a_section_named_by_one_word():
    # "기술" names [기술 스택]; the question is about the app the portfolio names
    answer = rag_answer("중고 거래 앱은 무슨 기술로 만들었어?", APP_PROJECTS)
    assert answer.startswith("중고 거래 앱") and "Flutter" in answer
    assert "Django" not in answer


def test_how_many_items_a_section_lists_is_counted_from_its_numbering():
    answer = rag_answer("포트폴리오에 프로젝트 몇 개 있어?", APP_PROJECTS)
    assert answer.startswith("2개예요: 사내 메신저 봇, 중고 거래 앱")
    # a count of people is not a count of numbered items
    assert not rag_answer("프로젝트 몇 명이서 했어?", APP_PROJECTS).startswith("2")


def test_the_place_of_work_pointed_at_is_the_entry_of_the_line_just_quoted():
    career = Passage(
        "cv",
        "resume",
        "경력",
        "[경력]\n하늘소프트 2019.01 ~ 2021.06\n- 결제 API 개발\n"
        "바다커머스 2021.07 ~ 현재\n- Kafka로 주문 이벤트 처리, 처리량 2배\n",
        0.9,
    )
    answer = rag_answer("그 회사 다닌 기간은?", [career], context="이력서에 카프카 경험 있어?")
    assert answer.startswith("바다커머스 2021.07 ~ 현재")
    # without an earlier question there is no entry to point at
    assert not rag_answer("그 회사 다닌 기간은?", [career]).startswith("바다커머스")


# --- session 27: kinds a sixth author's questions showed (chat_xa_dev7), in other words ------

WORK = Passage(
    "pf",
    "portfolio",
    "프로젝트",
    "[프로젝트]\n1. 사내 메신저 봇\n- Python, FastAPI, PostgreSQL로 공지 자동 발송, 발송 누락 0건\n"
    "2. 사진 분류기\n- PyTorch로 상품 사진 분류, 정확도 91%\n3. 가계부 앱\n- Flutter로 지출 기록",
    0.9,
)
NOTE = Passage(
    "cv",
    "note",
    "성격의 장단점",
    "[성격의 장단점]\n말을 아끼는 편이라 회의에서 먼저 의견을 메모로 정리해 공유하고 있습니다.",
    0.9,
)


def test_a_follow_up_asks_the_kind_or_the_how_of_the_line_just_quoted():
    # the kind of thing skills are, asked of the project just quoted: its line
    stack = rag_answer("거기 기술스택 뭐 썼다고 돼 있어?", [WORK], "포폴 첫 번째 프로젝트 뭐였지")
    assert stack.startswith("Python, FastAPI, PostgreSQL")
    # how the weakness just quoted is handled: the line pointed at, though no word of the
    # question is in it
    how = rag_answer("그거 어떻게 극복한다고 했어?", [NOTE], "자소서에 단점 뭐라고 썼지?")
    assert how.startswith("말을 아끼는 편이라")
    # a question of presence about it is still answered honestly
    absent = rag_answer("그거 배포 링크도 있어?", [WORK], "포폴 첫 번째 프로젝트 뭐였지")
    assert "찾지 못했어요" in absent


def test_a_number_asked_of_a_line_without_one_is_not_answered_with_another_lines_number():
    answer = rag_answer("가계부 앱 프로젝트 기간 얼마나 걸렸다고 적었지?", [WORK])
    assert "찾지 못했어요" in answer and "91%" not in answer and "0건" not in answer
    # a line with its number answers
    assert rag_answer("사진 분류기 정확도 몇 프로였지?", [WORK]).startswith("PyTorch로")


# --- session 30 (chat_xa_dev12) ----------------------------------------------------------

S30_CAREER = Passage(
    "cv",
    "resume",
    "경력",
    "[경력]\n- 주문 API 개발, MySQL 쿼리 튜닝으로 응답 시간 40% 단축\n"
    "- Kafka 기반 주문 이벤트 처리 도입으로 피크 처리량 3배 향상",
    0.9,
)
S30_PROJECTS = Passage(
    "cv",
    "resume",
    "프로젝트",
    "[프로젝트]\n- 정산 배치 개선: Spring Batch로 정산 시간을 6시간에서 40분으로 단축",
    0.8,
)
S30_PORTFOLIO = Passage(
    "pf",
    "portfolio",
    "프로젝트",
    "[프로젝트]\n1. 실시간 재고 알림 서비스\n"
    "- Spring Boot, Kafka, Redis로 재고 변동을 실시간 푸시, 알림 지연 2초 → 200ms\n"
    "2. 개인 블로그 검색 엔진\n- Elasticsearch로 한국어 검색 구현",
    0.85,
)


def test_a_follow_up_s_own_words_choose_the_line_over_the_earlier_question_s():
    earlier = "이력서에서 쿼리 튜닝으로 응답시간 몇 % 줄였다고 썼지?"
    answer = rag_answer("정산 배치는?", [S30_CAREER, S30_PROJECTS], earlier)
    assert answer.startswith("정산 배치 개선"), answer


def test_a_figure_of_a_project_is_on_the_line_under_its_head():
    answer = rag_answer("포폴에 있는 재고 알림 서비스 성과 수치 뭐였지", [S30_PORTFOLIO])
    assert "2초 → 200ms" in answer and "찾지 못했" not in answer


def test_english_words_that_ask_whether_a_text_says_it_are_not_looked_for():
    kakao = Passage(
        "kakao", "posting", "우대사항", "[우대사항]\n- Kubernetes 환경 배포 경험", 0.8, "카카오"
    )
    answer = rag_answer("is Kubernetes mentioned in there too?", [kakao])
    # (a yes-or-no question: yes, and the list it is in, since session 35)
    assert answer.startswith("네, 우대사항에 있어요: Kubernetes 환경 배포 경험"), answer


def test_a_topic_the_documents_never_state_is_not_found_however_much_else_they_share():
    portfolio = Passage(
        "pf",
        "portfolio",
        "프로젝트",
        "[프로젝트]\n3. 주식 시세 대시보드\n- React와 WebSocket으로 실시간 차트 구현",
        0.85,
    )
    answer = rag_answer("포폴 주식 대시보드 백엔드는 뭘로 만들었다고 돼 있어?", [portfolio])
    # what was not found, as the user wrote it (not the analyser's cut "엔드"), and no quote
    assert "'백엔드'에 대한 내용은 찾지 못했어요" in answer, answer
    assert "React" not in answer
    # the topic found: the line answers
    found = rag_answer("포폴 주식 대시보드는 뭘로 만들었어?", [portfolio])
    assert "React와 WebSocket" in found and "찾지 못했" not in found


# --- session 33: follow-ups that lean on the question before -------------------------------

S33_NAVER = Passage(
    "naver",
    "posting",
    "우대 사항",
    "[우대 사항]\n- Kafka 실시간 스트리밍 처리 경험\n- Elasticsearch 운영 경험",
    0.8,
    "네이버",
    "데이터 엔지니어",
)
S33_KAKAO = Passage(
    "kakao",
    "posting",
    "우대사항",
    "[우대사항]\n- Kafka 기반 메시징 시스템 운영 경험\n- Kubernetes 환경 배포 경험",
    0.8,
    "카카오",
    "백엔드 개발자",
)
S33_RESUME = Passage(
    "cv",
    "resume",
    "경력",
    "[경력]\n에이비씨커머스 2022.03 ~ 2025.02\n"
    "- 주문 API 개발, MySQL 쿼리 튜닝으로 응답 시간 40% 단축\n"
    "- Kafka 기반 주문 이벤트 처리 도입으로 피크 처리량 3배 향상",
    0.8,
)


def test_the_same_item_of_another_posting_is_the_earlier_question_of_that_one():
    answer = rag_answer(
        "카카오 건 같은 항목 뭐였어", [S33_NAVER, S33_KAKAO], "네이버 공고 우대사항 알려줘"
    )
    assert answer.startswith("Kafka 기반 메시징 시스템 운영 경험"), answer
    assert "Elasticsearch" not in answer


def test_an_ordinal_picks_that_item_of_the_list_that_answered_before():
    portfolio = Passage(
        "pf",
        "portfolio",
        "프로젝트",
        S30_PORTFOLIO.text + "\n3. 주식 시세 대시보드\n- React와 WebSocket으로 실시간 차트 구현",
        0.85,
    )
    answer = rag_answer(
        "세 번째 거 기술스택 뭐였지", [portfolio], "포트폴리오 프로젝트 목록 알려줘"
    )
    assert "React와 WebSocket" in answer and "Elasticsearch" not in answer


def test_a_figure_asked_of_a_work_entry_is_the_line_that_holds_it():
    answer = rag_answer(
        "거기서 응답시간 몇 퍼 줄였다고 썼어", [S33_RESUME], "내 이력서 경력 회사 어디로 돼있지"
    )
    assert "40%" in answer.split("\n")[0], answer
    # the entry itself asked about: its head line (company and dates)
    head = rag_answer("그 회사 다닌 기간은?", [S33_RESUME], "내 이력서 경력 회사 어디로 돼있지")
    assert head.startswith("에이비씨커머스 2022.03 ~ 2025.02"), head


def test_the_role_a_posting_is_for_is_answered_from_its_stored_position():
    answer = rag_answer("네이버 공고 무슨 직무야", [S33_NAVER, S33_KAKAO])
    assert answer.startswith("데이터 엔지니어") and "네이버 채용공고" in answer
    # what the job does is another question
    assert not rag_answer("네이버 공고 무슨 일 하는 거야", [S33_NAVER]).startswith(
        "데이터 엔지니어"
    )


def test_which_of_a_posting_s_lines_the_resume_also_shows_is_answered_with_the_shared_skills():
    resume = Passage("cv", "resume", "", "[기술 스택]\nJava, Spring Boot, MySQL, Kafka", 0.0)
    answer = rag_answer(
        "그 중에 내 이력서에 있는 거 있어?", [S33_NAVER, resume], "네이버 공고 우대사항 알려줘"
    )
    assert answer.startswith("이력서에도 있는 건 Kafka예요"), answer
    assert "Kafka 실시간 스트리밍 처리 경험" in answer and "Elasticsearch" not in answer
    english = rag_answer(
        "Which of Kakao's preferred qualifications do I already have on my resume?",
        [S33_KAKAO, resume],
    )
    assert english.startswith("이력서에도 있는 건 Kafka예요"), english
    # none shared: said so, and nothing claimed
    bare = Passage("cv", "resume", "", "[기술 스택]\nPython, Django", 0.0)
    none = rag_answer("카카오 우대사항 중에 내 이력서에 있는 거 뭐야?", [S33_KAKAO, bare])
    assert none.startswith("이력서에는 이 항목들의 기술이 보이지 않아요"), none


def test_document_answers_stay_with_what_the_question_names():
    from nodes.chat.grounded import SAME_THING, asks_held_by_resume

    # another company's posting, or another document, is no role of this one
    assert not rag_answer("토스 공고 무슨 직무야?", [S33_KAKAO]).startswith("백엔드 개발자")
    # the resume's own projects, not a posting's lines the resume shows
    assert not asks_held_by_resume("이력서에 있는 프로젝트 중에 배포 관련 거 뭐야?")
    assert not asks_held_by_resume("Do I have Kubernetes experience on my resume?")
    # an ordinal of another company's list is not an item of the list before
    portfolio = Passage(
        "pf", "portfolio", "프로젝트", S30_PORTFOLIO.text + "\n3. 주식 시세 대시보드", 0.85
    )
    answer = rag_answer(
        "카카오 마지막 우대사항은?", [portfolio, S33_KAKAO], "포트폴리오 프로젝트 뭐 있어?"
    )
    assert "Kubernetes 환경 배포 경험" in answer and "주식 시세" not in answer
    assert SAME_THING.search("이거 아까랑 같은 거야?") is None


def test_where_and_what_else_at_a_work_entry_stay_in_the_resume():
    asked = "이력서에 Redis 분산 락 얘기 뭐라고 써놨더라"
    resume = Passage(
        "cv", "resume", "경력", S33_RESUME.text + "\n- Redis 분산 락으로 중복 결제 0건 달성", 0.8
    )
    where = rag_answer("어디서 했던 거야?", [resume, S33_KAKAO], asked)
    assert where.startswith("에이비씨커머스 2022.03 ~ 2025.02"), where
    kafka = rag_answer(
        "거기서 Kafka로는 뭐 했다고 했지?", [resume, S33_KAKAO], f"{asked} 어디서 했던 거야?"
    )
    assert kafka.startswith("Kafka 기반 주문 이벤트 처리 도입으로 피크 처리량 3배 향상"), kafka


def test_there_is_the_posting_the_question_before_named_by_its_company():
    answer = rag_answer(
        "anything preferred there?",
        [S33_KAKAO, S33_NAVER],
        "What skills does the Naver posting require?",
    )
    assert answer.startswith("Kafka 실시간 스트리밍 처리 경험"), answer


def test_that_company_points_at_the_company_not_the_document_read_before():
    deadline = Passage(
        "kakao", "posting", "접수기간", "■ 접수기간\n2026.12.01 ~ 2026.12.15 18:00", 0.8, "카카오"
    )
    note = Passage(
        "cv",
        "note",
        "지원 동기",
        "[지원 동기]\n카카오톡 선물하기처럼 수많은 사용자가 쓰는 서비스에서 일하고 싶습니다.",
        0.7,
    )
    answer = rag_answer(
        "그 회사 지원동기 내가 뭐라고 써놨었지",
        [deadline, S33_KAKAO, note],
        "카카오 서류 접수 언제까지야?",
    )
    assert answer.startswith("카카오톡 선물하기처럼"), answer


# --- session 34 (chat_xa_dev19, chat_xa_dev20) -------------------------------------------

S34_CV = Passage(
    "cv",
    "resume",
    "경력",
    "[경력]\n한빛물류 2019.07 ~ 2023.12\n- WMS 재고 실사 자동화로 오차율 2% → 0.3%\n"
    "- 배차 최적화 도입, 운송비 연 1.2억 절감",
    0.9,
)
S34_SKILLS = Passage("cv", "resume", "기술 스택", "[기술 스택]\nExcel, SQL, Tableau, Python", 0.8)
S34_PROJECTS = Passage(
    "cv",
    "resume",
    "프로젝트",
    "[프로젝트]\n- 수요 예측 대시보드: Tableau로 주간 출고량 예측, 결품 30% 감소",
    0.85,
)
S34_POSTING = Passage(
    "jd",
    "posting",
    "우대사항",
    "[우대사항]\n- Tableau, Power BI 등 시각화 도구 활용 경험\n"
    "- AWS 기반 데이터 파이프라인 운영 경험",
    0.9,
    company="쿠팡",
)


def test_a_noun_after_a_demonstrative_points_at_the_item_just_quoted():
    # "그 프로젝트", "그거" + a kind of thing the line says (its skills): the line pointed at,
    # not a section whose heading holds the same word ([기술 스택]) nor another project
    before = "이력서에 수요 예측 대시보드 결과 뭐라고 썼지"
    passages = [S34_CV, S34_SKILLS, S34_PROJECTS]
    for follow_up in ("그 프로젝트 무슨 기술 썼다고 돼 있어?", "그거 무슨 툴로 했다고 돼있어?"):
        assert rag_answer(follow_up, passages, before).startswith("수요 예측 대시보드: Tableau")
    # a follow-up asking for what the line does not hold still looks elsewhere
    other = rag_answer("그 프로젝트 말고 SQL 쓴 건?", passages, before)
    assert other.startswith("Excel, SQL")


def test_how_long_at_that_company_in_english_is_the_entry_s_dates():
    answer = rag_answer(
        "and how long was I at that company?", [S34_CV, S34_SKILLS], "배차 최적화 얼마나 절감했지"
    )
    assert answer.startswith("한빛물류 2019.07 ~ 2023.12")


def test_which_item_of_a_numbered_list_uses_a_skill_is_named_by_its_head():
    answer = rag_answer("포폴 프로젝트 중에 PyTorch 쓴 거 뭐야", [WORK])
    assert answer.startswith("사진 분류기, PyTorch로")
    # another item than the one just answered: its own head
    other = rag_answer("그거 말고 Flutter 쓴 건?", [WORK], "포폴 프로젝트 중에 PyTorch 쓴 거 뭐야")
    assert other.startswith("가계부 앱, Flutter로")


def test_a_posting_s_lines_the_resume_does_not_show():
    passages = [S34_POSTING, S34_CV, S34_SKILLS, S34_PROJECTS]
    for asked in (
        "쿠팡 우대사항 중에 내 이력서에 없는 거 뭐야?",
        "쿠팡 우대사항 중 내가 못 갖춘 거 있어?",
    ):
        answer = rag_answer(asked, passages)
        assert answer.startswith("이력서에 없는 건"), answer
        first = answer.split("\n")[0]
        assert "AWS" in first and "Tableau" not in first.split(":")[0]
    # 거기 = the resume just read, after a question on it
    there = rag_answer(
        "그럼 쿠팡 우대사항 중에 거기 없는 건 뭐야", passages, "내 이력서 기술스택 뭐뭐 써있지"
    )
    assert there.startswith("이력서에 없는 건") and "AWS" in there.split("\n")[0]
    # the other polarity is unchanged
    held = rag_answer("쿠팡 우대사항 중 내 이력서에 있는 거", passages)
    assert held.startswith("이력서에도 있는 건 Tableau")


def test_a_posting_s_lines_the_resume_lacks_asked_in_english():
    passages = [S34_POSTING, S34_CV, S34_SKILLS, S34_PROJECTS]
    answer = rag_answer("which of coupang's preferred qualifications don't I have?", passages)
    assert answer.startswith("이력서에 없는 건") and "AWS" in answer.split("\n")[0]


def test_s34_review_guards_documents():
    passages = [S34_POSTING, S34_CV, S34_SKILLS, S34_PROJECTS]
    # "경력 없는", "내가 없는" are no question of what the resume lacks
    answer = rag_answer("쿠팡 우대사항 보면 경력 없는 사람은 안 돼?", passages)
    assert not answer.startswith("이력서에 없는 건") and "모두 있어요" not in answer
    # a skill excluded inside the item pointed at: the item's own line
    before = "이력서에 수요 예측 대시보드 결과 뭐라고 썼지"
    inside = rag_answer("그 프로젝트에서 Tableau 말고 또 뭐 썼어?", passages, before)
    assert "찾지 못했어요" not in inside


def test_the_question_before_is_pointed_at_with_or_without_a_determiner():
    from nodes.chat.grounded import SAME_THING

    for said in ("아까 질문 네이버로도 알려줘", "방금 물어본 질문 카카오 공고로"):
        assert SAME_THING.search(said), said
    # guards: a question as a verb or a day's word is no pointer to one
    for said in ("방금 질문한 건 됐고 다음 주 일정 보여줘", "면접 전에 질문 뽑는 일정 추가해줘"):
        assert not SAME_THING.search(said), said


def test_a_yes_or_no_question_about_a_posting_is_answered_yes_with_its_list():
    naver = Passage(
        "naver",
        "posting",
        "우대 사항",
        "[우대 사항]\n- Kafka 실시간 스트리밍 처리 경험",
        0.9,
        "네이버",
    )
    kakao = Passage(
        "kakao",
        "posting",
        "우대사항",
        "[우대사항]\n- Kafka 기반 메시징 시스템 운영 경험",
        0.8,
        "카카오",
    )
    assert rag_answer("카카오 공고에서도 Kafka 보던가?", [naver, kakao]).startswith(
        "네, 우대사항에 있어요: Kafka 기반 메시징 시스템 운영 경험"
    )
    assert rag_answer("is Kafka mentioned in the naver posting too?", [naver, kakao]).startswith(
        "네, 우대 사항에 있어요"
    )
    # guards: a question of what is answered with the lines; a word the lines lack is no yes
    assert rag_answer("카카오 우대사항 뭐야?", [naver, kakao]).startswith("Kafka 기반")
    assert not rag_answer("카카오 우대사항에 Kubernetes 있어?", [naver, kakao]).startswith("네")


def test_s35_review_guards_no_yes_without_every_word_asked():
    kakao_required = Passage(
        "kakao",
        "posting",
        "자격요건",
        "[자격요건]\n- Java, Spring Boot 기반 개발 경력 3년 이상",
        0.9,
        "카카오",
    )
    kakao_preferred = Passage(
        "kakao",
        "posting",
        "우대사항",
        "[우대사항]\n- Kafka 기반 메시징 시스템 운영 경험",
        0.8,
        "카카오",
    )
    both = [kakao_required, kakao_preferred]
    for message in (
        "카카오 자격요건에 5년 이상이야?",  # the line says 3년
        "카카오 우대사항에 Kafka 없지?",  # asked in the negative
        "카카오 공고에 Kafka 필수야?",  # it is in the other list
    ):
        assert not rag_answer(message, both).startswith("네"), message
    assert rag_answer("카카오 자격요건에 3년 이상이야?", both).startswith("네, 자격요건에 있어요")
