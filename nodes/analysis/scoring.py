"""Deterministic matching: the score and grade depend only on the skills found in the text.

score = 100 * (0.75 * required coverage + 0.25 * preferred coverage), where coverage counts
a posting skill as met when the resume has it or a skill that implies it (Spring Boot ->
Spring). With no preferred skills the required coverage is the whole score; with no
required ones, the preferred coverage is. A posting that names no skill at all cannot be
scored on skills and gets 50 (grade D) with an explicit recommendation to check it by hand.
"""

from __future__ import annotations

from dataclasses import dataclass

from nodes.shared.skills import taxonomy

REQUIRED_WEIGHT = 0.75
GRADE_FLOORS = (("A", 85), ("B", 70), ("C", 55), ("D", 40))


@dataclass(frozen=True)
class SkillMatch:
    score: int
    grade: str
    matched: list[str]
    missing: list[str]
    bonus: list[str]
    scored_on_skills: bool


def grade_for(score: int) -> str:
    for grade, floor in GRADE_FLOORS:
        if score >= floor:
            return grade
    return "F"


def match_skills(resume: list[str], required: list[str], preferred: list[str]) -> SkillMatch:
    have = taxonomy().closure(resume)
    preferred = [s for s in preferred if s not in required]
    matched = [s for s in required if s in have]
    bonus = [s for s in preferred if s in have]
    missing = [s for s in required if s not in have] + [s for s in preferred if s not in have]
    req_cov = len(matched) / len(required) if required else None
    pref_cov = len(bonus) / len(preferred) if preferred else None
    if req_cov is not None and pref_cov is not None:
        ratio = REQUIRED_WEIGHT * req_cov + (1 - REQUIRED_WEIGHT) * pref_cov
    elif req_cov is not None:
        ratio = req_cov
    elif pref_cov is not None:
        ratio = pref_cov
    else:
        score = 50
        return SkillMatch(score, grade_for(score), [], [], [], scored_on_skills=False)
    score = round(100 * ratio)
    return SkillMatch(score, grade_for(score), matched, missing, bonus, scored_on_skills=True)
