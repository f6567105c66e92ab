"""Which job a pasted posting is for: candidates from every kind of evidence, ranked.

Like the organisation (`organization.py`): a label ("모집분야: 사무, 승무, …" -> its first
item), a listed section ("[모집직무]\\n - 편의점 영업관리(OFC)"), a line that is a job title
("Clinical Research Associate", "프론트엔드 엔지니어 (React)"), a title after the company
("LX판토스 해상수출 포워딩 신입 채용"), "X 포지션 / X position / X 직무에 지원", and the
header finder's answer each propose a candidate; each is cleaned of hiring words, headcount
and career level ("약사 (정규직) 0명" -> "약사", "인테리어 디자이너 구인합니다" -> "인테리어
디자이너"); the one with the most evidence wins. What makes a line a job title is its
head noun: an occupation word (개발자, 엔지니어, 간호사, 사무, 편집자, engineer, …), the
closed vocabulary of job titles, not a pattern per posting.
"""

from __future__ import annotations

import re
from collections import defaultdict

from text.korean_text import kiwi
from text.organization import undecorated

HEAD_LINES = 12
# Occupation head nouns: a job title ends in (or is) one of these.
OCCUPATION = re.compile(
    r"(?:개발자|엔지니어|디자이너|기획자|마케터|매니저|분석가|연구원|프로그래머|아키텍트|"
    r"간호사|약사|영양사|위생사|치료사|임상병리사|방사선사|의사|조리사|운전원|기사|기능사|"
    r"편집자|작가|PD|MD|AE|컨설턴트|회계사|세무사|상담사|상담원|강사|교사|사서|"
    # service, care and trade occupations
    r"바리스타|셰프|요리사|조리원|제과사|제빵사|판매원|캐셔|점원|점장|미용사|트레이너|코치|"
    r"보육교사|사회복지사|요양보호사|간호조무사|보호사|테크니션|정비사|용접사|배송원|드라이버|"
    r"경비원|미화원|사무원|통역사|번역가|노무사|변호사|법무사|건축사|포토그래퍼|카피라이터|에디터|"
    r"생산직|사무직|기술직|영업직|현장직|서비스직|"
    r"사무|관리|담당|영업|마케팅|기획|회계|재무|인사|총무|구매|물류|생산|품질|보증|설계|"
    r"포워딩|공무|행정|파트타이머|아르바이트|사원|직원|인턴|행원|개발|연구|프로그래밍|"
    r"사이언티스트|해설|운영|분석|정보보호|보안|퍼블리셔|PM|PO|"
    r"백엔드|프론트엔드|풀스택|서버|인프라|안드로이드|QA|iOS|Android|DevOps|"
    r"(?i:engineer|developer|designer|manager|analyst|associate|specialist|architect|"
    r"artist|scientist|consultant|researcher|lead|director|coordinator|representative|owner|"
    r"administrator|accountant|nurse|pharmacist|recruiter|writer|editor|sre|devops))"
)
_LABEL = re.compile(
    r"(?im)^[^\S\n]*(?:모집\s*분야|모집\s*부문|모집\s*직무|모집\s*직종|채용\s*분야|채용\s*직무|"
    r"지원\s*분야|직무|직종|포지션|position|role|job\s*title)[^\S\n]*[:：|][^\S\n]*([^\n]{2,80})"
)
_SECTION = re.compile(
    r"(?im)^[^\S\n]*[\[【■□◇○]?[^\S\n]*(?:모집\s*직무|모집\s*분야|모집\s*부문|채용\s*분야|"
    r"채용\s*직무)[^\S\n]*[\]】]?[^\S\n]*\n[^\S\n]*[-•·*][^\S\n]*([^\n]{2,60})"
)
_POSITION_WORD = re.compile(
    r"([^\n,.!?]{2,50}?)[^\S\n]*(?:포지션|직무에|분야에|(?i:position\b))"
    r"|(?i:\bfor\s+(?:the|our|a|an)\s+)([A-Z][^\n,.!?]{2,50}?)\s+(?:position|role)\b"
)
# What a title says around the job: hiring words, rounds, career level, headcount.
_TRIM = re.compile(
    r"\s*(?:\(\s*(?:정규직|계약직|경력|신입|신입/경력|인턴|\d+\s*명|0명|[A-Z]\d+|"
    r"경력\s*\d+\s*년\s*이상|(?i:new\s+graduate))\s*\)|\[\s*(?:R&D|[^\]]{1,6})\s*\]|"
    r"\d+\s*명|0명|신입\s*/\s*경력|신입/|경력/|\(?경력(?:사원|직)?\)?|\(?신입(?:사원)?\)?|"
    r"채용|모집|구인(?:합니다)?|구해요|공고|안내|수시|공채|공개|경력\s*\d+\s*년\s*이상)\s*$"
)
_LEAD = re.compile(r"^(?:20\d{2}년?\s*)?(?:상반기|하반기|동계|하계)?\s*")
_NOT_JOB = re.compile(
    r"코딩\s*테스트|과제|면접|전형|일정|마감|접수|졸업|자격|우대|근무|급여|연봉|안녕|문의|내선|"
    r"@|https?:|(?i:interview|assessment|welcome|reminder|confirmation|next\s+steps)"
)
_WEIGHTS = {
    "label": 4.0,
    "section": 4.0,
    "named": 3.0,
    "top": 2.0,
    "line": 2.0,
    "finder": 3.0,
}


