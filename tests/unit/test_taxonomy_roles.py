"""The skill taxonomy across role families: sentences written for these tests (not taken
from any eval set) with the exact skills they name, and look-alikes that must not match."""

from __future__ import annotations

import pytest

from text.skills import find_skills, normalise_skills, parse_taxonomy, taxonomy

# (sentence, exactly the skills it names)
ROLE_SENTENCES: dict[str, list[tuple[str, set[str]]]] = {
    "backend": [
        (
            "Kotlin과 Spring Boot 3로 주문 API를 만들고 JPA, QueryDSL로 조회를 최적화했습니다.",
            {"Kotlin", "Spring Boot", "JPA", "QueryDSL"},
        ),
        (
            "Built REST APIs in Go 1.22 with gRPC between services; PostgreSQL and Redis.",
            {"REST API", "Go", "gRPC", "PostgreSQL", "Redis"},
        ),
        (
            "노드와 타입스크립트로 NestJS 서버를 운영했고 ORM은 TypeORM을 썼습니다.",
            {"Node.js", "TypeScript", "NestJS", "TypeORM"},
        ),
    ],
    "frontend": [
        (
            "React 18과 TS로 대시보드를 만들고 Zustand, TanStack Query, Vitest를 도입",
            {"React", "TypeScript", "Zustand", "React Query", "Vitest"},
        ),
        (
            "Vue 2 → Vue 3 마이그레이션, Pinia 도입, 웹접근성(WAI-ARIA) 개선",
            {"Vue.js", "Pinia", "Web Accessibility", "WAI-ARIA"},
        ),
        (
            "pnpm 모노레포(Turborepo)에서 Storybook 기반 디자인시스템을 운영합니다",
            {"pnpm", "Monorepo", "Turborepo", "Storybook", "Design System"},
        ),
    ],
    "mobile": [
        (
            "코틀린, 젯팩 컴포즈, 코루틴/Flow로 안드로이드 앱을 만들고 Hilt로 의존성 주입",
            {"Kotlin", "Jetpack Compose", "Coroutines", "Kotlin Flow", "Android", "Hilt"},
        ),
        (
            "Flutter(Dart)로 앱 출시, 상태 관리는 Riverpod, 네트워크 라이브러리는 Dio",
            {"Flutter", "Dart", "Riverpod", "Dio"},
        ),
        (
            "SwiftUI와 Combine을 쓰고 TestFlight 배포는 Fastlane으로 자동화",
            {"SwiftUI", "Combine", "TestFlight", "Fastlane"},
        ),
    ],
    "data": [
        (
            "Airflow DAG로 S3 → Snowflake 적재, dbt 변환, Kafka Connect로 CDC 구성",
            {"Airflow", "AWS S3", "Snowflake", "dbt", "Kafka Connect", "Change Data Capture"},
        ),
        (
            "PySpark jobs on Databricks with Delta Lake; Trino for ad-hoc queries",
            {"Spark", "Databricks", "Delta Lake", "Presto"},
        ),
        ("데이터웨어하우스 설계와 데이터 파이프라인 운영", {"Data Warehouse", "Data Pipeline"}),
    ],
    "ai": [
        (
            "PyTorch로 YOLOv8 객체 탐지 모델을 학습하고 TensorRT INT8 양자화 후 Jetson Orin에 배포",
            {
                "PyTorch",
                "YOLO",
                "Object Detection",
                "TensorRT",
                "Model Quantization",
                "NVIDIA Jetson",
            },
        ),
        (
            "LangGraph 워크플로와 pgvector 기반 RAG를 만들고 vLLM으로 서빙",
            {"LangGraph", "pgvector", "RAG", "vLLM"},
        ),
        (
            "Fine-tuned Llama 3 with QLoRA on eight GPUs using DeepSpeed",
            {"Fine-tuning", "Llama", "LoRA", "DeepSpeed"},
        ),
        (
            "Ray Serve로 추천 모델을 배포하고 Feast 피처 스토어를 운영",
            {"Ray", "Recommendation System", "Feast", "Feature Store"},
        ),
    ],
    "infra": [
        (
            "k8s(EKS) 위에 Helm과 ArgoCD로 GitOps 배포, 테라폼으로 IaC 관리",
            {
                "Kubernetes",
                "AWS EKS",
                "Helm",
                "ArgoCD",
                "GitOps",
                "Terraform",
                "Infrastructure as Code",
            },
        ),
        (
            "Defined SLOs and error budgets; rolled out OpenTelemetry and Grafana Tempo",
            {"SLO", "OpenTelemetry", "Tempo"},
        ),
        (
            "장애 대응 체계를 만들고 카오스 엔지니어링과 k6 부하 테스트를 정례화",
            {"Incident Response", "Chaos Engineering", "k6", "Load Testing"},
        ),
    ],
    "security": [
        (
            "모의해킹과 취약점 진단(OWASP Top 10), Burp Suite와 Frida 활용",
            {
                "Penetration Testing",
                "Vulnerability Assessment",
                "OWASP",
                "Burp Suite",
                "Frida",
            },
        ),
        (
            "Cloud security with GuardDuty, Security Hub, Trivy image scans and OPA policies",
            {
                "Cloud Security",
                "Amazon GuardDuty",
                "AWS Security Hub",
                "Trivy",
                "Open Policy Agent",
            },
        ),
        (
            "ISMS-P와 ISO 27001 인증 대응, 보안 관제(SIEM: Splunk) 운영",
            {"ISMS-P", "ISO 27001", "Security Monitoring", "SIEM", "Splunk"},
        ),
    ],
    "qa": [
        (
            "Appium과 Playwright로 E2E 자동화, JMeter 부하 테스트, TestRail로 케이스 관리",
            {
                "Appium",
                "Playwright",
                "E2E Testing",
                "Test Automation",
                "JMeter",
                "Load Testing",
                "TestRail",
            },
        ),
        (
            "수동 테스트와 회귀 테스트, 테스트 케이스 설계를 맡았고 ISTQB CTFL 보유",
            {"Manual Testing", "Regression Testing", "Test Case Design", "ISTQB"},
        ),
        (
            "API tests with Postman/Newman and REST Assured",
            {"API Testing", "Postman", "Newman", "REST Assured"},
        ),
    ],
    "embedded": [
        (
            "STM32F4와 FreeRTOS 기반 펌웨어, UART/SPI/I2C 주변장치 제어, 오실로스코프로 디버깅",
            {"STM32", "FreeRTOS", "Embedded", "UART", "SPI", "I2C", "Oscilloscope"},
        ),
        (
            "Yocto로 임베디드 리눅스 BSP 구성, U-Boot와 디바이스 트리 수정, 크로스 컴파일",
            {
                "Yocto",
                "Embedded Linux",
                "BSP",
                "U-Boot",
                "Device Tree",
                "Cross Compilation",
            },
        ),
        (
            "CAN 통신 스택과 AUTOSAR, MISRA C 준수, Cortex-M7 MCU",
            {"CAN", "AUTOSAR", "MISRA C", "ARM Cortex-M"},
        ),
    ],
    "game": [
        (
            "Unity(C#)로 모바일 RPG 개발, Addressables와 UniTask, Photon으로 멀티플레이 구현",
            {"Unity", "C#", "Unity Addressables", "UniTask", "Photon"},
        ),
        (
            "언리얼 엔진 5에서 블루프린트와 C++로 전투 구현, GAS로 스킬 시스템, Perforce 사용",
            {"Unreal Engine", "Blueprint", "C++", "Gameplay Ability System", "Perforce"},
        ),
        ("DirectX 12와 HLSL로 렌더링, RenderDoc으로 프레임 분석", {"DirectX", "HLSL", "RenderDoc"}),
    ],
    "practice": [
        (
            "팀 리딩 5명, 코드 리뷰 문화 정착, 커뮤니케이션과 협업을 중시합니다",
            {"Leadership", "Code Review", "Communication", "Collaboration"},
        ),
        ("Led a team of four engineers through the migration", {"Leadership"}),
    ],
}

