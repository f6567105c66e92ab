"""The company/position finder of a posting: one finder for every feature that reads a
posting's header (the calendar parser, the analysis, the embedder's chunk metadata, the
interview's facts and the chat's calendar tool; `text.posting.find_company` is its
company alone). Moved here from `nodes/calendar/header.py`.

A company is read from the forms postings use, most explicit first: a label ("회사명:",
"Company:", a tab-separated 회사 row), a bracketed title ("[회사]", "【회사】", "『회사』", also
after "제목:" or an emoji), a "채용 | 회사 | 직무" title, a quoted name ("스타트업 '도란도란'이",
“온새미로”가, We're '누리봇'), an English sentence ("X is hiring", "We're X, a … startup", "the
… role at X"), a dash title ("백엔드 엔지니어 채용 — 스윗트래블", "Tidewater Analytics –
Analytics Engineer": the side that is not a role), a legal form ("(주)한결시스템"), "저희 X
팀은", "@ 회사", a bracket on a later line, a signature ("오로라소프트 인사팀 드림"), and last
the leading word of a hiring title ("SK하이닉스 … 채용"). Legal forms ((주), ㈜, 주식회사,
Inc.), quotes and descriptors ("핀테크 기업", "a robotics startup") are not part of the
name; a bracket that is not a company ("[채용]", "[모집기간]") is never one; a headhunter's
"our client" is no company (None, and the model is not asked).

A position is read from a label ("모집 직무:", "포지션:", "Role:", "(직무: …)"), the title
(after its bracket, on the role side of a "|" or a dash), an English sentence ("is hiring a
…", "the … role at"), or a Korean one ("… 개발자를 찾습니다"), without 채용/모집/공고/hiring,
hiring-round words and tags such as "(상시채용)".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from text.sections import POSTING_HEADINGS

# A bracket that names a recruitment stage ("[서류 접수]") is no company: the stage words are
# the calendar parser's (text.stages imports nothing of this module).
from text.stages import names_a_stage

ROLE = re.compile(
    r"개발자|엔지니어|디자이너|연구원|분석가|기획자|매니저|프로그래머|퍼블리셔|컨설턴트|"
    r"사이언티스트|아키텍트|마케터|담당자?|개발|운영자|관리자|전문가|리드|리서처|기획|인턴|"
    r"(?i:\b(?:engineer|developer|designer|scientist|researcher|analyst|manager|artist|"
    r"architect|programmer|consultant|owner|lead|specialist|administrator|PM|PO|SRE|"
    r"intern)s?\b)"
)
# Parts of a title that are neither company nor role.
_GENERIC_PART = re.compile(
    r"^(?:\d{4}\s*(?:년)?\s*)?(?:상반기|하반기)?\s*(?:신입|경력|인턴)?\s*"
    r"(?:채용\s*공고|채용\s*안내|채용|모집\s*공고|모집|공고|공채|공개\s*채용|수시\s*채용|"
    r"채용\s*일정|전형\s*일정|모집\s*기간|접수\s*기간|공지|안내|일정|"
    r"(?i:hiring|job\s+opening|we'?re\s+hiring|now\s+hiring|careers?))?\s*$"
)
_LEGAL = re.compile(r"\(주\)|㈜|\(유\)|주식회사|유한회사")
_LEGAL_LATIN = re.compile(
    r"(?:,?\s+|\s*)\b(?:Inc|Corp|Corporation|Co|Ltd|LLC|GmbH|Limited|PLC)\b\.?\s*$", re.I
)
_QUOTES = "'\"‘’“”「」『』【】[]<>《》"
_TEAM_WORDS = re.compile(
    r"\s*(?:채용팀|인사팀|HR팀|채용\s*담당자?|채용\s*담당|(?i:recruiting|talent|HR)\s*team)$"
)
# A headhunter's posting: the company is not named ("our client", "저희 고객사").
_NO_COMPANY = re.compile(r"(?i)\bour\s+client\b|(?:저희|당사의?)\s*(?:고객사|클라이언트)")
_NO_NAME = re.compile(r"(?i)confidential|undisclosed|비공개|미공개|고객사")
# A head line saying the company's name is withheld.
_WITHHELD = re.compile(
    r"(?i)(?:고객사|회사|기업)\s*명?\s*(?:비공개|미공개)|(?:비공개|익명)\s*(?:고객사|기업)|"
    r"confidential\s+(?:client|company)|undisclosed\s+(?:client|company)"
)


def _labelled(words: str) -> re.Pattern[str]:
    """A label and its value: "회사명: X", "[회사] X", "회사<TAB>X", "… | Company: X",
    "(직무: X)"."""
    return re.compile(
        r"(?:^(?:\d{1,2}[.)][^\S\n]*)?[^\w\n\[【]*|[|｜/][^\S\n]*|[(（][^\S\n]*)"
        r"(?:[\[【][^\S\n]*(?:" + words + r")[^\S\n]*[\]】][^\S\n]*[:：]?"
        r"|(?:" + words + r")[^\S\n]*(?:[:：|｜]|\t|[^\S\n]{2,}|[^\S\n][-–][^\S\n]))"
        r"[^\S\n]*([^\n]+)",
        re.MULTILINE,
    )


_LABEL_COMPANY = _labelled(
    r"회사명|기업명|업체명|회사|기업|(?i:company(?:\s+name)?|employer|organi[sz]ation)"
)
# "회사명:" alone on its line, the name on the next one.
_LABEL_COMPANY_ABOVE = re.compile(
    r"^[^\S\n]*(?:회사명|기업명|업체명|회사|기업|(?i:company(?:\s+name)?))[^\S\n]*[:：][^\S\n]*\n"
    r"[^\S\n]*([^\n]+)",
    re.MULTILINE,
)
_LABEL_POSITION = _labelled(
    r"모집\s*직무|모집\s*분야|모집\s*부문|채용\s*직무|채용\s*분야|채용\s*포지션|직무|포지션|모집|"
    r"(?i:position|role|job(?:\s+title)?|title)"
)


def _label_value(m: re.Match[str]) -> str:
    """A label's value without what follows it on the line ("X | Location: Seoul")."""
    value = re.split(r"\s[|｜/—–@]\s|\t", m.group(1))[0]
    if m.group(0).lstrip()[:1] in "(（":
        value = re.split(r"[)）]", value)[0]  # "(직무: 보안 컨설턴트)"
    return value


