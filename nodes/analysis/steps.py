"""The analysis graph's steps. Each docstring says what the step reads and writes."""

from __future__ import annotations

import asyncio
import functools
import hashlib
import logging
import re
import unicodedata
from dataclasses import asdict
from pathlib import Path
from typing import Any

from langchain_core.callbacks import adispatch_custom_event
from langchain_core.messages import BaseMessage
from langchain_core.runnables import RunnableConfig
from langgraph.config import get_stream_writer
from langgraph.graph import END
from langgraph.types import Command, Send

from core.cache import cache_key
from core.errors import ModelUnavailableError, validated
from core.services import get_services
from core.structured import INTERNAL, generate_structured
from core.writing import write_sections
from nodes.analysis.evidence import evidence_records, requirements
from nodes.analysis.feedback import FEEDBACK_GRAMMAR, parse_feedback
from nodes.analysis.grounded import feedback_text, grounded_feedback
from nodes.analysis.requirements import Assessed, assess_requirements
from nodes.analysis.schemas import (
    AnalysisResult,
    AnalyzeInput,
    Matching,
    PostingAnalysis,
    ResumeAnalysis,
    SectionDigest,
)
from nodes.analysis.scoring import PARTIAL_CREDIT, grade_for, match_skills, score_credits
from nodes.analysis.state import AnalysisState, SectionTask
from prompts import data_records, load_prompt
from text import skills as skills_module
from text.dates import today_seoul
from text.degenerate import degenerate_items, degenerate_reason
from text.posting import find_company, find_deadline, find_position
from text.requirements import PostingRequirement, extract_requirements
from text.sections import Section, section_text, split_sections
from text.skills import find_skills, normalise_skills, taxonomy

log = logging.getLogger(__name__)

FEATURE = "analysis"
# Bump when the steps change what they produce for the same input and prompts.
PIPELINE_VERSION = "3"
DOC_LABEL = {"resume": "이력서", "posting": "채용공고"}
# The sections that stand for a document carried as its sections (`_carried`: one in which
# the taxonomy finds no skill), in this order of priority.
SUMMARISED = {
    "resume": ("경력", "프로젝트", "기술 스택", "자기소개"),
    "posting": ("자격요건", "담당업무", "우대사항", "개요"),
}
MAX_SECTIONS_PER_DOC = 4


# Loaded at import (start-up), never on the event loop.
SECTION_PROMPT = load_prompt("analysis/section_summary")
FEEDBACK_PROMPT = load_prompt("analysis/match_feedback")
# The taxonomy file and the matcher's code: a change to either (aliases, look-alikes,
# context rules, negation) changes the cache key of every analysis.
TAXONOMY_DIGEST = hashlib.sha256(
    b"".join(Path(f).read_bytes() for f in (skills_module.__file__, skills_module._TAXONOMY_FILE))
).hexdigest()


def normalise_text(text: str) -> str:
    """NFC, one space between words, no blank-line noise: the cache sees content only."""
    text = unicodedata.normalize("NFC", text)
    lines = (re.sub(r"[ \t\u00a0\u3000]+", " ", ln).strip() for ln in text.splitlines())
    return "\n".join(ln for ln in lines if ln)


def analysis_cache_key(resume: str, posting: str, model_spec: str, now: str = "") -> str:
    return cache_key(
        FEATURE,
        now,
        PIPELINE_VERSION,
        SECTION_PROMPT.tag,
        FEEDBACK_PROMPT.tag,
        model_spec,
        TAXONOMY_DIGEST[:12],
        normalise_text(resume),
        normalise_text(posting),
    )


def validate_input(state: AnalysisState) -> AnalyzeInput:
    return validated(AnalyzeInput, state)


def _request_key(state: AnalysisState) -> str:
    request = validate_input(state)
    spec = get_services().models.spec(FEATURE)  # first call locates model files on disk
    now = (request.now or today_seoul()).isoformat()
    return analysis_cache_key(request.resume_text, request.posting_text, spec, now)


async def check_cache(state: AnalysisState) -> Command:
    """Reads the input; validates it; on a cache hit writes the finished result and ends
    (no model is called), otherwise writes `cache_key` and goes on to extract sections."""
    services = get_services()
    # Validation, hashing and first-use file look-ups run off the event loop.
    key = await asyncio.to_thread(_request_key, state)
    hit = await services.cache.get(key)
    if hit is not None:
        return Command(goto=END, update={**hit, "cached": True, "cache_key": key})
    return Command(goto="extract_sections", update={"cache_key": key})


