"""Recruitment stages with their dates and times, read from posting text deterministically.

The parser reads a posting line by line, and each line clause by clause
(`text.clauses`):

1. the **date/range/time reader** (`text.when`) finds the line's dates, ranges and
   times;
2. the **stage classifier** (`find_mentions`) finds the stage words outside them ("서류 마감",
   "코딩 Pre-Test", "GSAT", "1차 면접(PT 면접)", "Applications close", "phone screen"), one
   mention per step: a parenthesis refines the step before it ("필기 전형(코딩테스트)" is a
   coding test, "실기테스트(C++ 코딩)" too, "GSAT(직무적성검사)" an aptitude test);
3. each date goes to the stage words **of its own clause**: the nearest stage before it
   ("코딩테스트: 3/28"), or after it when the clause starts with the date ("5월 22일 실무
   면접", "6/27에 take-home coding test"); a clause without stage words belongs to the one
   before it ("Art test: April 22, due by 5:30 p.m."), and a line of dates under a heading
   ("◇ 면접" then "- 1차: 8.3") to that heading;
4. a document deadline takes a range's end and its time, other stages a range's start
   (an assignment its due date); "Interviews Sep 24 and Oct 1" are two interviews;
5. steps named twice (a process line "서류 → 코딩테스트 → 면접" and a dated line) are one
   stage; there is one document stage.

Nothing is guessed: "4월 중", "5월 첫째 주", "추후 안내", "TBD", "mid-June" leave the date null.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from text.clauses import FLOW, bracket_depths, lines_of, split_clauses
from text.when import LineWhen, When, read_when

# ---------------------------------------------------------------------------- stage words

# Priority of a mention's kind when one step is named twice ("필기 전형(코딩테스트)"):
# an interview, then an explicitly coding test, then the named non-coding steps, then a
# generic assignment or test, then the application.
INTERVIEW, CODING, OTHER, ASSIGNMENT, DOCUMENT = range(5)
_TESTS = {CODING, OTHER, ASSIGNMENT}  # kinds a parenthesis may turn into one another
_TYPE_OF = {
    INTERVIEW: "INTERVIEW",
    CODING: "CODING_TEST",
    OTHER: "OTHER",
    ASSIGNMENT: "CODING_TEST",
    DOCUMENT: "DOCUMENT",
}

_ROUND = r"(?:\d\s*차|[1-9]\s*(?:st|nd|rd|th)|first|second|third|final|최종|1st|2nd|3rd)"
_KINDS: list[tuple[int, re.Pattern[str]]] = [
    (
        INTERVIEW,
        re.compile(
            # At most three modifiers (bounded: no rescans of long runs of words).
            r"(?:(?:\d\s*차|최종|임원진?|경영진|기술|실무진?|직무|인성|컬처\s*핏|컬처|팀장?|PT|"
            r"화상|비대면|대면|온사이트|발표|역량|심층|포트폴리오|라이브|그룹|토론|영어|대표)\s*){0,3}"
            r"(?:면접|인터뷰)(?:\s*전형)?(?!\s*(?:대상(?!자(?:로|입니다|이시|에\s*포함))|결과|합격|관|비\b))|"
            r"(?i:(?:(?:1st|2nd|3rd|[1-9]th|first|second|third|final|technical|tech|panel|"
            r"on-?site|virtual|video|phone|behaviou?ral|culture(?:[\s-]*fit)?|team|executive|"
            r"hiring\s+manager|system\s+design|HR|recruiter|round)[\s-]+){0,3}interviews?|"
            r"(?:recruiter\s+)?phone\s+screen(?:ing)?|recruiter\s+(?:call|screen)|"
            r"(?:interview|onsite)\s+loop|"
            r"(?:1st|2nd|3rd|first|second|third|final|technical|tech)\s+round"
            r"(?!\s+(?:coding|programming|test|assessment))(?:\s+interviews?)?)|"
            r"On-?site\b(?![\s-]*(?:coding|programming|test))"
        ),
    ),
    (
        CODING,
        re.compile(
            r"(?:(?:온라인|오프라인|실기|라이브|SQL|웹)\s*)?(?:코딩|알고리즘|프로그래밍)\s*"
            r"(?:테스트|시험|과제|챌린지|(?i:pre-?\s*test|main\s*test|test))|"
            r"코테|SW\s*역량\s*테스트|필기\s*\(\s*코딩\s*\)\s*테스트|라이브\s*코딩|"
            r"SQL\s*(?:테스트|시험|(?i:test))|"
            r"(?i:(?:(?:live|online|on-?site|take-home|hands-on|SQL|python|pair)[\s-]+){0,3}"
            r"(?:coding|programming|algorithm(?:ic)?)\s+(?:test|assessment|challenge|exercise|"
            r"assignment|task|round)s?|live\s+coding|hackerrank|codility|"
            r"(?:online|technical)\s+(?:coding\s+)?assessment)"
        ),
    ),
    (
        OTHER,
        re.compile(
            r"인\s*적성(?:\s*검사)?|인성\s*검사|직무\s*적성(?:\s*검사)?|적성\s*검사|역량\s*검사|"
            r"GSAT|SKCT|HMAT|CJAT|PAT\b|LG\s*Way\s*Fit(?:\s*Test)?|AIVLE\s*Test|"
            r"필기(?:\s*(?:시험|전형|테스트|고사))?|NCS\b|전공\s*(?:시험|필기)|"
            r"실기(?:\s*(?:테스트|시험|전형))?|(?:디자인|아트|기획|PM)\s*(?:과제|테스트)|"
            r"케이스\s*스터디|처우\s*협의|연봉\s*협의|레퍼런스\s*체크|평판\s*조회|"
            r"(?:채용\s*)?(?:건강\s*)?검진|신체\s*검사|(?<!신)입사(?!\s*(?:지원|서류|후|원|가능)|자)"
            r"(?:\s*(?:예정일?|일))?|임용|(?:최종\s*)?합격자?\s*발표|결과\s*발표|최종\s*발표|"
            r"최종\s*합격|(?:최종\s*)?오퍼|오리엔테이션|온보딩|"
            r"서류\s*(?:전형\s*)?(?:합격자?\s*|결과\s*)?발표|"
            r"근무\s*(?:개시|시작)(?:\s*일)?|첫\s*출근(?:\s*일)?|"
            r"(?i:(?:online\s+)?(?:aptitude|personality)\s+(?:test|assessment)|written\s+(?:exam|test)|"
            r"(?:art|design)\s+(?:test|assignment|exercise|challenge)|case\s+study|"
            r"reference\s+checks?|background\s+checks?|health\s+check|medical\s+check(?:-?up)?|"
            r"on-?boarding|start\s+date|first\s+day|offer\s+(?:discussion|call|letter|stage)|"
            r"final\s+offer)|Offers?\b"
        ),
    ),
    (
        ASSIGNMENT,
        re.compile(
            r"(?<![가-힣])(?:(?:사전|기술|보안|코딩|웹|개발|실무|온라인)\s*)?과제(?:\s*전형)?"
            r"(?!\s*(?:해결|수행))|"
            r"(?i:take-home(?:\s+(?:coding\s+|design\s+|data\s+|case\s+)?"
            r"(?:assignment|test|exercise|task|project|challenge))?|"
            r"(?:home|technical)\s+assignment|pre-?test|main\s+test)"
        ),
    ),
    (
        DOCUMENT,
        re.compile(
            r"서류(?!\s*(?:전형\s*)?(?:합격|통과|결과|발표|심사\s*결과))"
            r"(?:\s*(?:접수|마감|전형|제출|지원|검토|심사|평가))?|"
            r"(?:입사\s*)?지원서(?:\s*(?:접수|마감|제출))?|원서\s*접수|이력서|"
            r"(?:포트폴리오|포폴)(?!\s*(?:리뷰\s*)?(?:인터뷰|면접))|(?:상시\s*)?접수(?:\s*(?:기간|마감일?))?|"
            r"지원\s*(?:기간|마감일?)|지원(?=\s*(?:은|는|[:：]))|모집\s*기간|"
            # a deadline that says it takes applications ("8/21(금)까지 문자로 지원해
            # 주세요", "1월 30일 금요일까지 받아요"; not "까지 제출": an assignment is handed
            # in too)
            r"(?<=까지)\s*(?:[가-힣A-Za-z]{1,6}(?:으로|로)\s*)?"
            r"(?:지원|접수|받아요|받습니다|받고\s*있)|"
            # (not when the room or the session closes: "입실 마감 09:20", "접속 마감")
            r"(?<!입실)(?<!입장)(?<!접속)(?<!도착)(?<!입실 )(?<!입장 )(?<!접속 )(?<!도착 )"
            r"마감(?:일|\s*시각|\s*일시)?|"
            r"상시\s*(?:채용|모집)|채용\s*시\s*마감|"
            r"(?i:application\s+(?:deadline|period|window|due)|applications?\s+(?:close[sd]?|"
            r"(?:are\s+)?(?:due|open|accepted|received|reviewed)|will\s+close|must\s+be)|"
            r"apply(?:\s+(?:via|through|at|on|using|with|from)(?:\s+[\w./-]+){1,3}?)?"
            r"\s+(?:by|before|until|no\s+later\s+than|on\s+or\s+before)|"
            r"apply(?=\s*[:：])|deadline|"
            r"closing\s+date|"
            # a job board's "Closes in 5 days", "Expires on Oct 3": the posting's own close
            r"\b(?:closes|expires)(?=\s+in\s+\d)|\bclosing(?=\s*[:：])|"
            r"(?:posting|role|job|position|listing|opening)\s+(?:closes|expires)(?=\s+on\b)|"
            r"resume\s+(?:deadline|due|submission|review|screen(?:ing)?)|"
            r"CV\s+(?:deadline|submission|screening)|"
            r"document\s+(?:screening|review)(?!\s+results?)|"
            r"(?:submit|send)\s+(?:us\s+)?(?:your\s+)?(?:application|resume|CV|portfolio)s?|"
            r"rolling\s+basis)|"
            r"(?:Applications?|Resumes?|CVs?|Portfolios?)(?=\s*(?:[:：(]|은|는|for\b))"
        ),
    ),
]
# For callers that only ask which stage a message names (the chat's calendar route).
STAGE_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    (stage_type, re.compile("|".join(p.pattern for k, p in _KINDS if _TYPE_OF[k] == stage_type)))
    for stage_type in ("INTERVIEW", "CODING_TEST", "OTHER", "DOCUMENT")
]


def names_a_stage(text: str) -> bool:
    """Whether a text names a hiring stage of any type ("코테", "1차 면접", "서류 마감")."""
    return any(pattern.search(text) for _, pattern in STAGE_PATTERNS)


def named_stages(text: str, stages: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
    """The stages (contract items) a question names: of the types it names ("코테" is a
    coding test), narrowed to the one named by its name when it names one ("1차 면접"
    among the interviews); None when it names no stage type."""
    types = [t for t, pattern in STAGE_PATTERNS if pattern.search(text)]
    if not types:
        return None
    typed = [s for s in stages if s["stage_type"] in types]
    compact = "".join(text.split())
    named = [s for s in typed if "".join(str(s.get("stage", "")).split()) in compact]
    return named or typed


ROLLING = re.compile(r"상시\s*(?:채용|접수|모집)|채용\s*시\s*마감|(?i:rolling)")
# What a parenthesis after a step says about it: "(C++ 코딩)" makes a test a coding test,
# "(디자인)" an assignment a non-coding one.
_CODE_WORDS = re.compile(
    r"코딩|코드|프로그래밍|알고리즘|(?i:coding|code|programming|algorithm|C\+\+|python|java\b|SQL)"
)
_NON_CODE_WORDS = re.compile(r"디자인|아트|기획|케이스|(?i:design|art\b|case\s+study)")
_ASSIGNMENT_WORDS = re.compile(r"과제|(?i:assignment|take-home|exercise)")
_DEADLINE_WORD = re.compile(r"마감(?:일|\s*시각|\s*일시)?|(?i:deadline)")
_SUBMIT_BEFORE = re.compile(r"(?:제출|(?i:submission|due))\s*$")
_DEADLINE_GAP = re.compile(r"\s*(?:제출|submission)?\s*")
_ROUND_START = re.compile(r"[^\w(]*(" + _ROUND + r")(?![\w])", re.IGNORECASE)
_ALONE_IN_PARENS = re.compile(r"[(（][^)）(（]*[)）]")
_PAREN_AFTER = re.compile(r"\s*[(（]([^)）]{0,60})[)）]")
_WRITTEN = re.compile(r"필기|실기")  # a written or practical test: coding when it says so
_GENERIC = {"면접", "과제"}  # as keys (`_key`): 인터뷰, Interviews, 면접 전형, 과제 전형 …
_LABEL = re.compile(r"^[^:：]{1,60}?(?=\s*[:：](?!\d))")
_BULLET = re.compile(r"^(?:[-•·*■□◆◇▶▷●○◎※>]|\d{1,2}[.)]|[①-⑳]|[^\w\s(\[【「『<])+\s*")
# A line of dates under a heading: only a generic label ("기간:", "- 1차:") besides them.
_DATE_LINE_LABEL = re.compile(
    r"^(?:기간|일정|일시|일자|날짜|마감|기한|제출|제출\s*(?:마감|기한)|시간|시각|장소|"
    r"(?:응시|시험|진행|실시|예정|면접)\s*(?:일시|일자|일정|기간|일)|"
    # a rescheduling notice's new slot ("변경 후: 3월 30일 16:00", "New time: May 4")
    r"변경\s*(?:후|된\s*일정|일정|일시)|"
    + _ROUND
    + r"|(?i:date|dates|date\s*(?:&|and)\s*time|time|when|period|schedule|round\s*\d|"
    r"(?:new|updated|rescheduled)\s*(?:date|time|slot|schedule)?))?$",
    re.IGNORECASE,
)
# A line under a heading that gives the slot being replaced: not the step's date, and the
# heading still heads the lines below it ("변경 전: 3월 27일 10:00" then "변경 후: …").
_SUPERSEDED_LABEL = re.compile(
    r"^(?:변경\s*전|기존(?:\s*(?:일정|일시))?|이전\s*(?:일정|일시)|"
    r"(?i:(?:previous|old|original)\s*(?:date|time|slot|schedule)?))$"
)


# A labelled date line whose label no stage word names ("시범강의 : 12월 21일", "인턴 시작:
# 2027.2.22", "직무테스트는 7/15(수) 예정", "교육 : 1/26~2/6", "Info session: Oct 15") is a
# step when the label's head, after a generic "기간/일정/일" is dropped, is a word for a step
# of a hiring: a test, a training or a start. A posting's own dates ("등록일", "게시일"), the
# working hours and a contract's term end in no such head.
_STEP_HEAD = re.compile(
    r"(?:테스트|검사|시험|고사|평가|교육|연수|실습|출근|시작|강의|시강|설명회|인턴십|인턴쉽|"
    r"(?i:info(?:rmation)?\s+session|training|internship|workshop|trial\s+(?:day|shift)))$"
)
_GENERIC_TAIL = re.compile(r"\s*(?:기간|일정|일시|일자|날짜|예정일?|일|(?i:dates?|period))$")
_LEADING_LABEL = re.compile(
    r"^(?P<label>[^:：|\t]{1,24}?)(?:\s*(?:[:：|\t]|(?:은|는)\s)|\s{2,})", re.UNICODE
)


def labelled_step(line: str, when: LineWhen) -> Mention | None:
    """The step a dated line names by its label alone (see `_STEP_HEAD`), or None."""
    if not when.dates:
        return None
    start = len(line) - len(_BULLET.sub("", line.lstrip()))
    m = _LEADING_LABEL.match(line[start:])
    if m is None or start + m.end("label") > when.dates[0].start:
        return None
    name = " ".join(m.group("label").split())
    if _DATE_LINE_LABEL.match(name):
        return None  # "시험일: 4월 18일": the date of the step above
    # the label, or what its parenthesis says it is ("L-TAB(조직·직무적합도검사)")
    heads = [
        re.sub(r"[(（][^()（）]*[)）]", " ", name),
        *re.findall(r"[(（]([^()（）]*)[)）]", name),
    ]
    head = next(
        (
            h
            for h in (_GENERIC_TAIL.sub("", " ".join(x.split())) for x in heads)
            if h and _STEP_HEAD.search(h) and not re.search(r"\d", h)
        ),
        None,
    )
    if head is None:
        return None
    test = re.search(r"(?:테스트|시험)$", head) is not None
    kind = CODING if test and _CODE_WORDS.search(name) else OTHER
    return Mention(kind, start + m.start("label"), start + m.end("label"), name, _rounds(name))


@dataclass
class Mention:
    kind: int
    start: int
    end: int
    name: str
    rounds: frozenset[str] = frozenset()

    @property
    def stage_type(self) -> str:
        return _TYPE_OF[self.kind]


_ROUND_NAMES = {"1st": "1차", "first": "1차", "2nd": "2차", "second": "2차", "3rd": "3차"}
_ROUND_NAMES |= {"third": "3차", "final": "최종"}


def _rounds(name: str) -> frozenset[str]:
    """The rounds a stage name says, one spelling per round ("1st" and "1차" are one)."""
    words = (m.group(0).replace(" ", "").lower() for m in re.finditer(_ROUND, name, re.I))
    return frozenset(_ROUND_NAMES.get(w, w) for w in words)


def _one_step(a: Mention, b: Mention) -> bool:
    """Two same-type words with nothing but plain words between: one step, unless both
    name an interview or a test of their own ("기술면접 후 최종 인터뷰" are two)."""
    if a.kind in (DOCUMENT, OTHER) or {a.kind, b.kind} == {CODING, ASSIGNMENT}:
        return True
    return _key(a.name) in _GENERIC or _key(b.name) in _GENERIC


def _script(name: str) -> str:
    return "ko" if re.search(r"[가-힣]", name) else "latin"


def find_mentions(line: str, skip: list[tuple[int, int]] | None = None) -> list[Mention]:
    """Stage words in a line, leftmost-longest, outside `skip` (its dates and times)."""
    skipped = bytearray(len(line) + 1)
    for s, e in skip or []:
        skipped[s:e] = b"\x01" * (e - s)
    candidates = [
        (m.start(), -m.end(), kind, m)
        for kind, pattern in _KINDS
        for m in pattern.finditer(line)
        if m.group(0).strip()
    ]
    mentions: list[Mention] = []
    taken_until = -1
    for start, neg_end, kind, m in sorted(candidates, key=lambda c: (c[0], c[1], c[2])):
        end = -neg_end
        if start < taken_until or any(skipped[start:end]):
            continue
        name = " ".join(m.group(0).split())
        mentions.append(Mention(kind, start, end, name, _rounds(name)))
        taken_until = end
    return mentions


@dataclass
class Step:
    """One step of the process named in a clause: its mentions and the dates it takes."""

    mentions: list[Mention]
    kind: int
    start: int
    end: int
    whens: list[When] = field(default_factory=list)

    @property
    def stage_type(self) -> str:
        return _TYPE_OF[self.kind]

    @property
    def name(self) -> str:
        return self.mentions[0].name

    @property
    def is_assignment(self) -> bool:
        return any(_ASSIGNMENT_WORDS.search(m.name) for m in self.mentions)


def _steps(line: str, mentions: list[Mention], dates: list[When], depths: list[int]) -> list[Step]:
    """Mentions that name one step become one: a parenthesis after a step ("1차 면접(PT
    면접)", "필기 전형(코딩테스트)"), and same-type words with no date, flow separator or
    other round between them ("서류 접수 … 마감", "Programming test, pre-test round")."""
    steps: list[Step] = []
    date_starts = [d.start for d in dates]
    for m in mentions:
        last = steps[-1] if steps else None
        if last is not None:
            between = line[last.end : m.start] if m.start - last.end <= 40 else "-" * 41
            # A parenthesis refines its step ("필기 전형(코딩테스트)") when it names a step of
            # a kind that can be one ("서류 접수(합격자 발표 …)" names another step).
            refines = _TYPE_OF[m.kind] == last.stage_type or {m.kind, last.kind} <= _TESTS
            in_parens = refines and depths[m.start] > depths[last.end - 1]
            alone = refines and _ALONE_IN_PARENS.fullmatch(
                line, m.start - 1, min(len(line), m.end + 1)
            )
            at = bisect.bisect_left(date_starts, last.end)
            no_date = at == len(date_starts) or date_starts[at] >= m.start
            rounds = (m.rounds, last.mentions[-1].rounds)
            other_round = bool(rounds[0] and rounds[1] and rounds[0] != rounds[1])
            same = _TYPE_OF[m.kind] == last.stage_type and not other_round
            joined = (
                same
                and len(between) <= 40
                and not FLOW.search(between)
                and _one_step(last.mentions[-1], m)
            )
            # "코딩 과제 제출 마감", "assignment deadline": the step's own deadline
            # … and on its line after a date ("기획 과제: 10/21 발송 / 10/26 제출 마감")
            its_deadline = bool(
                m.kind == DOCUMENT
                and last.kind != DOCUMENT
                and _DEADLINE_WORD.fullmatch(m.name)
                and (
                    _DEADLINE_GAP.fullmatch(between)
                    or _SUBMIT_BEFORE.search(line, max(0, m.start - 20), m.start)
                )
            )
            # "코딩테스트 / Coding Test": one step named in two languages
            bilingual = (
                _TYPE_OF[m.kind] == last.stage_type
                and between.strip() == "/"
                and _script(m.name) != _script(last.mentions[-1].name)
                and not other_round
            )
            # "Art test: July 10 – July 17 (take-home)": a word in parentheses of its own
            if (no_date and (in_parens or joined or bilingual)) or alone or its_deadline:
                last.mentions.append(m)
                last.kind = min(last.kind, m.kind)
                last.end = m.end
                continue
        steps.append(Step([m], m.kind, m.start, m.end))
    for step in steps:
        after = _PAREN_AFTER.match(line, step.end)
        words = (after.group(1) if after else "") + " " + " ".join(x.name for x in step.mentions)
        testable = step.kind == ASSIGNMENT or (step.kind == OTHER and _WRITTEN.match(step.name))
        if testable and _CODE_WORDS.search(words):
            step.kind = CODING
        if step.kind == ASSIGNMENT and _NON_CODE_WORDS.search(words):
            step.kind = OTHER
    return steps


def _assign(line: str, steps: list[Step], when: LineWhen, depths: list[int]) -> list[Step]:
    """Give each date to a step of its own clause (see the module docstring); returns the
    steps, with one more for each round a clause names alone ("1st (Sep 10), 2nd (Sep 17)")."""
    dates = when.dates
    clauses = split_clauses(line, when.spans, depths)
    groups: list[tuple[list[Step], list[When]]] = []
    si = di = 0
    for start, end in clauses:
        in_steps, in_dates = [], []
        while si < len(steps) and steps[si].start < end:
            in_steps.append(steps[si])
            si += 1
        while di < len(dates) and dates[di].start < end:
            in_dates.append(dates[di])
            di += 1
        if in_steps or not groups:
            groups.append((in_steps, in_dates))
            continue
        previous = groups[-1][0][-1] if groups[-1][0] else None
        round_word = _ROUND_START.match(line, start, end)
        if in_dates and round_word and previous is not None and previous.kind != DOCUMENT:
            name = round_word.group(1)
            at = round_word.start(1)
            mention = Mention(previous.kind, at, at + len(name), name, _rounds(name))
            groups.append(([Step([mention], previous.kind, at, at + len(name))], in_dates))
            continue
        for d in in_dates:  # no stage words: the clause before's dates
            d.glued = True
        groups[-1][1].extend(in_dates)
    if len(groups) > 1 and not groups[0][0]:
        groups[1][1][:0] = groups[0][1]  # leading dates: the first clause with a stage
        groups = groups[1:]
    for group_steps, group_dates in groups:
        if group_steps:
            _pair(group_steps, group_dates, depths)
    return [step for group_steps, _ in groups for step in group_steps]


def _parenthesis(depths: list[int], at: int) -> tuple[int, int] | None:
    """The innermost parenthesis around position `at` as (its opening, its closing) index."""
    depth = depths[at]
    if depth == 0:
        return None
    opening = next((i for i in range(at - 1, -1, -1) if depths[i] < depth), -1)
    closing = next((i for i in range(at + 1, len(depths)) if depths[i] < depth), len(depths))
    return opening, closing


def _pair(steps: list[Step], dates: list[When], depths: list[int]) -> None:
    """In one clause: each date to the nearest step before it, or, when the clause starts
    with a date ("5월 22일 실무 면접"), to the nearest step after it; a date in a
    parenthesis that names a step of its own is that step's ("서류전형(9월 25일 합격자
    발표)")."""
    starts = [s.start for s in steps]
    stage_first = not dates or steps[0].start < dates[0].start
    for d in dates:
        around = _parenthesis(depths, d.start)
        inside = [s for s in steps if around and around[0] < s.start < around[1]]
        if inside:
            before = [s for s in inside if s.start < d.start]
            (before[-1] if before else inside[0]).whens.append(d)
            continue
        at = bisect.bisect_left(starts, d.start)  # steps[:at] are before the date
        if stage_first:
            target = steps[at - 1] if at else steps[0]
        else:
            target = steps[at] if at < len(steps) else steps[-1]
        target.whens.append(d)


