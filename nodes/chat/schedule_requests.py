"""What a schedule request asks for: which tool, which arguments, from the user's own
words (titles, dates and times, shifts, corrections, ask-back choices), against the room's
focus; and the dated stage of the room's posting a text names. Pure functions: the chat's
`run_schedule` step calls them and makes the tool calls."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta
from difflib import SequenceMatcher
from itertools import pairwise
from typing import Any

from nodes.chat.focus import (
    AMONG_THOSE,
    DAY_POINTER,
    DAY_SHIFT,
    DECLINED,
    EVENT_NOUNS,
    ONE_OF_THEM,
    SAME_AGAIN,
    ask_back_text,
    by_name_undated,
    focus_day,
    just_touched,
    last_item,
    ordinal_position,
    points_back,
    refers_to,
    room_items,
    shifted_day,
    stage_title,
    was_added,
    with_company,
)
from nodes.chat.router import (
    ADD_VERB,
    BY_HAEJWO,
    DELETED_ITEM,
    DONE_BEFORE,
    EXISTS_TOLD,
    IF_FREE,
    KEPT_AS_IS,
    LEARNED_CLAUSE,
    LIST_VERB,
    MY_SCHEDULE,
    NEW_NAME,
    NOUN_JOIN,
    NOWISH,
    QUOTED,
    SAME_DAY,
    SCHEDULE_VERB,
    SCHEDULE_WORD,
    SHIFT,
    UNDO,
    VERB_ONLY,
    WH_WORD,
    WHEN,
    all_but,
    has_when,
    koreanised,
    memo_of,
    operation_kind,
    pasted_block,
    unquoted,
)
from text.dates import (
    EN_COUNT,
    EN_WEEKDAYS,
    UNTIL,
    RelativeWhen,
    date_range,
    find_dates,
    find_when,
)
from text.korean_text import (
    analysed,
    compound_nouns,
    content_words,
    kiwi,
    squash,
    without_slips,
)
from text.organization import rank as rank_organization
from text.stages import STAGE_PATTERNS, named_stages

# Words around a title that are not part of it: where it goes ("캘린더에", "내 일정에"), a
# trailing 일정/스케줄, hearsay and chat fillers ("…라던데", "있어", "ㄱㄱ", "부탁드립니다").
TITLE_FILLER = re.compile(
    r"(?:내\s*|제\s*|my\s+|(?<!\S)개인\s*|(?<!\S)본인\s*)?(?:캘린더|달력|일정|스케줄|calendar|schedule)"
    r"(?:에서|에다가?|에도|에|으로|로|을|를|은|는|도)?(?=\s|$|[,.!?])"
    r"|(?<!\S)(?:있어|있음|있대|있는데|있습니다|있어요|있고요|이래|이라던데|라던데|라는데|이라는데|래)"
    r"(?=\s|$|[,.!?])"
    r"|(?<!\S)(?:부탁(?:드립니다|드려요|해요|해)?|주세요|주십시오|줘요|ㄱㄱ|ㄱ|ㅇㅇ|ㅇㅋ|좀|하나\s*더|하나|하나만|한\s*개(?:\s*더)?|둘\s*다|(?:두|세)\s*개(?:\s*(?:다|모두|전부))?|please|pls)"
    r"(?=\s|$|[,.!?])"
    # a laugh or a cry said before the name ("… 생겨서요 ㅎㅎ 그린소프트 1차 면접"), and how the
    # item is put in ("알고리즘 스터디 새로 넣어줘")
    r"|(?<!\S)(?:[ㅋㅎㅠㅜ]{2,}|새로|새롭게)(?=\s|$)"
    # how long it lasts ("하루종일 알고리즘 복습"): no part of its name
    r"|(?<!\S)(?:하루\s*종일|온종일|종일|all\s+day)(?=\s|$)"
    r"|(?<!\S)(?:그\s*시(?:간|각)|그때|같은\s*(?:시간|시각|날짜|날))(?:에|으로|로)?(?=\s|$)"
    r"|(?i:(?<!\S)(?:at\s+)?(?:the\s+)?same\s+(?:time|day)(?=\s|$|,))"
    # the day pointed at, formally ("해당 일자에 스터디 추가해줘")
    r"|(?<!\S)해당\s*(?:일자|날짜|날)(?:를|을|에|에는|로)?(?=\s|$)"
    # what the event takes the place of ("방금 지운 거 대신 …")
    r"|(?<!\S)(?:(?:방금|아까)\s*)?(?:지운|삭제한|취소한|뺀)\s*(?:거|것|걸|일정)\s*대신(?:에)?(?=\s|$)"
    # "… 포스코DX 면접 다 넣어줘": all of what was listed, said last; "… 모임도 있어 같이
    # 넣어줘": along with the rest
    r"|(?<!\S)(?:다|전부|모두|같이|함께)\s*$"
    # "… 면접 날짜만 등록해줘": which of its fields, not its name
    r"|(?<!\S)(?:날짜|일시)(?:만|은|는|도)\s*$",
    re.IGNORECASE,
)
# A verb that makes the request ("추가해줘", "넣어놔", "등록 ㄱㄱ", "잡아주셈"): the title ends
# before it.
ADD_REQUEST = re.compile(
    rf"(?:{ADD_VERB.pattern})"
    r"(?=\s*(?:해|줘|주|하고|놔|둬|죠|ㄱ|부탁|좀|가능|할\s*수|되|돼|될|plz|pls|please|$|[?.!])|\S"
    # laughter or an emoji after the verb ("가족 모임 추가 ㅎㅎ", "추가 🙏")
    r"|\s*(?:[ㅎㅋㅠㅜ^~]{2,}|[\U0001F300-\U0001FAFF\u2600-\u27BF])\s*$)"
    r"|(?i:\b(?:add|put|book|save)\b)(?=\s)"  # "add Coupang phone screen on Dec 8"
)
# Earlier sub-clauses (small talk, a condition) end like this; the title is after them.
SUBCLAUSE_END = re.compile(
    # (a noun with a reported copula keeps its noun: "라인 면접이라던데", below)
    r"(?!\S*?[가-힣](?:이라|라)(?:던데|는데)(?=\s))"
    r"\S*(?:인데|는데|던데|니까|어서|아서|해서|려서|워서|으면|있으면|없으면|되면|하면|"
    r"까지래|래요|대요|까지야)"
    r"(?=\s)"
    # a noun with a copula ends the clause after the noun ("쿠팡 과제 마감이야 일정에 …")
    r"|(?<=[가-힣])(?:이야|이래|이라던데|라던데|이라는데|라는데|이라)(?=\s)"
)
LEADING_PARTICLE = re.compile(r"^(?:에는|엔|에|으로|로|은|는|을|를|의)(?=\s|$)")
TRAILING_PARTICLE = re.compile(
    r"(?:(?<=[가-힣]{2})|(?<=[A-Za-z]))(?:이|가|은|는|을|를|에|으로|로|도)요?$"
)
MAIL_HEAD = re.compile(r"\[([^\]]+)\]\s*")
# An SMS sender's tag ("[Web발신]"), not part of any title.
SMS_TAG = re.compile(r"\[\s*(?:web\s*발신|광고|알림|국외발신)\s*\]\s*", re.IGNORECASE)
# A word pointing back at the event named before it ("… 실무면접 있어서 그거 일정에 넣어줘").
POINTER = re.compile(r"^(?:그거|그것|이거|이것|저거|그\s*일정|이\s*일정|그\s*건|거|것|건|꺼)$")
# Text pasted after the request ("일정 등록해줘:\n[쿠팡] 2차 면접 안내 …", "넣어줘 → …").
# (the request may end on its line first with a polite word: "… 등록 좀 해주세요~\n\n---\n[…]")
PASTED_AFTER = re.compile(
    r"^\S*?\s*[:：→]|^\S*?(?:\s*(?:좀|해\s*주세요|해\s*줘|주세요|줘|부탁\S*|please|pls|[~!.^ㅎㅋ]+))*"
    r"\s*\n"
)
# The end of a written sentence: a pasted notice has several.
SENTENCE_END = re.compile(r"[.!?。](?=\s|$)")
MAIL_TAIL = re.compile(r"\s*(?:안내|공지|알림|확정|통보|일정|소식)\s*$")
# As the posting gives it: "공고대로", "공고랑 똑같이", "공고에 나온 대로", "공고 시간으로".
AS_POSTED = re.compile(
    r"공고(?:에\s*(?:나온|나와\s*있는|적힌|적혀\s*있는|있는)\s*)?"
    r"\s*(?:대로|랑\s*(?:똑)?같이|와\s*(?:똑)?같이|에\s*맞춰|시간으로|"
    # "공고에 나온 날짜랑 시간으로", "공고 날짜로"
    r"(?:날짜|시간|일정|일시)(?:\s*(?:랑|이랑|와|과|하고)\s*(?:날짜|시간))?\s*(?:으로|로|대로))"
    # the stage named between: "공고상 1차 면접 날짜로", "공고에 나온 코테 일정대로"
    r"|(?P<staged>공고(?:상|에\s*(?:나온|나와\s*있는|적힌|있는))\s*(?:[^\s,.]{1,8}\s*){1,2}?"
    r"(?:날짜|일정|날|일시)\s*(?:으로|로|대로))"
    # the posting just shown, pointed at: "거기 나온 날짜로", "거기 적힌 시간대로"
    r"|(?<![가-힣])거기(?:에|엔|에서)?\s*(?:나온|나와\s*있는|적힌|적혀\s*있는|있는|쓰인)\s*"
    r"(?:날짜|날|시간|일정|일시)(?:\s*(?:랑|이랑|와|과|하고)\s*(?:날짜|시간))?\s*"
    r"(?:으로|로|대로|그대로)"
    # in English: "move it to the date in the posting", "the posting's time"
    r"|(?i:\b(?:(?:dates?|day|times?)\s+(?:and|&)\s+)?(?:dates?|times?|day)\s+(?:in|on|from|of)\s+"
    r"the\s+(?:posting|job\s+ad|listing)\b|"
    r"\bthe\s+posting'?s\s+(?:dates?|times?|day)\b|\bas\s+(?:in|on)\s+the\s+posting\b)"
)
# Which fields a pointer at the posting names ("거기 나온 날짜로" the date, "시간으로" the
# time; "일정대로", "date and time" both).
_DATE_FIELD = re.compile(r"날짜|날(?!씨)|일자|(?i:\bdates?\b|\bday\b)")
_TIME_FIELD = re.compile(r"시간|시각|(?i:\btimes?\b)")
_THAT_TIME = re.compile(r"(?:그|같은)\s*(?:시간|시각)\s*(?:으로|로|에|대로)")
_ITS_DAY = re.compile(r"그\s*(?:날짜|날|일자)|같은\s*날|그때|(?i:\bthat\s+day\b)")


def _asked_whether(clause: str) -> bool:
    """Whether a clause asks whether, at its end ("…옮기면 안 되겠죠?", "4시로 바뀌었나?"), rather
    than asks for something ("…다르네? … 옮겨줘" asks)."""
    said = clause.strip()
    return said.endswith("?") or bool(_ASKING_END.search(said))


def _fields_named(pointer: str) -> set[str]:
    """The fields a pointer at the posting's values names: {"date"}, {"time"}, or both
    (none named: "공고대로" is the posting's day and time)."""
    named = {"date"} if _DATE_FIELD.search(pointer) else set()
    named |= {"time"} if _TIME_FIELD.search(pointer) else set()
    return named or {"date", "time"}


SAME_TIME = re.compile(
    # the time the posting gives the day in focus: "시간도 공고대로"
    # ("그 날짜랑 시간으로": both pointed at)
    rf"그\s*시(?:간|각)|그때|같은\s*시(?:간|각)|same\s+time|"
    r"그\s*(?:날짜|날)\s*(?:랑|이랑|와|과|하고)\s*시간\s*(?:으로|로|대로)|"
    rf"{AS_POSTED.pattern}",
    re.IGNORECASE,
)
RENAME = re.compile(
    # ("제목도 그냥 'SW역량 스터디'로 바꿔줘": the adverbs before the name are not of it)
    r"(?:제목|이름)(?:을|를|은|는|도)?\s*(?:(?:그냥|좀|그럼|차라리)\s+)*"
    r"['\"‘“]?((?:(?!제목|이름).)+?)['\"’”]?\s*(?:으로|로)\s*(?=바꿔|바꾸|변경|수정|줄여)"
    r"|(?i:\brename\b.*?\bto\s+['\"]?([^'\"]+?)['\"]?\s*$)"
    # the new name first, quoted: "… → '네이버 1차 화상면접'으로 이름 바꿔줘"; or after the
    # item named as the object ("카카오 면접을 카카오 1차 면접으로 이름 바꿔줘"; never across
    # another change: "…을 3시로 옮기고 …")
    r"|(?:['\"‘“]|(?<=[을를])\s)((?:(?!로\s)[^'\"’”\n])+?)['\"’”]?\s*(?:으로|로)\s*"
    r"(?:제목|이름)(?:을|를)?\s*(?=바꿔|바꾸|변경|수정|줄여)" + rf"|{NEW_NAME}(?={BY_HAEJWO}|줄여)"
    # said with 해줘 (router.RENAME_SAID): "제목 그냥 라인 면접으로 해줘"
    # with an arrow: "코딩스터디 → 알고리즘 스터디. 이름변경"
    r"|(?:→|->|=>|➡)\s*['\"‘“]?([^'\"’”\n.,!?→]+?)['\"’”]?\s*[.,]?\s*(?:으로|로)?\s*"
    r"(?:제목|이름)\s*(?:을|를)?\s*(?=(?:변경|바꿔|바꾸|수정)"
    r"(?![^.!\n]*(?:(?:지|하)\s*(?:마|말)|말고|해도\s*(?:될|돼|되)|할까|[?？])))"
)
# The name the user gives an item as it is added: "이름은 네이버 온라인 코테로", "제목은
# '포폴 점검'으로 해줘", "title it Mock interview".
# A field named after a title, with what it is to be ("제목 카카오코테 시간도 공고대로"): no
# part of the name.
_FIELD_AFTER = r"\s(?:시간|날짜|시각|메모|장소)(?:은|는|도|이|가|을|를)?\s"
NAMED_AS = re.compile(
    # (the name starts after the word: "'네이버 서류 마감'이라는 이름으로 …" names none here)
    r"(?:제목|이름)(?:은|는|을|를)?\s*['\"‘“]?(?!(?:으로|로)\s)"
    # (a polite 요 after it: "제목은 네이버 코테로요")
    rf"(?P<name>(?:(?!{_FIELD_AFTER})[^'\"’”])+?)['\"’”]?\s*(?:으로|로)(?:요)?"
    r"(?:\s*[가-힣]+게)?(?:\s*(?:해|하고|저장|넣어|부탁)\S*(?:\s*(?:주세요|줘|주라|줄래요?))?)?"
    r"\s*[.!~ㅎㅋ^]*$"
    # closing the message, with no 로: "…넣어줘, 제목은 카카오 발표"
    # (its polite ending no part of it: "제목은 강남예치과 실무면접이요"; a time said after
    # it is blanked: "제목은 카카오 코딩테스트, 오후 2시")
    r"|(?:제목|이름)(?:은|는)\s*['\"‘“]?(?P<bare>[^'\"’”\n,.!?]{2,30}?)['\"’”]?"
    r"\s*(?:이?요|입니다|이에요|예요)?[\s,]*[.!~]*$"
    # before a field of its own: "제목 카카오코테 시간도 공고대로"
    r"|(?:제목|이름)(?:은|는)?\s+['\"‘“]?(?P<upto>[^'\"’”\n,.!?]{2,30}?)['\"’”]?"
    rf"(?={_FIELD_AFTER})"
    # "'네이버 서류 마감'이라는 이름으로", "'X'라는 제목으로"
    r"|['\"‘“](?P<called>[^'\"’”\n]{2,40})['\"’”]\s*(?:이)?라는\s*(?:이름|제목)"
    r"|(?i:\b(?:title|name|call)\s+it\s+['\"]?(?P<en>[^'\"]+?)['\"]?\s*[.!]*$)"
    # a labelled field, as in a form: "제목: 삼성SDS 인적성 / 메모: …", "title: Mock interview"
    r"|(?:(?<=^)|(?<=[\n.!?/|]\s)|(?<=[\n.!?/|]))\s*(?:제목|(?i:title))\s*[:：]\s*['\"‘“]?"
    r"(?P<label>[^'\"’”/|()\n]{2,40}?)['\"’”]?\s*(?=[/|\n]|메모|(?i:memo|note)|$)"
    # "add that to my schedule as 네이버 온라인 코테", "add it as X, same time", "titled 'X'"
    # ("as usual", "as well", "as soon as possible" are how, not a name)
    r"|(?i:\b(?:as(?!\s+(?:usual|well|always|planned|before|discussed|mentioned|agreed|"
    r"scheduled|soon|long|much|many|if|though|far|per|of|a\s+reminder|an?\s+reminder|"
    r"needed|possible|follows?)\b)|titled|called|named)\s+['\"‘“]?(?P<as>[^'\"’”,.!?\n]{2,40}?)['\"’”]?"
    r"\s*(?:,\s*(?:same|at|on)\b[^\n]*)?[.!?]*$)"
)
_COUNT = {"한": 1, "두": 2, "세": 3, "하루": 1, "이틀": 2, "사흘": 3, "일주일": 7}
# The same move in English ("push that one back an hour", "move it 30 minutes earlier"),
# read by saying it the Korean way. (The object may be a set: "push all my events except
# the coding study back an hour".)
_EN_AMOUNT = r"(an?|one|two|three|\d{1,3})\s*(hours?|hrs?|minutes?|mins?|days?|weeks?)"
_EN_WAY = r"(back|later|forward|up|earlier)"
EN_SHIFT = re.compile(
    rf"(?i)(?:\b(?:push|move|bump|shift)\b(?:\s+[^\s,.!?]+){{0,10}}?"
    # ("make the kakao interview 45 minutes earlier": set/make with an item as its object)
    rf"|\b(?:set|make|have|put)\s+(?:it|that|this|the\s+[^\s,.!?]+(?:\s+[^\s,.!?]+){{0,3}}?))\s+"
    rf"(?:{_EN_WAY}(?:\s+by)?\s+{_EN_AMOUNT}"
    rf"|{_EN_AMOUNT}\s+{_EN_WAY})\b"
)


def shift_in(clause: str) -> tuple[re.Match[str] | None, tuple[int, int] | None]:
    """A relative move in the clause and where it is: Korean ("1시간 늦춰"), or English
    said again the Korean way."""
    found = SHIFT.search(clause)
    if found is not None:
        return found, found.span()
    english = EN_SHIFT.search(clause)
    if english is None:
        return None, None
    way, count, unit = (
        (english.group(1), english.group(2), english.group(3))
        if english.group(1)
        else (english.group(6), english.group(4), english.group(5))
    )
    n = EN_COUNT.get(count.lower()) or int(count)
    unit = unit.lower()
    amount = (
        f"{n}시간"
        if unit.startswith("h")
        else f"{n}분"
        if unit.startswith("m")
        else f"{n}일"
        if unit.startswith("d")
        else f"{n}주"
    )
    later = way.lower() in ("back", "later")
    # the move's words only: the verb and its object ("push that one") still name the item
    start = english.start(1) if english.group(1) else english.start(4)
    return SHIFT.search(f"{amount} {'늦춰' if later else '당겨'}"), (start, english.end())


# A date or time the user moves something TO: followed by (으)로, or after "to"/"at".
# (not "12월 4일로 돼있네": the value the item has)
NEW_VALUE_AFTER = re.compile(
    r"\s*(?:에|까지)?\s*(?:으로|로)(?![가-힣]{2})"
    r"(?!\s*(?:돼|되어|되|됐|잡혀|나와|적혀|들어가|등록돼)\s*있)"
    # the value preferred: "복기는 오후 2시가 낫겠네요", "목요일이 좋겠어요"
    r"|\s*(?:이|가)\s*(?:낫|나을|나아|좋겠|좋을|더\s*좋)"
)
NEW_VALUE_BEFORE = re.compile(
    r"(?i)\b(?:to|at|for)(?:\s+the(?:\s+following|\s+next)?)?\s*$|\bto\s+the\s+same\s+time\s+on\s*$"
)
INSTEAD_OF = re.compile(r"\s*(?:이|가)?\s*(?:아니고|아니라|말고|아니|아님|ㄴㄴ)[\s,]+(?:\S+\s+)?$")
# (a clock of two-digit hours is the 24-hour one, "09:30", "14:30", and so is "8:30"; "2:30"
# is said on a dial, in the afternoon an item is near)
PART_OF_DAY = re.compile(
    r"오전|오후|아침|저녁|밤|낮|새벽|정오|자정|(?:\d\d|(?<!\d)[7-9])[:：]|[AaPp]\.?[Mm]"
)
LONE_EVENING = re.compile(r"(?:오후|저녁|밤)(?!\s*\d)")


@dataclass
class Mention:
    """A date or a time named in a clause, where it is, and whether it is a new value
    ("… 3시로 옮겨줘") rather than a description of the item ("금요일 면접")."""

    kind: str  # "date" | "time"
    value: str
    span: tuple[int, int]
    new: bool


# An item by its position ("첫 번째 거", "맨 위에 거"), not a day ("마지막 금요일", "두 번째 주").
_ORDINAL_ITEM = re.compile(
    r"(?:째|번|위에|밑에|아래|마지막)\s*(?:거|꺼|것|건)(?![가-힣])"
    r"|(?i:\b(?:first|second|third|last)\s+(?:one|item|event)\b)"
)
# The same amount as the last move ("카카오 면접도 그만큼 당겨줘"; read in a change only).
_THAT_MUCH = re.compile(r"그만큼|같은\s*만큼|(?i:\bthat\s+much\b|\bthe\s+same\s+amount\b)")
# "아까 그 시간": said earlier in the room, not on the day just looked at.
_EARLIER = re.compile(r"아까|방금|앞에서|(?i:\bearlier\b)")


@dataclass
class Context:
    """What the operations before this one in the same message settled: the day and time
    they were about ("그 시간에 …", a conditional add after a listing) and what a listing
    found."""

    day: str | None = None
    time: str | None = None
    listed: list[dict[str, Any]] | None = None
    notes: list[str] = field(default_factory=list)


def _afternoon(text: str, when: RelativeWhen) -> str | None:
    """The time, a bare 1-6 o'clock read as the afternoon ("3시로 옮겨줘": 15:00): nobody books
    an interview at 3 a.m., and the spec of the request sets never relies on it. A bare hour
    in a clause that says 오후/저녁/밤 elsewhere ("저녁 일정 7시 반으로") is that evening's."""
    if when.time is None or when.time_span is None:
        return when.time
    start, end = when.time_span
    hour = int(when.time[:2])
    around = text[max(0, start - 3) : end]
    if PART_OF_DAY.search(around) or hour >= 12:
        return when.time
    # "저녁 일정 7시 반으로": a part of day said before the item, not beside the hour.
    if 1 <= hour <= 6 or LONE_EVENING.search(text[:start] + " " * (end - start) + text[end:]):
        return f"{hour + 12:02d}{when.time[2:]}"
    return when.time


def mentions(text: str, now: date) -> list[Mention]:
    """Every date and time a clause names, in order (find_when, repeated on the text with
    what it found blanked out)."""
    found: list[Mention] = []
    masked = text
    for _ in range(4):
        when = find_when(masked, now)
        if when.date is None and when.time is None:
            break
        for kind, value, span in (
            ("date", when.date.isoformat() if when.date else None, when.date_span),
            ("time", _afternoon(masked, when), when.time_span),
        ):
            if value is None or span is None:
                continue
            new = bool(
                NEW_VALUE_AFTER.match(text, span[1])
                or NEW_VALUE_BEFORE.search(text[max(0, span[0] - 24) : span[0]])
            )
            found.append(Mention(kind, value, span, new))
        for start, end in when.spans:
            masked = masked[:start] + " " * (end - start) + masked[end:]
    found.sort(key=lambda m: m.span)
    # "Wednesday, December 16", "수요일, 12월 16일": a weekday beside the date it falls on
    # names that date
    for i, m in enumerate(found):
        if m.kind != "date" or not _BARE_WEEKDAY.fullmatch(text[m.span[0] : m.span[1]].strip()):
            continue
        for o in found[max(0, i - 1) : i + 2]:
            if (
                o.kind == "date"
                and o is not m
                and date.fromisoformat(o.value).weekday() == date.fromisoformat(m.value).weekday()
                and not text[min(m.span[1], o.span[1]) : max(m.span[0], o.span[0])].strip(" ,()")
            ):
                m.value = o.value
    # "다음주 수요일 저녁 8시로": words next to a new value are part of it.
    for left, right in reversed(list(pairwise(found))):
        if right.new and not text[left.span[1] : right.span[0]].strip(" 에"):
            left.new = True
    # "목요일 아니고 금요일", "3시 말고 4시": the first is the item's, the second the new one
    for left, right in pairwise(found):
        between = text[left.span[1] : right.span[0]]
        if left.kind == right.kind and INSTEAD_OF.match(between):
            left.new, right.new = False, True
        elif left.kind == right.kind and re.search(r"(?i)\bto\s*$", between):
            left.new = False  # "the one at 3pm to 4:30pm": "at" names the item there
    return found


# The way a move goes: later ("밀렸대", "미뤄줘", "늦춰", "연기", "postponed", "pushed back") or
# earlier ("당겨줘", "앞당겨", "moved up").
_LATER = re.compile(
    r"밀리|밀렸|밀려|미뤄|미루|미뤘|늦춰|늦추|늦췄|연기|(?i:\bpostpone|\bpush(?:ed)?\s+back)"
)
_EARLIER_MOVE = re.compile(r"당겨|당기|당겼|(?i:\bmoved?\s+up\b|\bbring\s+forward)")


def _weekday_the_way_moved(day: str, before: str, clause: str) -> str:
    """A bare weekday as an item's new day, on the side of its old day the move goes ("카카오
    면접 금욜로 하루 밀렸대" of a Thursday the 10th: Friday the 11th, not the coming Friday
    before it)."""
    new, old = date.fromisoformat(day), date.fromisoformat(before)
    if _LATER.search(clause) and not _EARLIER_MOVE.search(clause):
        while new <= old:
            new += timedelta(days=7)
    return new.isoformat()


_BARE_WEEKDAY = re.compile(
    r"[월화수목금토일](?:요일|욜)?|(?i:mon|tues|wednes|thurs|fri|satur|sun)day"
)
_WEEK_AFTER = re.compile(r"그\s*(?:다음|담)\s*주|(?i:\bthe\s+(?:next|following)\s+week\b)")
_THAT_WEEK = re.compile(r"그\s*(전\s*|지난\s*)?주\s*(?:의\s*)?$")


def _in_week_of(clause: str, found: list[Mention], day: date) -> list[str]:
    """ "그주 금요일", "그 주 토요일": a weekday of the week the room was about (the week of
    `day`), not the next one from today. The mentions are moved there; the days moved are
    returned."""
    monday = day - timedelta(days=day.weekday())
    moved = []
    for m in found:
        if m.kind != "date":
            continue
        before = clause[: m.span[0]]
        that = _THAT_WEEK.search(before)
        # "그다음주 수욜", "그 담주 금요일": the week after the one the room was about
        after = re.search(r"그\s*$", before) and re.match(
            r"(?:다음|담)\s*주", clause[m.span[0] : m.span[1]]
        )
        if that is None and not after:
            continue
        weeks = -1 if that is not None and that.group(1) else 1 if after else 0
        weekday = date.fromisoformat(m.value).weekday()
        m.value = (monday + timedelta(days=weekday, weeks=weeks)).isoformat()
        moved.append(m.value)
    return moved


def _in_items_week(clause: str, found: list[Mention], day: date) -> None:
    """A bare weekday said to take back an item's ("목요일 말고 금요일이요"): the weekday of
    the item's own week (`day`'s), not the next one from today."""
    monday = day - timedelta(days=day.weekday())
    for m in found:
        if m.kind == "date" and _BARE_WEEKDAY.fullmatch(clause[m.span[0] : m.span[1]].strip()):
            m.value = (monday + timedelta(days=date.fromisoformat(m.value).weekday())).isoformat()


def _on_listed_weekday(
    clause: str, found: list[Mention], listed: list[dict[str, Any]], live: list[dict[str, Any]]
) -> None:
    """ "목요일에 있는 거 메모에 …" right after a listing: a bare weekday names the one item
    shown on that weekday, not the next such day from today (moved there in place); left as
    it is when an item shown is on the day it reads as, or several were shown on it."""
    ids = {i["schedule_id"] for i in live}
    shown = [i for i in listed if i.get("schedule_id") in ids and i.get("date")]
    for m in found:
        if m.kind != "date" or m.new:  # "첫째꺼 목욜로 옮겨": the new day, not the item's
            continue
        if not _BARE_WEEKDAY.fullmatch(clause[m.span[0] : m.span[1]].strip()):
            continue
        if any(i["date"] == m.value for i in shown):
            continue
        weekday = date.fromisoformat(m.value).weekday()
        on_it = {i["date"] for i in shown if date.fromisoformat(i["date"]).weekday() == weekday}
        if len(on_it) == 1:
            m.value = on_it.pop()


# "배민 말고 배달의민족으로 이름 바꿔줘": one word of a title for another.
_SWAP = re.compile(
    r"(?<![가-힣A-Za-z0-9])([가-힣A-Za-z0-9]+)\s*(?:말고|아니고|대신)\s+"
    r"([가-힣A-Za-z0-9]+?)(?:으로|로)\s*(?:이름|제목|타이틀)\S*\s*(?:바꿔|바꾸|변경|수정|고쳐)"
)
# An item said by what it is not: "네이버 말고 다른 거" (a reply to an ask-back), "면접 말고
# 그 다른 거" (in a request, only with 다른/나머지 after it: "배민 말고 배달의민족으로 이름
# 바꿔줘" corrects a value).
OTHER_THAN = re.compile(
    r"((?:[가-힣A-Za-z0-9]+\s+){0,2}[가-힣A-Za-z0-9]+?)(?:은|는|이|가|을|를)?\s*"
    r"(?:말고|빼고|아니고|아닌\s*(?:거|것|쪽))"
)
_EXCEPT = re.compile(OTHER_THAN.pattern + r"(?=[\s,]*(?:그\s*)?(?:다른|딴|나머지))")
# A field of an item ("시간은 그대로 두고", "날짜는 건드리지 말고"): what stays of the item
# changed, not an item left alone.
_FIELDS = "시간|시각|날짜|일자|요일"
# (and the English words for them, mixed in: "time도 4pm으로 ㄱㄱ")
_FIELDS_EN = r"(?i:time|date)"
FIELD_OF_ITEM = re.compile(rf"(?:{_FIELDS}|제목|이름|메모|장소)(?:은|는|이|가|을|를)?$")
# An item said to be left alone: "카카오 면접은 그대로 두고 방금 넣은 거 …", "저녁 7시 건
# 놔두고 3시 거는 …", "스터디는 건드리지 말고".
_KEPT = re.compile(
    r"((?:[가-힣A-Za-z0-9]+\s+){0,2}[가-힣A-Za-z0-9]+?)(?:은|는|이|가|을|를)?\s*"
    r"(?:그대로\s*(?:두고|놔두고|냅두고|놔\s*두고|둔\s*채로?)|(?:놔|냅)\s*두고|건드리지\s*말고|"
    r"(?<=만)\s*(?P<spared>남기고))[\s,]*"
)
_WHOLE_WEEK = re.compile(r"(?i)\bthat\s+(?:whole|entire)\s+week\b")
_THAT_MONTH = re.compile(r"(?:그|같은)\s*달(?:의)?\s*$|(?i:\b(?:that|the\s+same)\s+month\s*$)")


def _named_by(
    phrase: str, items: list[dict[str, Any]], now: date, by_when: bool = False
) -> list[dict[str, Any]]:
    """The items a phrase said with 말고/빼고 names ("12월 3일 토스"): by its words, day and
    time; none when it says only a day or a time ("목요일 말고": a correction of the day),
    unless `by_when` (an item left alone may be said by its time: "저녁 7시 건 그대로 두고")."""
    said = mentions(phrase, now)
    if not by_when and not _title_words(_blank(phrase, [m.span for m in said])):
        return []
    days = [m.value for m in said if m.kind == "date"]
    times = [m.value for m in said if m.kind == "time"]
    return best_schedules(items, phrase, days, times)


def _without_left_alone(
    clause: str, items: list[dict[str, Any]], now: date
) -> tuple[list[dict[str, Any]], str]:
    """ "카카오 면접은 그대로 두고 방금 넣은 거 하루 당겨줘": the items and the clause without
    the item said to be left alone, when the rest names another (by pointing, its words, day
    or time); unchanged otherwise ("카카오 면접 시간은 그대로 두고 날짜만 …" keeps a field of
    the item changed)."""
    kept = _KEPT.search(clause)
    if kept is None or FIELD_OF_ITEM.search(kept.group(1)):
        return items, clause
    left_alone = _named_by(kept.group(1), items, now, by_when=True)
    rest = f"{clause[: kept.start()]} {clause[kept.end() :]}"
    others = [i for i in items if i not in left_alone]
    described = [m for m in mentions(rest, now) if not m.new]
    days = [m.value for m in described if m.kind == "date"]
    times = [m.value for m in described if m.kind == "time"]
    if left_alone and others and (points_back(rest) or best_schedules(others, rest, days, times)):
        return others, rest
    if left_alone and others and kept.group("spared"):
        return others, rest  # "카카오 면접만 남기고 …": never that one
    return items, clause


# Words that say "an item" and name none ("금요일 거", "그 일정").
_ENGLISH_NO_NAME = (
    "the a an my one ones schedule schedules event events item items plan plans appointment "
    "appointments"
)
_NO_NAME = {"거", "것", "건", "꺼", "일정", "스케줄"} | set(_ENGLISH_NO_NAME.split())


def _spared(phrase: str, pool: list[dict[str, Any]], now: date) -> list[dict[str, Any]]:
    """The items of `pool` the words before "빼고/만 남기고" name: by position in the listing
    ("첫 번째 거"), or, for each part joined by 이랑/하고/, ("카카오랑 네이버"), by every word
    of it in the item's title ("면접" spares every interview, "토스 면접" none of them) and its
    day and time ("금요일 거", "4일 면접")."""
    position = ordinal_position(phrase)
    if position is not None:
        return [pool[position]] if -len(pool) <= position < len(pool) else []
    spared: list[dict[str, Any]] = []
    for part in NOUN_JOIN.split(phrase):
        # "네이버거", "카카오꺼": the item's word and 거, written together
        part = re.sub(r"(?<=[가-힣A-Za-z0-9]{2})(?:거|꺼|것|건)$", " 거", part.strip())
        said = mentions(part, now)
        days = [m.value for m in said if m.kind == "date"]
        times = [m.value for m in said if m.kind == "time"]
        words = _matched_words(_blank(part, [m.span for m in said])) - _NO_NAME
        if not (words or days or times):
            continue
        named = [
            i
            for i in pool
            if words <= _matched_words(i["title"])
            and (not days or i["date"] in days)
            and (not times or i.get("time") in times)
        ]
        if not named and len(words) == 1:
            # a word written another way than the title's ("코테" of "코딩테스트"): the one
            # item it fits best, when only one does (never a part of several words: "토스
            # 면접" is not 네이버 1차 면접)
            best = best_schedules(pool, part, days, times)
            named = best if len(best) == 1 else []
        spared += [i for i in named if i not in spared]
    return spared


def all_but_items(
    clause: str, focus: dict[str, Any] | None, live: list[dict[str, Any]], now: date
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]] | None:
    """ "카카오 면접 빼고 다 지워줘", "첫 번째 거만 남기고 나머지 한 시간씩 미뤄줘": (the items
    spared, the items meant), or None when the clause does not ask for all but some. The
    items meant are those of the period the clause names ("이번 주 일정 중에 …"), else the
    room's listing when the spared ones are in it, else every item from today on; none are
    meant when the spared ones are not found (nothing is done to "all" on a guess)."""
    said = all_but(clause)
    if said is None:
        return None
    # the period the items are of: said before the ones spared ("다음 주 일정 중에 …"), or
    # after the marker as a set ("… 빼고 이번 주 거 다 지워줘"; not a new value: "다음 주로")
    period = said.before
    as_a_set = re.match(r"(.*?)(?:거|것|꺼|건|일정|스케줄)(?![가-힣])", said.after)
    if as_a_set:
        period += " " + as_a_set.group(1)
    days = said_period(period, now, focus)
    if days is None and (THAT_WEEK.search(period) or _THAT_DAY_SAID.search(period)):
        return [], []  # "그 주 거 다" with no week in the room: nothing on a guess
    if days is not None:
        pools = [[i for i in live if days[0] <= i["date"] <= days[1]]]
    else:
        listing = refers_to("그거", focus, live).choices if focus else []
        upcoming = sorted((i for i in live if i["date"] >= now.isoformat()), key=_in_order)
        pools = [listing, upcoming] if len(listing) >= 2 else [upcoming]
    # (what "all" is of: said before the ones spared, or after the marker: "면접 전부")
    kind = named_in(f"{said.before} {said.kind}", live, now)
    if kind:
        # of the items the set's words name: "면접 중에 카카오 빼고 다", "push all my
        # interviews except the Kakao one"
        pools = [[i for i in pool if i in kind] for pool in pools]
    for pool in pools:
        spared = _spared(said.spared, pool, now)
        if spared:
            return spared, [i for i in pool if i not in spared]
    return [], []


