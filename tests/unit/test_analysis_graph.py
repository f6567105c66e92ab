"""The analysis graph's logic with a scripted fake model (no server, no Redis)."""

import pytest

from core.errors import InvalidInputError, ModelOutputError
from graphs.analysis import build_analysis_graph
from tests.conftest import GOOD_FEEDBACK, POSTING, RESUME, scripted_analysis_reply

INPUT = {"user_id": "u1", "resume_text": RESUME, "posting_text": POSTING}


@pytest.fixture
def graph():
    return build_analysis_graph().compile()


async def test_result_has_contract_shape_and_hand_checked_values(use_fake_model, graph):
    use_fake_model()
    out = await graph.ainvoke(INPUT)
    assert set(out) == {"resume_analysis", "posting_analysis", "matching", "cached"}
    posting = out["posting_analysis"]
    assert posting["company"] == "카카오"
    assert posting["position"] == "백엔드 개발자"
    assert posting["deadline"] == "2026-12-15"
    assert posting["required_skills"] == ["Java", "Spring", "MySQL"]
    assert posting["preferred_skills"] == ["Kafka", "Kubernetes"]
    matching = out["matching"]
    # 3/3 required (Spring via Spring Boot), 0/2 preferred: 0.75*100 = 75 -> B
    assert (matching["score"], matching["grade"]) == (75, "B")
    assert matching["missing_skills"] == ["Kafka", "Kubernetes"]
    assert matching["strength_summary"] == "백엔드 핵심 역량을 갖췄습니다"
    assert out["resume_analysis"]["skills"][:2] == ["Java", "Spring Boot"]
    assert out["cached"] is False


async def test_the_feedback_prompt_carries_the_match_and_evidence_lines_not_the_documents(
    use_fake_model, graph
):
    fake = use_fake_model(summary_min_chars=0)  # nothing to summarise: both name skills
    await graph.ainvoke(INPUT)
    (call,) = fake.calls  # the feedback only
    prompt = "\n".join(m.text for m in call)
    assert "- 점수: 75점 (B등급)" in prompt
    assert "- 필수 요건: 2개 중 2개 충족" in prompt
    assert "- 우대 요건: 1개 중 0개 충족" in prompt
    # each requirement with its status and the resume line that shows it (Spring through
    # Spring Boot); the missing one with no evidence
    evidence = "근거: Java, Spring Boot, JPA, MySQL, Redis, Docker"
    assert f"- 필수 요건 (충족): Java, Spring 기반 개발 경력 3년 이상 / {evidence}" in prompt
    assert f"- 필수 요건 (충족): MySQL 활용 경험 / {evidence}" in prompt
    assert "- 우대 요건 (부족): Kafka, Kubernetes 운영 경험\n" in prompt
    assert "- 공고: 카카오 / 백엔드 개발자" in prompt
    # no document whole, no line without a skill, never the contact line (personal data)
    assert RESUME.strip() not in prompt and POSTING.strip() not in prompt
    assert "3년차 백엔드 개발자입니다" not in prompt and "주문 API 개발" not in prompt
    assert "jiwon@example.com" not in prompt


async def test_a_longer_document_gives_the_same_feedback_prompt(use_fake_model, graph):
    """The prompt's size follows the requirements, not the documents: the same resume and
    posting five times over (their sections merge) give the same prompt."""
    fake = use_fake_model()
    await graph.ainvoke(INPUT)
    longer = {**INPUT, "resume_text": RESUME * 5, "posting_text": POSTING * 5}
    await graph.ainvoke(longer)
    assert len(fake.calls) == 2
    assert fake.calls[0][-1].text == fake.calls[1][-1].text


NO_SKILL_RESUME = """김지원 | jiwon@example.com
[자기소개]
사람들과 함께 문제를 풀어 온 3년차 개발자입니다.
[경력]
에이비씨 주식회사 2022.03 ~ 2025.02 주문 서비스 개발
"""


# A posting that states no requirement: only the company and its benefits.
NO_REQUIREMENT_POSTING = """[카카오] 채용
■ 회사 소개
함께 성장할 동료를 기다립니다.
■ 복리후생
- 점심 제공
"""