# ---------------------------------------------------------------------------- stages


Day = date  # the type, for the fields below the one named `date`


@dataclass
class Stage:
    stage: str
    stage_type: str
    date: Day | None = None
    time: str | None = None
    weak: bool = field(default=False, repr=False)  # dated only by a notice ("… 발송")
    start: Day | None = None  # a period's first day ("접수 9.8 ~ 9.21": 9.8), date its last
    pending_time: str | None = field(default=None, repr=False)  # "마감 시각: 18시"

    def as_dict(self) -> dict[str, str | None]:
        """The contract's schedule item (a time only with its date)."""
        return {
            "stage": self.stage,
            "stage_type": self.stage_type,
            "date": self.date.isoformat() if self.date else None,
            "start_date": self.start.isoformat() if self.start and self.date else None,
            "time": self.time if self.date else None,
        }


def _key(name: str) -> str:
    """A stage name compared: no spaces, lower case, one word for an interview."""
    key = re.sub(r"\s", "", name).lower()
    return re.sub(r"인터뷰|interviews?", "면접", key).replace("전형", "")


def _same_step(a: str, b: str) -> bool:
    ka, kb = _key(a), _key(b)
    return ka == kb or ka.endswith(kb) or kb.endswith(ka) or ka in _GENERIC or kb in _GENERIC