# One character class before the bracket (no nested repeats: a line of symbols is linear).
_BRACKET = re.compile(
    r"^(?:제목\s*[:：]\s*)?[^\w\[【『「<(]*[\[【『「<]\s*([^\]】』」>\n]{1,30}?)\s*[\]】』」>]\s*(.*)$"
)
# Not an apostrophe: "We're '누리봇'" quotes 누리봇, not "re ".
_QUOTED = re.compile(r"(?<![A-Za-z])['‘\"“「]([^'‘’\"“”」\n]{1,24})['’\"”」](?![A-Za-z])")
_EN_HIRING = re.compile(
    r"(?:^|[.!?][^\S\n]+)((?:[A-Z][\w&.\-]*|\d+\w*)(?:[^\S\n]+(?:[A-Z][\w&.\-]*|&|of|and))*)"
    r"(?:[^\S\n]*\([^()\n]{0,60}\))?"  # "Sky Mobility (Series C, founded 2016) is hiring"
    r"[^\S\n]+(?:is|are)[^\S\n]+(?:now[^\S\n]+)?"
    r"(?:hiring|looking\s+for|recruiting|seeking|searching\s+for)\b",
    re.MULTILINE,
)
_EN_WE_ARE = re.compile(r"\bWe(?:'re|’re|\s+are)\s+([A-Z][\w&.\-]*(?:\s+[A-Z][\w&.\-]*){0,3})\s*,")
# "Kestrel, a Series B logistics startup, is hiring …"
_EN_APPOSITION = re.compile(
    r"(?:^|[.!?][^\S\n]+)([A-Z][\w&.\-]*(?:[^\S\n]+[A-Z][\w&.\-]*){0,3}),[^\S\n]+an?[^\S\n]"
    r"[^,\n]{1,60},[^\S\n]+(?:is|are)[^\S\n]+(?:now[^\S\n]+)?(?:hiring|looking|recruiting|seeking)",
    re.MULTILINE,
)
_EN_AT = re.compile(
    r"\b(?:role|position|opening|team|job)\s+at\s+([A-Z][\w&.\-]*(?:\s+[A-Z][\w&.\-]*){0,3})"
)
_EN_JOIN = re.compile(
    r"\bJoin\s+(?:us\s+at\s+|the\s+team\s+at\s+)?([A-Z][\w&.\-]*(?:[^\S\n]+[A-Z][\w&.\-]*){0,3})"
)
# "Polaris Health is a digital health company", "Hexa is an AI startup"
_EN_IS_A = re.compile(
    r"(?:^|[.!?][^\S\n]+)([A-Z][\w&.\-]*(?:[^\S\n]+[A-Z][\w&.\-]*){0,3})[^\S\n]+is[^\S\n]+an?"
    r"[^\S\n][^.\n]{0,60}?\b(?:company|startup|firm|studio|platform|lab|maker|provider)\b",
    re.MULTILINE,
)
# An English signature: "Talent Acquisition, Hexa Systems", "Hexa Systems Recruiting Team"
_EN_SIGNATURE = re.compile(
    r"^(?:(?:Talent(?:\s+Acquisition)?|Recruiting|Recruitment|HR|People)(?:\s+Team)?"
    r"[^\S\n]*[,@|–—-][^\S\n]*([A-Z][\w&.\-]*(?:[^\S\n]+[A-Z][\w&.\-]*){0,3})"
    r"|([A-Z][\w&.\-]*(?:[^\S\n]+[A-Z][\w&.\-]*){0,3})[^\S\n]+(?:Recruiting|Talent|HR|People|Hiring)"
    r"[^\S\n]+Team)[^\S\n]*$",
    re.MULTILINE,
)
_OUR_TEAM = re.compile(r"저희\s+(.{1,30}?)\s*(?:팀|회사)(?:은|는|에서|의)")
_AT_SIGN = re.compile(r"\s@\s*([^\s/|,()]+(?:\s+[^\s/|,()]+){0,2})\s*$", re.MULTILINE)
_SIGNATURE = re.compile(
    r"^[-–—]*[^\S\n]*(\S.{0,30}?)[^\S\n]*"
    r"(?:채용팀|인사팀|HR팀|채용[^\S\n]*담당자?|(?i:recruiting|talent)[^\S\n]+team)"
    r"[^\S\n]*(?:드림|올림)?[^\S\n]*$",
    re.MULTILINE,
)
_DASH = re.compile(r"\s[—–-]\s")
# "Orbit Pay · Seoul · Full-time": a name, then where and on what terms.
_DOT_LIST = re.compile(r"[^\S\n]+[·•][^\S\n]+")
_PLACE_OR_TERMS = re.compile(
    r"(?i)\s*(?:seoul|busan|pangyo|gangnam|seongsu|incheon|daejeon|daegu|jeju|korea|remote|"
    r"hybrid|on-?site|in-?office|full[- ]?time|part[- ]?time|contract(?:or)?|freelance|"
    r"intern(?:ship)?|permanent|서울|판교|강남|성수|부산|인천|대전|대구|제주|경기|분당|재택|원격|"
    r"하이브리드|상주|정규직|계약직|인턴|프리랜서)\b"
)
# A title's first word that describes the role, not the company ("Backend Engineer …").
_ROLE_MODIFIER = re.compile(
    r"(?i)^(?:back-?end|front-?end|full-?stack|senior|sr\.?|junior|jr\.?|lead|staff|principal|"
    r"software|data|ml|ai|mobile|ios|android|web|cloud|platform|site|security|qa|devops|"
    r"embedded|game|machine|product|ux|ui|server|infra(?:structure)?|systems?|network|"
    r"research|applied|백엔드|프론트엔드|풀스택|서버|데이터|웹|앱|모바일|게임|보안|인프라|"
    r"클라우드|시니어|주니어|신입|경력|인턴)$"
)
_PIPE = re.compile(r"\s[|｜]\s")
_DESCRIPTOR_HEAD = re.compile(
    r"^(?:[가-힣A-Za-z]+\s+)?(?:기업|회사|스타트업|(?i:startup|company))\s+(?=\S)"
)
_DESCRIPTOR_END = re.compile(r"(?:기업|회사|스타트업|플랫폼|업체|브랜드|(?i:startup|company))\s+")
_CORP_PREFIX = re.compile(r"(?:\(주\)|㈜|주식회사)[^\S\n]*([가-힣A-Za-z0-9&.\-]{1,30})")
_CORP_SUFFIX = re.compile(r"([가-힣A-Za-z0-9&.\-]{1,30})[^\S\n]*(?:\(주\)|㈜|주식회사)")
_CORP_LATIN = re.compile(
    r"\b([A-Z][\w&\-]*(?:[^\S\n]+[A-Z][\w&\-]*){0,3}),?[^\S\n]+(?:Inc|Corp|Ltd|LLC|GmbH)\b"
)
# "[페어웨이] 백엔드 개발자" anywhere in a line (a company line after the schedule).
_BRACKET_ROLE = re.compile(r"[\[【『「]\s*([^\]】』」\n]{1,30}?)\s*[\]】』」]\s*([^\n\[【]{2,60})")
_TITLE_HEAD = re.compile(
    r"^(?:(?:20\d{2}년?|상반기|하반기|신입(?:사원)?|경력(?:직|사원)?|인턴|대졸|수시|공개)\s+)+"
)
_TITLE_TAIL = re.compile(
    r"(?:\s*(?:채용\s*공고|채용\s*일정|채용\s*안내|채용|모집|공고|구인|공개|수시|공채|신입|경력직?|"
    r"(?i:hiring|opening)|\([^)]*\)?|（[^）]*）?))+\s*$"
)
_SENTENCE_ROLE = re.compile(
    r"([^\s'‘’\"“”]+(?:[^\S\n]+[^\s'‘’\"“”]+){0,4}?)[^\S\n]*(?:를|을)[^\S\n]*"
    r"(?:채용합니다|찾습니다|모십니다|모집합니다|찾고\s*있|채용하고|구합니다)"
)
_EN_WORD = r"(?:[A-Z0-9]|[a-z](?=[A-Z]))[\w+#/-]*(?:\.\w[\w+#/-]*)*"  # "Node.js", not "Scientist."
_EN_ROLE = re.compile(
    r"\b(?:hiring|looking\s+for|seeking|recruiting|as)\s+(?:an?\s+|the\s+|our\s+(?:next|first)\s+)?"
    r"((?:" + _EN_WORD + r"[^\S\n]+){0,5}" + _EN_WORD + ")"
)
_EN_ROLE_AT = re.compile(
    r"\bthe\s+((?:" + _EN_WORD + r"[^\S\n]+){0,5}" + _EN_WORD + r")\s+(?:role|position|opening)\b"
)
# "Senior Backend Engineer at Northstar Robotics", "Data Engineer @ Bluefin"
_EN_TITLE_AT = re.compile(
    r"^(.{2,60}?)[^\S\n]+(?:at|@)[^\S\n]+([A-Z][\w&\-]*(?:[^\S\n]+[A-Z][\w&\-]*){0,3})"
    r"[^\S\n]*(?:\(.*\))?$"
)
_KO_POSITION_WORD = re.compile(r"^((?:\S+[^\S\n]+){0,3}\S+?)[^\S\n]*포지션", re.MULTILINE)
# A word that ends a Korean modifier or carries a particle: not part of a role's name.
_NAME = r"([가-힣A-Za-z0-9&.\-]{2,20}(?:[^\S\n][A-Z][A-Za-z0-9&.\-]*)?)"
# "보안 전문 기업 시큐어랩에서", "핀테크 스타트업 페이노트가": a name after a descriptor.
_DESCRIBED = re.compile(
    r"(?:기업|회사|스타트업|플랫폼|업체|기관|브랜드|그룹)[^\S\n]+"
    + _NAME
    + r"(?:에서|이|가|은|는|의)\s"
)
# "토스에서 백엔드 개발자를 모십니다": a title sentence that starts with the name.
_KO_HIRING = re.compile(
    r"^" + _NAME + r"(?:에서|이|가|은|는)[^\S\n].{0,60}(?:채용|모집|모십니다|찾습니다|찾고)",
    re.MULTILINE,
)
# "안녕하세요, 오로라소프트 인사팀입니다."
_GREETING = re.compile(
    r"(?:^|[,.][^\S\n]*)" + _NAME + r"[^\S\n]*(?:채용팀|인사팀|HR팀|채용[^\S\n]*담당자?)"
    r"(?:입니다|에서|의)",
    re.MULTILINE,
)
_GENERIC_BRACKET = re.compile(
    r"^[^\w\[【『「<(]*[\[【『「<]\s*(?:채용|모집|공고|채용\s*공고|공지|안내|신입|경력|인턴|"
    r"정규직|계약직|공채|수시|급구|긴급|HOT|NEW|D-\d+|(?i:hiring|job))\s*[\]】』」>]\s*"
)
_HEADINGS = {re.sub(r"\s", "", h).lower() for k, v in POSTING_HEADINGS.items() for h in (k, *v)}
_HEADING_WORDS = re.compile(
    r"강점|약점|요약|소개|요건|우대|혜택|복지|안내|유의|참고|문의|일정|절차"
)
_HIRING_WORD = re.compile(r"채용|모집|구인|공채|(?i:hiring)")
_STAGE_WORD = re.compile(r"서류|면접|코딩|지원|접수|마감|전형|일정|모집|채용|공고")
_PRONOUN = re.compile(
    r"(?i)^(?:we|our(?:\s+\w+)?|they|i|this|the\s+team|it|저희|우리|당사|지금|현재|함께|본사)$"
)
_NOT_ROLE_WORD = re.compile(
    r"(?:이|가|은|는|의|에서|할|한|하는|있는|될|와|과|를|을|신|운|던|된|[.!?])$|['’\"”]"
)


