"""What the feedback prompt carries instead of the documents: the requirement groups with
their status, and one short evidence line for each (a resume line that shows a met
requirement, the posting line that asks for a missing one).

Every line is a window of one line of a document around a skill the taxonomy found there,
so a line that names no skill (a greeting, an instruction hidden in a document) never
enters the prompt, and a line with contact details (e-mail, phone, URL) is never quoted.
Lines are taken from the sections that show use first (경력, 프로젝트 before 기술 스택), and
the resume's 개요 (the contact header before the first heading) only when it is the whole
resume. Sections are searched as `split_sections` caps them (SECTION_MAX_CHARS each), so the
work is bounded however long a document is; a requirement whose line lies beyond the cap is
named without a quote.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import cast

from text.sections import Section
from text.skills import taxonomy

# A quote is at most this many characters of its line (a window around the skill).
QUOTE_CHARS = 64
# At most this many evidence lines per document; the rest of the groups are named only.
MAX_LINES = {"resume": 8, "posting": 5}
# Sections searched for evidence, most telling first; unlisted sections come after.
RESUME_ORDER = ("경력", "프로젝트", "활동", "자기소개", "기술 스택", "자격증", "학력")
POSTING_ORDER = ("자격요건", "우대사항", "담당업무", "모집 부문")

# A line that carries contact details (e-mail, mobile or landline, a link): never evidence.
CONTACT = re.compile(
    r"[\w.+-]+@[\w-]+\.[\w.]+|(?:\+?82[-\s]?|0)1[016789][-\s.]?\d{3,4}[-\s.]?\d{4}"
    r"|\b0\d{1,2}[-\s.]\d{3,4}[-\s.]\d{4}\b|https?://|www\.",
    re.IGNORECASE,
)
_BULLET = re.compile(r"^[\s\-–—•·*▶▷►■□●○◆◇※>]+")


@dataclass(frozen=True)
class Quote:
    text: str  # the window of the line, with "…" where it was cut
    line: str  # the whole line (to group requirements shown by one line)


def quote(line: str, start: int, end: int, width: int = QUOTE_CHARS) -> str:
    """At most `width` characters of `line` around `line[start:end]`, cut at spaces, with
    "…" where text was left out."""
    stripped = _BULLET.sub("", line)
    shift = len(line) - len(stripped)
    line, start, end = stripped.rstrip(), max(0, start - shift), max(0, end - shift)
    if len(line) <= width:
        return line
    room = max(0, width - (end - start))
    left = max(0, start - room // 3)
    right = min(len(line), left + width)
    left = max(0, right - width)
    if left > 0:  # start at a word
        space = line.find(" ", left, start)
        left = space + 1 if space >= 0 else left
    if right < len(line):  # end at a word
        space = line.rfind(" ", end, right)
        right = space if space >= 0 else right
    text = line[left:right].strip()
    return ("…" if left > 0 else "") + text + ("…" if right < len(line) else "")


def _ordered(sections: Sequence[Section], order: tuple[str, ...]) -> list[Section]:
    rank = {name: i for i, name in enumerate(order)}
    usable = [s for s in sections if s.name != "개요"] or list(sections)
    return sorted(usable, key=lambda s: rank.get(s.name, len(order)))


def skill_quotes(sections: Sequence[Section], order: tuple[str, ...]) -> dict[str, Quote]:
    """{skill: the first line, in `order` of sections, that names it or a skill that implies
    it (Spring Boot shows Spring)}. Lines with contact details are skipped."""
    known = taxonomy()
    found: dict[str, Quote] = {}
    for section in _ordered(sections, order):
        for line in section.text.splitlines():
            if CONTACT.search(line):
                continue
            for canon, start, end in known.spans(line):
                shown = Quote(quote(line, start, end), line)
                for skill in known.closure([canon]):
                    found.setdefault(skill, shown)
    return found


@dataclass(frozen=True)
class Requirement:
    required: bool
    met: bool
    names: list[str]  # the skills that met it, or every alternative when it is missing
    quote: Quote | None  # the resume line when met, the posting line when missing


def requirements(
    match: dict[str, object],
    facts: dict[str, object],
    resume: Sequence[Section],
    posting: Sequence[Section],
) -> list[Requirement]:
    """Each requirement group of the posting with its status and evidence: required first,
    in the posting's order."""
    have = set(cast("Iterable[str]", match["matched"])) | set(cast("Iterable[str]", match["bonus"]))
    shown = {"resume": skill_quotes(resume, RESUME_ORDER)}
    shown["posting"] = skill_quotes(posting, POSTING_ORDER)
    out = []
    for required, key in ((True, "required_groups"), (False, "preferred_groups")):
        for group in facts[key]:  # type: ignore[attr-defined]
            held = [s for s in group if s in have]
            names = held or list(group)
            document = "resume" if held else "posting"
            evidence = next((shown[document][s] for s in names if s in shown[document]), None)
            out.append(Requirement(required, bool(held), names, evidence))
    return out


def _shown(req: Requirement) -> str:
    """The skills that met a requirement, or its alternatives when it is missing."""
    return (", " if req.met else " 또는 ").join(req.names)


def evidence_records(reqs: Sequence[Requirement]) -> list[tuple[str, str]]:
    """(head, quote) per evidence line, resume lines first: the requirements one line shows
    share it ("- 이력서 (Python, SQL):"), at most MAX_LINES lines per document. The head is
    computed (the document, canonical names); the quote is the document's own text."""
    lines: dict[tuple[str, str], list[str]] = {}
    quotes: dict[tuple[str, str], str] = {}
    for document in ("resume", "posting"):
        for req in reqs:
            if req.quote is None or (document == "resume") != req.met:
                continue
            key = (document, req.quote.line)
            if key not in lines and sum(k[0] == document for k in lines) >= MAX_LINES[document]:
                continue
            lines.setdefault(key, []).append(_shown(req))
            quotes.setdefault(key, req.quote.text)
    label = {"resume": "이력서", "posting": "공고"}
    return [
        (f"- {label[document]} ({', '.join(names)}):", quotes[document, line])
        for (document, line), names in lines.items()
    ]