def extract_sections(state: AnalysisState) -> dict[str, Any]:
    """Reads resume_text and posting_text; writes the deterministic skills, the posting's
    facts (company, position, deadline, requirement groups) and, for a document carried as
    its sections (see `_carried`), those sections: short ones as they are (`digests`), long
    ones to be summarised (`sections`)."""
    max_chars = get_services().settings.section_max_chars
    resume = split_sections(state["resume_text"], "resume", max_chars)
    posting = split_sections(state["posting_text"], "posting", max_chars)
    required_text = section_text(posting, "자격요건", "담당업무", "모집 부문")
    preferred_text = section_text(posting, "우대사항")
    if not required_text:  # no recognisable headings: every skill named is required
        required_text = "\n".join(s.text for s in posting if s.name != "우대사항")
    known = taxonomy()
    required_groups = known.groups(required_text)
    required = [s for g in required_groups for s in g]
    preferred_groups = [
        kept for g in known.groups(preferred_text) if (kept := [s for s in g if s not in required])
    ]
    preferred = [s for g in preferred_groups for s in g]
    resume_skills = find_skills(state["resume_text"])
    # Every requirement line, not only skills (#26): the posting read whole, uncapped.
    posting_requirements = extract_requirements(state["posting_text"])
    has_requirements = bool(posting_requirements)
    chosen = [
        s
        for sections, document, has_skills in (
            (resume, "resume", has_requirements or bool(resume_skills)),
            (posting, "posting", has_requirements or bool(required_groups or preferred_groups)),
        )
        if _carried(picked := _chosen_sections(sections, document), has_skills)
        for s in picked
    ]
    min_chars = get_services().settings.summary_min_chars
    return {
        # Long sections go to the model; short ones are already shorter than a summary and
        # are used as they are (no call, fewer tokens).
        "sections": [s.__dict__ for s in chosen if len(s.text) > min_chars],
        "digests": [
            {"document": s.document, "name": s.name, "summary": s.text, "skills": []}
            for s in chosen
            if len(s.text) <= min_chars
        ],
        "resume_skills": resume_skills,
        "posting_facts": {
            "company": find_company(state["posting_text"]),
            "position": find_position(state["posting_text"], posting),
            "deadline": find_deadline(state["posting_text"], posting),
            "required_skills": required,
            "preferred_skills": preferred,
            "required_groups": required_groups,
            "preferred_groups": preferred_groups,
            "requirements": [asdict(r) for r in posting_requirements],
        },
    }


def _carried(chosen: list[Section], has_skills: bool) -> bool:
    """Whether the feedback prompt carries a document as its chosen sections (short ones
    verbatim, long ones summarised by the model): only when the taxonomy found no skill in
    it, so no requirement has evidence there. Otherwise the evidence lines stand for it."""
    return bool(chosen) and not has_skills


def _chosen_sections(sections: list[Section], document: str) -> list[Section]:
    wanted = SUMMARISED[document]
    chosen = sorted((s for s in sections if s.name in wanted), key=lambda s: wanted.index(s.name))
    if not chosen:  # no known headings: the first section stands for the document
        chosen = sections[:1]
    return chosen[:MAX_SECTIONS_PER_DOC]


def fan_out_summaries(state: AnalysisState) -> list[Send] | str:
    """One `summarise_section` task per long section, run in parallel; straight to the
    feedback when every chosen section was short enough to use as it is."""
    if not state["sections"]:
        return "write_feedback"
    return [Send("summarise_section", {"section": s}) for s in state["sections"]]


async def summarise_section(state: SectionTask, config: RunnableConfig) -> dict[str, Any]:
    """Reads one section; writes its digest (summary and model-found skills) to `digests`.
    Internal call: tagged out of the user's token stream."""
    section = Section(**state["section"])
    services = get_services()
    prompt = SECTION_PROMPT
    model = services.models.runnable(
        FEATURE,
        schema=SectionDigest,
        internal=True,
        max_tokens=services.settings.section_summary_max_tokens,
    )
    digest = await generate_structured(
        model,
        SectionDigest,
        prompt.messages(
            document=DOC_LABEL[section.document], section=section.name, text=section.text
        ),
        {**config, **INTERNAL, "run_name": "summarise_section"},
        services.settings.model_timeout_s,
    )
    # Model-found skills count only when the taxonomy knows them and the section names them
    # (loosely: spacing and punctuation variants the strict matcher misses are accepted).
    known = taxonomy()
    confirmed = [s for s in normalise_skills(digest.skills) if known.grounded(s, section.text)]
    return {
        "digests": [
            {
                "document": section.document,
                "name": section.name,
                "summary": digest.summary.strip()[:300],
                "skills": confirmed,
            }
        ]
    }


MATCH_EVENT = "analysis_match"


