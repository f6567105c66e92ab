from datetime import date

import pytest

from text.dates import find_dates
from text.posting import find_company, find_deadline, find_position
from text.sections import split_sections


def test_decorated_headings_are_recognised():
    text = (
        "■ 자격요건\n- Java\n[우대사항]\n- Kafka\n## 담당 업무\n- API 개발\n전형 절차: 서류 > 면접"
    )
    names = [s.name for s in split_sections(text, "posting")]
    assert names == ["자격요건", "우대사항", "담당업무", "전형 절차"]


def test_inline_heading_content_is_kept():
    sections = split_sections("자격요건: Java 3년 이상\n우대사항 : Kafka", "posting")
    assert [(s.name, s.text) for s in sections] == [
        ("자격요건", "Java 3년 이상"),
        ("우대사항", "Kafka"),
    ]


def test_text_before_any_heading_is_the_overview_and_sections_are_capped():
    sections = split_sections("홍길동\n" + "[경력]\n" + "가" * 50, "resume", max_chars=10)
    assert sections[0].name == "개요" and sections[0].text == "홍길동"
    assert sections[1].name == "경력" and len(sections[1].text) == 10


def test_a_long_line_mentioning_a_keyword_is_not_a_heading():
    text = (
        "경력 3년 이상의 개발자를 찾고 있으며 자격요건을 충족하는 분을 우대하고 "
        "모든 지원서를 꼼꼼히 봅니다"
    )
    assert [s.name for s in split_sections(text, "posting")] == ["개요"]


def test_company_from_label_bracket_and_corporate_suffix():
    assert find_company("회사명: 네이버웹툰\n...") == "네이버웹툰"
    assert find_company("[토스] 서버 개발자\n...") == "토스"
    assert find_company("채용 공고\n(주)우아한형제들 에서 모집합니다") == "우아한형제들"
    assert find_company("백엔드 개발자를 모집합니다") is None


def test_position_from_label_or_title():
    assert find_position("모집부문: 데이터 엔지니어\n", []) == "데이터 엔지니어"
    assert find_position("[카카오] 백엔드 개발자 채용\n", []) == "백엔드 개발자"
    assert find_position("함께 성장할 동료를 찾습니다", []) is None


def test_deadline_is_the_end_of_the_application_period():
    text = "접수기간: 2026.03.02 ~ 2026.03.15\n전형: 코딩테스트 3/22"
    sections = split_sections(text, "posting")
    assert find_deadline(text, sections, date(2026, 2, 1)) == date(2026, 3, 15)


def test_yearless_deadline_resolves_against_today():
    text = "~ 3/15(금) 18:00까지 지원"
    assert find_deadline(text, [], date(2026, 11, 29)) == date(2027, 3, 15)
    assert find_deadline(text, [], date(2026, 3, 1)) == date(2026, 3, 15)


def test_dotted_month_day_needs_its_weekday():
    ref = date(2026, 3, 1)
    got = find_dates("서류접수 : 3.9(월) ~ 3.20(금)\n코딩테스트 : 3.27 (금) 19:00", ref)
    assert [d.value for d in got] == [date(2026, 3, 9), date(2026, 3, 20), date(2026, 3, 27)]
    # version numbers, years of experience and decimals are not dates
    assert find_dates("Java 1.8 이상, 경력 3.5년, 평점 4.5 (필수)", ref) == []


def test_impossible_dates_are_not_guessed():
    assert find_dates("2026.02.30 마감") == []
    assert [d.value for d in find_dates("2월 30일, 2026년 4월 1일")] == [date(2026, 4, 1)]


def test_labelled_company_and_position_read_one_line_and_a_run_of_blank_lines_is_cheap():
    from text.posting import find_company, find_position

    assert find_company("회사명 : 카카오  \n모집 부문: 백엔드") == "카카오"
    # the value may stand on the line after its label
    assert find_company("회사명:\n카카오\n\n모집 부문: 백엔드") == "카카오"
    assert find_position("모집 부문 :  백엔드 개발자 \n자격요건: Java", []) == "백엔드 개발자"
    # 90,000 blank lines: each newline restarted a scan over the run before (about a
    # minute per pattern); no time is asserted, a regression shows as a stuck test.
    blank = "공고\n" + "\n" * 90_000 + "끝"
    assert find_company(blank) is None  # no label, no bracket, no corporate form
    assert find_position(blank, []) is None


def _names(text: str, kind: str = "posting") -> list[str]:
    return [s.name for s in split_sections(text, kind)]