class Schedule:
    """The stages found so far, with the merge rules of the module docstring."""

    def __init__(self) -> None:
        self.stages: list[Stage] = []

    def _named(self, stage_type: str, name: str) -> bool:
        return any(s.stage_type == stage_type and s.stage == name for s in self.stages)

    def add(self, new: Stage, other_names: list[str], heading: Stage | None = None) -> Stage:
        """Merges `new` into the stage it names again, or appends it; returns the stage."""
        if new.stage_type == "DOCUMENT":
            return self._add_document(new)
        same = [s for s in self.stages if s.stage_type == new.stage_type]
        if heading is not None and heading in same and heading.date is None and new.date:
            same = [heading]
        matches = [s for s in same if _same_step(s.stage, new.stage)]
        undated = [s for s in matches if s.date is None]
        if new.date is None:
            if matches:
                return matches[0]
        elif undated:
            old = undated[0]
            if _key(old.stage) in _GENERIC and _key(new.stage) not in _GENERIC:
                old.stage = new.stage if not self._named(new.stage_type, new.stage) else old.stage
            old.date, old.time, old.weak = new.date, new.time, new.weak
            return old
        else:
            for old in matches:
                if old.date == new.date:
                    old.time = old.time or new.time
                    return old
                if old.weak and not new.weak:
                    old.date, old.time, old.weak = new.date, new.time, False
                    return old
        for name in [new.stage, *other_names]:
            if not self._named(new.stage_type, name):
                new.stage = name
                self.stages.append(new)
                return new
        return matches[0] if matches else new

    def _add_document(self, new: Stage) -> Stage:
        old = next((s for s in self.stages if s.stage_type == "DOCUMENT"), None)
        if old is None:
            if new.date is not None and new.time is None:
                new.time = new.pending_time
            self.stages.append(new)
            return new
        if new.date is None:
            if new.pending_time and old.time is None:
                if old.date is not None:
                    old.time = new.pending_time
                else:
                    old.pending_time = new.pending_time
            return old
        if old.date is None or (new.date, new.time or "") > (old.date, old.time or ""):
            old.date, old.time = new.date, new.time or old.pending_time
            old.start = new.start
        return old