def assess(state: AnalysisState) -> list[Assessed]:
    """Each posting requirement with the resume's evidence (CPU work: Kiwi, embeddings)."""
    request = validate_input(state)
    services = get_services()
    reqs = [PostingRequirement(**r) for r in state["posting_facts"]["requirements"]]
    vectors = queries = None
    try:
        cache = services.line_vectors
        cache.vectors(["요건"])  # loads the model now, so a failure falls back below
        vectors, queries = cache.vectors, cache.query_vectors
    except ModelUnavailableError:
        log.warning("analysis: embedding model unavailable; semantic evidence off")
    return assess_requirements(
        reqs,
        request.resume_text,
        request.now or today_seoul(),
        state["resume_skills"],
        vectors,
        queries,
        PARTIAL_CREDIT,
    )


async def score_match(state: AnalysisState, config: RunnableConfig) -> dict[str, Any]:
    """Reads the deterministic skills and posting facts (requirements, skill groups);
    writes `match`: every requirement with its status and evidence, the score and grade
    from requirement coverage (nodes/analysis/scoring.py), and the matched / missing /
    bonus skills. Model output never moves the score, so it is known before any model
    call: it is sent at once as the custom event `analysis_match` (`on_custom_event` in
    /stream_events; contract extensions v1.2 and v1.3)."""
    facts = state["posting_facts"]
    skills = match_skills(
        state["resume_skills"], facts["required_groups"], facts["preferred_groups"]
    )
    assessed = await asyncio.to_thread(assess, state)
    scored = score_credits([(a.kind, a.credit) for a in assessed])
    # A posting whose requirements cannot be read is never scored as if the resume failed
    # them: a neutral 50 (C), said so in the result and the feedback.
    score, grade = scored if scored is not None else (50, grade_for(50))
    requirements = [
        {k: v for k, v in asdict(a).items() if k not in ("basis", "credit")} for a in assessed
    ]
    credits = [a.credit for a in assessed]
    match_event = {
        "score": score,
        "grade": grade,
        "matched_skills": skills.matched,
        "missing_skills": skills.missing,
        "bonus_skills": skills.bonus,
        "requirements": requirements,
        "requirements_read": scored is not None,
    }
    await adispatch_custom_event(MATCH_EVENT, match_event, config=config)
    get_stream_writer()({"event": "match", "data": match_event})  # the lean stream's `match`
    return {
        "match": {
            "score": score,
            "grade": grade,
            "matched": skills.matched,
            "missing": skills.missing,
            "bonus": skills.bonus,
            "requirements": requirements,
            "requirements_read": scored is not None,
            "credits": credits,
        }
    }


STATUS_LABEL = {"met": "충족", "partial": "일부 충족", "missing": "부족"}
MAX_PROMPT_REQUIREMENTS = 12


def feedback_messages(state: AnalysisState) -> list[BaseMessage]:
    """The feedback prompt: the computed match (score, grade, counts of requirements by
    status) outside the fence; inside it, the posting's company and position, each
    requirement with its status and the resume line that shows it (#26), and the sections
    of any document carried as its sections. Never the documents themselves."""
    match, facts = state["match"], state["posting_facts"]
    reqs = match["requirements"]
    target = " / ".join(str(x) for x in (facts.get("company"), facts.get("position")) if x)
    records = [("- 공고:", target)] if target else []
    for r in reqs[:MAX_PROMPT_REQUIREMENTS]:
        label = "필수" if r["kind"] == "required" else "우대"
        shown = f"{r['text']} / 근거: {r['evidence']}" if r.get("evidence") else r["text"]
        records.append((f"- {label} 요건 ({STATUS_LABEL[r['status']]}):", shown))
    if not reqs:  # no requirement read: the skill evidence lines, as before #26
        max_chars = get_services().settings.section_max_chars
        records += evidence_records(
            requirements(
                match,
                facts,
                split_sections(state["resume_text"], "resume", max_chars),
                split_sections(state["posting_text"], "posting", max_chars),
            )
        )
    records += [
        (f"- {DOC_LABEL[d['document']]} {d['name']}:", d["summary"])
        for document in ("resume", "posting")
        for d in state.get("digests", [])
        if d["document"] == document
    ]

    def count(kind: str, *statuses: str) -> int:
        return sum(r["kind"] == kind and r["status"] in statuses for r in reqs)

    def met_of(kind: str) -> str:
        total = count(kind, "met", "partial", "missing")
        return f"{total}개 중 {count(kind, 'met')}개 충족" if total else "없음"

    return FEEDBACK_PROMPT.messages(
        score=match["score"],
        grade=match["grade"],
        required_met=met_of("required"),
        preferred_met=met_of("preferred"),
        required_missing=f"{count('required', 'partial', 'missing')}개",
        preferred_missing=f"{count('preferred', 'partial', 'missing')}개",
        evidence=data_records(records) if records else "(근거 없음)",
    )