@dataclass(frozen=True)
class Header:
    company: str | None
    position: str | None
    company_absent: bool = False  # the text says the company is not named ("our client")


def clean_company(value: str | None) -> str | None:
    """A company name without its legal form, quotes, team words and outer spaces."""
    if not value:
        return None
    value = _LEGAL.sub(" ", value)
    value = value.strip().strip(_QUOTES).strip()
    value = _TEAM_WORDS.sub("", value)
    value = _DESCRIPTOR_HEAD.sub("", value) or value  # "스타트업 미래로" -> "미래로"
    while _LEGAL_LATIN.search(value):  # "Acme Co., Ltd."
        value = _LEGAL_LATIN.sub("", value)
    value = value.strip(" ,.-·:：" + _QUOTES)
    value = " ".join(re.split(r"(?<=[a-z])\.\s", value)[0].split())  # "Bluefin. We'd …"
    if not value or len(value) > 40 or not re.search(r"[가-힣A-Za-z]", value):
        return None
    return value


def clean_position(value: str | None) -> str | None:
    if not value:
        return None
    value = re.split(r"\s[/|｜]\s", value)[0]
    value = _TITLE_TAIL.sub("", value.strip())
    value = _TITLE_HEAD.sub("", value).strip(" -·:：,." + _QUOTES)
    value = " ".join(value.split())
    return value if 1 < len(value) <= 60 and re.search(r"[가-힣A-Za-z]", value) else None


