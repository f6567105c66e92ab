"""Mock interview graph and routes: fake chat model, in-process saver and cache, the real
embedded embeddings for the near-duplicate check."""

from __future__ import annotations

import json
import re

import pytest

from core.services import get_services
from nodes.interview import prefetch
from nodes.interview.answers import (
    decide_followup,
    is_non_answer,
    measured_results,
    salient_phrase,
    score_answer,
)
from nodes.interview.facts import experience_name, extract_facts
from nodes.interview.plan import build_plan, fill
from nodes.interview.questions import clean_question, is_grounded
from tests.conftest import POSTING, RESUME, saved_state
from tests.unit.test_server import sse_events
from text.skills import taxonomy

REPORT_TEXT = (
    "[강점 패턴]\n- 수치로 성과를 설명합니다\n"
    "[약점 패턴]\n- 선택의 이유가 부족합니다\n"
    "[학습 가이드]\n- 트레이드오프를 정리해 보세요\n"
)
STRONG = (
    "주문 API 개발에서 MySQL 인덱스를 추가해 응답 시간을 40% 단축했습니다. 실행 계획을 분석해 "
    "복합 인덱스를 설계했고, 쓰기 성능과의 트레이드오프를 비교했기 때문에 조회 위주 테이블에만 "
    "적용했습니다. 그 결과 피크 시간 타임아웃이 사라졌습니다."
)
WEAK = "잘 모르겠습니다"
START = {
    "user_id": "u1",
    "session_id": "s1",
    "interview_type": "technical",
    "resume_text": RESUME
    + "[프로젝트]\n- 주문 API 개발 (Spring Boot, MySQL)\n- 사내 배포 자동화 도구 개발\n",
    "posting_text": POSTING,
}


def anchored_question(messages) -> str:
    """A model that writes a grounded question: it repeats the anchor the prompt names."""
    if "종합 피드백" in messages[-1].text:
        return REPORT_TEXT
    anchor = re.search(r'키워드 "([^"]+)"', messages[0].text).group(1)
    topic = re.search(r"## (?:질문 주제|방금 질문)\n(.+)", messages[-1].text).group(1)[:12]
    return f"{anchor}에 관해 {topic} 관점에서 본인의 판단 근거를 말씀해 주시겠어요?"


async def turn(client, **input_):
    r = await client.post("/ai/interview/question/invoke", json={"input": input_})
    assert r.status_code == 200, r.text
    return r.json()["output"]


async def answer(client, text, session="s1", user="u1"):
    await get_services().background.drain()
    return await turn(client, user_id=user, session_id=session, answer=text)


# --- pure parts -------------------------------------------------------------------------


def test_experience_names_drop_labels_periods_and_details():
    assert experience_name("- 팀 프로젝트: 영화 예매 서비스 (React)") == "영화 예매 서비스"
    assert experience_name("SI 회사 2년: 공공기관 웹 시스템 유지보수 (Spring)") == (
        "공공기관 웹 시스템 유지보수"
    )
    assert experience_name("에이비씨 2022.03 ~ 2025.02 주문 API 개발, 쿼리 튜닝") == (
        "에이비씨 주문 API 개발"
    )


def test_particles_follow_the_word():
    assert fill("{anchor}를 설명", anchor="Java") == "Java를 설명"
    assert fill("{anchor}를 설명", anchor="MySQL 인덱스") == "MySQL 인덱스를 설명"
    assert fill("{anchor}를 설명", anchor="트랜잭션 격리 수준") == "트랜잭션 격리 수준을 설명"
    assert fill("{anchor}와 {tie}", anchor="4년", tie="x") == "4년과 x"


def test_plan_ties_every_question_to_the_documents():
    facts = extract_facts(START["resume_text"], POSTING)
    plan = build_plan(facts, "technical", 5, "seed")
    assert [s["category"] for s in plan] == [
        "network_os",
        "db_algorithm",
        "project",
        "tech_stack",
        "attitude",
    ]
    assert plan[2]["anchor"] == "주문 API 개발"  # the candidate's first project
    assert plan[3]["anchor"] in facts["skills"] and plan[3]["anchor"] in facts["required"]
    assert plan[1]["anchor"] == "MySQL 인덱스"  # a database the posting asks for
    personality = build_plan(facts, "personality", 3, "seed")
    assert [s["category"] for s in personality] == ["collaboration", "failure", "motivation"]
    assert personality[2]["anchor"] == "카카오"
    assert len(build_plan(facts, "technical", 7, "seed")) == 7


@pytest.mark.parametrize("text", ["", "   ", "네", "모르겠습니다", "잘 모르겠어요 패스할게요"])
def test_non_answers(text):
    assert is_non_answer(text)


def test_a_real_answer_is_not_a_non_answer():
    assert not is_non_answer("모르는 부분은 공식 문서를 찾아 보며 해결했습니다. 예를 들어 ...")