def test_english_headings_name_the_posting_sections():
    text = (
        "About us\nWe build robots.\n"
        "What you'll do\n- Build APIs\n"
        "What you'll need\n- Go\n"
        "Preferred Qualifications\n- ROS 2\n"
        "Bonus\n- Terraform\n"
        "Perks & Benefits\n- Lunch\n"
        "Hiring process\n- Two interviews\n"
        "Deadline: 2026-07-10"
    )
    assert _names(text) == [
        "회사 소개",
        "담당업무",
        "자격요건",
        "우대사항",
        "혜택",
        "전형 절차",
        "접수 기간",
    ]


@pytest.mark.parametrize(
    "heading",
    [
        "Preferred Qualifications",
        "Preferred",
        "Nice to have",
        "Nice-to-haves:",
        "Bonus points",
        "Plus",
        "[Preferred]",
        "## Good to have",
        "우대사항 (Preferred)",
        "Preferred Qualifications / 우대사항",
        "Nice to have (우대)",
        "이런 분이면 더 좋아요",
        "[우대]",
    ],
)
def test_preferred_headings_in_english_korean_and_both(heading: str):
    sections = split_sections(f"Requirements\n- Java\n{heading}\n- Kafka", "posting")
    assert [(s.name, s.text) for s in sections] == [("자격요건", "- Java"), ("우대사항", "- Kafka")]


@pytest.mark.parametrize(
    ("heading", "section"),
    [
        ("Requirements", "자격요건"),
        ("Qualifications", "자격요건"),
        ("Minimum Qualifications", "자격요건"),
        ("What you'll need", "자격요건"),
        ("What you’ll need", "자격요건"),  # a typographic apostrophe
        ("What we're looking for", "자격요건"),
        ("Must-haves", "자격요건"),
        ("자격요건 / Requirements", "자격요건"),
        ("[필수]", "자격요건"),
        ("이런 분을 찾아요", "자격요건"),
        ("Responsibilities", "담당업무"),
        ("Key Responsibilities:", "담당업무"),
        ("What you'll do", "담당업무"),
        ("About the role", "담당업무"),
        ("[Responsibilities]", "담당업무"),
    ],
)
def test_required_and_duty_headings(heading: str, section: str):
    assert _names(f"{heading}\n- Kotlin") == [section]


def test_key_value_rows_and_bracketed_headings_keep_their_content():
    table = "모집부문 | 프론트엔드 개발\n자격요건 | Vue 3, TypeScript\n우대사항 | Nuxt 3, Pinia"
    sections = split_sections(table, "posting")
    assert [(s.name, s.text) for s in sections] == [
        ("모집 부문", "프론트엔드 개발"),
        ("자격요건", "Vue 3, TypeScript"),
        ("우대사항", "Nuxt 3, Pinia"),
    ]
    dated = split_sections("[접수 기간] 2026.07.20 ~ 2026.08.09", "posting")
    assert [(s.name, s.text) for s in dated] == [("접수 기간", "2026.07.20 ~ 2026.08.09")]


@pytest.mark.parametrize(
    "line",
    [
        "Backend Engineer (Payments)",  # a title, not a heading
        "Lumen Robotics Inc. | Computer Vision Engineer",
        "[카카오] 백엔드 개발자 채용",
        "Java / Spring",
        "Preferred experience with Kafka and event-driven systems at scale",
        "경력 / 학력",  # two different sections: neither
        "Plus, we offer a learning budget and flexible hours for everyone",
    ],
)
def test_lines_that_only_look_like_headings_are_content(line: str):
    assert _names(line) == ["개요"]


def test_english_resume_headings():
    resume = (
        "Summary\nBackend engineer.\nProfessional Experience\n- Go at Paynet\n"
        "Core Skills\nGo, Kafka\nSide Projects\n- a CLI\nEducation\n- KAIST"
    )
    assert _names(resume, "resume") == ["자기소개", "경력", "기술 스택", "프로젝트", "학력"]


def test_an_english_posting_splits_required_from_preferred_skills(use_fake_model):
    from nodes.analysis.steps import extract_sections

    use_fake_model()
    posting = (
        "Senior Site Reliability Engineer\nCompany: Paywave\n\nWhat you'll do\n"
        "- Build observability with Prometheus\n\nWhat you'll need\n- Kubernetes\n"
        "- Go or Python\n\nBonus\n- Terraform\n- PostgreSQL operations\n"
    )
    facts = extract_sections({"resume_text": "Go, Kubernetes", "posting_text": posting})[
        "posting_facts"
    ]
    assert facts["required_skills"] == ["Observability", "Prometheus", "Kubernetes", "Go", "Python"]
    assert facts["preferred_skills"] == ["Terraform", "PostgreSQL"]
    assert facts["company"] == "Paywave"
