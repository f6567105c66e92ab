import pytest

from text.skills import find_skills, normalise_skills, parse_taxonomy, taxonomy


def test_korean_and_english_aliases_map_to_one_canonical_name():
    assert find_skills("스프링부트와 spring-boot, Spring Boot") == ["Spring Boot"]
    assert normalise_skills(["스프링부트", "spring-boot", "SpringBoot"]) == ["Spring Boot"]


def test_longest_alias_wins_and_ascii_boundaries_hold():
    # "자바스크립트" is JavaScript (not Java); "JavaScript" does not contain a Java match.
    assert find_skills("자바스크립트, JavaScript") == ["JavaScript"]
    assert find_skills("Java를 주로 사용") == ["Java"]
    # C++ is never also C, C# never C; "C/C++" names both (C counts in a list of skills).
    assert find_skills("C++ 개발") == ["C++"]
    assert find_skills("C# 개발") == ["C#"]
    assert find_skills("C/C++ 개발") == ["C", "C++"]


def test_case_sensitive_aliases_do_not_fire_on_ordinary_words():
    assert find_skills("let us go to the store") == []
    assert find_skills("Go 언어와 Golang") == ["Go"]


def test_korean_particles_after_an_alias_still_match():
    assert find_skills("도커를 이용해 쿠버네티스에 배포") == ["Docker", "Kubernetes"]


def test_unknown_model_skills_are_dropped_by_normalisation():
    assert normalise_skills(["열정", "Kafka", "카프카"]) == ["Kafka"]


def test_implications_are_transitive_and_closed():
    closure = taxonomy().closure(["Spring Data JPA"])
    assert {"Spring Data JPA", "JPA", "Spring"} <= closure
    assert "Spring Boot" not in closure


def test_taxonomy_is_large_enough_for_the_korean_market():
    t = taxonomy()
    assert len(t.category) >= 250
    assert {"language", "backend", "frontend", "data", "cloud", "certification"} <= set(
        t.category.values()
    )


def test_implies_line_with_unknown_skill_is_rejected():
    import pytest

    with pytest.raises(ValueError):
        parse_taxonomy("## backend\nSpring\n## implies\nSpring > Nope\n")


def test_model_skills_are_grounded_loosely_but_not_invented():
    t = taxonomy()
    assert t.grounded("Node.js", "node js 로 API 서버 개발")
    assert t.grounded("Spring Boot", "Spring-Boot3 마이그레이션")
    assert not t.grounded("Kafka", "RabbitMQ 로 메시지 처리")
    assert not t.grounded("Go", "google 검색 광고")


def test_alternatives_form_one_requirement_group():
    t = taxonomy()
    assert t.groups("Kotlin 또는 Java 기반 서버 개발") == [["Kotlin", "Java"]]
    assert t.groups("AWS/GCP, Docker") == [["AWS", "GCP"], ["Docker"]]
    assert t.groups("MySQL이나 PostgreSQL 경험") == [["MySQL", "PostgreSQL"]]
    assert t.groups("Java, Spring Boot 기반") == [["Java"], ["Spring Boot"]]


def test_a_list_said_to_be_a_choice_is_one_requirement():
    t = taxonomy()
    assert t.groups("Java, Python, JavaScript 중 1개 이상 사용 가능") == [
        ["Java", "Python", "JavaScript"]
    ]
    assert t.groups("모델 서빙 (Triton Inference Server, BentoML, KServe 중 하나 이상)") == [
        ["Model Serving"],
        ["Triton Inference Server", "BentoML", "KServe"],
    ]
    assert t.groups("Experience with one of Go, Rust or Java; Docker") == [
        ["Go", "Rust", "Java"],
        ["Docker"],
    ]
    # A plain list stays a list of requirements.
    assert t.groups("Python, SQL, Airflow 능숙") == [["Python"], ["SQL"], ["Airflow"]]


def test_a_list_given_as_examples_of_a_kind_is_one_requirement():
    t = taxonomy()
    assert t.groups("Amplitude, GA4 등 프로덕트 분석 툴 사용 경험") == [
        ["Amplitude", "Google Analytics"]
    ]
    assert t.groups("MySQL, PostgreSQL 같은 RDBMS 설계") == [["MySQL", "PostgreSQL"]]
    assert t.groups("design tools such as Figma, Sketch") == [["Figma", "Sketch"]]
    # "등" as part of a word is not a list of examples
    assert t.groups("Python, SQL 등급별 분석") == [["Python"], ["SQL"]]


def test_a_class_and_its_examples_are_one_requirement_any_member_meets():
    t = taxonomy()
    assert t.groups("Kafka 등 메시지 큐 기반 비동기 처리 경험") == [["Kafka", "Message Queue"]]
    assert t.groups("CRM(Salesforce 등) 사용 경험") == [["CRM", "Salesforce"]]
    assert t.groups("Experience with Salesforce or another CRM") == [["Salesforce", "CRM"]]
    assert t.groups("브레이즈 같은 CRM 솔루션으로 캠페인 운영") == [["Braze", "CRM"]]
    assert t.groups("a WMS (e.g. SAP EWM, Manhattan)") == [["WMS", "SAP"]]
    # a bracket that is not a list of examples keeps its skills apart
    assert t.groups("Python (Pandas) 활용") == [["Python"], ["Pandas"]]
    # a member of the class meets it: RabbitMQ is a message queue
    assert "Message Queue" in t.closure(["RabbitMQ"])


def test_a_category_heading_names_the_words_of_its_field():
    known = parse_taxonomy(
        "## hr | 인사 | HR\nRecruiting | 채용 담당\n## sales | 영업\nB2B Sales\n"
    )
    assert known.fields_named({"인사", "실무"}) == {"hr"}
    assert known.fields_named({"hr"}) == {"hr"}  # case-insensitive
    assert known.fields_of({"Recruiting", "B2B Sales"}) == {"hr", "sales"}
    assert known.fields_named({"경력"}) == set()
    with pytest.raises(ValueError, match="two categories"):
        parse_taxonomy("## hr | 인사\n## sales | 인사\n")


def test_the_shipped_taxonomy_knows_the_job_fields_postings_ask_for():
    known = taxonomy()
    for word, field in [
        ("회계", "finance and accounting"),
        ("마케팅", "marketing"),
        ("backend", "backend"),
        ("원무", "medical administration"),
    ]:
        assert known.fields_named({word}) == {field}