def test_rubric_orders_answers_and_is_deterministic():
    facts = extract_facts(START["resume_text"], POSTING)
    question = "MySQL 인덱스의 동작 원리와 활용 방법을 설명해 주세요."
    strong = score_answer(question, "MySQL 인덱스", STRONG, "technical", facts)
    vague = score_answer(question, "MySQL 인덱스", "인덱스를 쓰면 빨라집니다.", "technical", facts)
    none = score_answer(question, "MySQL 인덱스", WEAK, "technical", facts)
    assert strong.score > vague.score > none.score == 0
    assert strong.score == score_answer(question, "MySQL 인덱스", STRONG, "technical", facts).score
    assert any("40%" in p for p in strong.good_points)
    assert any("수치" in p for p in vague.improvements)


def test_an_answer_without_the_questions_words_gets_advice_not_an_off_topic_verdict():
    facts = extract_facts(START["resume_text"], POSTING)
    question = "MySQL 인덱스를 설계할 때 무엇을 기준으로 삼았나요?"
    # on topic in other words (a composite key, a lookup's columns): the rubric cannot tell
    # that from a pivot, so it advises naming the question's words and claims nothing else
    reworded = (
        "주문 조회에서 자주 쓰는 조건 순서대로 복합 키를 잡았고, 조회 컬럼을 포함시켜 "
        "테이블을 다시 읽지 않게 했습니다. 조회 시간이 1.2초에서 0.3초로 줄었습니다."
    )
    rubric = score_answer(question, "MySQL 인덱스", reworded, "technical", facts)
    assert "keywords_absent" in rubric.signals
    advice = " ".join(rubric.improvements)
    assert "MySQL" in advice and "짚으면" in advice
    assert not any(w in advice for w in ("비껴", "벗어", "다루세요", "off-topic"))
    named = score_answer(question, "MySQL 인덱스", STRONG, "technical", facts)
    assert "keywords_named" in named.signals and "keywords_absent" not in named.signals


@pytest.mark.parametrize(
    ("answer", "results"),
    [
        ("배치 처리 시간이 40분에서 12분으로 줄었습니다.", ["40분"]),
        ("리뉴얼 후 가입 전환율이 3.1%에서 4.4%로 올랐어요", ["3.1%"]),
        (
            "캐시를 넣고 나서 DB 조회가 하루 200만 건 줄었고, 비용도 30% 절감했습니다.",
            ["200만", "30%"],
        ),
        # a setting, a tenure, a plan, a routine: numbers, not results
        ("타임아웃은 3초로 설정했고 재시도는 2번까지 두었습니다.", []),
        ("물류센터에서 4년차로 일하고 있고 하루 30분씩 현장을 돕니다.", []),
        ("다음 분기에는 이탈률 5% 이하 유지를 목표로 하고 있습니다.", []),
    ],
)
def test_a_measured_result_is_a_number_that_says_what_changed(answer, results):
    assert measured_results(answer) == results


def test_followups_stop_on_non_answers_and_at_the_depth_cap():
    facts = extract_facts(START["resume_text"], POSTING)
    main = [{"category": "project", "anchor": "주문 API 개발", "followup_kind": None}]
    assert decide_followup(WEAK, main, "technical", facts, 3) is None
    short = decide_followup("Redis로 캐시했습니다", main, "technical", facts, 3)
    assert short == {"kind": "clarify", "anchor": "Redis"}
    assert decide_followup("Redis로 캐시했습니다", main, "technical", facts, 0) is None
    deeper = [*main, {**main[0], "followup_kind": "clarify"}]
    assert decide_followup("Redis로 캐시했습니다", deeper, "technical", facts, 3) is not None
    assert decide_followup("Redis로 캐시했습니다", deeper, "technical", facts, 1) is None


def test_question_checks():
    assert clean_question('질문: "MySQL 인덱스는 왜 필요한가요?"\n설명...') == (
        "MySQL 인덱스는 왜 필요한가요?"
    )
    assert is_grounded("MySQL 인덱스는 왜 필요한가요?", "MySQL 인덱스")
    assert not is_grounded("Why do we need an index in MySQL?", "MySQL")
    assert not is_grounded("트랜잭션은 왜 필요한가요?", "MySQL 인덱스")
    # What the embedded model wrote under the grammar: anchor first, "?" last, no sentence.
    salad = "MySQL 인덱스 상세에에선무에 있어도만 데이터를 저자로 지원자 정보를 찾아도론 새롭으로?"
    assert not is_grounded(salad, "MySQL 인덱스")
    assert not is_grounded("리뷰는 카카오톡 선물하기 주문?", "리뷰")


# --- the graph over HTTP -----------------------------------------------------------------