def _in_order(item: dict[str, Any]) -> tuple[str, str]:
    """An item's place in the schedule: by day, then time (an item with no time first)."""
    return item["date"], item.get("time") or ""


# Every item of a set: "둘 다", "전부", "모두", "싹", "각각", "다 (…) 지워줘"; the ones left
# ("나머지", "남은 거").
EVERY = re.compile(
    r"(?<![가-힣])(?:(둘)\s*다|모두|전부|싹(?:\s*다)?|각각|"
    r"(나머지|남은\s*(?:거|것|건|일정))(?:도|는|은|를|을)?|"
    # a bare 다 before the verb, a few words on ("다 한 시간씩 뒤로 밀어줘"; not "면접 다
    # 끝나고 …")
    # (no word between that ends a clause: "다 됐어 스터디 …", "다 귀찮다 …", "다 했어, …")
    r"다(?=\s+(?:\S*[^고면서데어아다요음,\s]\s+){0,3}?\S*(?:지워|지우|삭제|취소|옮겨|옮기|미뤄|미루|밀어|당겨|바꿔|"
    r"변경|날려|없애|빼)))(?![가-힣])"
)
# "면접만 5시로": only the items of that word (an item's word, not "시간만", "날짜만").
_ONLY = re.compile(r"([가-힣A-Za-z0-9]+?)만(?![가-힣])")
# A new value said as where it goes ("그 다음 주로", "같은 날로"): not the items' days.
_DESTINATION = re.compile(
    r"(?:(?:그|같은|이번|다음|담|다다음|저번|지난)\s+)?\S+?(?:으로|로)(?=[\s,.!?]|$)"
)
# The week or the day the room was about ("그 주 거 전부", "그 주 일정", "그날 거").
THAT_WEEK = re.compile(r"그\s*주|(?i:\bthat\s+(?:whole\s+|entire\s+)?week\b|\bthe\s+same\s+week\b)")
THAT_MONTH = re.compile(
    r"(?<![가-힣])그\s*달(?=\s|$|에|엔|의|은|는|도|[,.?!])|(?i:\bthat\s+month\b)"
)
_THAT_DAY_SAID = re.compile(r"그\s*날|(?i:\bthat\s+day\b)")


def said_period(
    text: str, now: date, focus: dict[str, Any] | None = None
) -> tuple[str, str] | None:
    """The days whose items a set names ("다음 주 일정 전부", "12월 거 다", "그 주 거",
    "그날 거"), as (first, last); None when it names none. A day said as a new value ("그
    다음 주로", "3시로") or a move ("하루씩") is no such day."""
    _, span = shift_in(text)
    said = _DESTINATION.sub(" ", _blank(text, [span]) if span else text)
    pointed = focus_day(focus) if focus else None
    listed = (focus or {}).get("listed_range") or {}
    if THAT_WEEK.search(said) and (pointed or listed):
        day = date.fromisoformat(pointed[0] if pointed else listed["start"])
        first = day - timedelta(days=day.weekday())
        return first.isoformat(), (first + timedelta(days=6)).isoformat()
    if _THAT_DAY_SAID.search(said) and pointed:
        return pointed[0], pointed[0]
    start, end = date_range(said, now)
    if end is None and start == now and not find_when(said, now).date:
        return None
    return start.isoformat(), (end or start).isoformat()


def named_in(clause: str, items: list[dict[str, Any]], now: date) -> list[dict[str, Any]]:
    """The items a clause names by the words of their titles (its days and times are left
    out: "카카오 면접 3시로 옮기고" names 카카오 면접); none when it says no title word."""
    words = _blank(clause, [m.span for m in mentions(clause, now)])
    if not _title_words(words) - _NO_NAME:
        return []
    return best_schedules(items, words, [], [])


def every_one(
    clause: str,
    kind: str,
    focus: dict[str, Any] | None,
    live: list[dict[str, Any]],
    now: date,
    done: set[str] | None = None,
) -> list[dict[str, Any]] | None:
    """The items a change or delete of a set means ("둘 다 하루씩 미뤄줘", "다음 주 일정 전부
    그 다음 주로", "면접만 5시로", "나머지도 지워줘", "면접은 원래대로" after a change of
    several), in date order; None when the clause means one item. Read in the request's own
    sentence (a remark before it, "이제 남은 건 카카오 면접이네.", is none), and never when
    an item is named after the set word ("준비 다 됐어 스터디 지워줘", "팀원 전부 시간이 안
    돼서 스터디 취소": 다/전부 are of something else). The set is the items of the days it
    names, else those left of the last listing ("나머지"), else the room's items (the listing
    just shown, even an empty one, or the last turn's); every item from today on only when
    the set's words name several of them ("면접 둘 다 지워줘"). "둘" asks that there be two.
    `done`: the items the message's earlier operations act on, never of "the rest"."""
    if kind not in ("update_schedule", "delete_schedule"):
        return None
    own = _LAST_SENTENCE.sub("", unquoted(clause))
    every = EVERY.search(own)
    only = _ONLY.search(own)
    changed = ((focus or {}).get("last_change") or {}).get("each") or {}
    by_id = {i["schedule_id"]: i for i in live}
    if (
        every is None
        and kind == "update_schedule"
        and RESTORE.search(own)
        and not KEPT_AS_IS.search(own)
        and len(changed) >= 2
    ):
        # "면접은 원래대로 돌려놔" after a change of several: each of them its words name, or
        # every one ("아 아니다 원래대로 돌려줘")
        pool = sorted((by_id[k] for k in changed if k in by_id), key=_in_order)
        restored = [i for i in best_schedules(pool, own, [], []) if i in pool]
        return restored if len(restored) >= 2 else None if restored else pool
    if every is None and only is None:
        return None
    state = focus or {}
    listed = [
        by_id[i["schedule_id"]] for i in state.get("listed") or [] if i["schedule_id"] in by_id
    ]
    looked = bool(state) and state.get("looked_turn", -1) == state.get("turn")
    period = said_period(own, now, focus)
    if period is None and (THAT_WEEK.search(own) or _THAT_DAY_SAID.search(own)):
        return None  # "그 주 거 다" with no week in the room: not a guess
    room = refers_to("그거", focus, live).choices if focus else []
    upcoming = sorted((i for i in live if i["date"] >= now.isoformat()), key=_in_order)
    if period:
        pool = [i for i in live if period[0] <= i["date"] <= period[1]]
    elif every is not None and every.group(2):
        # the rest: of the listing, else of every item from today on, without the ones the
        # room acted on since ("네이버 면접 7일로" then "나머지 면접도 같은 날로")
        shown = (state.get("listed") or [{}])[0].get("turn", -1)
        since = {
            i["schedule_id"]
            for i in state.get("items") or []
            if i["how"] != "listed" and i["turn"] > shown
        } | (done or set())
        pool = [i for i in listed or upcoming if i["schedule_id"] not in since]
    else:
        pool = listed if looked else room if len(room) >= 2 else listed
    pool = sorted(pool, key=_in_order)
    if every is None:
        return _marked_only(own, only, pool, upcoming)
    # the words that name the set: before the set word ("네이버 면접이랑 카카오 면접 둘 다"),
    # or, of the rest, the one word after it ("나머지 면접도")
    naming, after = own[: every.start()], own[every.end() :]
    if every.group(2):
        words = after.split()
        first = words[0] if words and not VALUE_WORD.match(words[0]) else ""
        naming, after = f"{naming} {first}", " ".join(words[1:]) if first else after
    if best_schedules(live, _DESTINATION.sub(" ", after), [], []):
        # "준비 다 됐어 스터디 지워줘": the item named after is the one meant ("면접 두 곳 다
        # 취소됐다고 … 면접만 지워주세요": the items marked with 만)
        return _marked_only(own, only, pool, upcoming)
    # (after a reason said before it: "가게 마감이 늦게 끝나서 ㅠ 다 …" names nothing)
    reasons = list(_REASON_END.finditer(naming))
    naming = naming[reasons[-1].end() :] if reasons else naming
    named: list[dict[str, Any]] = []
    # (of the days named or the listing just shown, only those; else any item from today)
    # (and of the rest, only the rest)
    among = (
        pool
        if period or looked or every.group(2)
        else pool + [i for i in upcoming if i not in pool]
    )
    for part in NOUN_JOIN.split(naming):
        fits = best_schedules(among, part, [], [])
        named += [i for i in fits if i not in named]
    if named:
        pool = sorted(named, key=_in_order)
    if every.group(1) and len(pool) != 2:
        return None
    if every.group(2) and re.match(r"\s*중", own[every.end() :]):
        return pool if len(pool) == 1 else None  # "남은 것 중에 면접": one of the rest
    if len(pool) >= 2 or (pool and every.group(2)):
        return pool
    return None


def _marked_only(
    own: str,
    only: re.Match[str] | None,
    pool: list[dict[str, Any]],
    upcoming: list[dict[str, Any]],
) -> list[dict[str, Any]] | None:
    """ "면접만 5시로": every item whose title has all the words before 만, when several do
    ("카카오 면접만" names one; "네이버 면접 시간만" names a field); None otherwise."""
    if only is None:
        return None
    of_it = _marked_items(own, only, pool or upcoming)
    return of_it if len(of_it) >= 2 else None


