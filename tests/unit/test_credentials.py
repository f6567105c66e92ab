"""Degrees, majors, certificates and language proficiency read from requirement and resume
lines (#26). Expected values are worked out by hand from the texts."""

from datetime import date

import pytest

from text.careers import career_months, language_scores
from text.credentials import (
    asked_degree,
    certificate_status,
    certificates,
    degree_status,
    languages_asked,
    major_status,
    resume_certificates,
    resume_degree,
    worded_language_status,
)


@pytest.mark.parametrize(
    ("text", "level"),
    [
        ("고등학교 졸업 이상", 1),
        ("초대졸 이상", 2),
        ("보건행정 관련 학과 졸업자(전문학사 이상)", 2),
        ("대졸 이상 (4년제)", 3),
        ("4년제 대학 졸업 이상", 3),
        ("MS or PhD in Computer Science, Statistics, or a related field", 4),
        ("석사 이상", 4),
        ("B2B 영업 경력 3년 이상", None),
    ],
)
def test_the_degree_a_requirement_asks(text, level):
    assert asked_degree(text) == level


def test_a_resume_degree_reads_colleges_graduate_schools_and_unfinished_study():
    assert resume_degree("한결전문대학 컴퓨터정보과 (2년제) 졸업, 2023.02") == 2
    assert resume_degree("가온대학교 경영학과 졸업\n가온대학교 대학원 경영학 석사") == 4
    assert resume_degree("서해여자고등학교 졸업 (일반계)") == 1
    assert resume_degree("한빛대학교 경영학과 재학 중 (4학년)") == 2


def test_a_degree_below_the_bar_is_partly_met_and_equivalent_experience_counts():
    assert degree_status("대졸 이상 (4년제)", 2, 0) == "partial"
    assert degree_status("대졸 이상 (4년제)", 1, 0) == "missing"
    assert degree_status("초대졸 이상", 3, 0) == "met"
    assert degree_status("Bachelor's degree or equivalent practical experience", 0, 40) == "met"
    assert degree_status("Bachelor's degree or equivalent practical experience", 0, 12) == "missing"


def test_majors_are_read_through_their_fields_and_families():
    mechanical = "한빛공과대학교 기계공학과 학사"
    business = "서림대학교 경영학과 졸업"
    assert major_status("이공계 전공자", mechanical) == "met"
    assert major_status("이공계 전공자", business) == "missing"
    assert major_status("기계·전기·전자 관련 전공자", mechanical) == "met"
    assert major_status("BS in Computer Science or a related field", "정보통신공학과 학사") == "met"
    assert (
        major_status("Bachelor's degree in Computer Science, Business, or related", business)
        == "met"
    )
    # a related field in the same family, not one of those named
    assert (
        major_status("통계학, 산업공학, 컴퓨터공학 등 관련 전공 학사 이상", "경제학과 졸업")
        == "missing"
    )
    assert major_status("경영·회계 관련 전공", "경제학과 졸업") == "partial"
    assert major_status("학사 이상 (전공 무관)", business) is None
    assert major_status("Fluent business English", business) is None


def test_certificates_are_named_with_their_grades_and_rounds():
    named = certificates("전산회계 1급 이상 또는 전산세무 2급 이상, 1종 보통 운전면허, 컴활 2급")
    assert [(c.name, c.grade) for c in named] == [
        ("전산회계", 1),
        ("전산세무", 2),
        ("운전면허", 1),
        ("컴퓨터활용능력", 2),
    ]
    assert [(c.name, c.first_round) for c in certificates("세무사 1차 합격자")] == [
        ("세무사", True)
    ]
    assert [c.name for c in certificates("KICPA 또는 세무사 자격증 소지자")] == ["kicpa", "세무사"]
    # an office named after a profession, a newspaper article: no certificate
    assert certificates("세무회계 바른 (세무사사무소) 인턴, 급여 자료 세무사무소 전달") == []
    assert certificates("뉴스 기사 작성 경험") == []


@pytest.mark.parametrize(
    ("asked", "resume", "status"),
    [
        ("전산세무 1급", ["전산회계 1급 (2025.08)", "현재 전산세무 2급 준비 중"], "missing"),
        ("전산세무 2급 이상", ["전산세무 1급"], "met"),
        ("전산회계 1급, 컴퓨터활용능력 1급", ["전산회계 1급 / 컴퓨터활용능력 2급"], "partial"),
        ("정보처리기사 자격증 소지자", ["정보처리산업기사 (2024)"], "partial"),
        ("공인노무사 자격", ["공인노무사 1차 시험 합격 (2024)"], "partial"),
        ("지게차운전기능사 또는 물류관리사 자격 보유", ["지게차운전기능사 (2018)"], "met"),
        ("운전면허 1종 또는 2종 보통", ["운전면허 2종 보통"], "met"),
        ("운전면허 1종 보통 소지", ["2종 보통 운전면허 (2014)"], "partial"),
        ("KICPA 또는 세무사 자격증 소지자", ["신고는 세무사무소 대행"], "missing"),
        ("ADsP, SQLD 등 데이터 관련 자격증 보유자", ["ADsP (2023.11)"], "met"),
    ],
)
def test_a_certificate_is_held_at_its_grade(asked, resume, status):
    assert certificate_status(asked, resume_certificates(resume)) == status