async def test_a_full_session_then_a_cached_report(use_fake_model, client):
    fake = use_fake_model(anchored_question, interview_max_followup_depth=0)
    first = await turn(client, **START)
    assert first["question_id"] == "q1" and first["question_number"] == 1
    assert first["total_questions"] == 5 and not first["done"] and not first["is_followup"]
    assert (
        "TCP" in first["question"] or "프로세스" in first["question"] or "HTTP" in first["question"]
    )
    seen = [first["question"]]
    out = first
    for n in range(2, 6):
        out = await answer(client, STRONG)
        assert out["question_number"] == n and out["question_id"] == f"q{n}"
        seen.append(out["question"])
    assert any("주문 API 개발" in q for q in seen)  # tied to the resume's project
    done = await answer(client, STRONG)
    assert done["done"] is True and done["question"] is None
    r = await client.post(
        "/ai/interview/report/invoke", json={"input": {"user_id": "u1", "session_id": "s1"}}
    )
    assert r.status_code == 200, r.text
    report = r.json()["output"]
    assert [e["question_id"] for e in report["evaluations"]] == ["q1", "q2", "q3", "q4", "q5"]
    assert report["report"]["learning_guide"] == ["트레이드오프를 정리해 보세요"]
    assert 0 <= report["report"]["total_score"] <= 100 and report["cached"] is False
    calls = len(fake.calls)
    again = await client.post(
        "/ai/interview/report/invoke", json={"input": {"user_id": "u1", "session_id": "s1"}}
    )
    assert again.json()["output"]["cached"] is True and len(fake.calls) == calls
    assert again.json()["output"]["report"] == report["report"]
    late = await client.post(
        "/ai/interview/question/invoke",
        json={"input": {"user_id": "u1", "session_id": "s1", "answer": "x" * 20}},
    )
    assert late.status_code == 409 and late.json()["error"]["code"] == "INTERVIEW_FINISHED"


async def test_the_client_thread_id_is_ignored(use_fake_model, client):
    use_fake_model(anchored_question)
    body = {"input": START, "config": {"configurable": {"thread_id": "chat:someone:else"}}}
    r = await client.post("/ai/interview/question/invoke", json=body)
    assert r.status_code == 200
    saved = await saved_state("interview:u1:s1")
    assert saved is not None and saved["plan"]
    other = await saved_state("chat:someone:else")
    assert other is None


async def test_state_keeps_facts_not_documents(use_fake_model, client):
    use_fake_model(anchored_question)
    await turn(client, **START)
    values = await saved_state("interview:u1:s1")
    assert values.get("resume_text") is None and values.get("posting_text") is None
    assert "주문 API 개발" in values["facts"]["experiences"]


@pytest.mark.parametrize(
    ("input_", "code", "field"),
    [
        ({"user_id": "u1", "session_id": "new"}, "INVALID_INPUT", "resume_text"),
        ({**START, "session_id": "a:b"}, "INVALID_INPUT", "session_id"),
        ({**START, "interview_type": "casual"}, "INVALID_INPUT", "interview_type"),
    ],
)
async def test_bad_turns_are_422_without_model_calls(use_fake_model, client, input_, code, field):
    fake = use_fake_model(anchored_question)
    r = await client.post("/ai/interview/question/invoke", json={"input": input_})
    assert r.status_code == 422, r.text
    assert r.json()["error"]["code"] == code and r.json()["error"]["field"] == field
    assert fake.calls == []


async def test_an_answer_to_an_unknown_session_is_404_and_starts_nothing(use_fake_model, client):
    fake = use_fake_model(anchored_question)
    body = {"input": {"user_id": "u1", "session_id": "never-started", "answer": "네, 해봤습니다"}}
    r = await client.post("/ai/interview/question/invoke", json=body)
    assert r.status_code == 404, r.text
    assert r.json()["error"] == {
        "code": "SESSION_NOT_FOUND",
        "message": r.json()["error"]["message"],
        "field": "session_id",
    }
    assert fake.calls == []
    # The session still does not exist: a first turn with the documents starts it.
    first = await turn(client, **{**START, "session_id": "never-started"})
    assert first["question"]


async def test_an_over_long_answer_is_422_and_loses_nothing(use_fake_model, client, monkeypatch):
    from core.settings import get_settings

    monkeypatch.setenv("INTERVIEW_ANSWER_MAX_CHARS", "100")
    get_settings.cache_clear()
    try:
        await _over_long_answer(use_fake_model, client)
    finally:
        get_settings.cache_clear()


async def _over_long_answer(use_fake_model, client):
    use_fake_model(anchored_question)
    first = await turn(client, **START)
    r = await client.post(
        "/ai/interview/question/invoke",
        json={"input": {"user_id": "u1", "session_id": "s1", "answer": "가" * 101}},
    )
    assert r.status_code == 422 and r.json()["error"]["field"] == "answer"
    assert (await turn(client, user_id="u1", session_id="s1")) == first  # still pending


