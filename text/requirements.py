"""A posting's requirement lines, for every job family: `{text, kind, type}` each.

A requirement is whatever the posting asks of a candidate, not only a skill the taxonomy
names: "K-IFRS 기준 월·분기 결산 경험", "커머스 경력 3년 이상", "TOEIC 800점 이상",
"KICPA 소지자", "원활한 커뮤니케이션 능력". Lines come from the requirement sections
(자격요건/우대사항 and every heading the section finder knows, Korean or English); a posting
with no such heading is read for requirement-shaped lines anywhere outside its company
introduction, benefits and process. Bullets, table rows (`|` or tabs) and prose are split
into one requirement per bullet, row or sentence.

kind: the section (우대사항 -> preferred), overridden by the line itself ("(우대)", "plus",
"있으면 좋아요" -> preferred; "(필수)" -> required).
type: years | language | credential | skill | domain | duty, from the words of the line
(years and language scores are checked as numbers later; see text/careers.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from prompts import escape_data
from text.clauses import sentences
from text.korean_text import kiwi
from text.sections import heading_of, section_named_in
from text.skills import taxonomy

Kind = Literal["required", "preferred"]
ReqType = Literal["skill", "years", "domain", "credential", "language", "duty"]

MAX_REQUIREMENTS = 30
MAX_CHARS = 200

# Bullets and enumerators, Korean notices' 가. 나. 다. and 가) among them.
_BULLET = re.compile(
    r"^\s*(?:[-–—•·ㆍ*▶▷►■□●○◆◇※✔✓☑✅>+]+|\(?\d{1,2}[.)]|[①-⑳]|[a-z][.)]|"
    r"\(?[가나다라마바사아자차카타파하][.)](?=\s))\s*"
)
_EMOJI = re.compile("[\U0001f300-\U0001faff\u2600-\u27bf\ufe0f]")
_PREFERRED = re.compile(
    r"우대|플러스|가산점|선호|있으면\s*좋|있다면\s*(?:더\s*)?좋|환영|nice\s*to\s*have|\bplus\b|"
    r"preferred|bonus|a\s+plus|desirable",
    re.IGNORECASE,
)
_REQUIRED_MARK = re.compile(
    r"[(\[]\s*필수\s*[)\]]|^필수\s*[:|]|\brequired\b|\bmust\b", re.IGNORECASE
)
_KIND_CELL = re.compile(r"^(필수|우대|required|preferred|plus|must|nice\s*to\s*have)$", re.I)

YEARS = re.compile(
    r"(?<![\d.])(\d{1,2})\s*(?:~\s*\d{1,2}\s*)?(?:년(?!\s*제)|年|\+?\s*years?|\+?\s*yrs?)\s*(?:이상|↑|\+|차|over|or\s+more)?"
    r"|경력\s*(\d{1,2})\s*년|(신입|경력\s*무관|경력무관|new\s*grad)",
    re.IGNORECASE,
)
LANGUAGE = re.compile(
    r"TOEIC|TOEFL|TEPS|OPIc|IELTS|JLPT|JPT|HSK|토익|토플|텝스|오픽|어학|영어|일본어|중국어|외국어|"
    r"English|Japanese|Chinese|bilingual|fluent",
    re.IGNORECASE,
)
CREDENTIAL = re.compile(
    r"자격증|자격\s*소지|소지자|면허|기사|산업기사|회계사|세무사|노무사|관세사|감정평가사|"
    r"\bKICPA\b|\bAICPA\b|\bUSCPA\b|\bCFA\b|\bFRM\b|\bPMP\b|컴퓨터활용능력|전산회계|전산세무|"
    r"재경관리사|회계관리|정보관리사|학사|석사|박사|학위|졸업|전공|학력|대졸|고졸|전문학사|"
    r"degree|bachelor|master'?s|"
    r"\bPh\.?D\b|\bBS\b|\bBA\b|\bMBA\b|certif|licen[cs]e",
    re.IGNORECASE,
)
DOMAIN = re.compile(
    r"업계|산업|도메인|업종|분야\s*(?:경력|경험)|industry|domain|sector|"
    r"(?:커머스|이커머스|핀테크|금융|제조|물류|유통|게임|헬스케어|의료|병원|스타트업|에이전시|"
    r"B2B|B2C|SaaS|플랫폼|공공|외국계|대기업|상장사)\s*(?:회사|기업|업체|업계|산업)?\s*(?:경력|경험|근무)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class PostingRequirement:
    text: str
    kind: Kind
    type: ReqType
    # The taxonomy's requirement groups in this line (alternatives: "Kotlin 또는 Java").
    skill_groups: list[list[str]] = field(default_factory=list)


def requirement_type(text: str, skill_groups: list[list[str]]) -> ReqType:
    if YEARS.search(text):
        return "years"
    if LANGUAGE.search(text):
        return "language"
    if CREDENTIAL.search(text):
        return "credential"
    if DOMAIN.search(text):
        return "domain"
    if skill_groups:
        return "skill"
    return "duty"


def _kind(text: str, section_kind: Kind) -> Kind:
    if _REQUIRED_MARK.search(text):
        return "required"
    if _PREFERRED.search(text):
        return "preferred"
    return section_kind


def _units(body: str) -> list[tuple[str, Kind | None]]:
    """One (text, kind marked in the row) per bullet, table row or sentence of a section."""
    out: list[tuple[str, Kind | None]] = []
    for raw in body.splitlines():
        line = _EMOJI.sub("", raw).strip()
        if not line:
            continue
        cells = [c.strip() for c in re.split(r"\s*[|｜\t]\s*", line) if c.strip()]
        if len(cells) > 1:  # a table row: kind cells mark the row, the rest is the text
            marked: Kind | None = None
            texts = []
            for cell in cells:
                m = _KIND_CELL.match(_BULLET.sub("", cell))
                if m:
                    word = m.group(1).casefold()
                    marked = "required" if word in ("필수", "required", "must") else "preferred"
                elif not re.fullmatch(r"[-–—구분항목내용요건]+|no\.?|\d+", cell, re.I):
                    texts.append(_BULLET.sub("", cell))
            if texts:
                out += [(part, marked) for part in _slash_list(" ".join(texts))]
            continue
        line = _BULLET.sub("", line).strip()
        # prose: one requirement per sentence ("…하신 분. …있는 분이면 좋아요.")
        parts = sentences(line) if len(line) > 90 else [line]
        out += [(p, None) for part in parts for p in _slash_list(part)]
    return out


def _slash_list(text: str) -> list[str]:
    """Requirements listed in one cell or line with spaced slashes ("회계 실무 경력 5년 이상 /
    상경계열 학사 이상 / K-IFRS 기반 결산 경험"): one each, when there are three or more and
    every part is a phrase of its own. Two parts are mostly one requirement in the labelled
    splits ("디자인 시스템 / Storybook 구축 경험", "헬스케어 / 피트니스 도메인"), as are
    "Java / Kotlin 가능자" and "결산/공시"."""
    parts = [p.strip() for p in re.split(r"\s+/\s+", text)]
    if len(parts) >= 3 and all(len(p.split()) >= 2 for p in parts):
        return parts
    return [text]


def _clean(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip(" -–—:;,./|｜")[:MAX_CHARS]


# A short line without a bullet that announces requirements or pluses in a job site's
# friendly style ("이런 분을 찾고 있어요", "이런 경험이 있다면 더 반가워요", "Bonus points").
_SOFT_REQUIRED = re.compile(
    r"찾(?:아요|습니다|고\s*있어요|고\s*있습니다)|함께하고\s*싶|이런\s*분|필요해요|필요합니다|"
    r"필요한\s*(?:역량|경험)|자격|갖춘\s*분|looking\s+for|you\s+have|you\s+bring",
    re.IGNORECASE,
)
_SOFT_PREFERRED = re.compile(
    r"우대|반가워요|반갑습니다|더\s*좋(?:아요|습니다|겠|은)|플러스|가산|bonus|nice\s*to|"
    r"preferred|a\s+plus",
    re.IGNORECASE,
)
# A requirement addressed to a person: "…하신 분", "…있는 분", "…가능자", "…소지자".
_PERSON = re.compile(
    r"[은는인한된던할신운]\s*분(?:[을이께과도만]|\s|$|[.!,)])|"
    r"(?:가능|소지|경험|우대|이수|수료|졸업|합격|취득|보유|전공|능통|숙련|능숙)자"
)
_STRONG_SHAPE = re.compile(
    r"경험|경력|역량|능력|자격|우대|필수|이상|전공|학위|소지|보유|능숙|이해|지식|"
    r"experience|years?|proficien|degree|familiar|knowledge|ability|skills?",
    re.IGNORECASE,
)
# Words of a requirement line that names no skill ("Comfortable with ambiguity", "꼼꼼함").
_ASKS = re.compile(
    r"능숙|익숙|가능|할\s*수\s*있|해\s*본|해본|[해아어여]\s*보았|[가-힣]\s*보(?:셨|신|셔)|갖춘|있는|있으신|하신|"
    r"보유|숙지|이수|주도|설계|운영|관리|분석|기획|background|"
    r"comfortable|hands[-\s]on|strong|solid|proven|track\s+record|able|fluent|excellent|"
    r"ownership|passion|detail|communicat|collaborat|lead",
    re.IGNORECASE,
)
# Clauses of one prose sentence that ask for two things ("…3년 이상이고, 그중 …해 본 분").
# and one that lists people ("…해 보신 분, …뽑아 보신 분, 그리고 …할 수 있는 분이라면").
_CLAUSE = re.compile(
    r"(?:(?<=[고며면나])|(?<=[은는인한된던할신운]\s분)|(?<=[은는인한된던할신운]분)|(?<=가능자|소지자|경험자))"
    r"\s*,\s+(?:그리고\s+|또는\s+|and\s+)?"
)


def _addresses_person(text: str) -> bool:
    """ "…지키실 분", "…맡으실 분", "함께 성장할 분": the bound noun 분 after an adnominal
    ending (Kiwi), whatever the verb before it."""
    if "분" not in text:
        return False
    tokens = kiwi().tokenize(text)
    return any(
        t.form == "분" and t.tag == "NNB" and i > 0 and tokens[i - 1].tag == "ETM"
        for i, t in enumerate(tokens)
    )


def _is_bulleted(raw: str) -> bool:
    return bool(_BULLET.match(raw)) and bool(_BULLET.sub("", raw).strip())


# A heading pointing at what follows: "이런 경험이 있다면 더 좋아요", "다음과 같은 분이면
# 더 좋아요".
_POINTS_AHEAD = re.compile(r"^(?:이런|이러한|다음과\s*같은|아래와\s*같은)\s")


def _soft_heading(line: str) -> Kind | None:
    """The kind a short friendly heading announces, or None when it is not one."""
    if len(line) > 32 or line.endswith((".", ":", ",")):
        return None
    if _SOFT_PREFERRED.search(line) and (
        not _STRONG_SHAPE.search(_SOFT_PREFERRED.sub("", line)) or _POINTS_AHEAD.match(line)
    ):
        return "preferred"
    if _SOFT_REQUIRED.search(line) and len(line) <= 24:
        return "required"
    return None


def _clauses(text: str) -> list[str]:
    parts = [p.strip() for p in _CLAUSE.split(text)]
    if len(parts) > 1 and all(len(p) >= 10 for p in parts):
        return parts
    return [text]


# Job sites' summary fields: "경력 : 5년↑     학력 : 대졸 이상", "| 학력 | 초대졸 이상 |",
# "어학\tTOEIC 700". A field whose label asks something of a candidate is a requirement
# wherever it stands (above the sections, in a 모집요강 table); the other fields (근무형태,
# 급여, 근무지) are not.
_FIELD_LABELS = {
    "경력": "경력",
    "경력사항": "경력",
    "경력조건": "경력",
    "경력구분": "경력",
    "학력": "학력",
    "학력사항": "학력",
    "학력조건": "학력",
    "최종학력": "학력",
    "전공": "전공",
    "자격증": "자격증",
    "필요자격증": "자격증",
    "우대자격": "",
    "우대자격증": "",
    "우대경험": "",
    "우대조건": "",
    "기타우대": "",
    "어학": "어학",
    "외국어": "어학",
    "어학능력": "어학",
    "사용프로그램": "",
    "experience": "",
    "education": "",
    "degree": "",
    "languages": "",
    "language": "",
    "certifications": "",
}
_FIELD_SEP = re.compile(r"\s*[:：|｜\t]\s*")
_FIELD_RUN = re.compile(r"\s{3,}|\t(?=[^\t]{1,12}\s*[:：])")
# A field value that asks nothing ("무관", "불문", "신입 가능"): no requirement.
_NOTHING_ASKED = re.compile(
    r"^(?:[^/]*\s)?(?:무관|불문|제한\s*없음|없음|신입(?:\s*가능)?|누구나|any)$", re.IGNORECASE
)


def qualification_fields(line: str) -> list[tuple[str, Kind]]:
    """The requirements a summary-field line states: ("경력 5년↑", required) for
    "경력 : 경력 5년↑     근무형태 : 정규직"; none when no field asks anything of a person."""
    out: list[tuple[str, Kind]] = []
    for segment in _FIELD_RUN.split(line.strip().strip("|｜").strip()):
        cells = [c.strip() for c in _FIELD_SEP.split(segment.strip().strip("|｜")) if c.strip()]
        if len(cells) < 2:
            continue
        key = re.sub(r"[^0-9a-z가-힣]", "", cells[0].casefold())
        if key not in _FIELD_LABELS or heading_of(cells[0], "posting") is not None:
            continue
        value = " ".join(cells[1:])
        if _NOTHING_ASKED.match(value.strip()):
            continue
        label = _FIELD_LABELS[key]
        text = value if not label or label in value else f"{label} {value}"
        preferred = _PREFERRED.search(cells[0]) or _PREFERRED.search(value)
        kind: Kind = "preferred" if preferred else "required"
        out.append((text, kind))
    return out


_CELL_SEP = re.compile(r"\s*[|｜\t]\s*")
_RULE = re.compile(r"^[\s|｜:\-–—=+]+$")


def _column_kind(cell: str) -> Kind | None:
    known = heading_of(cell, "posting")
    if known is None or known[1]:
        return None
    return "required" if known[0] == "자격요건" else "preferred" if known[0] == "우대사항" else None


def column_tables(posting_text: str) -> tuple[list[tuple[str, Kind]], set[int]]:
    """Requirements in the columns of a job site's table pasted as text, whose cells run
    over several lines ("모집부문 | 담당업무 | 자격요건 | 근무지" and below it "재무회계 | - 월
    결산", " - 외부감사 대응 | ㆍ4년제 대학 졸업", " ㆍ재무회계 경력 5년↑", …): every separator
    moves to the next column, a line starting at the margin after the last column starts a
    new row. Returns the (line, kind) of the requirement columns and the indexes of the
    lines the tables take. Tables whose rows are one line each are left to the line reader."""
    lines = posting_text.splitlines()
    out: list[tuple[str, Kind]] = []
    taken: set[int] = set()
    i = 0
    while i < len(lines):
        header = [c for c in _CELL_SEP.split(lines[i].strip().strip("|｜")) if c]
        kinds = [_column_kind(c) for c in header] if len(header) >= 3 else []
        if not any(kinds):
            i += 1
            continue
        end = i + 1
        while end < len(lines) and lines[end].strip():
            end += 1
        body = lines[i + 1 : end]
        if all(_CELL_SEP.search(b) or _RULE.match(b) for b in body):
            i += 1  # rows of one line each: the line reader takes them
            continue
        rows: list[list[str]] = []
        row, col = [""] * len(header), 0
        for raw in body:
            if _RULE.match(raw):
                continue
            if col == len(header) - 1 and not raw[:1].isspace():
                rows.append(row)
                row, col = [""] * len(header), 0
            for j, part in enumerate(_CELL_SEP.split(raw.strip().strip("|｜"))):
                if j:
                    col = min(col + 1, len(header) - 1)
                row[col] += "\n" + part
        rows.append(row)
        for cells in rows:
            for cell, kind in zip(cells, kinds, strict=True):
                if kind is not None:
                    out += [(part.strip(), kind) for part in cell.splitlines() if part.strip()]
        taken |= set(range(i, end))
        i = end
    return out, taken


def requirement_blocks(posting_text: str) -> tuple[list[tuple[str, Kind]], bool]:
    """(lines of requirement text with the kind of their block, whether any requirement
    heading was found). A block starts at a requirement heading (known or friendly) and
    ends at any other heading, or at a short unbulleted line after a blank line (an
    unknown heading such as "함께 일하는 방식")."""
    blocks, taken = column_tables(posting_text)
    current: Kind | None = None
    found = bool(blocks)
    blank_before = True
    for index, raw in enumerate(posting_text.splitlines()):
        if index in taken:
            continue
        line = _EMOJI.sub("", raw).strip()
        if not line:
            blank_before = True
            continue
        fields = qualification_fields(line)
        if fields:  # a field row under a 우대사항 heading is preferred whatever its label
            blocks += [(text, "preferred" if current == "preferred" else k) for text, k in fields]
            blank_before = False
            continue
        known = heading_of(line, "posting")
        if known:
            name, rest = known
            current = (
                "required" if name == "자격요건" else "preferred" if name == "우대사항" else None
            )
            found = found or current is not None
            if rest and current:
                blocks.append((rest, current))
        elif (soft := _soft_heading(line)) is not None and not _is_bulleted(raw):
            current, found = soft, True
        elif current is not None and _names_other_section(raw, line):
            current = None  # "이런 혜택이 있어요": a heading of another section ends the block
        elif (
            current is not None
            and blank_before
            and not _is_bulleted(raw)
            and len(line) <= 24
            and not _STRONG_SHAPE.search(line)
            and not taxonomy().spans(line)
        ):
            current = None  # an unknown heading ends the block
        elif current is not None:
            blocks.append((line, current))
        blank_before = False
    return blocks, found


def _names_other_section(raw: str, line: str) -> bool:
    """A short unbulleted line naming a section that asks nothing of a candidate by one of
    its nouns ("이런 혜택이 있어요", "채용 절차는 이렇게 진행돼요")."""
    if _is_bulleted(raw) or _STRONG_SHAPE.search(line):
        return False
    return section_named_in(line, "posting") not in (None, "자격요건", "우대사항")


def _is_statement(text: str) -> bool:
    """A sentence that ends in a final ending with no honorific for its subject ("문서는 노션에
    공개돼요", "We ship weekly.") says something about the company; outside requirement
    headings a tool named in it asks nothing of a candidate. One addressing the candidate
    ("처리해 보셨어야 합니다", "Figma를 다루세요": the honorific -시-) still asks."""
    tokens = [t for t in kiwi().tokenize(text) if t.tag not in _PUNCTUATION]
    honorific = any(
        (t.tag == "EP" and t.form in ("시", "으시"))
        or (t.tag == "EF" and t.form.startswith(("세", "시", "으세", "으시")))
        for t in tokens
    )
    if tokens and tokens[-1].tag == "EF" and not honorific:
        return True
    return bool(_EN_STATEMENT.match(text))


_PUNCTUATION = {"SF", "SP", "SS", "SSO", "SSC", "SE", "SO", "SW"}
# An English sentence about the team: "We ship ...", "Our team uses ...", "The team ...".
_EN_STATEMENT = re.compile(r"^(?:we|our|the\s+team|everyone)\b", re.IGNORECASE)


def extract_requirements(posting_text: str) -> list[PostingRequirement]:
    """Every requirement line of a posting, in its order. Empty when it states none."""
    blocks, found = requirement_blocks(posting_text)
    loose = not found
    if loose:  # no requirement heading: requirement-shaped lines outside the known sections
        skip = {"회사 소개", "전형 절차", "접수 기간", "혜택", "담당업무"}
        blocks = []
        current_ok = True
        for raw in posting_text.splitlines():
            line = _EMOJI.sub("", raw).strip()
            if fields := qualification_fields(line):
                blocks += fields
                continue
            known = heading_of(line, "posting") if line else None
            if known:
                current_ok = known[0] not in skip
                if known[1] and current_ok:
                    blocks.append((known[1], "required"))
                continue
            if line and _names_other_section(raw, line):
                current_ok = section_named_in(line, "posting") not in skip
                continue
            if line and current_ok:
                blocks.append((line, "required"))
    taxa = taxonomy()
    out: list[PostingRequirement] = []
    seen: set[str] = set()
    for body, block_kind in blocks:
        for unit, marked in _units(body):
            # Outside requirement headings a sentence about the company ("모든 결정은 노션에
            # 남기고, 누구나 읽을 수 있어요") asks nothing, nor does any clause of it.
            told = loose and _is_statement(_clean(unit))
            for text in _clauses(_clean(unit)):
                text = _clean(text)
                if len(text) < 2 or text in seen:
                    continue
                if _KIND_CELL.match(text) or re.fullmatch(r"[\W\d]+", text):
                    continue
                if escape_data(unit.strip()) != unit.strip():
                    continue  # a line posing as prompt structure is not a requirement
                # A requirement asks something of a person: a requirement word, a person
                # ("…하신 분"), a skill, years or a test. Other lines (an instruction slipped
                # into the section, a slogan) are not requirements.
                if not (
                    _PERSON.search(text)
                    or _addresses_person(text)
                    or _STRONG_SHAPE.search(text)
                    or YEARS.search(text)
                    or LANGUAGE.search(text)
                    or CREDENTIAL.search(text)
                    or (not loose and _ASKS.search(text))
                    or (taxa.spans(text) and not told and not (loose and _is_statement(text)))
                ):
                    continue
                seen.add(text)
                groups = taxa.groups(text)
                kind = marked or _kind(text, block_kind)
                out.append(PostingRequirement(text, kind, requirement_type(text, groups), groups))
                if len(out) >= MAX_REQUIREMENTS:
                    return out
    return out