def test_a_worded_language_bar_is_read_on_classes_from_the_scores():
    korean_resume = "경력\n㈜옷장 CRM팀 매니저\nTOEIC 875, 회의는 준비된 내용 위주로 가능"
    scores = language_scores(korean_resume)
    assert worded_language_status("Fluent business English", scores, korean_resume) == "partial"
    assert worded_language_status("영어 회화 가능자", scores, korean_resume) == "met"
    # a resume written in Korean shows Korean
    assert worded_language_status("Korean language proficiency", scores, korean_resume) == "met"
    english = "Experience\nSocial Media Producer, Starlight\nKorean (conversational, TOPIK level 4)"
    assert worded_language_status("Fluent Korean", language_scores(english), english) == "partial"
    assert worded_language_status("일본어 능통자", scores, korean_resume) == "missing"


def test_a_school_named_under_work_is_an_employer_and_a_stated_total_is_read():
    from datetime import date

    resume = """[경력 요약]  총 10년 3개월
① 학교법인 한빛대학교 부속병원  의무기록팀    2019. 09 ~ 현재
㈜러닝브릿지 (온라인 교육 플랫폼)  백엔드 개발자     2023.09 ~ 2024.08
[학력]
2012.03 ~ 2016.02   명진대학교 경영학과 졸업
"""
    # 2019.09 .. 2026.12 is 88 months; the stated 10 years 3 months (123) is longer
    assert career_months(resume, date(2026, 12, 1)) == 123
    assert career_months(resume.replace("총 10년 3개월", ""), date(2026, 12, 1)) == 88


def test_a_line_asking_only_for_a_degree_and_a_major_is_decided_by_them():
    from nodes.analysis.requirements import resume_facts, typed_check
    from text.requirements import PostingRequirement

    resume = "[학력]\n한결전문대학 세무회계과 (2년제) 졸업 (2022.02)\n[경력]\n경리 2022.03 ~ 현재"
    facts = resume_facts(resume, date(2026, 12, 1), [])
    for text in ("학력 대졸 이상 (상경계열 전공자)", "BS or MS in Accounting or a related field"):
        status, kind, rest = typed_check(PostingRequirement(text, "required", "credential"), facts)
        assert (status, kind, rest) == ("partial", "degree", False)


def test_the_evidence_of_a_paper_is_its_own_mention_not_the_whole_line():
    from nodes.analysis.requirements import assess_requirements
    from text.requirements import PostingRequirement

    resume = "[자격증]\n전산회계 1급 (2025.08) · 컴퓨터활용능력 2급 (2024.11) · TOEIC 815 (2025.03)"
    reqs = [
        PostingRequirement("컴퓨터활용능력 2급 이상", "preferred", "credential"),
        PostingRequirement("TOEIC 800점 이상", "preferred", "language"),
    ]
    assessed = assess_requirements(reqs, resume, date(2026, 12, 1), [])
    assert [(a.status, a.evidence) for a in assessed] == [
        ("met", "컴퓨터활용능력 2급 (2024.11)"),
        ("met", "TOEIC 815 (2025.03)"),
    ]


def test_a_domain_is_read_from_how_the_work_entries_describe_their_companies():
    from nodes.analysis.requirements import resume_facts, typed_check
    from text.requirements import PostingRequirement

    resume = """[경력]
㈜세이프인슈 (디지털 보험 앱) | Product Designer | 2021.03 ~ 현재
- 보험료 계산기 화면 설계
[자기소개]
핀테크 회사에서 일하고 싶습니다."""
    facts = resume_facts(resume, date(2026, 12, 1), [])
    finance = PostingRequirement("금융/핀테크 도메인 경험", "preferred", "domain")
    commerce = PostingRequirement("커머스/물류 도메인 경험", "preferred", "domain")
    assert typed_check(finance, facts) == ("met", "domain", False)
    # a wish in the cover letter is no experience; no entry is in commerce
    assert typed_check(commerce, facts) == ("missing", "domain", False)