def _is_generic(part: str) -> bool:
    return bool(_GENERIC_PART.match(part.strip(_QUOTES + " ")))


def _is_heading(part: str) -> bool:
    """A section heading or a stage ("[자격요건]", "[접수 기간]", "[강점]") is no company."""
    key = re.sub(r"\s", "", part).lower()
    if key in _HEADINGS or _HEADING_WORDS.search(key):
        return True
    return names_a_stage(part)


def _is_role(part: str) -> bool:
    return bool(ROLE.search(part)) and not _LEGAL.search(part)


def _named_in(part: str) -> str | None:
    """A company in one part of a title: its legal-form name, a quoted name, or the part
    without a leading descriptor ("스마트팩토리 솔루션 기업 ㈜제이앤코", "'핏메이트'")."""
    corp = _corp(part)
    if corp:
        return corp
    quoted = _QUOTED.search(part)
    if quoted:
        return clean_company(quoted.group(1))
    descriptor = list(_DESCRIPTOR_END.finditer(part))
    if descriptor:
        part = part[descriptor[-1].end() :]
    return clean_company(_TITLE_TAIL.sub("", part))


def _corp(text: str) -> str | None:
    """The name a legal form marks: "(주)한결시스템", "㈜제이앤코", "도담 주식회사"."""
    corp = _CORP_PREFIX.search(text) or _CORP_SUFFIX.search(text) or _CORP_LATIN.search(text)
    return clean_company(corp.group(1)) if corp else None