def _chosen(step: Step) -> list[When]:
    """The dates a step keeps: a deadline the last; others every date but a range's end
    (an assignment its due date); sent dates only when nothing else dates the step, the
    day a message about it is sent never."""
    whens = [w for w in step.whens if not w.notice]
    strong = [w for w in whens if not w.weak] or whens
    if not strong:
        return []
    if step.kind == DOCUMENT:
        return [strong[-1]]
    # Dates of a clause without stage words only when the step's own clause has none
    # ("Art test: April 22, due by …"; not "… 면접은 10월 30일, 결과는 11월 6일").
    strong = [w for w in strong if not w.glued] or strong
    strong = [w for w in strong if not w.alternative]
    kept = []
    for w in strong:
        if w.is_range_end and any(x.until is w for x in strong):
            continue
        if w.until is not None and step.is_assignment:
            w = w.until
        kept.append(w)
    return kept


# A line announcing one step: a notice's title ("1차 면접 안내", "응시 안내", "Interview
# invitation", "Subject: Online assessment").
_NOTICE = re.compile(
    r"안내|통보|확정|공지|대상자|선정|(?i:\b(?:invitation|invite|confirmation|confirmed|notice|subject)\b)"
)
# A day named by the step before it: "같은 날 오후 2시", "당일 오후", "the same day at 3 PM".
_SAME_DAY = re.compile(r"같은\s*날|(?<![가-힣])당일(?![가-힣])|(?i:\b(?:the\s+)?same\s+day\b)")


