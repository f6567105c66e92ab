"""Korean PII detectors over one line of text, returning character spans of the *values*
(never their labels: in "연락처:010-1234-5678" only the number is PII)."""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass

from text.korean_text import SURNAMES

# A label's colon as OCR reads it: also a full stop, a semicolon or a comma ("Name. 서수아"),
# and on a grainy page a question mark or a star ("Birth? 1989년", "Birth* 93.09.18").
LABEL = r"(?:\s*[:：;.,?*]\s*|\s+)"


@dataclass(frozen=True)
class PiiMatch:
    type: str
    start: int
    end: int
    text: str
    confidence: float


def rrn_checksum_ok(digits: str) -> bool:
    weights = [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5]
    total = sum(int(d) * w for d, w in zip(digits[:12], weights, strict=True))
    return (11 - total % 11) % 10 == int(digits[12])


# Matches start only where a run of their characters starts: a start inside a long run
# ("aaaa...", "1111...", "a-a-a-...") would rescan the run from each position (quadratic).
_EMAIL = re.compile(r"(?<![A-Za-z0-9._%+\-])[A-Za-z0-9._%+\-]+@[A-Za-z0-9.\-]+\.[A-Za-z]{2,}")
# OCR splits an address's local part at a space, leaving a short piece before the "@"
# ("kim.hyerin1 2@icloud.com", "hoon_yoon dev@..."), or reads one of the domain's dots as a
# space before its last part ("@yonsel ac.kr"): both are one address (never a label before it).
_EMAIL_SPLIT = re.compile(
    r"(?<![A-Za-z0-9._%+\-])([A-Za-z0-9._%+\-]+ )?[A-Za-z0-9._%+\-]{1,3}@[a-z0-9\-]+"
    r"(?:\.[a-z0-9\-]+)*(?: (?:ac|co|or|go|ne|re)(?=\.kr))?\.[a-z]{2,}(?![\w.])"
)
# the piece before the space: a local part's (a letter, and a dot, an underscore or a digit
# in it), never a label or a phone number before the address
_LOCAL_PIECE = re.compile(r"(?=.*[A-Za-z])(?=.*[._\d])(?!e-?mail)[A-Za-z0-9._%+\-]+ ", re.I)
_URL = re.compile(
    r"(?:https?://|www\.)[^\s,)]+"
    # "www hoon93 me": the dots read as spaces after a "www"
    r"|(?<![\w.])www [a-z0-9\-]+[ .](?:com|net|org|io|dev|kr|me|page|app|site)(?![\w.])"
    r"|(?<![@\w.])(?<!@ )(?<![a-z0-9.\-]-)(?:[a-z0-9\-]+\.)+"
    r"(?:com|net|org|io|dev|kr|me|co\.kr|page|app|site)(?:/[^\s,)]*)?",
    re.IGNORECASE,
)
# OCR sometimes puts a space inside the birth-date digits ("981 102-2345678").
_RRN = re.compile(r"(?<![\d-])((?:\d ?){5}\d)\s?-\s?([1-8])(\d{6}|\*{6})(?!\d)")
# A masked back half as OCR reads its stars: fewer of them, or as +, x, •, … ("950916-2***…*").
# The stars are distinctive enough that a dropped hyphen does not matter ("861106 2******").
_RRN_MASKED = re.compile(r"(?<![\d-])(\d{6})\s?[-–—]?\s?([1-8])([*＊+xX•●·…]{1,8})")
# A back half OCR could not read at all ("950916-2 차 하차" for "950916-2******"): a dated
# front and the gender digit are enough, with what OCR made of the stars glued to them.
_RRN_FRONT = re.compile(r"(?<![\d-])(\d{6})\s?-\s?([1-8])(?!\d)[^\s\d]{0,7}")
# OCR drops the hyphen: 13 digits count only with a valid date and checksum.
_RRN_BARE = re.compile(r"(?<![\d-])(\d{6})([1-8]\d{6})(?!\d)")
_MOBILE = re.compile(r"(?<![\d\-])(?:\+82[\s\-]?1\d|01[016789])[\s\-.]?\d{3,4}[\s\-.]?\d{4}(?!\d)")
_LANDLINE = re.compile(
    r"(?<![\d\-])(?:\+82[\s\-]?|0)(?:2|[3-6][1-5])[\s\-.)]\s?\d{3,4}[\s\-.]?\d{4}(?!\d)"
)
_BIRTH = re.compile(
    r"(?:생년월일|생일|출생|birth(?:day|date)?)"
    + LABEL
    # a four-digit or a two-digit year ("95.03.14")
    + r"((?:(?:19|20)\d{2}|\d{2})\s*[.\-/년]\s*\d{1,2}\s*[.\-/월]\s*\d{1,2}\s*일?)(?!\d)",
    re.IGNORECASE,
)
_PROVINCE = (
    r"(?:서울|부산|대구|인천|광주|대전|울산|세종|경기|강원|충북|충남|충청북|충청남|전북|전남|"
    r"전라북|전라남|경북|경남|경상북|경상남|제주)"
    r"(?:특별시|광역시|특별자치시|특별자치도|도|시)?"
)
# Spaces are optional between parts: OCR both drops and invents them in Korean lines.
_ADDRESS = re.compile(
    _PROVINCE + r"\s*(?:[가-힣]{1,6}?(?:시|군|구)\s*){1,2}"
    r"(?:(?:[가-힣0-9][가-힣0-9 ]{0,10}?(?:로|길|동|읍|면|리)\s*)+"
    r"(?:\d+(?:-\d+)?(?:번길)?\s*)?(?:\d+(?:-\d+)?)?"
    # OCR may garble the road name: after a labelled province + district, what follows
    # on the line up to a number is taken as the rest of the address.
    r"|[^\s,]{1,12}\s*\d+(?:-\d+)?)?"
    # the flat and the district in brackets belong to it: ", 101동 1203호", "(상암동)"
    r"(?:,?\s?\d{1,4}\s?동\s?\d{1,5}\s?호"
    # the flat as OCR often reads it, 동 and 호 as a digit or an S ("1065 6068", "1115 2209S")
    r"|,\s?\d{2,4}[5S] \d{2,4}[58S]?(?![\w-]))?"
    r"(?:\s?\([가-힣0-9.,\s]{1,12}\))?"
)
# Romanised road addresses: "123 Teheran-ro, Gangnam-gu, Seoul", "45-6 Pangyoyeok-ro 235beon-gil,
# Bundang-gu, Seongnam-si, Gyeonggi-do 13494". A road name (-ro/-gil/-daero) with a building
# number before or after it, then its districts, city, province, country and postcode.
# A part's capital may be read as a small letter ("lisandong-gu" for Ilsandong-gu) and a
# stray mark may sit before its hyphen ("Gwanak~-gu"), and on a noisy page the hyphen may be
# read as a space ("Mapo gu", dev5-03).
_EN_PART = (
    r"(?:[A-Za-z][a-z]+(?:-[a-z]+)?[~.]?-|[A-Z][a-z]+\s)(?:gu|si|gun|dong|eup|myeon|do)(?![\w-])"
)
_EN_CITY = (
    r"(?:Seoul|Busan|Incheon|Daegu|Daejeon|Gwangju|Ulsan|Sejong|Jeju|Gyeonggi|Gangwon|"
    r"Chungbuk|Chungnam|Jeonbuk|Jeonnam|Gyeongbuk|Gyeongnam)(?:-do|-si)?"
)
_ADDRESS_EN = re.compile(
    r"(?<![\w-])(?:\d{1,5}(?:-\d{1,5})?,?\s)?"
    # a road's name may be two or three words ("World Cup buk-ro")
    # (its hyphen may be read as a space: "Olympic ro")
    r"(?:[A-Z][a-z]+\s){0,2}[A-Za-z][a-z]+(?:-[a-z]+)?[-\s](?:ro|gil|daero)(?![\w-])"
    r"(?:\s\d+(?:beon)?-?gil)?(?:\s\d{1,5}(?:-\d{1,5})?)?"
    r"(?:,?\s(?:" + _EN_PART + r"|" + _EN_CITY + r"))*"
    # a city after a district and a comma ("Ilsandong-gu, Goyang")
    r"(?:(?<=[-\s]gu|[-\s]si),\s[A-Z][a-z]{2,}(?:-si)?(?![\w-]))?"
    r"(?:,?\s(?:Republic\sof\s)?Korea)?(?:,?\s\d{5})?(?![\w-])"
)
# When OCR garbles a value after its label ("포트폴리오: 11 05://0141..."), the label still
# says what it is: the rest of the line is taken, with less confidence. The rest is taken
# possessively (its trailing spaces are trimmed with the span): a lazy `.{4,}?\s*$` tries
# `\s*$` from every position of the line (quadratic on a long run of spaces).
_URL_LABELLED = re.compile(
    r"(?:포트폴리오|블로그|깃허브|github|홈페이지|웹사이트|url|링크|blog|portfolio)"
    + LABEL
    + r"(\S.{4,}+)\s*$",
    re.IGNORECASE,
)
_BIRTH_LABELLED = re.compile(
    r"(?:생년월일|생일|birth(?:day|date)?)" + LABEL + r"(\S.{5,}+)\s*$", re.IGNORECASE
)
_NAME_LABELLED = re.compile(
    r"(?:이름|성명|성 명|name)" + LABEL + r"([가-힣]{2,4})(?![가-힣])", re.IGNORECASE
)
_NAME_ALONE = re.compile(r"^\s*([가-힣]{2,4})\s*$")
NOT_NAMES = {
    "이력서",
    "자기소개서",
    "경력기술서",
    "포트폴리오",
    "지원서",
    "경력",
    "학력",
    "기술",
    "소개",
    "프로젝트",
    "자격증",
    "연락처",
    "주소",
    "이메일",
    "성명",
    "이름",
    "경력사항",
    "인적사항",
    "사항",  # of a split heading ("경력 사항")
    # other headings of a resume that start with a surname's syllable (dev5-22: "기술스택")
    "기술스택",
    "기본정보",
    "기본사항",
    "기타",
    "경험",
    "경력요약",
    "주요경력",
    "주요경험",
    "주요성과",
    "주요기술",
    "성과",
    "성격",
    "장점",
    "어학",
    "인턴",
    "연구",
    "연수",
    "지원",
    "지원동기",
    "우대사항",
    "역량",
}