def _bracket_role(text: str) -> tuple[str, str] | None:
    """A bracketed name and a role anywhere in a line ("… 25일입니다. [페어웨이] 백엔드 개발자")."""
    for m in _BRACKET_ROLE.finditer(text):
        name, role = m.group(1), m.group(2)
        if not (_is_generic(name) or _is_heading(name) or _is_role(name)) and _is_role(role):
            return m.group(1), m.group(2)
    return None


def _bracket(line: str) -> tuple[str, str] | None:
    m = _BRACKET.match(line)
    if not m:
        return None
    inside = m.group(1)
    if re.search(r"채용|모집|공채|공고|상반기|하반기|20\d{2}", inside):
        inside = _title_word(inside + " 채용") or ""  # "<하나데이터 2026 하반기 경력 채용>"
    if (
        not inside
        or _is_generic(inside)
        or _is_heading(inside)
        or re.search(r"\d{1,2}\s*[./월]\s*\d", inside)
    ):
        return None
    return inside, m.group(2)


def find_company(text: str, lines: list[str]) -> tuple[str | None, bool]:
    """(company, absent): the company in the most explicit form the text uses; a name that
    says it is withheld ("고객사 비공개 (…)", "Confidential") is none."""
    company, absent = _find_company(text, lines)
    if company and (_NO_NAME.search(company) or _NO_COMPANY.search(company)):
        return None, True
    if any(_WITHHELD.search(line) for line in lines[:3]):
        return None, True  # "[헤드헌팅] 국내 대형 유통그룹 (고객사명 비공개)"
    return company, absent


