"""One company finder for every feature that reads a posting (text/header.py): the
analysis, the embedder and the interview (through `text.posting.find_company`), the
calendar parser (`find_header`) and the chat's calendar tool."""

from __future__ import annotations

import importlib.util

import pytest

import nodes.calendar.steps as calendar_steps
import tools.calendar as calendar_tool
from text import header, posting

POSTINGS = {
    "[마켓플로우] 데이터 엔지니어 (경력 3년 이상)\n■ 담당업무\n- 파이프라인": "마켓플로우",
    "회사명: 주식회사 브레인웍스\n포지션: MLOps Engineer": "브레인웍스",
    "Lumen Robotics Inc. | Computer Vision Engineer (Perception)\n\nResponsibilities": (
        "Lumen Robotics"
    ),
    "Senior Site Reliability Engineer\nCompany: Paywave\nLocation: Seoul": "Paywave",
    "Backend Engineer, Payments (Go)\nOrbit Pay · Seoul · Full-time\n\nRequirements": ("Orbit Pay"),
    "테스트 자동화 엔지니어 (QA) 모집 — 주식회사 페어웨이\n우리 팀은 …": "페어웨이",
    "모집부문 | 프론트엔드 개발 (Vue)\n회사 | (주)그린오피스\n경력 | 1~4년": "그린오피스",
    "㈜세이프넷솔루션 보안 엔지니어 (경력 2년 이상)\n■ 담당업무": "세이프넷솔루션",
    "회사명:\n카카오\n\n모집 부문: 백엔드": "카카오",
    "웹소설 플랫폼 '모아북'에서 추천 모델을 만들 데이터 사이언티스트를 찾습니다.": "모아북",
    "Embedded Linux BSP Engineer | 고객사 비공개 (자율주행 카메라 모듈, 코스닥 상장사)": None,
    "Our client, a Series C fintech, is hiring a Platform Engineer.": None,
    "백엔드 개발자를 모집합니다": None,
}


@pytest.mark.parametrize(("text", "company"), POSTINGS.items())
def test_every_feature_reads_the_same_company(text: str, company: str | None):
    assert posting.find_company(text) == company
    assert header.find_header(text).company == company


def test_a_withheld_name_is_no_company_and_says_so():
    found = header.find_header("Embedded BSP Engineer | 고객사 비공개 (코스닥 상장사)")
    assert (found.company, found.company_absent) == (None, True)


def test_a_title_that_starts_with_its_role_names_no_company_from_that_word():
    assert posting.find_company("Backend Engineer, Payments (Go)\n- Go 3+ years") is None
    assert posting.find_company("SK하이닉스 반도체 엔지니어 채용") == "SK하이닉스"


def test_the_finder_was_moved_not_copied():
    """The calendar parser and the calendar tool reach the shared finder; the posting module
    keeps no company patterns of its own, and the calendar's old module is gone."""
    assert calendar_steps.find_header is header.find_header
    assert importlib.util.find_spec("nodes.calendar.header") is None
    assert calendar_tool.find_company is posting.find_company
    assert not any("COMPANY" in name or "CORP" in name for name in vars(posting))