async def write_feedback(state: AnalysisState, config: RunnableConfig) -> dict[str, Any]:
    """Reads `match`, the posting's facts, the documents (for evidence lines) and any section
    digests; writes `feedback`. This is the user-visible call: its tokens stream to the
    client. A malformed answer is retried once."""
    services = get_services()
    match = state["match"]
    # Splitting and matching the documents for evidence is CPU work: off the event loop.
    messages = await asyncio.to_thread(feedback_messages, state)
    # On the embedded stand-in the user gets the grounded text, in the same token stream a
    # model's answer would use (no model call).
    feedback = await write_sections(
        FEATURE,
        messages,
        {**config, "run_name": "write_feedback"},
        grounded=grounded_feedback(match, state["posting_facts"]),
        render=feedback_text,
        parse=parse_feedback,
        junk=functools.partial(junk_reason, match),
        what="feedback",
        grammar=FEEDBACK_GRAMMAR,
        max_tokens=services.settings.analysis_max_output_tokens,
    )
    return {"feedback": feedback.model_dump()}


# Headings of the feedback prompt: a model repeating them is echoing its prompt.
_PROMPT_ECHOES = (
    "매칭 결과",
    "확정값",
    "필수 충족",
    "필수 부족",
    "우대 보유",
    "우대 없음",
    "피드백",
    "형식",
    "자료",
)


def junk_reason(match: dict[str, Any] | None, field: str, value: str | list[str]) -> str | None:
    """Why a field of the model's feedback must be replaced by the grounded one: it is junk
    (a loop, the prompt echoed, not Korean, a repeated item) or it contradicts the computed
    match (a strength quoting a requirement the resume does not meet); None if it stands."""
    if isinstance(value, list):
        reason = degenerate_items(value, echoes=_PROMPT_ECHOES)
    else:
        reason = degenerate_reason(value, echoes=_PROMPT_ECHOES)
    unmet = [r["text"] for r in (match or {}).get("requirements", []) if r["status"] == "missing"]
    if reason is None and field in ("strengths", "strength_summary") and unmet:
        items = value if isinstance(value, list) else [value]
        if any(claims(item, text) for item in items for text in unmet):
            reason = "contradicts_match"
    return reason


_NOT_WORD = re.compile(r"[^0-9a-z가-힣]+")


def claims(sentence: str, requirement: str) -> bool:
    """Whether a sentence restates a requirement (most of its character bigrams), so that
    a strength doing so calls a missing requirement met."""

    def grams(text: str) -> set[str]:
        squashed = _NOT_WORD.sub("", text.casefold())
        return {squashed[i : i + 2] for i in range(len(squashed) - 1)}

    wanted = grams(requirement)
    return len(wanted) >= 4 and len(wanted & grams(sentence)) / len(wanted) >= 0.7


async def store_result(state: AnalysisState) -> dict[str, Any]:
    """Reads facts, skills, `match` and `feedback`; writes the contract's AnalysisResult
    fields and stores them in the cache."""
    services = get_services()
    facts, match, feedback = state["posting_facts"], state["match"], state["feedback"]
    model_skills = [
        s for d in state.get("digests", []) if d["document"] == "resume" for s in d["skills"]
    ]
    skills = list(dict.fromkeys([*state["resume_skills"], *model_skills]))
    recommendations = list(feedback["recommendations"])
    if not match["requirements_read"]:
        recommendations.insert(
            0,
            "채용공고에서 자격요건을 찾지 못해 점수는 참고용입니다. 공고의 자격요건과 "
            "우대사항을 함께 붙여 넣어 다시 분석해 보세요.",
        )
    result = AnalysisResult(
        resume_analysis=ResumeAnalysis(
            strengths=feedback["strengths"],
            weaknesses=feedback["weaknesses"],
            suggestions=feedback["suggestions"],
            skills=skills,
        ),
        posting_analysis=PostingAnalysis(
            **{k: v for k, v in facts.items() if k in PostingAnalysis.model_fields}
        ),
        matching=Matching(
            score=match["score"],
            grade=match["grade"],
            matched_skills=match["matched"],
            missing_skills=match["missing"],
            bonus_skills=match["bonus"],
            strength_summary=feedback["strength_summary"],
            weakness_summary=feedback["weakness_summary"],
            recommendations=recommendations,
            requirements=match["requirements"],
            requirements_read=match["requirements_read"],
        ),
        cached=False,
    )
    output = result.model_dump(mode="json")
    await services.cache.set(state["cache_key"], output, services.settings.analysis_cache_ttl_s)
    return output