def find_stages(text: str, now: date) -> list[Stage]:
    """Every stage in document order (see the module docstring)."""
    schedule = Schedule()
    heading: Stage | None = None
    last: date | None = None  # the last day a line named
    # a notice of one step ("[한결저축은행] … 1차 면접 안내", "AI역량검사 응시 안내") and the
    # dated lines no heading above claims ("- 일시: 10월 29일 09:30", "■ 응시 기간: 10.6 ~ 10.8")
    notice: Stage | None = None
    orphans: list[tuple[str, list[When]]] = []
    for line in lines_of(text):
        when = read_when(line, now)
        if not when.dates and last is not None and _SAME_DAY.search(line):
            # "같은 날 오후 2시 인터뷰 진행": the day the line before named
            line = _SAME_DAY.sub(f"{last.year}.{last.month}.{last.day}", line, count=1)
            when = read_when(line, now)
        if when.dates:
            last = when.dates[-1].value
        mentions = find_mentions(line, when.spans)
        if not mentions and (named := labelled_step(line, when)) is not None:
            mentions = [named]
        if not mentions:
            if not line.strip():
                continue  # a blank line between a step's heading and its dates keeps it
            label = _heading_label(line, when) if when.dates or when.times else None
            if (
                notice is not None  # below the notice, not a mail's own "날짜:" above it
                and heading is None
                and label is not None
                and when.dates
                and _DATE_LINE_LABEL.match(label)
            ):
                orphans.append((label, when.dates))
            if heading is not None and label is not None and _DATE_LINE_LABEL.match(label):
                if when.dates:
                    _under_heading(schedule, heading, label, when.dates)
                elif heading.date is not None and heading.time is None:
                    heading.time = when.times[0].value  # "Date: …" then "Time: 3 PM"
            elif heading is None or label is None or not _SUPERSEDED_LABEL.match(label):
                heading = None
            continue
        depths = bracket_depths(line)
        steps = _steps(line, mentions, when.dates, depths)
        steps = _assign(line, steps, when, depths)
        labelled = _LABEL.match(line)
        label = _BULLET.sub("", labelled.group(0)).strip() if labelled else ""
        added: list[Stage] = []
        for step in steps:
            others = [label] if labelled and label and step.start < labelled.end() else []
            chosen = _chosen(step)
            if not chosen:
                stage = Stage(step.name, step.stage_type)
                if when.loose and step is steps[0]:
                    stage.pending_time = when.loose[0].value  # "마감 시각: 18시"
                added.append(schedule.add(stage, others))
            for w in chosen:
                span = " ".join(line[step.start : w.end].split())
                stage = Stage(step.name, step.stage_type, w.value, w.time, weak=w.weak)
                if step.kind == DOCUMENT and w.since is not None and w.since in step.whens:
                    stage.start = w.since.value  # the application period, both ends
                added.append(schedule.add(stage, [*others, span]))
        # A line naming one step and no date may head the dates of the lines below it.
        heading = added[0] if len(steps) == 1 and not when.dates else None
        if notice is None and heading is not None and _NOTICE.search(line):
            notice = heading
    if notice is not None and notice.date is None and len(orphans) == 1:
        _under_heading(schedule, notice, *orphans[0])
    return _renamed_rolling(schedule.stages)


