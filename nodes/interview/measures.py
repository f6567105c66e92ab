"""Numbers in a spoken answer: any number with a unit (what makes an answer concrete) and
the measured results among them (what changed or came out, not a setting, a tenure, a
routine or a plan)."""

from __future__ import annotations

import re

# Units a number in an answer is written with.
_UNITS = r"%|퍼센트|ms|초|분|배|명|건|개|만|천|억|시간|일|주|개월|년|TPS|RPS"
EVIDENCE = re.compile(rf"\d+\s*(?:{_UNITS})")
# A measured result is a number in a clause that says what changed or came out ("p95가
# 1.8초에서 320ms로 떨어졌고", "전환율이 12% 올랐습니다", "TPS 2.3배 확인"), not a setting,
# a tenure or a plan in one ("revalidate를 60초 정도 줬고", "5년차", "99% 이상 유지를
# 목표로", "2.5배 물량이 예상돼서").
_NUMBER = re.compile(rf"\d[\d,.]*\s*(?:{_UNITS}|점|원|(?i:x|k|m)\b)")
_CLAUSE_BREAK = re.compile(r"(?<=[.!?])\s+|,\s+|(?<=고요)\s|(?<=는데)\s|(?<=는데요)\s")
_OUTCOME = re.compile(
    r"→|->|\d[\d,.]*\s*[^\s\d]{0,4}에서\s*\d[\d,.]*\s*\S*?\s*(?:로|으로)|줄였|줄었|줄이|줄어|떨어|낮췄|낮아|낮추|올랐|올렸|"
    r"올라|높였|높아|늘었|늘렸|늘어|늘려|내려|내렸|단축|개선|향상|감소|증가|절감|상승|하락|달성|기록|"
    r"처리했|처리하|확인했|나왔|됐|되었|만들었|얻었|전환율|성공률|"
    r"(?i:improv|reduc|increas|decreas|\bcut\b|saved|grew)"
)


def measured_results(text: str) -> list[str]:
    """The numbers of an answer that report a result: one per clause that has a number and
    says what changed or came out (docs/decisions.md, "Interview: rubric calibration")."""
    found = []
    for clause in _CLAUSE_BREAK.split(text):
        number = _NUMBER.search(clause)
        if number and _OUTCOME.search(clause):
            found.append(number.group(0).strip())
    return found