async def test_without_readable_requirements_the_documents_are_carried_as_sections(
    use_fake_model, graph
):
    """No requirement evidence can stand for the documents when the posting states no
    requirement: their chosen sections go to the model (every one with
    summary_min_chars=0), in parallel; neither goes to a model whole. The score is the
    neutral 50 (C), said so, never a failed match."""
    fake = use_fake_model(summary_min_chars=0)
    given = {**INPUT, "resume_text": NO_SKILL_RESUME, "posting_text": NO_REQUIREMENT_POSTING}
    out = await graph.ainvoke(given)
    summary_calls = [c for c in fake.calls if "섹션:" in c[-1].text]
    resume_calls = [c for c in summary_calls if "문서: 이력서" in c[-1].text]
    assert sorted(c[-1].text.split("섹션: ")[1].split("\n")[0] for c in resume_calls) == [
        "경력",
        "자기소개",
    ]
    assert len(fake.calls) == len(summary_calls) + 1  # and the feedback
    for call in fake.calls:
        prompt = "\n".join(m.text for m in call)
        assert NO_SKILL_RESUME.strip() not in prompt
        assert "jiwon@example.com" not in prompt
    feedback_prompt = fake.calls[-1][-1].text
    assert "- 이력서 경력: 섹션 요약" in feedback_prompt
    # the model's "스프링부트" is named by neither section: it does not count
    assert out["resume_analysis"]["skills"] == []
    matching = out["matching"]
    assert (matching["score"], matching["grade"]) == (50, "C")
    assert matching["requirements_read"] is False and matching["requirements"] == []
    assert any("자격요건" in r for r in matching["recommendations"])


async def test_a_resume_without_any_taxonomy_skill_is_matched_by_its_requirements(
    use_fake_model, graph
):
    """Requirements, not only skills: the resume names no skill, yet its evidence is read
    line by line; the requirement lines stand for it (no summary call)."""
    fake = use_fake_model(summary_min_chars=0)
    out = await graph.ainvoke({**INPUT, "resume_text": NO_SKILL_RESUME})
    assert len(fake.calls) == 1  # the feedback only
    reqs = {r["text"]: r for r in out["matching"]["requirements"]}
    assert set(reqs) == {
        "Java, Spring 기반 개발 경력 3년 이상",
        "MySQL 활용 경험",
        "Kafka, Kubernetes 운영 경험",
    }
    # the named tools appear nowhere in the resume: missing, whatever its 3 years say
    assert reqs["MySQL 활용 경험"]["status"] == "missing"
    assert reqs["Kafka, Kubernetes 운영 경험"]["status"] == "missing"
    assert out["matching"]["requirements_read"] is True


async def test_only_long_sections_cost_a_model_call(use_fake_model, graph):
    fake = use_fake_model(summary_min_chars=60)
    long_career = "[경력]\n" + "에이비씨 주식회사에서 주문 서비스를 만들고 운영했습니다. " * 2
    resume = NO_SKILL_RESUME.split("[경력]")[0] + long_career
    await graph.ainvoke({**INPUT, "resume_text": resume, "posting_text": NO_REQUIREMENT_POSTING})
    summarised = [c[-1].text for c in fake.calls if "섹션:" in c[-1].text]
    # only the long 경력 section (the 자기소개 is under 60 characters and goes verbatim)
    assert len(summarised) == 1 and "섹션: 경력" in summarised[0]
    feedback_prompt = fake.calls[-1][-1].text
    assert "- 이력서 자기소개: 사람들과 함께 문제를 풀어 온 3년차 개발자입니다." in feedback_prompt


async def test_documents_that_name_skills_go_straight_to_the_feedback(use_fake_model, graph):
    fake = use_fake_model()
    out = await graph.ainvoke({**INPUT, "resume_text": RESUME + "[프로젝트]\n" + "가나다 " * 200})
    assert len(fake.calls) == 1  # the feedback only, however long a section is
    assert out["matching"]["score"] == 75


async def test_second_identical_request_is_a_cache_hit_without_model_calls(use_fake_model, graph):
    fake = use_fake_model()
    first = await graph.ainvoke(INPUT)
    calls = len(fake.calls)
    second = await graph.ainvoke({**INPUT, "resume_text": RESUME + "\n\n  "})
    assert len(fake.calls) == calls
    assert second["cached"] is True
    assert {**second, "cached": False} == first


