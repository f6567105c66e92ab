"""Split a Korean resume or job posting into its named sections, deterministically.

Headings are recognised by keyword on short lines, with or without decorations
("■ 자격요건", "[우대사항]", "## 기술 스택", "담당업무:", "1. 경력사항"). Text before the first
heading is the "개요" section. Only sections are ever sent to a model, never whole documents.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

DocKind = Literal["resume", "posting"]

# Canonical section -> heading keywords (compared without spaces, lower-cased).
RESUME_HEADINGS: dict[str, tuple[str, ...]] = {
    "자기소개": (
        "자기소개",
        "소개",
        "요약",
        "프로필",
        "about",
        "summary",
        "profile",
        "introduction",
    ),
    "경력": (
        "경력",
        "경력사항",
        "경력기술",
        "근무경력",
        "근무경험",
        "업무경험",
        "실무경험",
        "experience",
        "workexperience",
        "career",
    ),
    "기술 스택": (
        "기술스택",
        "기술",
        "보유기술",
        "보유역량",
        "기술역량",
        "스킬",
        "skills",
        "techstack",
        "technicalskills",
        "사용기술",
    ),
    "프로젝트": (
        "프로젝트",
        "주요프로젝트",
        "프로젝트경험",
        "projects",
        "project",
        "사이드프로젝트",
        "개인프로젝트",
    ),
    "학력": ("학력", "학력사항", "교육", "교육이수", "교육사항", "education"),
    "자격증": (
        "자격증",
        "자격",
        "자격사항",
        "어학",
        "자격증및어학",
        "수상",
        "수상내역",
        "certifications",
        "certificates",
        "awards",
    ),
    "활동": ("대외활동", "활동", "기타활동", "activities", "오픈소스", "opensource"),
}
POSTING_HEADINGS: dict[str, tuple[str, ...]] = {
    "회사 소개": ("회사소개", "기업소개", "회사정보", "about", "aboutus", "팀소개"),
    "모집 부문": (
        "모집부문",
        "모집분야",
        "모집직무",
        "모집포지션",
        "포지션",
        "직무",
        "채용직무",
        "position",
        "채용분야",
    ),
    "담당업무": (
        "담당업무",
        "주요업무",
        "업무내용",
        "하는일",
        "합류하면하는일",
        "이런일을해요",
        "담당할업무",
        "responsibilities",
        "직무내용",
        "업무",
    ),
    "자격요건": (
        "자격요건",
        "지원자격",
        "필수요건",
        "필수역량",
        "필수자격",
        "자격조건",
        "requirements",
        "qualifications",
        "이런분을찾습니다",
        "필요역량",
        "지원요건",
    ),
    "우대사항": (
        "우대사항",
        "우대조건",
        "우대요건",
        "우대",
        "preferred",
        "이런분이면더좋아요",
        "플러스요인",
        "nicetohave",
        "우대역량",
    ),
    "전형 절차": (
        "전형절차",
        "채용절차",
        "채용프로세스",
        "전형과정",
        "채용과정",
        "process",
        "전형일정",
        "채용일정",
        "지원방법",
    ),
    "접수 기간": ("접수기간", "모집기간", "마감일", "마감", "지원기간", "접수마감", "서류마감"),
    "혜택": ("혜택", "복지", "복리후생", "혜택및복지", "benefits", "근무조건", "근무환경"),
}

_DECORATION = re.compile(r"^[\s#*■□●○◆◇▶▷►•\-–—·※\[\]【】<>《》()（）0-9.]+|[\s:：\]】>》)）]+$")


@dataclass(frozen=True)
class Section:
    document: DocKind
    name: str  # canonical section name
    text: str


def _heading_of(line: str, table: dict[str, tuple[str, ...]]) -> tuple[str, str] | None:
    """(section, rest of line) when the line is a heading, optionally followed by content
    ("자격요건: Java 3년 이상")."""
    stripped = line.strip()
    if not stripped or len(stripped) > 80:
        return None
    labelled = re.match(r"^(.{1,40}?)\s*[:：]\s*(.*)$", stripped)
    head, rest = (labelled.group(1), labelled.group(2)) if labelled else (stripped, "")
    if len(head) > 30:
        return None
    key = _DECORATION.sub("", head).replace(" ", "").lower()
    key = _DECORATION.sub("", key)
    for section, words in table.items():
        if key in words:
            return section, rest.strip()
    return None


def split_sections(text: str, document: DocKind, max_chars: int = 1500) -> list[Section]:
    """Sections in document order; repeated headings are merged; each capped at max_chars."""
    table = RESUME_HEADINGS if document == "resume" else POSTING_HEADINGS
    order: list[str] = []
    bodies: dict[str, list[str]] = {}
    current = "개요"
    for line in text.splitlines():
        heading = _heading_of(line, table)
        if heading:
            current, rest = heading
            if current not in bodies:
                order.append(current)
                bodies[current] = []
            if rest:
                bodies[current].append(rest)
            continue
        if line.strip():
            if current not in bodies:
                order.append(current)
                bodies[current] = []
            bodies[current].append(line.strip())
    sections = []
    for name in order:
        body = "\n".join(bodies[name]).strip()
        if body:
            sections.append(Section(document, name, body[:max_chars]))
    return sections


def section_text(sections: list[Section], *names: str) -> str:
    return "\n".join(s.text for s in sections if s.name in names)