async def test_a_turn_without_answer_repeats_the_pending_question(use_fake_model, client):
    fake = use_fake_model(anchored_question)
    first = await turn(client, **START)
    await get_services().background.drain()
    calls = len(fake.calls)
    assert await turn(client, user_id="u1", session_id="s1") == first
    assert len(fake.calls) == calls


async def test_report_errors(use_fake_model, client):
    use_fake_model(anchored_question)
    r = await client.post(
        "/ai/interview/report/invoke", json={"input": {"user_id": "u1", "session_id": "nope"}}
    )
    assert r.status_code == 404 and r.json()["error"]["code"] == "SESSION_NOT_FOUND"
    await turn(client, **START)
    r = await client.post(
        "/ai/interview/report/invoke", json={"input": {"user_id": "u1", "session_id": "s1"}}
    )
    assert r.status_code == 409 and r.json()["error"]["code"] == "NO_ANSWERS"
    r = await client.post(
        "/ai/interview/report/invoke", json={"input": {"user_id": "u2", "session_id": "s1"}}
    )
    assert r.status_code == 404  # another user's session is not theirs to read


async def test_a_short_answer_gets_a_followup_that_refers_to_it(use_fake_model, client):
    fake = use_fake_model(anchored_question)
    await turn(client, **START)
    out = await answer(client, "Redis 캐시를 썼습니다")
    assert out["is_followup"] and out["depth"] == 1 and out["question_id"] == "q1-f1"
    assert out["question_number"] == 1
    assert "Redis" in out["question"]
    followup_prompt = next(c for c in fake.calls if "꼬리 질문" in c[-1].text)
    assert "Redis 캐시를 썼습니다" in followup_prompt[-1].text
    nxt = await answer(client, WEAK)  # a non-answer never gets a follow-up
    assert not nxt["is_followup"] and nxt["question_number"] == 2


async def test_prefetched_question_is_served_without_a_model_call(use_fake_model, client):
    fake = use_fake_model(anchored_question)
    await turn(client, **START)
    await get_services().background.drain()  # the prefetch of q2 is stored
    stored = await get_services().cache.get(prefetch.store_key("interview:u1:s1"))
    assert stored is not None and stored["index"] == 1
    spawned = []
    services = get_services()
    services.background.spawn = lambda key, work: spawned.append(key)  # hold new prefetches
    calls = len(fake.calls)
    out = await turn(client, user_id="u1", session_id="s1", answer=WEAK)
    assert out["question_id"] == "q2" and out["question"] == stored["question"]
    assert len(fake.calls) == calls  # no model call on the request path
    assert len(spawned) == 1  # and the prefetch of q3 was started


async def test_a_prefetch_that_no_longer_fits_is_discarded(use_fake_model, client):
    fake = use_fake_model(anchored_question)
    await turn(client, **START)
    await get_services().background.drain()
    key = prefetch.store_key("interview:u1:s1")
    stored = await get_services().cache.get(key)
    await get_services().cache.set(
        key, {**stored, "fingerprint": "stale", "question": "옛 질문?"}, 60
    )
    get_services().background.spawn = lambda key, work: None
    calls = len(fake.calls)
    out = await turn(client, user_id="u1", session_id="s1", answer=WEAK)
    assert out["question"] != "옛 질문?" and len(fake.calls) == calls + 1


async def test_prompts_carry_a_window_of_three_turns_and_a_summary(use_fake_model, client):
    fake = use_fake_model(
        anchored_question,
        interview_questions=6,
        interview_max_followup_depth=0,
        interview_prefetch=False,
    )
    await turn(client, **START)
    for n in range(1, 6):
        await answer(client, STRONG + f" 표지{n}번")
    await get_services().background.drain()
    prompts = [c[-1].text for c in fake.calls if "다음 질문:" in c[-1].text]
    last = prompts[-1]  # the sixth question, written after the fifth answer
    assert all(f"표지{n}번" in last for n in (3, 4, 5))
    assert not any(f"표지{n}번" in last for n in (1, 2))  # older answers are summarised
    assert "## 지난 대화 요약\n- " in last
    assert RESUME.splitlines()[0] not in last  # facts, not documents


async def test_an_ungrounded_model_question_falls_back_to_the_template(use_fake_model, client):
    use_fake_model(lambda m: REPORT_TEXT if "종합 피드백" in m[-1].text else "Tell me about you?")
    first = await turn(client, **START)
    saved = await saved_state("interview:u1:s1")
    t = saved["turns"][0]
    assert t["source"] == "template" and t["anchor"] in first["question"]


