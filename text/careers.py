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
from dataclasses import dataclass
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
# A dated line that is not work: schooling or training anywhere; under a work heading a
# school's name is an employer ("한빛대학교 부속병원", "온라인 교육 플랫폼", "○○학원 행정실").
_NOT_WORK = re.compile(
    r"졸업|입학|재학|휴학|학점|학위|수료|부트캠프|bootcamp|군\s*복무|병역|육군|해군|공군|어학연수|"
    r"\b(?:B\.?S|B\.?A|M\.?S|Ph\.?D)\b|bachelor|master'?s|degree",
    re.IGNORECASE,
)
_SCHOOL = re.compile(r"대학|학교|학과|University|College|School|교육|아카데미|과정", re.IGNORECASE)


def _not_work(line: str, section: str) -> bool:
    return bool(_NOT_WORK.search(line) or (section != "경력" and _SCHOOL.search(line)))


_STATED = re.compile(
    r"(?:총\s*경력|경력|총)\s*(?P<y>\d{1,2})\s*년(?:\s*(?P<m>\d{1,2})\s*개월)?|(?P<y2>\d{1,2})\s*년\s*차|"
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


_SKIPPED = {"학력", "자격증"}


def _line_spans(line: str, current: int) -> list[tuple[int, int]]:
    spans = []
    for m in _RANGE.finditer(line):
        start = _point(m, "s", end=False)
        end = current if m.group("open") else _point(m, "e", end=True)
        if start is None or end is None or end < start or start > current:
            continue
        spans.append((start, min(end, current)))
    return spans


@dataclass(frozen=True)
class CareerEntry:
    """One dated work entry: its ranges (month indexes) and the text that describes it (its
    dated line and the lines under it up to the next dated line)."""

    spans: tuple[tuple[int, int], ...]
    text: str


def career_entries(resume_text: str, now: date) -> list[CareerEntry]:
    """The resume's work entries with what each says ("㈜페이링크 (간편결제 PG) 2021.08 ~ 현재"
    and its bullets). A line dated within the open entry (a project of that job) belongs to
    it; a bare "2024.01 ~ 현재" takes the company line above it."""
    current = now.year * 12 + now.month - 1
    out: list[CareerEntry] = []
    for section in split_sections(resume_text, "resume", 100_000):
        if section.name in _SKIPPED:
            continue
        spans: list[tuple[int, int]] = []  # the open entry's
        lines: list[str] = []  # the open entry's, or those before the first entry
        for line in section.text.splitlines():
            found = [] if _not_work(line, section.name) else _line_spans(line, current)
            start = min((a for a, _ in found), default=0)
            end = max((b for _, b in found), default=0)
            inside = bool(spans) and (
                min(a for a, _ in spans) <= start and end <= max(b for _, b in spans)
            )
            if not found or inside:
                lines.append(line)
                continue
            head = [line]
            if len(_DATES_ONLY.sub("", line)) < 4 and len(lines) > (1 if spans else 0):
                head.insert(0, lines.pop())
            if spans:
                out.append(CareerEntry(tuple(spans), "\n".join(lines)))
            spans, lines = found, head
        if spans:
            out.append(CareerEntry(tuple(spans), "\n".join(lines)))
    return out


_DATES_ONLY = re.compile(r"[\d\s.~\-–—/년월()|·•▶▷■□●○◆◇*]+|" + _OPEN_END, re.IGNORECASE)


def work_spans(resume_text: str, now: date) -> list[tuple[int, int]]:
    """The resume's dated work ranges as (first month, last month) indexes, in order."""
    return [span for entry in career_entries(resume_text, now) for span in entry.spans]


def merged_months(spans: list[tuple[int, int]]) -> int:
    """Months covered by the spans, overlaps counted once (both ends inclusive)."""
    total, last = 0, -1
    for start, end in sorted(spans):
        start = max(start, last + 1)
        if end >= start:
            total += end - start + 1
            last = end
    return total


def career_months(resume_text: str, now: date, entries: list[CareerEntry] | None = None) -> int:
    """Merged months of the work entries (`entries` when already read), or the total the
    resume states when that is longer."""
    if entries is None:
        entries = career_entries(resume_text, now)
    months = merged_months([span for entry in entries for span in entry.spans])
    work_lines = "\n".join(ln for ln in resume_text.splitlines() if not _not_work(ln, ""))
    for m in _STATED.finditer(work_lines):
        years = m.group("y") or m.group("y2") or m.group("y3") or m.group("y4")
        stated = int(years) * 12 + int(m.group("m") or 0)
        if m.group("y2"):  # "7년차" is in its 7th year
            stated = max(0, stated - 6)
        months = max(months, stated)
    return months


_ASKED_YEARS = re.compile(
    r"(?<![\d.])(?P<n>\d{1,2})\s*(?:~\s*\d{1,2}\s*)?(?:년|年|\+?\s*years?|\+?\s*yrs?)(?!\s*[차제])"
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
    # Several numbers are a whole and a part of it ("경력 7년 이상 (그중 평가·보상 3년 이상)",
    # "5+ years ..., including 2+ years managing people"): the whole is what is asked.
    return float(max(found)) if found else None


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
    "TOPIK": re.compile(r"TOPIK[^\d\n]{0,12}(\d)", re.I),
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
        "TOPIK": r"TOPIK",
    }
    return {t for t, p in names.items() if re.search(p, text, re.I)}
