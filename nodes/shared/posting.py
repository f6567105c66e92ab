"""Facts of a job posting that are read, not generated: company, position, deadline.

Nothing is guessed: a fact the text does not state is None.
"""

from __future__ import annotations

import re
from datetime import date

from nodes.shared.korean_dates import find_dates
from nodes.shared.sections import Section, section_text

_LABELLED_COMPANY = re.compile(r"^\s*(?:회사명|기업명|회사|기업)\s*[:：]\s*(.+?)\s*$", re.MULTILINE)
_CORP_PREFIX = re.compile(r"(?:\(주\)|㈜|주식회사)[ \t]*([가-힣A-Za-z0-9&.\-]{1,30})")
_CORP_SUFFIX = re.compile(r"([가-힣A-Za-z0-9&.\-]{1,30})[ \t]*(?:\(주\)|㈜|주식회사)")
_TITLE_BRACKET = re.compile(r"^\s*[\[【<]\s*([^\]】>]{1,30}?)\s*[\]】>]\s*(.*)$")
_LABELLED_POSITION = re.compile(
    r"^\s*(?:모집\s*부문|모집\s*분야|모집\s*직무|포지션|직무|채용\s*직무|채용\s*분야)\s*[:：]\s*(.+?)\s*$",
    re.MULTILINE,
)
_TITLE_TAIL = re.compile(r"\s*(?:채용|모집|공고|구인|\(.*?\)|\s)+$")
_DEADLINE_HINT = re.compile(r"마감|까지|~|∼|접수|지원\s*기간|모집\s*기간")


def _clean(value: str) -> str | None:
    value = re.sub(r"\s+", " ", value).strip(" -·:：[]【】")
    return value or None


def find_company(text: str) -> str | None:
    labelled = _LABELLED_COMPANY.search(text)
    if labelled:
        return _clean(labelled.group(1))
    first_line = next((ln for ln in text.splitlines() if ln.strip()), "")
    bracket = _TITLE_BRACKET.match(first_line)
    if bracket:
        return _clean(bracket.group(1))
    corp = _CORP_PREFIX.search(text) or _CORP_SUFFIX.search(text)
    return _clean(corp.group(1)) if corp else None


def find_position(text: str, sections: list[Section]) -> str | None:
    labelled = _LABELLED_POSITION.search(text)
    if labelled:
        return _clean(labelled.group(1))
    listed = section_text(sections, "모집 부문")
    if listed:
        return _clean(listed.splitlines()[0].lstrip("-•· "))
    first_line = next((ln for ln in text.splitlines() if ln.strip()), "")
    bracket = _TITLE_BRACKET.match(first_line)
    title = bracket.group(2) if bracket else ""
    if title and re.search(r"채용|모집|개발자|엔지니어|engineer|developer", title, re.I):
        return _clean(_TITLE_TAIL.sub("", title))
    return None


def find_deadline(text: str, sections: list[Section], today: date | None = None) -> date | None:
    """The application deadline: the last date of the 접수 기간 section, else the last date
    on a line that speaks of a deadline ("~ 3/15(금) 18:00까지", "마감: 2026.03.15")."""
    for line in section_text(sections, "접수 기간").splitlines():
        dates = find_dates(line, today)
        if dates:  # the first dated line is the period; its last date is the end
            return dates[-1].value
    for line in text.splitlines():
        if _DEADLINE_HINT.search(line):
            dates = find_dates(line, today)
            if dates:
                return dates[-1].value
    return None
