"""What a resume line claims: work done, work done in part, something learned, or
something wished for.

A recruiter reads "Spring Boot로 결제 API 개발" as experience, "Spring Boot 온라인 강의 수강"
as study, and "Spring Boot로 서버를 만들어 보고 싶습니다" as a wish. The three weigh differently
as evidence for a requirement (nodes/analysis/requirements.py): a wish shows nothing, study
shows a requirement at most partly. So does work the line itself marks as partial
(`limited`): the core of it done by someone else ("SQL 추출은 데이터팀에 요청", "사용성
테스트는 UX 리서처가 진행", "리드 디자이너가 구축한 디자인 시스템을 사용", "법인세는 외부
세무대리인에게 자료 제공"), at a basic level or in part ("간단한 SQL", "GA4 기본 리포트",
"일부 화면을 TypeScript로 작성", "PoC (미출시)", "토이 프로젝트", "교육 보조"), or a skill
rated low on the resume's own scale ("Illustrator ●●●○○", "Figma ★★" beside five stars,
"Python(하)").

Read by morphology (Kiwi), not by phrases: a wish is a sentence whose predicate takes the
desire auxiliary (-고 싶다) or the intention ending (-겠-: "기여하겠습니다", "되겠습니다"), or an
English "want to / hope to / eager to / would like to / looking to"; study is a line naming a
course or self-study (수료, 수강, 부트캠프, 독학, 입문, 실습, 스터디, …; course, bootcamp,
tutorial, self-taught) or the verb 배우다. Everything else is practice.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Literal

from text.korean_text import kiwi

Modality = Literal["practice", "limited", "learning", "aspiration"]

# Nouns that make a line a record of study, not of work.
_LEARNING_NOUNS = {
    "수료",
    "수강",
    "이수",
    "청강",
    "부트캠프",
    "부트 캠프",
    "독학",
    "입문",
    "실습",
    "스터디",
    "인강",
    "학습",
    "공부",
}
# Nouns after a study noun that keep it a record of study ("수강 중", "부트캠프 수료").
_STUDY_HEADS = _LEARNING_NOUNS | {"중", "완료", "과정", "예정"}
# The desire auxiliary (-고 싶다) and the intention ending (-겠-); the verb 배우다.
_WISH_MORPHEMES = {("VX", "싶"), ("EP", "겠")}
_LEARNING_MORPHEMES = {("VV", "배우")}
_LEARNING_EN = re.compile(
    r"\b(?:course(?:work)?|bootcamp|tutorials?|self[-\s]taught|self[-\s]study|"
    r"studying|mooc|udemy|coursera|taking\s+(?:a|an)\s+\w+\s+class)\b",
    re.IGNORECASE,
)
_WISH_EN = re.compile(
    r"\b(?:want(?:s|ed)?\s+to|hop(?:e|ing)\s+to|eager\s+to|would\s+(?:like|love)\s+to|"
    r"looking\s+to|aspir(?:e|ing)\s+to|plan(?:ning)?\s+to)\b",
    re.IGNORECASE,
)


# Someone other than the candidate who could do the work: a team, a firm, a colleague by
# role. The last noun of a compound decides ("데이터팀", "외부 세무대리인", "UX 리서처").
_PARTY_NOUNS = {
    "팀",
    "팀장",
    "파트장",
    "실장",
    "리드",
    "리더",
    "선배",
    "사수",
    "담당자",
    "리서처",
    "디자이너",
    "개발자",
    "개발사",
    "엔지니어",
    "대리인",
    "세무사",
    "노무사",
    "회계사",
    "회계법인",
    "사무소",
    "사무실",
    "업체",
    "외주",
    "협력사",
    "본사",
    "de",
    "pm",
}
# Asking that party to do the work ("데이터팀에 추출을 요청"); handing it over ("법인세는
# 외부 세무대리인에게 자료 제공") where the line's topic is the work handed over (a planner
# passing requirements to the developers, "개발팀에 요구사항 전달", is doing the work).
_ASKING = {"요청", "의뢰", "위탁", "이관", "맡기"}
_HANDOVER = {"전달", "제공"}
# The party doing the work ("UX 리서처가 진행", "데이터팀이 만든", "구현은 팀 리드 담당").
_DOING = {"진행", "구축", "만들", "설계", "담당", "작성", "세팅", "산출", "결정", "주도", "지원"}
# A basic level or a part of the work.
_BASIC_NOUNS = {"기초", "간이", "초급", "일부", "미완료", "미출시", "미적용", "토이", "보조", "poc"}
# What "기본" qualifies as a basic level ("기본 리포트", "기본 함수"; "기본 설계" is a phase).
_BASIC_OF = {"리포트", "보고서", "함수", "기능", "문법", "개념", "쿼리", "지식", "활용", "조작"}
# Where those words name a thing, not a level ("보조 모델", "기초 자료", "일부 기간").
_NOT_BASIC = {("보조", "모델"), ("기초", "자료"), ("기초", "데이터"), ("일부", "기간")}
_BASIC_EN = re.compile(
    r"\b(?:basic|beginner|elementary|assisted|familiar\s+with|exposure\s+to|toy\s+project)\b",
    re.IGNORECASE,
)
# A self-rating: a run of filled and empty marks, or a level in brackets after an item.
RATING = re.compile(
    r"([★●◆■]+)([☆○◇□]*)|[(（]\s*(상|중상|중|중하|하|초급|중급|고급|기초|기본|조회|basic|beginner)\s*[)）]",
    re.IGNORECASE,
)
_LOW_LEVELS = {"하", "중하", "초급", "기초", "기본", "조회", "basic", "beginner"}
_SEPARATOR = re.compile(r"[,/·|]")
# The items of a list line: commas, bars and spaced slashes outside brackets ("SAP FI/CO",
# "HTML·CSS" are one item).
_ITEM_BREAK = re.compile(r"\s*(?:,|\||\s/\s)\s*(?![^(（]*[)）])")
_LISTED_ASIDE = re.compile(r"[(（][^)）]*,[^)）]*[)）]")
LIST_ITEMS = 3  # a line of at least this many items ...
LIST_ITEM_CHARS = 30  # ... this long on average is a list
LOW_RATING = 0.6  # the share of the scale at or under which a rating is low


def _low_rating(line: str) -> bool:
    """Whether the line's (last) self-rating is low on the scale of the line's ratings."""
    runs = list(RATING.finditer(line))
    if not runs:
        return False
    last = runs[-1]
    if last.group(3):
        return last.group(3) in _LOW_LEVELS
    filled, empty = len(last.group(1)), len(last.group(2))
    scale = filled + empty if empty else max(5, filled)  # stars alone: out of five
    return filled / scale <= LOW_RATING


def _party_before(tokens: list, i: int) -> bool:
    """Whether the noun phrase ending before token i names another party."""
    j = i - 1
    while j >= 0 and tokens[j].tag == "XSN":  # 팀장+님
        j -= 1
    return (
        j >= 0
        and tokens[j].tag in {"NNG", "NNP", "SL"}
        and (
            tokens[j].form.casefold() in _PARTY_NOUNS
            or any(tokens[j].form.endswith(p) for p in ("팀", "리서처", "대리인", "사무소"))
        )
        # the candidate's own team is no other party ("저희 팀이 구축한 결제 시스템")
        and not (j >= 1 and tokens[j - 1].tag == "NP")
    )


def _clause_after(tokens: list, i: int) -> list:
    """The tokens after token i up to the end of its clause (a comma, a connective ending,
    a closing bracket or a sentence end)."""
    out = []
    for token in tokens[i + 1 :]:
        if token.tag in {"SP", "SF", "EC", "SSC"}:
            break
        out.append(token)
    return out


def _deferred(tokens: list) -> bool:
    """Another party did the core of the work, or received it."""
    topic = False
    for i, token in enumerate(tokens):
        if token.tag == "JKB" and token.form in {"에", "에게", "께"} and _party_before(tokens, i):
            rest = {t.form for t in _clause_after(tokens, i)}
            if rest & _ASKING or (topic and rest & _HANDOVER):
                return True
        if (
            token.tag == "JKS"
            and _party_before(tokens, i)
            and any(t.form in _DOING for t in tokens[i + 1 : i + 4])
        ):
            return True
        if token.form in _DOING and token.tag == "NNG" and _party_before(tokens, i) and topic:
            return True  # "X는 <party> 담당": the topic's work is the party's
        topic = topic or (token.tag == "JX" and token.form in {"은", "는"})
    return False


def _basic(tokens: list, line: str) -> bool:
    if _BASIC_EN.search(line):
        return True
    for i, token in enumerate(tokens):
        form = token.form.casefold()
        following = tokens[i + 1].form if i + 1 < len(tokens) else ""
        if (
            token.tag in {"NNG", "NNP", "SL"}
            and form in _BASIC_NOUNS
            and (form, following) not in _NOT_BASIC
        ):
            return True
        if token.tag == "XR" and form == "간단":
            return True
        if form == "기본" and (following in _BASIC_OF or following == "적"):
            return True  # "기본 리포트", "기본적인 SQL"
        if form == "수준" and i > 0 and tokens[i - 1].tag in {"SL", "SSC"}:
            return True  # "SELECT/JOIN 수준"
    return False


# A line that says the candidate lacks something ("물류센터 경험은 없지만 …", "인사 실무 경험은
# 부족하지만", "세무 실무는 처음이지만", "Kafka는 아직 써 본 적이 없습니다", "배포는 해 보지
# 못했습니다"): read by morphology, the noun of experience before 없다/부족하다, 처음 as the
# predicate, or a tried-verb (-어 보다) negated by 못; "장애 없이", "누락 없이" (an adverb)
# stay achievements.
_LACKED = {"경험", "경력", "실무", "적", "사용", "지식"}
_LACK_EN = re.compile(
    r"\b(?:no\s+(?:prior\s+|professional\s+|hands-on\s+|direct\s+|real\s+)?experience|"
    r"(?:have|has)n[’']t\s+(?:yet\s+)?(?:used|worked|done)|never\s+(?:used|worked)|"
    r"not\s+yet\s+(?:used|worked|applied)|limited\s+exposure)\b",
    re.IGNORECASE,
)
# A label that heads a wish: "희망: 병원 행정", "희망 직무: 마케팅", "Desired position: …".
_WISH_LABEL = re.compile(
    r"^[^\w]*(?:(?:희망|목표|관심)\s*(?:직무|분야|업무|직종|포지션)?|"
    r"(?i:desired\s+(?:position|role|job)|target\s+(?:position|role)|objective))\s*[:：]"
)


def _negated_doing(tokens: list, i: int) -> bool:
    """A doing verb negated where its clause ends: "설계까지는 경험하지 못했습니다", "통계
    검정은 수행하지 않음", "Redux는 쓰지 않았습니다". Not a passive ("중단되지 않도록") and not a
    negation the sentence goes on from ("누락하지 않고 처리", "빠지지 않고 참여")."""
    if tokens[i].tag != "EC" or tokens[i].form != "지" or i == 0:
        return False
    verb = tokens[i - 1]
    if not ((verb.tag == "XSV" and verb.form == "하") or verb.tag == "VV"):
        return False
    rest = tokens[i + 1 : i + 4]
    if rest and rest[0].tag == "VX" and rest[0].form == "않":
        after = rest[1:2]
    elif len(rest) >= 2 and rest[0].form == "못" and rest[1].form == "하":
        after = rest[2:3]
    elif rest and rest[0].tag == "VX" and rest[0].form == "못하":
        after = rest[1:2]
    else:
        return False
    return not after or after[0].tag != "EC"


def _lack_points(tokens: list) -> list[int]:
    """Where the line says what it lacks: the index of each lacking predicate."""
    points = []
    for i, token in enumerate(tokens):
        if _negated_doing(tokens, i):
            points.append(i)
            continue
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        after = tokens[i + 2] if i + 2 < len(tokens) else None
        if token.form in _LACKED and token.tag in {"NNG", "NNB"}:
            pred = after if nxt is not None and nxt.tag in {"JX", "JKS"} else nxt
            if pred is not None and (
                (pred.tag == "VA" and pred.form == "없") or pred.form == "부족"
            ):
                points.append(i)
                continue
        if token.tag == "NNG" and token.form == "처음" and nxt is not None and nxt.tag == "VCP":
            points.append(i)
            continue
        if (
            token.tag == "VX"
            and token.form == "보"
            and any(t.tag == "MAG" and t.form == "못" for t in tokens[i + 1 : i + 4])
        ):
            points.append(i)
    return points


def _lacking(tokens: list) -> bool:
    return bool(_lack_points(tokens))


# What draws the candidate to something, not what they did: "물류에 관심이 생겼습니다",
# "의무기록 업무에도 관심을 갖게 되었습니다", "데이터 분석에 흥미를 느껴", "마케팅에 관심이
# 많아", "급여로 어떻게 이어지는지 궁금해졌고".
_INTEREST_NOUNS = {"관심", "흥미"}
_INTEREST_VERBS = {"생기", "갖", "가지", "많", "있", "느끼"}
_EMBEDDED_QUESTION = {"는지", "ㄴ지", "은지", "을지", "ᆫ지", "ᆯ지"}


def _interest_points(tokens: list) -> list[int]:
    """Where the line tells what interests the candidate: the index of each interest word
    ("관심" or "흥미" with a verb of having it, or "궁금")."""
    points = []
    for i, token in enumerate(tokens):
        if token.tag == "XR" and token.form == "궁금":
            if _the_candidate_s(tokens, i + 1):
                points.append(i)
            continue
        if token.tag != "NNG" or token.form not in _INTEREST_NOUNS:
            continue
        rest = tokens[i + 1 : i + 3]
        if rest and rest[0].tag in {"JKS", "JKO", "JX"}:  # "관심이 생겨", "흥미를 느껴"
            rest = rest[1:]
        if (
            rest
            and rest[0].tag in {"VV", "VA"}
            and rest[0].form in _INTEREST_VERBS
            and _the_candidate_s(tokens, tokens.index(rest[0]) + 1)
        ):
            points.append(i)
    return points


def _the_candidate_s(tokens: list, after: int) -> bool:
    """Whether the interest predicate from `after` on is the candidate's own: not one that
    modifies a noun ("궁금한 점을 묻는 고객", "관심 있는 고객 리스트") and not someone else's
    ("고객이 궁금해하는": 어하)."""
    for token in tokens[after : after + 4]:
        if token.tag == "ETM":
            return False
        if token.tag == "VX" and token.form == "하":
            return False
        if token.tag in {"EF", "EC"} and token.form not in {"어", "아"}:
            return True
    return True


# Where a clause begins or ends: punctuation, a dash, a bracket, a connective ending.
_BOUNDARY_TAGS = {"SP", "SF", "SSO", "SSC", "SE"}


_DASHES = {"—", "–", "-", "/", "|"}


def _boundary(tokens: list, i: int) -> bool:
    """Whether tokens[i] ends a clause: punctuation, a dash, or a connective ending that no
    auxiliary verb continues ("봤고 Kotlin은…" ends one; "써 보지", "하고 있다" do not)."""
    token = tokens[i]
    if token.tag in _BOUNDARY_TAGS or (token.tag == "SW" and token.form in _DASHES):
        return True
    if token.tag != "EC" or token.form == "지":  # "-지" always goes on: 않다, 못하다
        return False
    following = tokens[i + 1] if i + 1 < len(tokens) else None
    return following is None or following.tag not in ("VX", "VV") or token.form not in (
        "지", "어", "아", "게", "고",
    )  # fmt: skip


@lru_cache(maxsize=4096)
def affirmed(line: str) -> str:
    """The line without the clauses that say what the candidate lacks or did not do
    ("… 35% 증가 — SSR 프레임워크 운영 경험은 없음" -> "… 35% 증가 —"; "처우 협상이나 면접
    설계까지는 경험하지 못했습니다"), or what interests them ("근태를 관리하면서 인사 업무에 관심이
    생겼습니다" -> "근태를 관리하면서"): their words are no evidence of what they name."""
    tokens = kiwi().tokenize(line)
    points = _lack_points(tokens) + _interest_points(tokens)
    if not points:
        return line
    cuts = []
    for point in points:
        first = point
        while first > 0 and not _boundary(tokens, first - 1):
            first -= 1
        if first > 0 and tokens[first - 1].form in _EMBEDDED_QUESTION:
            # what the candidate wonders about is part of it ("어떻게 이어지는지 궁금해졌고")
            first -= 1
            while first > 0 and not _boundary(tokens, first - 1):
                first -= 1
        last = point
        while last + 1 < len(tokens) and not _boundary(tokens, last + 1):
            last += 1
        if last + 1 < len(tokens) and tokens[last + 1].tag == "EC":
            last += 1  # the connective closing it ("경험은 없지만")
        cuts.append((tokens[first].start, tokens[last].start + tokens[last].len))
    out, at = [], 0
    for begin, stop in sorted(cuts):
        if begin >= at:
            out.append(line[at:begin])
            at = stop
    out.append(line[at:])
    return re.sub(r"\s+", " ", "".join(out)).strip()


@lru_cache(maxsize=4096)
def line_modality(line: str) -> Modality:
    """practice | limited | learning | aspiration for one resume line (a sentence or a
    bullet)."""
    tokens = kiwi().tokenize(line)
    wish = _WISH_EN.search(line) is not None
    learning = _LEARNING_EN.search(line) is not None
    for i, token in enumerate(tokens):
        pair = (token.tag, token.form)
        wish = wish or pair in _WISH_MORPHEMES
        following = tokens[i + 1] if i + 1 < len(tokens) else None
        # a study noun heading its phrase, not one modifying the next noun ("수강 신청 API",
        # "수강생 관리", "학습 데이터 구축" tell of work)
        modifier = (
            following is not None
            and following.tag in {"NNG", "NNP", "XSN"}
            and following.form not in _STUDY_HEADS
        )
        learning = (
            learning
            or pair in _LEARNING_MORPHEMES
            or (token.tag in {"NNG", "NNP"} and token.form in _LEARNING_NOUNS and not modifier)
        )
    if wish or _WISH_LABEL.match(line):
        return "aspiration"
    if _interest_points(tokens) and not re.search(r"[가-힣A-Za-z0-9]", affirmed(line)):
        return "aspiration"  # only what interests the candidate ("물류에 관심이 생겼습니다")
    if learning:
        return "learning"
    # a mark inside a bracketed list describes one of its parts ("Excel (피벗, VBA 기초)")
    unlisted = _LISTED_ASIDE.sub(" ", line)
    basic = _basic(tokens if unlisted == line else kiwi().tokenize(unlisted), unlisted)
    if _deferred(tokens) or basic or _low_rating(line):
        return "limited"
    if _lacking(tokens) or _LACK_EN.search(line):
        return "limited"  # what it lacks is shown at most in part by the rest of it
    return "practice"


def evidence_items(line: str) -> list[str]:
    """A resume line as the pieces that each make one claim: a line rating several skills
    ("Figma ●●●●● / Illustrator ●●●○○", "SQL(상), Python(하)") one item per rating, and a
    list that marks one of its items as partial ("Figma, ProtoPie, basic HTML/CSS", "GA4,
    Figma(기초)") one piece per item, so that the mark limits its item alone; any other line
    as itself."""
    runs = list(RATING.finditer(line))
    if len(runs) >= 2:
        pieces, start = [], 0
        for m in runs:
            cut = max((s.end() for s in _SEPARATOR.finditer(line, start, m.start())), default=start)
            pieces += [line[start:cut], line[cut : m.end()]]  # unrated items, the rated one
            start = m.end()
        pieces.append(line[start:])
    else:
        pieces = _ITEM_BREAK.split(line)
        if len(pieces) < LIST_ITEMS or len(line) / len(pieces) > LIST_ITEM_CHARS:
            return [line]
        if all(line_modality(piece) != "limited" for piece in pieces):
            return [line]
    cleaned = [re.sub(r"^[\s/,·|]+|[\s/,·|]+$", "", piece) for piece in pieces]
    return [piece for piece in cleaned if len(piece) >= 2]