@pytest.mark.parametrize(
    ("asked", "resume", "status"),
    [
        # one certificate under its names: 공인회계사 is KICPA
        ("KICPA 또는 세무사", ["공인회계사 시험 최종 합격 (2017.09)"], "met"),
        ("한국공인회계사 자격 보유자", ["KICPA (2019)"], "met"),
        # a person of that title is no certificate ("세무사와 협업", "노무사님께 자문")
        (
            "KICPA 또는 세무사",
            ["법인세 세무조정 자료 세무사와 협업", "전산세무 1급 (2020)"],
            "missing",
        ),
        ("공인노무사", ["노무 이슈는 노무사님께 자문을 받아 처리"], "missing"),
        # the professionals' association is no certificate held (session 30)
        ("공인노무사 자격 보유자", ["한국공인노무사회 '근로기준법' 과정 수료 (2022)"], "missing"),
        ("세무사", ["한국세무사회 연수 참석"], "missing"),
        # 행정사 is a licence's title ("병원행정사")
        ("건강보험심사 관련 자격(병원행정사, 건강보험사 등) 소지자", ["병원행정사 (2019)"], "met"),
        ("건강보험심사 관련 자격(병원행정사 등) 소지자", ["병원코디네이터 민간자격"], "missing"),
        # a list to hold in full, whatever "(신입 지원 가능)" says of the career
        (
            "정보처리기사, 정보보안기사 자격 모두 소지자 (신입 지원 가능)",
            ["정보처리기사 (2020)"],
            "partial",
        ),
        # others accepted in parentheses are alternatives, not a list to hold in full
        (
            "보건의료정보관리사 면허 소지자 (병원행정사, 보험심사평가사 소지자 지원 가능)",
            ["보건의료정보관리사 (2019)"],
            "met",
        ),
    ],
)
def test_a_certificate_is_known_by_its_names_and_not_by_a_person_holding_it(asked, resume, status):
    assert certificate_status(asked, resume_certificates(resume)) == status


def test_a_licence_no_check_can_name_is_shown_by_a_qualification_not_by_work():
    """A licence the checks cannot name is met only by a line stating a qualification held;
    the closest line of work shows none of it (session 30, analysis_req_dev8)."""
    from nodes.analysis.requirements import Signals, decide, resume_facts
    from text.requirements import PostingRequirement

    resume = """[경력]
○ 중앙병원 원무팀 | 2021.10 ~ 현재
- 외래 접수·수납, 입퇴원 수속 안내
[자격]
○ 보험심사평가사 (2023)"""
    facts = resume_facts(resume, date(2026, 12, 1), [])
    req = PostingRequirement("보험청구 실무 관련 자격 소지자", "preferred", "credential")
    work = facts.lines.index("중앙병원 원무팀 | 2021.10 ~ 현재")
    held = next(i for i, line in enumerate(facts.lines) if "보험심사평가사" in line)

    def strong(line: int) -> Signals:
        return Signals(0.9, line, 0.9, 0.95, line, 0.2, None, None, terms=4)

    fit = (0.1, 0.5, 0.5)
    assert decide(req, strong(work), fit, facts)[0] == "missing"
    assert decide(req, strong(held), fit, facts)[0] != "missing"


def test_a_university_of_an_associate_degree_is_no_bachelor_s():
    assert resume_degree("2015.03 ~ 2018.02  새빛과학기술대학교(3년제) 경영과 졸업") == 2
    assert degree_status("학력 대졸 이상 (4년제)", 2, 0) == "partial"
    # a university with nothing of an associate degree stays a bachelor's
    assert resume_degree("2015.03 ~ 2019.02  새빛대학교 경영학과 졸업") == 3


@pytest.mark.parametrize(
    ("asked", "resume", "status"),
    [
        # a certificate the resume holds, named in the requirement as written, though no
        # title ending marks it as one
        ("국제무역사 또는 무역영어 1급 자격증 소지자", ["국제무역사 1급 / 유통관리사 2급"], "met"),
        ("CS리더스관리사 또는 텔레마케팅관리사", ["CS리더스관리사 (2023)"], "met"),
        # named nowhere in the requirement: nothing asked of it
        ("물류관리사 자격증 소지자", ["국제무역사 1급"], "missing"),
    ],
)
def test_a_certificate_the_resume_holds_is_read_where_the_requirement_names_it(
    asked, resume, status
):
    assert certificate_status(asked, resume_certificates(resume)) == status


def test_languages_beyond_english_chinese_and_japanese_are_asked_and_shown():
    resume = "경력\n한빛무역 해외영업팀\n어학: 베트남어 업무 가능, TOEIC 780"
    scores = language_scores(resume)
    assert worded_language_status("베트남어 또는 태국어 가능자", scores, resume) == "met"
    assert worded_language_status("스페인어 가능자", scores, resume) == "missing"
    assert worded_language_status("Fluent German", scores, resume) == "missing"


def test_review_guards_on_certificates_languages_and_degrees():
    # a certificate's holder worked with is no certificate asked
    assert certificate_status(
        "세무사와 협업하여 법인세 신고를 진행한 경험", resume_certificates(["세무사 (2019 합격)"])
    ) in (None, "missing")
    # a nationality is no language asked; a language said as one is
    assert not languages_asked("Experience working with German automotive OEMs")
    assert not languages_asked("Knowledge of Indonesian market")
    assert languages_asked("불어 능통자 우대") == {"fr"}
    assert languages_asked("German (business level)") == {"de"}
    # a bachelor's after an associate degree counts
    assert resume_degree("한국전문대학 졸업 후 서울대학교 편입 졸업 (2020)") == 3
