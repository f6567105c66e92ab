"""The interview report graph's steps: load the session, score every answer on the rubric
(deterministic), then the model writes the patterns and learning guide (streamed)."""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections import Counter
from typing import Any, Literal, cast

from langchain_core.runnables import RunnableConfig
from langgraph.graph import END
from langgraph.types import Command

from core.cache import cache_key
from core.errors import AIError, NotFoundError, validated
from core.services import get_services
from core.writing import write_sections
from nodes.interview.answers import (
    POSITIVE,
    SIGNALS,
    Rubric,
    calibrated_floors,
    calibrated_score,
    score_answer,
)
from nodes.interview.questions import FEATURE
from nodes.interview.schemas import (
    AnswerEvaluation,
    InterviewReport,
    InterviewReportInput,
    ReportPatterns,
    ReportSummary,
)
from nodes.interview.session import answered
from nodes.interview.state import ReportState
from nodes.interview.steps import TYPE_LABEL, session_thread
from prompts import load_prompt
from text.degenerate import degenerate_items
from text.labelled import list_grammar, parse_labelled

REPORT_PROMPT = load_prompt("interview/report_summary")
REPORT_LABELS = {
    "강점 패턴": "strength_patterns",
    "약점 패턴": "weakness_patterns",
    "학습 가이드": "learning_guide",
}
REPORT_GRAMMAR = list_grammar(list(REPORT_LABELS), max_items=2, max_chars=40)
# The interview rubric's own scale (an answer that covers all four parts well is an A):
# the graders' floors, used when no calibration table gives fitted ones.
Grade = Literal["A", "B", "C", "D", "F"]  # ReportSummary.grade
GRADE_FLOORS: tuple[tuple[Grade, int], ...] = (("A", 85), ("B", 70), ("C", 55), ("D", 40))


def grade_for(score: int, floors: tuple[int, int, int, int] | None = None) -> Grade:
    """The grade of a calibrated score: by the floors fitted with the calibration table
    (a calibrated score regresses toward the middle, so the floors that put the most
    answers in the grader's band sit below the grader's own), else GRADE_FLOORS."""
    fitted = calibrated_floors() if floors is None else floors
    pairs = zip(("A", "B", "C", "D"), fitted, strict=True) if fitted else GRADE_FLOORS
    for grade, floor in pairs:
        if score >= floor:
            return cast("Grade", grade)
    return "F"


async def load_session(state: ReportState) -> Command:
    """Reads user_id and session_id; loads the session's checkpoint; writes the rubric
    `evaluations`, the total and the cache key; ends with the cached report on a hit.
    Unknown session -> 404 SESSION_NOT_FOUND; no answers yet -> 409 NO_ANSWERS."""
    request = validated(InterviewReportInput, state)
    services = get_services()
    thread = session_thread(request.model_dump())
    saved = await services.checkpointer.aget_tuple(
        {"configurable": {"thread_id": thread, "checkpoint_ns": ""}}
    )
    values = saved.checkpoint["channel_values"] if saved else {}
    if not values.get("plan"):
        raise NotFoundError(
            "No interview session with this id", code="SESSION_NOT_FOUND", field="session_id"
        )
    turns = answered(values.get("turns", []))
    if not turns:
        raise AIError(
            "The session has no answers yet",
            code="NO_ANSWERS",
            status_code=409,
            field="session_id",
        )
    interview_type = values["interview_type"]
    evaluations, rubrics = await asyncio.to_thread(  # morphological analysis: CPU-bound
        evaluate_answers, turns, interview_type, values["facts"]
    )
    evidence = session_evidence(list(zip(turns, rubrics, strict=True)))
    total = round(sum(e["score"] for e in evaluations) / len(evaluations))
    # Keyed on everything the report is made of: the evaluations (questions, answers,
    # scores) and the prompt's inputs. Answers alone would serve a restarted session with
    # the same id and the same answers to other questions the old report.
    report_inputs = hashlib.sha256(
        json.dumps([interview_type, evaluations, evidence], ensure_ascii=False).encode()
    ).hexdigest()
    key = cache_key(
        "interview-report", thread, report_inputs, REPORT_PROMPT.tag, services.models.spec(FEATURE)
    )
    signals = dict(Counter(k for r in rubrics for k in sorted(set(r.signals))))
    update = {
        "evaluations": evaluations,
        "evidence": evidence,
        "signals": signals,
        "total_score": total,
        "interview_type": interview_type,
        "cache_key": key,
    }
    hit = await services.cache.get(key)
    if hit is not None:
        return Command(goto=END, update={**update, **hit, "cached": True})
    return Command(goto="write_report", update=update)


def evaluate_answers(
    turns: list[dict[str, Any]], interview_type: str, facts: dict[str, Any]
) -> tuple[list[dict[str, Any]], list[Rubric]]:
    """The evaluation and the rubric of every answered turn."""
    evaluations, rubrics = [], []
    for turn in turns:
        rubric = score_answer(
            turn["question"], turn["anchor"], turn["answer"], interview_type, facts
        )
        rubrics.append((turn, rubric))
        evaluations.append(
            AnswerEvaluation(
                question_id=turn["question_id"],
                question=turn["question"],
                answer=turn["answer"],
                score=calibrated_score(rubric),
                good_points=rubric.good_points,
                improvements=rubric.improvements,
            ).model_dump()
        )
    return evaluations, [rubric for _, rubric in rubrics]


