import pytest
from langchain_core.messages import HumanMessage
from pydantic import BaseModel

from core.errors import ModelOutputError
from core.structured import generate_structured, parse_json_text
from nodes.analysis.feedback import parse_feedback
from tests.conftest import GOOD_FEEDBACK
from tests.fakes import ScriptedChatModel


class Pair(BaseModel):
    a: int
    b: list[str]


def test_json_in_fences_or_prose_parses():
    assert parse_json_text('```json\n{"a": 1, "b": []}\n```') == {"a": 1, "b": []}
    assert parse_json_text('답변: {"a": 2, "b": ["x"]} 입니다') == {"a": 2, "b": ["x"]}


def test_json_cut_off_by_the_token_limit_is_closed():
    assert parse_json_text('{"a": 3, "b": ["x", "y') == {"a": 3, "b": ["x", "y"]}


def test_text_without_json_is_an_error():
    with pytest.raises(ValueError):
        parse_json_text("no json here")


async def test_structured_output_retries_once_then_succeeds():
    replies = iter(["not json", '{"a": 1, "b": ["ok"]}'])
    fake = ScriptedChatModel(respond=lambda _m: next(replies))
    result = await generate_structured(fake, Pair, [HumanMessage("q")], {}, timeout_s=5)
    assert result == Pair(a=1, b=["ok"])
    assert len(fake.calls) == 2


async def test_structured_output_fails_clearly_after_the_retry():
    fake = ScriptedChatModel(respond=lambda _m: '{"a": "not a number"}')
    with pytest.raises(ModelOutputError) as err:
        await generate_structured(fake, Pair, [HumanMessage("q")], {}, timeout_s=5)
    assert len(fake.calls) == 2
    assert err.value.code == "MODEL_OUTPUT_INVALID"


def test_feedback_sections_parse_into_fields():
    fb = parse_feedback(GOOD_FEEDBACK)
    assert fb.strengths == ["Spring Boot 실무 경험이 공고와 맞습니다"]
    assert fb.weakness_summary == "인프라 경험이 부족합니다"
    assert fb.recommendations == ["개인 프로젝트를 k8s로 배포해 보세요"]


def test_feedback_tolerates_label_variants_and_numbering():
    text = GOOD_FEEDBACK.replace("[강점]", "강점:").replace("- Spring", "1. Spring")
    assert parse_feedback(text).strengths == ["Spring Boot 실무 경험이 공고와 맞습니다"]


def test_feedback_missing_a_section_is_rejected():
    broken = GOOD_FEEDBACK.split("[추천]")[0]
    with pytest.raises(ValueError, match="recommendations"):
        parse_feedback(broken)
