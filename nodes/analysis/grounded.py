"""Feedback written from what the analysis computed, not by a model: used when the
configured model is the embedded stand-in (which cannot write Korean), and field by field
whenever a model's text is junk (text/degenerate.py).

Every sentence states a computed fact or an action that follows from one, requirement by
requirement: a strength quotes a requirement the resume meets and the line that shows it;
a weakness names a requirement and the closest evidence (or that there is none); a
suggestion says what to add for one requirement and what it is worth in points. Quotes
are followed by a noun ("「…」 요건"), never by a particle, so no particle has to be
guessed for a quoted phrase; nothing is advice of one job family in particular.
"""

from __future__ import annotations

from typing import Any

from nodes.analysis.feedback import LABELS
from nodes.analysis.schemas import MatchFeedback
from nodes.analysis.scoring import score_credits
from text.modality import line_modality

_FIELDS = {field: label for label, field in LABELS.items()}
REQ_CHARS = 40
EVIDENCE_CHARS = 48
KIND_LABEL = {"required": "필수", "preferred": "우대"}


def clip(text: str, limit: int) -> str:
    """At most `limit` characters, cut at a space, with "…" where text was left out."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text.rfind(" ", 0, limit)
    return text[: cut if cut > limit // 2 else limit].rstrip(" ,.;:") + "…"


def _q(text: str, limit: int = REQ_CHARS) -> str:
    return f"「{clip(text, limit)}」"


def gain(reqs: list[dict[str, Any]], credits: list[float], index: int, score: int) -> int:
    """Points the score would gain if requirement `index` were shown as met."""
    changed = [
        (r["kind"], 1.0 if i == index else c)
        for i, (r, c) in enumerate(zip(reqs, credits, strict=False))
    ]
    scored = score_credits(changed)
    return max(0, (scored[0] if scored else score) - score)


# Requirements checked as facts (years, papers, scores): a longer sentence does not meet them.
TYPED = ("years", "credential", "language")


def _experience_first(items: list[tuple[int, dict[str, Any]]]) -> list[tuple[int, dict[str, Any]]]:
    """Met requirements with what the candidate did before those met by papers or years."""
    return sorted(items, key=lambda item: item[1]["type"] in TYPED)


def _partly_because(req: dict[str, Any]) -> str | None:
    """Why a requirement is partly met when its closest evidence says so itself: 'learning'
    (a course or self-study, not work), 'limited' (work done in part, by another party or at a
    basic level), else None."""
    if req["status"] != "partial" or not req.get("evidence"):
        return None
    modality = line_modality(req["evidence"])
    return modality if modality in ("learning", "limited") else None


def _studied(req: dict[str, Any]) -> bool:
    return _partly_because(req) == "learning"


def _action(req: dict[str, Any]) -> str:
    """What to add to the resume for one requirement, by its type."""
    if _studied(req) and req["type"] not in TYPED:
        return (
            f"{_q(req['evidence'], EVIDENCE_CHARS)}에서 배운 것을 실제 업무나 프로젝트에 써 본 "
            "경험이 있다면, 무엇을 했고 어떤 결과를 냈는지 적어 보세요"
        )
    if _partly_because(req) == "limited" and req["type"] not in TYPED:
        return (
            f"{_q(req['evidence'], EVIDENCE_CHARS)}보다 넓게 직접 맡아 해 본 경험이 있다면, 본인이 "
            "한 범위와 결과를 적어 보세요"
        )
    if req["status"] == "partial" and req.get("evidence") and req["type"] not in TYPED:
        return (
            f"지금의 {_q(req['evidence'], EVIDENCE_CHARS)} 내용을 기간, 규모, 결과와 함께 "
            "더 구체적으로 적어 보세요"
        )
    return {
        "years": "관련 경력의 시작·종료 연월을 빠짐없이 적어 실제 기간을 보여 주세요",
        "credential": "해당 학위나 자격이 있다면 취득 연월과 함께 자격·학력 항목에 적어 주세요",
        "language": "어학 점수가 있다면 시험명, 점수, 취득 연월을 적어 주세요",
    }.get(
        req["type"],
        "관련 경험이 있다면 어떤 업무에서 무엇을 했고 어떤 결과를 냈는지 한 줄로 적어 주세요",
    )


def grounded_feedback(match: dict[str, Any], facts: dict[str, Any]) -> MatchFeedback:
    reqs: list[dict[str, Any]] = match.get("requirements") or []
    credits: list[float] = match.get("credits") or [
        {"met": 1.0, "partial": 0.5, "missing": 0.0}[r["status"]] for r in reqs
    ]
    score, grade = match["score"], match["grade"]
    target = " ".join(x for x in (facts.get("company"), facts.get("position")) if x)
    target = f"{target} 공고" if target else "이 공고"
    if not match.get("requirements_read", True) or not reqs:
        return _unread(target)

    def of(kind: str, *statuses: str) -> list[tuple[int, dict[str, Any]]]:
        return [(i, r) for i, r in enumerate(reqs) if r["kind"] == kind and r["status"] in statuses]

    met_req = _experience_first(of("required", "met"))
    met_pref = _experience_first(of("preferred", "met"))
    n_req, n_pref = (
        len(of("required", "met", "partial", "missing")),
        len(of("preferred", "met", "partial", "missing")),
    )
    gaps = sorted(
        (
            (gain(reqs, credits, i, score), i, r)
            for i, r in enumerate(reqs)
            if r["status"] in ("missing", "partial")
        ),
        key=lambda g: (-g[0], g[1]),
    )

    strengths = []
    for _, r in (met_req + met_pref)[:3]:
        shown = (
            f" 이력서의 {_q(r['evidence'], EVIDENCE_CHARS)} 내용이 이를 보여 줍니다."
            if r.get("evidence")
            else " 이력서에서 확인됩니다."
        )
        strengths.append(f"{KIND_LABEL[r['kind']]} 요건 {_q(r['text'])} 충족:{shown}")
    if n_req and len(met_req) == n_req:
        strengths.insert(0, f"필수 요건 {n_req}개를 모두 충족합니다.")
    if not strengths:
        partial = [(i, r) for i, r in enumerate(reqs) if r["status"] == "partial"][:2]
        strengths += [
            f"{KIND_LABEL[r['kind']]} 요건 {_q(r['text'])}에 가까운 경험으로 "
            f"{_q(r['evidence'] or '', EVIDENCE_CHARS)} 내용이 있습니다."
            for _, r in partial
            if r.get("evidence")
        ]
    if not strengths:
        strengths.append(f"{target}의 요건과 직접 겹치는 경험은 이력서에서 아직 찾지 못했습니다.")

    weaknesses = []
    for _, _, r in gaps[:4]:
        if _studied(r):
            weaknesses.append(
                f"{KIND_LABEL[r['kind']]} 요건 {_q(r['text'])}: 가장 가까운 근거 "
                f"{_q(r['evidence'], EVIDENCE_CHARS)} 내용은 교육·학습 이력이라 일부만 충족합니다."
            )
        elif _partly_because(r) == "limited":
            weaknesses.append(
                f"{KIND_LABEL[r['kind']]} 요건 {_q(r['text'])}: 가장 가까운 근거 "
                f"{_q(r['evidence'], EVIDENCE_CHARS)} 내용은 일의 일부를 맡았거나 기초 수준으로 "
                "적혀 있어 일부만 충족합니다."
            )
        elif r["status"] == "partial" and r.get("evidence"):
            weaknesses.append(
                f"{KIND_LABEL[r['kind']]} 요건 {_q(r['text'])}: 가장 가까운 근거 "
                f"{_q(r['evidence'], EVIDENCE_CHARS)} 내용만으로는 일부만 충족합니다."
            )
        else:
            weaknesses.append(
                f"{KIND_LABEL[r['kind']]} 요건 {_q(r['text'])}: 이력서에서 근거를 찾지 못했습니다."
            )

    if not weaknesses:  # every requirement met: the thinnest evidence is what to strengthen
        thin = min(
            (r for r in reqs if r.get("evidence")), key=lambda r: len(r["evidence"]), default=None
        )
        if thin is not None:
            weaknesses.append(
                f"{KIND_LABEL[thin['kind']]} 요건 {_q(thin['text'])}의 근거가 "
                f"{_q(thin['evidence'], EVIDENCE_CHARS)} 한 줄뿐이라 구체적인 성과가 더 필요합니다."
            )
        else:
            weaknesses.append("충족한 요건의 근거가 이력서에 구체적으로 드러나지 않습니다.")

    suggestions = [
        f"{_q(r['text'])} 요건: {_action(r)} (충족 시 +{points}점)."
        for points, _, r in gaps[:3]
        if points > 0
    ] or ["충족한 요건마다 기간, 규모, 결과 수치를 함께 적으면 강점이 더 분명해집니다."]

    parts = [f"필수 요건 {len(met_req)}/{n_req}개"] if n_req else []
    parts += [f"우대 요건 {len(met_pref)}/{n_pref}개"] if n_pref else []
    strength_summary = f"{target}의 {', '.join(parts)}를 충족해 {score}점({grade}등급)입니다."
    missing_req = [r for _, _, r in gaps if r["kind"] == "required"]
    if missing_req:
        names = ", ".join(_q(r["text"], 30) for r in missing_req[:3])
        more = f" 외 {len(missing_req) - 3}개" if len(missing_req) > 3 else ""
        weakness_summary = f"보완이 필요한 필수 요건은 {names}{more} 요건입니다."
    elif gaps:
        names = ", ".join(_q(r["text"], 30) for _, _, r in gaps[:3])
        weakness_summary = f"필수 요건은 모두 충족했고, 우대 요건 {names} 요건을 보완하면 좋습니다."
    else:
        weakness_summary = "공고의 요건 가운데 보완이 필요한 항목은 없습니다."

    recommendations = [
        f"{_q(r['text'])} 요건을 보여 주면 +{points}점: {_action(r)}."
        for points, _, r in gaps[:2]
        if points > 0
    ]
    if met_req or met_pref:
        first = _experience_first(met_req + met_pref)[0][1]
        recommendations.append(
            f"지원서 첫머리에 {_q(first['text'])} 요건을 충족한 경험을 성과 중심으로 배치하세요."
        )
    if not recommendations:
        recommendations.append(
            "공고의 요건마다 이력서의 어느 경험이 답하는지 한 줄씩 정리해 보세요."
        )
    return MatchFeedback(
        strengths=strengths,
        weaknesses=weaknesses,
        suggestions=suggestions,
        strength_summary=strength_summary,
        weakness_summary=weakness_summary,
        recommendations=recommendations,
    )


def _unread(target: str) -> MatchFeedback:
    """A posting whose requirements could not be read: say so and ask for them."""
    ask = "공고의 자격요건과 우대사항을 함께 붙여 넣으면 요건별로 비교해 드릴 수 있습니다."
    return MatchFeedback(
        strengths=[f"{target}에서 자격요건을 찾지 못해 요건별 강점은 아직 판단하지 않았습니다."],
        weaknesses=["공고의 자격요건을 읽지 못해 부족한 점은 판단하지 않았습니다."],
        suggestions=[ask],
        strength_summary=f"{target}에서 자격요건을 읽지 못해 점수는 참고용입니다.",
        weakness_summary="요건을 읽지 못해 부족한 점은 판단하지 않았습니다.",
        recommendations=[ask],
    )


def feedback_text(feedback: MatchFeedback) -> str:
    """The labelled text format the model writes (and `parse_feedback` reads)."""
    lines = []
    for field, label in _FIELDS.items():
        value = getattr(feedback, field)
        lines.append(f"[{label}]")
        lines += [f"- {item}" for item in value] if isinstance(value, list) else [value]
    return "\n".join(lines) + "\n"