def _marked_items(
    text: str, only: re.Match[str], pool: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The items of `pool` whose titles have all the words of the phrase marked with 만."""
    asked = _words_before(text[: only.end(1)], pool)
    return [i for i in pool if asked and all(_in_title(w, i) for w in asked)]


# What comes before the request's own sentence ("이제 남은 건 카카오 면접이네. …").
_LAST_SENTENCE = re.compile(r"^.*[.!?\n]\s*(?=\S)", re.S)
# A word that is a value, not an item ("나머지 다", "나머지 전부", "나머지 한 시간씩").
VALUE_WORD = re.compile(r"(?:다|전부|모두|싹|\d|한|두|세|하루|이틀)")


def _words_before(text: str, pool: list[dict[str, Any]]) -> list[str]:
    """The words of the phrase that ends `text` ("1차 면접만" -> [1차, 면접]), read back from
    its end while each word is in some item's title (so "두고 네이버 면접" stops at 두고)."""
    asked: list[str] = []
    for word in reversed(text.split()):
        core = re.sub(r"(?:만|은|는|이|가|도)$", "", word)
        if not core or core in _NO_NAME or not any(_in_title(core, i) for i in pool):
            break
        asked.append(core)
    return asked


def _in_title(word: str, item: dict[str, Any]) -> bool:
    """Whether a word is in an item's title: as written ("1차"), or by its analysed words."""
    mine = _matched_words(word) - _NO_NAME
    return squash(word) in squash(item["title"]) or bool(
        mine and mine <= _matched_words(item["title"])
    )


def _nearest_day_of_month(number: int, its_day: str, read: str, now: date) -> str:
    """The `number`-th of the month nearest an item's day (its month, the one before or
    after; not a day already past), as a new day for it; `read` (the day as read from
    today) when none is valid."""
    base = date.fromisoformat(its_day)
    this_month = base.replace(day=1)
    months = [(this_month - timedelta(days=1)).replace(day=1), this_month]
    months.append((this_month + timedelta(days=32)).replace(day=1))
    candidates = []
    for month_start in months:
        try:
            candidate = month_start.replace(day=number)
        except ValueError:
            continue  # (no 31st that month)
        if candidate >= now:
            candidates.append(candidate)
    if not candidates:
        return read
    return min(candidates, key=lambda d: (abs((d - base).days), d)).isoformat()


def _in_month_of(clause: str, found: list[Mention], day: date) -> None:
    """ "그 달 5일", "같은 달 20일": a day of the month the room was about (the month of
    `day`), not the next 5th from today. The mentions are moved there."""
    for m in found:
        said = re.fullmatch(r"\s*(\d{1,2})\s*일\s*", clause[m.span[0] : m.span[1]])
        if m.kind != "date" or not said or not _THAT_MONTH.search(clause[: m.span[0]]):
            continue
        try:
            m.value = day.replace(day=int(said.group(1))).isoformat()
        except ValueError:
            continue  # "그 달 31일" of a 30-day month: as the user said it


def _blank(text: str, spans: list[tuple[int, int]]) -> str:
    for start, end in spans:
        text = text[:start] + "\n" * (end - start) + text[end:]
    return text


# A when before the title, said by what else happens then: "거기 코테 날짜에 …", "면접
# 날에 …", "점심시간에 …", "회의 때 …".
WHEN_ADJUNCT = re.compile(r"^(?:\S+\s+){0,3}?\S*(?:날짜|날|시간|때|즈음|쯤)(?:에는|에|엔)?\s+")


# The notice as the request calls it ("문자로 온 거", "메일 내용").
_NOTICE_WORD = re.compile(r"메일|이메일|문자|카톡|메시지|연락|안내|공지|알림")
# A pointer after the event's name, to it ("병동 인수인계 교육도 있어요 그것도 넣어주세요").
_TRAILING_POINTER = re.compile(r"\s+(?:그것|그거|이것|이거|걔|얘)(?:도|을|를|은|는|좀)?$")


def _clean_title(segment: str) -> str:
    # (laughter or tears glued to a word are no part of it: "스벅 알바 면접ㅋㅋ")
    segment = re.sub(r"[ㅋㅎㅠㅜ]{2,}", " ", segment)
    segment = TITLE_FILLER.sub(" ", without_slips(segment))
    segment = " ".join(segment.split()).strip(" ,.:;!?~->")
    segment = re.sub(r"^[^\w\s]+\s*", "", segment)  # "↑ 이거 …", "→ …": a pointing sign
    adjunct = WHEN_ADJUNCT.match(segment)
    if adjunct and _names_an_event(segment[adjunct.end() :]):
        segment = segment[adjunct.end() :]
    segment = _without_predicates(LEADING_PARTICLE.sub("", segment).strip())
    segment = _TRAILING_POINTER.sub("", segment)  # "… 교육도 있어요 그것도 넣어주세요"
    segment = DAY_TAIL.sub("", ENGLISH_TAIL.sub("", LEADING_POINTER.sub("", segment)))
    segment = ENGLISH_HEAD.sub("", segment)
    if all(w.lower() in _ENGLISH_FILLERS for w in segment.split()):
        return ""
    rest = PART_OF_DAY_HEAD.sub("", segment)
    if rest != segment and _names_an_event(rest):
        segment = rest
    # "카카오 코테로 일정 넣어줘": the name it is put in as (not "진로", a noun of its own)
    # (an event noun before it: not 대학로, 을지로, 인트로, nor "내용대로")
    segment = re.sub(rf"({EVENT_NOUNS})(?:으로|로)$", r"\1", segment)
    return _without_leading_function_words(_without_particle(segment)).strip(" ,.")


# Nouns that lead a title without being part of it: a day counted from another item, a
# connective ("그 다음날 현대카드 면접", "대신 개인 공부").
_LEADING_NOUNS = {
    "다음날",
    "전날",
    "이튿날",
    "당일",
    "말일",
    "대신",
    "다음",
    "같은",
    "이번",
    "요번",
}
_DEMONSTRATIVES = {"그", "이", "저", "그런", "이런", "저런"}


def _without_leading_function_words(title: str) -> str:
    """The title from its first content word on: what Kiwi reads before it as a
    determiner, an adverb, a number word, a particle or an ending, a leading noun of when or
    a connective, or a modifier ("같은 시간에"), is not part of the event's name ("일에 월세
    내기" -> "월세 내기", "그 다음날 현대카드 면접" -> "현대카드 면접")."""
    tokens = [t for t in kiwi().tokenize(title) if not t.tag.startswith("S")]
    for n, token in enumerate(tokens):
        leading = (
            (token.tag == "MM" and token.form in _DEMONSTRATIVES)  # not "내 스터디"
            or token.tag in ("MAG", "MAJ", "NR", "IC", "VA", "ETM")
            or token.tag.startswith(("J", "E"))
            or token.form in _LEADING_NOUNS
        )
        if not leading:
            # (never from inside a word: a typo the analyser reads as pieces, "네이봐웹툰",
            # starts where its word does)
            start = token.start
            while start > 0 and not title[start - 1].isspace():
                start -= 1
            return title[start:] if n else title
    return title


# "그날로 토스 결과발표", "그때 네이버 코테", ">> 이거 라인플러스 1차 기술면접": a pointer
# before the title.
LEADING_POINTER = re.compile(
    r"^(?:(?:그|이|저)\s*(?:날|때|시간)(?:에는|에|으로|로)?|(?:이|그|저)(?:거|걸|건)(?:는|은)?)\s+"
)
# "야놀자 최종 발표 날이야": the event's day is not part of its name.
DAY_TAIL = re.compile(r"\s+(?:날|당일)$")
# "Kakao mock interview on" (the date was after it): an English preposition left at the end.
ENGLISH_TAIL = re.compile(
    r"(?i)(?:\s+(?:on|at|for|to|in|by|from|of|the)|"
    # the room's day said after the title ("dinner with my cousin that day at 7pm")
    r"\s+(?:that|the\s+same|same)\s+(?:day|date)|"
    # "Your technical interview is scheduled for …": what a mail says of the event
    r"\s+(?:is|has\s+been|was|will\s+be)\s+(?:scheduled|confirmed|set|booked|planned))+$"
)
# "a mock interview", "your technical interview": an article or a possessive before an
# English title.
ENGLISH_HEAD = re.compile(
    r"(?i)^(?:(?:(?:a|an|the|my|your|and|also|then|plus)\s+)+(?=[a-z])|"
    r"(?:pls|plz|please)\s*[:,]?\s+(?=[a-z가-힣]))"
)
# English words that name nothing on their own ("and add a memo: …" leaves "and").
_ENGLISH_FILLERS = frozenset(
    {"and", "also", "then", "plus", "ok", "okay", "a", "an", "the"}
    # a request's opening ("Can you add …", "Could you please put …")
    | {"can", "could", "would", "will", "you", "u", "please", "pls", "kindly", "i", "me"}
)
# "6시 저녁에 회고": a part of the day left before the event once its hour is read.
PART_OF_DAY_HEAD = re.compile(r"^(?:아침|점심|저녁|밤|새벽|오전|오후|낮)(?:에|엔|에는)\s+")
_ENDINGS = ("EF", "EC")


# Endings of reported speech: a noun with them is what someone said the event is.
_HEARSAY = {"래", "래요", "라던데", "라는데", "라네", "랍니다", "라더라", "라고"}


# A predicate of an event being set or held ("잡혀서", "예정되어", "있어서", "생겼어요"): its
# subject names the event ("친구가 소개해준 커피챗", "면접이 끝나고" are no such subject).
_HELD_OR_SET = re.compile(
    r"(?:예정|잡혀|잡혔|잡힌|잡히|있|생겼|생겨|생김|열려|열리|열린|진행|확정|정해|결정|나왔|났)"
)


def _without_predicates(title: str) -> str:
    """The title without the predicates Kiwi reads around it: a word ending like a clause
    ("있대ㅋㅋ", "잡혔어", "나온대", "맞춰서") ends what came before, so the title is the
    stretch after the last one, unless that names no event and a stretch before it does
    ("토스 1차면접 잡혔다 ㅎㅎ" -> "토스 1차면접"); a word that is a noun with a copula keeps
    its noun ("마감이야" -> "마감"). A noun made of a verb ("면접 준비하기") is no clause and
    stays."""
    words = [(m.start(), m.end()) for m in re.finditer(r"\S+", title)]
    if not words:
        return title
    tokens = kiwi().tokenize(title)

    def inside(span: tuple[int, int]) -> list[Any]:
        return [t for t in tokens if span[0] <= t.start < span[1] and not t.tag.startswith("S")]

    def clause_end(span: tuple[int, int]) -> bool:
        # a written predicate and its ending; a copula Kiwi supposes in a noun ("회고" read
        # as 회 + 이 + 고) is no clause
        inner = inside(span)
        if any(t.tag == "VCP" for t in inner) and any(t.form in _HEARSAY for t in inner):
            return True  # "발표래", "코테라던데": hearsay on a noun, its copula unwritten
        # (and ends in an ending: a name Kiwi cuts into a stem at its end, "쿠팡풀필먼트" read
        # as … 먼 + 트, is no predicate)
        return (
            any(t.tag in _ENDINGS for t in inner)
            and (
                any(t.tag.startswith("V") and t.len > 0 for t in inner)
                # (or a noun made a verb, told as done: "예약했어" is 예약 + 하 + 었 + 어;
                # "수정하고", "준비하기" go on naming the event)
                or (
                    any(t.tag in ("XSV", "XSA") for t in inner)
                    and any(t.tag == "EP" for t in inner)
                    and inner[-1].tag == "EF"
                )
            )
            and _ends_in_ending(inner)
        )

    def noun_part(span: tuple[int, int]) -> list[tuple[int, int]]:
        # a noun and its written copula ("마감이야"): the noun stays; a verb goes
        inner = inside(span)
        at = next((i for i, t in enumerate(inner) if t.tag == "VCP"), None)
        if at is not None and at > 0 and all(t.tag.startswith(("N", "XSN")) for t in inner[:at]):
            return [(span[0], inner[at].start)]
        return []

    for n, (word, after) in enumerate(pairwise(words)):
        # an event as the subject of a predicate ("국립중앙도서관 면접이 예정되어 있사오니"):
        # the name is the noun phrase its subject particle ends (nouns only: not "…합격한
        # 곳이 생겨서요", a clause)
        inner = inside(word)
        if not (
            len(inner) >= 2
            and inner[-1].tag == "JKS"
            and all(t.tag.startswith(("N", "SL", "SN", "XSN")) for t in inner[:-1])
            and _HELD_OR_SET.match(title[after[0] : after[1]])
        ):
            continue
        first = n
        while first > 0 and all(
            t.tag.startswith(("N", "SL", "SN", "XSN")) for t in inside(words[first - 1])
        ):
            first -= 1
        subject = title[words[first][0] : inner[-1].start].strip()
        if _names_an_event(subject):
            return subject
    # the stretches between predicates, each with the noun of a copula that ends it
    pieces: list[list[tuple[int, int]]] = [[]]
    for n, word in enumerate(words):
        if clause_end(word):
            pieces[-1] += noun_part(word)
            if n < len(words) - 1:
                pieces.append([])
        else:
            pieces[-1].append(word)
    pieces = [p for p in pieces if p]
    if not pieces:
        return title
    texts = [title[p[0][0] : p[-1][1]].strip() for p in pieces]
    # the last stretch, unless it names no event and one before it does ("토스 1차면접
    # 잡혔다 ㅎㅎ", "현대오토에버 1차 면접 보자고 하네요 ㅋㅋ")
    if not _names_an_event(texts[-1]):
        for text in reversed(texts[:-1]):
            if _names_an_event(text):
                return text
    return texts[-1]


def _ends_in_ending(tokens: list[Any]) -> bool:
    """Whether a word's last morpheme before any particle or added coda ("잡혔는데 + 요",
    "잡혔다 + ㅇ") is an ending."""
    rest = list(tokens)
    while rest and rest[-1].tag.startswith(("J", "Z")):  # "잡혔당": an added coda
        rest.pop()
    return bool(rest) and rest[-1].tag.startswith("E")


def _without_particle(title: str) -> str:
    """The title without a particle at its end ("면접이" -> "면접", "면접도요" -> "면접"), when
    the analyser reads it as one (or two): "뒤풀이" and "놀이" end in 이 and keep it."""
    found = TRAILING_PARTICLE.search(title)
    if found is None:
        return _without_polite_yo(title)
    tail = [t for t in kiwi().tokenize(title) if t.start >= found.start()]
    if tail and tail[0].start == found.start() and all(t.tag.startswith("J") for t in tail):
        return title[: found.start()]
    return title


def _without_polite_yo(title: str) -> str:
    """The title without the polite 요 said right after its noun ("도서 전시 회의요",
    "치과요"): the analyser reads a lone 요 after a noun or a foreign word, whatever it tags
    it; "토요" or "요요" are words of their own."""
    if not re.search(r"[가-힣A-Za-z0-9]요$", title):
        return title
    tokens = kiwi().tokenize(title)
    if (
        len(tokens) >= 2
        and tokens[-1].form == "요"
        and tokens[-1].start == len(title) - 1
        and tokens[-2].tag.startswith(("NN", "SL", "SN"))
        and tokens[-2].start + tokens[-2].len == len(title) - 1
    ):
        return title[:-1]
    return title


def _day_shifts(clause: str) -> list[tuple[int, int]]:
    """Where a clause counts a day from the room's day ("그 일주일 전", "그 다음날"); a day
    counted from what the clause names ("출국 전날 짐싸기") is part of the name."""
    return [
        m.span()
        for m in DAY_SHIFT.finditer(clause)
        if re.search(r"(?:^|\s)그\s*$", clause[: m.start()])
    ]


def _pasted_event(pasted: str) -> str | None:
    """A pasted notice's event: the first hiring step it names (interviews and tests before
    the application) after the organisation it comes from; None when it names no step or
    no organisation (its head line is read then)."""
    company = rank_organization(pasted)
    if not company:
        return None
    for _, pattern in STAGE_PATTERNS:
        # the step as the notice names it most fully ("1차 기술면접이 12월 9일 …" over the
        # head's "면접 일정 안내"), the first among equals
        steps = list(pattern.finditer(pasted))
        step = max(steps, key=lambda m: len(m.group(0).strip()), default=None)
        if step:
            # (from the start of its word when the step begins with a department's ending:
            # "물류기획팀 2차 면접", not "팀 2차 면접"; "홍길동님의2차면접" stays "2차면접")
            start = step.start()
            if re.match(r"팀|부서|본부|센터|실(?![가-힣])", step.group(0)):
                while start > 0 and re.match(r"[가-힣A-Za-z]", pasted[start - 1]):
                    start -= 1
            name = " ".join(pasted[start : step.end()].split())
            if name in company or company in name:
                return max(name, company, key=len)
            return f"{company} {name}"
    return None


_UNDECIDED = re.compile(r"아직|나중|알아서|상관|아무거나|대충|그냥\s*둬")


def _a_name(words: str) -> bool:
    """Words that can be an item's name: nouns (and foreign words, numbers), no predicate
    and no undecided answer ("제목은 아직 몰라", "이름은 나중에 정할게", "제목은 알아서 해줘")."""
    if _UNDECIDED.search(words):
        return False
    tokens = analysed(words)
    return bool(tokens) and not any(t.tag.startswith(("V", "E", "MAG")) for t in tokens)


# A polite preamble ending at a comma ("죄송합니다만,", "바쁘시겠지만,", "다름이 아니라,").
_PREAMBLE_END = re.compile(r"(?:(?<=지만)|(?<=니다만)|(?<=는데)|(?<=라)|(?<=요)),\s*")


def title_of(clause: str, spans: list[tuple[int, int]]) -> str:
    """The event's name as the user wrote it: a short quoted title verbatim; from a pasted
    mail its head ("[쿠팡] 1차 면접 안내" -> "쿠팡 1차 면접"); otherwise the noun phrase nearest
    the verb, without the date and time words, where it goes, trailing 일정 and fillers,
    and without small talk or a condition before it."""
    theirs = _title_read(clause, spans)
    if (pasted := pasted_block(clause)) is not None:
        # the user's own name for what was pasted ("CJ대한통운 2차면접 일정 추가" over the
        # mail's "2차 면접"), unless it is only a part of the notice's ("면접 일정 등록해줘")
        # (named outright: "'대한물류 1차 면접'으로", "제목은 …"; or the notice's name in the
        # user's spacing; never "아래 걸로", "선생님이 보내준 메일", "원장님한테 카톡")
        words, block = pasted
        own = _title_read(words, list(find_when(words, date(2000, 1, 1)).spans))
        after_verb = _NAMED_AFTER_VERB.search(words)
        if after_verb and _a_given_name(after_verb.group(1)):
            # "마감일 일정에 넣어줘 SM 서류마감으로": the name said after the verb
            return after_verb.group(1).strip()
        named = bool(
            QUOTED.search(words)
            or NAMED_AS.search(words)
            # ("친구 약속으로 넣어줘", "카카오 면접으로 저장해줘": named with 로 and the verb)
            or re.search(
                rf"{re.escape(own)}\s*(?:으로|로)\s*(?:일정\S*\s*)?(?:넣|추가|등록|저장)", words
            )
        )
        if (
            own
            and not POINTER.match(own)
            and not _NOTICE_WORD.search(own)
            and _names_an_event(own)
            # (a name of its own, more than the kind of event: "이거 하이브 면접으로 저장해줘",
            # "롯데마트 면접 넣어 주세요" over the notice's sentence; not "면접 일정 등록해줘")
            and (
                named
                or squash(own) == squash(theirs)
                or not theirs
                # (what the notice tells, said by the user's words: not who sent it, "엄마가
                # 보내준 문자인데 넣어줘", nor a pointer at it, "아래 걸로 넣어줘")
                or (
                    _more_than_kind(own)
                    and not _said_as_subject(own, words)
                    and _told_in(own, block)
                )
            )
        ):
            return own
    return theirs


# A name said after the put-in verb, closing the message: "넣어줘 SM 서류마감으로".
_NAMED_AFTER_VERB = re.compile(
    r"(?:넣어|추가|등록|저장)[가-힣]*(?:\s+(?:ㄱㄱ?|ㅇㅇ|좀|부탁\S*|해\s*줘|해\s*주세요))*"
    r"\s+['\"‘“]?([^'\"’”\n]{2,30}?)['\"’”]?\s*(?:으로|로)(?:요)?"
    r"\s*[.!~ㅎㅋ^]*$"
)
_PLACE_WORDS = frozenset({"캘린더", "달력", "일정", "스케줄", "개인", "메모"})


def _a_given_name(text: str) -> bool:
    """Whether words said as a name name an event: no day or time, not where it goes."""
    words = _title_words(text)
    return (
        _names_an_event(text)
        and not words <= _PLACE_WORDS
        and find_when(text, date(2000, 1, 1)).spans == ()
    )


def _told_in(name: str, block: str) -> bool:
    """Whether every word of a name is in the pasted block ("하이브 면접" of a DM naming 하이브
    and 면접; "롯데 설명회" of one naming 롯데글로벌로지스 … 설명회)."""
    said = squash(block)
    return all(w in said for w in _title_words(name) - _PLACE_WORDS)


def _said_as_subject(name: str, words: str) -> bool:
    """Whether the words say `name` as the subject of a clause ("엄마가 보내준 …")."""
    return (
        re.search(rf"{re.escape(name)}\s*(?:이|가|께서|님이|님께서)(?![가-힣])", words) is not None
    )


def _more_than_kind(title: str) -> bool:
    """A title with a word besides the kind of event ("하이브 면접", "모의고사"; not "면접
    일정")."""
    words = _title_words(title) - _PLACE_WORDS
    return any(re.fullmatch(EVENT_NOUNS, w) is None for w in words)


# A particle closing a phrase: no event's name ("홍대에서", "강남역에서").
_PARTICLE_END = re.compile(r"(?:에서|에게|한테|에|으로|로|을|를|이|가|은|는)$")
# A predicate's ending: no event's name ("확정되었습니다", "예약했어").
_PREDICATE_END = re.compile(
    r"(?:습니다|었다|였다|었어|였어|됐다|됐어|된다|합니다|해요|어요|아요|했다|했어|됨|함)$"
)
# An English request closed by a colon before what it asks for ("add two things pls: …",
# "can you put these in:").
_REQUEST_COLON = re.compile(
    r"(?i)^[^:：\n]{0,30}?\b(?:add|put|schedule|save|book|log)\b[^:：\n]{0,30}[:：]\s*"
)


def _title_read(clause: str, spans: list[tuple[int, int]]) -> str:
    """`title_of` of a clause read as one text."""
    named_as = NAMED_AS.search(_blank(clause, spans))
    if named_as and (named_as.group("bare") is None or _a_name(named_as.group("bare"))):
        return (
            named_as.group("name")
            or named_as.group("en")
            or named_as.group("as")
            or named_as.group("label")
            or named_as.group("bare")
            or named_as.group("upto")
            or named_as.group("called")
        ).strip()
    for quote in QUOTED.finditer(clause):
        inner = quote.group(0)[1:-1].strip()
        if not inner:
            continue
        if len(inner) <= 40 and find_when(inner, date(2000, 1, 1)).date is None:
            return inner
        if not QUOTED.search(inner):
            # a message quoted with its day ("'12월 5일 오후 3시 치과 예약됐어'"): the event
            # it tells, as a notice or a request is read, not its first words
            read = _title_read(inner, list(find_when(inner, date(2000, 1, 1)).spans))
            event = _pasted_event(inner) or (
                read
                if _names_an_event(read)
                and len(read) <= 30
                and not _PREDICATE_END.search(read)
                and not _PARTICLE_END.search(read)
                and ":" not in inner
                and len(find_dates(inner, date(2000, 1, 1))) <= 1
                else ""
            )
            if event:
                return event
        head = re.split(r"\s[-–—|]\s|\n|일시\s*[:：]|[,:：]", inner)[0]
        head = MAIL_TAIL.sub("", MAIL_HEAD.sub(r"\1 ", head))
        if head.strip():
            return " ".join(head.split())
    head = _REQUEST_COLON.match(clause)
    if head is not None and any(start >= head.end() for start, _ in spans):
        # "add two things pls: 12/8 2pm 라인 UX interview": the request, then what it adds
        moved = [(s - head.end(), e - head.end()) for s, e in spans if s >= head.end()]
        return _title_read(clause[head.end() :], moved)
    text = _blank(unquoted(clause), spans)
    # (a verb joined by -서 to the next is not the request: "메모 넣어서 추가해줘: …")
    verb = next((v for v in ADD_REQUEST.finditer(text) if not text.startswith("서", v.end())), None)
    before, after = (text[: verb.start()], text[verb.end() :]) if verb else (text, "")
    pasted = PASTED_AFTER.match(after)
    if pasted and verb and any(start >= verb.end() for start, _ in spans):
        # the event (its date) is in the text pasted after the request: the step it names
        # and the organisation, read as the calendar reads a posting ("안녕하세요, 당근
        # 채용팀입니다 … 1차 인터뷰 일정 안내" -> "당근 1차 인터뷰"); else its first line, as a
        # mail's head is read ("…추가해줘\n고마워" names no date after it: not pasted)
        named = _pasted_event(after[pasted.end() :])
        if named:
            return named
        for line in after[pasted.end() :].split("\n"):
            head = MAIL_TAIL.sub("", MAIL_HEAD.sub(r"\1 ", SMS_TAG.sub("", line)))
            title = _clean_title(head)
            if title:
                return title
    # (a sentence ends a segment too: "…못 갈 듯.. 면접 넣고": the request's own words; and
    # a polite preamble's comma: "번거롭게 해드려 죄송합니다만, 건강검진을 …")
    segments = [
        s
        for part in before.split("\n")
        for sentence in SENTENCE_END.split(part)
        for clause in SUBCLAUSE_END.split(sentence)
        for s in _PREAMBLE_END.split(clause)
    ]
    ends = list(SENTENCE_END.finditer(before))
    # the request's own words: after the last sentence, on the request's own line ("장소:
    # 분당 본사 / 소요시간 약 1시간\n\n↑ 이거": the line above is the notice's)
    # (a notice of lines with no sentence end: the request's line is the last one)
    tail = before[ends[-1].end() :] if ends else before if "\n" in before.strip() else ""
    own = _clean_title(tail.strip().split("\n")[-1]) if tail.strip() else ""
    if own and not ends and (_NOTICE_WORD.search(own) or re.search(r"(?:거|것)$", own)):
        own = ""  # "문자로 온 거 넣어줘": the notice, pointed at
    notice = len(ends) >= 2 or bool(_NOTICE_FIELD.search(before))  # "… 일시: … / 장소: …"
    if notice and not (
        own and not POINTER.match(own) and not _THE_NOTICE.match(own) and _names_an_event(own)
    ):
        # a notice pasted before a request that names no event itself ("[메일 복붙]
        # 안녕하세요 …, 당근마켓 채용팀입니다. 1차 인터뷰 일정은 …로 확정되었습니다. <- 이거
        # 일정에 추가해줘"): read as one pasted after it is ("↑ 이거 토스뱅크 1차 인터뷰로
        # 일정 넣어줘" names its own)
        named = _pasted_event(before)
        if named:
            return named
    # (nor thanks: "확인 감사합니다. 거기에 메모 '…' 넣어 주세요" names no event)
    segments = [s for s in segments if not NOTICE_LINE.match(s) and not _THANKS.search(s)]
    for segment in reversed(segments):
        title = _clean_title(segment)
        # a segment with no event noun ("…2시래요.. 까먹기 전에") is what was said around
        # the event: its name is in a segment before it
        if title and not POINTER.match(title) and _names_an_event(title):
            return _named_in_full(title, before)
    for segment in reversed(segments):
        title = _clean_title(segment)
        # ("메모 넣어서 추가해줘: 12월 4일 … 토스 코테": the memo is no title; the event
        # said after the verb is)
        if title and not POINTER.match(title) and _title_words(title) != {"메모"}:
            return title
    after = re.sub(r"^\S*", "", after)  # the verb's ending ("Please add X": X follows)
    return _clean_title(after.split("\n")[0])


# A value said to be checked: "금요일 맞는지", "10일인지", "3시 맞죠"
_CHECKED = re.compile(
    r"\s*(?:이|가)?\s*(?:맞는지|맞나|맞죠|맞아|맞지|맞습니까|맞는가|맞을까|(?:이었|였)?는지|인지)"
)
# A day remarked on ("목욜이네", "금요일이구나", "토요일이잖아")
_REMARKED = re.compile(r"(?:이)?(?:네요?|구나|군요?|잖아요?)(?![가-힣])")
# A sentence that only thanks ("확인 감사합니다", "네 고마워요"; not "면접관님께 감사합니다 문자
# 보내기", a title)
_THANKS = re.compile(
    r"^\s*(?:\S+\s+)?(?:감사(?:합니다|해요|드려요|드립니다)|고마워요?|고맙습니다|수고하셨습니다)"
    r"\s*[.!~]*\s*$"
)


def _named_in_full(title: str, text: str) -> str:
    """A bare event noun ("면접 넣고") as the text named it in full before ("CJ대한통운 면접
    잡혀서 … 면접 넣고" -> "CJ대한통운 면접"): the name of what it heads, first said there."""
    if len(title.split()) != 1 or len(_title_words(title)) != 1:
        return title
    own = text.rfind(title)  # where the request says it; the full name is before
    for m in re.finditer(rf"(\S+)\s+{re.escape(title)}(?![가-힣A-Za-z])", text[:own]):
        head = m.group(1)
        tokens = analysed(head)
        if (
            # the noun said with a day of its own is another event ("토스 면접 떨어짐 ㅠ 12월
            # 9일 2시 면접 넣어줘": the dates, blanked, stand between)
            "\n" not in text[m.end() : own]
            and head not in _LEADING_NOUNS
            and tokens
            and all(t.tag in ("NNP", "NNG", "SL", "SN") for t in tokens)
            and not set(content_words(head)) & _WHEN_NOUNS
        ):
            return f"{head} {title}"
    return title


# Words of when, not of what: a title made only of them names no event.
_WHEN_NOUNS = {
    "매주",
    "매일",
    "매달",
    "다음",
    "요일",
    "시간",
    "주",
    "날",
    "이번",
    "그날",
    "주말",
    "같은",
    # the words a notice or a mail says its date with ("날짜가 12월 15일 …입니다")
    "날짜",
    "일시",
    "일자",
    "시각",
}


# Nouns used as adverbs of manner, never an event's name ("대신 메모에 …", "원래대로 두고",
# "나중에 알려줘")
_MANNER_NOUNS = frozenset({"대신", "원래", "나중", "메모", "미안", "죄송"})


def _names_an_event(title: str) -> bool:
    """Whether a title names an event: a noun that is not a word of when or of manner."""
    return bool(title) and any(
        w not in _WHEN_NOUNS and w not in _MANNER_NOUNS for w in content_words(title)
    )


def _title_words(text: str) -> set[str]:
    return set(content_words(koreanised(without_slips(text))))


def _matched_words(text: str) -> set[str]:
    """A title's words for matching, with the compounds the analyser split ("인적성은" read
    as 인 + 적성 is 인적성, as in "CJ 인적성")."""
    said = koreanised(text)
    return _title_words(said) | set(compound_nouns(said))


# Words of an operation and of when, not of what the item is ("오후 3시 일정 취소 부탁").
_NO_EVENT_WORDS = frozenset(
    {"취소", "삭제", "변경", "수정", "추가", "등록", "부탁", "캔슬", "제거", "시간", "날짜", "일시"}
    | {"처리", "요청", "요망", "바람", "가능", "확정"}
    | {"약속", "모임", "오전", "오후", "저녁", "아침", "점심", "밤", "새벽", "낮"}
)


def _by_its_day_or_clock_alone(
    item: dict[str, Any], text: str, days: list[str], times: list[str], now: date
) -> bool:
    """Whether a clause fits an item by its day or its hour alone while it says another day
    or another hour, or, by its hour alone, names an event the item's title lacks: "내일 오후
    3시 치과 취소해줘", "오후 3시 치과 지워줘" and "모레 오후 3시 안과 진료 취소" mean no
    interview at 3 p.m. on Friday and no study at 7 p.m. on Tuesday ("3시 거 지워줘",
    "금요일 3시 거", "화요일 약속" still do)."""
    if _matched_words(text) & _matched_words(item["title"]):
        return False
    # (what describes the item comes before the verb; after it, a reason or a new value:
    # "3시 거 취소 병원 가야 돼서", "move my 7pm thing to wednesday")
    verb = SCHEDULE_VERB.search(text)
    text = text[: verb.start()] if verb else text
    said = mentions(text, now)
    days = [m.value for m in said if m.kind == "date" and m.value in days]
    times = [m.value for m in said if m.kind == "time" and m.value in times]
    if days and item["date"] not in days:
        return True
    clock = item.get("time")
    if times and clock and clock not in times and _dial(clock) not in {_dial(t) for t in times}:
        return True
    if item["date"] in days or not times:
        return False
    if _REASON_END.search(text):
        return False  # "3시 거 병원 가야 해서 취소": why, not which
    named = _title_words(_blank(text, [m.span for m in said]))
    return bool(named - _NO_NAME - _NO_EVENT_WORDS)


def best_schedules(
    items: list[dict[str, Any]], text: str, days: list[str], times: list[str]
) -> list[dict[str, Any]]:
    """The user's schedules a clause fits best (several when they tie): shared nouns
    (English names in Korean), its day (x2) and its time named in the clause."""
    words = _matched_words(text)
    # a bare hour names the item at that hour in the morning or the afternoon ("7시에 하는 거"
    # is the 19:00 one), a little less surely than the hour as written
    dials = {_dial(t) for t in times}
    # "금요일 저녁 거": the day picks no item outside the half of the day the clause
    # describes an item by (not "오늘 밤에 생각해보니 …", "아침에 병원 가야 해서 …")
    half = None if times else described_half(text)
    scored = []
    for item in items:
        score: float = len(words & _matched_words(item["title"]))
        if not score and half and item.get("time") and not half[0] <= item["time"] < half[1]:
            continue
        score += 2 * (item["date"] in days)
        if item.get("time") and item["time"] in times:
            score += 1
        elif item.get("time") and _dial(item["time"]) in dials:
            score += 0.5
        scored.append((score, item))
    scored = [p for p in scored if p[0] > 0]
    if not scored:
        return []
    top = max(score for score, _ in scored)
    return [item for score, item in scored if score == top]


def talked_of(
    fits: list[dict[str, Any]], focus: dict[str, Any] | None, now: date
) -> dict[str, Any] | None:
    """Of several items a clause fits alike, the one the room's last words singled out: the
    latest earlier message that speaks of them ("금요일 네이버 면접 때문에 떨려요", "다음주에 면접
    있는데") speaks of that one alone, by a word of its title the others lack, its day or a
    period holding it; None when the latest such message speaks of none or of several ("토스
    코테, 당근 면접 둘 다 넣어줘")."""
    if len(fits) < 2:
        return None
    titles = [_matched_words(f["title"]) for f in fits]
    common = set.intersection(*titles)
    for record in reversed((focus or {}).get("said") or []):  # the last turns' (focus.py)
        said = str(record.get("text") or "")
        words = _matched_words(said)
        if not words & (common or set().union(*titles)):
            # it does not speak of them ("카카오 공고 우대사항 뭐야?" speaks of the posting,
            # not of the interview: the noun they share is not in it)
            continue
        days = {m.value for m in mentions(said, now) if m.kind == "date"}
        start, end = date_range(said, now)
        if end is not None:  # a period it names holds the days in it
            days |= {(start + timedelta(days=n)).isoformat() for n in range((end - start).days + 1)}
        spoken = [
            f
            for f, own in zip(fits, titles, strict=True)
            if words & (own - common) or f["date"] in days
        ]
        return spoken[0] if len(spoken) == 1 else None
    return None


# Words that say the item is not simply the one in view: another, the rest, one of several,
# or no change at all ("지우지 마", "바꾸지 말고").
_NOT_SURE = re.compile(
    r"다른|나머지|딴|하나|둘|(?:지|하)\s*(?:마|말)|말고|않|안\s*(?:바꿔|옮겨)|"
    # (a week or a weekday said names another day than the one looked at)
    r"(?:다음|담|다다음|전|지난|이번|저번|그)\s*주(?![가-힣])|요일|욜"
)
# For how many turns what the room last showed or touched stays in view.
_IN_VIEW_TURNS = 2


def _in_view(fits: list[dict[str, Any]], focus: dict[str, Any] | None) -> dict[str, Any] | None:
    """Of several items a clause fits alike, the one among the items the room's last
    look at the schedule showed (a recent one), when it is the only one; else None (an
    item the room added or changed is no more in view than another the noun names:
    "스터디 30분 당겨줘" after adding a second study asks which)."""
    items = (focus or {}).get("items") or []
    if not items:
        return None
    latest = max(int(i.get("turn", 0)) for i in items)
    if int((focus or {}).get("turn", 0)) - latest >= _IN_VIEW_TURNS:
        return None
    shown = {i["schedule_id"] for i in items if i.get("turn") == latest and i["how"] == "listed"}
    in_view = [f for f in fits if f["schedule_id"] in shown]
    return in_view[0] if len(in_view) == 1 else None


def _narrower(
    days: list[str], times: list[str], focus: dict[str, Any] | None, now: date
) -> Callable[[str, list[dict[str, Any]]], dict[str, Any] | None]:
    """What picks one of several items a pointer fits (refers_to's `narrow`): the clause's
    own title words, day and time, the half of the day it names ("그 저녁 거"), else the
    room's last words (`talked_of`)."""
    return lambda text, pool: (
        match_schedule(pool, text, days, times)
        # (of the days said: "수요일 저녁 거" is no Tuesday evening item)
        or (
            in_half_said(text, [i for i in pool if not days or i["date"] in days])
            if not times
            else None
        )
        or talked_of(pool, focus, now)
    )


def _dial(clock: str) -> str:
    """A time as a 12-hour dial shows it ("19:00" and "07:00" -> "7:00")."""
    hour, _, minute = clock.partition(":")
    return f"{int(hour) % 12}:{minute}"


def match_schedule(
    items: list[dict[str, Any]], text: str, days: list[str], times: list[str]
) -> dict[str, Any] | None:
    """The one schedule a clause refers to; None when nothing fits or two items tie."""
    best = best_schedules(items, text, days, times)
    return best[0] if len(best) == 1 else None


def _ask_for_when(
    text: str, kind: str, clause: str, target: dict[str, Any] | None, memo: str | None
) -> AskBack:
    """The question for a day or time an operation lacks, the operation kept in the room's
    focus (`missing`) until the next turn gives it (`answers_ask_back`)."""
    pending: dict[str, Any] = {
        "kind": kind,
        "clause": clause,
        "choices": [target] if target else [],
        "missing": "when",
    }
    if memo:
        pending["memo"] = memo
    return AskBack(text, pending)


def _ask_back(
    kind: str, clause: str, choices: list[dict[str, Any]], memo: str | None = None
) -> AskBack:
    pending = {"kind": kind, "clause": clause, "choices": choices}
    if memo:
        pending["memo"] = memo  # "그거 메모에 '…' 넣어줘": the memo waits with the question
    return AskBack(ask_back_text(choices), pending)


def _moved_by(item: dict[str, Any], amount: re.Match[str], sign: int) -> datetime:
    """The item's day and time moved by an amount of hours and minutes (groups 1-3 of
    `SHIFT` and of `_OFFSET_BEFORE`: "1시간 반", "한 시간", "30분"), forward or back."""
    hours = _COUNT.get(amount.group(1) or "") or int(amount.group(1) or 0)
    minutes = int(amount.group(3) or 0) + 60 * hours + (30 if amount.group(2) else 0)
    start = datetime.fromisoformat(f"{item['date']}T{item['time']}")
    return start + sign * timedelta(minutes=minutes)


def _shifted(target: dict[str, Any], m: re.Match[str]) -> dict[str, str]:
    """A relative move ("1시간 늦춰", "30분 앞당겨", "하루 미뤄") applied to the target."""
    sign = 1 if m.group(5) else -1
    if m.group(1) or m.group(3):
        if not target.get("time"):
            return {}
        at = _moved_by(target, m, sign)
        changes = {"time": at.strftime("%H:%M")}
        if at.date().isoformat() != target["date"]:
            changes["date"] = at.date().isoformat()
        return changes
    word = re.sub(r"\s", "", m.group(4))
    days = _COUNT.get(word) or int(word[:-1]) * (7 if word.endswith("주") else 1)
    return {"date": (date.fromisoformat(target["date"]) + sign * timedelta(days=days)).isoformat()}


def _the_same_add_again(
    clause: str, found: list[Mention], items: list[dict[str, Any]], focus: dict[str, Any] | None
) -> dict[str, Any] | None:
    """ "카카오 면접 날에도 똑같이 넣어줘" after adding one: the item the room just added, again
    (its title, and its time unless one is said) on the day the clause says or the day of
    the schedule it names; None when the clause is not that."""
    if not SAME_AGAIN.search(clause):
        return None
    added = [i for i in (focus or {}).get("items") or [] if was_added(i)]
    if not added:
        return None
    last = added[0]
    days = [m.value for m in found if m.kind == "date"]
    times = [m.value for m in found if m.kind == "time"]
    day = days[0] if days else None
    if day is None:
        others = [i for i in items if i.get("schedule_id") != last.get("schedule_id")]
        named = SAME_AGAIN.split(unquoted(clause))[0]
        fits = best_schedules(others, named, [], [])
        if len(fits) == 1 and _title_words(named) & _title_words(fits[0]["title"]):
            day = fits[0]["date"]
    if day is None and DAY_POINTER.search(clause) and last.get("date"):
        # "그 전날도 같은걸로 하나더": a day counted from the item copied
        day = shifted_day(last["date"], clause)
    if day is None:
        return None
    # the item as it is now (a memo put on it after the add comes along)
    live = next((i for i in items if i.get("schedule_id") == last.get("schedule_id")), last)
    time = times[0] if times else live.get("time") or last.get("time")
    memo = live.get("memo")
    return {
        "title": last["title"],
        "date": day,
        **({"time": time} if time else {}),
        **({"memo": memo} if memo else {}),
    }


# Putting back what was removed ("방금 지운 거 다시 넣어줘", "원래대로 복구해줘").

_DONE = {"added": "추가", "changed": "변경", "deleted": "삭제"}
# What the room did to an item, said of it ("지운 거", "옮긴 것", "추가한 거"): no request
_DONE_TO = re.compile(
    r"(?:지운|삭제한|취소한|뺀|옮긴|바꾼|변경한|수정한|미룬|당긴|추가한|넣은|등록한|잡은)"
    r"\s*(?:거|것|건|꺼)"
)


def _before_change(item: dict[str, Any], focus: dict[str, Any] | None) -> dict[str, Any]:
    """The values a change the room made replaced on this item (its last change, else its
    first values in the room); {} for an add or a delete."""
    if item.get("how") != "changed":
        return {}
    last = (focus or {}).get("last_change") or {}
    each = last.get("each") or {}
    sid = item.get("schedule_id")
    before = each.get(sid) or (last.get("before") if last.get("schedule_id") == sid else None)
    return dict(before or ((focus or {}).get("original") or {}).get(sid) or {})


def undo_call(choice: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The call that undoes what the room did to a choice: an add deleted, a delete added
    back as it was, a change set back to the values it replaced."""
    if choice.get("how") == "added":
        return "delete_schedule", {"schedule_id": choice["schedule_id"]}
    if choice.get("how") == "deleted":
        args = {"title": choice["title"], "date": choice["date"]}
        return "add_schedule", {**args, **({"time": choice["time"]} if choice.get("time") else {})}
    return "update_schedule", {"schedule_id": choice["schedule_id"], **choice.get("before", {})}


# "방금 한 거 중에", "아까 했던 것들 중": of what the room did (its operations)
# (not "추가한 거 중에 하나 …": of what was added, not of the operations)
_DONE_ONES = re.compile(r"(?<![가-힣])(?:한|했던)\s*(?:것|거|건)(?:들)?\s*중")

RESTORE = re.compile(f"{UNDO.pattern}|{DELETED_ITEM.pattern}")
# "방금 지운 거": the item deleted, pointed at.
_THE_DELETED = re.compile(r"(?:지운|삭제한|취소한|뺀)\s*(?:거|것|걸|일정)")
# "지운 거 대신", "취소한 일정 대신에": another event in the place of the one deleted.
_INSTEAD_OF_GONE = re.compile(r"(?:지운|삭제한|취소한|뺀)\s*(?:거|것|걸|일정)\s*대신(?:에)?")
# "늦은 거", "이른 쪽": the later or earlier of the items a clause describes.
_LATER_ONE = re.compile(
    r"(?<![가-힣])(?:(늦은|나중\s*(?:에\s*)?있는)|(?:이른|빠른|먼저\s*있는))\s*(?:거|것|건|꺼|쪽)"
    r"(?:은|는|을|를|도|요)?(?![가-힣])|(?i:\bthe\s+(?:(later)|earlier)\s+one\b)"
)
# Being late, not the later item: "답장 늦은 거 미안", "연락 늦은 거 죄송해요".
_BEING_LATE = re.compile(r"(?:답장|연락|답|회신|답변|출근|도착|제출|말)\s*$")
_APOLOGY = re.compile(r"\s*(?:미안|죄송|ㅈㅅ|쏘리|사과|(?i:sorry))")


def _later_one(text: str) -> re.Match[str] | None:
    """ "늦은 거 1시간 당겨줘": the later (or earlier) of the items described; None when "늦은
    거" is someone being late ("답장 늦은 거 미안")."""
    found = _LATER_ONE.search(text)
    if found is None or _BEING_LATE.search(text[: found.start()]):
        return None
    return None if _APOLOGY.match(text, found.end()) else found


# The field a put-back names ("시간만 원래대로", "제목은 원래대로").
_RESTORED_FIELDS = {
    r"(?:시간|시각)(?:만|은|도)?\s*(?:다시\s*)?(?:원래|되돌|돌려|복구)": "time",
    r"(?:날짜|일자|날)(?:만|은|도)?\s*(?:다시\s*)?(?:원래|되돌|돌려|복구)": "date",
    r"(?:제목|이름)(?:만|은|도)?\s*(?:다시\s*)?(?:원래|되돌|돌려|복구)": "title",
}
# Every field back ("둘 다 원래대로", "전부 원래대로", "다 되돌려").
_BOTH_FIELDS = re.compile(
    r"(?:둘\s*다|전부|모두|다)\s*(?:원래|되돌|돌려|복구)|(?i:\bboth\b|\beverything\b)"
)

# What may stand between an item the clause names and its day word ("네이버 면접 끝나고 같은 날").
_AFTER_ITEM = re.compile(r"\s(?:끝나고|마치고|끝난\s*(?:뒤|후)에?|(?:본\s*)?(?:뒤|후)에?|하고)\s*$")


# "<something> 날": the day of what it names ("그 코테 날 오후 3시에", "네이버 면접 날에").
DAY_OF = re.compile(
    r"(?<=[가-힣A-Za-z0-9])\s+날(?:에|엔)?(?=\s|$)|"
    # glued to the step it is the day of: "마감날", "면접날", "발표날"
    r"(?<=마감|발표|면접|시험|코테|접수|입사|출근|결과)날(?:에|엔)?(?=\s|$)"
)


# An event placed beside one of the user's items by what happens around it, on the item's
# day: "스터디 끝나고 밤 10시에", "면접 마치고 저녁 7시", "면접 보고 나서", "면접 전에 오전 10시"
AROUND_ITEM = re.compile(
    r"(?<=\S)\s*(?:(?P<after>끝나고|마치고|(?:끝난|마친|본)\s*(?:뒤|후|다음)에?|(?:보고|하고|끝내고)\s*나서"
    r"|직후에?|(?:뒤|후)에)|(?:가기|보기|하기)?\s*전에|직전에?)(?=[\s,]|$)"
)


# How long before or after the item the event is: "1시간 전에", "30분 뒤에" (its clock time)
_OFFSET_BEFORE = re.compile(
    r"(?:(\d{1,2}|한|두|세)\s*시간(\s*반)?|(\d{1,3})\s*분)\s*(?:정도|쯤)?\s*$"
)


@dataclass(frozen=True)
class Around:
    """The one item a clause places its event around, and where the clause says so."""

    item: dict[str, Any]
    said: re.Match[str]
    time: str | None  # the event's clock time counted from the item's ("1시간 전에")


def around_item(
    clause: str, items: list[dict[str, Any]], focus: dict[str, Any] | None
) -> Around | None:
    """The item a clause places its event around ("코딩 스터디 끝나고 밤 10시에 …", "그거
    끝나고 …", "네이버 면접 1시간 전에 알람"); None when it names none or several."""
    own = unquoted(clause)
    said = AROUND_ITEM.search(own)
    if said is None:
        return None
    # "면접 끝나고 2시간 뒤에 회고": the last word of it ends what is said of the item
    said = list(AROUND_ITEM.finditer(own, said.start()))[-1]
    offset = _OFFSET_BEFORE.search(own[: said.start()])
    named = " ".join(own[: offset.start() if offset else said.start()].split()[-3:])
    fits = [
        i
        for i in best_schedules(items, named, [], [])
        if _title_words(named) & _title_words(i["title"])
    ]
    if len(fits) != 1 and points_back(named):
        pointed = refers_to(named, focus, items).item
        fits = [pointed] if pointed is not None else []
    if len(fits) != 1 or not fits[0].get("date"):
        return None
    item, at = fits[0], None
    if offset is not None and item.get("time") and not AROUND_ITEM.search(named):
        moved = _moved_by(item, offset, -1 if "전" in said.group(0) else 1)
        at = moved.strftime("%H:%M") if moved.date().isoformat() == item["date"] else None
    return Around(item, said, at)


# A day or a week said by what the user has then ("모의고사 있는 주", "네이버 면접 잡힌 날",
# "스터디 하는 주에").
HOLDING = re.compile(
    r"((?:\S+\s+){0,2}?\S+?)\s*(?:있는|잡힌|잡혀\s*있는|하는|보는)\s*"
    r"(주|날)(?:에|엔|에는|은|는|도|에도|의)?(?![가-힣])"
)


# What counts a day from the item's, said after it ("전날", "다음날", "전까지", "이후", "말고",
# "주말").
_COUNTED_ON = re.compile(r"\s*(?:전|다음|담|이후|후|말고|주말|까지|부터|빼고|제외)")


def _item_period(
    clause: str, items: list[dict[str, Any]], found: list[Mention]
) -> tuple[str, str] | None:
    """The week (Monday to Sunday) or the day of the one item the words before "있는 주/날"
    name by its title; None when they name none or several, or when the clause says a day
    of its own ("다음 주 면접 있는 날")."""
    held = HOLDING.search(unquoted(clause))
    if held is None or any(
        m.kind == "date" and not held.start(2) <= m.span[0] < held.end() for m in found
    ):
        return None
    if _COUNTED_ON.match(clause, held.end()):
        return None  # "네이버 면접 있는 날 전날", "… 있는 주 말고 그 다음 주": counted from it
    named = held.group(1)
    said = _title_words(named) - _NO_NAME
    # (every word of the phrase: "카카오 서류 마감 있는 주" is no week of 카카오 면접)
    fits = [
        i
        for i in best_schedules(items, named, [], [])
        if said and said <= _matched_words(i["title"])
    ]
    if len(fits) != 1:
        return None
    day = date.fromisoformat(fits[0]["date"])
    if held.group(2) == "날":
        return day.isoformat(), day.isoformat()
    first = day - timedelta(days=day.weekday())
    return first.isoformat(), (first + timedelta(days=6)).isoformat()


def _named_anchor(
    clause: str, items: list[dict[str, Any]], focus: dict[str, Any] | None, now: date
) -> str | None:
    """The day a clause counts from something it names before 전날/다음 날/하루 전/날: one of the
    user's schedules ("네이버 면접 전날"), else a stage of the posting in focus ("마감 하루
    전"), shifted as it says; None when it names none (or several fit)."""
    shift = DAY_SHIFT.search(clause) or SAME_DAY.search(clause) or DAY_OF.search(clause)
    if shift is None or shift.group(0).startswith("그"):
        return None  # "그날", "그 날짜로": the room's day, not a day of what comes before it
    # "네이버 면접 끝나고 같은 날": what was done with the item is not part of its name
    # (a title the user quoted names the new event, not what it is counted from: "add 'kakao
    # apply' the day before")
    named = " ".join(_AFTER_ITEM.sub(" ", unquoted(clause[: shift.start()])).split()[-3:])
    if not named:
        return None
    # ("금요일 면접 전날": the day said narrows which item)
    said = mentions(named, now)
    said_days = [m.value for m in said if m.kind == "date"]
    fits = best_schedules(items, named, said_days, [])
    if said_days and not (len(fits) == 1 and fits[0]["date"] in said_days):
        return None  # "12월 2일 네이버 면접 전날까지": the day said is the event's own
    if len(fits) > 1 and AMONG_THOSE.search(clause):
        # "아까 보여준거 중에 면접 전날": of the items the listing showed
        shown = {i["schedule_id"] for i in (focus or {}).get("listed") or []}
        fits = [f for f in fits if f["schedule_id"] in shown] or fits
    if len(fits) == 1 and _title_words(named) & _title_words(fits[0]["title"]):
        return shifted_day(fits[0]["date"], clause)
    undated = _title_words(_blank(named, [m.span for m in said]))
    if len(fits) == 1 and said_days and all(POINTER.match(w) or w == "일정" for w in undated):
        return shifted_day(fits[0]["date"], clause)  # "금요일 거 전날에": that day's item
    if len(fits) > 1 and points_back(named):
        # "그 면접 전날" after a listing of one interview: the one the room is on
        pointed = refers_to(named, focus, items).item
        if pointed is not None and pointed.get("date"):
            return shifted_day(pointed["date"], clause)
    talked = talked_of(fits, focus, now)
    if talked is not None and talked.get("date"):
        # "금요일 네이버 면접 때문에 떨려요" then "면접 전날 밤 10시에 …": the one just spoken of
        return shifted_day(talked["date"], clause)
    staged = posting_stage(named, focus)
    if staged is None:
        return None
    if staged.get("start_date") and _PERIOD_START.search(named):
        # "접수 시작하는 날": the period's first day, not its last
        return shifted_day(staged["start_date"], clause)
    return shifted_day(staged["date"], clause)


# The weekday after the item's day: "the following Monday", "그 다음 월요일로" (not "다음 주").
_FOLLOWING_WEEKDAY = re.compile(
    r"그\s*(?:다음|담)\s*([월화수목금토일])(?:요일|욜)(?:으로|로)"
    r"|(?i:\bthe\s+following\s+(mon|tues|wednes|thurs|fri|satur|sun)day\b)"
)
# The item's own day as what a count starts from ("원래보다", "원래 날짜에서", "기존 일정 기준").
_FROM_ITS_OWN = re.compile(r"(?:원래|기존)\s*(?:날짜|일정|날)?\s*(?:보다|에서|기준(?:으로)?)")
# The end of a reason or purpose said before a request ("…집중하려고", "…붙어서", "…니까"):
# the request's own words come after the last one.
# Where a sentence ends inside a message: a stop, or a statement's ending after a syllable
# ("…괜찮겠다ㅎ ", "…있네요 "; not "스터디 다 지워줘", whose 다 is a word)
_SENTENCE_END = re.compile(r"[.!?]+\s*|(?<=[가-힣][다요죠네])[ㅎㅋㅠ~]*\s+")


def sentences_of(text: str) -> list[str]:
    """The sentences of a message, by their stops or a statement's ending ("없네요. 그럼
    12월은요?", "…괜찮겠다ㅎ 과제 제출은 …")."""
    return [p for p in _SENTENCE_END.split(text) if p.strip()]


def _request_sentence(text: str) -> str | None:
    """The sentence of a message that asks for the operation, when sentences before it only
    remark (no operation verb in them); None for a message of one sentence."""
    sentences = sentences_of(text)
    if len(sentences) < 2:
        return None
    asking = [p for p in sentences if SCHEDULE_VERB.search(p)]
    if len(asking) != 1 or asking[0] is sentences[0]:
        return None
    return asking[0]


_REASON_END = re.compile(r"(?:려고|니까|어서|아서|해서|돼서|때문에|[는은인]데)(?=\s)")
# A step's day said after it ("최종 합격 발표 날"): the step names the event, not its day.
_STEP_DAY = re.compile(r"(?:발표|마감|면접|시험|코테|접수|입사|결과)\s*날$")


# "다른 일정", "다른 거": another item than the one in view
_ANOTHER_ONE = re.compile(r"(?<![가-힣])다른\s*(?:일정|거|것|건|꺼|약속|스케줄)")
# Words for the item just added, or for sparing the other one
_THIS_ONE_OR_SPARED = re.compile(
    r"(?<![가-힣])이(?:건|거|것|걸)|방금|아까|넣은|추가한|그대로|놔두|두고|괜찮|말고|때문|중요"
)


def _marked(
    item: dict[str, Any], text: str, particles: str = "은|는|을|를"
) -> re.Match[str] | None:
    """Where the text marks the item (a word of its title) with one of the particles: as its
    topic or object ("과제 제출은", "스터디를"), or only as its object (`particles="을|를"`)."""
    words = "|".join(re.escape(w) for w in _title_words(item["title"]))
    return re.search(rf"(?:{words})(?:{particles})(?![가-힣])", text) if words else None


def _the_object(fits: list[dict[str, Any]], text: str) -> list[dict[str, Any]]:
    """Of several items a clause fits, the one its words mark as the object ("스터디랑
    겹치네 학원을 두 시간 뒤로"), when no other is named after it and no verb comes between
    it and the end ("코딩 스터디를 빠지게 됐어 카카오 면접 …", "스터디를 면접 다음날로": not
    the study); all of them otherwise."""
    marked = []
    for f in fits:
        found = _marked(f, text, "을|를")
        if found is not None:
            marked.append((f, found.end()))
    if len(marked) != 1:
        return fits
    item, end = marked[0]
    after = text[end:]
    others = [f for f in fits if f is not item]
    if any(_title_words(after) & _title_words(f["title"]) for f in others):
        return fits
    if any(t.tag in ("VV", "VA") and t.form != "말" for t in analysed(after)):
        return fits  # ("그 시간 말고 두 시간 뒤로": 말고 sets a value aside, no verb of its own)
    return [item]


def _moved_beside(
    clause: str, items: list[dict[str, Any]], focus: dict[str, Any] | None
) -> dict[str, Any] | None:
    """In "<item A> 전날로 <item B> 옮겨줘" (or "<B> <A> 다음날로 옮겨줘"), B: the one item
    the rest of the clause names when the words before a day counted as the new value
    (전날로, 다음날로, 이틀 전으로) name one other; None otherwise."""
    shift = DAY_SHIFT.search(clause)
    if shift is None or shift.group(0).startswith("그"):
        return None
    if not re.match(r"\s*(?:으로|로)(?![가-힣])", clause[shift.end() :]):
        return None
    before = clause[: shift.start()].split()
    for size in (1, 2, 3):
        named = " ".join(before[-size:])
        counted = [i for i in best_schedules(items, named, [], []) if len(before) >= size]
        if len(counted) != 1 or not _title_words(named) & _title_words(counted[0]["title"]):
            continue
        # (what comes after the verb is said beside the request: "… 옮겨줘 스터디랑 겹치지
        # 않게" names no item to move)
        verb = SCHEDULE_VERB.search(clause, shift.end())
        rest = " ".join(before[:-size]) + " " + clause[shift.end() : verb.start() if verb else None]
        others = [i for i in items if i is not counted[0]]
        moved = best_schedules(others, rest, [], [])
        if len(moved) == 1 and _title_words(rest) & _title_words(moved[0]["title"]):
            return moved[0]
        if not moved and points_back(rest):
            # "아 그거 카카오 면접 하루 전으로 해줘": the item the room is on
            pointed = refers_to(rest, focus, others).item
            return pointed if pointed is not None and pointed in others else None
        return None
    return None


# The start of a period named ("접수 시작하는 날", "지원 첫날", "when applications open").
_PERIOD_START = re.compile(r"시작|첫\s*날|오픈|열리|(?i:\bopens?\b|\bstarts?\b)")


@dataclass(frozen=True)
class AskBack:
    """A pointer that fits several schedules: the question, and the operation kept in the
    room's focus until the next turn picks one of the choices."""

    text: str
    pending: dict[str, Any]


# "오후 거는", "목요일 꺼", "10일 건": the one a word before 거 describes.
_ONE_DESCRIBED = re.compile(
    # (not 그거/이거/저거 or the determiner: "그 저녁 거" is 저녁 거)
    r"(?<![가-힣])(?!(?:그|이|저)\s*(?:거|꺼|건|것)|(?:그|이|저)\s|요|뭐|아무|다른|딴)"
    r"(\S{1,6}?)\s*(?:거|꺼|건|것)"
    r"(?:는|은|을|를|도|만)?(?![가-힣])"
)


# "X(으)로 고쳐줘": the words before the new value's particle and a verb of correcting.
_CORRECTED_TO = re.compile(r"(\S+?)(?:으로|로)\s*(?:고쳐|고치|수정|정정|바꿔|바꾸)")


def _respelled(
    clause: str, item: dict[str, Any] | None, items: list[dict[str, Any]], now: date
) -> tuple[dict[str, Any], str] | None:
    """The item the last turn touched and its title spelled again, when the clause says
    nothing but a near spelling of that title as the new value ("네이버웹툰 면접으로 고쳐줘"
    after "네이봐웹툰 면접": a typo fixed); None otherwise: another item's title or words
    ("네이버 1차 면접으로"), a day or a time said, a word of when ("네이버 면접 날로", "…
    뒤로"), a title far from it."""
    found = _CORRECTED_TO.search(clause)
    if item is None or found is None or mentions(clause, now) or DAY_POINTER.search(clause):
        return None
    size = len(item["title"].split())
    words = clause[: found.end(1)].split()
    if len(words) < size:
        return None
    title = " ".join(words[-size:])
    old, new = squash(item["title"]), squash(title)
    if old == new or SequenceMatcher(None, old, new).ratio() < 0.75:
        return None
    if len(words[-1]) < 2 or words[-1] in _WHEN_NOUNS:
        return None  # "네이버 면접 날로", "카카오 면접 때로": a word of when, not a name
    others = [i for i in items if i["schedule_id"] != item["schedule_id"]]
    said = set(title.split())
    if any(squash(i["title"]) == new or said <= set(i["title"].split()) for i in others):
        return None  # another item's name: which one is meant is asked, not renamed
    return item, title


# Words of any request or notice line, which tell no line apart.
_LINE_WORDS = frozenset(
    {"일정", "스케줄", "등록", "추가", "시간", "날짜", "일시", "날", "포함", "따로", "메모"}
    | {"제목", "이름"}
    # (the notice itself as the user calls it: "아래 메일 일정 등록해주세요")
    | {"메일", "이메일", "문자", "공지", "안내", "내용", "메시지"}
)


def notice_line(
    clause: str, focus: dict[str, Any] | None, now: date, title: str = ""
) -> tuple[str, str | None] | None:
    """The day and time of the dated line of the notice the room keeps (`focus.notice`)
    that the clause names by its words ("공개일도 넣자 크래프톤 과제 공개" -> "- 과제 공개:
    2026-12-02 (수) 10:00"); None when no line, or several alike, share its words, or when
    the event's `title` is mostly words the notice does not say (an event of the user's
    own: "시험 끝나고 친구랑 저녁 약속", "시험 준비 스터디 모임")."""
    notice = (focus or {}).get("notice") or {}
    said = set(content_words(clause)) - _LINE_WORDS
    lines = [(line, set(content_words(line))) for line in notice.get("lines") or []]
    named = set(content_words(title)) - _LINE_WORDS
    told = set().union(*(words for _, words in lines)) if lines else set()
    if named and len(named & told) / len(named) < 0.6:
        return None
    # a word in fewer of the notice's lines tells more ("마감" over "과제" in a notice whose
    # head, body and one dated line all say 과제)
    spread = {w: sum(w in words for _, words in lines) for w in said}
    read = [(line, words, mentions(line, now)) for line, words in lines]
    # the notice's own event day: its first dated line ("[일시] 2026.12.11 (금) 14:00")
    event_day = next((m.value for _, _, found in read for m in found if m.kind == "date"), None)
    scored: list[tuple[float, str, str | None]] = []
    for line, words, found in read:
        days = [m.value for m in found if m.kind == "date"]
        shift = DAY_SHIFT.search(line)
        if not days and event_day and shift is not None and shift.group(8) is None:
            # "[제출] 면접 전날 18시까지": a day counted from the notice's event (what it is
            # counted from, "면접", is not what the line is about)
            days = [shifted_day(event_day, line)]
            words = words - set(content_words(" ".join(line[: shift.start()].split()[-1:])))
        shared = sum(1 / spread[w] for w in said & words)
        if days and shared:
            times = [m for m in found if m.kind == "time"]
            scored.append((shared, days[0], times[0].value if times else None))
    if not scored:
        return None
    best = max(shared for shared, _, _ in scored)
    top = [(day, time) for shared, day, time in scored if shared == best]
    return top[0] if len(top) == 1 else None


def schedule_call(
    clause: str,
    kind: str,
    now: date,
    items: list[dict[str, Any]],
    context: Context,
    memo: str | None = None,
    focus: dict[str, Any] | None = None,
    chosen: dict[str, Any] | None = None,
) -> tuple[str, dict[str, Any], dict[str, Any] | None] | AskBack | str:
    """One schedule operation as (tool name, arguments, the item it acts on), what to ask
    back when a pointer fits several items, or what to say when it cannot be done (no date
    for an add, no item found, nothing to change). An item named by its title wins; a
    clause that only points ("방금 추가한 거", "그 일정") resolves in the room's `focus`;
    `chosen` is the item the user picked after an ask-back."""
    if kind in ("update_schedule", "delete_schedule"):
        clause = with_company(clause, focus)  # "그회사 면접": the posting's company's
        excluded = _EXCEPT.search(clause)
        other_than = OTHER_THAN.search(clause) if excluded is None else None
        if other_than is not None and not mentions(other_than.group(1), now):
            # "면접 말고 스터디 그거 지워줘": the one named after it, when the words together
            # fit several and, without the ones before 말고, one
            left = [i for i in items if i not in _named_by(other_than.group(1), items, now)]
            after = clause[other_than.end() :]
            if (
                len(best_schedules(items, unquoted(clause), [], [])) > 1
                and len(best_schedules(left, after, [], [])) == 1
            ):
                excluded = other_than
        not_these = _named_by(excluded.group(1), items, now) if excluded else []
        if excluded is not None and not_these:
            # "면접 말고 그 다른 거": not the items the words name
            items = [i for i in items if i not in not_these] or items
            clause = f"{clause[: excluded.start()]} {clause[excluded.end() :]}"
        items, clause = _without_left_alone(clause, items, now)
    if kind != "get_schedule" and ORIGINAL.search(clause):
        # "원래 있던 면접은 …" after adding another: one the room did not add
        added = {i["schedule_id"] for i in (focus or {}).get("items") or [] if was_added(i)}
        items = [i for i in items if i["schedule_id"] not in added] or items
    if kind == "update_schedule" and chosen is None:
        # "네이버 면접 전날로 스터디 옮겨줄래?": the item moved, beside the one its day is
        # counted from (which _named_anchor reads below)
        chosen = _moved_beside(clause, items, focus)
    rename = RENAME.search(clause)
    if (
        rename is None
        and kind == "update_schedule"
        and chosen is None
        and just_touched(focus or {})
    ):
        respelled = _respelled(clause, last_item(focus, items), items, now)
        if respelled is not None:
            # "앗 오타ㅋㅋ 네이버웹툰 면접으로 고쳐줘" right after adding "네이봐웹툰 면접"
            item, title = respelled
            return "update_schedule", {"schedule_id": item["schedule_id"], "title": title}, item
    # "배민 말고 배달의민족으로 이름 바꿔줘": one word of the title for another
    swap = None if rename or kind != "update_schedule" else _SWAP.search(clause)
    shift, shift_span = shift_in(clause)
    renamed_span = rename.span() if rename else None
    if rename is not None and rename.group(2):
        # "rename 카카오 면접 to …": the item named is the target, the new name from "to" on
        renamed_span = (rename.start(2) - 3, rename.end())
    cut = [span for span in (renamed_span, swap.span(2) if swap else None, shift_span) if span]
    # (the words of now of a clause telling how the user learned it are no value: "오늘 저녁에
    # 알았는데 …"; "목요일로 바뀌었다고 들었는데" keeps Thursday)
    learned = [m.span() for m in LEARNED_CLAUSE.finditer(clause)]
    found = [
        m
        for m in mentions(_blank(clause, cut).replace("\n", " "), now)
        if not (
            any(a <= m.span[0] < b for a, b in learned)
            and NOWISH.fullmatch(clause[m.span[0] : m.span[1]])
        )
    ]
    if DAY_POINTER.search(clause):
        # "방금 추가한 날짜가 금요일 맞는지 그날 일정 조회로 확인", "헐 목욜이네 ㅋㅋ 그 전날 밤
        # 10시에 …": a day checked or remarked on is no day of the request; the room's is
        found = [
            m
            for m in found
            if not (
                m.kind == "date"
                and (
                    (
                        # (a date said in full is the day to look at: "카카오 면접 12월 10일
                        # 맞는지 그날 일정 봐줘")
                        kind == "get_schedule"
                        and _CHECKED.match(clause, m.span[1])
                        and _BARE_WEEKDAY.fullmatch(clause[m.span[0] : m.span[1]].strip())
                    )
                    or _REMARKED.match(clause, m.span[1])
                )
            )
        ]
    # ("그 달 일정", only of a look: "그 달 말에 토스 면접 넣어줘" names no day)
    period_asked = kind == "get_schedule" and THAT_MONTH.search(clause) is not None
    # ("what else is on my calendar that whole week": a look at the room's week only)
    period_asked = period_asked or (
        kind == "get_schedule" and _WHOLE_WEEK.search(clause) is not None
    )
    anchor = focus_day(focus) if DAY_POINTER.search(clause) or period_asked else None
    period = (focus or {}).get("listed_range")
    # the week the room was about: the day in focus, else the period just looked at
    week_of = (
        date.fromisoformat(anchor[0])
        if anchor
        else date.fromisoformat(period["start"])
        if period and DAY_POINTER.search(clause)
        else None
    )
    in_that_week = _in_week_of(clause, found, week_of) if week_of else []
    if (
        kind == "update_schedule"
        and chosen is not None
        and any(INSTEAD_OF.search(clause[: m.span[0]][-12:]) for m in found if m.kind == "date")
    ):
        # "목요일 말고 금요일이요" of an item on Thursday the 10th: the Friday of its week
        _in_items_week(clause, found, date.fromisoformat(chosen["date"]))
    listed = (focus or {}).get("listed") or []
    if kind in ("update_schedule", "delete_schedule"):
        _on_listed_weekday(clause, found, listed, items)
    month_of = focus_day(focus) or ((period["start"], None) if period else None)
    if month_of:
        _in_month_of(clause, found, date.fromisoformat(month_of[0]))
    if anchor and DAY_SHIFT.search(clause):
        # "그 전날 토요일에": the weekday says again the day counted from the room's day
        counted = date.fromisoformat(shifted_day(anchor[0], clause))
        for m in found:
            said = clause[m.span[0] : m.span[1]]
            if (
                m.kind == "date"
                and _BARE_WEEKDAY.fullmatch(said.strip())
                and date.fromisoformat(m.value).weekday() == counted.weekday()
            ):
                m.value = counted.isoformat()
    told_period = period_told(clause, focus) if kind == "get_schedule" else None
    if told_period is not None and not any(m.kind == "date" for m in found):
        # "그 기간에 내 일정 다 보여줘" after "카카오 접수기간 언제부터 언제까지": that period
        first_day, last_day = told_period
        return "get_schedule", {"start_date": first_day, "end_date": last_day}, None
    item_days = _item_period(clause, items, found) if kind == "get_schedule" else None
    if item_days is not None:
        # "그 모의고사 있는 주 일정 전체 보여줘", "네이버 면접 있는 날 뭐 또 있어?": the week (or
        # the day) of the item the clause names
        return "get_schedule", {"start_date": item_days[0], "end_date": item_days[1]}, None
    if kind == "get_schedule" and anchor and not any(m.kind == "date" for m in found):
        # "그날 일정 보여줘", "그 주 일정": the day (or week) the room was just about
        anchor_day = date.fromisoformat(shifted_day(anchor[0], clause))
        first = last = anchor_day
        if THAT_WEEK.search(clause):
            first = anchor_day - timedelta(days=anchor_day.weekday())
            last = first + timedelta(days=6)
        elif THAT_MONTH.search(clause):  # "그 달 일정 보여줘": the month of the room's day
            first = anchor_day.replace(day=1)
            last = (first + timedelta(days=32)).replace(day=1) - timedelta(days=1)
        return "get_schedule", {"start_date": first.isoformat(), "end_date": last.isoformat()}, None
    if kind == "get_schedule" and in_that_week:
        # "그주 금요일에 나 뭐있지": that day of the week the room was about
        return "get_schedule", {"start_date": in_that_week[0], "end_date": in_that_week[0]}, None
    if (
        kind == "get_schedule"
        and period
        and _WEEK_AFTER.search(clause)
        and not any(m.kind == "date" for m in found if not _WEEK_AFTER.match(clause, m.span[0]))
    ):
        # "담주 일정" then "그 담주는": the week after the one looked at
        first = date.fromisoformat(period["start"]) + timedelta(days=7)
        last = date.fromisoformat(period["end"]) + timedelta(days=7)
        return "get_schedule", {"start_date": first.isoformat(), "end_date": last.isoformat()}, None
    counted_day = _named_anchor(clause, items, focus, now) if kind == "get_schedule" else None
    if counted_day is not None and not any(m.kind == "date" for m in found):
        # "카카오 면접 다음날 일정 비었어?", "네이버 면접 전날까지 뭐 있어": a day counted from
        # an item (or a posting's stage) the clause names
        counted_on = date.fromisoformat(counted_day)
        start = now if UNTIL.search(clause) and now <= counted_on else counted_on
        return "get_schedule", {"start_date": start.isoformat(), "end_date": counted_day}, None
    if kind == "get_schedule":
        start, end = date_range(clause, now)
        args = {"start_date": start.isoformat(), **({"end_date": end.isoformat()} if end else {})}
        return "get_schedule", args, None
    days = [m.value for m in found if m.kind == "date"]
    times = [m.value for m in found if m.kind == "time"]
    position = ordinal_position(unquoted(clause)) if kind == "add_schedule" and memo else None
    if position is not None and not chosen and _ORDINAL_ITEM.search(unquoted(clause)):
        # "아까 금요일 목록에서 첫 번째 거 메모에 '정장' 적어줘": a memo for the item at that
        # position of what the room showed, not a new event
        pointed = refers_to(unquoted(clause), focus, items).item
        if pointed is not None:
            return "update_schedule", {"schedule_id": pointed["schedule_id"], "memo": memo}, pointed
    if kind == "add_schedule" and items and memo and days and not chosen:
        # "금요일 면접 메모에 '신분증 지참' 추가": the day names the item the memo is for
        # (one of that day sharing a word of its title), not a new event on that day
        def on(some: list[str]) -> list[dict[str, Any]]:
            return [
                i for i in best_schedules(items, unquoted(clause), some, times) if i["date"] in some
            ]

        on_day = on(days)
        if not on_day and listed:
            # "목요일에 있는 거 메모에 …" right after a listing: the listed item on that weekday
            moved = [replace(m) for m in found]
            _on_listed_weekday(clause, moved, listed, items)
            on_day = on([m.value for m in moved if m.kind == "date"])
        # every word naming the event is in the item's title ("토스 면접" is another event)
        rest = memo_of(clause)[1]
        said = title_of(rest, [m.span for m in mentions(rest, now)]) or ""
        # ("목요일 거에 장소 메모": what the memo is about names no event)
        words = _title_words(said) - {"메모", "일정", "스케줄"} - _MEMO_TOPICS
        # "금요일 일정 메모에 '…'", "목요일에 있는 거 메모에 '…'": no event named, the day's item
        # ("거기 목요일 거에 장소 메모": the thing of that day, the memo's topic)
        any_item = not said or (
            not words
            and re.search(r"일정|스케줄|(?<![가-힣])(?:거|것|건|꺼)(?![가-힣]{2})", unquoted(rest))
            is not None
        )
        if len(on_day) == 1 and (any_item or (words and words <= _title_words(on_day[0]["title"]))):
            picked = on_day[0]
            return "update_schedule", {"schedule_id": picked["schedule_id"], "memo": memo}, picked
    # the title the clause says (read once; only an add has one)
    # (a day counted from another, "그 일주일 전", "그 다음날", is no part of the name)
    said_title = (
        (title_of(clause, [m.span for m in found] + _day_shifts(clause)) or "")
        if kind == "add_schedule"
        else ""
    )
    title_named = _title_words(said_title) - {"메모"}
    # "그 마감날 오후5시에 카카오 서류 최종제출 넣어줘 메모엔 …": an event of its own on the
    # day the room was about (no item's title holds all its words), with its memo
    own_event = (
        chosen is None
        and bool(title_named)
        and ordinal_position(clause) is None
        and not any(
            title_named <= _title_words(i["title"]) or squash(i["title"]) in squash(said_title)
            for i in items
        )
        and _names_an_event(said_title)
    )
    if kind == "add_schedule" and items and memo and not days and not own_event:
        # "카카오 면접 메모에 '…' 추가해줘": a memo for an item the user has; "메모에 '…'
        # 넣어줘" right after adding one: that item; two that fit: ask which.
        fits = [chosen] if chosen else best_schedules(items, unquoted(clause), [], times)
        if not fits and (points_back(clause) or not said_title):
            single = last_item(focus, items)
            if single is None:
                # "두번째꺼 메모에 …" after a listing: the item the pointer names
                resolved = refers_to(clause, focus, items)
                fits = [resolved.item] if resolved.item is not None else resolved.choices
            else:
                fits = [single]
        elif len(fits) > 1 and chosen is None and points_back(clause):
            # "그 면접 메모에 …" with three interviews: the one the room is talking about
            resolved = refers_to(unquoted(clause), focus, items, _narrower([], times, focus, now))
            fits = [resolved.item] if resolved.item is not None else resolved.choices or fits
        if len(fits) == 1:
            picked = fits[0]
            return "update_schedule", {"schedule_id": picked["schedule_id"], "memo": memo}, picked
        if len(fits) > 1:
            # which item the memo goes into: asked as the change it is, the memo kept
            return _ask_back("update_schedule", clause, fits, memo)
    focus_items = (focus or {}).get("items") or []
    just_deleted = bool(focus_items) and focus_items[0].get("how") == "deleted"
    deleted = [i for i in focus_items if i.get("how") == "deleted"]
    # "아 카카오건 원래대로 살려놔" after changing one item and deleting another: the deleted
    # one the clause names
    named_deleted = [i for i in deleted if _title_words(clause) & _title_words(i["title"])]
    done = [i for i in focus_items if i.get("how") in _DONE][:2]
    undone = RESTORE.search(clause) or _DONE_ONES.search(clause)
    if undone and ONE_OF_THEM.search(clause) and len(done) == 2 and not DECLINED.search(clause):
        # "방금 한 것 중에 하나 되돌려" after a delete and a move: which one, not a guess
        # (the reply, "1번", "카카오 면접 지운 거", undoes it: tool_routes.undo_call)
        listed = "\n".join(
            f"{n}. {i['title']} {_DONE[i['how']]}" for n, i in enumerate(done, start=1)
        )
        choices = [{**i, "before": _before_change(i, focus)} for i in done]
        return AskBack(
            f"어느 쪽을 되돌릴까요?\n{listed}",
            {"kind": "undo", "clause": clause, "choices": choices},
        )
    if (
        kind in ("add_schedule", "update_schedule")
        and RESTORE.search(clause)
        and (points_back(clause) or just_deleted or named_deleted)
        # "토익 시험 12월 20일 오전 9시로 다시 등록해줘" right after a delete: a new item
        # (but "방금 지운 거 다시 살려줘 근데 시간은 오후 4시로": that one, with the value)
        and (
            named_deleted
            or not found
            or (
                kind == "add_schedule"
                and just_deleted
                and _THE_DELETED.search(clause)
                and (all(m.new for m in found) or _INSTEAD_OF_GONE.search(clause))
            )
        )
    ):
        # "방금 지운 거 원래대로 다시 넣어줘", "원래대로 돌려줘" right after a delete: the item
        # the room deleted, as it was
        # ("방금 지운 거" right after a delete: that one, whatever the room deleted before)
        latest = [focus_items[0]] if just_deleted and re.search(r"방금|조금\s*전", clause) else []
        deleted = named_deleted or latest or deleted
        if (
            len(deleted) == 1
            and deleted[0].get("date")
            and (kind == "add_schedule" or just_deleted or named_deleted)
        ):
            gone = deleted[0]
            args = {"title": gone["title"], "date": gone["date"]}
            args |= {"time": gone["time"]} if gone.get("time") else {}
            # "공고 날짜로 다시 넣어줘 시간도 공고대로": put back on the posting's day for it
            stage = (
                posting_stage(clause, focus) or posting_stage(gone["title"], focus)
                if AS_POSTED.search(clause)
                else None
            )
            if stage is not None:
                args = {"title": gone["title"], "date": stage["date"]}
                args |= {"time": stage["time"]} if stage.get("time") else {}
            in_place = _INSTEAD_OF_GONE.search(clause)
            for m in found if not named_deleted or in_place else []:
                # (the value said with it: "근데 시간은 오후 4시로"; a bare hour in the half
                # of the day nearest the item's: "8시로" of a 19:00 study is 20:00)
                bare = m.kind == "time" and gone.get("time") and not _part_of_day_near(clause, m)
                args[m.kind] = _nearest_half(m.value, gone["time"]) if bare else m.value
            if in_place is not None:
                # "방금 지운 거 대신 그 시간에 면접 리허설 넣어 주세요": another event in its
                # place (its day and time)
                tail = clause[in_place.end() :]
                other = title_of(tail, [m.span for m in mentions(tail, now)])
                if other and not POINTER.match(other) and _names_an_event(other):
                    args["title"] = other
            return "add_schedule", {**args, **({"memo": memo} if memo else {})}, None
    repeated = _the_same_add_again(clause, found, items, focus)
    if kind == "add_schedule" and repeated is not None:
        return "add_schedule", {**repeated, **({"memo": memo} if memo else {})}, None
    if kind == "add_schedule":
        days = [m.value for m in found if m.kind == "date"]
        times = [m.value for m in found if m.kind == "time"]
        # "거기 최종 합격 발표 날": the company of the posting the room is on
        title = " ".join(with_company(said_title, focus).split())
        title = re.sub(r"(?<=[가-힣])\s*날$", "", title) if _STEP_DAY.search(title) else title
        if IF_FREE.search(clause) and context.listed:
            return f"그날은 이미 일정이 있어서 '{title}' 일정은 추가하지 않았어요."
        # The day said with the request itself ("내일 면접인데 떨려서… 오늘 저녁 8시에 … 잡아줘"):
        # the last one before the verb, else the first.
        verb = ADD_REQUEST.search(unquoted(clause))
        before = [m.value for m in found if m.kind == "date" and verb and m.span[0] < verb.start()]
        shift_word = DAY_SHIFT.search(clause)
        # "금요일 네이버 면접 전날 저녁 8시로": the day said describes the item counted from
        # ("카카오 면접 D-3에": the countdown read from today is the item's, when it names one)
        of_item = shift_word is not None and all(
            m.span[1] <= shift_word.start()
            or (m.span[0] >= shift_word.start() and bool(shift_word.group(8)))
            for m in found
            if m.kind == "date"
        )
        named_day = (
            None
            if (days and not of_item) or context.day
            else _named_anchor(clause, items, focus, now)
        )
        around = (
            around_item(clause, items, focus)
            if named_day is None and not days and context.day is None
            else None
        )
        if around is not None:
            # "코딩 스터디 끝나고 밤 10시에 이력서 출력", "네이버 면접 1시간 전에 알람": the event
            # is named after what places it; on the item's day at the time said or counted
            # from the item's (before the item, only with a time: "면접 전에 헤어샵 예약" may
            # be any day before)
            tail = unquoted(clause)[around.said.end() :]
            after = title_of(tail, [m.span for m in mentions(tail, now)])
            if not QUOTED.search(clause) and _names_an_event(after):
                title = " ".join(with_company(after, focus).split())
            if times or around.time or around.said.group("after"):
                named_day = around.item["date"]
            hour = next((m for m in found if m.kind == "time"), None)
            if (
                hour is not None
                and around.said.group("after")
                and around.item.get("time")
                and not _part_of_day_near(clause, hour)
            ):
                # "스터디(19:00) 끝나고 10시에": a bare hour in the half of the day nearest
                # the item's
                times = [_nearest_half(hour.value, around.item["time"]), *times[1:]]
        if named_day is not None and days:
            days, before = [], []  # (read as the item's day, not the event's)
        if named_day is not None and shift_word is not None:
            # "카카오 면접 다음 주 같은 요일에 카카오 2차면접": the event is named after the day
            # counted from the item, which is no part of its name
            _, _, after = title.partition(shift_word.group(0))
            after = LEADING_PARTICLE.sub("", after.strip()).strip()
            if after and _names_an_event(after):
                title = after
        if named_day is not None:
            # "네이버 면접 전날 밤 9시에", "마감 하루 전": a day the clause counts from an
            # item or a stage it names
            context = replace(context, day=named_day)
        elif context.day is None and anchor is not None:
            # "그날 저녁 7시에", "마감 전날 밤 9시에": the day the room was just about
            context = replace(context, day=shifted_day(anchor[0], clause), time=anchor[1])
        elif (
            context.day is not None
            and context.listed is None  # (a look's day is already the day meant)
            and not days
            and DAY_POINTER.search(clause)
        ):
            # "… 면접이랑 그 다음날 오후 3시 박람회": counted from the operation before's day
            context = replace(context, day=shifted_day(context.day, clause))
        # "담주 수욜 아니 목욜 …": the day said instead of the first one
        instead = [
            m.value
            for m in found
            if m.kind == "date" and m.new and INSTEAD_OF.search(clause[: m.span[0]][-12:])
        ]
        day = instead[-1] if instead else before[-1] if before else days[0] if days else context.day
        time = times[0] if times else (context.time if SAME_TIME.search(clause) else None)
        if time is None and around is not None and named_day is not None:
            time = around.time
        if (pasted := pasted_block(clause)) is not None:
            # "마감만 넣어줘 …" with a notice of several dated lines: the line it names
            lines = pasted[1].split("\n")
            line = notice_line(pasted[0], {"notice": {"lines": lines}}, now, title)
            if line is not None and not mentions(pasted[0], now):
                day, time = line
        if time is None and SAME_TIME.search(clause) and _EARLIER.search(clause):
            # "금요일에도 아까 그 시간으로 '…' 추가" after a listing: the time the room last set
            set_before = (
                i
                for i in (focus or {}).get("items") or []
                if (i.get("how") in ("added", "changed") or "added_turn" in i) and i.get("time")
            )
            time = next((i["time"] for i in set_before), None)
        kept = [
            i
            for i in items
            if i["date"] == day
            and (time is None or i.get("time") == time)
            and _title_words(title) & _title_words(i["title"])
        ]
        if kept and not ADD_REQUEST.search(unquoted(clause)) and EXISTS_TOLD.search(clause):
            # "금요일 오후 3시에 네이버 면접 있어요" of an item already kept: shown, not added twice
            return "get_schedule", {"start_date": day, "end_date": day}, None
        change = (focus or {}).get("last_change") or {}
        freed = change.get("slot") or {}
        if (
            day is None
            and freed.get("date")
            and change.get("turn") == (focus or {}).get("turn")
            and FREED_SLOT.search(clause)
        ):
            # "네이버 면접 하루 뒤로" then "비는 원래 시간에 딜로이트 면접 넣어줘": the slot the
            # change left
            day, time = freed["date"], time or freed.get("time")
        # (pointed at, or named right after the posting's stages were shown: "코테 내 일정에
        # 넣어줘")
        shown = bool(
            focus
            and (focus.get("posting") or {}).get("turn") == focus.get("turn")
            and names_only_a_stage(clause, focus)
        )
        told = stage_just_told(clause, focus)
        staged = (
            posting_stage(clause, focus) if day is None and (points_back(clause) or shown) else None
        ) or (told if told and day in (None, told["date"]) else None)
        if staged is not None:
            # "아까 말한 코딩테스트 일정도 넣어줘": the stage of the posting just discussed
            # (a title the user quoted is theirs)
            company = focus["posting"].get("company") if focus else None
            # a title the user quoted, named ("이름은 …로") or wrote with the company
            # ("카카오 코테 일정 만들어줘") is theirs
            theirs = QUOTED.search(clause) or NAMED_AS.search(clause)
            if not theirs and not (company and squash(company) in squash(title)):
                title = stage_title(focus["posting"], staged) if focus else staged["stage"]
            # (a time the user said is theirs: "그 마감일 오후 5시에 …")
            day, time = staged["date"], times[0] if times else staged.get("time") or time
        # what names the event once the day pointer and "하나 더" are read ("그 다음날도 같은
        # 시간에 하나 더" names none)
        bare = ONE_MORE.sub(" ", DAY_POINTER.sub(" ", title)).replace(" 더", " ")
        rest_of_title = bare.strip(" 도").removesuffix("더").strip()
        more = ONE_MORE.search(clause)
        if (
            # (or "12월 13일도 … 하나 더 넣어줘", nothing named: another of the item just added)
            (
                (anchor is not None and not _names_an_event(rest_of_title))
                or (
                    more is not None
                    and len(squash(rest_of_title)) < 2
                    # (nothing said after the verb: "하나 더 넣어줘 필라테스 …" names one)
                    and not VERB_ONLY.sub("", clause[more.end() :]).strip()
                )
            )
            and not QUOTED.search(clause)  # "그 전날에도 '일찍 자기' 하나 넣어줘": theirs
        ):
            # "매주 하는 거라 그 다음 주 같은 요일 같은 시간에도 넣어줘": the same event again
            focus_items = (focus or {}).get("items") or []
            title = focus_items[0]["title"] if focus_items else title
        # "거", "그", "날" (of "그 전날 넣어줘") name no event: asked, never kept as a title
        # (nor does a position in a listing: "마지막 거" when nothing was listed)
        if (
            not title
            or POINTER.match(title)
            or len(squash(title)) < 2
            or title in _WHEN_NOUNS
            or _title_words(title) == {"메모"}
            or (_ORDINAL_ITEM.search(title) and ordinal_position(title) is not None)
        ):
            if memo or _title_words(title) == {"메모"}:
                # "신분증 챙겨야 함. 메모 좀" with no item in view: which one it goes on
                return "어느 일정에 메모를 남길까요? 일정 이름을 알려 주세요."
            return "어떤 일정을 추가할까요? 일정 이름을 알려 주세요."
        if day is None and (line := notice_line(clause, focus, now, title)) is not None:
            # "수험표 출력 시작일에도 '수험표 출력' 등록" after pasting the notice: that line's
            day, time = line[0], time or line[1]
        if day is None:
            # the add waits in the room for its day: "금요일 오후 3시" next completes it
            return _ask_for_when(
                f"'{title}' 일정을 언제로 추가할까요? 날짜를 알려 주세요.", kind, clause, None, memo
            )
        args = {"title": title, "date": day, **({"time": time} if time else {})}
        return "add_schedule", {**args, **({"memo": memo} if memo else {})}, None
    described = [m for m in found if not m.new] if kind == "update_schedule" else found
    target_text = _blank(clause, [m.span for m in found if m.new] + cut).replace("\n", " ")
    days = [m.value for m in described if m.kind == "date"]
    times = [m.value for m in described if m.kind == "time"]
    pointer = DAY_POINTER.search(clause)
    if (
        anchor is not None
        and pointer
        and not days
        and not re.match(r"\s*으?로", clause[pointer.end() :])
    ):
        # "그날 면접은 30분 앞당겨줘": the room's day says which item ("그날로" is a new value)
        days = [anchor[0]]
    fits = [chosen] if chosen else best_schedules(items, target_text, days, times)
    if (
        chosen is None
        and len(fits) == 1
        and _by_its_day_or_clock_alone(fits[0], target_text, days, times, now)
    ):
        # "내일 오후 3시 치과 취소해줘" is not the interview at 3 p.m. on Friday
        fits = []
    asked = _request_sentence(target_text) if chosen is None else None
    if asked is not None:
        # "카카오 면접 2시니까 괜찮겠다ㅎ 과제 제출은 낮 12시로 앞당겨주세요": a remark's
        # sentence before the request names no target; the request's own sentence does
        # (marked as what the request is about: "과제 제출은 …", not "네이버 면접이랑 헷갈리지
        # 말고 지워주세요", "스터디랑 안 겹치게 4시로", whose item is named beside it)
        there = [i for i in items if _title_words(asked) & _title_words(i["title"])]
        main = best_schedules(there, asked, days, times)
        fits = main if len(main) == 1 and _marked(main[0], asked) is not None else fits
    another = False
    other_one = _ANOTHER_ONE.search(clause)
    if (
        chosen is None
        and len(fits) > 1
        and other_one is not None
        # (then pointed at with 그: "그건 지워 주세요"; not when the clause points at the item
        # just added or spares the other: "그건 그대로 두고 방금 거 지워", "이건 6시로")
        and re.search(r"그(?:건|거|것|걸)", clause[other_one.end() :])
        and not _THIS_ONE_OR_SPARED.search(clause)
    ):
        # "그날 다른 일정 하나 있지요? 그건 지워 주세요" right after an add: not the one the
        # room just touched (its pointer points at that other one)
        touched = last_item(focus, items)
        left = [f for f in fits if touched is None or f["schedule_id"] != touched["schedule_id"]]
        another = touched is not None and len(left) == 1
        fits = left if another else fits
    only = _ONLY.search(target_text) if chosen is None and kind != "add_schedule" else None
    if only is not None:
        # "카카오 면접 빼고 다 괜찮은데 스터디만 8시로": the one item marked with 만
        with_only = _marked_items(target_text, only, items)
        fits = with_only if len(with_only) == 1 else fits
    reasons = list(_REASON_END.finditer(target_text)) if len(fits) > 1 else []
    if reasons and not SCHEDULE_VERB.search(target_text[: reasons[-1].end()]):
        # "카카오 쪽 집중하려고 네이버 면접은 빼줘": a reason said first, asking for no
        # operation itself ("카카오 면접 옮기려고 하는데 …" does), names no target
        main = best_schedules(fits, target_text[reasons[-1].end() :], days, times)
        fits = main if len(main) == 1 else fits
    if len(fits) > 1:
        # "스터디랑 겹치네 학원을 두 시간 뒤로": the one marked as the object
        fits = _the_object(fits, target_text)
    verb = SCHEDULE_VERB.search(target_text) if len(fits) > 1 else None
    if verb is not None and not SCHEDULE_VERB.search(target_text, verb.end()):
        # "카카오 면접 일주일 뒤로 미뤄줘 네이버 면접 결과 보고 싶어서": the item is named before
        # the verb; what is said after it is said beside the request
        main = best_schedules(fits, target_text[: verb.start()], days, times)
        fits = main if len(main) == 1 else fits
    if chosen is None and found and CORRECTION.search(clause):
        # "아 잘못말함 금요일이야", "금욜 아니고 목욜이야" right after an add: a correction that
        # names no item is of the item just touched, though another item shares the day said,
        # unless a value it does not mark as new ("12월 2일 일정 7시로") describes another item
        single = last_item(focus, items)
        unnamed = not _title_words(_blank(clause, [m.span for m in found]))
        marked = any(m.new for m in found)
        own = {"date": single["date"], "time": single.get("time")} if single else {}
        described = [m for m in found if marked and not m.new and m.value != own.get(m.kind)]
        if single is not None and unnamed and not described:
            fits = [single]
    target = fits[0] if len(fits) == 1 else None
    named = target is not None and bool(_title_words(target_text) & _title_words(target["title"]))
    by_day = pointer is not None and len(fits) > 1 and bool(days) and chosen is None
    if by_day:
        # "그날 거 1시간 늦춰줘", "그날 스터디 지워줘" when that day holds two such items:
        # which one, not the last touched
        return _ask_back(kind, clause, fits)
    half = described_half(target_text) if chosen is None and not named else None
    in_half = (
        [i for i in room_items(focus, items) if i.get("time") and half[0] <= i["time"] < half[1]]
        if half is not None and target is None and not any(m.kind == "date" for m in found)
        else []
    )
    if len(in_half) == 1:
        # "오전 거 30분 땡겨", "방금 넣은 두 개 중에 오후 거" after adding a morning and an
        # afternoon item: the one of the room's items in that half of the day
        target = in_half[0]
    elif chosen is None and not named and not another and points_back(clause):
        # "방금 추가한 거", "그 일정", "두 번째 거": the room's objects, not a search
        resolved = refers_to(target_text, focus, items, _narrower(days, times, focus, now))
        day_said = target is not None and bool(days) and target["date"] in days
        # (an item the clause describes otherwise is not the one meant: "수요일 오전 거
        # 지워줘" after adding a Monday afternoon item names none)
        # (nor one of another kind than the clause names: "면접이 하루 앞당겨졌대요" right
        # after a memo on a deadline)
        kind_said = re.search(EVENT_NOUNS, unquoted(target_text))
        unlike = resolved.item is not None and (
            (bool(days) and resolved.item["date"] not in days and not day_said)
            or (half is not None and not half[0] <= (resolved.item.get("time") or "") < half[1])
            or (
                kind_said is not None
                and squash(kind_said.group(0)) not in squash(resolved.item["title"])
                and any(squash(kind_said.group(0)) in squash(i["title"]) for i in items)
            )
        )
        if unlike:
            target = None
        elif resolved.item is not None and not (day_said and resolved.item["date"] not in days):
            # (the one item on the day the clause names stays: "아까 목요일 거" after a listing
            # and an add on Wednesday is the listing's Thursday item)
            target = resolved.item
        elif len(resolved.choices) > 1:
            return _ask_back(kind, clause, resolved.choices)
    if target is None and len(fits) > 1 and chosen is None and ORIGINAL.search(clause):
        # "원래 있던 면접은 …" right after a turn about one day: the one of that day
        focused = focus_day(focus)
        on_day = [f for f in fits if focused and f["date"] == focused[0]]
        target = on_day[0] if len(on_day) == 1 else None
    if target is None and len(fits) > 1 and chosen is None and points_back(clause):
        # "그 면접 30분 미뤄줘" after "금요일 네이버 면접 때문에 떨려요": the one just spoken of
        target = talked_of(fits, focus, now)
    if (
        target is None
        and len(fits) > 1
        and chosen is None
        and kind == "update_schedule"
        and not _NOT_SURE.search(clause)
        and not any(m.kind == "date" for m in found)
        and not _asked_whether(clause)
    ):
        # "면접 시간 오후5시로 바꿔" after a look at Friday showed one of the two interviews
        # (and a question about its company's posting): the one in view (a change asked
        # for, not wondered about or of another: "면접 4시로 바뀌었나?", "다른 면접 4시로")
        target = _in_view(fits, focus)
    if (
        target is None
        and len(fits) > 1
        and chosen is None
        and kind == "update_schedule"
        and _VALUE_CORRECTED.search(clause)
        and not _EXCEPT.search(clause)  # "4일 면접 말고 10일 면접": the one not meant
    ):
        # "오후 2시가 아니라 오전 10시네요" right after adding a 2 p.m. item beside another: the
        # user corrects what they just said, of the item the last turn added or changed
        touched = ((focus or {}).get("items") or [{}])[0]
        if just_touched(focus or {}):
            target = next((f for f in fits if f["schedule_id"] == touched["schedule_id"]), None)
    if target is None and len(fits) > 1 and chosen is None and RESTORE.search(clause):
        # "면접 시간은 그냥 원래대로 해줘" after changing one of two interviews: the one the
        # room changed
        changed = set((focus or {}).get("original") or {})
        ours = [f for f in fits if f["schedule_id"] in changed]
        target = ours[0] if len(ours) == 1 else None
    later = _later_one(target_text) if target is None and chosen is None else None
    if later is not None and len(fits) > 1:
        # "금요일 면접 두개네 늦은 거 1시간 당겨줘": of the items the words describe, the
        # later (or earlier) one in time
        target = sorted(fits, key=_in_order)[-1 if later.group(1) or later.group(2) else 0]
    if target is None and len(fits) > 1:
        # "오후 2시 면접 30분 당겨줘" with two 2 p.m. interviews, "면접 하나 지워줘": which
        # one, not a guess
        return _ask_back(kind, clause, fits)
    described_one = _ONE_DESCRIBED.search(target_text)
    if target is None and not fits and chosen is None and focus and described_one:
        # "오후 거는 4시로 미뤄줘" after a listing of two: the one of the room's items its
        # words describe (its half of the day, its day, a word of its title)
        pool = refers_to("그거", focus, items).choices
        # (of the days and times the clause describes: "수요일 저녁 거" is none of Tuesday's)
        described = [m for m in found if not m.new]
        pool = [
            i
            for i in pool
            if all(
                i["date"] == m.value if m.kind == "date" else i.get("time") == m.value
                for m in described
            )
        ]
        if len(pool) > 1:
            target = pick_choice(described_one.group(0), pool, items, None, now)
    if target is None and not fits and chosen is None:
        # nothing named: the schedule the conversation is about ("이름을 '…'로 바꿔줘"
        # right after adding it; not one the clause describes by another half of the day,
        # nor a delete of another day: "수요일 오전 거 지워줘")
        target = last_item(focus, items)
        if target is not None and (
            (half is not None and not half[0] <= (target.get("time") or "") < half[1])
            or (kind == "delete_schedule" and days and target["date"] not in days)
        ):
            target = None
    if target is None:
        return "말씀하신 일정을 찾지 못했어요. 일정 이름을 다시 알려 주세요."
    if kind == "delete_schedule":
        return "delete_schedule", {"schedule_id": target["schedule_id"]}, target
    new = [m for m in found if m.new]
    if not new:  # no "…로": a date or time that is not the item's own is the new one
        # ("7시 거 1시간 당겨줘" on a 19:00 item: "7시" is its own time, read on its half
        # of the day)
        own_time = target.get("time")
        new = [
            m
            for m in found
            if (m.kind == "date" and m.value != target["date"])
            or (
                m.kind == "time"
                and m.value != own_time
                and not (own_time and _nearest_half(m.value, own_time) == own_time)
            )
        ]
    changes: dict[str, str] = {}
    if shift:
        changes.update(_shifted(target, shift))
    for m in new:
        value = m.value
        if m.kind == "time" and target.get("time") and not _part_of_day_near(clause, m):
            value = _nearest_half(value, target["time"])  # "7시로" on a 19:00 item: 19:00
        if m.kind == "date" and _BARE_WEEKDAY.fullmatch(clause[m.span[0] : m.span[1]].strip()):
            value = _weekday_the_way_moved(value, target["date"], clause)
        bare_day = re.fullmatch(r"\s*(\d{1,2})\s*일\s*", clause[m.span[0] : m.span[1]])
        if m.kind == "date" and bare_day:
            # "신라호텔 건 6일로 하루 미룰게요" of an item on January 5th: the 6th nearest it
            value = _nearest_day_of_month(int(bare_day.group(1)), target["date"], value, now)
        changes[m.kind] = value  # a named day or time wins over a relative shift
    following = _FOLLOWING_WEEKDAY.search(clause)
    if following:
        # "move the Kakao one to the following Monday", "그 다음 월요일로": the first one after
        # the item's own day
        korean, english = following.group(1, 2)
        weekday = (
            "월화수목금토일".index(korean) if korean else EN_WEEKDAYS.index(english.lower()[:3])
        )
        its_day = date.fromisoformat(target["date"])
        ahead = (weekday - its_day.weekday() - 1) % 7 + 1
        changes["date"] = (its_day + timedelta(days=ahead)).isoformat()
    if _FROM_ITS_OWN.search(clause) and DAY_SHIFT.search(clause):
        # "원래보다 일주일 뒤", "원래 날짜에서 이틀 전": counted from the item's day, not today
        changes["date"] = shifted_day(target["date"], clause)
    if rename:
        changes["title"] = next(g for g in rename.groups() if g).strip()
    elif swap and swap.group(1) in target["title"]:
        changes["title"] = target["title"].replace(swap.group(1), swap.group(2), 1)
    if memo:
        changes["memo"] = memo
    last_change = (focus or {}).get("last_change")
    each = (last_change or {}).get("each") or {}
    if (
        not changes
        and last_change
        and RESTORE.search(clause)
        and (
            last_change.get("schedule_id") == target["schedule_id"] or target["schedule_id"] in each
        )
    ):
        # "아 아니다 원래 날짜로 돌려줘" after a change: the values it replaced (of each item
        # a change of several changed: "스터디는 다시 원래 시간으로"), as they were before
        # the room first changed them ("4시로" then "5시로" then "원래대로": its old time)
        was = each.get(target["schedule_id"]) or last_change.get("before") or {}
        olds: dict[str, Any] = ((focus or {}).get("original") or {}).get(
            target["schedule_id"]
        ) or {}
        if _BOTH_FIELDS.search(clause):
            # "둘 다 원래대로" after a change of the time and then of the title: every field
            # the room changed
            was = {**was, **olds}
        fields = {f for word, f in _RESTORED_FIELDS.items() if re.search(word, clause)}
        if fields:
            # "시간만 원래대로" after a change of the time and then of the date: that field
            was = {k: v for k, v in {**olds, **was}.items() if k in fields}
        changes = {k: olds.get(k, v) for k, v in was.items() if olds.get(k, v)}
    if not changes and last_change and (SAME_AGAIN.search(clause) or _THAT_MUCH.search(clause)):
        # "카카오 것도 똑같이" after "네이버 면접 30분 늦춰줘": the same change on this item
        again = shift_in(last_change["clause"])[0]
        changes = _shifted(target, again) if again else dict(last_change["changes"])
        changes.pop("title", None)
    if (
        "date" not in changes
        and not shift
        and DAY_SHIFT.search(clause)
        and (anchor is None or anchor[0] == target["date"])
    ):
        # "카카오 면접 다음날로 옮겨줘", "… 전날 오후 3시로": a day counted from the item;
        # "그 다음날로 옮겨줘" right after adding it: the room's day is the item's own; a
        # day counted from another item it names ("카카오 면접 다음날로" said of 네이버's)
        others = [i for i in items if i.get("schedule_id") != target.get("schedule_id")]
        # (the item pointed at, "그거 네이버 면접 이틀 전으로", is counted from another too)
        shift_at = DAY_SHIFT.search(clause)
        ahead_of = clause[: shift_at.start() if shift_at else 0]
        by_pointer = chosen is not None or (
            points_back(ahead_of)
            and not points_back(" ".join(ahead_of.split()[-2:]))
            and not re.search(r"(?:^|\s)그\s*$", ahead_of)
        )
        counted_from = _named_anchor(clause, others, None, now) if by_pointer else None
        changes["date"] = counted_from or shifted_day(target["date"], clause)
    time_only = (
        not changes
        and anchor is not None
        and bool(_THAT_TIME.search(clause))
        and not _ITS_DAY.search(clause)
        and ((focus or {}).get("posting") or {}).get("turn") == (focus or {}).get("turn")
    )
    if time_only and anchor is not None and anchor[1]:
        # "네이버 면접 그 시간으로 바꿔" after the posting's interview time: the time, not the
        # day ("그 날짜랑 시간으로" is both; after a look at a day, "그 시간" is its slot)
        changes["time"] = anchor[1]
    if not changes and anchor is not None and anchor[0] != target["date"] and not time_only:
        # (a stage the posting gives no time: "그 시간으로" moves nothing, asked)
        # "카카오 면접 그날로 옮겨줘" after the posting's interview date: the day in focus
        changes["date"] = shifted_day(anchor[0], clause)
    posted = None
    # (asked as a question at its end: "…옮기면 안 되겠죠?"; not "…다르네? … 옮겨줘")
    as_posted = AS_POSTED.search(clause)
    if not changes and as_posted and not _asked_whether(clause):
        # the stage the clause names ("면접은 … 공고에 나온 날짜랑 시간으로"), else the one
        # the room is on
        stage = posting_stage(clause, focus)
        posted = (stage["date"], stage.get("time")) if stage else focus_day(focus)
    if (
        posted is not None
        and (focus or {}).get("posting")
        and posted
        != (
            target["date"],
            target.get("time"),
        )
    ):
        # "헐 내 일정엔 12월 4일로 돼있네 공고대로 날짜랑 시간 고쳐줘" after the posting's
        # interview date: the day (and time) the posting gives
        # ("공고상 1차 면접 날짜로": the date only; "공고대로", "공고 날짜로": as the posting
        # has it, its day and time; "거기 나온 시간으로": the time only; "date and time in
        # the posting": both)
        said_as = as_posted.group(0) if as_posted else ""
        if as_posted and as_posted.group("staged"):
            fields = {"date"}
        else:
            fields = {"date", "time"} if said_as.startswith("공고") else _fields_named(said_as)
        if fields == {"date"} and _TIME_FIELD.search(clause):
            # "공고 날짜로 고쳐줘. 시간도 공고대로", "… 시간도 거기 맞춰줘": the time too
            fields = {"date", "time"}
        changes = {
            **({"date": posted[0]} if "date" in fields else {}),
            **({"time": posted[1]} if posted[1] and "time" in fields else {}),
        }
    if (
        anchor is not None
        and anchor[1]
        and changes.get("date") == anchor[0]
        and "time" not in changes
        and SAME_TIME.search(clause)
    ):
        # "그 날짜로 바꿔줘 시간도 공고대로": the time of the day in focus comes with it
        changes["time"] = anchor[1]
    same = {k for k, v in changes.items() if k in ("date", "time") and target.get(k) == v}
    if same and len(changes) > len(same):
        # "화요일 7시 일정 이름 CS 스터디로 바꿔줘": the day and hour that named the item are
        # no change of it
        changes = {k: v for k, v in changes.items() if k not in same}
    if not changes:
        return _ask_for_when(
            f"'{target['title']}' 일정을 언제로 옮길까요? 날짜나 시간을 알려 주세요.",
            kind,
            clause,
            target,
            memo,
        )
    return "update_schedule", {"schedule_id": target["schedule_id"], **changes}, target


# A value said instead of the one just given ("오후 2시가 아니라 오전 10시네요").
_VALUE_CORRECTED = re.compile(r"(?:이|가)?\s*아니(?:라|고)\s")
# The slot the last change left ("비는 원래 시간에", "빈 자리에", "the old slot").
FREED_SLOT = re.compile(
    r"원래\s*(?:시간대?|자리|날짜|슬롯|타임)(?:에|으로|로)?|"
    r"(?i:\b(?:the\s+)?(?:old|original|freed)\s+(?:slot|time)\b)"
)
# "원래 있던 면접", "기존 일정": an item the user had before the room added others.
ORIGINAL = re.compile(
    r"원래\s*있던|기존(?:에)?\s*(?:있던|거|것|일정|면접)|(?i:\b(?:original|existing)\b)"
)
ONE_MORE = re.compile(r"하나\s*더|한\s*개\s*더|또\s*하나|(?i:\bone\s+more\b)")
# Taking back what was just said ("아 아니다 금요일이 낫겠다", "ㄴㄴ 7시 반", "아니 그거 말고").
CORRECTION = re.compile(
    r"아니(?:다|야|요)?|ㄴㄴ|말고|낫겠|정정|잘못|(?i:\bactually\b|\bmake\s+(?:that|it)\b)"
)
# Taking back in English right after an add or a change ("oh wait no 5시", "oops, Friday").
TAKEN_BACK = re.compile(
    # ("2:30 not 1:30": the value said instead of the one before)
    rf"{CORRECTION.pattern}|(?i:\bwait\b|\boops\b|\bnot\b(?=\s*\d))"
    # an apology for the value just given ("미안해요 그거 내일이에요")
    r"|미안(?:해요|해|합니다)?|죄송(?:해요|합니다)?|(?i:\bsorry\b)"
)


def _another_event_too(clause: str, item: dict[str, Any], now: date) -> bool:
    """ "같은 날 오후 5시에 자소서 수정도" right after adding 코테 연습: a new event named with
    도 (also), not a change of the item just touched."""
    if not re.search(r"도\s*[.!?~ㅎㅋ]*$", clause.strip()):
        return False
    if re.search(r"(?:있|없)(?:는지|나|을까|는가)도\s*[.!?~ㅎㅋ]*$", clause.strip()):
        return False  # "그날 오전에 딴거 있는지도": whether there is, asked too
    title = title_of(clause, [m.span for m in mentions(clause, now)])
    title = re.sub(r"도$", "", title).strip()
    return _names_an_event(title) and not (_title_words(title) & _title_words(item["title"]))


def fills_in(clause: str, now: date) -> bool:
    """ "방금 넣은 거 오후 2시로 시간 넣어줘": a value put into the item pointed at (an add
    verb, a new value with 로, nothing named but the item), a change of it, not an add."""
    if not points_back(clause) or DAY_POINTER.search(clause):
        return False
    found = mentions(clause, now)
    return any(m.new for m in found) and not names_event(clause, now, found)


def describes_a_day(clause: str, now: date) -> bool:
    """Whether a clause names the day or time of the items it means ("금요일 거 전부 지워줘"),
    not only a new value ("둘 다 3시로") or a relative move ("하루씩 뒤로")."""
    _, span = shift_in(clause)
    said = _blank(clause, [span]) if span else clause
    return any(not m.new for m in mentions(said, now))


def names_event(clause: str, now: date, found: list[Mention] | None = None) -> bool:
    """Whether a clause names an event of its own (its title, without the date and time
    words `found` in it, is more than words of when and connectives: "그리고 메모에 …
    넣어줘" names none; "장소도 메모로 남겨주세요. …" names what the memo is about)."""
    spans = [m.span for m in (mentions(clause, now) if found is None else found)]
    title = title_of(clause, spans)
    if all(re.sub(r"(?:도|은|는|을|를|만)$", "", w) in _MEMO_TOPICS for w in title.split()):
        return False
    return _names_an_event(title)


def _only_new_values(clause: str, now: date) -> bool:
    """A clause that gives a new date or time ("…로", or any date after a correction) and
    asks for no listing."""
    if LIST_VERB.search(clause) or MY_SCHEDULE.search(clause):
        return False
    found = mentions(clause, now)
    return any(m.new for m in found) or bool(found and CORRECTION.search(clause))


# A labelled line of a notice the user pasted ("- 장소: 판교 오피스 2층 라운지"), asked for
# as a memo by its label ("장소도 메모로 넣어줘", "준비물 메모해줘").
_NOTICE_LABEL = (
    r"장소|위치|주소|준비물|복장|링크|소요\s*시간|담당자|연락처|(?i:location|place|address|link)"
)
_LABEL_AS_MEMO = re.compile(
    rf"({_NOTICE_LABEL})(?:도|은|는|을|를|이랑|만)?\s*"
    # (its value the user's own short way between: "복장 비캐 메모" for the mail's "복장 :
    # 비즈니스 캐주얼"; not "장소 말고 메모")
    r"(?:((?!말고|빼고)[가-힣A-Za-z0-9]{1,6})\s+)?"
    r"(?:좀\s*)?(?:메모|(?i:as\s+(?:a\s+)?(?:memo|note)))"
)


# What a memo is about, not an event: "장소 메모", "준비물 메모" (the notice's labels).
_MEMO_TOPICS = frozenset(w for w in _NOTICE_LABEL.split("|") if re.fullmatch(r"[가-힣]+", w))
# The pasted notice itself, as the request calls it ("이렇게 메일 왔는데 …", "이 문자 …").
_THE_NOTICE = re.compile(
    r"^(?:이렇게\s*|이\s*|위\s*|아래\s*)?"
    r"(?:(?:메일|이메일|문자|카톡|메시지|연락|안내|공지|알림|(?i:mail|email))(?:\s*내용)?|내용)"
    # ("이 메일 내용대로", "위 내용 그대로": the notice, as it says)
    r"(?:대로|\s*그대로|처럼|이|가|을|를|로|으로|은|는)?$"
)
# A labelled line of a notice ("일시: 12월 11일 오후 4시", "장소: 잠실 본사"): never a title
# ("일정: 토스 커피챗 …" is the user's own label of their title: kept).
_NOTICE_FIELD = re.compile(rf"(?:일시|{_NOTICE_LABEL})\s*[:：]")
NOTICE_LINE = re.compile(rf"^\s*[\-•·*▶■□◆●○]*\s*{_NOTICE_FIELD.pattern}")


def labelled_memo(message: str, earlier: list[str]) -> str | None:
    """The memo a message asks for by a label of a notice pasted before ("장소도 메모로 넣어줘"
    after a mail with "- 장소: 판교 오피스 2층 라운지"): that line's value, from the most recent
    of `earlier` (the room's previous user messages) that has it; None otherwise."""
    if "?" in message or LIST_VERB.search(message) or DONE_BEFORE.search(message):
        return None  # "장소 메모 들어갔는지 보여줘", "장소 메모 남겼어?": asked, not asked for
    asked = _LABEL_AS_MEMO.search(message)
    if asked is None:
        return _repeated_value(message, earlier) if "메모" in message else None
    short = asked.group(2)
    label = re.sub(r"\s+", r"\\s*", re.escape(asked.group(1)).replace("\\ ", " "))
    # (on its own line, or after a separator on one: "일시: … / 장소: 잠실 본사"; up to a
    # separator or the request that follows it: "장소: 본사 12층 대회의실. --- 이거 …"; an
    # address's own full stop is no end: "남대문로 63. 한진빌딩 본관")
    line = re.compile(
        rf"(?:^|(?<=[/|]))[\s\-•·*▶■□◆●○]*(?:{label})\s*[:：]\s*([^\n/|]+?)\s*"
        r"(?=$|[/|]|\.?\s+-{2,}|\.\s+(?:이거|이것|이\s*일정|일정에|등록|넣어|추가|저장|부탁))",
        re.IGNORECASE | re.MULTILINE,
    )
    for text in reversed(earlier):
        found = line.search(text)
        if found:
            # (the user's own short form of the value only: "복장 비캐" for "비즈니스 캐주얼";
            # "복장 정장으로", "준비물 신분증만" are values of their own)
            if short and not _abbreviates(short.strip(), found.group(1)):
                return None
            return found.group(1)
    return None


def _abbreviates(short: str, value: str) -> bool:
    """Whether each character of `short` is found in `value`, in order ("비캐" of "비즈니스
    캐주얼")."""
    rest = iter(value)
    return all(ch in rest for ch in short)


# Any labelled line of a pasted notice ("- 준비물: 신분증 지참").
_LABELLED_LINE = re.compile(
    r"(?:^|(?<=[/|]))[\s\-•·*▶■□◆●○]*[가-힣A-Za-z][가-힣A-Za-z ]{0,7}\s*[:：]\s*"
    r"([^\n/|]+?)\s*(?=$|[/|])",
    re.MULTILINE,
)


def _repeated_value(message: str, earlier: list[str]) -> str | None:
    """A labelled line's value of a notice pasted before, said again in a request for a memo
    ("아까 메일에 신분증 지참하라고 했던 거, 그 일정 메모로 남겨주세요" after "- 준비물: 신분증
    지참"): that value as written; None when the message repeats none."""
    said = squash(message)
    for text in reversed(earlier):
        for line in _LABELLED_LINE.finditer(text):
            value = line.group(1)
            if len(squash(value)) >= 3 and squash(value) in said:
                return value
    return None


# The field a value is said for: "시간은 오후 1시", "시간도 넣어줘", "날짜는 9일".
FIELD_WORD = re.compile(
    rf"(?<![가-힣A-Za-z])(?:{_FIELDS}|{_FIELDS_EN})(?:은|는|도|이|가|을|를)?(?![가-힣A-Za-z])"
)


def gives_field_value(clause: str, now: date, item: dict[str, Any]) -> bool:
    """A value said with the name of its field and no event ("시간은 오후 1시", "아 그거 밤
    11시 59분까지야 시간도 넣어줘"): right after an add or a change, a value of `item` (the
    item just touched); not another of it ("12월 13일도 … 하나 더 넣어줘") nor a day other than
    its own."""
    if LIST_VERB.search(clause) or MY_SCHEDULE.search(clause) or "?" in clause:
        return False
    also = _ALSO_ADDED.search(clause)
    if ONE_MORE.search(clause) or (also and not re.fullmatch(_FIELDS, also.group(1))):
        return False  # ("시간도 넣어줘" is the item's time too)
    found = mentions(clause, now)
    if any(m.kind == "date" and m.value != item.get("date") for m in found):
        return False
    if not (found and FIELD_WORD.search(clause)):
        return False
    unnamed = FIELD_WORD.sub(lambda m: " " * len(m.group(0)), clause)  # (spans kept)
    return not names_event(unnamed, now, found)


# "2회차도 넣어줘", "12월 13일도 추가": something else added too.
_ALSO_ADDED = re.compile(r"(\S+?)도\s*(?:하나\s*)?(?:넣|추가|등록|잡)")


def names_nothing_but_values(clause: str, now: date) -> bool:
    """A change that names no item: only new values, a new name ("제목도 카카오 2차 면접으로
    바꿔줘", "3시로 바꿔줘"), not "라인 면접은 5시로"."""
    rename = RENAME.search(clause)
    spans = [m.span for m in mentions(clause, now)] + ([rename.span()] if rename else [])
    # (a field of the item names no item: "시간은 저녁 8시로 해줘")
    return not set(content_words(_blank(clause, spans))) - _FIELD_WORDS


_FIELD_WORDS = frozenset({"시간", "시각", "날짜", "일자", "요일", "일정", "스케줄"})


# What a time given alone may be said to be of: the event's start.
_START_WORDS = frozenset({"시작", "입실", "집합", "오픈"})
# A guess or a doubt about it ("아마 9시 시작일걸", "9시였나").
_GUESSED = re.compile(r"아마|일걸|인가|였나|이었나|(?:을|ㄹ)까")


def gives_the_time_it_lacked(clause: str, item: dict[str, Any], now: date) -> bool:
    """ "저녁 8시에" right after adding an item with no time (a day asked for, given alone):
    nothing but a time, which the item lacks."""
    if item.get("time") or "?" in clause or LIST_VERB.search(clause):
        return False
    found = mentions(clause, now)
    if len(found) != 1 or found[0].kind != "time":
        return False
    # (hearsay "…이래" tells, as "…래" alone may ask: "9시 시작이래" is no question)
    asking = _ASKING_END.search(clause) and not re.search(r"이래요?\s*[.!~ㅋㅎ]*\s*$", clause)
    if WH_WORD.search(clause) or asking or _GUESSED.search(clause):
        return False  # "카카오 면접 시간은 2시였지", "아마 9시 시작일걸": a question, a guess
    said = set(content_words(_blank(clause, [m.span for m in found])))
    if said and said <= _START_WORDS:
        return True  # "아 오전 9시 시작이래", "8시 반 입실이에요": when it starts
    # (said with its field first, the rest may describe it: "시간은 오전 8시 반 입실이에요";
    # not "점심 시간 12시부터야", "스터디 시간이 7시니까 …")
    words = content_words(clause)
    field_first = bool(words) and words[0] in ("시간", "시작", "시각")
    return names_nothing_but_values(clause, now) or (field_first and not _says_something(clause))


def corrects_last_value(message: str, now: date) -> bool:
    """ "아니 목욜", "ㄴㄴ 7시 반", "oh wait no 5시": a date or time and nothing else but the
    words taking back what was said (no event named, no listing asked)."""
    found = mentions(message, now)
    if not TAKEN_BACK.search(message) or not found:
        return False
    if LIST_VERB.search(message) or MY_SCHEDULE.search(message):
        return False
    rest = _blank(message, [m.span for m in found])
    rest = TAKEN_BACK.sub(" ", rest)
    rest = re.sub(
        r"(?i)\b(?:oh|no|not|ah|hmm|sorry|they\s+said|it'?s|it\s+is)\b|[아앗헉어음]+(?=\s|$)|"
        # ("아 잠깐 2시 말고 3시였어요 ㅠ": a pause, the copula and a feeling say nothing more)
        r"잠깐|잠시만|(?<!\S)(?:이었|였)\S*|(?:이에요|예요|이야|야|입니다|이?요)(?=[\s.,!?~]|$)|"
        # ("목요일 말고 금요일이요 ㅠ 헷갈렸네": the value taken back and the slip owned)
        r"말고|헷갈\S*|착각\S*|잘못\s*(?:말|썼|적|봤)\S*|"
        # (the item pointed at, and a field that stays: "그거 내일이에요. 시간 같아요")
        r"(?<!\S)그(?:거|건|게)(?!\S)|(?:시간|날짜)(?:은|는|도)?\s*(?:같아요|같음|같아|그대로\S*|똑같\S*)|"
        r"으?로|[.,!?~ㅠㅜ]",
        " ",
        rest,
    )
    return not rest.split()


def _relists(clause: str, focus: dict[str, Any] | None, now: date) -> bool:
    """A correction of the listing the room just showed ("아니 그거 말고 목요일")."""
    state = focus or {}
    last_listing = (state.get("listed") or [{}])[0].get("turn")
    listed_day = (state.get("listed_day") or {}).get("turn")
    just_listed = state.get("turn") in (last_listing, listed_day)
    found = mentions(clause, now)
    return bool(just_listed and CORRECTION.search(clause) and any(m.kind == "date" for m in found))


def _part_of_day_near(clause: str, m: Mention) -> bool:
    return bool(PART_OF_DAY.search(clause[max(0, m.span[0] - 4) : m.span[1] + 2]))


def _nearest_half(value: str, current: str) -> str:
    """A bare hour ("7시") read in the half of the day nearest the item's own time."""
    hour, minute = int(value[:2]), value[3:]
    options = [hour % 12, hour % 12 + 12]
    now_minutes = int(current[:2]) * 60 + int(current[3:])
    best = min(options, key=lambda h: abs(h * 60 + int(minute) - now_minutes))
    return f"{best:02d}:{minute}"


# A look asked for by a verb LIST_VERB does not read ("봐주세요", "겹치는지", "체크 좀"), not an
# event told.
_LOOK_ASKED = re.compile(r"봐\s*(?:줘|주|줄|봐)|겹치|겹쳐|체크\s*(?:해|좀|부탁)")


# Whether something is there, asked ("딴거 있는지도", "다른 약속 없나", "뭐 있을까").
_WHETHER_THERE = re.compile(
    r"(?:있|없)(?:는지|나요?|냐|니|을까|는가|죠)(?![가-힣])|(?:있|없)는지도"
)


# A remark's ending ("같은 날이네", "겹치는구나", "빡세겠다", "연달아잖아").
_REMARKED_ON = re.compile(
    r"(?<=[가-힣])(?:이네|네요|네|구나|군요|겠다|겠네|잖아|더라)(?=[\s.!~,ㅋㅎㅠㅜ;]|$)"
)


def _adds_again(clause: str, focus: dict[str, Any] | None, now: date) -> bool:
    """ "모레 오후 1시 센드버드 면접도", "목요일 오후 4시엔 쏘카 면접" right after an add: no verb
    of its own, a day and an event: another add."""
    state = focus or {}
    items = state.get("items") or []
    if not items or items[0]["how"] not in ("added", "changed"):
        return False
    if items[0]["turn"] != state.get("turn"):
        return False
    if LIST_VERB.search(clause) or MY_SCHEDULE.search(clause) or "?" in clause:
        return False
    if _WHETHER_THERE.search(clause):
        return False  # "그날 오전에 딴거 있는지도": whether there is one, asked
    if _REMARKED_ON.search(unquoted(clause)) and not ONE_MORE.search(clause):
        return False  # "카카오 면접이랑 같은 날이네 ㅋㅋ 빡세다": a remark on it, no event told
    if WH_WORD.search(clause) or (look := _LOOK_ASKED.search(unquoted(clause))):
        # "그날 다른 일정이랑 안겹치는지 봐주세요", "what else do I have that day": a look; an
        # event told in a sentence before it is still one ("… 라인 코테도. 겹치는지 봐줘")
        ends = [m.end() for m in SENTENCE_END.finditer(clause) if look and m.end() <= look.start()]
        return bool(ends) and _adds_again(clause[: ends[-1]], focus, now)
    found = mentions(clause, now)
    title = title_of(clause, [m.span for m in found])
    dated = any(m.kind == "date" for m in found) or bool(DAY_POINTER.search(clause))
    again = bool(ONE_MORE.search(clause))  # "토요일 같은 시간에도 하나 더"
    # "그다음주 수욜도 똑같이" right after an add: the same event again on that day
    copied = items[0]["how"] == "added" and bool(SAME_AGAIN.search(clause))
    return dated and (_names_an_event(title) or again or copied)


_HALF_OF_DAY = re.compile(
    r"(오전|아침|(?i:\bmorning\b))|(오후|(?i:\bafternoon\b))|(저녁|밤|(?i:\bevening\b|\bnight\b))"
    # (a half said alone: "오후 3시" is a time, "저녁으로 옮겨" the new value)
    r"(?!\s*(?:\d|한\s*시|두\s*시|세\s*시|네\s*시|다섯|여섯|일곱|여덟|아홉|열|으?로))"
)


def half_of_day(text: str) -> tuple[str, str] | None:
    """The hours ("HH:MM" from, to) of the half of the day a text names by itself ("오전 거",
    "그 저녁 거"; the evening from 17:00); None when it names none."""
    half = _HALF_OF_DAY.search(text)
    if half is None:
        return None
    bounds = ("00:00", "12:00") if half.group(1) else ("12:00", "24:00")
    return ("17:00", "24:00") if half.group(3) else bounds


# A half of the day describing an item: before the word for it ("저녁 거", "오전 일정은",
# "밤에 있는 거", "evening thing"), the last one said ("오전 일정은 그대로 두고 오후 거 취소").
_DESCRIBED = re.compile(
    rf"(?:{_HALF_OF_DAY.pattern})(?=\s*(?:에\s*(?:있는|하는|잡힌|잡은|잡아\s*둔)\s*)?"
    r"(?:거|것|꺼|건|게|일정|약속|스케줄|(?i:thing|one|event|appointment|plans?)\b))"
)


def described_half(text: str) -> tuple[str, str] | None:
    """The hours of the half of the day the text describes an item by (see `_DESCRIBED`);
    None when it describes none."""
    found = list(_DESCRIBED.finditer(text))
    return half_of_day(found[-1].group(0)) if found else None


def in_half_said(text: str, pool: list[dict[str, Any]]) -> dict[str, Any] | None:
    """ "오전 거요", "그 저녁 거": the one item of `pool` in the half of the day the text names;
    None when it names none or several items are in it."""
    if (bounds := half_of_day(text)) is None:
        return None
    timed = [i for i in pool if i.get("time") and bounds[0] <= i["time"] < bounds[1]]
    return timed[0] if len(timed) == 1 else None


# A reply's polite ending after the word it says ("스터디요!", "네이버 거예요", "2차입니다").
_POLITE_END = re.compile(r"(?:이?요|이?에요|예요|입니다|이요)[!.~?ㅎㅋ^]*$")


def pick_choice(
    message: str,
    choices: list[dict[str, Any]],
    live: list[dict[str, Any]],
    focus: dict[str, Any] | None,
    now: date,
) -> dict[str, Any] | None:
    """The item a reply to an ask-back picks: by position ("첫 번째 거", "2번"), by what the
    room did to it ("방금 추가한 거", with the room's `focus`), by what it names (title
    words), or by its day and time alone ("모레 꺼", "the one on the 10th", read against
    `now`), among the choices that still exist."""
    ids = {c["schedule_id"] for c in choices}
    if (other := OTHER_THAN.search(message)) is not None:
        # "네이버 말고 다른 거": the one choice the named one leaves
        pool = [i for i in live if i["schedule_id"] in ids]
        excluded = best_schedules(pool, other.group(1), [], [])
        left = [i for i in pool if excluded and i not in excluded]
        if len(left) == 1:
            return left[0]
        if left:
            # "네이버 말고 다른 거" among three: never the one excluded
            choices = [c for c in choices if c["schedule_id"] in {i["schedule_id"] for i in left}]
            ids = {c["schedule_id"] for c in choices}
    resolved = refers_to(
        message,
        {**(focus or {}), "pending": {"choices": choices}},
        live,
        lambda t, pool: match_schedule(pool, t, [], []),
    )
    if resolved.item is not None and resolved.item["schedule_id"] in ids:
        return resolved.item
    pool = [i for i in live if i["schedule_id"] in ids]
    named = match_schedule(pool, message, [], [])
    if named is not None:
        return named
    # (a value said with 로 is the new one, not the choice: "오후 3시로")
    dated = [m for m in mentions(message, now) if not m.new]
    days = {m.value for m in dated if m.kind == "date"}
    times = {m.value for m in dated if m.kind == "time"}
    if dated:
        on = [
            i
            for i in pool
            if (not days or i["date"] in days) and (not times or i.get("time") in times)
        ]
        if len(on) == 1:
            return on[0]
    if (timed := in_half_said(message, pool)) is not None:
        return timed
    if ORIGINAL.search(message) and not OTHER_THAN.search(message):
        # "원래 있던 거": the one choice the room did not add
        added = {i["schedule_id"] for i in (focus or {}).get("items") or [] if was_added(i)}
        kept = [i for i in pool if i["schedule_id"] not in added]
        if len(kept) == 1:
            return kept[0]
    # "센드버드", "2차", "자소서", "신한 거요": a part of one choice's title, and of no other's
    said = _POLITE_END.sub("", "".join(message.split()).strip("?.!~"))
    said = re.sub(r"(?:거|꺼|것|건|쪽)$", "", said)
    parts = [i for i in pool if said and said in "".join(i["title"].split())]
    return parts[0] if len(parts) == 1 else None


def values_said(message: str, now: date) -> str:
    """What a reply says of when, without its endings ("1월 20일이요" -> "1월 20일", "다음 주
    수요일 오전 10시입니다." -> "다음 주 수요일 오전 10시"): its date and time words, in order,
    with what counts or moves them ("… 전날", "한 시간 당겨서") kept; the reply itself when
    it has no date or time word."""
    found = mentions(message, now)
    if not found or DAY_SHIFT.search(message) or DAY_OF.search(message) or shift_in(message)[0]:
        return message
    return " ".join(message[m.span[0] : m.span[1]] for m in sorted(found, key=lambda m: m.span))


# Where a reply's sentences and clauses end ("아이고, 날짜를 빠뜨렸군요. 다음 주 수요일입니다.",
# "밤 9시로요 근무끝나고 가야돼서", "방금 연락이 왔는데, 다음 주 목요일 같은 시간이래요").
_REPLY_PARTS = re.compile(r"(?<=[.!?,~])\s+|(?<=요)\s+|(?<=는데|니까|어서|아서|해서|돼서|되서)\s+")


def gives_the_value_asked(message: str, kind: str, now: date) -> bool:
    """ "금요일 오후 3시", "1월 20일이요", "한 시간 당겨서", "수요일로 옮겨주세요 시간은
    그대로요", "금요일 네이버 면접 전날 저녁 8시로" after "언제로 추가할까요/옮길까요?": a day,
    a time or a move, and no other request ("금요일 일정 보여줘") nor an event of its own
    ("12월 5일 토스 면접 오후 2시"; an item a day is counted from is none). Said with words
    around it ("아이고, 날짜를 빠뜨렸군요. 다음 주 수요일입니다."): the one part that gives
    it, beside parts that ask for nothing."""
    if _gives_the_value(message, kind, now):
        return True
    parts = [p for p in _REPLY_PARTS.split(message.strip()) if p.strip()]
    valued = [p for p in parts if has_when(p)]
    if len(parts) < 2 or len(valued) != 1:
        return False
    others = [p for p in parts if p is not valued[0]]
    if any(
        "?" in p or SCHEDULE_VERB.search(p) or WH_WORD.search(p) or _TURNED_DOWN.search(p)
        for p in others
    ):
        return False
    return _gives_the_value(valued[0], kind, now)


# A day said and turned down or put off ("금요일은 안 될 것 같아요", "12월 8일은 어렵다고 했더니
# 다시 연락 준대요", "수요일로 하려다가요 그냥 그대로 둘게요", "연기됐대요"): no value given.
_TURNED_DOWN = re.compile(
    r"안\s*(?:돼|되|될|된)|안돼|못\s|어렵|어려워|힘들|불가|말고|아니|하려다|"
    r"알아\s*볼|물어\s*볼|다시\s*(?:연락|알려|물어|정|잡)|연락\s*준|그대로\s*둘|연기|미정|모르"
)


def _gives_the_value(message: str, kind: str, now: date) -> bool:
    """`gives_the_value_asked` of a message read whole."""
    if _TURNED_DOWN.search(message):
        return False
    valued = (
        has_when(message)
        or DAY_POINTER.search(message)
        or DAY_SHIFT.search(message)  # "카카오 면접 이틀 전으로 해줘"
        or shift_in(message)[0]
    )
    if not valued or "?" in message or LIST_VERB.search(message) or MY_SCHEDULE.search(message):
        return False
    if operation_kind(message) not in (None, kind) and SCHEDULE_VERB.search(message):
        return False
    # a question ("금요일엔 뭐 있더라", "12월 5일이 토요일이지") or a statement of something
    # else ("월요일 날 오후 3시에 알바 있어서 안 돼", "내일 비 온대") is no value given
    if WH_WORD.search(message) or _ASKING_END.search(message) or _says_something(message):
        return False
    kept = KEPT_AS_IS.sub(" ", message)
    left = set(content_words(_blank(kept, [m.span for m in mentions(kept, now)]))) - _VALUE_WORDS
    if DAY_SHIFT.search(message) or DAY_OF.search(message):
        # ("카카오 면접 전날 저녁 8시로": the item counted from, named, and nothing more)
        return len(left) <= 3
    # ("12월 8일로요 시간은 그대로고요": what stays as it was names nothing)
    return not left


# The words a value is said with ("원래 날짜 그 다음날 같은 시간으로").
_VALUE_WORDS = frozenset(
    {"시간", "날짜", "원래", "요일", "시각", "그대로", "다음날", "전날", "당일"}
)
# The end of a question said without its mark ("토요일이지", "뭐 있더라", "3시였나").
_ASKING_END = re.compile(r"(?:지|나|까|니|냐|더라|던가|래|대|어때)\s*[.!~ㅋㅎ]*\s*$")
# Verbs a reply that gives a value may use: the request's own ("해주세요", "옮겨", "당겨서").
_VALUE_VERBS = frozenset(
    {"하", "주", "되", "같", "옮기", "당기", "미루", "늦추", "넣", "잡", "바꾸", "변경하", "해주"}
)


def _says_something(message: str) -> bool:
    """Whether a message has a predicate of its own beyond giving a value ("있어서 안 돼",
    "떨린다", "나와"): a statement, not a reply with a day or time."""
    return any(
        t.tag in ("VV", "VA") and t.form not in _VALUE_VERBS for t in analysed(message.strip())
    )


def answers_ask_back(message: str, focus: dict[str, Any] | None, now: date) -> bool:
    """Whether this message answers the room's pending ask-back: it picks a choice (by
    position or by name) and asks for no operation of its own."""
    pending = (focus or {}).get("pending")
    if not pending:
        return False
    if pending.get("missing"):
        return gives_the_value_asked(message, pending["kind"], now)
    if "?" in message or WH_WORD.search(message) or _ASKING_END.search(message):
        return False  # "10일 일정은?", "12월 4일엔 뭐 있더라": a question, no choice
    if pending["kind"] == "undo" and (
        DECLINED.search(message)
        or re.search(r"그대로|냅[두둬]|놔\s*[두둬]|건드리", message)
        or SCHEDULE_VERB.search(_DONE_TO.sub(" ", message))
        or has_when(message)
    ):
        # "토스 면접 3시로 바꿔줘", "스터디는 그대로 놔둬": a request of its own, no choice
        # ("카카오 면접 지운 거", "1번": which operation is undone)
        return False
    if (
        pending["kind"] != "undo"
        and (SCHEDULE_VERB.search(message) or SCHEDULE_WORD.search(message))
        and operation_kind(message) not in (None, pending["kind"])
    ):
        return False  # (a bare reply asks for nothing of its own: "10일꺼")
    if pending.get("memo") and operation_kind(message) is not None:
        return False  # "카카오 면접 4시로 옮겨줘" after "어느 일정에 메모를?": a request of its own
    picked = pick_choice(message, pending["choices"], pending["choices"], focus, now)
    return picked is not None


POSTING_WHEN = re.compile(rf"{WHEN.pattern}|몇\s*시|시간|날짜|일정|전형|다음\s*(?:단계|전형)")


# Words of a request to put a stage in the schedule, besides the stage itself.
_STAGE_REQUEST_WORDS = frozenset(
    {"일정", "스케줄", "캘린더", "달력", "시간", "날짜", "내", "나", "저", "제", "거", "것", "그거"}
    # (and of naming it: "제목은 …"; a comparison, "둘 중에 먼저 있는 회사 거", is not
    # read here: that stage is not the one in focus)
    | {"제목", "이름"}
)


def names_only_a_stage(clause: str, focus: dict[str, Any] | None) -> bool:
    """Whether an add names nothing but a stage of the room's posting ("코테 내 일정에
    넣어줘", "온라인 코테 캘린더에"; a quoted title is the user's name for it), not an event
    of the user's own counted from one ("코테 끝나고 회고 일정", "면접 대비 스터디 일정도")."""
    text = unquoted(clause)
    for _, pattern in STAGE_PATTERNS:
        text = pattern.sub(" ", text)
    company = ((focus or {}).get("posting") or {}).get("company") or ""
    allowed = _STAGE_REQUEST_WORDS | set(content_words(company)) | {"온라인", "오프라인"}
    return _nothing_but(text, allowed)


def _nothing_but(text: str, allowed: frozenset[str] | set[str]) -> bool:
    """Whether the text's content words are all `allowed` words or add verbs."""
    said = {w.lower().removesuffix("'s") for w in content_words(text)}
    return not {w for w in said - allowed if not ADD_VERB.search(w)}


# Words of a request to put a stage just told into the schedule, in Korean and English
# ("그거 내 일정에 넣어줘, 공고 시간 그대로", "put it on my schedule, same time as the posting").
_EN_REQUEST_WORDS = (
    "ok okay please pls put add it that this one too also on in to into my the a schedule "
    "calendar same time date as posting with its their and then for me can you could would just"
)
_TOLD_STAGE_WORDS = (
    _STAGE_REQUEST_WORDS | {"공고", "공고문", "그대로"} | set(_EN_REQUEST_WORDS.split())
)


_ITS_OWN_DAY = re.compile(
    r"그\s*(?:날짜|날|시간|일시)(?![가-힣])|그\s*(?:날짜|날)(?=랑|이랑|하고|와|과)|그때"
)


def stage_just_told(clause: str, focus: dict[str, Any] | None) -> dict[str, Any] | None:
    """ "그거 내 일정에 넣어줘", "put it on my schedule" right after the posting's answer told
    one dated stage: that stage, when the clause points back and names nothing else (no
    stage, no event of its own, no day counted from it: "그거 끝나고 회고 일정")."""
    posting = (focus or {}).get("posting") or {}
    if not posting or posting.get("turn") != (focus or {}).get("turn"):
        return None
    text = unquoted(clause)
    # ("그 날짜랑 시간으로 넣어줘" points at the stage's own day; "그 전날" counts from it)
    if not points_back(text) or DAY_POINTER.search(_ITS_OWN_DAY.sub(" ", text)):
        return None
    if any(pattern.search(text) for _, pattern in STAGE_PATTERNS):
        return None
    if not _nothing_but(text, _TOLD_STAGE_WORDS):
        return None
    told = [s for s in posting.get("asked") or [] if s.get("date")]
    return told[0] if len(told) == 1 else None


_THAT_PERIOD = re.compile(
    r"(?<![가-힣])그\s*(?:기간|사이|동안)|(?i:\bthat\s+(?:period|window)\b|\bduring\s+that\s+time\b)"
)


def period_told(clause: str, focus: dict[str, Any] | None) -> tuple[str, str] | None:
    """ "그 기간에 …" right after the posting's answer told one stage that is a period
    ("접수 12.1 ~ 12.15"): its first and last day; None otherwise."""
    posting = (focus or {}).get("posting") or {}
    if not _THAT_PERIOD.search(clause) or posting.get("turn") != (focus or {}).get("turn"):
        return None
    told = [s for s in posting.get("asked") or [] if s.get("date") and s.get("start_date")]
    return (told[0]["start_date"], told[0]["date"]) if len(told) == 1 else None


def posting_stage(text: str, focus: dict[str, Any] | None) -> dict[str, Any] | None:
    """The dated stage of the room's posting a text names: by its type ("코테" is a coding
    test), narrowed by its name ("1차 면접" among the interviews); None when none or
    several fit."""
    posting = (focus or {}).get("posting")
    if not posting:
        return None
    stages = posting.get("stages") or []
    if by_name_undated(text, stages):
        return None  # "그 회사 최종 면접" when the final has no date: not the 1차's
    picked = named_stages(text, [s for s in stages if s.get("date")]) or []
    return picked[0] if len(picked) == 1 else None
