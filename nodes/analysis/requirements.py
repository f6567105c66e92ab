"""Evidence for each requirement of a posting: met / partly met / missing, with the resume
line that shows it.

Evidence is found across wording, by four signals, each a general mechanism:
- **typed checks** where the text allows: years against the resume's merged career spans,
  language test scores against the resume's, degree levels (text/careers.py);
- **taxonomy skills**, with aliases and implications (Spring Boot shows Spring);
- **lexical overlap after morphology**: the requirement's content words (Kiwi nouns and
  foreign words, without generic requirement words such as 경험/능력/우대) found in one
  resume line, or across the resume;
- **semantic similarity**: the multilingual embedding model's cosine between the
  requirement and each resume line (one vector per line, cached by content hash).

The signals are combined by an ordinal logistic model (one linear score, two cut points:
missing < partial < met) whose 12 weights are fitted on the dev split only
(`python -m evals.calibrate_requirements`, figures in docs/decisions.md). Beside each
requirement's own signals it reads the resume's overall fit to the posting (the mean of
the signals over all its requirements): a recruiter reads a line of a resume from another
field more strictly. A typed check decides alone where the line asks nothing else ("3년
이상", "TOEIC 800점 이상") and caps the status where it does ("커머스 경력 3년 이상").
The status is deterministic for the same input.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Literal

import numpy as np

from nodes.analysis.evidence import CONTACT
from prompts import escape_data
from text.amounts import amounts, asked_amount
from text.careers import (
    asked_years,
    career_entries,
    career_months,
    language_scores,
    merged_months,
    named_tests,
)
from text.credentials import (
    Mention,
    certificate_status,
    certificate_words,
    certificates,
    degree_level,
    degree_status,
    education_text,
    major_status,
    major_words,
    resume_certificates,
    resume_degree,
    segments,
    worded_language_status,
)
from text.industries import industries, industry_words, resume_industries
from text.korean_text import kiwi
from text.modality import Modality, affirmed, evidence_items, line_modality
from text.requirements import PostingRequirement
from text.sections import heading_of
from text.skills import ALTERNATIVE, taxonomy

Status = Literal["met", "partial", "missing"]


YEARS_PARTIAL_SHARE = 0.5  # this share of the years asked, or more, is partly met

# Requirement words that say how, not what: never evidence on their own.
GENERIC_WORDS = {
    "경험",
    "경력",
    "능력",
    "역량",
    "이해",
    "이해도",
    "지식",
    "보유",
    "소지",
    "소지자",
    "이상",
    "우대",
    "필수",
    "관련",
    "업무",
    "가능",
    "가능자",
    "수준",
    "기본",
    "활용",
    "원활",
    "사항",
    "분야",
    "해당",
    "실무",
    "전반",
    "업계",
    "년",
    "개월",
    "신입",
    "지원",
    "분",
    "자",
    "등",
    "및",
    "툴",
    "도구",
    "사용",
    "진행",
    "위",
    "중",
    "experience",
    "years",
    "year",
    "knowledge",
    "understanding",
    "ability",
    "skills",
    "skill",
    "strong",
    "plus",
    "preferred",
    "required",
    "familiarity",
    "proficiency",
    "with",
    "and",
    "the",
    "of",
    "in",
    "or",
    "to",
    "a",
    "an",
    "for",
    "using",
    "기반",
}
_TAGS = {"NNG", "NNP", "SL", "SH", "NR", "XR"}
_BULLET = re.compile(r"^\s*(?:[-–—•·ㆍ*▶▷►■□●○◆◇※✔✓>+]+|\(?\d{1,2}[.)])\s*")


@dataclass(frozen=True)
class Assessed:
    text: str
    kind: Literal["required", "preferred"]
    type: str
    status: Status
    evidence: str | None  # the resume line that shows it (None when missing)
    basis: str  # years | language | degree | skill | lexical | semantic | none
    credit: float  # expected credit toward the score (0..1), see StatusModel.credit


def resume_lines(resume_text: str) -> list[str]:
    """The resume's lines that can be evidence: bullets stripped, contact lines and lines
    posing as prompt structure (what `escape_data` would escape) left out, long prose split
    into sentences, a list rating several skills split into one item per rating."""
    out: list[str] = []
    for raw in resume_text.splitlines():
        line = _BULLET.sub("", raw).strip()
        heading = heading_of(line, "resume")
        if heading is not None:  # "[Tools] Go, Kafka": the content after the heading
            line = heading[1]
        if len(line) < 3 or CONTACT.search(line) or escape_data(line) != line:
            continue  # contact details, or a line posing as prompt structure
        parts = re.split(r"(?<=[.!?])\s+|(?<=다\.)\s*", line) if len(line) > 120 else [line]
        out += [item.strip() for p in parts for item in evidence_items(p) if len(item.strip()) >= 3]
    return list(dict.fromkeys(out))


# Soft competencies a resume shows by what the candidate did with other people, seldom by
# naming them: "현업 부서장·외부 대행사와 일정 조율" shows communication and collaboration.
SOFT_SKILLS = frozenset({"Communication", "Collaboration"})
_WITH_PEOPLE = re.compile(
    r"협업|조율|협의|소통|협상|설득|중재|발표|면담|커뮤니케이션|이해관계자|유관\s*부서|"
    r"cross[-\s]functional|stakeholders?|collaborat\w*|coordinat\w*|negotiat\w*|"
    r"partnered|presented|worked\s+(?:closely\s+)?with",
    re.IGNORECASE,
)


def shown_by_conduct(line: str) -> set[str]:
    """The soft skills a resume line shows by conduct (SOFT_SKILLS when it tells of working
    with people, else none)."""
    return set(SOFT_SKILLS) if _WITH_PEOPLE.search(line) else set()


def content_terms(text: str) -> set[str]:
    """Content words of a text after morphology, lower-cased, without generic words."""
    terms = set()
    for token in kiwi().tokenize(text):
        form = token.form.casefold()
        if (
            token.tag in _TAGS
            and form not in GENERIC_WORDS
            and (len(form) >= 2 or token.tag == "SL")
        ):
            terms.add(form)
    return terms


def _covered(term: str, terms: set[str]) -> bool:
    """A term is found when a line has it, or a compound containing it ("결산" in "연결결산")."""
    if term in terms:
        return True
    return len(term) >= 2 and any(term in t or (len(t) >= 2 and t in term) for t in terms)


@dataclass(frozen=True)
class Signals:
    """One requirement against one resume."""

    lexical: float  # best single line's share of the requirement's content words
    lexical_line: int | None
    coverage: float  # share of its content words found anywhere in the resume
    semantic: float  # best cosine of the requirement (as a query) and a resume line
    semantic_line: int | None
    semantic_lift: float  # best cosine minus the median over the resume's lines
    skills_held: float | None  # share of the requirement's skill groups the resume has
    skill_line: int | None
    terms: int = 0  # the requirement's content words
    career: FieldCareer | None = None  # a years requirement's months in its field, near it


def signals(
    req: PostingRequirement,
    lines: Sequence[str],
    line_terms: Sequence[set[str]],
    req_vector: np.ndarray | None,
    line_matrix: np.ndarray | None,
    have_skills: set[str],
    line_skills: Sequence[set[str]],
    usable: Sequence[bool] | None = None,
) -> Signals:
    """`line_skills` are the skills each line shows (named, implied or by conduct); `usable`
    leaves lines out as evidence (their words, their cosine and the skills only they show);
    the median of the cosines stays over all lines."""
    use = [True] * len(lines) if usable is None else list(usable)
    terms = content_terms(req.text)
    best_lex, lex_line, coverage = 0.0, None, 0.0
    if terms:
        for i, lt in enumerate(line_terms):
            if not use[i]:
                continue
            share = sum(_covered(t, lt) for t in terms) / len(terms)
            if share > best_lex:
                best_lex, lex_line = share, i
        kept = [lt for lt, u in zip(line_terms, use, strict=True) if u]
        everything = set().union(*kept) if kept else set()
        coverage = sum(_covered(t, everything) for t in terms) / len(terms)
    best_sem, sem_line, lift = 0.0, None, 0.0
    if req_vector is not None and line_matrix is not None and any(use):
        sims = line_matrix @ req_vector
        masked = np.where(np.asarray(use), sims, -1.0)
        sem_line = int(np.argmax(masked))
        best_sem = float(masked[sem_line])
        lift = best_sem - float(np.median(sims))
    held = skill_line = None
    if req.skill_groups:
        if usable is not None:  # the skills the usable lines show
            have_skills = have_skills & set().union(
                *(shown for shown, u in zip(line_skills, use, strict=True) if u)
            )
        met = [g for g in req.skill_groups if any(s in have_skills for s in g)]
        held = len(met) / len(req.skill_groups)
        if met:
            wanted = set(met[0])
            skill_line = next(
                (i for i, shown in enumerate(line_skills) if use[i] and wanted & shown), None
            )
    return Signals(
        best_lex, lex_line, coverage, best_sem, sem_line, lift, held, skill_line, len(terms)
    )


FEATURES = (
    "lexical",
    "coverage",
    "semantic_lift",
    "semantic",
    "fit_lift",
    "fit_coverage",
    "fit_semantic",
    "skills_held",
    "no_skills",
    "typed",
    "not_typed",
    "preferred",
)


@dataclass(frozen=True)
class StatusModel:
    """An ordinal logistic model over FEATURES: score = weights . x + bias; partly met above
    `cut_partial`, met above `cut_met`. Fitted on the dev split only."""

    weights: tuple[float, ...]
    bias: float
    cut_partial: float
    cut_met: float

    def score(self, x: Sequence[float]) -> float:
        return float(np.dot(self.weights, x)) + self.bias

    def status(self, x: Sequence[float]) -> Status:
        s = self.score(x)
        return "met" if s > self.cut_met else "partial" if s > self.cut_partial else "missing"

    def credit(self, x: Sequence[float], partial_credit: float) -> float:
        """Expected credit: P(met) + partial_credit * P(partly met)."""
        s = self.score(x)
        p_partial_or_met = 1 / (1 + np.exp(-(s - self.cut_partial)))
        p_met = 1 / (1 + np.exp(-(s - self.cut_met)))
        return float(p_met + partial_credit * (p_partial_or_met - p_met))


# Fitted by `python -m evals.calibrate_requirements --split dev dev2 dev3 dev4` on the four
# cross-author development splits (analysis_req_dev*.jsonl: 4 authors, 60 postings, 1,728
# requirements; multilingual-e5-small, the embedded default; re-fit for another embedding
# model). Leave-one-posting-out: status accuracy 0.750, grade band 0.806 with the shipped
# floors (session 26; the fit on dev + dev2 alone, sessions 23-25, read 0.779 / 0.843 on
# those two authors and 0.705 / 0.716 on the two it had not seen).
STATUS_MODEL = StatusModel(
    weights=(
        -0.0812,
        1.1209,
        33.8927,
        -1.0669,
        63.2295,
        5.7533,
        -3.1211,
        1.261,
        0.7191,
        2.5961,
        1.7564,
        -0.7136,
    ),
    bias=-8.4325,
    cut_partial=-1.2563,
    cut_met=-0.7568,
)


def features(
    sig: Signals, fit: tuple[float, float, float], typed: Status | None, preferred: bool
) -> list[float]:
    """The model's inputs for one requirement; `fit` is the resume's mean (lift, coverage,
    scaled cosine) over the posting's requirements."""
    return [
        sig.lexical,
        sig.coverage,
        sig.semantic_lift,
        (sig.semantic - 0.85) * 10,
        fit[0],
        fit[1],
        fit[2],
        sig.skills_held or 0.0,
        1.0 if sig.skills_held is None else 0.0,
        0.0 if typed is None else _RANK[typed] / 2,
        1.0 if typed is None else 0.0,
        1.0 if preferred else 0.0,
    ]