def _find_company(text: str, lines: list[str]) -> tuple[str | None, bool]:
    labelled = _LABEL_COMPANY.search(text) or _LABEL_COMPANY_ABOVE.search(text)
    if labelled:
        value = re.split(r"(?<=\S)\s*\((?!주\))", _label_value(labelled))[0]
        if _NO_COMPANY.search(value) or _NO_NAME.search(value):
            return None, True
        return clean_company(value), False
    first = lines[0] if lines else ""
    bracket = _bracket(first)
    if bracket:
        return clean_company(bracket[0]), False
    first = _GENERIC_BRACKET.sub("", first).strip()  # "[채용] …": the title after it
    parts = [p for p in _PIPE.split(first) if not _is_generic(p)]
    if len(_PIPE.split(first)) > 1 and parts:
        named = [p for p in parts if not _is_role(p)]
        if named:
            return clean_company(named[0]), False
    if _NO_COMPANY.search(text):
        return None, True
    titled = _EN_TITLE_AT.match(first)
    if titled and _is_role(titled.group(1)):
        return clean_company(titled.group(2)), False
    head = "\n".join([first, *lines[1:3]])
    for line in head.splitlines():
        quoted = _QUOTED.search(line)
        if quoted and not _is_role(quoted.group(1)) and not _is_generic(quoted.group(1)):
            return clean_company(quoted.group(1)), False
    for pattern in (_EN_WE_ARE, _EN_HIRING, _EN_APPOSITION, _EN_AT, _EN_JOIN, _EN_IS_A):
        m = pattern.search(head)
        if m and not _is_role(m.group(1)) and not _PRONOUN.match(m.group(1)):
            return clean_company(m.group(1)), False
    for line in head.splitlines():
        listed = _listed_name(line)
        if listed:
            return listed, False
    if _DASH.search(first):
        sides = _DASH.split(first, maxsplit=1)
        named = [s for s in sides if not _is_role(s) or _LEGAL.search(s)]
        if named:
            return _named_in(named[0]), False
    corp = _corp(text)
    if corp:
        return corp, False
    for pattern in (_DESCRIBED, _OUR_TEAM, _AT_SIGN, _KO_HIRING, _GREETING):
        m = pattern.search(head if pattern in (_DESCRIBED, _KO_HIRING) else text)
        if m and not _PRONOUN.match(m.group(1)) and not _is_role(m.group(1)):
            return clean_company(m.group(1)), False
    anywhere = _bracket_role(text)
    if anywhere:
        return clean_company(anywhere[0]), False
    signature = _SIGNATURE.search(text)
    if signature:
        return clean_company(signature.group(1)), False
    signature = _EN_SIGNATURE.search(text)
    if signature:
        return clean_company(signature.group(1) or signature.group(2)), False
    if len(lines) > 1:  # a title line placed after the schedule
        last = _last_line_title(lines[-1])
        if last:
            return last, False
    return _title_word(first), False


