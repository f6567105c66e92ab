"""The session's plan of main questions, each tied to the candidate's documents.

A slot is {category, anchor, tie}: `anchor` is the phrase the question must contain (a
project, a skill, a topic), `tie` a posting fact the question may connect it to. Templates
are the fallback wording when a model's question is not grounded in the anchor, and the
alternative wording when a question would repeat an earlier one.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

from text.particles import particle_for

TECHNICAL_ORDER = ("network_os", "db_algorithm", "project", "tech_stack", "attitude")
PERSONALITY_ORDER = ("collaboration", "failure", "initiative", "growth", "motivation")
# With fewer questions than slots, these go first (then the rest in plan order).
TECHNICAL_PRIORITY = ("project", "tech_stack", "network_os", "db_algorithm", "attitude")
PERSONALITY_PRIORITY = ("collaboration", "failure", "motivation", "initiative", "growth")

CATEGORY_LABEL = {
    "network_os": "CS 기초 (네트워크/운영체제)",
    "db_algorithm": "데이터베이스/알고리즘",
    "project": "프로젝트 경험",
    "tech_stack": "기술 스택",
    "attitude": "엔지니어링 태도",
    "collaboration": "협업과 갈등 해결",
    "failure": "실패와 극복",
    "initiative": "주도성",
    "growth": "학습과 성장",
    "motivation": "지원 동기",
}

NETWORK_OS_TOPICS = ("TCP 연결 수립 과정", "프로세스와 스레드의 차이", "HTTP와 HTTPS의 차이")
DB_TOPICS = ("데이터베이스 인덱스", "트랜잭션 격리 수준", "해시 테이블과 시간 복잡도")
DB_SKILLS = ("MySQL", "PostgreSQL", "Oracle", "MariaDB", "MongoDB", "Redis", "Databases")
ATTITUDE_TOPICS = ("코드 리뷰", "장애 대응", "테스트 작성")

TEMPLATES: dict[str, tuple[str, ...]] = {
    "network_os": (
        "{anchor}에 대해 설명해 주시고, {tie} 업무에서 이 개념이 왜 중요한지 말씀해 주세요.",
        "{anchor}를 실제 서비스 문제와 연결해 설명해 주실 수 있을까요?",
    ),
    "db_algorithm": (
        "{anchor}의 동작 원리와, {tie} 환경에서 성능을 위해 어떻게 활용할지 설명해 주세요.",
        "{anchor}를 잘못 사용했을 때 생기는 문제와 해결 방법은 무엇인가요?",
    ),
    "project": (
        "{anchor} 경험에서 본인이 맡은 역할과 가장 어려웠던 기술적 문제는 무엇이었나요?",
        "{anchor}를 다시 한다면 설계에서 무엇을 바꾸시겠습니까?",
    ),
    "tech_stack": (
        "{anchor}를 선택한 이유와, 사용하면서 겪은 한계는 무엇이었나요?",
        "{anchor}의 내부 동작 중 성능에 가장 큰 영향을 주는 부분은 무엇인가요?",
    ),
    "attitude": (
        "{anchor}에 대해 본인이 지키는 원칙과 실제 사례를 말씀해 주시겠어요?",
        "{tie} 팀에서 {anchor} 문화를 만든다면 무엇부터 하시겠습니까?",
    ),
    "collaboration": (
        "{anchor} 과정에서 팀원과 의견이 달랐던 상황과, 어떻게 해결했는지 말씀해 주세요.",
        "{anchor}에서 협업이 잘 되지 않았던 순간에 본인은 어떤 행동을 했나요?",
    ),
    "failure": (
        "{anchor}에서 실패하거나 계획대로 되지 않았던 경험과, 그 뒤에 무엇을 바꾸었나요?",
        "{anchor} 중 가장 후회되는 결정은 무엇이고 그로부터 무엇을 배웠나요?",
    ),
    "initiative": (
        "{anchor}에서 누가 시키지 않았지만 스스로 문제를 찾아 해결한 경험이 있나요?",
        "{anchor}에서 본인이 주도해 바꾼 것과 그 결과를 말씀해 주세요.",
    ),
    "growth": (
        "{anchor}처럼 처음 접하는 기술을 빠르게 익혀야 했던 경험과 학습 방법을 말씀해 주세요.",
        "{anchor}를 앞으로 어떻게 익히실 계획인지 구체적으로 말씀해 주시겠어요?",
    ),
    "motivation": (
        "{anchor}에 지원한 이유와, 입사 후 가장 먼저 기여하고 싶은 일은 무엇인가요?",
        "{anchor}의 {tie} 업무에서 본인의 경험이 어떻게 쓰일 수 있을까요?",
    ),
}

# Follow-up kinds: what the follow-up is for (goes into the prompt) and fallback wording.
FOLLOWUP_PURPOSE = {
    "clarify": "짧은 답변을 구체적으로 풀어 설명하게 합니다",
    "experience": "답변 내용을 실제로 경험한 사례를 묻습니다",
    "deeper": "답변에 나온 기술을 선택한 이유, 동작 원리, 한계를 깊이 묻습니다",
    "apply": "답변의 경험을 지원 회사의 요구 기술/업무에 어떻게 적용할지 묻습니다",
    "redirect": "답변이 질문과 다른 이야기로 넘어갔음을 정중히 짚고, 질문한 주제를 다시 묻습니다",
}
FOLLOWUP_TEMPLATES: dict[str, tuple[str, ...]] = {
    "clarify": (
        "방금 말씀하신 {anchor}에 대해 조금 더 구체적으로 설명해 주시겠어요?",
        "{anchor} 부분을 예를 들어 자세히 말씀해 주실 수 있을까요?",
        "{anchor}라고 하셨는데, 구체적으로 무엇을 하셨는지 궁금합니다.",
        "{anchor}에서 본인이 직접 맡은 일은 무엇이었나요?",
    ),
    "experience": (
        "{anchor}와 관련해 실제로 경험한 사례가 있다면 말씀해 주시겠어요?",
        "{anchor}를 직접 적용해 본 상황과 그 결과는 어땠나요?",
        "{anchor}를 실제 업무나 프로젝트에서 다뤄 본 적이 있으신가요?",
        "{anchor}로 성과를 냈던 구체적인 사례를 수치와 함께 들려주세요.",
    ),
    "deeper": (
        "{anchor}를 선택한 이유와, 대안과 비교했을 때의 한계는 무엇인가요?",
        "{anchor}의 내부 동작 중 그 문제와 가장 관련 있는 부분을 설명해 주시겠어요?",
        "{anchor} 없이 같은 문제를 풀어야 했다면 어떻게 하셨을까요?",
    ),
    "redirect": (
        "여쭤본 것은 {anchor}에 대한 부분이었는데요, 그 점에 대해 다시 말씀해 주시겠어요?",
        "답변이 다른 이야기로 넘어간 것 같습니다. {anchor}에 대해 본인의 경험을 말씀해 주세요.",
        "{anchor}에 대한 질문이었습니다. 그 부분을 중심으로 다시 답해 주시겠어요?",
    ),
    "apply": (
        "말씀하신 {tie} 경험을 공고의 {anchor} 요구사항에 어떻게 적용하시겠습니까?",
        "입사 후 {anchor} 업무에서 {tie} 경험을 어떻게 살릴 수 있을까요?",
        "{tie} 경험 중 {anchor}에 그대로 쓸 수 있는 것과 다시 배워야 할 것은 무엇인가요?",
    ),
}


# Neutral wordings about any anchor: used when every wording of a question's own kind would
# repeat a question already asked in the session.
GENERIC_TEMPLATES: tuple[str, ...] = (
    "{anchor}에 대해 본인의 경험을 바탕으로 설명해 주시겠어요?",
    "{anchor}를 다루며 가장 어려웠던 점과 해결 방법은 무엇이었나요?",
    "{anchor}에서 본인이 맡은 역할과 그 결과를 말씀해 주세요.",
    "{anchor}를 처음 접하는 동료에게 핵심을 어떻게 설명하시겠어요?",
    "{anchor}를 다시 한다면 무엇을 다르게 하시겠어요?",
    "{anchor}와 관련해 스스로 부족하다고 느낀 점은 무엇이고, 어떻게 보완하고 있나요?",
)


def _pick(options: tuple[str, ...] | list[str], seed: str, offset: int = 0) -> str:
    index = int(hashlib.sha256(seed.encode()).hexdigest(), 16) + offset
    return options[index % len(options)]


def _first(*candidates: Any) -> str:
    for value in candidates:
        if value:
            return str(value)
    return ""


def _slot(category: str, facts: dict[str, Any], seed: str, n: int) -> dict[str, str]:
    experiences, skills = facts["experiences"], facts["skills"]
    required, duties = facts["required"], facts.get("duties", [])
    company = facts.get("company") or ""
    surface = facts.get("surface", {})  # canonical skill -> the documents' own words
    tie = _first(duties[0] if duties else "", facts.get("position"), "지원 직무")
    overlap = [s for s in skills if s in required]
    if category == "network_os":
        anchor = _pick(NETWORK_OS_TOPICS, seed)
    elif category == "db_algorithm":
        db = [s for s in (*skills, *required) if s in DB_SKILLS and s != "Databases"]
        anchor = f"{db[0]} 인덱스" if db else _pick(DB_TOPICS, seed)
    elif category == "project":
        anchor = _first(experiences[n] if n < len(experiences) else "", *skills, "최근 프로젝트")
        anchor = surface.get(anchor, anchor)
    elif category == "tech_stack":
        anchor = _first(*overlap, *skills, "주력 기술")
        tie = _first(*(r for r in required if r != anchor), tie)
        anchor, tie = surface.get(anchor, anchor), surface.get(tie, tie)
    elif category == "attitude":
        anchor = _pick(ATTITUDE_TOPICS, seed)
        tie = _first(company, tie)
    elif category == "growth":
        anchor = _first(*facts.get("missing", []), *facts.get("preferred", []), "새로운 기술")
        anchor = surface.get(anchor, anchor)
    elif category == "motivation":
        anchor = _first(company, facts.get("position"), "지원한 회사")
        tie = _first(duties[0] if duties else "", facts.get("position"), "지원 직무")
    else:  # collaboration, failure, initiative: the candidate's own experiences
        index = PERSONALITY_ORDER.index(category) % max(len(experiences), 1)
        anchor = _first(experiences[index] if experiences else "", "팀 프로젝트")
    return {"category": category, "label": CATEGORY_LABEL[category], "anchor": anchor, "tie": tie}


def build_plan(facts: dict[str, Any], interview_type: str, count: int, seed: str) -> list[dict]:
    """`count` slots in interview order; more than five repeat the project/experience kind
    over the candidate's further experiences."""
    order = TECHNICAL_ORDER if interview_type == "technical" else PERSONALITY_ORDER
    priority = TECHNICAL_PRIORITY if interview_type == "technical" else PERSONALITY_PRIORITY
    chosen = set(priority[:count])
    categories = [c for c in order if c in chosen]
    extra = "project" if interview_type == "technical" else "initiative"
    categories += [extra] * max(0, count - len(categories))
    plan: list[dict] = []
    seen: dict[str, int] = {}
    for category in categories:
        n = seen.get(category, 0)
        seen[category] = n + 1
        plan.append(_slot(category, facts, f"{seed}:{category}", n))
    return plan


# Longest first, so "이라고" is not read as "이" and "으로" not as "로".
_PARTICLE = re.compile(r"\{(anchor|tie)\}(이라고|라고|으로|로|을|를|이|가|은|는|과|와)(?![가-힣])")


def fill(template: str, **values: str) -> str:
    """`template.format(**values)` with the particle after {anchor}/{tie} fitted to the
    word ("Java를", "MySQL 인덱스를", "공공기관 웹 시스템 유지보수를", "4년을")."""

    def particle(match: re.Match[str]) -> str:
        word = values.get(match.group(1), "")
        return "{" + match.group(1) + "}" + particle_for(word, match.group(2))

    return _PARTICLE.sub(particle, template).format(**values)


def template_question(slot: dict[str, str], variant: int = 0) -> str:
    options = TEMPLATES[slot["category"]]
    return fill(options[variant % len(options)], anchor=slot["anchor"], tie=slot["tie"])