def resume_fit(all_signals: Sequence[Signals]) -> tuple[float, float, float]:
    n = max(1, len(all_signals))
    return (
        sum(s.semantic_lift for s in all_signals) / n,
        sum(s.coverage for s in all_signals) / n,
        sum((s.semantic - 0.85) * 10 for s in all_signals) / n,
    )


def evidence_line(sig: Signals) -> tuple[int | None, str]:
    """The resume line that shows a requirement best, and what found it."""
    if sig.skill_line is not None:
        return sig.skill_line, "skill"
    if sig.lexical >= 0.5 and sig.lexical_line is not None:
        return sig.lexical_line, "lexical"
    return sig.semantic_line, "semantic"


_RANK: dict[Status, int] = {"missing": 0, "partial": 1, "met": 2}


def _weaker(a: Status, b: Status) -> Status:
    return a if _RANK[a] <= _RANK[b] else b


def years_status(text: str, months: int, near: int | None = None) -> Status | None:
    """Met with the years asked in the field (`months`), partly met with
    YEARS_PARTIAL_SHARE of them in the field or next to it (`near`: `FieldCareer`)."""
    asked = asked_years(text)
    if asked is None:
        return None
    if asked == 0 or months >= asked * 12:
        return "met"
    if max(months, near or 0) >= asked * 12 * YEARS_PARTIAL_SHARE:
        return "partial"
    return "missing"


