"""The candidate's key facts, taken once from the resume and posting on the first turn.

Prompts carry these facts (a few short lines), never the whole documents. Everything here
is deterministic: section headings, the skill taxonomy and the posting's own wording.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from text.posting import find_company, find_position
from text.sections import section_text, split_sections
from text.skills import taxonomy

MAX_EXPERIENCES = 4
MAX_SKILLS = 8
_BULLET = re.compile(r"^\s*(?:[-•*·▶▷►※]|\d+[.)])\s*")
_LABEL = re.compile(r"^(?:팀|개인|사이드|토이|주요)?\s*프로젝트\s*[:：]\s*")
_PAREN = re.compile(r"\s*[(（\[].*?[)）\]]")
_PERIOD = re.compile(
    r"\s*\d{4}[.\-/년]\s*\d{0,2}\.?\s*(?:월)?\s*[~\-–]\s*(?:\d{4}[.\-/년]\s*\d{0,2}\.?\s*(?:월)?|현재|재직\s*중)?"
)


def experience_name(line: str) -> str:
    """A short name for one resume item: "- 팀 프로젝트: 영화 예매 서비스 (React)" ->
    "영화 예매 서비스"; "주문 API 개발, MySQL 쿼리 튜닝으로 ..." -> "주문 API 개발"."""
    text = _BULLET.sub("", line).strip()
    text = " ".join(_PERIOD.sub(" ", _PAREN.sub("", _LABEL.sub("", text))).split())
    _head, colon, tail = text.replace("：", ":").partition(":")
    if colon and len(tail.strip()) >= 4:  # "SI 회사 2년: 공공기관 웹 시스템 유지보수" -> the tail
        text = tail
    text = re.split(r"[,，;]|\s[-–]\s", text)[0].strip()
    return text[:40].strip()


def extract_facts(resume_text: str, posting_text: str, max_chars: int = 1500) -> dict[str, Any]:
    """Company, position, the candidate's experiences (projects first, then career items),
    their skills, and the posting's required and preferred skills and duties."""
    resume = split_sections(resume_text, "resume", max_chars)
    posting = split_sections(posting_text, "posting", max_chars)
    known = taxonomy()
    experiences: list[str] = []
    for name in ("프로젝트", "경력"):
        for line in section_text(resume, name).splitlines():
            item = experience_name(line)
            if len(item) >= 4 and item not in experiences:
                experiences.append(item)
    required_text = section_text(posting, "자격요건", "담당업무", "모집 부문") or posting_text
    duties = [
        d
        for line in section_text(posting, "담당업무").splitlines()
        if len(d := _BULLET.sub("", line).strip()) >= 4
    ]
    required = known.find(required_text)
    preferred = [s for s in known.find(section_text(posting, "우대사항")) if s not in required]
    skills = known.find(resume_text)
    have = known.closure(skills)
    # A requirement group ("Kotlin 또는 Java") is missing only when no alternative is had.
    missing = [g[0] for g in known.groups(required_text) if not have.intersection(g)]
    return {
        "company": find_company(posting_text),
        "position": find_position(posting_text, posting),
        "experiences": experiences[:MAX_EXPERIENCES],
        "skills": skills[:MAX_SKILLS],
        "required": required[:MAX_SKILLS],
        "preferred": preferred[:MAX_SKILLS],
        "duties": [d[:60] for d in duties[:3]],
        "missing": missing[:MAX_SKILLS],
        # How the documents wrote each skill: questions use the candidate's words.
        "surface": {**known.mentions(resume_text), **known.mentions(posting_text)},
    }


def facts_digest(facts: dict[str, Any]) -> str:
    return hashlib.sha256(
        json.dumps(facts, sort_keys=True, ensure_ascii=False).encode()
    ).hexdigest()


def facts_lines(facts: dict[str, Any]) -> str:
    """The facts as the few lines a prompt carries."""
    lines = [
        f"- 지원 회사/직무: {facts.get('company') or '미상'} / {facts.get('position') or '미상'}",
        f"- 지원자 경험: {', '.join(facts['experiences']) or '없음'}",
        f"- 지원자 기술: {', '.join(facts['skills']) or '없음'}",
        f"- 공고 요구 기술: {', '.join(facts['required']) or '없음'}",
    ]
    if facts.get("duties"):
        lines.append(f"- 공고 담당업무: {'; '.join(facts['duties'])}")
    return "\n".join(lines)
