"""Numbers a requirement can be checked against: career length from a resume's dated
entries, years a posting asks for, language test scores and certificate grades.

Career length: every dated range of the resume's work entries ("2019.03 ~ 2022.08",
"2021년 5월 - 현재", "Mar 2020 – Present", "2018 - 2020"), to months, overlaps merged, an
open end ("현재", "재직 중", "Present") read as `now`; school and training lines are not
work. A resume that states its total ("총 경력 5년 3개월", "7년차", "6+ years of
experience") is taken at its word when that is longer than the dated entries.
"""

from __future__ import annotations

import re
from datetime import date

from text.sections import split_sections

_MONTHS = {
    m: i + 1
    for i, m in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
    )
}
_OPEN_END = r"현재|재직\s*중|재직중|근무\s*중|진행\s*중|present|current|now|today|~\s*$"
# One point of a range, its groups named with a prefix (s: start, e: end) put for "@".
_YM = r"(?P<@y>(?:19|20)\d{2})\s*(?:[./\-]|년)\s*(?P<@m>\d{1,2})(?!\d)\s*(?:월|\.)?"
_EN = (
    r"(?P<@en>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?,?\s+(?P<@ey>(?:19|20)\d{2})"
)
_Y = r"(?P<@yo>(?:19|20)\d{2})(?!\d)(?:\s*년)?"
_POINT = "(?:" + "|".join((_YM, _EN, _Y)) + ")"
_RANGE = re.compile(
    _POINT.replace("@", "s")
    + r"\s*(?:~|-|–|—|to|부터|→)\s*(?:"
    + _POINT.replace("@", "e")
    + "|(?P<open>"
    + _OPEN_END
    + "))",
    re.IGNORECASE,
)
_NOT_WORK = re.compile(
    r"대학|학교|학과|졸업|입학|재학|휴학|학점|University|College|School|B\.?S\b|B\.?A\b|"
    r"교육|수료|부트캠프|bootcamp|아카데미|과정|군\s*복무|병역|육군|해군|공군|어학연수",
    re.IGNORECASE,
)
_STATED = re.compile(
    r"(?:총\s*)?경력\s*(?P<y>\d{1,2})\s*년(?:\s*(?P<m>\d{1,2})\s*개월)?|(?P<y2>\d{1,2})\s*년\s*차|"
    r"(?P<y3>\d{1,2})\+?\s*years?\s+(?:of\s+)?(?:experience|exp)|"
    # a field and its years, as a heading or summary says it: "핀테크 백엔드 5년", "마케터 3년"
    r"(?<![\d.])(?P<y4>\d{1,2})\s*년(?:\s*간)?(?!\s*[\d월도제])(?!\s*(?:만에|전|후|동안|연속))",
    re.IGNORECASE,
)


def _point(m: re.Match[str], p: str, end: bool) -> int | None:
    """A point as a month index (year * 12 + month - 1)."""
    if m.group(f"{p}y"):
        month = int(m.group(f"{p}m"))
        if not 1 <= month <= 12:
            return None
        return int(m.group(f"{p}y")) * 12 + month - 1
    if m.group(f"{p}en"):
        return int(m.group(f"{p}ey")) * 12 + _MONTHS[m.group(f"{p}en")[:3].casefold()] - 1
    if m.group(f"{p}yo"):
        # A year alone: from its January, to its December when it ends a range.
        return int(m.group(f"{p}yo")) * 12 + (11 if end else 0)
    return None


def work_spans(resume_text: str, now: date) -> list[tuple[int, int]]:
    """The resume's dated work ranges as (first month, last month) indexes, in order."""
    sections = split_sections(resume_text, "resume", 100_000)
    skipped = {"학력", "자격증"}
    spans = []
    current = now.year * 12 + now.month - 1
    for section in sections:
        if section.name in skipped:
            continue
        for line in section.text.splitlines():
            if _NOT_WORK.search(line):
                continue
            for m in _RANGE.finditer(line):
                start = _point(m, "s", end=False)
                end = current if m.group("open") else _point(m, "e", end=True)
                if start is None or end is None or end < start or start > current:
                    continue
                spans.append((start, min(end, current)))
    return spans


def merged_months(spans: list[tuple[int, int]]) -> int:
    """Months covered by the spans, overlaps counted once (both ends inclusive)."""
    total, last = 0, -1
    for start, end in sorted(spans):
        start = max(start, last + 1)
        if end >= start:
            total += end - start + 1
            last = end
    return total