# Look-alikes: text that must name exactly these skills (often none).
LOOK_ALIKES: list[tuple[str, set[str]]] = [
    ("Go to market 전략을 세우고 go-to 담당자로 일했습니다", set()),
    ("We go live next week", set()),
    ("R&D센터와 R&R 정리", set()),
    ("We CAN deliver it on time", set()),
    ("C사와 B사 프로젝트, C레벨 보고, USB-C 포트", set()),
    ("Ray Park 님의 추천으로 지원했습니다", set()),
    ("ray tracing 렌더러를 C++로 작성", {"C++"}),
    ("X-ray 판독 보조 모델을 PyTorch로 개발", {"PyTorch"}),
    ("Spring 2022 semester teaching assistant", set()),
    ("known for swift, calm decisions", set()),
    ("we express ideas clearly and excel at teamwork", {"Collaboration"}),
    ("Dio Kim 님과 함께 일했습니다", set()),
    ("combine the results; a hilt of a sword; a blueprint for growth", set()),
    ("unreal expectations and team unity", set()),
    ("하이브리드 근무, 일러스트 작업, 엑셀러레이터 프로그램, 깃발", set()),
    ("워커 노드 3대 증설", set()),
    ("Vault에 보관했습니다", set()),
    ("The Chef recommended the pasta", set()),
    ("Frida Kahlo exhibition", set()),
    ("security deposit and the notion of time", set()),
    ("UART communication with an STM32 board", {"UART", "STM32"}),
    ("협업 툴(Slack, Jira) 사용", {"Slack", "Jira"}),
    ("customer segmentation 분석 리포트", set()),
    ("emotion recognition 모델을 TensorFlow로", {"TensorFlow"}),
    ("snowflake schema로 설계", set()),
    ("neural network 기초 공부", set()),
    ("rag_english_mixed-01", set()),
    ("Lambda 표현식과 Stream API", set()),
    # "노드" is Node.js only next to web skills: not a sensor node, not a Kubernetes node.
    ("nRF52 BLE 센서 노드, Zephyr RTOS", {"nRF52", "BLE", "Zephyr"}),
    ("쿠버네티스 워커 노드와 Helm 차트", {"Kubernetes", "Helm"}),
    ("노드(Express)와 타입스크립트", {"Node.js", "Express", "TypeScript"}),
    ("the rest of the team; KMP 알고리즘; OTA 여행 플랫폼; DSP 광고", set()),
]