def _language_status(
    text: str, resume_scores: dict[str, float], resume_tests: set[str]
) -> Status | None:
    asked_scores = language_scores(text)
    asked = named_tests(text)
    if not asked:
        return None
    for test, level in asked_scores.items():
        if resume_scores.get(test, -1) >= level:
            return "met"
    if not asked_scores and asked & resume_tests:
        return "met"
    if resume_tests:  # the same test below the bar, or another test
        return "partial"
    return "missing"


@dataclass(frozen=True)
class WorkEntry:
    """A dated work entry as evidence of years in a field: its ranges (month indexes), its
    content words and the skills it names or implies."""

    spans: tuple[tuple[int, int], ...]
    terms: set[str]
    skills: set[str]


@dataclass(frozen=True)
class ResumeFacts:
    """What a resume offers as evidence, computed once for all requirements."""

    lines: list[str]
    line_terms: list[set[str]]
    line_matrix: np.ndarray | None
    skills: set[str]  # taxonomy skills with their implications
    months: int  # merged career months
    scores: dict[str, float]
    tests: set[str]
    degree: int
    education: str  # the education lines (majors, degrees)
    certificates: list[Mention]  # the resume's segments naming certificates
    industries: set[str]  # the industries of its work entries
    text: str  # the whole resume (certificates anywhere, the language it is written in)
    modality: list[Modality]  # what each line claims: practice, limited, learning, aspiration
    line_skills: list[set[str]]  # the skills each line names or implies, or shows by conduct
    entries: list[WorkEntry] = field(default_factory=list)  # the dated work entries