def _listed_name(line: str) -> str | None:
    """The name before a place or terms of work: "Orbit Pay · Seoul · Full-time"."""
    parts = _DOT_LIST.split(line)
    if len(parts) < 2 or not all(_PLACE_OR_TERMS.match(p) for p in parts[1:]):
        return None
    name = parts[0].strip()
    if _is_role(name) or _is_generic(name) or _is_heading(name):
        return None
    return clean_company(name)


def _last_line_title(line: str) -> str | None:
    """The company of a short "회사 | 직무" / "Company — Role" / "Role at Company" line."""
    if len(line) > 80 or re.search(r"\d{1,2}\s*[./월]\s*\d", line):
        return None
    titled = _EN_TITLE_AT.match(line)
    if titled and _is_role(titled.group(1)):
        return clean_company(titled.group(2))
    for separator in (_PIPE, _DASH):
        sides = [p for p in separator.split(line) if not _is_generic(p)]
        if len(sides) > 1 and any(_is_role(p) for p in sides):
            named = [p for p in sides if not _is_role(p) or _LEGAL.search(p)]
            if named:
                return _named_in(named[0])
    return None


def _title_word(first: str) -> str | None:
    """The leading word of a hiring title ("SK하이닉스 반도체 … 채용"; two Latin words: "LG
    CNS"), when the rest of the line speaks of a role or a hiring."""
    words = first.split()
    if len(words) < 2 or _is_role(words[0]) or re.match(r"\d|[^\w]", words[0]):
        return None
    if _ROLE_MODIFIER.match(words[0].rstrip(",")):  # "Backend Engineer, Payments (Go)"
        return None
    if len(first) > 60 or re.search(r"다[.!]?$|니다|[.!?]\s", first) or _STAGE_WORD.match(words[0]):
        return None  # a sentence, or a line that starts with a stage, is no title
    if not re.search(r"채용|모집|공채|(?i:hiring)", first) and not _is_role(" ".join(words[1:])):
        return None
    take = (
        2 if re.fullmatch(r"[A-Za-z]+", words[0]) and re.fullmatch(r"[A-Z]+[a-z]*", words[1]) else 1
    )
    return clean_company(re.sub(r"\(.*?\)", "", " ".join(words[:take])))


def _role_of(part: str) -> str | None:
    """The role a title part or sentence names: "함께 성장할 DevOps 엔지니어를 찾습니다" ->
    "DevOps 엔지니어"; words with a particle or a modifier ending are not the role's."""
    sentence = _SENTENCE_ROLE.search(part)
    if sentence:
        words = sentence.group(1).split()
        cut = [i for i, w in enumerate(words[:-1]) if _NOT_ROLE_WORD.search(w)]
        part = " ".join(words[cut[-1] + 1 :] if cut else words)
    return clean_position(part) if _is_role(part) else None


