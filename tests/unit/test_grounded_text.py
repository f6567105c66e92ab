"""No junk reaches a user: the degenerate-text detector, and the analysis's grounded
feedback (on the embedded stand-in, and field by field over a junk model answer)."""

from __future__ import annotations

import pytest
from prometheus_client import REGISTRY

from core.services import get_services
from graphs.analysis import build_analysis_graph
from tests.conftest import GOOD_FEEDBACK, POSTING, RESUME
from text.degenerate import degenerate_items, degenerate_reason

INPUT = {"user_id": "u1", "resume_text": RESUME, "posting_text": POSTING}
ECHOES = ("이력서 요약", "피드백")


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("우미도 지원자에게 줄 피드백을 작운도 이력서 요약", "prompt_echo"),  # seen on `make run`
        ("강점 강점 강점 강점 강점 강점 강점 강점", "loop"),
        ("좋은 경험 입니다 좋은 경험 입니다 좋은 경험 입니다", "loop"),
        ("The candidate has strong backend skills and experience.", "not_korean"),
        ("- .", "empty"),
        ("Kafka 운영 경험을 프로젝트 성과와 함께 이력서에 적어 보세요.", None),
        ("Java, Spring Boot, MySQL 경험이 공고의 필수 요건과 맞습니다.", None),
        # more Latin letters than Hangul, still a Korean sentence (seen in the session-7 sweep)
        ("우대 기술 HLSL, Gameplay Ability System, Perforce을 갖췄습니다.", None),
        ("보완이 필요한 기술은 Vulnerability Assessment, Penetration Testing 외 3개입니다.", None),
        ("Strong in Kafka, Spark and Airflow, 좋음", "not_korean"),
    ],
)
def test_junk_is_told_from_text(text, reason):
    assert degenerate_reason(text, echoes=ECHOES) == reason


def test_a_list_repeating_an_item_is_junk():
    assert degenerate_items(["이력서 요약", "이력서 요약"]) == "loop"
    assert degenerate_items(["Kafka를 익히세요.", "Kubernetes 실습을 해 보세요."]) is None


def junk_count(reason: str) -> float:
    value = REGISTRY.get_sample_value(
        "devths_degenerate_outputs_total", {"feature": "analysis", "reason": reason}
    )
    return value or 0.0


async def test_junk_fields_of_a_model_answer_are_replaced_by_grounded_text(use_fake_model):
    junk = GOOD_FEEDBACK.replace(
        "백엔드 핵심 역량을 갖췄습니다", "우미도 지원자에게 줄 피드백을 작운도 이력서 요약"
    )
    before = junk_count("prompt_echo")
    use_fake_model(lambda messages: junk)
    out = await build_analysis_graph().compile().ainvoke(INPUT)
    summary = out["matching"]["strength_summary"]
    assert "피드백" not in summary and "75점(B등급)" in summary  # computed, not written
    assert "카카오" in summary
    assert junk_count("prompt_echo") == before + 1
    # the fields that were fine are the model's own
    assert out["resume_analysis"]["strengths"] != []
    assert out["matching"]["weakness_summary"] in junk


async def test_a_strength_calling_a_missing_requirement_met_is_replaced(use_fake_model):
    # The resume shows no Kafka or Kubernetes; a model praising exactly that is contradicted
    # by the computed match, however well-formed its sentence is.
    contradicting = GOOD_FEEDBACK.replace(
        "Spring Boot 실무 경험이 공고와 맞습니다", "Kafka, Kubernetes 운영 경험을 갖추고 있습니다"
    )
    before = junk_count("contradicts_match")
    use_fake_model(lambda messages: contradicting)
    out = await build_analysis_graph().compile().ainvoke(INPUT)
    strengths = out["resume_analysis"]["strengths"]
    assert not any("Kafka, Kubernetes 운영 경험" in s for s in strengths)
    assert strengths and degenerate_items(strengths) is None
    assert junk_count("contradicts_match") == before + 1
    # the other fields were fine: they stay the model's own
    assert out["matching"]["strength_summary"] == "백엔드 핵심 역량을 갖췄습니다"


async def test_on_the_embedded_stand_in_the_feedback_is_grounded_and_still_streamed(
    use_fake_model, monkeypatch
):
    def never(messages):
        raise AssertionError("the stand-in must not be asked to write the feedback")

    use_fake_model(never)  # every section is short: no summary call either
    monkeypatch.setattr(get_services().models, "spec", lambda feature: "local")
    tokens = []
    final = None
    async for ev in build_analysis_graph().compile().astream_events(INPUT, version="v2"):
        if ev["event"] == "on_chat_model_stream":
            tokens.append(ev["data"]["chunk"].text)
        if ev["event"] == "on_chain_end" and not ev["parent_ids"]:
            final = ev["data"]["output"]
    matching = final["matching"]
    assert len(tokens) > 10 and "[강점]" in "".join(tokens)
    # Grounded in what was computed: the missing skills, the score and the posting.
    assert matching["missing_skills"] == ["Kafka", "Kubernetes"]
    assert "Kafka" in matching["weakness_summary"] and "Kubernetes" in matching["weakness_summary"]
    assert "75점(B등급)" in matching["strength_summary"]
    # The one unmet requirement (preferred) named with what showing it is worth: 75 -> 100.
    assert any(
        "Kafka, Kubernetes 운영 경험" in r and "+25점" in r for r in matching["recommendations"]
    )
    reqs = {r["text"]: r["status"] for r in matching["requirements"]}
    assert reqs == {
        "Java, Spring 기반 개발 경력 3년 이상": "met",
        "MySQL 활용 경험": "met",
        "Kafka, Kubernetes 운영 경험": "missing",
    }
    for field in ("strengths", "weaknesses", "suggestions"):
        assert degenerate_items(final["resume_analysis"][field]) is None
    assert degenerate_items(matching["recommendations"]) is None


