"""The check every eval runs over user-visible text: settings, model names, internal ids
and error internals are for operators."""

from __future__ import annotations

import pytest

from text.user_text import leak_reason


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("서버 설정을 CHAT_MODEL=google_genai:gemini-2.0-flash로 바꾸면 돼요", "setting"),
        ("GOOGLE_API_KEY가 필요해요", "setting"),
        ("REDIS_URL을 확인하세요", "setting"),
        ("지금은 Ollama 모델로 답하고 있어요", "model_name"),
        ("EXAONE이 답을 만들지 못했어요", "model_name"),
        ("gemini-2.0-flash가 응답하지 않아요", "model_name"),
        ("ValueError: invalid literal", "error_internals"),
        ("POSTING_NOT_FOUND: 공고가 없어요", "error_internals"),
        ("doc_id를 알려 주세요", "error_internals"),
    ],
)
def test_what_operators_need_is_caught(text: str, reason: str) -> None:
    assert leak_reason(text) == reason


def test_internal_ids_are_caught_only_as_ids() -> None:
    ids = ["resume", "doc-7f3a", "sched_91c2"]
    assert leak_reason("이력서(resume) · 기술 스택", ids) == "internal_id"
    assert leak_reason("'doc-7f3a' 문서에서 찾았어요", ids) == "internal_id"
    assert leak_reason("일정(sched_91c2)을 삭제했어요", ids) == "internal_id"
    # an id that is an ordinary word is only a leak when shown as an id
    assert leak_reason("resume에 적은 기술 스택이에요", ids) is None


@pytest.mark.parametrize(
    "text",
    [
        "지금은 자유로운 대화나 조언에는 답하기 어려워요.",
        "이력서 · 기술 스택\n“Java, Spring Boot, JPA, MySQL, Redis, Kafka, Docker”",
        "카카오 채용공고 · 자격요건: Java, Spring Boot 기반 개발 경력 3년 이상",
        "PORT 번호와 HOST 설정 경험이 있으시네요",  # single-word names are ordinary words
        "2026-12-04 15:00에 '네이버 1차 면접' 일정을 추가했어요.",
    ],
)
def test_ordinary_answers_pass(text: str) -> None:
    assert leak_reason(text) is None


def test_a_model_name_the_user_wrote_is_their_own_word() -> None:
    resume = "[프로젝트]\nLangChain과 GPT-4o로 사내 문서 RAG 챗봇 구현"
    quoted = "포트폴리오 · 프로젝트\n“LangChain과 GPT-4o로 사내 문서 RAG 챗봇 구현”"
    assert leak_reason(quoted, known=resume) is None
    assert leak_reason(quoted) == "model_name"
    # a model name beyond what the user wrote still leaks
    assert leak_reason(quoted + " (Gemini로 작성)", known=resume) == "model_name"