def _after_company(first: str, company: str | None) -> str | None:
    """A title that names the company: the role after it ("(주)한결시스템 인프라 엔지니어
    채용", "스타트업 '타다닥' 백엔드 개발자"), or a role in its closing parenthesis ("LG전자 …
    채용 (SW 개발)")."""
    if not company:
        return None
    line = _LEGAL.sub(" ", first).strip()
    at = line.find(company)
    if at < 0:
        return None
    rest = line[at + len(company) :].lstrip(_QUOTES + " ")  # "스타트업 '타다닥' 백엔드 개발자"
    rest = re.sub(r"^(?:이|가|에서|의|은|는)\s", "", rest)
    rest = re.sub(r"^\s*[(（][^)）]*[)）]", "", rest)
    closing = re.search(r"[(（]([^)）]{2,30})[)）]\s*$", rest)
    if closing and _is_role(closing.group(1)) and not _is_role(rest[: closing.start()]):
        return clean_position(closing.group(1))
    rest = re.split(r"\s(?:20\d{2}|상반기|하반기)", rest)[0]
    return clean_position(rest) if _is_role(rest) else None


def find_position(text: str, lines: list[str], company: str | None) -> str | None:
    labelled = _LABEL_POSITION.search(text)
    if labelled:
        found = clean_position(re.split(r"\s@\s", _label_value(labelled))[0])
        if found:
            return found
    first = _GENERIC_BRACKET.sub("", lines[0]).strip() if lines else ""
    bracket = _bracket(first)
    title = bracket[1] if bracket else first
    for separator in (_PIPE, _DASH):
        parts = separator.split(title)
        if len(parts) > 1:
            for part in parts:
                role = None if _is_generic(part) else _role_of(part)
                if role:
                    return role
    titled = _EN_TITLE_AT.match(first)
    if titled and _is_role(titled.group(1)):
        return clean_position(titled.group(1))
    head = "\n".join(lines[:3])
    for pattern in (_EN_ROLE_AT, _EN_ROLE):
        m = pattern.search(head)
        if m and _is_role(m.group(1)):
            return clean_position(m.group(1))
    for line in lines[:3]:
        role = _role_of(line) if _SENTENCE_ROLE.search(line) else None
        if role:
            return role
    if bracket and (_is_role(title) or _HIRING_WORD.search(title)) and not _is_generic(title):
        return clean_position(title)  # "[카카오] 백엔드 채용": what the title hires
    anywhere = _bracket_role(text)
    if anywhere:
        return clean_position(anywhere[1])
    named = _KO_POSITION_WORD.search(text)
    if named:
        words = named.group(1).split()
        cut = [i for i, w in enumerate(words[:-1]) if _NOT_ROLE_WORD.search(w)]
        words = words[cut[-1] + 1 :] if cut else words
        if company and words and company in words[0]:
            words = words[1:]
        if words and _is_role(" ".join(words)):
            return clean_position(" ".join(words))
    found = _after_company(first, company)
    if found is None and len(lines) > 1 and company and company in lines[-1]:
        for separator in (_PIPE, _DASH):  # "Meridian Cloud, Inc. — Platform Engineer" last
            parts = separator.split(lines[-1])
            roles = [p for p in parts if _is_role(p) and company not in p]
            if len(parts) > 1 and roles:
                return clean_position(roles[0])
    return found


HEADER_LINE_CHARS = 500  # a name is near a line's start: long lines are read in part


def _header_lines(text: str) -> tuple[str, list[str]]:
    lines = [ln.strip()[:HEADER_LINE_CHARS] for ln in text.splitlines() if ln.strip()]
    return "\n".join(lines), lines


def find_header(text: str) -> Header:
    """Company and position of a posting (see the module docstring)."""
    bounded, lines = _header_lines(text)
    company, absent = find_company(bounded, lines)
    return Header(company, find_position(bounded, lines, company), absent)


def company_of(text: str) -> str | None:
    """The company a posting names, or None (also when it says it does not name one)."""
    bounded, lines = _header_lines(text)
    return find_company(bounded, lines)[0]