# What a dated line may say besides its label: the weekday ("When: Monday 3/16") and how
# long the step takes ("일시: 5월 23일 오전 10시 (150분)", "(약 1시간)", "(60 min)").
_WEEKDAY = re.compile(
    r"[월화수목금토일]요일|(?i:\b(?:mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|"
    r"thu(?:r(?:s(?:day)?)?)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?)\b\.?)"
)
_DURATION = re.compile(
    r"(?<!\d)\d\s*박\s*\d\s*일|"  # "1박 2일": a stay
    r"[(（]\s*(?:약\s*)?\d+(?:\.\d+)?\s*(?:분|시간(?:\s*\d+\s*분)?|(?i:min(?:ute)?s?|hours?|hrs?|h))"
    r"(?:\s*(?:소요|내외|이내|정도))?\s*[)）]"
)


def _heading_label(line: str, when: LineWhen) -> str:
    """What a line says besides its dates and times, bullets, weekdays and connectors."""
    rest = list(line)
    for s, e in when.spans:
        rest[s:e] = " " * (e - s)
    # a weekday or a remark in parentheses ("(화)", "(please arrive 15 minutes early)")
    text = re.sub(r"[(（][^()（）]*[)）]", " ", "".join(rest))
    text = _WEEKDAY.sub(" ", _DURATION.sub(" ", text))
    text = re.sub(r"까지|부터|[~∼\-–—:：,|()（）]|(?i:\b(?:KST|to)\b)", " ", text)
    return " ".join(_BULLET.sub("", text.strip()).split())