# Written as the writer has not used it: not a skill.
NEGATED: list[tuple[str, set[str]]] = [
    ("Compose는 아직 사용해 보지 않았습니다. XML 레이아웃은 익숙합니다.", set()),
    ("보안 전문 경력은 없음", set()),
    ("No Android experience; Kotlin on the server daily", {"Kotlin"}),
    ("I have not used Kubernetes, but Docker every day.", {"Docker"}),
    ("React 경험은 없지만 Vue 경험은 있습니다", {"Vue.js"}),
    ("React, Vue 경험은 없습니다. Angular 2년", {"Angular"}),
    ("iOS 앱 개발 경험은 없습니다", set()),
    # Only what the negation is about: not the skills used earlier in the sentence.
    ("Python, Java 사용, 프론트엔드 경험은 없음", {"Python", "Java"}),
    # A posting that waives a skill is not a negation of the skill by the writer.
    ("Java 경험이 없어도 지원 가능합니다", {"Java"}),
]


@pytest.mark.parametrize(
    ("role", "sentence", "expected"),
    [(role, s, e) for role, cases in ROLE_SENTENCES.items() for s, e in cases],
)
def test_role_family_sentences_name_exactly_their_skills(role, sentence, expected):
    assert set(find_skills(sentence)) == expected, role


@pytest.mark.parametrize(("text", "expected"), LOOK_ALIKES)
def test_look_alikes_do_not_match(text, expected):
    assert set(find_skills(text)) == expected


@pytest.mark.parametrize(("text", "expected"), NEGATED)
def test_negated_skills_are_dropped(text, expected):
    assert set(find_skills(text)) == expected


def test_versions_written_onto_names_still_match():
    text = "Java17, Python 3.11, ROS2, i.MX8M, ES6+, C++20, Next.js 13+, YOLOv5"
    assert find_skills(text) == [
        "Java",
        "Python",
        "ROS",
        "NXP i.MX",
        "JavaScript",
        "C++",
        "Next.js",
        "YOLO",
    ]