async def test_a_repeated_question_is_regenerated(use_fake_model, client):
    fixed = "주문 API 개발에 관해 설명해 주시겠어요?"

    def same_every_time(messages):
        if "종합 피드백" in messages[-1].text:
            return REPORT_TEXT
        anchor = re.search(r'키워드 "([^"]+)"', messages[0].text).group(1)
        return f"{anchor}에 관해 설명해 주시겠어요?"

    fake = use_fake_model(same_every_time, interview_max_followup_depth=0, interview_prefetch=False)
    await turn(client, **START)
    questions = [(await answer(client, STRONG))["question"] for _ in range(4)]
    assert len(set(questions)) == 4
    assert fixed not in questions or questions.count(fixed) == 1
    assert len(fake.calls) >= 5


async def test_report_streams_tokens_and_questions_do_not(use_fake_model, client):
    use_fake_model(anchored_question, interview_max_followup_depth=0)
    q = await client.post(
        "/ai/interview/question/stream_events", json={"input": START, "version": "v2"}
    )
    token_events = [
        e for e in sse_events(q.text) if e[0] == "data" and "on_chat_model_stream" in e[1]
    ]
    assert token_events == []  # the question arrives checked, in the final output
    await answer(client, STRONG)
    r = await client.post(
        "/ai/interview/report/stream_events",
        json={"input": {"user_id": "u1", "session_id": "s1"}, "version": "v2"},
    )
    events = [json.loads(d) for kind, d in sse_events(r.text) if kind == "data"]
    tokens = "".join(
        e["data"]["chunk"]["content"] for e in events if e["event"] == "on_chat_model_stream"
    )
    assert tokens == REPORT_TEXT
    final = [e for e in events if e["event"] == "on_chain_end" and not e["parent_ids"]][-1]
    assert set(final["data"]["output"]) == {"evaluations", "report", "cached"}


def test_followup_anchors_are_the_candidates_own_words():
    facts = extract_facts(START["resume_text"], POSTING)
    main = [{"category": "project", "anchor": "주문 API 개발", "followup_kind": None}]
    # A real noun of the answer, not a verb stem ("시키지 않았지만" is no topic).
    vague = decide_followup(
        "누가 시키지 않았지만 제가 파티셔닝을 했습니다", main, "technical", facts, 3
    )
    assert vague == {"kind": "clarify", "anchor": "파티셔닝"}
    # Skills appear as the candidate wrote them ("쿠버네티스", not "Kubernetes").
    answer = (
        "쿠버네티스로 주문 API를 배포하고 오토스케일링을 설정했습니다. "
        "피크 시간에도 파드 수가 3배까지 자동으로 늘어나서 주문 처리가 끊기지 않고 "
        "안정적으로 운영되었고 "
        "배포도 무중단으로 진행했습니다."
    )
    deeper = decide_followup(answer, main, "technical", facts, 3)
    assert deeper is not None and deeper["kind"] == "deeper"
    assert deeper["anchor"] in answer and taxonomy().find(deeper["anchor"])
    assert not re.search(r"[A-Za-z]", deeper["anchor"])  # no canonical English name


def test_apply_followup_echoes_the_answer_and_names_the_requirement_as_written():
    facts = extract_facts(START["resume_text"], POSTING)
    main = [{"category": "project", "anchor": "주문 API 개발", "followup_kind": "deeper"}]
    decision = decide_followup(STRONG, [*main, {**main[0]}], "technical", facts, 3)
    assert decision is not None and decision["kind"] == "apply"
    assert decision["anchor"] in POSTING  # e.g. "Java" as the posting wrote it
    assert decision["echo"] in STRONG


def test_growth_question_skips_requirements_met_by_an_alternative():
    posting = (
        "[뱅크샐러드] 서버 개발자\n자격 요건\n- Kotlin 또는 Java 기반 서버 개발 경험\n- gRPC 경험"
    )
    facts = extract_facts("[기술 스택]\nKotlin, Spring Boot", posting)
    assert facts["missing"] == ["gRPC"]  # Kotlin meets "Kotlin 또는 Java"


async def test_report_prompt_is_bounded_whatever_the_session_length(use_fake_model, client):
    fake = use_fake_model(anchored_question, interview_questions=10, interview_max_followup_depth=0)
    await turn(client, **START)
    for _ in range(10):
        await answer(client, STRONG)
    r = await client.post(
        "/ai/interview/report/invoke", json={"input": {"user_id": "u1", "session_id": "s1"}}
    )
    assert r.status_code == 200
    prompt = next(c for c in fake.calls if "종합 피드백" in c[-1].text)[-1].text
    assert STRONG[:30] not in prompt  # evidence, not answers
    assert "- 답변 수: 10" in prompt and "수치로 결과를 제시 (10/10)" in prompt
    assert len(prompt) < 800