def _under_heading(schedule: Schedule, heading: Stage, label: str, dates: list[When]) -> None:
    """Dates on a line under a heading ("◇ 서류 접수" then "- 기간: 7.6 ~ 7.19"; "◇ 면접"
    then "- 1차: 8.3" and "- 2차: 8.10")."""
    kind = DOCUMENT if heading.stage_type == "DOCUMENT" else OTHER
    named = Mention(kind, 0, 0, heading.stage)  # an assignment heading: its due date
    for w in _chosen(Step([named], kind, 0, 0, list(dates))):
        if heading.date is None or kind == DOCUMENT:
            stage = Stage(heading.stage, heading.stage_type, w.value, w.time)
            if kind == DOCUMENT and w.since is not None and w.since in dates:
                stage.start = w.since.value  # "■ 접수기간" then "12.01 ~ 12.15": both ends
            schedule.add(stage, [], heading)
        elif label:
            schedule.add(Stage(label, heading.stage_type, w.value, w.time), [])


def _renamed_rolling(stages: list[Stage]) -> list[Stage]:
    """An undated rolling application is called what it is: "상시 채용"."""
    for s in stages:
        if s.stage_type == "DOCUMENT" and s.date is None and ROLLING.search(s.stage):
            s.stage = "상시 채용"
    return stages