def test_korean_particles_spacing_and_word_boundaries():
    assert find_skills("쿠버네티스에서 도커로, 파이썬을") == ["Kubernetes", "Docker", "Python"]
    assert find_skills("데이터파이프라인") == find_skills("데이터 파이프라인") == ["Data Pipeline"]
    assert find_skills("러스트로 CLI 작성") == ["Rust"]
    assert find_skills("일러스트레이터로 아이콘 제작") == ["Illustrator"]  # not Rust


def test_ambiguous_aliases_need_another_skill_nearby():
    assert find_skills("C") == []
    assert find_skills("C, Python") == ["C", "Python"]
    assert find_skills("통신: UART/SPI") == ["UART", "SPI"]  # two of a kind vouch for each other
    assert find_skills("Ray") == []
    assert find_skills("분산 학습은 Ray로, 서빙은 Triton으로") == [
        "Distributed Systems",
        "Ray",
        "Triton Inference Server",
    ]
    # Case matters for ambiguous aliases: "can" and "ray" are words.
    assert find_skills("can bus? a ray of light, Python") == ["Python"]


def test_parent_and_service_mentions():
    assert find_skills("AWS(EC2, S3, Glue)") == ["AWS", "AWS EC2", "AWS S3", "AWS Glue"]
    assert find_skills("AWS EC2/S3") == ["AWS EC2", "AWS S3"]  # no bare AWS
    assert find_skills("k8s(EKS)") == ["Kubernetes", "AWS EKS"]
    assert find_skills("Linux kernel drivers") == ["Linux Kernel", "Device Driver"]
    assert find_skills("데이터 웨어하우스 모델링") == ["Data Warehouse", "Data Modeling"]
    assert find_skills("회귀 테스트 자동화") == ["Regression Testing", "Test Automation"]


def test_new_implications_hold():
    t = taxonomy()
    assert {"GCP", "Kubernetes"} <= t.closure(["GKE"])
    assert {"ARM Cortex-M", "ARM"} <= t.closure(["STM32"])
    assert {"Load Testing", "Performance Testing"} <= t.closure(["k6"])
    assert {"Vector Database", "PostgreSQL"} <= t.closure(["pgvector"])
    assert {"Unreal Engine", "Game Development"} <= t.closure(["Gameplay Ability System"])
    assert "Kubernetes" not in t.closure(["Docker"])


def test_model_named_skills_normalise_with_versions_and_phrases():
    assert normalise_skills(["Python 3.11", "k8s", "ROS 2", "Ray", "led a team"]) == [
        "Python",
        "Kubernetes",
        "ROS",
        "Ray",
        "Leadership",
    ]
    assert normalise_skills(["R&D", "go-to"]) == []


def test_loose_grounding_keeps_word_boundaries():
    t = taxonomy()
    assert t.grounded("Spring Boot", "Spring-Boot3 마이그레이션")
    assert t.grounded("Kafka Connect", "kafka-connect 운영")
    assert not t.grounded("Gin", "search engine tuning")  # "gin" inside "engine"
    assert not t.grounded("R", "r&d")


def test_every_role_family_is_covered():
    counts: dict[str, int] = {}
    for category in taxonomy().category.values():
        counts[category] = counts.get(category, 0) + 1
    minimum = {
        "backend": 60,
        "frontend": 60,
        "mobile": 50,
        "data": 70,
        "ai": 90,
        "cloud": 100,
        "security": 50,
        "qa": 30,
        "embedded": 60,
        "game": 25,
    }
    assert {c: counts.get(c, 0) for c in minimum} == {
        c: max(counts.get(c, 0), n) for c, n in minimum.items()
    }


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("## a\nOne | x\nTwo | x\n", "names two skills"),
        ("## a\nOne | =X\nTwo | =X\n", "names two skills"),
        ("## a\nOne\nOne\n", "listed twice"),
        ("## a\nOne | re:(a)b\n", "may not capture"),
        ("## a\nOne | re:[ab]c\n", "must start with a literal"),
        ("## a\nOne | ?X@nowhere\n", "unknown category or skill"),
    ],
)
def test_malformed_taxonomy_lines_are_rejected(text, message):
    with pytest.raises(ValueError, match=message):
        parse_taxonomy(text)