def resume_facts(
    resume_text: str,
    now: date,
    resume_skills: Sequence[str],
    vectors: Callable[[list[str]], list[list[float]]] | None = None,
) -> ResumeFacts:
    lines = resume_lines(resume_text)
    # what each line claims: without the clauses saying what the candidate lacks or did not
    # do ("SSR 프레임워크 운영 경험은 없음"), whose words show nothing they name
    claims = [affirmed(line) for line in lines]
    known = taxonomy()
    line_skills = [known.closure(known.find(line)) | shown_by_conduct(line) for line in claims]
    # skills named only where the candidate says they lack them ("Next.js는 써 보지 못했습니다")
    denied = set().union(*(known.find(line) for line in lines)) - set().union(
        *(known.find(claim) for claim in claims)
    )
    matrix = None
    if vectors is not None and lines:
        matrix = np.asarray(
            vectors([c or line for c, line in zip(claims, lines, strict=True)]), dtype=np.float32
        )
    education = education_text(resume_text)
    entries = career_entries(resume_text, now)
    return ResumeFacts(
        lines=lines,
        line_terms=[content_terms(line) for line in claims],
        line_matrix=matrix,
        skills=known.closure([s for s in resume_skills if s not in denied])
        | set().union(*(shown_by_conduct(line) for line in claims)),
        months=career_months(resume_text, now, entries),
        scores=language_scores(resume_text),
        tests=named_tests(resume_text),
        degree=resume_degree(education),
        education=education,
        certificates=resume_certificates(resume_text.splitlines()),
        industries=resume_industries(entries),
        text=resume_text,
        modality=[line_modality(line) for line in lines],
        line_skills=line_skills,
        entries=[
            WorkEntry(entry.spans, content_terms(entry.text), known.closure(known.find(entry.text)))
            for entry in entries
        ],
    )