def _spans(
    pattern: re.Pattern[str], text: str, kind: str, confidence: float, group: int = 0
) -> list[PiiMatch]:
    """Each match as the value without its surrounding spaces, and the span of exactly
    that value (a mask box must not reach over the spaces, text[start:end] == text)."""
    found = []
    for m in pattern.finditer(text):
        raw = m.group(group)
        value = raw.strip()
        if value:
            start = m.start(group) + len(raw) - len(raw.lstrip())
            found.append(PiiMatch(kind, start, start + len(value), value, confidence))
    return found


def find_pii(text: str, *, allow_bare_name: bool = False) -> list[PiiMatch]:
    """PII in one line. `allow_bare_name`: a line that is only a Korean name (2-4
    syllables, common surname) counts as a name (used for a resume's header lines)."""
    found: list[PiiMatch] = []
    found += _spans(_EMAIL, text, "email", 0.99)
    found += [
        PiiMatch("email", m.start(), m.end(), m.group(0), 0.995)
        for m in _EMAIL_SPLIT.finditer(text)
        if (m.group(1) is None or _LOCAL_PIECE.fullmatch(m.group(1)))
        and (m.group(1) is not None or " " in m.group(0))
    ]
    for m in _RRN.finditer(text):
        front = m.group(1).replace(" ", "")
        digits = front + m.group(2) + m.group(3)
        month, day = int(front[2:4]), int(front[4:6])
        if not (1 <= month <= 12 and 1 <= day <= 31):
            continue
        # Numbers issued since Oct 2020 have no checksum: keep them, with less confidence.
        ok = "*" not in digits and rrn_checksum_ok(digits)
        found.append(PiiMatch("rrn", m.start(), m.end(), m.group(0), 0.99 if ok else 0.8))
    for m in _RRN_MASKED.finditer(text):
        month, day = int(m.group(1)[2:4]), int(m.group(1)[4:6])
        if 1 <= month <= 12 and 1 <= day <= 31:
            found.append(PiiMatch("rrn", m.start(), m.end(), m.group(0), 0.75))
    for m in _RRN_FRONT.finditer(text):
        month, day = int(m.group(1)[2:4]), int(m.group(1)[4:6])
        if 1 <= month <= 12 and 1 <= day <= 31:
            found.append(PiiMatch("rrn", m.start(), m.end(), m.group(0), 0.6))
    for m in _RRN_BARE.finditer(text):
        front, back = m.group(1), m.group(2)
        if (
            1 <= int(front[2:4]) <= 12
            and 1 <= int(front[4:6]) <= 31
            and rrn_checksum_ok(front + back)
        ):
            found.append(PiiMatch("rrn", m.start(), m.end(), m.group(0), 0.9))
    found += _spans(_MOBILE, text, "phone", 0.97)
    found += _spans(_LANDLINE, text, "phone", 0.9)
    found += _spans(_BIRTH, text, "birth_date", 0.95, group=1)
    found += [
        _ending_at_last_digit(m)
        for m in _spans(_BIRTH_LABELLED, text, "birth_date", 0.6, group=1)
        if sum(c.isdigit() for c in m.text) >= 6
    ]
    found += _spans(_ADDRESS, text, "address", 0.85)
    found += [
        m for m in _spans(_ADDRESS_EN, text, "address", 0.85) if any(c.isdigit() for c in m.text)
    ]
    found += _spans(_NAME_LABELLED, text, "name", 0.95, group=1)
    if allow_bare_name and (bare := bare_name(text)) is not None:
        found.append(bare)
    emails = [m for m in found if m.type == "email"]  # in text order, never overlapping
    starts = [m.start for m in emails]

    def in_email(at: int) -> bool:
        i = bisect_right(starts, at) - 1
        return i >= 0 and at < emails[i].end

    found += [m for m in _spans(_URL, text, "url", 0.9) if not in_email(m.start)]
    found += [
        m
        for m in _spans(_URL_LABELLED, text, "url", 0.6, group=1)
        if any(c in m.text for c in ":/.@")
    ]
    return drop_overlaps(found)