# What to practise for each weak signal (the grounded learning guide).
LEARNING = {
    "non_answer": "모르는 질문도 아는 범위에서 접근 방법을 설명하는 연습을 하세요.",
    "hedged": "추측 표현 대신 본인이 직접 한 일과 확인한 사실로 말하는 연습을 하세요.",
    "off_topic": "질문의 핵심에 먼저 답하고, 하고 싶은 이야기는 그 뒤에 잇는 연습을 하세요.",
    "short": "답변을 상황, 행동, 결과 순서로 두세 문장 이상 말하는 연습을 하세요.",
    "keywords_absent": "질문의 핵심 단어를 첫 문장에서 짚고 답하는 연습을 하세요.",
    "no_numbers": "경험마다 시간, 비율, 건수 같은 성과 수치를 하나씩 준비하세요.",
    "star_gap": "경험을 상황-과제-행동-결과(STAR) 구조로 정리해 두세요.",
    "no_reasoning": "기술을 고른 이유와 대안을 비교해 설명하는 연습을 하세요.",
}


def grounded_patterns(signals: dict[str, int], answers: int) -> ReportPatterns:
    """The report's patterns from the rubric's counts (no model): what recurred, how often."""
    ranked = sorted(signals.items(), key=lambda kv: (-kv[1], kv[0]))
    good = [f"{SIGNALS[k]} ({n}/{answers}개 답변)" for k, n in ranked if k in POSITIVE][:2]
    weak = [f"{SIGNALS[k]} ({n}/{answers}개 답변)" for k, n in ranked if k not in POSITIVE][:2]
    guide = [LEARNING[k] for k, _ in ranked if k in LEARNING][:2]
    return ReportPatterns(
        strength_patterns=good or ["여러 답변에 반복해 나타난 강점은 아직 없습니다."],
        weakness_patterns=weak or ["여러 답변에 반복해 나타난 약점은 없습니다."],
        learning_guide=guide or ["답변마다 근거가 된 경험과 수치를 한 가지씩 더 준비하세요."],
    )


def patterns_text(patterns: ReportPatterns) -> str:
    """The labelled text the model writes (and `parse_patterns` reads)."""
    lines = []
    for label, field in REPORT_LABELS.items():
        lines.append(f"[{label}]")
        lines += [f"- {item}" for item in getattr(patterns, field)]
    return "\n".join(lines) + "\n"


def session_evidence(rubrics: list[tuple[dict[str, Any], Rubric]]) -> str:
    """What the report prompt sees: mean score per question category and how often each
    rubric signal occurred. Bounded whatever the session's length (the embedded model has
    a 4k context), and no answer text, so the model writes patterns, not quotes."""
    by_category: dict[str, list[int]] = {}
    counts: Counter[str] = Counter()
    for turn, rubric in rubrics:
        by_category.setdefault(turn["label"], []).append(rubric.score)
        # Sorted, not a bare set: ties in most_common() keep insertion order, and a set's
        # order changes with each process's hash seed, which changed the evidence (and the
        # report's cache key) from one API process to another.
        counts.update(sorted(set(rubric.signals)))
    n = len(rubrics)
    categories = ", ".join(f"{k} {round(sum(v) / len(v))}점" for k, v in by_category.items())
    good = [f"{SIGNALS[k]} ({c}/{n})" for k, c in counts.most_common() if k in POSITIVE][:3]
    weak = [f"{SIGNALS[k]} ({c}/{n})" for k, c in counts.most_common() if k not in POSITIVE][:3]
    return "\n".join(
        [
            f"- 답변 수: {n}",
            f"- 질문 유형별 평균: {categories}",
            f"- 자주 보인 강점: {', '.join(good) or '없음'}",
            f"- 자주 보인 약점: {', '.join(weak) or '없음'}",
        ]
    )


def parse_patterns(text: str) -> ReportPatterns:
    """The labelled report text; ValidationError (a ValueError) when a section is missing."""
    fields = parse_labelled(text, REPORT_LABELS)
    return ReportPatterns.model_validate({k: v[:3] for k, v in fields.items()})


async def write_report(state: ReportState, config: RunnableConfig) -> dict[str, Any]:
    """Reads `evaluations` and the total; writes the report (patterns and learning guide by
    the model, streamed to the client; score and grade computed) and caches it."""
    services = get_services()
    total = state["total_score"]
    messages = REPORT_PROMPT.messages(
        type_label=TYPE_LABEL[state["interview_type"]],
        total_score=total,
        grade=grade_for(total),
        evidence=state["evidence"],
    )
    # On the embedded stand-in the patterns come from the rubric's counts, streamed like a
    # model's answer (no model call).
    patterns = await write_sections(
        FEATURE,
        messages,
        {**config, "run_name": "write_report"},
        grounded=grounded_patterns(state.get("signals", {}), len(state["evaluations"])),
        render=patterns_text,
        parse=parse_patterns,
        junk=_junk_reason,
        what="report",
        grammar=REPORT_GRAMMAR,
        max_tokens=services.settings.interview_report_max_tokens,
    )
    report = InterviewReport(
        evaluations=[AnswerEvaluation(**e) for e in state["evaluations"]],
        report=ReportSummary(total_score=total, grade=grade_for(total), **patterns.model_dump()),
        cached=False,
    )
    output = report.model_dump(mode="json")
    await services.cache.set(
        state["cache_key"],
        {"evaluations": output["evaluations"], "report": output["report"]},
        services.settings.interview_report_cache_ttl_s,
    )
    return output


def _junk_reason(field: str, items: list[str]) -> str | None:
    """Why a list of the model's report must be replaced by the grounded one (a loop, the
    prompt echoed, not Korean, a repeated item), or None."""
    return degenerate_items(items, echoes=("근거", "형식", "보고서"))
