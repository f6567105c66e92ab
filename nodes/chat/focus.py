"""What the room is talking about: the objects its recent turns produced, so that "방금 추가한
일정", "그거", "첫 번째 거", "거기 면접은?" resolve to an object instead of a search.

The room's `focus` (checkpointed with the room, so any process continues it) is rebuilt
after every turn from that turn's tool calls and results (`after_turn`), whichever path
made them (the deterministic one or a tool-calling model):

- `items`: schedules the recent turns added, changed, deleted or listed, most recent
  first (at most MAX_ITEMS), each with `how` and the turn it was touched in;
- `listed`: the last listing's items in the order the user saw them ("두 번째 거"), and
  `looked_turn` the turn of the last look at the schedule (found or not: "그럼 담주는?");
- `posting`: the posting the last recruitment question was about ("거기 코테는 언제야?");
- `last_change`: the last change's request, the values it set and those it replaced, for
  "카카오 것도 똑같이" and "아 아니다 원래대로 돌려줘";
- `original`: per item the room changed, each changed field's value before the room's first
  change of it ("4시로", "제목도 …", then "둘 다 원래대로");
- `pending`: an operation that was asked back ("어느 일정을 말씀하시는 건가요?") with its
  choices, so the next turn's answer ("첫 번째 거", "스터디") completes it.

Resolution (`refers_to`) is by the closed class of Korean pointing words (demonstratives
그/이/저 + a noun, 방금/아까, ordinals), never by a pattern per example: a pointer
picks among the focus's items ("처음에 넣은 거": the room's adds in the order it made them);
when two fit, the caller asks back with the choices.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage

from nodes.chat.router import ADD_VERB, DAYS_LEFT, koreanised, pasted_block, unquoted
from text.korean_text import analysed, content_words, squash
from text.stages import STAGE_PATTERNS, named_stages

MAX_ITEMS = 10
# Pointing back: demonstrative + noun ("그 일정", "그거", "이 면접"), "방금/아까/앞에서",
# "that/it" in English. The demonstrative must stand alone ("그리고", "이번" are not).
POINTER = re.compile(
    r"방금|아까|앞에서|위에서|조금\s*전|"
    r"(?<![가-힣])(?:그|이|저)(?:거|것|건|걸|게)(?![가-힣]{2})|"
    r"(?<![가-힣])(?:그|이|저)\s+(?:일정|스케줄|약속|면접|거|것|건|날|때|시간|공고|회사)|"
    # formal: "동 공고의", "해당 공고", "상기 일정"
    r"(?<![가-힣])(?:동|해당|상기)\s*(?:공고|회사|일정)(?![가-힣]{2})|"
    # a stage of the posting just discussed ("그 코테", "그 과제", "그 마감")
    r"(?<![가-힣])그\s*(?:코테|코딩\s*테스트|과제|서류|마감|발표|인적성|필기|시험)(?![가-힣]{2})|"
    # typed without the space ("그회사", "그공고") and "저번 거" (the one before)
    r"(?<![가-힣])(?:그|저)(?:일정|스케줄|약속|면접|공고|회사)|(?<![가-힣])저번\s*(?:거|것|꺼|건)|"
    r"(?<![가-힣])(?:그날|그때|거기|걔|그쪽)|"
    # "그 중 하나는 못 갈 듯 지워줘": one of what the last turn touched (which one is asked)
    r"(?<![가-힣])(?:그|둘)\s*중(?:에)?\s*(?:하나|한\s*개|한\s*건)|(?i:\bone\s+of\s+(?:them|those)\b)|"
    r"(?i:\b(?:that|it|this one|that one|the one|the\s+[a-z]+\s+one)\b)|"
    # the company of a posting in English ("what do they require?", "their coding test"),
    # not any pronoun ("add lunch with them")
    r"(?i:\b(?:do|does|did|will|would|are|were)\s+they\b|\bthey\s+(?:want|require|need|ask|"
    r"look|hire|offer|pay|use|expect)|\btheir\s+(?:\w+\s+)?(?:interview|test|deadline|posting|"
    r"requirements?|process|schedule|position|role|team|salary|benefits?|stack|dates?)\b)"
)
# "카카오 것도 똑같이", "스터디도 마찬가지로": the last change, on another item.
# The value the last change set, for another item ("나머지 면접도 같은 날로"): a change,
# whose day is the room's (not the last change repeated: "하루 뒤로" then "스터디도 같은 날로"
# is the day the first item moved to).
SAME_VALUE_TOO = re.compile(r"(?<=도)\s*같은\s*(?:날|날짜|시간|시각)(?:로|으로)")
SAME_AGAIN = re.compile(
    r"똑같이|마찬가지로|같은\s*걸로|(?:도|것도|거도)\s*그렇게|"
    r"(?i:\bthe\s+same\b|\bsame\s+(?:for|with)\b)"
)
# "옮긴 거 중에", "바꾼 것들 중": the items the last change changed, as a list.
_CHANGED_ONES = re.compile(
    r"(?:옮긴|바꾼|미룬|당긴|늦춘|변경한|수정한|연기한|밀린)\s*(?:거|것|건|일정)(?:들)?\s*중"
)
# "처음에 넣은 거", "두 번째로 추가한 거", "마지막에 넣은 거": the items the room added, in
# the order it added them.
ADDED_ORDER = re.compile(
    r"(맨\s*처음|처음|첫\s*번째로|두\s*번째로|세\s*번째로|마지막|나중)(?:에|으로)?\s*"
    r"(?:추가|등록|넣|잡|만든)"
)
_ADDED_INDEX = {"처음": 0, "첫": 0, "두": 1, "세": 2, "마지막": -1, "나중": -1}
# "방금 추가한 …", "아까 넣은 …": the last item added.
JUST_ADDED = re.compile(r"(?:방금|아까|조금\s*전)\s*(?:\S+\s+)?(?:추가|등록|넣|잡|만든)")
ORDINAL = re.compile(
    r"(첫|두|세|네|다섯)\s*(?:번째|번\s*째)|([1-5])\s*(?:번째|번)(?![가-힣]{2})|(마지막)|"
    r"(?i:\b(first|second|third|last)\b)|"
    # the ends of the list as the user saw it: "맨 위에 있는 거", "제일 밑에 거"
    # (and in time: "제일 먼저 있는 면접", "가장 늦게 있는 거": a listing runs by date)
    # (of two: "날짜 더 빠른 거", "더 늦은 거")
    # (and "둘 중에 늦은 거": the later of them)
    r"(?:맨|제일|가장|(?:(?<![가-힣])더|(?<=[\s둘그])중(?:에서|에)?)"
    # (or "중에 늦게 있는 거", "일찍 있는 거")
    r"(?=\s*(?:빠른|이른|늦은|(?:늦게|일찍|빨리)\s*있는)\s*(?:거|것|건|꺼|쪽)"
    r"(?:은|는|을|를|도|엔|에는)?(?![가-힣])))"
    r"\s*(?:(위|앞|처음|먼저|빠른|이른|일찍|빨리)|(아래|밑|뒤|끝|나중|늦은|늦게))|"
    # spoken ordinals ("첫째 거", "둘째꺼"; not "둘째 주", "첫째 날") and the top or bottom
    # item of what was shown ("위에 거", "밑에거")
    r"(첫|둘|셋|넷)\s*째(?!\s*(?:주|날|달|딸|아들|아이|형|언니|오빠|누나))|"
    r"(?:(위)|(아래|밑))\s*에?\s*(?:있는\s*)?(?:거|것|꺼|일정)|"
    # "the later one", "the earlier one": of two in time (a listing runs by date)
    r"(?i:\bthe\s+(?:(later|latter)|(earlier|former))\s+one\b)|"
    # said first in a reply about two just shown: "빠른 거엔 메모", "늦은 건 지워"
    r"^\s*(?:(빠른|이른)|(늦은))\s*(?:거|것|건|꺼|쪽)(?:은|는|엔|에는|을|를|도)?(?![가-힣])"
)
_ORDINALS = {"첫": 0, "두": 1, "세": 2, "네": 3, "다섯": 4, "first": 0, "second": 1, "third": 2}
# "그날", "그 날", "그때", "같은 날": the day (and time) of the item in focus.
DAY_POINTER = re.compile(
    # (formal: "해당 일자를 본인 일정에 …")
    r"해당\s*(?:일자|날짜|날)(?=\s|$|[을를에은는로의,.])|그\s*날|그\s*때|같은\s*날|그\s*시(?:간|각)|같은\s*시(?:간|각)|그\s*주(?=\s|$|에|의|는|도|[,.?!])|전날|전\s날(?![씨짜개])|"
    r"(?:다음|담)\s*날|이튿날|그\s*(?:다음|담)\s*주|"
    # the day an item was just moved to ("바뀐 날 아침 9시에 …", "옮긴 날에도")
    r"(?:바뀐|옮긴|변경된|미뤄진|당겨진)\s*(?:날짜?|일자)|"
    # "거기에 오전 11시 치과 추가" after a look at a day; "그거 끝나고 저녁 6시에"; "그 이틀 전"
    r"(?<![가-힣])거기(?:에|에다가?|에도)(?=\s)|"
    r"(?<![가-힣])그(?:거|것)\s*(?:끝나고|끝나면|마치고|끝난\s*(?:뒤|후)에?)|"
    r"(?<![가-힣])그\s*(?:하루|이틀|사흘|나흘|\d{1,2}\s*일)\s*(?:전|뒤|후)|"
    # in English: "that day", "the same day", "the day before", "two days before that"
    r"(?i:\bthat\s+(?:day|date|week)\b|\bthe\s+same\s+(?:day|date|time)\b|"
    r"\bthe\s+(?:day\s+(?:before|after)|previous\s+day|next\s+day|following\s+day)\b|"
    r"\b(?:one|two|three|four|five|[1-9])\s+days?\s+(?:before|after)\s+(?:that|it)\b)"
)


# A follow-up asking only when or how long ("몇 시에 봐?", "D-몇임", "what time?"): of the
# stage asked before (not "전형 일정 전부 언제야?": every stage).
_WHEN_ASKED = re.compile(
    rf"{DAYS_LEFT.pattern}|몇\s*시|언제|몇\s*요일|무슨\s*요일|(?i:\bwhat\s+time\b|\bwhen\b)"
)
_EVERY_STAGE = re.compile(
    r"일정|전형|스케줄|전부|모두|다\s*(?:알려|보여)|(?i:\ball\b|\bschedule\b)"
)


def asks_when_only(text: str) -> bool:
    """ "몇 시에 봐?", "D-몇임", "언제야?": when the stage the room is on takes place, and no
    more (the posting's whole schedule is asked with 일정/전형/전부)."""
    return bool(_WHEN_ASKED.search(text)) and not _EVERY_STAGE.search(text)


# "anything preferred there?", "what else is in there": the document a document answer was
# from (read by the document follow-ups only: "is there …" and "be there" are no pointer).
THERE = re.compile(r"(?i)\bthere(?=\s*[?？.!]*\s*$)|\bin\s+there\b")


@dataclass(frozen=True)
class Resolved:
    """A pointer's object, or the choices to ask back with (`item` None, several choices),
    or nothing (`item` None, no choices: the pointer named nothing the room has)."""

    item: dict[str, Any] | None
    choices: list[dict[str, Any]]


# For how many turns the focus keeps a user message that touched no schedule, and how much
# of it.
SAID_TURNS = 3
SAID_CHARS = 300


def empty() -> dict[str, Any]:
    return {
        "items": [],
        "listed": [],
        "posting": None,
        "pending": None,
        "listed_day": None,
        "listed_range": None,
        "last_change": None,
        "original": {},
        "looked_turn": -1,
        "turn": 0,
        "said": [],
        "answered": [],
        "notice": None,
    }


# For how many turns the room keeps the lines of a notice the user pasted ("수험표 출력
# 시작일에도 넣어줘" two turns after pasting it), and how many of its lines.
NOTICE_TURNS = 5
NOTICE_LINES = 30


def _notice_after(state: dict[str, Any], question: str, turn: int) -> dict[str, Any] | None:
    """The notice the room keeps after a turn: the one this turn's message pasted (its
    lines), else the last one while it is recent."""
    pasted = pasted_block(question)
    if pasted is not None:
        lines = [line.strip() for line in pasted[1].split("\n") if line.strip()]
        return {"turn": turn, "lines": [line[:200] for line in lines[:NOTICE_LINES]]}
    kept = state.get("notice")
    return kept if kept and turn - int(kept.get("turn", 0)) < NOTICE_TURNS else None


def _turn_messages(messages: list[BaseMessage]) -> list[BaseMessage]:
    """The messages of the last turn (after its HumanMessage)."""
    for i in range(len(messages) - 1, -1, -1):
        if isinstance(messages[i], HumanMessage):
            return messages[i + 1 :]
    return []


def _item(record: dict[str, Any], how: str, turn: int) -> dict[str, Any]:
    keep = ("schedule_id", "title", "date", "time")
    return {**{k: record.get(k) for k in keep}, "how": how, "turn": turn}


def by_name_undated(text: str, stages: list[dict[str, Any]]) -> bool:
    """Whether the text names a stage by its name ("최종 면접") that the posting gives no
    date: no other stage of its type is the one meant."""
    by_name = [s for s in stages if s.get("stage") and squash(str(s["stage"])) in squash(text)]
    return bool(by_name) and not any(s.get("date") for s in by_name)


def _asked_stages(question: str, stages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The posting's dated stages a question asked about ("카카오 1차 면접 언제야?",
    "거기서 두번째 단계는 언제 봐?"); none when it names one with no date ("최종 면접")."""
    if by_name_undated(question, stages):
        return []
    named = named_stages(question, [s for s in stages if s.get("date")])
    if named is not None:
        return named
    return [s for s in stage_at(question, stages) or [] if s.get("date")]


# A stage's word as the user wrote it, with a round or kind said before it ("1차 면접",
# "최종발표", "온라인 코테"), without what follows it in its word ("코테날짜가" -> "코테").
_STAGE_QUALIFIER = re.compile(
    r"(?:\d\s*차|최종|온라인|오프라인|실무|임원|기술|인성|(?i:final|online|first|second))$"
)
_SAID_TAIL = re.compile(
    r"(?:날짜|날|일정|일자|일시|시간|시각|기간|은요|는요|이요|까지|부터|이랑|랑|하고|"
    r"은|는|이|가|을|를|도|만|요|"
    r"[?？.!,~]|(?i:\s*(?:dates?|times?|schedule)))+$"
)


def said_stage(question: str) -> str | None:
    """The stage a question names, in the user's words ("카카오 코테 언제예요?" -> "코테",
    "네이버 1차면접은." -> "1차면접"); None when it names none."""
    # (a deadline is named by the posting: "서류" alone is no name of "서류 마감")
    found = [
        m
        for kind, pattern in STAGE_PATTERNS
        if kind != "DOCUMENT"
        for m in [pattern.search(question)]
        if m
    ]
    if not found:
        return None
    first = min(found, key=lambda m: m.start())
    start = question.rfind(" ", 0, first.start()) + 1
    end = question.find(" ", first.end())
    word = _SAID_TAIL.sub("", question[start : len(question) if end < 0 else end])
    ahead = question[:start].split()
    if ahead and _STAGE_QUALIFIER.search(ahead[-1]) and len(ahead[-1]) <= 4:
        word = f"{ahead[-1]} {word}"
    # (a stage said in English keeps the posting's name: "네이버 coding test" is no title)
    return word if re.fullmatch(r"[가-힣0-9 ]{2,20}", word) else None


_ONLY_THE_COMPANY = re.compile(
    r"그럼|그러면|그리고|그건|(?i:\band\b|\bwhat\s+about\b|\bhow\s+about\b)|[은는도요?？.!~\s]"
)


def asked_like_before(
    question: str, company: str | None, stages: list[dict[str, Any]], before: dict[str, Any] | None
) -> list[dict[str, Any]]:
    """ "네이버는?" right after "카카오 코테 날짜": the question names only another company, so
    it asks the same stage of that company's posting (of the type asked before, narrowed
    by its name); [] otherwise."""
    if not company or not before or not before.get("asked"):
        return []
    asked = koreanised(question)
    if squash(company) not in squash(asked):
        return []
    if _ONLY_THE_COMPANY.sub("", asked.replace(company, " ", 1)):
        return []
    types = {s.get("stage_type") for s in before["asked"]}
    typed = [s for s in stages if s.get("stage_type") in types and s.get("date")]
    names = " ".join(str(s.get("stage") or "") for s in before["asked"])
    return named_stages(names, typed) or typed


# A stage's round ("1차", "최종", "임원"): a word that tells two stages of a kind apart.
_ROUND = re.compile(r"\d차|[일이삼]차|최종|임원|실무|기술")


def stage_title(posting: dict[str, Any], stage: dict[str, Any]) -> str:
    """The title of an add of a posting's stage: the company and the stage as the user
    called it when they asked it alone ("카카오 코테"), else as the posting names it."""
    company = posting.get("company")
    asked = [s.get("stage") for s in posting.get("asked") or []]
    said = posting.get("said") if asked == [stage.get("stage")] else None
    named = squash(str(stage.get("stage") or ""))
    round_said = _ROUND.search(squash(said or ""))
    if round_said and round_said.group(0) not in named:
        said = None  # "최종 면접" asked, "1차 면접" told: the posting's name
    if said and named != squash(said) and named.endswith(squash(said)):
        said = None  # "면접" asked, "1차 면접" told: the posting's fuller name
    name = str(said or stage.get("stage") or "")
    if not company or squash(company) in squash(name):
        return name
    return f"{company} {name}"


# "둘다 넣어줘", "둘 다 캘린더에", "add both": each of the two things just asked.
BOTH = re.compile(
    r"(?<![가-힣])둘\s*다|두\s*(?:개|개\s*다|개\s*모두|가지\s*다)(?![가-힣])|둘\s*모두|"
    r"(?i:\bboth\b)"
)
# "둘다 캘린더에": put into the schedule, the verb left out.
INTO_CALENDAR = re.compile(
    r"(?:캘린더|달력|일정|스케줄|내\s*일정)(?:에|에다|에다가)(?:도)?\s*(?:좀\s*)?[.!~ㅎㅋ]*\s*$"
)


_PUT_IN_WORDS = frozenset({"일정", "캘린더", "달력", "스케줄", "시간", "날짜", "추가", "등록"})
# Declined, put off or asked whether ("둘 다 안 넣어도 돼", "되돌리지 마", "넣어도 될까?"):
# no request.
DECLINED = re.compile(
    r"(?<![가-힣])안\s|말고|(?:지|하)\s*(?:마|말)|않|나중|해도\s*(?:될|돼|되)|할까|[?？]"
)
# An operation other than an add ("…하고 스터디는 지워줘", "옮겨", "바꿔").
_OTHER_OPERATION = re.compile(r"지워|삭제|취소|빼|옮겨|바꿔|변경|수정|미뤄|당겨")


def _only_put_in(message: str) -> bool:
    """Whether a message only asks to put things in ("둘다 넣어줘", "둘 다 캘린더에 시간까지"):
    no other event, no other operation, not asked whether or declined."""
    if DECLINED.search(message) or _OTHER_OPERATION.search(message):
        return False
    rest = BOTH.sub(" ", message)
    return not [w for w in content_words(rest) if not w.isascii() and w not in _PUT_IN_WORDS]


_STAGE_ADD_WORDS = frozenset(
    {"회사", "기업", "일정", "날짜", "일자", "캘린더", "달력", "스케줄", "공고", "시간", "차"}
)


def only_a_stage_put_in(message: str) -> bool:
    """ "그 회사 1차 면접 날짜도 내 캘린더에 넣어줘": the message names a stage and nothing
    else to put in (not "그 회사 면접 준비 일정", "면접 후기 기록해줘")."""
    rest = message
    for _, pattern in STAGE_PATTERNS:
        rest = pattern.sub(" ", rest)
    if rest == message or DECLINED.search(message):
        return False
    return not [w for w in content_words(rest) if not w.isascii() and w not in _STAGE_ADD_WORDS]


def answer_named(history: list[dict[str, Any]], posting: dict[str, Any]) -> bool:
    """Whether the room's last answer named the posting's company (its source line: "출처:
    카카오 채용공고 · 우대사항"), so "그 회사" is that company and not the résumé's."""
    company = str(posting.get("company") or "")
    last = str((history[-1] if history else {}).get("assistant") or "")
    return bool(company) and company in last


def both_told(
    message: str, focus: dict[str, Any] | None
) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """ "둘다 넣어줘" right after two postings were asked one stage each ("카카오 코테 날짜",
    "네이버는"): each posting with its stage, in the order asked; [] otherwise (not two
    postings' turns in a row, or a stage of either not one dated stage)."""
    posting = (focus or {}).get("posting") or {}
    before = posting.get("before") or {}
    turn = (focus or {}).get("turn")
    if (
        not BOTH.search(message)
        or not (ADD_VERB.search(message) or INTO_CALENDAR.search(message))
        or posting.get("turn") != turn
        or before.get("turn") != (turn or 0) - 1
        or not _only_put_in(message)
    ):
        return []
    pairs = []
    for told in (before, posting):
        dated = [s for s in told.get("asked") or [] if s.get("date")]
        if len(dated) != 1:
            return []
        pairs.append((told, dated[0]))
    return pairs


# "두번째 단계", "세 번째 전형", "the second step": a stage by its place in the process.
_STAGE_NOUN = re.compile(r"단계|전형|스텝|과정|(?i:\b(?:step|stage|round)s?\b)")


def stage_at(text: str, stages: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
    """The stage a text names by its position in the posting's process, as the stages
    were listed; None when it names no position of a stage."""
    if not _STAGE_NOUN.search(text):
        return None
    position = ordinal_position(text)
    if position is None or not -len(stages) <= position < len(stages):
        return None
    return [stages[position]]


def after_turn(
    focus: dict[str, Any] | None,
    messages: list[BaseMessage],
    pending: dict[str, Any] | None,
    sources: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The focus after a turn: its tool results (from the turn's ToolMessages' artifacts)
    put first; `pending` is the operation this turn asked back about (None clears it);
    `sources` the documents a document answer quoted (a posting among them becomes the
    posting in focus: "거기 코테는 언제야?")."""
    state = {**empty(), **(focus or {})}
    question = next((str(m.content) for m in reversed(messages) if isinstance(m, HumanMessage)), "")
    turn = int(state["turn"]) + 1
    items = list(state["items"])
    listed = list(state["listed"])
    posting = state["posting"]
    this_turn = _turn_messages(messages)
    calls = {c["id"]: c for m in this_turn if isinstance(m, AIMessage) for c in m.tool_calls}
    listed_day = state.get("listed_day")
    listed_range = state.get("listed_range")
    last_change = state.get("last_change")
    original = {k: dict(v) for k, v in (state.get("original") or {}).items()}
    looked_turn = state.get("looked_turn", -1)
    touched: list[dict[str, Any]] = []
    for m in this_turn:
        if not isinstance(m, ToolMessage) or not isinstance(m.artifact, dict):
            continue
        call: Mapping[str, Any] = calls.get(m.tool_call_id) or {"name": m.name or "", "args": {}}
        name = call["name"]
        artifact = m.artifact
        if name == "get_schedule":
            shown = [_item(s, "listed", turn) for s in artifact.get("schedules") or []]
            listed = shown
            looked_turn = turn  # a look at the schedule, even one that found nothing
            touched += shown
            args = call["args"] or {}
            if args.get("start_date") and args.get("start_date") == args.get("end_date"):
                # "크리스마스에 일정 있나?" -> "없으면 그날 …": the day looked at
                listed_day = {"date": args["start_date"], "turn": turn}
            elif args.get("start_date") and args.get("end_date"):
                # "담주 일정" -> "그 담주는": the period looked at
                listed_range = {"start": args["start_date"], "end": args["end_date"]}
        elif name in ("add_schedule", "update_schedule", "delete_schedule") and artifact.get(
            "schedule"
        ):
            how = {"add_schedule": "added", "update_schedule": "changed"}.get(name, "deleted")
            touched.append(_item(artifact["schedule"], how, turn))
            if name == "update_schedule":
                # what "카카오 것도 똑같이" repeats: the request and the values it set
                changes = {k: v for k, v in (call["args"] or {}).items() if k != "schedule_id"}
                # what "원래대로 돌려줘" restores: the values the change replaced
                was = artifact.get("before") or {}
                before = {k: was.get(k) for k in changes if k in ("title", "date", "time")}
                # every item the turn changed, with the values each had ("다 한 시간씩
                # 미뤄줘" then "면접은 원래대로")
                each = dict((last_change or {}).get("each") or {})
                if (last_change or {}).get("turn") != turn:
                    each = {}
                each[artifact["schedule"].get("schedule_id")] = before
                first = original.setdefault(str(artifact["schedule"].get("schedule_id")), {})
                for key, value in before.items():
                    first.setdefault(key, value)
                last_change = {
                    "clause": question,
                    "changes": changes,
                    "before": before,
                    "each": each,
                    # the slot the change left ("비는 원래 시간에 …")
                    "slot": {"date": was.get("date"), "time": was.get("time")},
                    "schedule_id": artifact["schedule"].get("schedule_id"),
                    "turn": turn,
                }
        elif name == "get_recruitment_schedule" and artifact.get("doc_id"):
            stages = artifact.get("stages") or []
            of_question = _asked_stages(question, stages)
            said = said_stage(question) if of_question else None
            if not of_question and asks_when_only(question) and posting:
                # "D-몇임", "몇 시에 봐?" after "서류마감 언제": still the stage asked before it
                same = posting.get("doc_id") == artifact["doc_id"]
                of_question = list(posting.get("asked") or []) if same else []
                said = posting.get("said") if same else None
            carried = asked_like_before(question, artifact.get("company"), stages, posting)
            if not of_question and carried:
                # "네이버는" after "카카오 코테 날짜": the same stage, of this posting
                of_question, said = carried, (posting or {}).get("said")
            posting_before: dict[str, Any] | None = (posting or {}).get("before")
            if posting and posting.get("doc_id") != artifact["doc_id"]:
                # "카카오 코테 날짜" then "네이버는" then "둘다 넣어줘": the posting before
                posting_before = {k: v for k, v in posting.items() if k != "before"}
            posting = {
                "doc_id": artifact["doc_id"],
                "company": artifact.get("company"),
                "stages": stages,
                "asked": of_question,
                # the user's own word for the stage asked ("코테", "1차면접"): the title of
                # an add of it
                "said": said,
                "turn": turn,
                "before": posting_before,
            }
    quoted = [s for s in sources or [] if s.get("doc_type") == "posting"]
    # the quoted posting of the company the question names ("네이버는?"), else the first
    asked = koreanised(question)
    # then the posting already in focus ("거기 우대사항은" stays with it)
    held = (posting or {}).get("doc_id")
    quoted.sort(
        key=lambda s: (not (s.get("company") and s["company"] in asked), s["doc_id"] != held)
    )
    if quoted and not (posting and posting.get("turn") == turn):
        same = posting and posting.get("doc_id") == quoted[0]["doc_id"]
        posting = {
            "doc_id": quoted[0]["doc_id"],
            "company": posting.get("company") if same else quoted[0].get("company"),
            "stages": posting.get("stages", []) if same else [],
            # quoted by a document answer: the room was told no day of it, unless its dates
            # were answered before ("카카오 코테 언제야?" then "카카오 우대사항 뭐야?": 그날 is
            # still the 코테's)
            "asked": posting.get("asked", []) if same else [],
            "turn": turn,
            "dated": bool(same and posting.get("dated", True)),
        }
    before = {i["schedule_id"]: i for i in items}
    for rank, t in enumerate(touched):
        # an item the room added stays one it added when changed since ("같은걸로 하나더"
        # after putting a memo on it; "처음에 넣은 거"), in its place among that turn's adds
        was = before.get(t["schedule_id"]) or {}
        if t["how"] == "added":
            t["added_turn"], t["added_rank"] = turn, rank
        elif t["how"] in ("changed", "listed") and was.get("added_turn") is not None:
            # (listed since, it is still one the room added: "아까 그 시간으로" after a look)
            t["added_turn"], t["added_rank"] = was["added_turn"], was.get("added_rank", 0)
    ids = {t["schedule_id"] for t in touched}
    items = [*touched, *(i for i in items if i["schedule_id"] not in ids)][:MAX_ITEMS]
    kept = {i["schedule_id"] for i in items}
    return {
        "items": items,
        "listed": listed,
        "posting": posting,
        "pending": pending,
        "listed_day": listed_day,
        "listed_range": listed_range,
        "last_change": last_change,
        # (of the items the room still holds in focus)
        "original": {k: v for k, v in original.items() if k in kept},
        "looked_turn": looked_turn,
        "turn": turn,
        "notice": _notice_after(state, question, turn),
        # the room's last words that touched no schedule ("금요일 네이버 면접 때문에 떨려요"
        # then "면접 전날 …"): what singles out one of several items a later clause fits
        # (schedule_requests.talked_of); the items a turn touched are in `items` already
        "said": [
            *(
                r
                for r in state.get("said") or []
                if isinstance(r, dict) and turn - int(r.get("turn", 0)) < SAID_TURNS
            ),
            *([{"text": question[:SAID_CHARS], "turn": turn}] if not touched and not calls else []),
        ],
        # what the room's document answers showed, for as long: "그 Redis 얘기 메모에 적어줘"
        # two turns later writes that line
        "answered": [
            *(
                r
                for r in state.get("answered") or []
                if isinstance(r, dict) and turn - int(r.get("turn", 0)) < SAID_TURNS
            ),
            *(
                [{"text": lines_shown, "turn": turn}]
                if sources and (lines_shown := _shown_lines(this_turn))
                else []
            ),
        ],
    }


def _shown_lines(messages: list[BaseMessage]) -> str:
    """The lines a document answer showed, without its source line."""
    answer = next((str(m.content) for m in reversed(messages) if isinstance(m, AIMessage)), "")
    lines = [line for line in answer.splitlines() if line.strip() and not _SOURCE_LINE.match(line)]
    return "\n".join(lines)[:SAID_CHARS]


_SOURCE_LINE = re.compile(r"\s*\(?\s*(?:출처|source)", re.IGNORECASE)

# Content the room was shown, pointed to by what it was about: "그 Redis 얘기", "아까 그
# 응답시간 줄인 얘기", "that Redis part".
TALKED_CONTENT = re.compile(
    r"(?:(?:아까|방금|앞에서)\s*)?(?<![가-힣])(?:그|저)\s+"
    r"((?:(?!(?<![가-힣])(?:그|저)\s|메모)[^'\"\n,]){1,30}?)\s*"
    r"(?:얘기|이야기|내용|문장)(?:를|을|은|는|도)?(?![가-힣])"
)
# What the last answer said, by the saying: "방금 말씀하신 자격증 명칭", "아까 알려준 회사 이름".
SAID_CONTENT = re.compile(
    r"(?:방금|아까|앞에서)\s*(?:말씀하신|말씀해\s*주신|말한|말해\s*준|알려\s*준|알려\s*주신|"
    r"찾아\s*준|찾아\s*주신|보여\s*준|보여\s*주신|나온)\s+([^'\"\n,.]{1,20}?|거|것)"
    r"(?:을|를|이|가|은|는|도)?(?=\s+(?:좀\s*)?(?:적|넣|써|쓰|남겨|달아|기재|기입|추가|입력)|\s*[.!]*$)"
)
# A name asked for is the words without what a parenthesis adds ("정보처리기사 (2021)").
_NAME_WORD = re.compile(r"명칭|이름|(?i:\bname\b)")
# The memo the room last wrote, asked again: "같은 메모", "메모도 똑같이", "the same memo".
SAME_MEMO = re.compile(
    r"같은\s*메모|메모(?:도|는)?\s*(?:똑같이|그대로|같게)|(?i:\bsame\s+(?:memo|note)\b)"
)


def answered_part(about: str, focus: dict[str, Any] | None) -> str | None:
    """The part of a line the room's recent document answers showed that holds the most of
    `about`'s content words (newest first on a tie); None when none holds any."""
    words = {squash(w) for w in content_words(about)}
    best, score = None, 0
    for record in reversed((focus or {}).get("answered") or []):
        for part in re.split(r",\s+|\n", str(record.get("text") or "")):
            held = sum(1 for w in words if w and w in squash(part))
            if held > score:
                best, score = part.strip(), held
    return best


# Where a memo goes in a request: after "메모에" / "메모로" / "메모".
_MEMO_SLOT = re.compile(r"메모(?:\s*(?:란|칸))?(?:에는|에|엔|로)?(?=\s)|(?i:\bmemo\b|\bnote\b)")


def with_memo_recalled(message: str, focus: dict[str, Any] | None) -> str:
    """The message with a memo it points to written out, quoted where a memo goes: "그 면접
    메모에 아까 그 Redis 얘기 적어줘" -> "그 면접 메모에 'Redis 분산 락으로 …' 적어줘" (a line
    the room's document answers showed); "카카오 면접에도 같은 메모 달아줘" -> the memo the
    room last wrote. Unchanged when it points to nothing the room has."""
    slot = _MEMO_SLOT.search(message)
    if slot is None:
        return message
    same = SAME_MEMO.search(message)
    if same is not None and (memo := last_memo(focus)):
        return f"{message[: same.start()]}메모 '{memo}'{message[same.end() :]}"
    # (a memo the user quoted is theirs, as said: "'그 Kafka 얘기는 짧게' 적어줘")
    quoted = unquoted(message) != message
    pointer = None if quoted else TALKED_CONTENT.search(message) or SAID_CONTENT.search(message)
    part = answered_part(pointer.group(1), focus) if pointer is not None else None
    if pointer is not None and part is None and pointer.re is SAID_CONTENT:
        # "메모에는 방금 말씀하신 자격증 명칭을" after an answer of one line: that line
        last = ((focus or {}).get("answered") or [{}])[-1]
        parts = [p.strip() for p in re.split(r",\s+|\n", str(last.get("text") or "")) if p.strip()]
        if len(parts) == 1 and last.get("turn") == (focus or {}).get("turn"):
            part = parts[0]
    if pointer is None or part is None:
        return message
    if _NAME_WORD.search(pointer.group(1)):
        part = re.sub(r"\s*[(（][^)）]*[)）]", "", part).strip() or part
    rest = message[: pointer.start()] + message[pointer.end() :]
    slot = _MEMO_SLOT.search(rest)
    if slot is None:
        return message
    return f"{rest[: slot.end()]} '{part}'{rest[slot.end() :]}"


def last_memo(focus: dict[str, Any] | None) -> str | None:
    """The memo the room's last change wrote, if it wrote one."""
    changes = ((focus or {}).get("last_change") or {}).get("changes") or {}
    memo = changes.get("memo")
    return str(memo) if memo else None


# A day said relative to the day in focus: "전날", "다음 날", "그 다음 주 같은 요일".
DAY_SHIFT = re.compile(
    # "담" is 다음 clipped, as in 담주 and 담달: "그 담날은?"
    r"(전날|전\s*날|(?i:\bthe\s+(?:day\s+before|previous\s+day)\b))|"
    r"((?:다음|담)\s*날|이튿날|(?i:\bthe\s+(?:next|following)\s+day\b|\bthe\s+day\s+after\b))|"
    r"(그\s*(?:다음|담)\s*주|(?:다음|담)\s*주\s*같은\s*요일|"
    r"(?i:\bthe\s+(?:next|following)\s+week\b|\ba\s+week\s+later\b))|"
    # a count of days: "하루 전", "이틀 뒤", "사흘 후", "3일 전", "일주일 뒤" (not "12월 3일 후")
    r"(하루|이틀|사흘|나흘|닷새|일주일|(?<![월/.\d]\s)(?<![월/.\d])\d{1,2}\s*일)\s*(전|뒤|후)|"
    # "two days before that", "3 days after"
    r"(?i:\b(one|two|three|four|five|[1-9])\s+days?\s+(before|after|earlier|later)\b)|"
    # a countdown to the item ("카카오 면접 D-3에"): that many days before it
    r"(?i:(?<![A-Za-z])D\s*-\s*(\d{1,2})(?!\d))"
)
_EN_COUNTS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
_DAY_COUNTS = {"하루": 1, "이틀": 2, "사흘": 3, "나흘": 4, "닷새": 5, "일주일": 7}


def was_added(item: dict[str, Any]) -> bool:
    """Whether the room added the item (and has not deleted it since)."""
    return item["how"] == "added" or (item["how"] == "changed" and "added_turn" in item)


def focus_day(focus: dict[str, Any] | None) -> tuple[str, str | None] | None:
    """The day (and time) the last turn was about: the one schedule it touched, or the one
    stage of a posting it answered ("카카오 1차 면접 언제야?" -> that stage's date)."""
    state = {**empty(), **(focus or {})}
    posting = state.get("posting") or {}
    # the most recent turn that was about something (a turn that only asked or failed
    # leaves the room's subject as it was)
    listed_day = state.get("listed_day") or {}
    # (a posting a document answer quoted gave no day: "이력서에 자격증 뭐 있지" between an add
    # and "그 다음날 … 하나 더" leaves the day the add's)
    dated = posting if posting.get("dated", True) else {}
    turn = max(
        [i["turn"] for i in state["items"][:1]]
        + [dated.get("turn") or 0, listed_day.get("turn") or 0]
    )
    touched = [i for i in state["items"] if i["turn"] == turn and i["how"] != "listed"]
    listed = [i for i in state["items"] if i["turn"] == turn]
    for pool in (touched, listed):
        if len(pool) == 1:
            return pool[0]["date"], pool[0].get("time")
    asked = posting.get("asked") or []
    if posting.get("turn") == turn and len(asked) == 1:
        return asked[0]["date"], asked[0].get("time")
    if listed_day.get("turn") == turn:
        return listed_day["date"], None
    return None


def shifted_day(day: str, text: str) -> str:
    """The focus day moved as the text says (전날 -1, 다음 날 +1, 그 다음 주 +7, 이틀 전 -2)."""
    from datetime import date, timedelta

    m = DAY_SHIFT.search(text)
    if m is None:
        return day
    if m.group(4):
        count = _DAY_COUNTS.get(m.group(4)) or int(re.sub(r"\D", "", m.group(4)))
        days = -count if m.group(5) == "전" else count
    elif m.group(6):
        word = m.group(6).lower()
        count = _EN_COUNTS.get(word) or int(word)
        days = -count if m.group(7).lower() in ("before", "earlier") else count
    elif m.group(8):
        days = -int(m.group(8))
    else:
        days = -1 if m.group(1) else 1 if m.group(2) else 7
    return (date.fromisoformat(day) + timedelta(days=days)).isoformat()


def last_item(focus: dict[str, Any] | None, live: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The one schedule the last turn added or changed (or listed alone), if it still
    exists: what an elliptical follow-up ("시간도 8시로", "메모도 달아줘") is about."""
    state = {**empty(), **(focus or {})}
    if not state["items"]:
        return None
    turn = state["items"][0]["turn"]  # the most recent turn that touched a schedule
    pool = [i for i in state["items"] if i["turn"] == turn and i["how"] != "deleted"]
    by_id = {i["schedule_id"]: i for i in live}
    alive = [by_id[i["schedule_id"]] for i in pool if i["schedule_id"] in by_id]
    return alive[0] if len(alive) == 1 else None


def room_items(focus: dict[str, Any] | None, live: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The schedules the room's recent turns added, changed or listed that still exist,
    each once, the most recent first: what "오전 거", "오후에 잡은 거" pick among."""
    by_id = {i["schedule_id"]: i for i in live}
    seen: dict[str, dict[str, Any]] = {}
    for item in (focus or {}).get("items") or []:
        if item["how"] != "deleted" and item["schedule_id"] in by_id:
            seen.setdefault(item["schedule_id"], by_id[item["schedule_id"]])
    return list(seen.values())


def just_touched(focus: dict[str, Any]) -> bool:
    """Whether the room's last turn added or changed an item ("oh wait no 5시" takes its
    value back; after a listing it asks again)."""
    touched = (focus.get("items") or [{}])[0]
    return touched.get("how") in ("added", "changed") and touched.get("turn") == focus.get("turn")


# Picking among what the last answer showed ("거기 나온 것 중에", "그중에", "말한 것 중",
# "아까 보여준거 중에").
AMONG_THOSE = re.compile(
    r"(?:나온|말한|적힌|있는|알려\s*준|보여\s*준)\s*(?:것|거|게|애)들?\s*중|"
    r"그\s*중(?:에서|에|엔)?(?![가-힣])|"
    r"(?i:\b(?:which|any)\s+of\s+(?:them|those|these)\b)"
)


def points_back(text: str) -> bool:
    return bool(
        POINTER.search(text)
        or ORDINAL.search(text)
        or ADDED_ORDER.search(text)
        or NEXT_ONE.search(text)
    )


# "그 다음 거는", "담 거", "the next one": the item after the one just touched, in the
# listing the user saw.
NEXT_ONE = re.compile(
    r"(?<![가-힣])(?:그\s*)?(?:다음|담)\s*(?:거|꺼|것|건)(?:는|은|도|를|을|요)?(?![가-힣])|"
    r"(?i:\bthe\s+next\s+one\b)"
)


def _next_listed(
    state: dict[str, Any], alive: Callable[..., list[dict[str, Any]]]
) -> dict[str, Any] | None:
    """The listed item after the last one the room touched (deleted or not), if any."""
    listed = [i["schedule_id"] for i in state["listed"]]
    last = next((i for i in state["items"] if i["schedule_id"] in listed), None)
    if last is None or last.get("how") == "listed":
        return None  # nothing touched in the listing: "다음 거" says after what only there
    after = alive(state["listed"][listed.index(last["schedule_id"]) + 1 :])
    return after[0] if after else None


# Nouns of order or part after 그/저 that point at no object ("그 다음 일정", "그 외에").
_NOT_AN_OBJECT = frozenset({"다음", "후", "전", "뒤", "동안", "밖", "외", "중", "사이", "정도"})


def points_at_noun(text: str) -> bool:
    """Whether 그/저 determines a noun ("그 프로젝트", "저 항목", "그 자격증"): an object the
    room talked about, whatever the noun (the analyser's determiner before a common noun;
    it reads a bare 그 as an interjection at times). For document follow-ups; the schedule's
    pointers are the closed class of `POINTER`."""
    tokens = analysed(text)
    return any(
        # (and the formal "해당 요건", "상기 일정": the one just spoken of)
        ((t.form in ("그", "저") and t.tag in ("MM", "IC")) or t.form in ("해당", "상기"))
        and n.tag == "NNG"
        and n.form not in _NOT_AN_OBJECT
        and n.start == t.start + t.len + 1  # "그 프로젝트": the word right after
        for t, n in pairwise(tokens)
    )


# The kinds of item an ordinal can count among.
# (the nouns that end an event's name: "카카오 코테", "팀 미팅", "NCS 필기 시험"; shared with
# the title reader)
EVENT_NOUNS = (
    r"면접|스터디|코테|코딩\s*테스트|과제|마감|미팅|약속|시험|필기|발표|상담|모임|리뷰|설명회|"
    r"인터뷰|세미나|특강|교육|검사|인적성"
)
_ITEM_KIND = re.compile(EVENT_NOUNS)


def ordinal_position(text: str) -> int | None:
    """The position an ordinal names ("두 번째" 1, "마지막" -1, "2번" 1), or None."""
    m = ORDINAL.search(text)
    if m is None:
        return None
    if (
        m.group(3)
        or m.group(6)
        or m.group(9)
        or m.group(10)
        or (m.group(4) or "").lower() == "last"
    ):
        return -1
    if m.group(13):
        return -1
    if m.group(5) or m.group(8) or m.group(11) or m.group(12):
        return 0
    if m.group(7):
        return {"첫": 0, "둘": 1, "셋": 2, "넷": 3}[m.group(7)]
    if m.group(2):
        return int(m.group(2)) - 1
    return _ORDINALS.get((m.group(1) or m.group(4) or "").lower())


# "둘 중에 하나", "둘 중 하나": one of the last two items.
# ("방금 한 것 중에 하나 되돌려": one of what the room just did)
ONE_OF_THEM = re.compile(
    r"(?:(?<![가-힣])둘|(?<=[한는])\s*(?:것|거|건))\s*중(?:에)?\s*(?:하나|한\s*개|한\s*건)"
)


def refers_to(
    text: str,
    focus: dict[str, Any] | None,
    live: list[dict[str, Any]],
    narrow: Any = None,
) -> Resolved:
    """The schedule a pointing clause means, among the focus's items that still exist
    (`live`: the user's schedules now). An ordinal picks from the last listing (or the
    pending choices); "방금 추가한" the last added; otherwise the items of the most recent
    turn that touched any. `narrow(text, candidates)` (shared title words, day, time) picks
    one when several fit; if it cannot, the choices are returned to ask back."""
    state = {**empty(), **(focus or {})}
    by_id = {i["schedule_id"]: i for i in live}

    def alive(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [by_id[i["schedule_id"]] for i in items if i["schedule_id"] in by_id]

    pending = state.get("pending") or {}
    if (
        NEXT_ONE.search(text)
        and not pending.get("choices")  # an ask-back's choices are what it picks among
        and (following := _next_listed(state, alive)) is not None
    ):
        # "저녁 7시 거 빼줘" then "그 다음 거는 메모에 …": the next one of the listing
        return Resolved(following, [])
    if order := ADDED_ORDER.search(text):
        # the room's adds, oldest first (an item touched again keeps its place as added)
        added = sorted(
            (i for i in state["items"] if was_added(i)),
            key=lambda i: i.get("added_turn", i["turn"]),
        )
        pool = alive(added)
        word = order.group(1).replace(" ", "")
        index = next(v for k, v in _ADDED_INDEX.items() if word.startswith(k) or k in word)
        if pool and -len(pool) <= index < len(pool):
            return Resolved(pool[index], [])
    position = ordinal_position(text)
    if position is not None:
        # the choices asked about, else the most recent of the last listing and the
        # items the last turn added, in the order the user saw or named them
        listed_turn = state["listed"][0]["turn"] if state["listed"] else -1
        # the items of the last turn that added any, still as added (a change made since is
        # no list: "둘째꺼 메모추가", then "첫번째껀 지워" counts in the listing; one deleted
        # since leaves the others: "마지막에 말한 거 취소" then "첫 번째 건 …")
        # (an item changed since keeps its place among them: "인적성은 … 메모" then "두 번째
        # 거 …" after adding two counts in the adds as they were said)
        added_turn = max(
            (i.get("added_turn", i["turn"]) for i in state["items"] if was_added(i)), default=-1
        )
        added = sorted(
            (
                i
                for i in state["items"]
                if was_added(i) and i.get("added_turn", i["turn"]) == added_turn
            ),
            key=lambda i: i.get("added_rank", 0),
        )
        newer, older = (
            (state["listed"], added) if listed_turn >= added_turn else (added, state["listed"])
        )
        # a position the newer one does not have counts in the older ("두 번째 거" after a
        # listing of two and one add)
        # counted among the items of the kind it names ("제일 먼저 있는 면접", "두 번째 스터디")
        kind = _ITEM_KIND.search(unquoted(text))
        # "옮긴 거 중에 첫 번째 거": counted among the items the last change moved
        change = state.get("last_change") or {}
        moved = (
            sorted(
                alive([{"schedule_id": k} for k in change.get("each") or {}]),
                key=lambda i: (i["date"], i.get("time") or ""),
            )
            # (or the last turn changed several: "둘 다 메모" then "둘 중에 늦은 거는")
            if _CHANGED_ONES.search(text)
            or (
                len(change.get("each") or {}) >= 2
                and change.get("turn") == state["turn"]
                and change.get("turn", -1) > max(listed_turn, added_turn)
            )
            else []
        )
        for shown in (alive(pending.get("choices") or []), moved, alive(newer), alive(older)):
            pool = [i for i in shown if kind.group(0) in i["title"]] if kind else shown
            if pool and -len(pool) <= position < len(pool):
                return Resolved(pool[position], [])
            if shown and pending.get("choices"):
                break
    items = [i for i in state["items"] if i["how"] != "deleted"]
    if JUST_ADDED.search(text):
        added = alive([i for i in items if i["how"] == "added"])
        kinds = {m.group(0) for m in _ITEM_KIND.finditer(text)}
        alike = [i for i in added if any(k in i["title"] for k in kinds)]
        if not re.search(r"방금|조금\s*전", text) and len(alike) > 1:
            # "아까 넣은 면접" after adding two interviews: which one (방금 is the last)
            return Resolved(None, alike)
        if added:
            latest = next(i for i in items if i["how"] == "added")["turn"]
            added = alive([i for i in items if i["how"] == "added" and i["turn"] == latest])
            if len(added) == 1:
                return Resolved(added[0], [])
            items = [i for i in items if i["how"] == "added"]
    candidates = alive(pending.get("choices") or []) or []
    one_of_two = ONE_OF_THEM.search(text)
    if not candidates and one_of_two is not None:
        # "둘 중에 하나 날짜 바뀌었대" after adding one and then another: the last two the
        # room touched, whichever turns they were in (which one is a question); "면접 둘 중에
        # 하나" after a listing: the two of the room's items the noun names
        touched = list({i["schedule_id"]: i for i in items}.values())
        said = set(content_words(text[: one_of_two.start()]))
        named = [i for i in touched if said & set(content_words(i["title"]))]
        latest = named if len(named) == 2 else touched[:2]
        candidates = alive(latest) if len(latest) == 2 else []
        if len(candidates) == 2 and narrow is not None:
            # only a word that tells them apart picks one (not the noun they share)
            common = set(content_words(candidates[0]["title"])) & set(
                content_words(candidates[1]["title"])
            )
            rest = " ".join(w for w in text.split() if not any(c in w for c in common))
            picked = narrow(rest, candidates)
            return Resolved(picked, []) if picked is not None else Resolved(None, candidates)
    noun = POINTED_NOUN.search(text)
    if not candidates and noun and noun.group(1) not in _PLAIN_NOUNS:
        # "그 면접", "아까 면접은": every schedule the conversation touched with that noun in
        # its title
        # (two interviews added one after the other: which one is a question)
        word = noun.group(1)
        named = [i for i in items if word in "".join(i["title"].split())]
        candidates = alive(list({i["schedule_id"]: i for i in named}.values()))
    if not candidates and items:
        latest = items[0]["turn"]
        candidates = alive([i for i in items if i["turn"] == latest])
    if len(candidates) == 1:
        return Resolved(candidates[0], [])
    if len(candidates) > 1 and narrow is not None:
        picked = narrow(text, candidates)
        if picked is not None:
            return Resolved(picked, [])
    return Resolved(None, candidates)


# "그 면접", "이 스터디": the noun a demonstrative points with.
POINTED_NOUN = re.compile(
    r"(?:(?<![가-힣])(?:그|이|저)|방금|아까|앞에서)\s+([가-힣A-Za-z]{2,}?)"
    r"(?:은|는|이|가|을|를|도|에|으로|로)?(?![가-힣A-Za-z])"
)
_PLAIN_NOUNS = {"일정", "스케줄", "약속", "거", "것", "건", "날", "때", "시간", "공고", "회사"}


# "그회사 면접", "아까 그 회사", "거기 코테": the company of the posting the room discussed.
COMPANY_POINTER = re.compile(
    r"(?<![가-힣])(?:그|저)\s*(?:회사|기업)(?:에서|의|은|는|이|가|꺼|거|것)?(?![가-힣])|"
    # "방금 말한 회사", "아까 얘기한 곳"
    r"(?:방금|아까|앞에서)\s*(?:말한|얘기한|말했던|얘기했던|본|물어본)\s*(?:그\s*)?(?:회사|기업|곳)"
    r"(?:에서|의|은|는|이|가)?(?![가-힣])|"
    r"(?<![가-힣])(?:거기|그쪽)(?:\s*회사)?(?=\s*(?:면접|코테|코딩|서류|과제|인적성|전형|최종))|"
    r"(?i:\bthat\s+company(?:'s)?)"
)


# "그럼 다른 데는?", "나머지 회사는?", "what about the other company?": the user's posting
# other than the one the room is on.
# (the phrase ends the message: "다른 회사 경력도 적혀 있어?" asks of the resume)
OTHER_POSTING = re.compile(
    r"(?:다른|나머지)\s*(?:데|곳|회사|기업|공고|하나)(?:는|은|도|요)?\s*[?？!.~]*\s*$|"
    r"(?i:\bthe\s+other\s+(?:company|posting|job|one)\b|\bother\s+(?:company|posting)\b)"
)


def other_posting(message: str, focus: dict[str, Any] | None, doc_ids: list[str]) -> str | None:
    """The posting a message means by "the other one" (of `doc_ids`, the user's postings
    nearest first): the first that is not the posting in focus; None when the message says
    no such thing or the room is on no posting."""
    held = ((focus or {}).get("posting") or {}).get("doc_id")
    if not held or not OTHER_POSTING.search(message):
        return None
    return next((d for d in doc_ids if d != held), None)


def with_company(text: str, focus: dict[str, Any] | None) -> str:
    """The text with a pointer to "that company" replaced by the company of the room's
    posting ("ㅇㅋ 그회사 면접 1시간 늦춰줘" after reading 카카오's posting: "카카오 면접");
    unchanged when the room has discussed no posting with a company."""
    company = ((focus or {}).get("posting") or {}).get("company")
    if not company:
        return text
    return COMPANY_POINTER.sub(lambda _: f"{company} ", text)


def ask_back_text(choices: list[dict[str, Any]]) -> str:
    """The question when a pointer fits several schedules: the choices, numbered."""
    lines = [
        f"{n}. {c['title']} ({c['date']}{' ' + c['time'] if c.get('time') else ''})"
        for n, c in enumerate(choices, 1)
    ]
    return "어느 일정을 말씀하시는 건가요?\n" + "\n".join(lines)
