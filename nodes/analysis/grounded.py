"""Feedback written from what the analysis computed, not by a model: used when the
configured model is the embedded stand-in (which cannot write Korean), and field by field
whenever a model's text is junk (nodes/shared/degenerate.py).

Every sentence states a computed fact (the score, the requirements met and missing, the
bonus skills, the posting's company and position) or a suggestion that follows from one.
"""

from __future__ import annotations

from typing import Any

from nodes.analysis.feedback import LABELS
from nodes.analysis.schemas import MatchFeedback
from nodes.shared.particles import particle_for

_FIELDS = {field: label for label, field in LABELS.items()}


def _names(skills: list[str], limit: int = 3) -> str:
    shown = ", ".join(skills[:limit])
    return shown + (f" 외 {len(skills) - limit}개" if len(skills) > limit else "")


def grounded_feedback(match: dict[str, Any], facts: dict[str, Any]) -> MatchFeedback:
    matched, missing, bonus = match["matched"], match["missing"], match["bonus"]
    required = facts.get("required_skills") or []
    preferred_missing = [s for s in facts.get("preferred_skills") or [] if s in missing]
    required_missing = [s for s in missing if s not in preferred_missing]
    target = " ".join(x for x in (facts.get("company"), facts.get("position")) if x) or "이 공고"

    strengths = []
    if matched:
        strengths.append(f"공고의 필수 기술 중 {_names(matched)} 경험이 이력서에 드러납니다.")
    if bonus:
        strengths.append(f"우대 기술 {_names(bonus)}{particle_for(bonus[0], '을')} 갖췄습니다.")
    if not strengths:
        strengths.append("이력서에 기술 스택과 경력이 항목별로 정리되어 있습니다.")

    weaknesses = []
    if required_missing:
        weaknesses.append(
            f"필수 기술 {_names(required_missing)}에 대한 경험이 이력서에서 확인되지 않습니다."
        )
    if preferred_missing:
        weaknesses.append(f"우대 기술 {_names(preferred_missing)} 경험이 보이지 않습니다.")
    if not weaknesses:
        weaknesses.append("공고의 요구 기술 가운데 이력서에서 빠진 항목은 없습니다.")

    suggestions = [
        f"{skill} 사용 경험이 있다면 프로젝트, 기간, 성과와 함께 이력서에 구체적으로 적어 보세요."
        for skill in required_missing[:2]
    ] or ["주요 성과를 응답 시간, 처리량, 비용처럼 수치로 보여 주면 강점이 더 분명해집니다."]

    met = f"필수 기술 {len(matched)}/{len(required)}개를 충족해" if required else "분석 결과"
    strength_summary = f"{target}에 대해 {met} {match['score']}점({match['grade']}등급)입니다."
    weakness_summary = (
        f"보완이 필요한 기술은 {_names(missing)}입니다."
        if missing
        else "공고가 요구하는 기술 중 부족한 항목은 없습니다."
    )
    recommendations = [
        f"{skill}{particle_for(skill, '을')} 다루는 작은 프로젝트를 만들어 이력서에 추가해 보세요."
        for skill in missing[:2]
    ] or [
        f"{target} 지원서에 {_names(matched) or '핵심 기술'} 활용 사례를 성과 중심으로 정리하세요."
    ]
    return MatchFeedback(
        strengths=strengths,
        weaknesses=weaknesses,
        suggestions=suggestions,
        strength_summary=strength_summary,
        weakness_summary=weakness_summary,
        recommendations=recommendations,
    )


def feedback_text(feedback: MatchFeedback) -> str:
    """The labelled text format the model writes (and `parse_feedback` reads)."""
    lines = []
    for field, label in _FIELDS.items():
        value = getattr(feedback, field)
        lines.append(f"[{label}]")
        lines += [f"- {item}" for item in value] if isinstance(value, list) else [value]
    return "\n".join(lines) + "\n"