def career_months(resume_text: str, now: date) -> int:
    months = merged_months(work_spans(resume_text, now))
    work_lines = "\n".join(ln for ln in resume_text.splitlines() if not _NOT_WORK.search(ln))
    for m in _STATED.finditer(work_lines):
        years = m.group("y") or m.group("y2") or m.group("y3") or m.group("y4")
        stated = int(years) * 12 + int(m.group("m") or 0)
        if m.group("y2"):  # "7년차" is in its 7th year
            stated = max(0, stated - 6)
        months = max(months, stated)
    return months


_ASKED_YEARS = re.compile(
    r"(?P<n>\d{1,2})\s*(?:~\s*\d{1,2}\s*)?(?:년|年|\+?\s*years?|\+?\s*yrs?)(?!\s*차)"
    r"|경력\s*(?P<n2>\d{1,2})\s*년",
    re.IGNORECASE,
)
_NO_YEARS = re.compile(r"신입|경력\s*무관|경력무관|new\s*grads?|entry[-\s]level", re.IGNORECASE)


def asked_years(text: str) -> float | None:
    """Years a requirement asks for: 0 for "신입 가능"/"경력 무관", None when it names none."""
    if _NO_YEARS.search(text) and not re.search(r"\d\s*년\s*이상", text):
        return 0.0
    found = [int(m.group("n") or m.group("n2")) for m in _ASKED_YEARS.finditer(text)]
    found = [n for n in found if 0 < n <= 30]
    return float(min(found)) if found else None


# Language tests: the score pattern of each, and an ordering of its levels.
_OPIC_LEVELS = ("NL", "NM", "NH", "IL", "IM1", "IM2", "IM3", "IH", "AL")
_TESTS: dict[str, re.Pattern[str]] = {
    "TOEIC": re.compile(r"(?:TOEIC|토익)(?!\s*Speaking|\s*스피킹)[^\d\n]{0,12}(\d{3})", re.I),
    "TOEIC Speaking": re.compile(
        r"(?:TOEIC\s*Speaking|토익\s*스피킹)[^\n]{0,12}?(?:Lv\.?|Level|레벨)?\s*(\d)", re.I
    ),
    "TOEFL": re.compile(r"(?:TOEFL|토플)(?:\s*iBT)?[^\d\n]{0,12}(\d{2,3})", re.I),
    "TEPS": re.compile(r"(?:TEPS|텝스)[^\d\n]{0,12}(\d{3})", re.I),
    "IELTS": re.compile(r"IELTS[^\d\n]{0,12}(\d(?:\.\d)?)", re.I),
    "OPIc": re.compile(r"(?:OPIc|OPIC|오픽)[^A-Z\n]{0,12}(AL|IH|IM3|IM2|IM1|IM|IL|NH|NM|NL)", re.I),
    "JLPT": re.compile(r"JLPT[^\n]{0,8}?N\s*([1-5])", re.I),
    "JPT": re.compile(r"JPT[^\d\n]{0,12}(\d{3})", re.I),
    "HSK": re.compile(r"(?:HSK|신HSK)[^\d\n]{0,8}(\d)\s*급?", re.I),
}


def _level(test: str, raw: str) -> float:
    raw = raw.upper()
    if test == "OPIc":
        raw = "IM2" if raw == "IM" else raw
        return float(_OPIC_LEVELS.index(raw))
    if test == "JLPT":  # N1 is the highest
        return float(6 - int(raw))
    return float(raw)


def language_scores(text: str) -> dict[str, float]:
    """{test: best level found} ("TOEIC 870" -> {"TOEIC": 870.0}; OPIc levels ordered)."""
    out: dict[str, float] = {}
    for test, pattern in _TESTS.items():
        for m in pattern.finditer(text):
            value = _level(test, m.group(1))
            out[test] = max(out.get(test, value), value)
    return out


def named_tests(text: str) -> set[str]:
    """The language tests a text names, with or without a score."""
    names = {
        "TOEIC": r"TOEIC|토익",
        "TOEFL": r"TOEFL|토플",
        "TEPS": r"TEPS|텝스",
        "IELTS": r"IELTS",
        "OPIc": r"OPIc|OPIC|오픽",
        "JLPT": r"JLPT",
        "JPT": r"JPT",
        "HSK": r"HSK",
        "TOEIC Speaking": r"TOEIC\s*Speaking|토익\s*스피킹",
    }
    return {t for t, p in names.items() if re.search(p, text, re.I)}
