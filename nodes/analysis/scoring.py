"""Deterministic matching: the score and grade depend only on the skills found in the text.

score = 100 * (0.75 * required coverage + 0.25 * preferred coverage). Coverage counts
requirements, not skills: "Kotlin 또는 Java" is one requirement met by either, and a
requirement is met when the resume has the skill or one that implies it (Spring Boot ->
Spring). With no preferred skills the required coverage is the whole score; with no
required ones, the preferred coverage is. A posting that names no skill at all cannot be
scored on skills and gets 50 (grade C) with an explicit recommendation to check it by hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from text.skills import taxonomy

REQUIRED_WEIGHT = 0.75
# Tuned on the cross-author dev splits (106 pairs, `python -m evals.calibrate_requirements`:
# the floors with the most pairs in their expected band, every grade at least 10 points
# wide; leave-one-posting-out 0.755 -> 0.804): a candidate from a nearby field who shows a
# few requirements is a D, not an F (D from 15, was 30); about half is a C (from 48, was 50).
# A and B stay where the first 22 pairs put them (80, 65).
GRADE_FLOORS = (("A", 80), ("B", 65), ("C", 48), ("D", 15))


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


Groups = Sequence[Sequence[str]]


def match_skills(resume: Sequence[str], required: Groups, preferred: Groups) -> SkillMatch:
    """`required`/`preferred` are requirement groups (alternatives), see Taxonomy.groups."""
    have = taxonomy().closure(resume)
    met_required = [g for g in required if any(s in have for s in g)]
    met_preferred = [g for g in preferred if any(s in have for s in g)]
    matched = [s for g in met_required for s in g if s in have]
    bonus = [s for g in met_preferred for s in g if s in have]
    missing = [s for g in required if g not in met_required for s in g] + [
        s for g in preferred if g not in met_preferred for s in g
    ]
    req_cov = len(met_required) / len(required) if required else None
    pref_cov = len(met_preferred) / len(preferred) if preferred else None
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


# What a partly met requirement counts for (calibrated on the dev split, docs/decisions.md).
PARTIAL_CREDIT = 0.5
_CREDIT = {"met": 1.0, "partial": PARTIAL_CREDIT, "missing": 0.0}


def score_credits(credits: Sequence[tuple[str, float]]) -> tuple[int, str] | None:
    """(score, grade) from (kind, credit 0..1) per requirement: 100 * (0.75 * required
    coverage + 0.25 * preferred coverage), coverage being the mean credit of a kind; the
    coverage of the one kind present when the other is absent. None with no requirement."""
    coverage = {}
    for kind in ("required", "preferred"):
        values = [credit for k, credit in credits if k == kind]
        if values:
            coverage[kind] = sum(values) / len(values)
    if not coverage:
        return None
    if len(coverage) == 2:
        ratio = (
            REQUIRED_WEIGHT * coverage["required"] + (1 - REQUIRED_WEIGHT) * coverage["preferred"]
        )
    else:
        ratio = next(iter(coverage.values()))
    score = round(100 * ratio)
    return score, grade_for(score)


def score_requirements(statuses: Sequence[tuple[str, str]]) -> tuple[int, str] | None:
    """(score, grade) from (kind, status) per requirement, a partly met one counting
    PARTIAL_CREDIT (see score_credits)."""
    return score_credits([(kind, _CREDIT[status]) for kind, status in statuses])
