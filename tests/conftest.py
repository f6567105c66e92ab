from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import httpx
import pytest
from langchain_core.messages import BaseMessage

from core.models import ModelRegistry
from core.services import in_process_services, set_services
from core.settings import Settings
from tests.fakes import ScriptedChatModel

os.environ.setdefault("LANGSMITH_TRACING", "false")
os.environ.setdefault("LANGSMITH_TEST_TRACKING", "false")

GOOD_FEEDBACK = (
    "[강점]\n- Spring Boot 실무 경험이 공고와 맞습니다\n"
    "[약점]\n- Kubernetes 운영 경험이 없습니다\n"
    "[개선 제안]\n- 쿠버네티스 배포 경험을 쌓으세요\n"
    "[강점 요약]\n백엔드 핵심 역량을 갖췄습니다\n"
    "[약점 요약]\n인프라 경험이 부족합니다\n"
    "[추천]\n- 개인 프로젝트를 k8s로 배포해 보세요\n"
)


def scripted_analysis_reply(messages: list[BaseMessage]) -> str:
    """Section summaries get JSON; the feedback call gets the sectioned text."""
    if "섹션:" in messages[-1].text:
        return json.dumps({"summary": "섹션 요약", "skills": ["스프링부트"]}, ensure_ascii=False)
    return GOOD_FEEDBACK


@pytest.fixture
def use_fake_model(tmp_path) -> Iterator[Callable[..., ScriptedChatModel]]:
    """Install in-process services whose every feature uses a scripted fake model (and a
    Chroma directory of the test's own)."""

    def install(respond=scripted_analysis_reply, **settings) -> ScriptedChatModel:
        fake = ScriptedChatModel(respond=respond)
        settings.setdefault("chroma_path", str(tmp_path / "chroma"))
        conf = Settings(redis_url=None, **settings)
        set_services(in_process_services(conf, models=ModelRegistry(conf, {"*": fake})))
        return fake

    yield install
    set_services(None)


def _never(messages: list[BaseMessage]) -> str:
    raise AssertionError("the embedded stand-in must not be asked")


@pytest.fixture
def stand_in(use_fake_model, monkeypatch) -> ScriptedChatModel:
    """The chat's model is the embedded stand-in (spec "local"); any call to it fails."""
    from core.services import get_services

    fake = use_fake_model(_never)
    monkeypatch.setattr(get_services().models, "spec", lambda feature: "local")
    return fake


@pytest.fixture
def fresh_schedules() -> None:
    """An empty in-process schedule store (the store without Redis is module state)."""
    from tools import schedule

    schedule._MEMORY.clear()
    schedule._MEMORY_VERSIONS.clear()


@pytest.fixture
async def client() -> AsyncIterator[httpx.AsyncClient]:
    """The real app over ASGI (no lifespan: tests install the services they need)."""
    from server import create_app

    transport = httpx.ASGITransport(app=create_app())
    async with httpx.AsyncClient(transport=transport, base_url="http://test", timeout=60) as c:
        yield c


RESUME = """김지원 | jiwon@example.com
[자기소개]
3년차 백엔드 개발자입니다.
[기술 스택]
Java, Spring Boot, JPA, MySQL, Redis, Docker
[경력]
에이비씨 주식회사 2022.03 ~ 2025.02 주문 API 개발
"""
POSTING = """[카카오] 백엔드 개발자 채용
■ 담당업무
- 커머스 API 개발
■ 자격요건
- Java, Spring 기반 개발 경력 3년 이상
- MySQL 활용 경험
■ 우대사항
- Kafka, Kubernetes 운영 경험
접수기간: 2026.12.15 18:00까지
"""


async def saved_state(thread_id: str) -> dict[str, Any] | None:
    """The last checkpointed state of a thread in the active services (None if none)."""
    from core.services import get_services

    saved = await get_services().checkpointer.aget_tuple(
        {"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}}
    )
    return None if saved is None else saved.checkpoint["channel_values"]