async def test_background_work_does_not_count_as_the_requests_model_calls(use_fake_model, client):
    from core.telemetry import MODEL_CALLS

    def calls(origin: str) -> float:
        return sum(
            s.value
            for m in MODEL_CALLS.collect()
            for s in m.samples
            if s.name.endswith("_total")
            and s.labels.get("origin") == origin
            and s.labels.get("feature") == "interview"
        )

    use_fake_model(anchored_question)
    before_request, before_background = calls("request"), calls("background")
    await turn(client, **START)
    await get_services().background.drain()
    assert calls("request") - before_request == 1  # q1, on the request's path
    assert calls("background") - before_background == 1  # the prefetch of q2


async def test_a_second_answer_while_one_is_handled_is_409_and_recorded_once(
    use_fake_model, client
):
    import asyncio
    import time

    def slow(messages):
        time.sleep(0.3)  # in the model's worker thread: the event loop keeps serving
        return anchored_question(messages)

    use_fake_model(slow)
    await turn(client, **START)
    await get_services().background.drain()
    body = {"input": {"user_id": "u1", "session_id": "s1", "answer": "Redis 캐시를 썼습니다"}}
    first, second = await asyncio.gather(
        client.post("/ai/interview/question/invoke", json=body),
        client.post("/ai/interview/question/invoke", json=body),
    )
    codes = sorted([first.status_code, second.status_code])
    assert codes == [200, 409]
    refused = first if first.status_code == 409 else second
    assert refused.json()["error"]["code"] == "THREAD_BUSY"
    assert refused.json()["error"]["field"] == "session_id"
    saved = await saved_state("interview:u1:s1")
    answers = [t.get("answer") for t in saved["turns"]]
    assert answers.count("Redis 캐시를 썼습니다") == 1
    # the lock is released: the next answer goes through
    assert (await client.post("/ai/interview/question/invoke", json=body)).status_code == 200


async def test_answer_for_makes_a_retry_safe_and_a_stale_answer_409(use_fake_model, client):
    fake = use_fake_model(anchored_question, interview_max_followup_depth=0)
    first = await turn(client, **START)
    ids = {"user_id": "u1", "session_id": "s1"}
    second = await answer_for(client, STRONG, first["question_id"], ids)
    assert second["question_id"] != first["question_id"]
    # the turn may have started a prefetch of the next question: let it finish first, so
    # only a model call the retry itself makes is counted
    await get_services().background.drain()
    calls = len(fake.calls)
    # the same request again (the client never saw the first response): the current question
    retried = await answer_for(client, STRONG, first["question_id"], ids)
    assert retried == second and len(fake.calls) == calls
    # another answer to the question already answered: refused, nothing recorded
    r = await client.post(
        "/ai/interview/question/invoke",
        json={"input": {**ids, "answer": "다른 답변입니다", "answer_for": first["question_id"]}},
    )
    assert r.status_code == 409
    assert r.json()["error"] == {
        "code": "STALE_ANSWER",
        "message": f"This answer is for {first['question_id']}; the pending question is "
        f"{second['question_id']}",
        "field": "answer_for",
    }
    saved = await saved_state("interview:u1:s1")
    answers = [t.get("answer") for t in saved["turns"]]
    assert answers == [STRONG, None]


async def answer_for(client, text, question_id, ids):
    await get_services().background.drain()
    return await turn(client, **ids, answer=text, answer_for=question_id)


