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


async def test_sections_are_summarised_in_parallel_and_prompts_never_carry_whole_documents(
    use_fake_model, graph
):
    fake = use_fake_model(summary_min_chars=0)  # summarise every chosen section
    await graph.ainvoke(INPUT)
    summary_calls = [c for c in fake.calls if "섹션:" in c[-1].text]
    # resume: 자기소개, 기술 스택, 경력; posting: 담당업무, 자격요건, 우대사항, 개요
    assert len(summary_calls) == 7
    assert len(fake.calls) == 8
    for call in fake.calls:
        prompt = "\n".join(m.text for m in call)
        assert RESUME.strip() not in prompt and POSTING.strip() not in prompt
        # the resume's contact line (personal data) is never sent to a model
        assert "jiwon@example.com" not in prompt


async def test_only_long_sections_cost_a_model_call(use_fake_model, graph):
    fake = use_fake_model(summary_min_chars=60)
    long_career = "[경력]\n" + "에이비씨 주식회사에서 주문 API를 개발하고 쿼리를 튜닝했습니다. " * 2
    await graph.ainvoke({**INPUT, "resume_text": RESUME.split("[경력]")[0] + long_career})
    summarised = [c[-1].text for c in fake.calls if "섹션:" in c[-1].text]
    # only the long 경력 section (69 characters; every other chosen section is under 60)
    assert len(summarised) == 1 and "섹션: 경력" in summarised[0]
    feedback_prompt = fake.calls[-1][-1].text
    assert "- 기술 스택: Java, Spring Boot, JPA, MySQL, Redis, Docker" in feedback_prompt


async def test_short_documents_go_straight_to_scoring(use_fake_model, graph):
    fake = use_fake_model()  # default: sections up to 240 characters are used verbatim
    out = await graph.ainvoke(INPUT)
    assert len(fake.calls) == 1  # the feedback only
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
    use_fake_model()
    nodes = set()
    tokens = []
    async for ev in graph.astream_events(INPUT, version="v2"):
        if ev["event"] == "on_chat_model_stream":
            nodes.add(ev["metadata"]["langgraph_node"])
            tokens.append(ev["data"]["chunk"].text)
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
    use_fake_model(summary_min_chars=0)  # section summaries run: model calls before feedback
    events = [e async for e in graph.astream_events(INPUT, version="v2")]
    kinds = [e["event"] for e in events]
    match_at = [i for i, e in enumerate(events) if e["event"] == "on_custom_event"]
    assert len(match_at) == 1 and events[match_at[0]]["name"] == "analysis_match"
    first_model = kinds.index("on_chat_model_start")
    assert match_at[0] < first_model
    final = events[-1]["data"]["output"]["matching"]
    sent = events[match_at[0]]["data"]
    assert sent == {
        k: final[k] for k in ("score", "grade", "matched_skills", "missing_skills", "bonus_skills")
    }
    assert (sent["score"], sent["grade"]) == (75, "B")