def _ending_at_last_digit(m: PiiMatch) -> PiiMatch:
    """A labelled date taken to the end of its line ends at its last digit (or 일): what OCR
    made of the noise after it ("930715, : : . . eer.") is not part of it."""
    end = max(m.text.rfind("일"), *(i for i, c in enumerate(m.text) if c.isdigit())) + 1
    return PiiMatch(m.type, m.start, m.start + end, m.text[:end], m.confidence)


# A full date of birth without its label: a year a person applying now was born in, a month
# and a day. Never in a line that says when something was obtained or a period ("취득",
# "~", "현재"): those are certificates and employment, not births.
_DATE_ALONE = re.compile(
    r"(?<![\d.\-/])((?:19[4-9]\d|200\d|201[0-2])\s*[.\-/년]\s*(?:0?[1-9]|1[0-2])\s*[.\-/월]\s*"
    r"(?:0?[1-9]|[12]\d|3[01])(?:\s*일)?)(?![\d]|[.\-/]\d)"
)
_NOT_A_BIRTH = re.compile(r"취득|합격|수료|졸업|입사|퇴사|발급|~|∼|〜|현재|부터|까지")
# such a line (a period, an event) is no name line either ("10 월 ~ 현재")
PERIOD_OR_EVENT = _NOT_A_BIRTH
BARE_BIRTH_CONFIDENCE = 0.4


