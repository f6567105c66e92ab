"""Amounts a requirement asks for and a resume line states, in one unit each.

A requirement may ask for a scale: "연 100명 이상 채용 운영", "월 광고비 1억 원 이상", "현장 인원
(30명 이상) 관리", "300병상 이상 종합병원", "20+ direct reports". A resume states scales the
same way ("연 40명 채용", "월 평균 광고비 8,000만 원 운영", "생산 라인 인원 12명 관리"). Numbers
are read with their Korean multipliers (천, 만, 억) and their unit (명, 건, 원, 병상, 곳, 개사,
개, people, employees, beds, accounts), so "1억 원" and "10,000만 원" are one amount; a
range or "약" takes its number as written.
"""

from __future__ import annotations

import re

_MULTIPLIER = {"천": 1e3, "만": 1e4, "억": 1e8, "천만": 1e7, "백만": 1e6}
_UNITS = {
    "명": "명",
    "건": "건",
    "원": "원",
    "병상": "병상",
    "곳": "곳",
    "개사": "곳",
    "people": "명",
    "employees": "명",
    "reports": "명",
    "members": "명",
    "beds": "병상",
    "accounts": "곳",
    "clients": "곳",
}
_NUMBER = r"(?P<n>\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)"
_AMOUNT = re.compile(
    _NUMBER
    + r"\s*(?P<m>천만|백만|천|만|억)?\s*여?\s*(?:(?P<won>원)|(?P<unit>명|건|병상|개사|곳)"
    + r"|\+?\s*(?P<en>(?i:people|employees|direct\s+reports|reports|members|beds|accounts|"
    + r"clients))\b)"
)
# An amount with no unit of its own before "원" ("1억 이상 광고비"): money when the line speaks
# of money.
_MONEY_WORDS = re.compile(r"광고비|예산|매출|비용|금액|원가|(?i:budget|revenue|spend)")
_BARE_MONEY = re.compile(_NUMBER + r"\s*(?P<m>천만|백만|천|만|억)(?![\d가-힣])")
_AT_LEAST = re.compile(r"^\s*(?:\)|\s)*(?:이상|↑|넘|초과|\+|or\s+more|plus)", re.IGNORECASE)


def _value(m: re.Match[str]) -> float:
    number = float(m.group("n").replace(",", ""))
    return number * _MULTIPLIER.get(m.group("m") or "", 1.0)


def amounts(text: str) -> list[tuple[float, str, int, int]]:
    """Every amount with a unit in `text`: (value, unit, start, end)."""
    out: list[tuple[float, str, int, int]] = []
    taken: list[tuple[int, int]] = []
    for m in _AMOUNT.finditer(text):
        if m.group("won"):
            unit = "원"
        elif m.group("unit"):
            unit = _UNITS[m.group("unit")]
        else:
            unit = _UNITS[m.group("en").lower().split()[-1]]
        out.append((_value(m), unit, m.start(), m.end()))
        taken.append((m.start(), m.end()))
    if _MONEY_WORDS.search(text):
        for m in _BARE_MONEY.finditer(text):
            if not any(s <= m.start() < e for s, e in taken):
                out.append((_value(m), "원", m.start(), m.end()))
    return out


def asked_amount(text: str) -> tuple[float, str] | None:
    """The least amount a requirement asks for ("30명 이상", "1억 원 이상", "20+ direct
    reports"), or None when it asks for none."""
    for value, unit, start, end in amounts(text):
        if _AT_LEAST.match(text[end : end + 12]) or "+" in text[start:end]:
            return value, unit
    m = re.search(r"(?i)(?:at\s+least|최소)\s*" + _NUMBER, text)
    if m:
        found = [a for a in amounts(text[m.start() :]) if a[2] == 0 or a[2] < 20]
        if found:
            return found[0][0], found[0][1]
    return None