# Words of a years requirement that do not name its field ("5+ years of professional
# backend development experience, including at least 2 years as an HRBP").
_NOT_THE_FIELD = frozenset(
    " ".join(
        (
            # English words around the field
            "as at including least role roles similar professional production building",
            "working work on is are be such ideally etc development relevant related",
            "equivalent total overall hands-on industry",
            # Korean words that say which career counts, not in which field
            "포함 불가 단독 수행 직무 담당 그중 유관 동종 동종업계 동일 해당 정규직 계약직 전체",
        )
    ).split()
)
# What joins two field words into alternatives: the skills' ("인사 또는 채용", "PM/PO",
# "인사나 채용"), and a middle dot or a comma between two field words ("재무·회계").
_FIELD_ALTERNATIVE = re.compile(rf"{ALTERNATIVE.pattern}|\s*[·,]\s*", re.IGNORECASE)


def field_groups(text: str) -> list[set[str]]:
    """The field a years requirement names, as groups of content words each of which the
    work must show (one word of a group is enough): "퍼포먼스 마케팅 실무 경력 3년 이상" is
    [{퍼포먼스}, {마케팅}], "인사 또는 채용 업무 경력" [{인사, 채용}]. Asides in parentheses,
    the typed words (years, degrees) and words that name no field are left out."""
    plain = _TYPED_WORDS.sub(" ", re.sub(r"\([^)]*\)", " ", text))
    groups: list[set[str]] = []
    end = None  # where the last field word ended
    for token in kiwi().tokenize(plain):
        form = token.form.casefold()
        if (
            token.tag not in _TAGS
            or form in GENERIC_WORDS
            or form in _NOT_THE_FIELD
            or len(form) < 2
        ):
            continue
        if end is not None and groups and _FIELD_ALTERNATIVE.fullmatch(plain[end : token.start]):
            groups[-1].add(form)
        else:
            groups.append({form})
        end = token.start + token.len
    return groups


@dataclass(frozen=True)
class FieldCareer:
    """The career months a years requirement counts: `months` in the field it names (work
    that shows every part of it), `near` in that field or next to it (work that shows a part
    of it, or whose skills are of the field)."""

    months: int
    near: int


def field_months(req: PostingRequirement, facts: ResumeFacts) -> FieldCareer:
    """The career months that count for a years requirement. Where it names a field, a work
    entry is in it when it names one of the requirement's skills, or shows every group of
    `field_groups` by its words (a skill's words the resume holds count beside a word of the
    entry's own), or, where the line names no taxonomy skill, has skills of the job field the
    line names ("채용 담당" is 인사). It is next to the field when it shows a part of it (a
    brand marketer for "퍼포먼스 마케팅") or has skills of that field; words shared with an
    entry whose skills are all of another field never put it in the field (a store manager
    who hired part-timers for "채용 실무"). Without a field named, or when the resume dates no
    entries (only a total), the whole career, in the field and near it."""
    groups = field_groups(req.text)
    if not groups or not facts.entries:
        return FieldCareer(facts.months, facts.months)
    wanted = {skill for group in req.skill_groups for skill in group}
    known = taxonomy()
    named = known.fields_named(set().union(*groups))
    full: list[tuple[int, int]] = []
    near: list[tuple[int, int]] = []
    # the words that name the requirement's skills ("Java, Spring 기반 개발 경력"), shown by
    # the whole resume when it holds those skills: an entry need not repeat its stack
    held = {
        term
        for group in groups
        for term in group
        if (named_skills := known.closure(known.find(term)))
        and named_skills & wanted
        and named_skills & facts.skills
    }
    for entry in facts.entries:
        fields = known.fields_of(entry.skills)
        own = [group for group in groups if any(_covered(term, entry.terms) for term in group)]
        # the skills' words count where the entry shows something of its own: "Java 경력
        # 5년" is not met by a sales career in a resume that lists Java
        shown = [group for group in groups if group in own or (own and group & held)]
        other_field = bool(named and fields and not named & fields)
        if (
            wanted & entry.skills
            or (len(shown) == len(groups) and not other_field)
            or (not wanted and named & fields)
        ):
            full += entry.spans
        elif shown or named & fields:
            near += entry.spans
    in_field = min(facts.months, merged_months(full))
    return FieldCareer(in_field, max(in_field, min(facts.months, merged_months(full + near))))


_ALTERNATIVE = re.compile(r"또는|혹은|이나\b|(?i:\bor\b)")