def bare_birth_dates(text: str) -> list[PiiMatch]:
    """Full dates in a line that says nothing else about them (used for the fields at the
    top of a page, where a birth date's label may have been lost)."""
    if _NOT_A_BIRTH.search(text):
        return []
    return _spans(_DATE_ALONE, text, "birth_date", BARE_BIRTH_CONFIDENCE, group=1)


def bare_name(text: str) -> PiiMatch | None:
    """`text` is only a Korean name (2-4 syllables, a common surname, not a heading)."""
    bare = _NAME_ALONE.match(text)
    if bare and bare.group(1)[0] in SURNAMES and bare.group(1) not in NOT_NAMES:
        return PiiMatch("name", bare.start(1), bare.end(1), bare.group(1), 0.6)
    return None


def drop_overlaps(matches: list[PiiMatch]) -> list[PiiMatch]:
    """Where two detectors claim the same characters, the more confident (then the longer)
    one wins: an RRN is not also a phone number. Spans are non-empty. The characters that
    kept matches claim are marked in a bytearray: comparing each match with every kept one
    was quadratic (a 90,000-character line "이름 이름 ...", 30,000 names, took 7 s)."""
    kept: list[PiiMatch] = []
    claimed = bytearray(max((m.end for m in matches), default=0))
    for m in sorted(matches, key=lambda m: (-m.confidence, m.start - m.end, m.start)):
        if claimed.find(1, m.start, m.end) == -1:
            kept.append(m)
            claimed[m.start : m.end] = b"\x01" * (m.end - m.start)
    return sorted(kept, key=lambda m: m.start)


