"""Split a Korean resume or job posting into its named sections, deterministically.

Headings are recognised by keyword on short lines, with or without decorations
("■ 자격요건", "[우대사항]", "## 기술 스택", "담당업무:", "1. 경력사항"), in Korean, English or
both ("Preferred Qualifications", "What you'll need", "Nice to have (우대)", "[필수]"), alone
or before their content ("우대사항 | Kafka", "[접수 기간] 3/2 ~ 3/13"). Text before the first
heading is the "개요" section. Only sections are ever sent to a model, never whole documents.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise
from typing import Literal

from text.korean_text import kiwi

DocKind = Literal["resume", "posting"]

# Canonical section -> heading keywords, written squashed (no spaces, lower-case). A heading
# matches a keyword when both are equal after dropping every character that is not a letter
# or a digit ("What you'll need", "Nice-to-have", "Perks & Benefits"), so a keyword needs no
# spelling of its punctuation; the forms with punctuation are listed too where a reader of
# the table (the calendar's header finder) compares squashed text as it is.
RESUME_HEADINGS: dict[str, tuple[str, ...]] = {
    "자기소개": (
        "자기소개",
        "소개",
        "요약",
        "프로필",
        "about",
        "aboutme",
        "summary",
        "profile",
        "introduction",
        "objective",
        "professionalsummary",
    ),
    "경력": (
        "경력",
        "경력사항",
        "경력기술",
        "근무경력",
        "근무경험",
        "업무경험",
        "업무경력",
        "실무경험",
        "experience",
        "workexperience",
        "professionalexperience",
        "employment",
        "employmenthistory",
        "workhistory",
        "career",
    ),
    "기술 스택": (
        "기술스택",
        "기술",
        "보유기술",
        "보유역량",
        "보유스킬",
        "기술역량",
        "주요기술",
        "핵심역량",
        "스킬",
        "skills",
        "skill",
        "techstack",
        "technicalskills",
        "coreskills",
        "skillsandtools",
        "skills&tools",
        "tools",
        "technologies",
        "사용기술",
    ),
    "프로젝트": (
        "프로젝트",
        "주요프로젝트",
        "프로젝트경험",
        "projects",
        "project",
        "sideprojects",
        "sideproject",
        "personalprojects",
        "selectedprojects",
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
        "certification",
        "certificate",
        "licenses",
        "license",
        "languages",
        "language",
        "외국어",
        "어학능력",
        "면허",
        "awards",
        "publications",
    ),
    "활동": ("대외활동", "활동", "기타활동", "activities", "오픈소스", "opensource"),
}
POSTING_HEADINGS: dict[str, tuple[str, ...]] = {
    "회사 소개": (
        "회사소개",
        "기업소개",
        "회사정보",
        "about",
        "aboutus",
        "aboutthecompany",
        "abouttheteam",
        "whoweare",
        "companyoverview",
        "팀소개",
    ),
    "모집 부문": (
        "모집부문",
        "모집분야",
        "모집직무",
        "모집포지션",
        "포지션",
        "직무",
        "채용직무",
        "position",
        "openposition",
        "openpositions",
        "jobtitle",
        "role",
        "채용분야",
    ),
    "담당업무": (
        "담당업무",
        "주요업무",
        "업무내용",
        "하는일",
        "하게될일",
        "맡게될업무",
        "합류하면하는일",
        "이런일을해요",
        "이런일을합니다",
        "담당할업무",
        "responsibilities",
        "keyresponsibilities",
        "mainresponsibilities",
        "yourresponsibilities",
        "jobresponsibilities",
        "duties",
        "jobduties",
        "whatyou'lldo",
        "whatyouwilldo",
        "whatyou'llbedoing",
        "whatyouwillbedoing",
        "whatyou'llworkon",
        "therole",
        "abouttherole",
        "yourrole",
        "inthisrole",
        "jobdescription",
        "roledescription",
        "yourmission",
        "daytoday",
        "day-to-day",
        "직무내용",
        "직무소개",
        "업무",
    ),
    "자격요건": (
        "자격요건",
        "지원자격",
        "응시자격",  # public-sector and hospital notices ("2. 응시자격", "응모자격")
        "응모자격",
        "자격기준",
        "필수요건",
        "필수역량",
        "필수자격",
        "필수사항",
        "필수조건",
        "필수기술",
        "필수경험",
        "필수",
        "자격조건",
        "요구사항",
        "요구역량",
        "요구기술",
        "requirements",
        "requirement",
        "qualifications",
        "qualification",
        "minimumqualifications",
        "basicqualifications",
        "requiredqualifications",
        "keyqualifications",
        "required",
        "requiredskills",
        "requiredexperience",
        "musthave",
        "musthaves",
        "must-have",
        "must-haves",
        "whatyou'llneed",
        "whatyouwillneed",
        "whatyouneed",
        "whatwe'relookingfor",
        "whatwearelookingfor",
        "whowe'relookingfor",
        "whowearelookingfor",
        "whatyou'llbring",
        "whatyoubring",
        "whoyouare",
        "aboutyou",
        "youshouldhave",
        "yourprofile",
        "yourbackground",
        "skillsandexperience",
        "skills&experience",
        "skills",
        "이런분을찾습니다",
        "이런분을찾아요",
        "이런분을원해요",
        "이런분과함께하고싶어요",
        "이런경험이필요해요",
        "필요역량",
        "필요한역량",
        "필요기술",
        "지원요건",
    ),
    "우대사항": (
        "우대사항",
        "우대조건",
        "우대요건",
        "우대역량",
        "우대기술",
        "우대",
        "가산점",
        "플러스",
        "플러스요인",
        "선호",
        "preferred",
        "preferredqualifications",
        "preferredqualification",
        "preferredskills",
        "preferredexperience",
        "preferredrequirements",
        "desired",
        "desiredqualifications",
        "desiredskills",
        "desirable",
        "nicetohave",
        "nicetohaves",
        "nice-to-have",
        "nice-to-haves",
        "goodtohave",
        "good-to-have",
        "bonus",
        "bonuspoints",
        "bonusskills",
        "plus",
        "pluses",
        "aplus",
        "it'saplus",
        "extracredit",
        "optional",
        "ideally",
        "evenbetterif",
        "evenbetterifyouhave",
        "you'llstandoutif",
        "additionalqualifications",
        "이런분이면더좋아요",
        "이런분이면더좋습니다",
        "이런경험이있으면더좋아요",
        "이런경험이있으면좋아요",
        "있으면좋은경험",
        "더좋아요",
    ),
    "전형 절차": (
        "전형절차",
        "채용절차",
        "채용프로세스",
        "전형과정",
        "채용과정",
        "process",
        "hiringprocess",
        "interviewprocess",
        "recruitmentprocess",
        "selectionprocess",
        "applicationprocess",
        "howtoapply",
        "nextsteps",
        "전형일정",
        "채용일정",
        "지원방법",
        "전형방법",
        "접수방법",
        "제출서류",
    ),
    "접수 기간": (
        "접수기간",
        "모집기간",
        "마감일",
        "마감",
        "지원기간",
        "접수마감",
        "서류마감",
        "deadline",
        "applicationdeadline",
        "closingdate",
        "applicationperiod",
        "applyby",
    ),
    "혜택": (
        "혜택",
        "복지",
        "복리후생",
        # how the team works: what the company offers, nothing asked of a candidate
        "우리는이렇게일해요",
        "이렇게일해요",
        "일하는방식",
        "우리가일하는방식",
        "일하는문화",
        "조직문화",
        "팀문화",
        "기업문화",
        "근무환경",
        "howwework",
        "ourculture",
        "culture",
        "혜택및복지",
        "benefits",
        "perks",
        "perksandbenefits",
        "perks&benefits",
        "benefitsandperks",
        "whatweoffer",
        "weoffer",
        "whyjoinus",
        "compensation",
        "compensationandbenefits",
        "근무조건",
        "근무환경",
        # a job site's terms of work, asked of no candidate
        "근무지",
        "근무지역",
        "근무장소",
        "근무형태",
        "고용형태",
        "근무시간",
        "급여",
        "연봉",
        "처우",
        "salary",
        "location",
        "employmenttype",
    ),
}

_DECORATION = re.compile(r"^[\s#*■□●○◆◇▶▷►•\-–—·※\[\]【】<>《》()（）0-9.]+|[\s:：\]】>》)）]+$")
_NOT_LETTER = re.compile(r"[^0-9a-z가-힣]")
# A heading written in two languages or two words for one section: "우대사항 (Preferred)",
# "Requirements / 자격요건", "Nice to have · 우대", "복지 및 혜택".
_PART = re.compile(r"\s*[/|｜()（）\[\]【】·,&＆]\s*|\s+[-–—]\s+|\s+(?:and|및)\s+", re.I)
# "자격요건: Java", "자격요건 | Java" (a key | value table), "[접수 기간] 2026.07.20 ~ …".
_AROUND = re.compile(
    r"^(?:주요|상세|전체|나의|my)|(?:요약|개요|상세|내역|사항|기술서|summary|overview|history|details)+$"
)
_LABELLED = re.compile(r"^(.{1,40}?)\s*[:：|｜\t]\s*(.*)$")
_BRACKETED = re.compile(r"^([\[【<]\s*[^\]】>]{1,30}?\s*[\]】>])\s*(\S.*)$")


def _index(table: dict[str, tuple[str, ...]]) -> dict[str, str]:
    return {
        _NOT_LETTER.sub("", word): section for section, words in table.items() for word in words
    }


_INDEX = {"resume": _index(RESUME_HEADINGS), "posting": _index(POSTING_HEADINGS)}


@dataclass(frozen=True)
class Section:
    document: DocKind
    name: str  # canonical section name
    text: str


def _section_of(head: str, index: dict[str, str]) -> str | None:
    """The section a heading names: the whole head, or every part of a head written in two
    forms ("Preferred Qualifications (우대사항)") when all parts name the same section."""
    if len(head) > 40:
        return None
    key = _NOT_LETTER.sub("", _DECORATION.sub("", head).lower())
    if key in index:
        return index[key]
    # A known heading with a generic word around it: "경력 요약", "주요 경력", "학력 사항 상세".
    core = _AROUND.sub("", key)
    if core != key and core in index:
        return index[core]
    parts = [p for p in _PART.split(_DECORATION.sub("", head)) if _NOT_LETTER.sub("", p.lower())]
    if len(parts) < 2:
        return None
    named = {index.get(_NOT_LETTER.sub("", p.lower())) for p in parts}
    return named.pop() if len(named) == 1 and None not in named else None


def _heading_of(line: str, document: DocKind) -> tuple[str, str] | None:
    """(section, rest of line) when the line is a heading, optionally followed by content
    ("자격요건: Java 3년 이상", "우대사항 | Kafka", "[접수 기간] 2026.07.20 ~ 2026.08.09")."""
    stripped = line.strip()
    if not stripped:
        return None
    index = _INDEX[document]
    whole = _section_of(stripped, index) if len(stripped) <= 80 else None
    if whole:
        return whole, ""
    # a label and its content: the content may run long ("| 자격요건 | 회계 실무 경력 5년
    # 이상 / 상경계열 학사 이상 / K-IFRS 기반 결산 경험 / …", a table row of a job site)
    for pattern in (_LABELLED, _BRACKETED):
        labelled = pattern.match(stripped)
        if labelled and len(labelled.group(1)) <= 30:
            section = _section_of(labelled.group(1), index)
            if section:
                return section, labelled.group(2).strip()
    return None


def heading_of(line: str, document: DocKind) -> tuple[str, str] | None:
    """(canonical section, rest of the line) when `line` is a known heading, else None."""
    return _heading_of(line, document)


def section_named_in(line: str, document: DocKind) -> str | None:
    """The section a short heading written as a phrase names by its nouns ("이런 혜택이
    있어요" -> 혜택, "채용 절차는 이렇게 진행돼요" -> 전형 절차, "Our perks" -> 혜택): a noun, or
    two nouns in a row, that is a heading keyword. None when no section or two are named, or
    for a line longer than a heading or ending like a sentence."""
    stripped = line.strip()
    if not stripped or len(stripped) > 24 or stripped.endswith((".", ":", ",")):
        return None
    index = _INDEX[document]
    nouns = [
        _NOT_LETTER.sub("", t.form.lower())
        for t in kiwi().tokenize(stripped)
        if t.tag in ("NNG", "NNP", "SL")
    ]
    keys = nouns + [a + b for a, b in pairwise(nouns)]
    named = {index[key] for key in keys if key in index}
    return named.pop() if len(named) == 1 else None


def split_sections(text: str, document: DocKind, max_chars: int = 1500) -> list[Section]:
    """Sections in document order; repeated headings are merged; each capped at max_chars."""
    order: list[str] = []
    bodies: dict[str, list[str]] = {}
    current = "개요"
    for line in text.splitlines():
        heading = _heading_of(line, document)
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


def _english_headings(table: dict[str, tuple[str, ...]]) -> dict[str, str]:
    return {
        keyword: section
        for section, keywords in table.items()
        for keyword in keywords
        if keyword.isascii() and keyword.isalpha()
    }


_ENGLISH_RESUME = _english_headings(RESUME_HEADINGS)
_ENGLISH_POSTING = _english_headings(POSTING_HEADINGS)


# A question asking what a job does ("무슨 일 하는 거야?", "하는 일 알려줘"): its duties.
DUTIES_ASKED = re.compile(
    r"무슨\s*일(?:을)?\s*하|하는\s*일|(?i:\bwhat\s+(?:does|would)\s+\w+\s+do\b|"
    r"\bthe\s+(?:job|role|position)\s+(?:involves?|entails?)\b|\bwhat\s+(?:it|the\s+\w+)\s+involves\b)"
)


# Words for what a part of a resume holds, not its heading ("Which university …", "전 직장
# 이름"): the part they are asked of.
PART_OF_WORD = {
    # (not a GPA: a figure is found as written, or not at all)
    **dict.fromkeys(("university", "college", "major", "school", "degree"), "학력"),
    "전공": "학력",
    **dict.fromkeys(("employer", "employers", "직장", "전직장"), "경력"),
}


def asked_heading(word: str, kind: DocKind | None = None) -> str | None:
    """The heading of the part a question's word asks for: an English heading word
    (`korean_heading`), else, of a resume, a word for what a part holds (`PART_OF_WORD`)."""
    lower = word.lower()
    heading = korean_heading(lower, kind) if word.isascii() else None
    return heading or (PART_OF_WORD.get(lower) if kind != "posting" else None)


def korean_heading(word: str, kind: DocKind | None = None) -> str | None:
    """The heading a Korean document gives the part an English word names ("certification"
    -> "자격증", "requirements" -> "자격요건"), from the section tables; a resume's first
    unless `kind` says a posting. None for any other word."""
    lower = word.lower()
    tables = (
        (_ENGLISH_POSTING, _ENGLISH_RESUME)
        if kind == "posting"
        else (_ENGLISH_RESUME, _ENGLISH_POSTING)
    )
    return next((table[lower] for table in tables if lower in table), None)