def amount_status(text: str, facts: ResumeFacts) -> Status | None:
    """A scale the requirement asks for ("연 100명 이상 채용 운영", "월 광고비 1억 원 이상")
    against the amounts of that unit the resume states: partly met when a line about the same
    thing (one of its words) states a smaller one and no line reaches it, met when one does;
    None when it asks for no scale, offers it as one alternative ("제조 업종 또는 1,000명 이상
    조직"), or no line about it states one."""
    asked = asked_amount(text)
    if asked is None or _ALTERNATIVE.search(text):
        return None
    value, unit = asked
    terms = content_terms(text)
    related, anywhere = [], []
    for line, line_terms, modality in zip(
        facts.lines, facts.line_terms, facts.modality, strict=True
    ):
        stated = [a for a, stated_unit, _, _ in amounts(line) if stated_unit == unit]
        if modality == "aspiration" or not stated:
            continue
        anywhere += stated
        if any(_covered(term, line_terms) for term in terms):
            related += stated
    if not related:
        return None
    # the scale may be stated on a line worded otherwise ("작업자 45명 배치" for "현장 인원
    # 30명 이상 관리"): partly met only when no line reaches it
    return "met" if max(anywhere) >= value else "partial"


def typed_check(
    req: PostingRequirement, facts: ResumeFacts, career: FieldCareer | None = None
) -> tuple[Status | None, str | None, bool]:
    """(the weakest typed check's status, its kind, whether the line asks anything else);
    `career` are the months that count for it in its field and next to it (`field_months`),
    the whole career by default.
    A language check is the whole requirement ("일본어로 현지 파트너와 소통할 수 있는 분(JLPT N2
    이상)": the rest says what the language is for)."""
    typed: list[tuple[Status, str]] = []
    months, near = (facts.months, None) if career is None else (career.months, career.near)
    if (years := years_status(req.text, months, near)) is not None:
        typed.append((years, "years"))
    language = _language_status(req.text, facts.scores, facts.tests)
    if language is None:
        language = worded_language_status(req.text, facts.scores, facts.text)
    if language is not None:
        typed.append((language, "language"))
    if (degree := degree_status(req.text, facts.degree, facts.months)) is not None:
        typed.append((degree, "degree"))
    if (major := major_status(req.text, facts.education)) is not None:
        typed.append((major, "degree"))
    if (held := certificate_status(req.text, facts.certificates)) is not None:
        typed.append((held, "certificate"))
    asked_industries = industries(req.text) if req.type == "domain" else set()
    if asked_industries and not typed:
        status: Status = "met" if asked_industries & facts.industries else "missing"
        rest = bool(content_terms(industry_words(req.text)))
        return status, "domain", rest
    if not typed:
        return None, None, True
    weakest = min(typed, key=lambda t: _RANK[t[0]])
    if any(kind == "language" for _, kind in typed) and len(typed) == 1:
        return weakest[0], weakest[1], False
    asked = certificate_words(req.text)
    if major is not None:
        asked = major_words(asked)
    rest = bool(content_terms(_TYPED_WORDS.sub(" ", asked)))
    return weakest[0], weakest[1], rest


# A requirement asking for a licence or certificate held (not a degree).
_ASKS_LICENCE = re.compile(r"자격|소지|면허|(?i:certif|licen[cs]e)")
# The words of a licence requirement that name no licence ("관련 자격 소지자").
_QUALIFICATION_WORDS = re.compile(r"자격증?|소지자?|보유자?|취득자?|관련|면허|이상|우대|필수")
# A resume line that states a qualification held.
_QUALIFICATION = re.compile(r"자격|취득|합격|면허|(?i:certif|licen[cs]e)")


def _names_a_qualification(facts: ResumeFacts, line: int | None, asked: str) -> bool:
    if line is None:
        return False
    text = facts.lines[line]
    # ("간호조무사 (2018.02)" for "간호조무사 자격증 소지자": the licence's own name)
    if any(len(w) >= 3 and w in text for w in re.findall(r"[가-힣A-Za-z]+", asked)):
        return True
    return bool(_QUALIFICATION.search(text)) or any(
        certs and (segment in text or text in segment) for segment, certs in facts.certificates
    )