async def test_the_interview_report_on_the_stand_in_is_grounded_in_the_rubric(
    use_fake_model, client, monkeypatch
):
    from tests.unit.test_interview import START, STRONG, anchored_question, answer, turn

    def questions_only(messages):
        if "종합 피드백" in messages[-1].text:
            raise AssertionError("the stand-in must not be asked to write the report")
        return anchored_question(messages)

    use_fake_model(questions_only, interview_max_followup_depth=0, interview_questions=3)
    await turn(client, **START)
    await answer(client, STRONG)
    await answer(client, "모르겠습니다")
    await answer(client, STRONG)
    monkeypatch.setattr(get_services().models, "spec", lambda feature: "local")
    r = await client.post(
        "/ai/interview/report/invoke", json={"input": {"user_id": "u1", "session_id": "s1"}}
    )
    assert r.status_code == 200, r.text
    report = r.json()["output"]["report"]
    # Counted from the rubric: two strong answers with numbers, one non-answer.
    assert any(p.endswith("(2/3개 답변)") for p in report["strength_patterns"])
    assert any(p.startswith("답하지 못함 (1/3개 답변)") for p in report["weakness_patterns"])
    assert any("접근 방법" in g for g in report["learning_guide"])
    for field in ("strength_patterns", "weakness_patterns", "learning_guide"):
        assert degenerate_items(report[field]) is None


def test_the_grounded_writers_description_carries_none_of_its_text():
    """Tracing sends a model's serialized description beside hidden inputs and outputs."""
    from langchain_core.load import dumpd

    from core.grounded import GroundedWriter

    writer = GroundedWriter(text="이력서의 「Java, Spring Boot 5년」 내용")
    assert "Spring Boot" not in repr(writer)
    assert "Spring Boot" not in str(dumpd(writer))
    assert writer.invoke("q").content == "이력서의 「Java, Spring Boot 5년」 내용"


def test_grounded_feedback_leads_with_experience_and_asks_for_facts_where_facts_fall_short():
    from nodes.analysis.grounded import grounded_feedback

    reqs = [
        {
            "text": "학력 초대졸 이상",
            "kind": "required",
            "type": "credential",
            "status": "met",
            "evidence": "가온대학교 경영학과 졸업",
        },
        {
            "text": "더존 Smart A 사용",
            "kind": "required",
            "type": "skill",
            "status": "met",
            "evidence": "더존 Smart A로 매입매출 전표 입력",
        },
        {
            "text": "경력 2년 이상",
            "kind": "required",
            "type": "years",
            "status": "partial",
            "evidence": "경력 기간 합계 약 1년",
        },
    ]
    match = {"score": 70, "grade": "B", "requirements": reqs, "credits": [1.0, 1.0, 0.5]}
    feedback = grounded_feedback(match, {})
    # what the candidate did comes before what their papers say
    assert "더존 Smart A" in feedback.strengths[0]
    assert "더존 Smart A" in feedback.recommendations[-1]
    # years fall short: the advice is about the periods, not about writing one line longer
    years_advice = next(s for s in feedback.suggestions if "경력 2년 이상" in s)
    assert "시작·종료 연월" in years_advice
    assert "더 구체적으로" not in years_advice


def test_a_requirement_shown_only_by_study_asks_for_the_work_it_was_used_in():
    from nodes.analysis.grounded import grounded_feedback

    reqs = [
        {
            "text": "SQL로 데이터를 직접 추출할 수 있는 분",
            "kind": "required",
            "type": "skill",
            "status": "partial",
            "evidence": "SQL 기초 부트캠프 수료 (8주, 2024)",
        },
        {
            "text": "A/B 테스트 설계 경험",
            "kind": "required",
            "type": "duty",
            "status": "partial",
            "evidence": "배너 문구 A/B 테스트 결과 리뷰",
        },
    ]
    match = {"score": 50, "grade": "C", "requirements": reqs, "credits": [0.5, 0.5]}
    feedback = grounded_feedback(match, {})
    studied = next(s for s in feedback.suggestions if "SQL" in s)
    assert "실제 업무나 프로젝트" in studied and "더 구체적으로" not in studied
    assert any("교육·학습 이력" in w for w in feedback.weaknesses if "SQL" in w)
    # work shown thinly is still asked to be told in more detail
    worked = next(s for s in feedback.suggestions if "A/B" in s)
    assert "더 구체적으로" in worked
    assert not any("교육·학습 이력" in w for w in feedback.weaknesses if "A/B" in w)


def test_a_requirement_shown_by_work_done_in_part_asks_for_the_whole_of_it():
    from nodes.analysis.grounded import grounded_feedback

    reqs = [
        {
            "text": "A/B 테스트를 설계하고 결과를 해석해 본 경험",
            "kind": "required",
            "type": "duty",
            "status": "partial",
            "evidence": "메인 배너 A/B 테스트 운영 (실험 설계·분석은 데이터팀 지원)",
        },
    ]
    match = {"score": 50, "grade": "C", "requirements": reqs, "credits": [0.5]}
    feedback = grounded_feedback(match, {})
    (advice,) = [s for s in feedback.suggestions if "A/B" in s]
    assert "직접 맡아" in advice and "더 구체적으로" not in advice
    assert any("일의 일부" in w for w in feedback.weaknesses)