def test_session_evidence_is_the_same_in_every_process():
    """Two API processes (different hash seeds) must build the same report evidence, or
    the report's cache key differs from one server to the other."""
    import os
    import subprocess
    import sys

    script = (
        "from nodes.interview.answers import Rubric, SIGNALS\n"
        "from nodes.interview.report import session_evidence\n"
        "keys = sorted(SIGNALS)\n"
        "rubrics = [({'label': 'l'}, Rubric(10, 10, 10, 10, signals=keys[i::2])) for i in (0, 1)]\n"
        "print(session_evidence(rubrics))\n"
    )
    outputs = {
        subprocess.run(
            [sys.executable, "-c", script],
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in range(6)
    }
    assert len(outputs) == 1


# How each word is read aloud decides the particle (labelled by hand, by reading them):
# (word, 을 or 를, 으로 or 로)
READINGS = [
    ("트랜잭션", "을", "으로"),
    ("인덱스", "를", "로"),
    ("서울", "을", "로"),  # ㄹ takes 로
    ("개발", "을", "로"),
    ("결제 시스템", "을", "으로"),
    ("주문 API", "를", "로"),  # 에이피아이
    ("Java", "를", "로"),
    ("Java 17", "을", "로"),  # 십칠: ㄹ
    ("Python", "을", "으로"),  # 파이썬
    ("Spring", "을", "으로"),  # 스프링
    ("Spring Boot", "를", "로"),
    ("MySQL", "을", "로"),  # 에스큐엘
    ("PostgreSQL", "을", "로"),
    ("Kafka", "를", "로"),
    ("Redis", "를", "로"),
    ("Docker", "를", "로"),
    ("Kubernetes", "를", "로"),
    ("React", "를", "로"),  # 리액트
    ("Node.js", "를", "로"),
    ("AWS", "를", "로"),
    ("GCP", "를", "로"),
    ("HTML", "을", "로"),
    ("Kotlin", "을", "으로"),
    ("Terraform", "을", "으로"),
    ("Oracle", "을", "로"),  # 오라클
    ("Slack", "을", "으로"),  # 슬랙
    ("Hadoop", "을", "으로"),  # 하둡
    ("Git", "을", "으로"),  # 깃
    ("Go", "를", "로"),
    ("iOS", "를", "로"),
    ("C++", "를", "로"),
    ("C#", "을", "으로"),  # 씨샵
    ("Photoshop", "을", "으로"),
    ("4년", "을", "으로"),
    ("2023년 프로젝트(팀장)", "을", "으로"),
]
FINAL_PAIRS = {"을": ("이", "은", "과", "이라고"), "를": ("가", "는", "와", "라고")}


@pytest.mark.parametrize(("word", "object_particle", "direction"), READINGS)
def test_every_particle_follows_how_the_word_is_read(word, object_particle, direction):
    from text.particles import particle_for

    assert particle_for(word, "을") == particle_for(word, "를") == object_particle
    for given in ("이", "가", "은", "는", "과", "와", "이라고", "라고"):
        expected = FINAL_PAIRS[object_particle][
            ("이", "가", "은", "는", "과", "와", "이라고", "라고").index(given) // 2
        ]
        assert particle_for(word, given) == expected, (word, given)
    assert particle_for(word, "으로") == particle_for(word, "로") == direction
    assert fill("{anchor}라고 하셨는데", anchor=word).startswith(
        word + ("이라고" if object_particle == "을" else "라고")
    )


def test_every_template_slot_is_followed_by_a_fitted_particle_or_a_fixed_word():
    """A particle after {anchor}/{tie} that fill() does not fit would read wrong for half
    the words; only suffixes that never change may follow a slot unfitted."""
    import re

    from nodes.interview.plan import _PARTICLE, FOLLOWUP_TEMPLATES, GENERIC_TEMPLATES, TEMPLATES

    fixed = {"", "에", "에서", "의", "처럼", "부분", "과정에서", "관련"}
    for templates in (TEMPLATES, FOLLOWUP_TEMPLATES, {"generic": GENERIC_TEMPLATES}):
        for options in templates.values():
            for template in options:
                fitted = {m.start() for m in _PARTICLE.finditer(template)}
                for m in re.finditer(r"\{(?:anchor|tie)\}([가-힣]*)", template):
                    assert m.start() in fitted or m.group(1) in fixed, (template, m.group(1))


async def test_a_long_session_never_asks_the_same_question_twice(use_fake_model, client):
    """14 turns of the same short answer: follow-ups on the same few anchors, again and
    again. No question may repeat, word for word or near (the calibrated cosine)."""
    import re

    from core.settings import get_settings
    from nodes.interview.questions import all_similarities

    use_fake_model(
        anchored_question,
        interview_question_source="template",
        interview_questions=5,
        interview_max_followup_depth=3,
        interview_prefetch=False,
    )
    out = await turn(client, **START)
    questions = [out["question"]]
    while len(questions) < 14 and not out["done"]:
        out = await answer(client, "Redis 캐시를 도입했습니다")
        if not out["done"]:
            questions.append(out["question"])
    assert len(questions) == 14
    normalised = [re.sub(r"[\s.?!,]+", "", q) for q in questions]
    assert len(set(normalised)) == len(normalised), questions
    threshold = get_settings().interview_duplicate_threshold
    for i in range(1, len(questions)):
        [closest] = await all_similarities([questions[i]], questions[:i])
        assert closest < threshold, (questions[i], closest)


@pytest.mark.parametrize(
    ("answer", "phrase"),
    [
        # what the candidate did something with ("…로 바꿨습니다"), not the symptom's acronym
        (
            "CPU 사용률이 높아서 봤더니 이미지 리사이즈가 요청마다 돌고 있었고, 그래서 Sharp로 "
            "미리 썸네일을 만들어 두는 배치로 바꿨습니다",
            "Sharp",
        ),
        ("QA에서 버그가 많아서 회귀 테스트를 자동화했어요", "회귀 테스트"),
        # not the team that set the rule nor the bare multiple of the result
        (
            "IT팀이 정한 기준이 있었지만 저는 Redisson 락으로 재고 차감을 묶었고 처리량이 3배 "
            "늘었습니다",
            "Redisson 락",
        ),
    ],
)
def test_the_followup_picks_up_what_the_candidate_did_something_with(answer, phrase):
    assert salient_phrase(answer, "성능이나 품질 문제를 해결한 경험이 있나요?") == phrase


def test_anchor_weights_are_fitted_to_what_the_grader_picks():
    # The calibration's fit orders phrases by the feature that marks the grader's picks.
    import numpy as np

    from evals.calibrate_anchors import fit, top_agreement

    picked, other = [0.0] * 12, [0.0] * 12
    picked[4] = 1.0  # a foreign technical term is what the grader picked, each time
    rows = [(np.array([other, picked, other]), np.array([0.0, 1.0, 0.0]))] * 20
    weights = fit(rows)
    assert weights[4] > 1.0 and abs(weights[0]) < 1e-6
    assert top_agreement(rows, weights) == 1.0
    assert top_agreement(rows, np.zeros(12)) == 0.0  # the earliest among equals is wrong


def test_grade_floors_are_fitted_to_the_graders_bands_and_read_from_the_table():
    from evals.calibrate_rubric import fit_floors
    from nodes.interview.answers import calibrated_floors
    from nodes.interview.report import GRADE_FLOORS, grade_for

    # calibrated scores that sit below the graders' own floors in every band
    pairs = [(s, b) for b, scores in {"A": [80, 82], "B": [66, 70], "C": [52, 56],
             "D": [38, 42], "F": [20, 25]}.items() for s in scores]  # fmt: skip
    floors = fit_floors(pairs)
    assert all(grade_for(s, floors) == b for s, b in pairs)
    own = tuple(f for _, f in GRADE_FLOORS)
    assert sum(grade_for(s, own) == b for s, b in pairs) < len(pairs)
    # the shipped table carries its floors, and grades use them by default
    shipped = calibrated_floors()
    assert shipped is not None and list(shipped) == sorted(shipped, reverse=True)
    assert grade_for(shipped[0]) == "A" and grade_for(shipped[0] - 1) == "B"


def test_the_rubric_weights_keep_their_meaning_when_fitted():
    # The fit may weigh a feature only in its meaning's direction: a feature that would come
    # out against it (here `star`, which tracks the noise) is left out and the rest refitted.
    import numpy as np

    from evals.calibrate_rubric import fit
    from nodes.interview.answers import Rubric, model_score

    def answer(**features: float) -> Rubric:
        rubric = Rubric(20, 5, 0, 0)
        rubric.features = features
        return rubric

    rng = np.random.default_rng(7)
    words = rng.uniform(2, 6, 200)
    hedging = rng.integers(0, 15, 200).astype(float)
    noise = rng.normal(0, 3, 200)
    star = -noise + rng.normal(0, 0.1, 200)
    y = 10 * words - 2 * hedging + noise
    names = ("log_chars", "star", "hedging")
    weights, b = fit(np.column_stack([words, star, hedging]), y, names, ("hedging",), l2=0.0)
    assert set(weights) == {"log_chars", "hedging"}
    assert abs(weights["log_chars"] - 10) < 0.5 and abs(weights["hedging"] + 2) < 0.2
    assert model_score(answer(log_chars=4.0), weights, b) > model_score(
        answer(log_chars=4.0, hedging=10.0), weights, b
    )


def test_the_calibrated_score_rewards_an_account_and_never_a_non_answer():
    from nodes.interview.answers import AGAINST, _calibration, calibrated_score

    table = _calibration()
    # the shipped weights keep their meaning: more is better except what counts against
    assert table["weights"] and all(
        (w < 0) == (name in AGAINST) for name, w in table["weights"].items()
    )
    facts = extract_facts(START["resume_text"], POSTING)
    question = "MySQL 인덱스의 동작 원리와 활용 방법을 설명해 주세요."
    strong = score_answer(question, "MySQL 인덱스", STRONG, "technical", facts)
    vague = score_answer(question, "MySQL 인덱스", "인덱스를 쓰면 빨라집니다.", "technical", facts)
    hedged = score_answer(
        question,
        "MySQL 인덱스",
        "인덱스를 쓰면 아마 빨라지는 걸로 알고 있어요.",
        "technical",
        facts,
    )
    none = score_answer(question, "MySQL 인덱스", WEAK, "technical", facts)
    assert calibrated_score(strong) > calibrated_score(vague) > calibrated_score(none) == 0
    assert calibrated_score(hedged) < calibrated_score(vague)
    assert calibrated_score(strong) >= 70


def test_saying_the_same_thing_again_or_filling_the_air_earns_nothing():
    from nodes.interview.answers import calibrated_score

    question = "협업 과정에서 갈등이 생겼을 때 어떻게 해결했나요?"
    once = "팀원과 일정 문제로 의견이 달랐는데, 먼저 상대의 입장을 듣고 우선순위를 함께 정했습니다."
    scores = [
        calibrated_score(score_answer(question, question, text, "personality", {}))
        for text in (once, " ".join([once] * 3), "음 그러니까 어 " * 40 + once)
    ]
    assert scores[0] == scores[1] == scores[2]