def decide(
    req: PostingRequirement,
    sig: Signals,
    fit: tuple[float, float, float],
    facts: ResumeFacts,
    model: StatusModel = STATUS_MODEL,
    partial_credit: float = 0.5,
    practice: Signals | None = None,
    typed: tuple[Status | None, str | None, bool] | None = None,
) -> tuple[Status, float, int | None, str]:
    """(status, expected credit, evidence line index, basis) of one requirement. A typed
    check decides alone where the line asks nothing else, and caps the status otherwise.
    `practice` are the signals over the lines that record work done in full: where only
    study or work the resume marks as partial shows a requirement, it is at most partly
    met. `typed` is `typed_check(req, facts)` when the caller has it."""
    checked = typed_check(req, facts, sig.career) if typed is None else typed
    status, credit, line, basis = _decide(req, sig, fit, checked, model, partial_credit)
    if (
        status != "missing"
        and req.type == "credential"
        and checked[0] is None
        and _ASKS_LICENCE.search(req.text)
        and not _names_a_qualification(facts, line, _QUALIFICATION_WORDS.sub(" ", req.text))
    ):
        # a licence the checks cannot name ("건강보험심사 관련 자격(병원행정사 등) 소지자")
        # is shown by a certificate the resume names, never by a line of work
        status, credit = "missing", 0.0
    if status == "met" and amount_status(req.text, facts) == "partial":
        # a smaller scale than the one asked ("연 45명 채용" for "연 100명 이상"): partly met;
        # a cap after the model, not one of its inputs
        status, credit = "partial", min(credit, partial_credit)
    if practice is None or practice == sig or status == "missing":
        return status, credit, line, basis
    shown, shown_credit, work_line, work_basis = _decide(
        req, practice, fit, checked, model, partial_credit
    )
    if shown == status and work_line is not None:
        return status, credit, work_line, work_basis  # the work that shows it, not the study
    if status == "met" and shown != "met":
        return "partial", min(credit, max(shown_credit, partial_credit)), line, basis
    return status, credit, line, basis


def _decide(
    req: PostingRequirement,
    sig: Signals,
    fit: tuple[float, float, float],
    checked: tuple[Status | None, str | None, bool],
    model: StatusModel,
    partial_credit: float,
) -> tuple[Status, float, int | None, str]:
    typed, kind, rest = checked
    x = features(sig, fit, typed, req.kind == "preferred")
    status, credit = model.status(x), model.credit(x, partial_credit)
    line, basis = evidence_line(sig)
    # Direct evidence the model must not overrule: every skill the line names (by alias or
    # implication), or all its words in one resume line.
    direct = (sig.skills_held == 1 and sig.coverage >= 0.5) or (sig.lexical == 1 and sig.terms >= 2)
    if direct:
        status, credit = "met", 1.0
    elif sig.skills_held:  # some of the skills it names: at least partly met
        status = "partial" if status == "missing" else status
        credit = max(credit, partial_credit)
    if sig.skills_held == 0 and sig.coverage == 0:
        # A named tool or certificate that the resume names nowhere, by no alias and no
        # skill implying it, and none of whose words it uses, is not shown by it.
        status, credit = "missing", 0.0
    if typed is not None and kind is not None:
        if not rest:
            status, basis = typed, kind
            credit = {"met": 1.0, "partial": partial_credit, "missing": 0.0}[typed]
        elif _RANK[typed] < _RANK[status]:
            status, basis = typed, kind
            credit = min(credit, {"met": 1.0, "partial": partial_credit, "missing": 0.0}[typed])
    return status, credit, line, basis


def all_signals(
    requirements: Sequence[PostingRequirement],
    facts: ResumeFacts,
    req_matrix: np.ndarray | None,
) -> tuple[list[Signals], list[Signals]]:
    """Each requirement's signals over the lines that can be evidence (a wish is not), and
    over the lines that record work done in full (study and work the line marks as partial
    left out too); a years requirement's signals carry the career months in its field."""
    evidence = [m != "aspiration" for m in facts.modality]
    work = [m == "practice" for m in facts.modality]

    def over(usable: list[bool]) -> list[Signals]:
        return [
            signals(
                req,
                facts.lines,
                facts.line_terms,
                None if req_matrix is None else req_matrix[i],
                facts.line_matrix,
                facts.skills,
                facts.line_skills,
                None if all(usable) else usable,
            )
            for i, req in enumerate(requirements)
        ]

    sigs = over(evidence)
    practice = sigs if work == evidence else over(work)
    if not facts.entries:
        return sigs, practice
    careers = [
        field_months(req, facts) if asked_years(req.text) is not None else None
        for req in requirements
    ]
    return (
        [replace(sig, career=c) for sig, c in zip(sigs, careers, strict=True)],
        [replace(sig, career=c) for sig, c in zip(practice, careers, strict=True)],
    )