async def test_same_input_gives_the_same_score_whatever_the_model_writes(use_fake_model, graph):
    use_fake_model()
    a = await graph.ainvoke(INPUT)
    wilder = GOOD_FEEDBACK.replace("맞습니다", "잘 맞아요")
    use_fake_model(
        respond=lambda m: scripted_analysis_reply(m) if "섹션:" in m[-1].text else wilder
    )
    b = await graph.ainvoke(INPUT)
    assert a["matching"]["score"] == b["matching"]["score"]
    assert a["matching"]["strength_summary"] == b["matching"]["strength_summary"]
    assert a["resume_analysis"]["strengths"] != b["resume_analysis"]["strengths"]


async def test_only_the_feedback_call_streams_tokens(use_fake_model, graph):
    fake = use_fake_model(summary_min_chars=0)  # section summaries run too: internal calls
    nodes = set()
    tokens = []
    given = {**INPUT, "resume_text": NO_SKILL_RESUME, "posting_text": NO_REQUIREMENT_POSTING}
    async for ev in graph.astream_events(given, version="v2"):
        if ev["event"] == "on_chat_model_stream":
            nodes.add(ev["metadata"]["langgraph_node"])
            tokens.append(ev["data"]["chunk"].text)
    assert len(fake.calls) >= 3  # two resume sections, the posting's title, the feedback
    assert nodes == {"write_feedback"}
    assert "".join(tokens) == GOOD_FEEDBACK


async def test_malformed_feedback_is_retried_once_then_reported(use_fake_model, graph):
    fake = use_fake_model(
        respond=lambda m: scripted_analysis_reply(m) if "섹션:" in m[-1].text else "엉망인 답"
    )
    with pytest.raises(ModelOutputError):
        await graph.ainvoke(INPUT)
    feedback_calls = [c for c in fake.calls if "섹션:" not in c[-1].text]
    assert len(feedback_calls) == 2


@pytest.mark.parametrize(
    ("field", "value"),
    [("resume_text", "   \n "), ("posting_text", ""), ("resume_text", 42), ("user_id", " ")],
)
async def test_bad_input_is_rejected_before_any_model_call(use_fake_model, graph, field, value):
    fake = use_fake_model()
    with pytest.raises(InvalidInputError) as err:
        await graph.ainvoke({**INPUT, field: value})
    assert err.value.field == field
    assert fake.calls == []


async def test_text_over_the_configured_limit_is_rejected(use_fake_model, graph, monkeypatch):
    monkeypatch.setenv("MAX_INPUT_CHARS", "50")
    from core.settings import get_settings

    get_settings.cache_clear()
    try:
        use_fake_model()
        with pytest.raises(InvalidInputError, match="at most 50"):
            await graph.ainvoke(INPUT)
    finally:
        get_settings.cache_clear()


async def test_the_deterministic_match_is_sent_before_any_model_call(use_fake_model, graph):
    """`analysis_match` (contract v1.2): the score and skills, as a custom event, before
    the first model call starts, equal to the final result's matching fields."""
    # a posting with no requirement: the sections are summarised, so model calls run before
    # the feedback's
    use_fake_model(summary_min_chars=0)
    no_skills = {**INPUT, "resume_text": NO_SKILL_RESUME, "posting_text": NO_REQUIREMENT_POSTING}
    events = [e async for e in graph.astream_events(no_skills, version="v2")]
    kinds = [e["event"] for e in events]
    match_at = [i for i, e in enumerate(events) if e["event"] == "on_custom_event"]
    assert len(match_at) == 1 and events[match_at[0]]["name"] == "analysis_match"
    first_model = kinds.index("on_chat_model_start")
    assert match_at[0] < first_model
    final = events[-1]["data"]["output"]["matching"]
    sent = events[match_at[0]]["data"]
    assert sent == {
        k: final[k]
        for k in (
            "score",
            "grade",
            "matched_skills",
            "missing_skills",
            "bonus_skills",
            "requirements",
            "requirements_read",
        )
    }
    assert (sent["score"], sent["grade"], sent["requirements_read"]) == (50, "C", False)
    assert kinds.count("on_chat_model_start") >= 3