def _is_sentence(line: str) -> bool:
    """A line that says something ("…주세요.", "…드렸던 …") rather than names a job; a
    title's hiring verb ("바리스타 정직원 구합니다") says nothing more than 채용."""
    titled = _HIRING_TAIL.sub("", undecorated(line)).strip()
    return any(t.tag.startswith(("E", "V")) for t in kiwi().tokenize(titled))


def noun_phrase_tail(text: str) -> str:
    """The noun phrase a text ends with ("지난주 제안드렸던 한솔제지 구매 담당(과장급)" ->
    "한솔제지 구매 담당(과장급)"): from the last verb or ending on."""
    tokens = kiwi().tokenize(text)
    cut = max((t.end for t in tokens if t.tag.startswith(("E", "V", "J", "M"))), default=0)
    return text[cut:].strip()


_LEADING = re.compile(
    r"^(?:\s*(?:[\[【『「][^\]】』」]{0,30}[\]】』」]|\(주\)|㈜|주식회사|\d{1,2}[.)]|[-•·*|–—]|"
    r"(?i:(?:is|are)\s+hiring(?:\s+an?)?\b)|"
    r"[^\s:：]{0,12}(?:모집\s*분야|모집\s*부문|모집\s*직무|모집\s*직종|채용\s*분야|"
    r"채용\s*직무|직무|직종|포지션)\s*[:：|]))+\s*"
)
# A parenthesis that says where or how long, not what the job is ("(금산공장)", "(경력 3년+)").
_PLACE_PAREN = re.compile(
    r"\s*\([^)]*(?:점|공장|센터|사무소|지사|본사|년|\d+\+|급|과장|대리|차장|부장|주임|상시|전환형|"
    r"채용)[^)]*\)"
)
# Where a title ends: the hiring words after it ("품질보증 경력 채용 (IATF 16949)").
_HIRING_TAIL = re.compile(
    r"\s*(?:(?:신입|경력)(?:사원|직)?\s*/?\s*)*(?:채용|모집|구인\S*|구해요|구합니다|모십니다|"
    r"공고|선생님\s*구\S*)(?=\s|$|[(!.])"
)
_ROUND_ONLY = re.compile(
    r"^(?:20\d{2}\s*)?(?:상반기|하반기)?\s*(?:\d급\s*)?(?:신입|경력)(?:사원|직)?$"
)