def assess_requirements(
    requirements: Sequence[PostingRequirement],
    resume_text: str,
    now: date,
    resume_skills: Sequence[str],
    vectors: Callable[[list[str]], list[list[float]]] | None = None,
    queries: Callable[[list[str]], list[list[float]]] | None = None,
    partial_credit: float = 0.5,
) -> list[Assessed]:
    """Each requirement with its status, expected credit and evidence. `vectors` embeds
    resume lines as passages and `queries` requirements as queries (both normalised);
    without them the semantic signals are off."""
    if not requirements:
        return []
    facts = resume_facts(resume_text, now, resume_skills, vectors)
    req_matrix = None
    if queries is not None and facts.line_matrix is not None:
        req_matrix = np.asarray(queries([r.text for r in requirements]), dtype=np.float32)
    sigs, practice = all_signals(requirements, facts, req_matrix)
    fit = resume_fit(sigs)
    out = []
    for req, sig, shown_by_work in zip(requirements, sigs, practice, strict=True):
        status, credit, line, basis = decide(
            req, sig, fit, facts, partial_credit=partial_credit, practice=shown_by_work
        )
        shown = facts.lines[line] if status != "missing" and line is not None else None
        if status != "missing" and basis == "years":
            shown = career_evidence(facts, sig.career.months if sig.career else None) or shown
        elif status != "missing" and basis in _TYPED_EVIDENCE:
            shown = _TYPED_EVIDENCE[basis](facts, req.text) or shown
        out.append(
            Assessed(
                req.text,
                req.kind,
                req.type,
                status,
                shown,
                basis if status != "missing" else "none",
                round(credit, 4),
            )
        )
    return out


def _span_words(months: int) -> str:
    years, rest = divmod(months, 12)
    return " ".join(x for x in (f"{years}년" if years else "", f"{rest}개월" if rest else "") if x)


def career_evidence(facts: ResumeFacts, field: int | None = None) -> str | None:
    """The career that a years requirement was checked against: the whole, or the part in
    the field it names beside the whole ("관련 경력 약 2년 (전체 경력 약 8년)")."""
    if not facts.months:
        return None
    if field is not None and field < facts.months:
        if not field:
            return None
        return f"관련 경력 약 {_span_words(field)} (전체 경력 약 {_span_words(facts.months)})"
    return f"경력 기간 합계 약 {_span_words(facts.months)}"


def _certificate_evidence(facts: ResumeFacts, text: str) -> str | None:
    """The resume's mention of a certificate the requirement names."""
    asked = {c.name for c in certificates(text)}
    return next(
        (seg for seg, named in facts.certificates if any(c.name in asked for c in named)), None
    )


def _language_evidence(facts: ResumeFacts, text: str) -> str | None:
    """The part of a resume line that names a language test ("TOEIC 870 (2024.03)", not the
    whole "운전면허 / OPIc IL / …" line)."""
    line = next((ln for ln in facts.lines if named_tests(ln)), None)
    if line is None:
        return None
    return next((part for part in segments(line) if named_tests(part)), line)


_TYPED_EVIDENCE: dict[str, Callable[[ResumeFacts, str], str | None]] = {
    "language": _language_evidence,
    "degree": lambda f, _text: next(
        (ln for ln in f.education.splitlines() if degree_level(ln)), None
    ),
    "certificate": _certificate_evidence,
}

_TYPED_WORDS = re.compile(
    r"\d+\s*(?:~\s*\d+\s*)?(?:년|years?|yrs?|점|급|종)\s*(?:이상|↑|\+|차|제)?|신입|경력|무관|"
    r"TOEIC|TOEFL|TEPS|OPIc|IELTS|JLPT|JPT|HSK|TOPIK|토익|토플|오픽|학사|석사|박사|학위|졸업|"
    r"이상|대졸|초대졸|전문학사|대학교?|고등학교|학력|어학|전공자?|학과|계열|관련|자격증?|소지자?|보유자?|"
    r"합격자?|취득|면허|degree|bachelor|master|related|field|or\s+higher|equivalent|"
    r"\b(?:B\.?[AS]|M\.?[AS]|Ph\.?D|MBA)\b",
    re.IGNORECASE,
)
