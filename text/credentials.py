"""What a requirement asks of a candidate's papers, read as things that can be compared:
degree levels, majors, named certificates with their grades, language proficiency.

- Degrees are ordered: 고졸 1 < 전문학사 (초대졸, 2·3년제) 2 < 학사 (대졸, 4년제) 3 < 석사 4 <
  박사 5. A line that names a 전문대학 is 2 although it contains "대학"; 재학/중퇴 is one below.
- Majors are read through a bilingual table of fields grouped in the usual 계열 (공학, 자연,
  상경, 사회, 인문, 예체능, 의약), so "이공계 전공자" accepts 기계공학과 and "Computer Science
  or a related field" accepts 정보통신공학과.
- Certificates are the names the Korean and international systems give them: a name ending
  in a title (~기사, ~기능사, ~관리사, ~회계사, ~노무사, ~상담사…), a name graded by 급 or
  종 ("전산세무 2급", "운전면허 1종"), or a known acronym (KICPA, ADsP, SQLD…). A resume
  holds one when it names it without "준비 중"/"응시 예정"; a lower grade, a lower tier of the
  same name (정보처리산업기사 for 정보처리기사) or a first-round pass (1차/필기 합격) is partly
  there.
- Language proficiency: a numeric bar ("TOEIC 800점 이상") is compared per test; a worded one
  ("fluent", "능통", "비즈니스 영어", "회화 가능") is compared on three classes (basic, working,
  fluent) read from the resume's scores; a resume written in Korean shows Korean.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from text.sections import split_sections
from text.skills import taxonomy

Status = Literal["met", "partial", "missing"]

# --- degrees ---------------------------------------------------------------------------

_DEGREES = (  # in precedence order: the first that matches a line names its level
    (5, re.compile(r"박사|Ph\.?\s?D|doctor(?:ate|al)", re.I)),
    (4, re.compile(r"석사|대학원|master'?s?\b|\bM\.?S\.?(?=\s|,|\)|$)|\bM\.?A\.?\s|MBA", re.I)),
    (2, re.compile(r"초대졸|전문학사|전문대|[23]\s*년제|associate'?s?\s+degree", re.I)),
    (
        3,
        re.compile(
            r"학사|대졸|4\s*년제|대학교?|bachelor'?s?|\bB\.?\s?[SA]\.?(?=\s|,|\)|$)|"
            r"university|college|undergraduate",
            re.I,
        ),
    ),
    (1, re.compile(r"고졸|고등학교|high\s*school", re.I)),
)
_ASSOCIATE_SCHOOL = re.compile(r"\S*대학교?\s*[(（]\s*[23]\s*년제\s*[)）]")
_UNFINISHED = re.compile(r"재학|중퇴|휴학|수료\s*예정|졸업\s*예정", re.I)
_ASKS_DEGREE = re.compile(
    r"이상|졸업|학위|degree|or\s+higher|required|소지|전공|우대|\b(?:BS|BA|MS)\b", re.I
)
_EQUIVALENT = re.compile(r"equivalent|이에\s*준하는|동등|상응", re.I)


def _levels(text: str) -> list[int]:
    """Every degree a text names, each word read once in precedence order ("대학원" is a
    master's, not also a university; "전문대학" is an associate degree)."""
    levels = []
    # the school of an associate degree is no bachelor's ("○○과학기술대학교(3년제)"): the
    # school and its mark read as one associate degree
    text = _ASSOCIATE_SCHOOL.sub(" 전문학사 ", text)
    for level, pattern in _DEGREES:
        if pattern.search(text):
            levels.append(level)
            text = pattern.sub(" ", text)
    return levels


_SCHOOLING = re.compile(
    r"졸업|학위|학사|석사|박사|전문학사|degree|bachelor|master|\bB\.?\s?[AS]\b|\bM\.?S\b", re.I
)


def education_text(resume_text: str) -> str:
    """The resume's education lines: its 학력 section, or the lines that speak of a degree."""
    return "\n".join(
        s.text for s in split_sections(resume_text, "resume", 100_000) if s.name == "학력"
    ) or "\n".join(ln for ln in resume_text.splitlines() if _SCHOOLING.search(ln))


def degree_level(line: str) -> int:
    """The highest degree a line names (0 when none)."""
    return max(_levels(line), default=0)


def resume_degree(education: str) -> int:
    """The highest degree a resume's education lines show (one below when unfinished)."""
    best = 0
    for line in education.splitlines():
        level = degree_level(line)
        if level and _UNFINISHED.search(line):
            level -= 1
        best = max(best, level)
    return best


def asked_degree(text: str) -> int | None:
    """The degree a requirement asks for, or None when it asks none."""
    levels = _levels(text)  # "MS or PhD": the lowest one named is enough
    if not levels or not _ASKS_DEGREE.search(text):
        return None
    return min(levels)


def degree_status(text: str, resume_level: int, career_months: int) -> Status | None:
    asked = asked_degree(text)
    if asked is None:
        return None
    if resume_level >= asked:
        return "met"
    if _EQUIVALENT.search(text) and career_months >= 24:
        return "met"  # "or equivalent practical experience"
    return "partial" if resume_level and resume_level >= asked - 1 else "missing"


# --- majors ----------------------------------------------------------------------------

# field -> (계열, how it is written). Korean names match inside 학과 names ("기계공학과").
_MAJORS: dict[str, tuple[str, tuple[str, ...]]] = {
    "컴퓨터": (
        "공학",
        (
            "컴퓨터",
            "computer",
            "소프트웨어",
            "software",
            "정보통신",
            "정보공학",
            "전산",
            "정보보호",
        ),
    ),
    "전자": ("공학", ("전자", "electronic", "반도체")),
    "전기": ("공학", ("전기", "electrical")),
    "기계": ("공학", ("기계", "mechanical", "자동차", "항공")),
    "산업공학": ("공학", ("산업공학", "industrial engineering", "시스템경영")),
    "화학공학": ("공학", ("화학공학", "화공", "chemical engineering", "신소재", "재료")),
    "건축토목": ("공학", ("건축", "토목", "civil", "architecture")),
    "공학": ("공학", ("공학", "공과", "engineering")),
    "통계": ("자연", ("통계", "statistic", "데이터사이언스", "data science")),
    "수학": ("자연", ("수학", "mathematic", "math")),
    "물리화학생명": ("자연", ("물리", "physics", "화학", "chemistry", "생명", "biology", "생물")),
    "경영": ("상경", ("경영", "business", "mba")),
    "경제": ("상경", ("경제", "economics")),
    "회계세무": ("상경", ("회계", "세무", "accounting", "taxation")),
    "무역금융": ("상경", ("무역", "통상", "금융", "finance", "trade")),
    "마케팅": ("상경", ("마케팅", "marketing", "광고", "advertising")),
    "유통": ("상경", ("유통", "물류", "logistics")),
    "행정": ("사회", ("행정", "public administration", "정책")),
    "미디어": (
        "사회",
        ("미디어", "신문방송", "언론", "communication", "커뮤니케이션", "journalism"),
    ),
    "심리": ("사회", ("심리", "psychology")),
    "사회": ("사회", ("사회학", "sociology", "법학", "law")),
    "인사조직": ("사회", ("인사조직", "human resources", "hrm", "hrd")),
    "어문": (
        "인문",
        ("어학", "영어영문", "일어일문", "일본어", "중어중문", "국어국문", "literature"),
    ),
    "디자인": ("예체능", ("디자인", "design", "미술", "fine art", "시각", "영상")),
    "보건의료": (
        "의약",
        ("보건", "의료", "간호", "nursing", "health", "약학", "pharmacy", "의무기록", "병원"),
    ),
    "호텔관광조리": ("예체능", ("호텔", "관광", "조리", "제과", "hospitality", "culinary")),
}
_FAMILIES: dict[str, set[str]] = {
    "이공계": {"공학", "자연"},
    "이공": {"공학", "자연"},
    "공학계열": {"공학"},
    "공대": {"공학"},
    "자연계열": {"자연"},
    "stem": {"공학", "자연"},
    "상경계열": {"상경"},
    "상경": {"상경"},
    "인문계열": {"인문"},
    "사회계열": {"사회"},
    "예체능": {"예체능"},
}
_ASKS_MAJOR = re.compile(
    r"전공|학과|계열|major|degree|\b(?:BS|BA|MS|MA|PhD)\b|field\s+of\s+study|related\s+field", re.I
)
_ANY_MAJOR = re.compile(r"전공\s*무관|무관|any\s+(?:major|field|discipline)", re.I)
_RELATED = re.compile(r"관련|등|related|similar|equivalent|or\s+a\s+", re.I)


def _fields(text: str) -> set[str]:
    low = text.casefold()
    return {name for name, (_, words) in _MAJORS.items() if any(w in low for w in words)}


def _families_named(text: str) -> set[str]:
    squashed = re.sub(r"\s+", "", text.casefold())
    return set().union(*(fams for word, fams in _FAMILIES.items() if word in squashed))


def major_status(text: str, education: str) -> Status | None:
    """Whether the resume's majors are what a requirement asks ("이공계 전공자", "통계학,
    산업공학 등 관련 전공", "BS in Computer Science or a related field"); None when it names
    no major or accepts any."""
    if not _ASKS_MAJOR.search(text) or _ANY_MAJOR.search(text):
        return None
    asked_fields = _fields(text) - {"공학"} if _fields(text) - {"공학"} else _fields(text)
    families = _families_named(text)
    if not asked_fields and not families:
        return None
    held = _fields(education)
    if not held:
        return "missing" if education.strip() else None
    held_families = {_MAJORS[f][0] for f in held}
    if held & asked_fields or held_families & families:
        return "met"
    asked_families = {_MAJORS[f][0] for f in asked_fields}
    if _RELATED.search(text) and held_families & asked_families:
        return "partial"
    return "missing"


_MAJOR_WORDS = re.compile(
    "|".join(
        re.escape(w)
        for w in sorted(
            {w for _, aliases in _MAJORS.values() for w in aliases} | set(_FAMILIES),
            key=len,
            reverse=True,
        )
    )
    + r"|학과?|science|studies",
    re.I,
)


def major_words(text: str) -> str:
    """The text without the fields of study and families it names (what else it asks)."""
    return _MAJOR_WORDS.sub(" ", text)


# --- certificates ----------------------------------------------------------------------

_TITLE = (
    r"기술사|산업기사|기능사|기사|관리사|회계사|세무사|노무사|관세사|평가사|설계사|상담사|"
    r"지도사|분석사|행정사|컨설턴트|전문가|정보관리사|의무기록사|면허|능력시험|자격"
)
_ACRONYMS = (
    r"KICPA|AICPA|USCPA|CFA|FRM|CISA|CISSP|PMP|ADsP|ADP|SQLD|SQLP|ISTQB|CTFL|"
    r"GAIQ|MOS|ITQ|DIAT|TOPCIT|CCNA|CCNP|OCJP|LPIC|RHCSA|CKA|CKAD|SAA"
)
_CERT = re.compile(
    r"(?:(?P<pregrade>[1-3])\s*[급종]\s*(?:보통|대형|소형)?\s*)?"
    r"(?P<name>(?:[가-힣A-Za-z]{1,12}\s?){0,2}?[가-힣]{1,10}(?:" + _TITLE + r")|"
    r"(?:공인)?(?:세무사|노무사|회계사|관세사|변리사|법무사|감정평가사)(?!사무|무소|법인|회사|협회|학원)|"
    r"(?:[가-힣A-Za-z]{2,12}\s?){1,2}(?=\s*[1-3]\s*[급종])|\b(?:" + _ACRONYMS + r")\b)"
    r"(?:\s*(?P<grade>[1-3])\s*(?P<unit>급|종))?"
    r"(?:\s*(?P<round>1\s*차|필기))?",
    re.I,
)
_NOT_NAME = re.compile(
    r"^(?:관련|해당|기타|국가|공인|민간|각종|데이터|HRM/HRD|자격증?|소지|보유|또는|및|이상)$", re.I
)
_PENDING = re.compile(r"준비\s*중|응시\s*예정|취득\s*예정|공부\s*중|목표|예정|준비", re.I)
_FIRST_ROUND = re.compile(r"1\s*차\s*(?:시험\s*)?합격|필기\s*(?:시험\s*)?합격|1차|필기")
# ("…면허 소지자 (병원행정사, 보험심사청구사 소지자 지원 가능)": the others accepted too)
_ANY_OF = re.compile(
    r"또는|혹은|중\s*(?:하나|1개)|\bor\b|/|등|"
    r"(?:소지자|취득자)\S*\s*(?:도\s*)?(?:지원\s*)?가능",
    re.I,
)
_ABBREVIATIONS = {
    "컴활": "컴퓨터활용능력",
    "정처기": "정보처리기사",
    "정처산기": "정보처리산업기사",
}
_SEGMENT = re.compile(r"\s+/\s+|\s*[,·|]\s*")
_OR_GRADE = re.compile(r"\s*(?:이상\s*)?(?:또는|혹은|/|or)\s*([1-3])\s*[급종]")
_GENERIC_SUFFIX = re.compile(r"^(?:자격|면허|전문가|컨설턴트)$")
_A_PERSON = re.compile(r"(?:와|과|랑|이랑|에게|께|님|분)(?![가-힣])|님")
# "한국공인노무사회", "한국세무사회 연수": the professionals' association, no certificate held
_ASSOCIATION = re.compile(r"회(?![계])")


@dataclass(frozen=True)
class Certificate:
    name: str  # squashed, without grade
    grade: int | None  # 1 is the best
    first_round: bool  # only the first round (1차/필기) is asked or held


def _squash(text: str) -> str:
    return re.sub(r"[^0-9a-z가-힣]", "", text.casefold())


def certificates(text: str) -> list[Certificate]:
    """The certificates a text names, in order."""
    out = []
    for m in _CERT.finditer(text):
        if _A_PERSON.match(text, m.end("name")) or _ASSOCIATION.match(text, m.end("name")):
            continue  # "세무사와 협업", "회계사님께": a person of that title, no certificate
        raw = m.group("name").strip()
        words = raw.split()
        # "KICPA 또는 세무사", "관련 자격": the name starts after a connector or a word for
        # certificates in general
        for i in range(len(words) - 1, -1, -1):
            if _NOT_NAME.match(words[i]):
                words = words[i + 1 :]
                break
        name = _squash("".join(words))
        name = _ABBREVIATIONS.get(name, name)
        # one certificate under its names ("공인회계사", "한국공인회계사" and KICPA): the
        # taxonomy's canonical name
        known = taxonomy().normalise(" ".join(words)) if words else None
        name = _squash(known) if known else name
        grade_text = m.group("grade") or m.group("pregrade")
        grade = int(grade_text) if grade_text else None
        if len(name) < (2 if grade else 3) or _GENERIC_SUFFIX.match(name) or _NOT_NAME.match(name):
            continue
        if grade is not None:  # "1종 또는 2종": the loosest grade accepted
            looser = _OR_GRADE.match(text, m.end())
            grade = max(grade, int(looser.group(1))) if looser else grade
        out.append(Certificate(name, grade, bool(m.group("round"))))
    return out


def _stem(name: str) -> str:
    """정보처리산업기사 -> 정보처리 (the name without its tier)."""
    return re.sub(r"(?:산업기사|기능사|기술사|기사)$", "", name)


Mention = tuple[str, list[Certificate]]  # a resume segment and the certificates it names


def segments(line: str) -> list[str]:
    """The items of a listing line ("전산회계 1급 · TOEIC 815 / 운전면허 2종")."""
    return _SEGMENT.split(line)


def resume_certificates(resume_lines: list[str]) -> list[Mention]:
    """The resume's segments that name a certificate, each with what it names (read once a
    resume; a paragraph about one is not a list of certificates)."""
    parts = [part for line in resume_lines if len(line) <= 120 for part in segments(line)]
    return [(part, named) for part in parts if (named := certificates(part))]


def _held(asked: Certificate, mentions: list[Mention]) -> Status:
    best: Status = "missing"
    for line, certs in mentions:
        named = [c for c in certs if _stem(c.name).endswith(_stem(asked.name))]
        if not named or _PENDING.search(line):
            continue
        exact = any(c.name.endswith(asked.name) for c in named)
        grade = next((c.grade for c in named if c.grade is not None), None)
        first_round_only = bool(_FIRST_ROUND.search(line)) and not asked.first_round
        if not exact or first_round_only or (asked.grade and grade and grade > asked.grade):
            status: Status = "partial"
        else:
            status = "met"
        if status == "met":
            return "met"
        best = "partial"
    return best


def _names_held(text: str, name: str) -> bool:
    """Whether a requirement names a certificate (squashed `name`) as one asked of the
    applicant, not the person who holds it ("세무사와 협업하여", "요양보호사와 함께")."""
    for m in re.finditer(r"[가-힣A-Za-z0-9]+", text):
        if _squash(m.group(0)) == name or _squash(m.group(0)).startswith(name):
            end = m.start() + len(name) if m.group(0).startswith(name) else m.end()
            if not (_A_PERSON.match(text, end) or _ASSOCIATION.match(text, end)):
                return True
    return False


def certificate_status(text: str, mentions: list[Mention]) -> Status | None:
    """Whether the resume (its `resume_certificates`) holds the certificates a requirement
    names; None when it names none. Alternatives ("A 또는 B", "A, B 등") need one; a list
    ("A, B") needs all."""
    asked = certificates(text)
    # a certificate the resume holds, named in the requirement as written ("국제무역사 또는
    # 무역영어 1급" asks 국제무역사 too, a name no title ending marks)
    named = {c.name for c in asked}
    asked += [
        Certificate(c.name, None, False)
        for _, certs in mentions
        for c in certs
        if len(c.name) >= 3
        and c.name not in named
        and not any(c.name in n for n in named)
        and _names_held(text, c.name)
    ]
    if not asked:
        return None
    held = [_held(c, mentions) for c in asked]
    if len(held) == 1 or _ANY_OF.search(text):
        return "met" if "met" in held else "partial" if "partial" in held else "missing"
    if all(h == "met" for h in held):
        return "met"
    return "partial" if any(h != "missing" for h in held) else "missing"


def certificate_words(text: str) -> str:
    """The text without the certificates it names (what else the line asks)."""
    return _CERT.sub(" ", text)


# --- language proficiency --------------------------------------------------------------

# An English language name used as one: before a level or a skill word, or after one.
_AS_LANGUAGE = (
    r"(?=\s*(?:\(|,|/|and\b|or\b|language|speaking|speaker|proficien|fluen|business|native|"
    r"conversational|level|skills?|\(|$))"
)
Language = Literal["en", "ko", "ja", "zh", "vi", "th", "es", "fr", "de", "ru", "id", "ar", "pt"]
_LANGUAGES: dict[Language, re.Pattern[str]] = {
    "en": re.compile(r"영어|English|TOEIC|TOEFL|TEPS|IELTS|OPIc|오픽|토익|토플|텝스", re.I),
    "ko": re.compile(r"한국어|Korean|TOPIK", re.I),
    "ja": re.compile(r"일본어|Japanese|JLPT|JPT", re.I),
    "zh": re.compile(r"중국어|Chinese|Mandarin|HSK", re.I),
    # the languages of Korea's other trading partners, by their Korean names and tests, or
    # by an English name said as a language ("German (business level)", "fluent in Thai";
    # not "German automotive OEMs", "the Indonesian market")
    "vi": re.compile(r"베트남어|Vietnamese" + _AS_LANGUAGE, re.I),
    "th": re.compile(r"태국어|\bThai\b" + _AS_LANGUAGE, re.I),
    "es": re.compile(r"스페인어|서반아어|\bDELE\b|\bSpanish\b" + _AS_LANGUAGE, re.I),
    "fr": re.compile(
        r"프랑스어|불어(?![나났난날])|\bDELF\b|\bDALF\b|\bFrench\b" + _AS_LANGUAGE, re.I
    ),
    "de": re.compile(r"독일어|독어|TestDaF|Goethe|\bGerman\b" + _AS_LANGUAGE, re.I),
    "ru": re.compile(r"러시아어|TORFL|\bRussian\b" + _AS_LANGUAGE, re.I),
    "id": re.compile(r"인도네시아어|인니어|Bahasa|\bIndonesian\b" + _AS_LANGUAGE, re.I),
    "ar": re.compile(r"아랍어|\bArabic\b" + _AS_LANGUAGE, re.I),
    "pt": re.compile(r"포르투갈어|\bPortuguese\b" + _AS_LANGUAGE, re.I),
}
_FLUENT = re.compile(
    r"fluent|fluency|excellent|native|bilingual|business[-\s]level|능통|유창|원어민|비즈니스|고급|"
    r"자유로운|자유롭게",
    re.I,
)
_SELF_FLUENT = re.compile(r"native|원어민|모국어|fluent|유창|능통|bilingual", re.I)
_SELF_WORKING = re.compile(r"conversational|회화\s*가능|업무\s*가능|business|비즈니스", re.I)
# Score -> class (1 basic, 2 working, 3 fluent) per test.
_CLASS_BARS: dict[str, tuple[float, float]] = {
    "TOEIC": (700, 900),
    "TOEFL": (80, 100),
    "IELTS": (5.5, 7.0),
    "TEPS": (327, 452),
    "OPIc": (5, 8),  # IM2, AL (levels as text.careers orders them)
    "TOEIC Speaking": (6, 7),
    "JLPT": (4, 5),  # N2, N1
    "JPT": (650, 850),
    "HSK": (4, 5),
    "TOPIK": (3, 5),
}
_TEST_LANGUAGE: dict[str, Language] = {
    "TOEIC": "en",
    "TOEFL": "en",
    "IELTS": "en",
    "TEPS": "en",
    "OPIc": "en",
    "TOEIC Speaking": "en",
    "JLPT": "ja",
    "JPT": "ja",
    "HSK": "zh",
    "TOPIK": "ko",
}
_HANGUL = re.compile(r"[가-힣]")
_LATIN = re.compile(r"[A-Za-z]")


def languages_asked(text: str) -> set[Language]:
    return {lang for lang, p in _LANGUAGES.items() if p.search(text)}


def language_class(language: Language, scores: dict[str, float], resume_text: str) -> int:
    """0 none, 1 basic, 2 working, 3 fluent: the best the resume shows in a language."""
    best = 0
    for test, value in scores.items():
        if _TEST_LANGUAGE.get(test) != language:
            continue
        working, fluent = _CLASS_BARS[test]
        best = max(best, 3 if value >= fluent else 2 if value >= working else 1)
    for line in resume_text.splitlines():
        if _LANGUAGES[language].search(line):
            if _SELF_FLUENT.search(line):
                best = max(best, 3)
            elif _SELF_WORKING.search(line):
                best = max(best, 2)
            else:
                best = max(best, 1)
    if language == "ko":
        hangul, latin = len(_HANGUL.findall(resume_text)), len(_LATIN.findall(resume_text))
        if hangul > latin:  # written in Korean
            best = 3
    return best


def worded_language_status(text: str, scores: dict[str, float], resume_text: str) -> Status | None:
    """A language asked in words ("Fluent English", "일본어 회화 가능자"), without a score."""
    asked = languages_asked(text)
    if not asked:
        return None
    need = 3 if _FLUENT.search(text) else 2
    statuses: list[Status] = []
    for language in asked:
        have = language_class(language, scores, resume_text)
        statuses.append("met" if have >= need else "partial" if have else "missing")
    rank: dict[Status, int] = {"missing": 0, "partial": 1, "met": 2}
    return max(statuses, key=lambda s: rank[s])