def _first_of_several(value: str) -> str:
    """The first job of a list ("사무, 승무, 차량" -> "사무"); a "/" or "," inside a
    parenthesis is part of the title ("(English/Japanese)")."""
    depth = 0
    latin = len(re.findall(r"[A-Za-z]", value)) > len(value) / 2
    for i, ch in enumerate(value):
        depth += ch == "("
        depth -= ch == ")"
        # "Software Engineer, Backend (Fulfillment)" is one English title: a comma
        # separates two only when the next part names an occupation itself
        if depth == 0 and ch in ",、" and (not latin or OCCUPATION.search(value[i + 1 :])):
            return value[:i]
        if depth == 0 and ch == "/" and value[i - 1 : i] == " ":
            return value[:i]
        if depth == 0 and value[i : i + 3] == " | ":
            return value[:i]
    return value


def headed_by_occupation(name: str) -> bool:
    """A job title's head (its last word, before a parenthesis and after a list's first
    item) is an occupation: "게임 기획자 (시스템)", "Software Engineer, Backend"; not
    "판교 개발자 컨퍼런스" (a conference for developers)."""
    head = re.sub(r"\([^)]*\)", " ", name).split(",")[0].split()
    return bool(head) and bool(OCCUPATION.search(head[-1]))


def clean(value: str, company: str | None = None) -> str | None:
    """A job title without what a posting says around it; None when no title is left."""
    value = re.sub(r"\s+", " ", undecorated(value)).strip(" -•·:：|.")
    value = _LEADING.sub("", value)
    if company:
        # the company and what stands before it in a title ("24시 튼튼동물메디컬센터 수의테크니션")
        value = re.sub(
            rf"^(?:[^\s]+\s+){{0,2}}?(?:\(주\)|㈜)?\s*{re.escape(company)}(?:\(주\)|㈜)?\s*",
            "",
            value,
        )
        value = _LEADING.sub("", value)
    tail = _HIRING_TAIL.search(value)
    if tail:
        before, after = value[: tail.start()].strip(), value[tail.end() :]
        inner = re.match(r"\s*\(([^)]+)\)", after)
        # "신입사원 채용 (마케팅/영업/생산)": the round says nothing, the parenthesis names the job
        round_only = not before or _ROUND_ONLY.match(before)
        value = inner.group(1).replace("/", ", ") if round_only and inner else before
    value = _PLACE_PAREN.sub("", _first_of_several(value))
    for _ in range(4):
        trimmed = _LEAD.sub("", _TRIM.sub("", value)).strip(" -•·:：")
        if trimmed == value:
            break
        value = trimmed
    if not 2 <= len(value) <= 60 or _NOT_JOB.search(value):
        return None
    return value


def rank(text: str, finder: str | None = None, company: str | None = None) -> str | None:
    """The job the posting is for, or None when nothing names one."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()][:HEAD_LINES]
    head = "\n".join(lines)
    proposals: list[tuple[str, str, int]] = []
    for kind, pattern in (("label", _LABEL), ("section", _SECTION), ("named", _POSITION_WORD)):
        for m in pattern.finditer(head):
            value = next((g for g in m.groups() if g), None)
            if value and kind == "named":
                value = noun_phrase_tail(value)
            if value:
                proposals.append((kind, value, m.start()))
    offset = 0
    for n, line in enumerate(lines):
        words = line.split()
        if 1 <= len(words) <= 7 and OCCUPATION.search(line) and not _is_sentence(line):
            proposals.append(("top" if n == 0 else "line", line, offset))
        offset += len(line) + 1
    if finder:
        proposals.append(("finder", finder, head.find(finder) if finder in head else 0))
    scored: dict[str, float] = defaultdict(float)
    kinds: dict[str, set[str]] = defaultdict(set)
    first: dict[str, int] = {}
    for kind, value, at in proposals:
        name = clean(value, company)
        if name is None or not headed_by_occupation(name):
            continue
        if kind not in kinds[name]:
            scored[name] += _WEIGHTS[kind]
            kinds[name].add(kind)
        first[name] = min(first.get(name, at), at)
    if not scored:
        return None
    squashed = re.sub(r"\s", "", text)
    for name in scored:
        scored[name] += min(squashed.count(re.sub(r"\s", "", name)), 3) * 0.5
    return max(scored, key=lambda n: (scored[n], -first[n]))