# Characters OCR confuses with digits, read as the digit when they sit among digits.
_LOOKALIKES = str.maketrans(
    {
        "O": "0",
        "o": "0",
        "D": "0",
        "I": "1",
        "l": "1",
        "|": "1",
        "!": "1",
        "S": "5",
        "B": "8",
        "Z": "2",
        "–": "-",
        "—": "-",
        "‐": "-",
    }
)
_NUMBERISH = re.compile(r"[0-9OoDIl|!SBZ–—‐+\-. ]{7,}+")
_DIGIT_SPACE = re.compile(r"(?<=\d) (?=\d)")


def reading_variants(text: str) -> list[tuple[str, list[int]]]:
    """Other readings of an OCR line, each with the index of every kept character in `text`:
    digit look-alikes among digits read as digits ("O1O-l234-5678" -> "010-1234-5678"), and
    spaces between digits dropped ("010-12 34-5678"). A detector run on a variant is mapped
    back through the indexes; its match is less certain than one found in the line as read."""
    variants = []
    chars = list(text)
    changed = False
    for m in _NUMBERISH.finditer(text):
        run = m.group(0)
        if sum(c.isdigit() for c in run) >= 5:
            fixed = run.translate(_LOOKALIKES)
            if fixed != run:
                chars[m.start() : m.end()] = fixed
                changed = True
    if changed:
        variants.append(("".join(chars), list(range(len(text)))))
    base = "".join(chars)
    if _DIGIT_SPACE.search(base):
        keep = [i for i in range(len(base)) if not (base[i] == " " and _DIGIT_SPACE.match(base, i))]
        variants.append(("".join(base[i] for i in keep), keep))
    for joined in (_separators_as_hyphens(base), _email_spaces_dropped(base)):
        if joined is not None:
            variants.append(joined)
    return variants


# A separator between digit groups as OCR reads a hyphen: a colon, a middle dot, a jamo
# ("051-469: 2248", "031 ㅠ 285 ㆍ 3548", "930208: 1348783", "+82 10- 3251"), with the spaces
# around it, or a full stop followed by a space. Read as one hyphen. Runs of spaces alone are
# left to `_DIGIT_SPACE`.
# A tilde or a comma right between digits is read so too ("940609~2", "010,2922.1421"), and
# an ellipsis ("032…405…4503": a hyphen on a grainy page).
_DIGIT_SEPARATOR = re.compile(r"(?<=\d)(?: ?[\-–—‐:;ㆍ·ㅠㅡ一_=…] ?| ?\. |[~,])(?=\d)")
# An e-mail address with spaces OCR put next to its "@" or its dots ("seo.sua35@gmail. com",
# "eunwoo.park @icloud.com"); the domain in lower case, so a following capitalised word
# ("Blog") is not joined to it.
# A dot of the domain read as a comma, without spaces ("hanyang,ac.kr" on a grainy page), is
# read as a dot ("x@corp.com, and" stays an address followed by a word).
_EMAIL_LOOSE = re.compile(
    r"(?<![A-Za-z0-9._%+\-])[A-Za-z0-9._%+\-]+ ?@ ?[a-z0-9\-]+(?:(?: ?\. ?|,)[a-z0-9\-]+)*"
    r"(?:(?: ?\. ?|,)[a-z]{2,})"
)


def _separators_as_hyphens(text: str) -> tuple[str, list[int]] | None:
    cuts = [(m.start(), m.end()) for m in _DIGIT_SEPARATOR.finditer(text) if m.group(0) != "-"]
    return _cut(text, cuts, "-")


def _email_spaces_dropped(text: str) -> tuple[str, list[int]] | None:
    matches = list(_EMAIL_LOOSE.finditer(text))
    commas = {i for m in matches for i in range(m.start(), m.end()) if text[i] == ","}
    dotted = "".join("." if i in commas else c for i, c in enumerate(text))
    cuts = [(i, i + 1) for m in matches for i in range(m.start(), m.end()) if text[i] == " "]
    if commas and not cuts:
        return dotted, list(range(len(text)))
    return _cut(dotted, cuts, "")


def _cut(text: str, cuts: list[tuple[int, int]], replace: str) -> tuple[str, list[int]] | None:
    """`text` with each (start, end) span (in order, not overlapping) replaced by `replace`
    (one character or none), and the index in `text` of each character kept (a replacement
    keeps its span's first index); None when there is nothing to cut."""
    if not cuts:
        return None
    out: list[str] = []
    keep: list[int] = []
    at = 0
    for start, end in cuts:
        out += [text[at:start], replace]
        keep += range(at, start)
        keep += [start] * len(replace)
        at = end
    out.append(text[at:])
    keep += range(at, len(text))
    return "".join(out), keep
