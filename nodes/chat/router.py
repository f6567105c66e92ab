"""Which route a chat message takes: rag (the user's documents), calendar (recruitment
timelines from the user's postings), schedule (the personal schedule tools) or general.

Stage one, no model: keyword rules, then embedding similarity to labelled examples
(`router_examples.jsonl`) with a margin. Stage two, only when both are unsure (or the
message is compound): a tool-calling model works with the tools itself; a model that
cannot call tools picks a route (JSON constrained to the four routes).
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import Any

from text.dates import find_dates, find_when, today_seoul, week_range
from text.korean_text import analysed, content_words, kiwi
from text.organization import rank as rank_organization
from text.sections import DUTIES_ASKED
from text.stages import STAGE_PATTERNS, names_a_stage

ROUTES = ("rag", "calendar", "schedule", "general")
EXAMPLES = Path(__file__).with_name("router_examples.jsonl")

# "make the kakao interview 45 minutes earlier", "set it 30 min later": a move said with
# set/make/have/put, its object an item ("it", "that", "the … interview").
EN_SET_ITEM = (
    r"\b(?:set|make|have|put)\s+(?:it|that|this|the\s+[^\s,.!?]+(?:\s+[^\s,.!?]+){0,3}?)\s+"
    r"(?:\d{1,3}|an?|one|two)\s*(?:hours?|hrs?|minutes?|mins?)\s+(?:earlier|later|sooner)\b"
    r"(?!\s+than)"
)

ADD_VERB = re.compile(
    # (기록 and 저장 as a subject or topic ask for nothing: "기록이 없으니까", "저장이 안 돼";
    # "추가가 필요해요", "등록은 12월 9일로 부탁드려요" still ask)
    r"추가|등록|복구|(?:기록|저장)(?![이가은는의](?![가-힣]))|"
    r"넣어|넣고|잡아|잡고|만들어|적어|남겨|"
    r"ㄱㄱ?(?=\s*$|[!.~])|"
    # the propositive ("스파크 공부 일정 잡자", "넣자"): asked all the same
    r"(?<![가-힣])잡자(?![가-힣])|(?:일정|스케줄|캘린더)\S*\s*(?:넣|만들)자(?![가-힣])|"
    r"박아\s*(?:줘|주세요|주|놔|둬)|"  # "일정 박아줘" (slang)
    r"표시\s*(?:해|좀)|"  # "12월 15일 KB국민은행 서류 마감 표시해줘": marked on the calendar
    # a booking asked for ("건강검진 예약해줘", "미용실 예약 좀 부탁해요"; not "예약했는데", "예약
    # 확인해줘", "예약 취소", "치과 예약해요" told, "예약 부탁받았어", "재예약", "다시 예약")
    r"(?<!재)(?<!다시\s)(?<!다시)예약\s*(?:좀\s*)?"
    r"(?:해\s*(?:줘|주세요|주실|줄래|주라|둬|놔)(?!\s*야)|부탁(?!\s*(?:받|하셨|했|하시더|한대|한다|하더|하래)))|"
    r"(?i:(?<![A-Za-z])(?:add|put|book|save)(?![A-Za-z]))"  # "add해줘" too
)
MOVE_VERB = re.compile(
    r"바꿔|바꾸|변경|수정|옮겨|옮기|미뤄|미루|당겨|당기|늦춰|늦추|고쳐|고치|"
    # what the user says they will do ("6일로 하루 미룰게요", "3시로 옮길게")
    r"(?:미룰|옮길|당길|늦출|바꿀)(?:게|께)|"
    # a time or a day set for an item ("오전 9시로 시간 지정해 주세요"; not an alarm's: "알림
    # 하루 전으로 지정 좀")
    r"(?:시간|날짜|일시|시각)\s*(?:을|를|은|는|도)?\s*지정\s*(?:좀\s*)?"
    r"(?:해\s*(?:줘|주세요|주실|줄래|주라|둬|놔)(?!\s*야)|부탁)|"
    # the value just shown, set ("그 시각으로 맞춰줘", "공고대로 맞춰줘"; not "9시로 맞춰줘"
    # of an alarm, nor "시간 맞춰서 추가해")
    r"(?:(?:그|같은)\s*(?:시간|시각|날짜|날|일시)\s*(?:으로|로)|공고\s*대로)\s*맞춰\s*"
    r"(?:줘|주세요|주실|줄래|주라|놔|둬|ㄱ)|"
    # a value put into an item ("이거 시간 반영해줘", "변경된 시간 반영 부탁")
    r"반영\s*해\s*(?:줘|주세요|줄래|주실)|반영\s*(?:좀\s*)?부탁|반영\s*(?:해|ㄱ+|좀)(?=\s*[.!~]*\s*$)|"
    # a change reported with its new value ("12월 7일 오전 11시로 바뀜", "그 다음날로 바뀌었대")
    r"로\s*(?:바뀌|바뀜|바뀐대|바뀐다|바뀌었)|"
    # "got moved to Dec 11", "was pushed back": the report of a change asks for it too
    r"(?i:\b(?:move|reschedule|postpone|push)(?:d|ed)?\b|\bmake\s+it\b|\bchange\s+it\b|"
    # "rename 카카오 면접 to 카카오 1차 기술면접"
    r"\brename\b|"
    # "change my 네이버 면접 to the date in the posting", "update the study to 8pm" (not a
    # reminder's time or an item's place: "change my interview reminder to 9am")
    r"\b(?:change|update)\s+(?:my|the)\s+"
    r"(?:(?!(?:reminder|alarm|location|place|title|name|memo|note)s?\b)[^\s,.!?]+\s+){1,4}?to\b|"
    # "make the kakao interview 45 minutes earlier", "set it 30 min later" (an item as its
    # object: not "make a reminder …", "set my alarm …", "make sure to be there …")
    rf"{EN_SET_ITEM})"
)
# A new name said with 해줘 ("제목 그냥 라인 면접으로 해줘"): a rename of the item in focus,
# or, beside an add, the added item's name ("… 추가해줘 이름은 카카오 면접으로 해줘").
# (NEW_NAME captures the name: schedule_requests.RENAME reads it with the same words)
NEW_NAME = (
    r"(?:제목|이름)(?:을|를|은|는)?\s+(?:(?:그냥|좀|그럼|차라리)\s+)*"
    r"['\"‘“]?([가-힣A-Za-z0-9][^\n'\"’”]{1,39}?)['\"’”]?(?:으로|로)\s*"
)
BY_HAEJWO = r"(?:[가-힣]+게\s*)?해\s*(?:줘|주세요|줄래)"  # ("짧게 해주세요": how, then 해줘)
# ("이름 '포폴 피드백'으로 줄여줘": a shorter name is a new name too)
RENAME_SAID = re.compile(NEW_NAME + rf"(?:{BY_HAEJWO}|줄여\s*(?:줘|주세요|줄래))")
# An event the message states it has ("…에 면접 있어요", "인터뷰 잡혔어요").
EVENT_STATED = re.compile(
    r"(?:있어요|있습니다|있음|있어(?=[\s.!~]|$)|잡혔|생겼|예정이에요|예정입니다|예정임)"
)
DELETE_VERB = re.compile(
    r"취소|삭제|지워|지우|빼\s*줘|빼\s*주|빼고|빼자|빼요|없애|제거|캔슬|날려|날리|"
    r"(?:지울|뺄)(?:게|께)|"  # "그거 지울게요": what the user says they will do
    # the bare imperative, clipped, of an item ("아까 화요일 거 빼", "그거 빼버려"; not "힘 좀
    # 빼", "자격증 빼")
    r"(?<=[거꺼건것])\s*빼(?:\s*버려|\s*놔)?(?=\s*[.!~ㅋㅎ]*\s*$)|(?<=일정)\s*빼(?=\s*$)|"
    r"(?i:\b(?:cancel|delete|remove|drop)\b)"
)
# A relative move ("1시간 늦춰", "30분 앞당겨", "하루 미뤄", "1시간 일찍"): an update.
SHIFT = re.compile(
    r"(?:(\d{1,2}|한|두|세)\s*시간(\s*반)?|(\d{1,3})\s*분|(하루|이틀|사흘|일주일|\d{1,2}\s*일|\d\s*주))"
    r"\s*(?:씩)?\s*(?:만|정도|쯤)?\s*(?:(늦|미뤄|미루|뒤로|후로|연기|연장)|(앞당|당겨|당기|앞으로|일찍))"
)
SCHEDULE_VERB = re.compile("|".join(v.pattern for v in (ADD_VERB, MOVE_VERB, DELETE_VERB)))
LIST_VERB = re.compile(
    r"보여|알려|조회|확인|정리|목록|볼게|볼래|보자|볼\s*수\s*있|"
    # "12월 면접 일정만 뽑아줘" (not "면접 질문 뽑아줘", "문제 뽑아주기")
    r"(?:일정|스케줄)\S*\s*뽑아\s*(?:줘|주세요|줄래)(?!기)|"
    r"(?i:\b(?:show|list|what'?s\s+on)\b)"
)
# A verb describing an item, not asking for anything ("등록해둔 스케줄", "추가한 일정").
MODIFIER_END = re.compile(
    r"\S*?(?:해\s*둔|해\s*놓은|해\s*놨던|한|된|했던|힌|둔)(?=\s|$)|"
    # whether it was done ("잘 지워졌는지 …", "추가됐는지 보여줘"): a look, not the request
    r"(?:졌|됐|되었|었|았|였)는지"
)
# Where one operation ends and the next begins ("다음주 일정 보여주고 금요일 면접은 ...",
# "카카오 면접 지우고 ...", "... 바꿔줘, 그리고 ..."): an operation verb's "-고", or "그리고"
# after a request's ending. A part that asks for no operation ("그리고 면접 팁도 알려줘" is
# one) is not an operation; a part left with nothing but a verb joins the one before.
OP_STEM = (
    r"(?:지우|바꾸|옮기|미루|당기|늦추|넣|잡|없애|빼|추가하|등록하|삭제하|취소하|변경하|수정하|"
    r"확인하|보여주|알려주|조회하|정리하|제거하|기록하|적|고치)"
)
# The same verbs as they go before 주다 ("변경해 주시고", "지워주고", "옮겨 주세요").
OP_GIVEN = (
    r"(?:지워|바꿔|옮겨|미뤄|당겨|늦춰|넣어|잡아|없애|빼|추가해|등록해|삭제해|취소해|변경해|수정해|"
    r"확인해|보여|알려|조회해|정리해|제거해|기록해|적어|고쳐)"
)
CLAUSE_BREAK = re.compile(
    rf"{OP_STEM}고(\s+|,\s*)|"
    # the polite and the giving forms of an operation verb: "변경해주시고, …", "지워 주시고
    # …", "옮겨주고, …", "확인하시고 …" (not "건강검진 하시고", "선물 사주고")
    rf"{OP_STEM}시고(\s+|,\s*)|{OP_GIVEN}\s?주(?:시)?고(\s+|,\s*)|"
    r"(?:줘|해|요|래|야|어|지|니|[?!]|삭제|취소|추가|등록|변경|캔슬)"
    r"(\s*[,.?!]?\s*(?:그리고|그\s*다음에?|그\s*뒤에?)\s+)|"
    r"(?i:(\s+and\s+)(?=(?:then\s+)?(?:add|move|cancel|delete|remove|show|put|reschedule)\b))"
)
# Every item but some: "X 빼고 다", "X 말고 나머지 전부", "X 제외하고 모두", "X만 남기고
# (나머지)". ("X 말고 다른 거" is one other item, "X 빼고 다음 주에": no "all" after it.)
_ALL_OF = (
    r"(?:나머지(?:는|도|를)?(?:\s*(?:다|전부|모두|싹\s*다))?|전부|모두|싹(?:\s*다)?|"
    r"다(?=\s|$|[.,!?~]|지우|지워|삭제|취소|옮|미뤄|미루|당겨|바꿔|날려|없애|보여|알려))"
)
# (or the items of some days, all of them: "… 빼고 이번 주 거 다", "…만 남기고 그 주 거 다")
_ALL_OF_SET = (
    r"(?:\S+\s+){0,2}?\S*?(?:거|것|꺼|건|일정|스케줄)(?:들)?(?:은|는|도|를|을)?\s*"
    r"(?:다|전부|모두|싹)(?![가-힣])"
)
# (or all of a kind: "카카오 말고 면접 전부 한 시간 미뤄줘")
_ALL_OF_KIND = (
    r"(?P<kind>[가-힣A-Za-z]{2,6}?)(?:들)?(?:은|는|도|을|를)?\s*(?:다|전부|모두|싹)(?=\s|$)"
)
ALL_BUT = re.compile(
    rf"(?:빼고|빼곤|말고|제외하고|외에(?:는)?)[\s,]*(?P<all>{_ALL_OF}|{_ALL_OF_SET}|{_ALL_OF_KIND})"
    rf"|(?<=만)\s*(?:남기고|놔두고|두고)(?:[\s,]*(?P<rest>{_ALL_OF}|{_ALL_OF_SET}))?"
)
# The same in English: "delete everything except the coding study", "cancel all my
# interviews but the Naver one", "except for the study, delete everything", "keep only the
# study and delete the rest"; the words spared end before a comma, a new value, a
# politeness word or another verb. The verb is said in the same clause: before "all"
# (form 1), after the words spared (forms 2 and 3): "that's all but thanks" asks nothing.
_EN_VERB = (
    r"(?:delete|remove|cancel|clear|drop|wipe|erase|move|push|shift|bump|reschedule|change|"
    r"postpone|add|put|show|set)"
)
_EN_ALL = (
    r"(?:all|everything|every\s+thing|every|the\s+rest)"
    # (what "all" is of: "all my interviews", "every event", "all of them")
    r"(?:\s+(?!(?:except|but|other|besides|apart|save)\b)[A-Za-z']+){0,5}?"
)
_EN_SPARED = (
    r"(?P<spared>.+?)(?=\s*(?:[,.!?;]|$)|\s+(?:please|pls|plz|alone|as\s+(?:it\s+)?is|back|"
    r"forward|later|earlier|to|by|until|till|from|on|for|at|\d+|"
    r"(?:an?|one|two|three|half\s+an?)\s+(?:hours?|days?|weeks?|minutes?)|"
    rf"(?:and|but)\s+(?:then\s+)?{_EN_VERB})\b)"
)
_EN_EXCEPT = r"(?:except(?:\s+for)?|but(?:\s+not)?|other\s+than|besides|apart\s+from|save\s+for)"
_ALL_BUT_EN = [
    re.compile(rf"\b{_EN_VERB}\b[^,.!?;]*?\b{_EN_ALL}\s+{_EN_EXCEPT}\s+{_EN_SPARED}", re.I),
    # (the words spared first: "except for the study, delete everything")
    re.compile(
        rf"^\s*{_EN_EXCEPT}\s+{_EN_SPARED}(?=[,\s]+{_EN_VERB}\b.*\b(?:all|everything|the\s+rest)\b)",
        re.I,
    ),
    re.compile(
        rf"\b(?:keep|leave)\s+(?:only\s+|just\s+)?{_EN_SPARED}(?=.*\b{_EN_VERB}\b.*\b(?:the\s+rest|"
        r"everything\s+else|all\s+(?:the\s+)?others?|the\s+others?)\b)",
        re.I,
    ),
]
# Where the words of the items spared begin: after punctuation or "… 중에(서)".
_SPARED_START = re.compile(r".*(?:[,.!?\n]|중에서|중에|중엔|중(?=\s))\s*", re.S)


@dataclass(frozen=True)
class AllBut:
    """ "다음 주 일정 중에 카카오 면접 빼고 다 지워줘": the words of the items spared ("카카오
    면접"), what comes before them ("다음 주 일정 중에") and after the marker ("지워줘")."""

    spared: str
    before: str
    after: str
    kind: str = ""  # what "all" is of, said after the marker ("면접" of "… 말고 면접 전부")

    @property
    def rest(self) -> str:
        return f"{self.before} {self.after}".strip()


def _english_all_but(text: str) -> re.Match[str] | None:
    return next((m for m in (p.search(text) for p in _ALL_BUT_EN) if m), None)


def all_but(clause: str) -> AllBut | None:
    """ "카카오 면접 빼고 다 지워줘": the items spared and the rest of the clause; None when
    the clause does not ask for all but some. The words spared are the (at most four) words
    before the marker, from the clause's start, a comma or "… 중에"; "X만 남기고" with no
    "다/나머지" after it is all but X only when nothing but the verb follows ("네이버 면접만
    남기고 지워줘", not "카카오 면접만 남기고 방금 넣은 거 …")."""
    own = unquoted(clause, in_place=True)  # (a marker is never inside a quote)
    english = _english_all_but(own)
    if english is not None:
        # (the words spared after the marker, as written: a quoted title is the item's)
        spared = clause[english.start("spared") : english.end("spared")].strip(" '\"‘’“”")
        before = own[: english.start("spared")]
        before = re.sub(
            rf"(?i)\s+{_EN_EXCEPT}\s*$|^\s*(?:{_EN_EXCEPT}|(?:keep|leave)"
            r"(?:\s+only|\s+just)?)\s*",
            "",
            before,
        )
        return AllBut(spared, before.strip(), own[english.end() :].strip())
    m = ALL_BUT.search(own)
    if m is None:
        return None
    tail = "all" if m.group("all") is not None else "rest" if m.group("rest") is not None else None
    after = own[m.start(tail) if tail else m.end() :]
    if tail is None and VERB_ONLY.sub("", after).strip(" ,.?!~"):
        return None
    if _ANOTHER_CLAUSE.search(after):
        # "스터디 빼고 다 그대로 두고 스터디만 …", "카카오 면접 빼고 다 괜찮은데 …": what is
        # said of the rest is not the request
        return None
    # (the words spared as written: a quoted title is the item's, "'카카오 면접' 빼고 다")
    before = clause[: m.start()]
    start = _SPARED_START.match(before)
    head = before[: start.end()] if start else ""
    words = before[len(head) :].split()
    spared = " ".join(words[-4:]).strip(" '\"‘’“”")
    if m.group(0).lstrip().startswith(("남기고", "놔두고", "두고")):
        spared = spared.removesuffix("만").strip(" '\"‘’“”")
    if not spared.strip():
        return None
    return AllBut(
        spared,
        " ".join([head.strip(), *words[:-4]]).strip(),
        after.strip(),
        m.group("kind") or "",
    )


# A clause of its own after "X 빼고 다": a connective ending or a sentence's end before more.
_ANOTHER_CLAUSE = re.compile(
    r"\S(?:고|는데|은데|인데|지만|니까|어서|아서|해서|돼서)(?=[\s,])|그대로|[.!?,]\s*\S"
)


# Two moves with one verb: the first part ends with its new value ("…12월 7일로, …").
MOVE_JOIN = re.compile(r"\s*(?:,|그리고|하고)\s+")
NEW_VALUE_END = re.compile(r"(?:으로|로)\s*$")
# "비어 있으면 …": an add that depends on a look at that day first.
IF_FREE = re.compile(
    r"비어\s*있으면|비었으면|없으면|한가하면|(?i:\bif\s+(?:it'?s\s+|i'?m\s+)?free)"
)
# Two events in one add ("12월 3일 오후 1시 SK 서류 제출이랑 12월 5일 ... 토익 시험 일정
# 넣어줘"): a noun joined by 이랑/랑/하고/과/와/and, when both sides name their own date.
# The day of another event ("같은 날 오후 5시", "그날", "카카오 면접 당일").
SAME_DAY = re.compile(r"같은\s*날|그\s*날|당일")
NOUN_JOIN = re.compile(r"(?:이랑|랑|하고|과|와|,)\s+|(?i:\s+and\s+)")
VERB_ONLY = re.compile(
    r"(?:일정|스케줄|캘린더|달력)?\s*(?:에서|에|을|를|도)?\s*"
    rf"(?:{SCHEDULE_VERB.pattern}|{LIST_VERB.pattern})\S*(?:\s*(?:해|줘|주세요|줄래|좀|요))*[\s?.!]*"
)
# A memo: "메모에 '정장 지참' 적어줘", "(메모: 자소서 4문항)", "메모: 오전 중 연락".
MEMO = re.compile(
    # (the memo as a form's field: "메모란에는 '…'이라고 기재해 주십시오")
    r"\(\s*메모\s*[:：]\s*([^)]+?)\s*\)"
    r"|메모(?:\s*(?:란|칸))?(?:에는|에|엔|로|는|도)?\s*(?:좀\s*)?(?:(?:추가|남겨|적어|달아|넣어)\S*\s*)?[:：]?\s*"
    r"['\"‘“]([^'\"’”]+)['\"’”]\s*(?:(?:이)?라고)?"
    # ("memo 추가: …" mixed; "메모도. 신분증 챙기기": the memo said after a full stop)
    r"|(?:메모|(?i:\bmemo))(?:도|는)?\s*(?:좀\s*|하나\s*|한\s*줄\s*|한\s*개\s*)?"
    r"(?:(?:추가|남겨|적어|달아|넣어|해)\S*)?\s*"
    r"(?:[:：]|\s[-–]\s)\s*([^\n]+?)\s*$"
    r"|메모(?:\s*(?:란|칸))?(?:는|로|에|엔|에는)\s+([^'\"‘“\n]+?)\s*(?:(?:이)?라고(?:도|는)?(?:\s*\S+)?|(?:으로|로)?\s*(?:추가\s*)?"
    r"(?:적어|남겨|넣어|써|달아|붙여|해)\S*|(?<=\s)(?:추가|등록)\S*)?"
    # the memo ends where the message goes on to another request ("…, 그리고 X는 삭제")
    r"\s*(?=[^\w\s?'\"’”]*\s*$|,\s*(?:그리고|그\s*다음에?|또|and)\s)"
    r"|(?i:\bmemo\s*[:：]?\s*['\"]([^'\"]+)['\"])"
    # the words first: "'백준 2문제 풀어가기'라고 메모도 남겨주세요", "'포트폴리오 출력본 3부'
    # 메모 남겨줘" (then with the memo's verb after it)
    r"|['\"‘“]([^'\"’”]+)['\"’”]\s*(?:(?:이)?라고\s*메모|메모(?:로|를|도)?\s*(?:좀\s*)?"
    # (a request: "메모해둔 거 뭐였지", "메모 추가된 일정" ask about one)
    r"(?:남겨|추가해|추가|달아|적어|넣어|해)\s*(?=줘|주|줄|놔|둬|ㄱ))"
    # "and add a memo: bring laptop", "note: 2nd floor"
    r"|(?i:\b(?:memo|note)(?:\s+(?:on|to|for)\s+(?:it|that|this|them))?\s*[:：]\s*([^\n'\"]+?)\s*$)"
    # the words in the sentence after the request: "메모 좀 달아줘. 신분증이랑 … 챙기기"
    # (the message's last sentence, one sentence: "…출력해가기. 그리고 …" is another request)
    # ("메모도. 신분증 챙기기": the request said by 도 alone)
    r"|메모(?:도|를|로)?\s*(?:좀\s*)?(?:(?:추가|남겨|적어|달아|넣어)\S*?|(?<=도))[.!]\s+"
    r"([^\n'\"?？.!]+?)[.!]?\s*$"
    # the words unquoted before 이라고: "인적성은 온라인이라고 메모 달아줘"
    r"|(?<![^\s,])([^\s'\"?？,]+?)(?:이)?라고\s*메모"
    # a phrase after the topic it is said of: "장소는 잠실 본사라고 메모해줘"
    r"|(?<=[은는] )([^\s'\"?？,]+(?:\s[^\s'\"?？,]+?){1,3}?)(?:이)?라고\s*메모"
    # the memo changed to the words quoted: "메모를 '올해 캠페인 3개 준비'로 고쳐주시고"
    r"|메모(?:를|을|도)?\s*['\"‘“]([^'\"’”]+)['\"’”]\s*(?:으로|로)\s*(?=고쳐|바꿔|수정|변경)"
)
# (an apostrophe inside an English word is no quote: "naver's requirements don't")
QUOTED = re.compile(r"\"[^\"]*\"|“[^”]*”|(?<![A-Za-z])'[^'\n]*'(?![A-Za-z])|‘[^’]*’|「[^」]*」")
SCHEDULE_WORD = re.compile(r"일정|스케줄|약속|캘린더|달력|(?i:\b(?:calendar|schedule)\b)")
MY_SCHEDULE = re.compile(
    r"(?:내|나의|제)\s*(?:일정|스케줄)|(?:일정|스케줄)(?:이|은|는)?\s*(?:알려|보여|확인|뭐|있|어때|어케|어떻게)|"
    r"(?:무슨|무엇|뭐)\s*(?:일정|약속)|(?:일정|약속)\s*(?:있나|있어\?|잡혀)|"
    r"뭐\s*(?:잡힌|잡혀|잡혔)|잡혀\s*있|"  # "12월에 면접 몇개 잡혀있지"
    # "12월에 잡힌 거 뭐뭐 있어", "앞으로 잡힌 거 다 보여줘"
    r"(?<!공고에\s)(?<!공고상\s)(?<!공고\s)잡힌\s*(?:거|것|게)\s*(?:뭐|다|전부|알려|보여)|"
    # "그날 나 뭐 다른거 있나": what the user has
    r"(?<![가-힣])(?:나|내가|저|제가)\s+(?:그날|그때|그\s*주)?\s*뭐\s*(?:다른\s*)?(?:거|것|일정)?\s*있|"
    r"뭐\s*다른\s*(?:거|것|일정|약속)\s*(?:있|잡)|"
    # "그날 네이버 면접도 있지 않아요?": asked of the room's day, what the user has
    # ("그 주에 다른 면접도 있었나요?", "그 주에 스터디 있나?": of the room's week)
    r"(?<![가-힣])(?:그\s*날\S*|그\s*주(?:에|엔|에는|는|도|의|말)?)\s+(?:\S+\s+){0,3}?\S*\s*"
    r"(?:있지\s*않|있잖|있었지|있었나|있나|있었어|있어\s*[?？]|있는지|있을까)|"
    # "그날 다른 거랑 겹치는지 확인 좀": what else the user has that day
    r"다른\s*(?:거|것|일정|약속)(?:이|랑|이랑|하고|과|와)?\s*(?:안\s*)?겹치|"
    r"(?i:\bmy\s+(?:calendar|schedule|plans)\b)|"
    # "show me all my upcoming interviews": a listing of the user's own (not "how should I
    # prepare for my interviews")
    r"(?i:\b(?:show|list|see|check|what\s+are)\b.*\bmy\s+(?:upcoming\s+|next\s+)?"
    r"(?:interviews|appointments|events|meetings)\b)"
)
# How many days are left until a date ("며칠 남았어?", "D-몇임", "how many days left").
DAYS_LEFT = re.compile(
    r"(?:며칠|몇\s*일|몇일|멫일)\s*(?:정도\s*)?남(?:았|음|은|아\s*있|나)|[Dd]\s*-\s*몇|"
    r"디데이\s*(?:가|는)?\s*(?:며칠|몇|언제)|"
    r"(?i:\bhow\s+many\s+days\s+(?:are\s+)?(?:left|remain\w*|until|till|to\s+go|before)\b|"
    r"\bdays\s+(?:left|remaining|to\s+go)\b)"
)
# The words of a days-left question itself: with nothing else named, it is of the stage the
# room is about ("오늘 기준으로 며칠 남았는지 계산해 주실 수 있나요?"), not of an item of the
# user's own ("코딩 스터디까지 몇일 남았지?").
_DAYS_WORDS = frozenset(
    " ".join(
        (
            "오늘 기준 며칠 몇일 계산 정확 지금 아직 그럼 거기 그거 마감",
            "how many days left till until then remaining go are there is it that",
        )
    ).split()
)


def asks_days_left_only(message: str) -> bool:
    """A question of how many days are left that names nothing but the days and a stage."""
    if DAYS_LEFT.search(message) is None:
        return False
    rest = message
    for _, pattern in STAGE_PATTERNS:
        rest = pattern.sub(" ", rest)
    return all(w.lower() in _DAYS_WORDS for w in content_words(rest))


# "뭐 있어", "뭐 있음", "뭐 있더라" after a day: what the user has on it.
WHAT_ON = re.compile(r"뭐\s*(?:있|잡혀)|(?i:\bwhat\s+do\s+i\s+have\b)")
# The user's own schedule named as such ("내 일정", "my calendar"): never a posting's.
MINE_EXPLICIT = re.compile(
    r"(?:내|나의|제)\s*(?:일정|스케줄|캘린더|달력)|(?i:\bmy\s+(?:calendar|schedule)\b)|"
    # a period's schedule shown: the user's own ("다다음주 일정 보여줘", "12월 일정을 한번
    # 확인해 주시겠어요?"); a posting's dates are asked of the posting, not of a period
    r"(?:이번|다음|담|다다음|지난|저번)\s*(?:주|달)\s*(?:일정|스케줄)\S*\s*(?:좀\s*|한번\s*|다시\s*)*"
    r"(?:보여|확인|알려|봐)|"
    r"\d{1,2}\s*월\s*(?:일정|스케줄)\S*\s*(?:좀\s*|한번\s*|다시\s*)*(?:보여|확인|알려|봐)"
)
# The items the user set ("12월에 잡힌 일정 전부 보여주세요", "등록해 둔 스케줄"), in a sentence
# that names no posting, company stage or recruitment word ("카카오 공고상 잡힌 일정", "카카오
# 서류 마감이랑 코테 잡힌 일정" are a posting's).
_SET_BY_USER = re.compile(
    r"(?:잡힌|잡혀\s*있는|등록된|등록해\s*둔|넣어\s*둔|저장된|저장해\s*둔)\s*"
    r"(?:일정|스케줄|(?:거|것|게)(?![가-힣]))"  # ("12월에 잡힌 거 뭐뭐 있어")
)


def _mine_explicit(text: str) -> bool:
    """Whether a text says the schedule asked for is the user's own."""
    if MINE_EXPLICIT.search(text):
        return True
    return any(
        _SET_BY_USER.search(sentence)
        and "공고" not in sentence
        and not RECRUIT_WORD.search(sentence)
        and not names_a_stage(sentence)
        for sentence in re.split(r"[.!?\n]+", text)
    )


RECRUIT_WORD = re.compile(
    r"코딩\s*테스트|코테|서류\s*(?:마감|접수|발표)|마감일?|접수|지원\s*기간|전형|합격\s*발표|발표일|"
    r"채용\s*(?:일정|프로세스|절차|과정|스케줄)|면접\s*(?:일정|날짜|언제)|공고\s*일정|"
    r"(?i:\b(?:deadline|hiring\s+(?:timeline|process|schedule|stages?)|coding\s+test|"
    r"application|stages)\b)"
)
WHEN = re.compile(
    r"언제|며칠|몇\s*일|몇\s*시|날짜|일정이|마감이|까지야|까지인지|무슨\s*요일|몇\s*요일|"
    r"(?:시작|마감|끝)(?:했|됐|하나|해\?|이야|인가)|"
    r"(?i:\bwhen\b|\bwhat\s+time\b|\bdates?\b)"
)
# The user's own documents: a document word with a sign that it is theirs ("내 이력서",
# "이력서에 적은", "올린 포트폴리오"), or what a posting they hold says.
OWN = r"(?:내|제|나의|저의|올린|적은|쓴|써\s*둔|적어|썼|넣었|넣은|기준|(?i:\bmy))"
# The user's documents by their names.
DOC_NAME = r"(?:이력서|자소서|자기\s*소개서|포트폴리오|포폴|경력\s*기술서)"
USER_DOC = re.compile(rf"{DOC_NAME}|(?i:\b(?:resume|cv|portfolio|cover\s+letter)\b)")
DOC_NOUN = (
    rf"(?:{DOC_NAME}|문서|경력|프로젝트|플젝|경험|"
    r"(?i:resume|portfolio|cover\s+letter|cv))"
)
DOC_WORD = re.compile(
    rf"{OWN}\s*{DOC_NOUN}|{DOC_NOUN}(?:에|에서|의)?\s*(?:\S+\s*)?{OWN}|"
    # "이력서에 레디스 얘기 있어?", "포폴에 배포 링크 나와?": what the document holds
    + DOC_NAME
    + r"(?:에|에는|엔)\s.*"
    r"(?:있어|있나|있음|있던가|있었나|나와|나오|들어가|들어있|적혀|써\s*있)|"
    r"공고(?:에서|의|에\s*나온)|요구\s*(?:사항|조건|기술)|우대\s*사항|자격\s*요건|강조할|"
    # what of the documents is worth showing ("어필할 만한 거"), not how to show it ("어떻게
    # 어필하면 좋을까", "어필하는 법": advice)
    r"(?<!어떻게 )(?<!어떻게)(?<!어케 )(?<!어케)어필(?!\s*하는\s*법|\s*하는\s*방법|\s*방법)|"
    r"담당\s*업무|주요\s*업무|업무\s*내용|"
    + DUTIES_ASKED.pattern
    + r"|복지|근무\s*(?:지|조건|형태|환경)|기술\s*스택|"
    # what else a posting states: its headcount, its contact
    r"몇\s*명\s*(?:뽑|채용|모집)|(?:채용|모집)\s*인원|"
    r"담당자\s*(?:이메일|메일|연락처|번호)|이메일\s*주소|연락처|"
    # the same parts in English ("what are the requirements in the kakao posting?")
    r"(?i:\b(?:requirements|qualifications|responsibilities|benefits|nice\s+to\s+have|"
    r"tech\s+stack|(?:do|does)\s+(?:they|it|the\s+\w+)\s+(?:require|ask\s+for|want(?!\s+(?:me|us)\b)|prefer))\b)"
)
# The user recalling what they wrote ("몇 프로 줄였다고 했지 내가", "학교 어디 나왔다고
# 썼지?", "몇 분까지 줄였다고 써놨더라"): their documents, unless a schedule or a date is
# asked for.
# A verb asked about in the past: whether the user did it ("메모에 입사 가능 시기도 적어
# 놨었나?", "거기 넣어 뒀지?", "남겨 놓았던가"), a question about what is written.
DONE_BEFORE = re.compile(
    r"\s*(?:놨|놓았|뒀|두었)(?:었)?\s*(?:나|지|더라|던가|니|냐|는지|어\s*\?|나요|죠|던가요)"
)
RECALLED = re.compile(
    r"(?:다고|라고|이라고)\s*(?:했지|했더라|썼|적었|써\s*놨|써\s*뒀|적어\s*놨|적어\s*뒀|넣었)|"
    r"(?:썼|적었|넣었)(?:지|더라|던가|었나|나)|써\s*놨더라|적어\s*놨더라|"
    rf"(?:적어|써|넣어|남겨){DONE_BEFORE.pattern}|"
    # how much the user's own work changed something ("배포 시간 얼마나 줄였지?"): only their
    # documents say it
    r"얼마(?:나)?\s*(?:줄|늘|단축|개선|향상|올렸|높|낮|절감|감소|증가)\S*(?:였|었|했)(?:지|더라|던가)|"
    # what a text is said to state: "뭐가 좋아졌다고 돼있음?", "몇 명이라고 나와 있어?"
    r"(?:다고|라고|이라고)\s*(?:돼|되어|적혀|써|나와)\s*있|"
    # what the user did, asked in English: "what did I use to speed up the settlement batch?"
    # (not "what did I do last week?": the schedule's)
    r"(?i:\b(?:what|which|how)\s+(?:\w+\s+)?did\s+I\s+(?:use|build|make|cut|improve|reduce|"
    r"achieve|speed)\b|\bhow\s+much\s+did\s+I\b)"
)
# A posting's sequence of steps asked about ("카카오 코테 다음 단계는 뭐야?", "전형 절차
# 어케됨", "면접 몇 번 봐?"): its timeline, even in the words of a knowledge question.
STAGES_ASKED = re.compile(
    r"다음\s*(?:단계|전형|스텝|절차)|(?:전형|채용)\s*(?:절차|과정|순서|단계)|"
    r"면접\s*(?:을|은)?\s*몇\s*(?:번|차)|몇\s*차\s*(?:까지|면접)"
)
# In general, not about a posting the user holds ("보통 대기업 공채 마감은 언제쯤 해?").
GENERALLY = re.compile(
    r"보통|일반적으로|대개|대체로|흔히|"
    # what interviews ask most ("면접에서 자주 나오는 질문", "많이 물어보는 거")
    r"(?:자주|많이)\s*(?:나오|묻|물어|하는\s*질문|받는)|"
    # what an interview asks ("데이터 엔지니어 면접에서 Spark 관련해서 뭐 물어봐?")
    r"면접(?:에서|에선|때)\s+(?:\S+\s+){0,3}?(?:뭐|무슨|어떤)\s*(?:\S+\s+)?"
    r"(?:물어\s*(?:봐|보는|보나|볼)|묻는|나와|나오는|나오나)|"
    r"(?i:\b(?:usually|typically|in\s+general|commonly|most\s+common)\b)"
)
# Years of experience asked ("경력 몇 년 이상 뽑아?", "몇 년차 뽑는대", "경력은 몇 년이야"): a
# posting's requirement or the resume's career, never a date.
YEARS_ASKED = re.compile(
    r"몇\s*년\s*(?:이상|차|넘|정도\s*(?:뽑|요구|원))|경력\s*(?:은|이|을)?\s*몇\s*년"
)
# The posting's own word for its dates ("공고상 코테 날짜", "공고 기준으로"): calendar, even
# beside "내 캘린더랑 겹치는지".
BY_POSTING = re.compile(
    r"공고\s*상|공고\s*기준|공고에\s*(?:나온|따르면|적힌)|공고에서\s*(?:확인|보면|봐|찾아)|"
    # "카카오 공고에서 코테 몇시야", "공고의 면접 날짜" (with a stage and a time word)
    r"공고(?:에서|의)(?=\s)|"
    # "공고에 며칠로 나와있어?", "공고엔 몇 시라고 적혀 있어?"
    r"공고에(?:는|선|서)?\s+(?:\S+\s+){0,2}?\S*(?:나와|나온|적혀|적힌|쓰여|써\s*있)|"
    r"(?i:according\s+to\s+the\s+posting)"
)
# A document's part asked again ("포트폴리오의 … 설명 다시 보여줘"): the user's own document.
DOC_PART = re.compile(
    rf"{DOC_NOUN}(?:의|에\s*있는|에\s*쓴|에서)\s.*(?:다시|보여|요약)|"
    # "자소서 장단점 부분은 뭐라고 돼있었지?": a part of the document and what it says
    rf"{DOC_NOUN}(?:의|에)?\s+\S+\s*(?:부분|항목|섹션|란)(?:은|는|에|에서|이|엔)?\s|"
    rf"{DOC_NOUN}.*뭐라고\s*(?:돼|되어|써|적|나와|했)"
)
# The dates a posting gives ("공고에 나온 주요 날짜만 뽑아줘"): its timeline, not its content.
POSTING_DATES = re.compile(
    r"공고.{0,12}(?:날짜|일정|스케줄|기간|마감)"
    # "What are the dates in the Naver posting?", "the kakao posting's deadlines"
    r"|(?i:\b(?:dates?|deadlines?|schedule|timeline)\b.{0,30}\bposting\b"
    r"|\bposting'?s?\s+(?:dates?|deadlines?|schedule|timeline)\b)"
)
OWN_DOC = re.compile(rf"{OWN}\s*{DOC_NOUN}")
INTO_DOC = re.compile(rf"(?:{DOC_NAME}|지원서)(?:에|에다|에다가|에도|에는)(?![가-힣])")
# A question about a figure or wording a document states ("배포 자동화 쪽은 수치가 어떻게
# 돼?", "뭐라고 돼 있었지?", "몇 배 늘렸다고"): asked of the document the room was reading.
CONTENT_ASKED = re.compile(
    r"(?:수치|숫자|성과|결과|기간)\S*\s*(?:가|는|은|이)?\s*어떻게\s*(?:돼|되|나와)|"
    r"뭐라고\s*(?:돼|되어|써|적|나와)|몇\s*(?:년|명|개|프로|퍼센트|시간|분|배)|"
    r"얼마(?:나)?\s*(?:줄|늘|단축|개선|올|향상)"
)
# A question about what a text says ("…래?", "돼 있어?", "뽑아?", "필요해?", "가능해?"):
# its content, not a date.
ABOUT_CONTENT = re.compile(
    r"(?:대|래|냐|니|나|어|아|야|해|돼|음|임|됨)\s*[?？]|돼\s*있|되어\s*있|나와\s*있|적혀|써\s*있|"
    r"몇\s*(?:년|명|개|프로|퍼센트)|가능|필요|요구|뽑"
)
# "무슨 직무야", "어떤 포지션 뽑아?", "what role is it": the job a posting is for (not what
# the job does: DUTIES_ASKED).
ROLE_ASKED = re.compile(
    r"(?:무슨|어떤|어느|뭔)\s*(?:직무|포지션|직군|자리|분야|부문)|(?:직무|포지션|모집\s*부문)\s*(?:이|가|은|는)?\s*(?:뭐|무엇|어디)|"
    r"(?i:\bwhat\s+(?:role|position|job)\b|\bwhich\s+(?:role|position)\b)"
)
# What a posting says, asked in English: "does the Naver posting say/mention/require …",
# "what does the kakao JD ask for".
POSTING_SAYS_EN = re.compile(
    r"(?i)\b(?:posting|job\s+ad|jd)\b.{0,40}?\b(?:say|says|mention|mentions|require|"
    r"requires|want|wants|ask\s+for|asks\s+for|need|needs|list|lists|expect|expects)\b"
)
# Whether a text says something ("…있다고 써있음?", "… 적혀 있어?", "… 나와 있나?").
SAYS_SO = re.compile(r"써\s*있|적혀\s*있|나와\s*있|언급")


def _says_more(text: str) -> bool:
    """Whether a question about a posting asks about more than its stages and dates ("코테
    언어 제한" does; "마감일 나와 있어?" asks the calendar): a common noun left once the
    stages, the timing words and the posting's own words are taken out."""
    rest = RECRUIT_WORD.sub(" ", WHEN.sub(" ", SAYS_SO.sub(" ", text)))
    for _, pattern in STAGE_PATTERNS:
        rest = pattern.sub(" ", rest)
    # (and the words of when, in what order and by what: "면접 일자", "코테 시간", "먼저야",
    # "공고 기준"; not "면접 기준", the criteria)
    rest = re.sub(
        r"채용|모집|공고|일정|날짜|기간|발표|마감|일자|일시|시간|시각|먼저|순서",
        " ",
        BY_POSTING.sub(" ", rest),
    )
    return any(t.tag == "NNG" and len(t.form) >= 2 for t in kiwi().tokenize(rest))


# What a posting may require of an applicant ("경력 3년", "포트폴리오 링크", "토익 점수").
_REQUIRED = re.compile(
    r"경력|학력|학위|전공|자격|포트폴리오|포폴|링크|제출|어학|토익|오픽|필수|\d+\s*년"
)
_APPLYING = re.compile(r"지원|공고|채용|서류|뽑|모집")
# Checking that something is on one's days ("다음 주에 면접 있는 거 맞지?").
CONFIRM_HAVE = re.compile(r"(?:있는|잡힌|잡혀\s*있는)\s*(?:거|게|것)\s*맞")
# Asking what one should do ("넣는 게 나을까?", "써야 할까?"), even about a document: advice.
SHOULD_I = re.compile(
    r"(?:는|은)\s*게\s*(?:나을까|좋을까|나은가|좋은가|맞을까|낫나)|"
    # (not the copula's "…이상이어야 돼?": what a posting requires)
    # (a stem ending in 애/에 contracts: "넥타이 매야 돼?", "서류 내야 하나")
    r"(?<=[가-힣])(?<!이)(?<!이어)(?:어야|아야|해야|워야|러야|(?<=[개내매배새재채태패게세레메베제])야)\s*"
    r"(?:할까|하나|되나|돼|될까|될지|할지|하는지|되는지|"
    # (clipped: "정장 꼭 입어야됨?", "가야되냐")
    r"(?:됨|되냐|하냐|함)(?=\s*[?？]))"
)
# A value given with 해줘 ("11시로 해줘", "금요일로 해 주세요", "6시로 부탁").
VALUE_GIVEN = re.compile(r"(?:으로|로)\s*(?:해\s*(?:줘|주세요|줄래|주실|주라)|부탁)")
# Asking what one should say ("주말 근무 된다고 해야됨?", "뭐라고 대답해야 할까"): advice.
WHAT_TO_SAY = re.compile(
    r"(?:다고|라고|냐고|자고)\s*(?:말|얘기|대답|답)?\s*(?:을\s*|를\s*)?(?:해야|하는\s*게)|"
    r"뭐라고\s*(?:말|얘기|대답|답|설명)\S*\s*(?:해야|하는\s*게|하면)"
)
# Asking whether one may ("지워도 될까?", "빼도 돼?"): a question, not a request.
MAY_I = re.compile(
    r"(?:어도|아도|해도|워도|줘도|(?<=[가-힣])도)\s*"
    r"(?:될까|되나|되냐|되려나|돼|됨|되요|돼요|괜찮|ㄱㅊ|될지|되겠)"
)
# A question about what the assistant can do ("너 내 이력서 볼 수 있냐", "can you see my
# resume?"), not a request phrased politely ("알려줄 수 있어?" asks for the answer).
CAPABILITY = re.compile(
    r"(?:^|\s)(?:너|넌|니가|네가|너는)\s(?:.*\s)?(?:볼|읽을|접근할|기억할|저장할|읽어올)\s*수\s*(?:있|없)|"
    # what can be done here ("여기서 일정 수정도 돼?", "너 일정 삭제도 할 수 있어?")
    r"(?:^|\s)(?:여기서|여기선|여기에서|이\s*앱에서|너|넌|너는)\s+(?:일정|스케줄|캘린더)\S*\s+"
    r"(?:수정|삭제|추가|등록|변경|편집)(?:도|은|는)?\s*(?:돼|되나|되니|되냐|됨|가능|할\s*수\s*있)\S*\?|"
    r"(?i:\bcan\s+(?:you|u)\s+(?:actually\s+|really\s+)?(?:see|read|access|remember|store)\b|"
    r"\bwhat\s+can\s+(?:you|u)\s+(?:actually\s+|really\s+)?do\b"
    r"(?!\s+(?:to|for\s+my|when|with|if|about|before|after)\b)|"
    # "what kinds of things can you help me with?", "what do you help with?"
    r"\bwhat\s+(?:kinds?\s+of\s+|sorts?\s+of\s+)?(?:things\s+|stuff\s+)?(?:can|do)\s+(?:you|u)\s+"
    r"help\s+(?:me\s+)?with\s*\??\s*$)"
)
# Who made the assistant and what happens to the user's data ("넌 누가 만든 거야? 내 정보
# 어디 저장돼?", "여기 올린 이력서 개인정보 안전해?"): about the service, whatever it names.
ABOUT_SERVICE = re.compile(
    r"(?:넌|너는?|니가|네가)\s*누가\s*(?:만들|만든|만듦|개발)|"
    # "내가 올린 이력서 같은 거 어디 저장돼?": where what was uploaded is kept
    r"(?:올린|업로드한|올려\s*둔)\s*(?:\S+\s+){0,3}어디(?:에|다)?\s*(?:저장|보관)|"
    r"(?:개인\s*정보|내\s*정보|내\s*데이터)\S*\s*(?:는|은|가|이)?\s*(?:어디|안전|저장|보관|괜찮|걱정|유출)|"
    # where the assistant keeps what was uploaded: "내가 올린 이력서 너가 어디 저장하는 거야?"
    r"(?<![가-힣])(?:넌|너는?|너가|니가|네가)(?![가-힣])\s*(?:\S+\s+){0,2}어디(?:에|다)?\s*"
    r"(?:저장|보관|보내|공유)|"
    r"(?i:\bwho\s+(?:made|built)\s+you\b|\bprivacy\b|\bis\s+my\s+data\s+safe\b)"
)
# Words that make a clause a question ("메모에 뭐라고 적었지": asked, not written).
WH_WORD = re.compile(r"뭐|뭘|무엇|무슨|어떤|언제|얼마|몇|(?i:\b(?:what|when|which)\b)")
ASK = re.compile(r"알려|정리|보여|어떻게\s*돼|확인|(?i:\b(?:list|show|tell)\b)")
# Advice on preparing ("코딩테스트 준비는 어떤 순서로 하면 좋아?"): general, even when it
# names a recruitment stage, unless it asks when or acts on a schedule.
PREPARE = re.compile(r"준비|공부|대비|연습")
HOW = re.compile(r"어떻게|어케|어떤\s*순서|방법|팁|뭘|뭐부터|무엇을|요령")
# General questions: knowledge ("… 차이 설명해줘", "왜 빨라져?"), advice ("… 어떻게 시작하면
# 좋을까?", "… 팁 있어?", "보통 얼마나"), and feelings ("오늘 너무 피곤하다"): none asks for the
# user's documents, schedule or a posting's dates.
KNOWLEDGE = re.compile(
    r"설명(?!회)|차이|뭐가\s*달라|다른\s*점|(?:^|\s)왜\s|개념|원리|종류|장단점|뭐고|란\s*뭐|이란\s|"
    r"뭐가\s*(?:나아|낫|좋아|더)|추천(?:해|좀|할|해줄)|"
    r"(?i:\b(?:explain|difference|what\s+is|what\s+are|recommend)\b)"
)
# "STAR 기법이 뭐야?": a term asked about; general unless the thing asked is a schedule,
# a date or the user's document ("내일 일정이 뭐야?" is not).
WHAT_IS = re.compile(
    r"[가-힣A-Za-z)]\s*(?:이|가|는|은|란|이란)\s*(?:뭐야|뭐예요|뭔가요|무엇인가요|뭐지|뭐임)"
)
# Talk to the assistant itself: greetings, thanks, who it is and what it can do.
SMALL_TALK = re.compile(
    r"^(?:안녕|하이|반가|고마|감사|ㅋㅋ|ㅎㅎ|오케이|ㅇㅋ|굿)|너는?\s*누구|누구(?:야|세요|니)|농담|심심|"
    # the weather
    r"날씨|(?i:\bweather\b)|"
    # leaving: "잘자~ 내일 또 올게", "다음에 봐", "good night"
    r"잘\s*자|잘\s*있어|또\s*올게|(?:다음에|내일|이따)\s*(?:봐|보자|만나)|"
    r"(?i:\b(?:bye|good\s*night|see\s+you)\b)|"
    r"(?:뭘|무엇을|뭐|무슨\s*일을?)\s*(?:할\s*수\s*있|해\s*줄\s*수|도와)|"
    r"^(?:ㄳ|ㄱㅅ|땡큐)|"
    # nothing but a reply that takes note or leaves: "ㅇㅇ 알겠어 ㅂㅂ", "넵 알겠습니다", "ok bye"
    r"^(?:(?:ㅇㅇ|ㅇㅋ|ㅇㅇㅇ|넵|네네?|응+|웅|오키|알겠(?:어요?|습니다|음)?|알았(?:어요?|습니다|음)?|"
    r"ㅂㅂ|ㅃㅃ|바이(?:바이)?|수고(?:하세요|해)?|좋아(?:요)?|그래(?:요)?|(?i:ok(?:ay)?|got\s+it))"
    r"[\s!.,~ㅎㅋ^]*)+$|"
    r"(?i:\b(?:who\s+are\s+you|what\s+can\s+you\s+do|thanks?|thx|thnx|tysm|thank\s+you|hello|hi)\b)"
)
ADVICE = re.compile(
    r"(?:쓸|작성할|준비할|볼)\s*때|실수|주의할|팁|요령|노하우|방법|보통|불리|유리|어떻게\s*(?:해|하면|하는|시작|써|쓰|대처|준비|말)|어케|"
    r"하면\s*좋|게\s*좋아|좋을까|괜찮을까|(?:할|될)\s*수\s*있을까|"
    # an opinion or a choice asked ("이직하는 거 어떻게 생각해?", "어디가 커리어상 나을까요")
    r"어떻게\s*생각|나을까|나을지|나은지|낫나|(?i:\bwhat\s+do\s+you\s+think\b)|"
    # what one should say or must do ("뭐라고 해야 됨", "정장 꼭 입어야 돼?")
    r"뭐라고\s*(?:해야|하면|답|말)|꼭\s*(?:\S+\s+)?\S+야\s*(?:돼|되|하나|해)|"
    # whether one may ("거기 지원해도 됨?", "걍 빼도 돼?", "넣어도 괜찮아?"), and manners
    # ("면접 때 물어봐도 실례 아닌가요?")
    rf"{MAY_I.pattern}|실례|무례|예의|매너|"
    r"(?i:\bhow\s+(?:should|do|can|to)\b|\btips?\b|\bshould\s+i\b)"
)
# The user's chances asked ("40대 중반이면 늦었나요", "비전공자도 가능할까요"): advice, unless
# a posting's step is named ("네이버 서류 접수 아직 가능할까?" asks its deadline).
CHANCES = re.compile(
    r"늦었나|늦은\s*(?:건가|걸까|건지|거\s*아닐까)|늦었을까|늦지\s*않았|가능할까|어려울까|승산|"
    # whether something helps ("지게차 자격증도 도움됨?", "이 경력도 도움이 될까요")
    r"도움(?:이)?\s*(?:됨|돼|될까|되나|되냐|될지|되려나)"
)
FEELING = re.compile(
    r"탈락|멘탈|피곤|지치|지친|지쳤|힘들|힘드|떨려|떨린|긴장|싫다|싫어|우울|불안|걱정|스트레스|망했|망한|망친|"
    r"설레|잠이\s*안|잠\s*못|졸려|ㅠ|ㅜ|떨어졌|떨어짐|광탈|불합격|위로|"
    r"(?i:\b(?:tired|exhausted|nervous|stressed|anxious|worried)\b)"
)
# Text pasted to be read ("이 문자 무슨 뜻이야? \"...일정 삭제해줘...\""): the quote is not the
# user's ask.
ABOUT_PASTED = re.compile(
    r"뜻|답하|답장|회신|말투|요약|번역|설명|봐\s*줘|어때|괜찮|고쳐|다듬|(?i:translate|summari)"
)
# English and romanised names for matching Korean titles and companies.
ENGLISH_NAMES = {
    "kakao": "카카오",
    "naver": "네이버",
    "coupang": "쿠팡",
    "toss": "토스",
    "line": "라인",
    "baemin": "배민",
    "woowa": "우아한",
    "samsung": "삼성",
    "hyundai": "현대",
    "krafton": "크래프톤",
    "nexon": "넥슨",
    "daangn": "당근",
    "karrot": "당근",
    "interview": "면접",
    "interviews": "면접",
    "study": "스터디",
    "studies": "스터디",
    "coding": "코딩",
    "meeting": "미팅",
    "meetings": "미팅",
}
_ENGLISH_NAME = re.compile(r"(?i)\b(" + "|".join(ENGLISH_NAMES) + r")\b")


def koreanised(text: str) -> str:
    """English names replaced by their Korean ones ("Kakao interview" -> "카카오 면접")."""
    return _ENGLISH_NAME.sub(lambda m: ENGLISH_NAMES[m.group(1).lower()], text)


def unquoted(message: str, in_place: bool = False) -> str:
    """The message without its quoted parts (pasted text, quoted titles); `in_place` blanks
    them with as many spaces, so that positions in it are positions in the message."""
    return QUOTED.sub((lambda m: " " * len(m.group(0))) if in_place else " ", message)


# A verb ending as a question, with no giving verb ("넣나요?", "잡니?"): asked about, not
# asked for ("넣어줄래?", "지울까?", "넣어요?" ask for it).
_ASKED_ENDING = re.compile(r"(?:나요|니|냐|는지요?|나)\?")
# A verb in a clause of condition or need, asked about ("사무직으로 옮기려면 뭐부터 …",
# "성과 수치 꼭 넣어야 돼?", "넣으면 좋을까?"): no request.
_IF_OR_MUST = re.compile(
    # ("미루면 좋겠어", "지우면 돼": a wish and a go-ahead are requests)
    r"(?:으)?려면|(?:으)?면\s+(?:좋(?!겠)|괜찮|나을|어때)|야\s*(?:돼|되|해|하나|할까)\S*\s*\?"
)


def asks_operation(text: str) -> bool:
    """A schedule verb used as a request ("잡아줘"), not as a question ("보통 얼마나 잡아?",
    "메모에 적어 놨었나?")."""
    return bool(RENAME_SAID.search(text)) or any(
        not text[m.end() : m.end() + 3].lstrip().startswith("?")
        and not _ASKED_ENDING.match(text, m.end())
        and not _IF_OR_MUST.match(text, m.end())
        and not MODIFIER_END.match(text, m.end())
        and not DONE_BEFORE.match(text, m.end())
        and not (_GO_ON.fullmatch(m.group(0)) and not _of_a_day(text))
        for m in SCHEDULE_VERB.finditer(text)
    )


# "ㄱㄱ" (go on) urges whatever the message asks; it asks for a schedule operation only of a
# day, a time or the schedule ("낼 저녁7시 헬스 ㄱㄱ", "담주 스케줄 ㄱ"), not of advice
# ("면접에서 어필하는법 짧게ㄱㄱ").
_GO_ON = re.compile(r"ㄱㄱ?")
# An item pointed at or counted in a list ("그거", "맨 아래 거", "두 번째 거", "오전 거").
_POINTED = re.compile(
    r"(?<![가-힣])(?:그|이|저)\s*(?:거|것|건|일정)|(?:맨|제일|가장)\s*\S+\s*(?:거|것|건)|"
    r"(?:첫|두|세|네)\s*(?:번째|번\s*째)|(?:오전|오후|저녁|아침)\s*(?:거|것|건)|방금|아까"
)


def _has_time(text: str) -> bool:
    return find_when(text, today_seoul()).time is not None


def _of_a_day(text: str) -> bool:
    return bool(SCHEDULE_WORD.search(text)) or has_when(text)


# "메모 강남 투썸": the word 메모 and the memo, nothing else (no request, no question)
# "메모 안전화 지참", "그거 메모 안전화 지참", "방금 넣은 거 메모 신분증": a memo's words after
# the bare word, the item pointed at before it
_BARE_MEMO = re.compile(
    r"^\s*((?:그거|그것|이거|이것|저거|그\s*일정|이\s*일정|(?:방금|아까)\s*(?:넣은|추가한|잡은)\s*"
    r"(?:거|것|일정))(?:에|에다가?|엔)?\s+)?메모\s+(\S.{0,60}?)\s*$"
)


# A memo of what the clause before it said ("…금식이라고 하니, 그 내용도 메모로 남겨 주시겠어요?",
# "준비물이 신분증하고 최종학력증명서라고 되어 있으니, 그것도 메모로 …"): those words.
_MEMO_OF_SAID = re.compile(
    r"^(?:그리고|아|그럼)?\s*(?P<said>\S.*?)(?:(?:\s*(?:이)?라고|(?<=다)고)\s*"
    r"(?:하니|되어\s*있으니|돼\s*있으니|해서|하던데)"
    r"|(?:이)?래서)\s*,?\s*(?:그|이)\s*(?:내용|것|거)(?:도|을|를)?\s*(?:함께\s*|같이\s*)?메모"
)


# A memo of what the sentence before a bare request for one says must be done ("이력서 출력
# 해야 돼요. 메모 해 주세요", "신분증 챙겨야 함 메모 좀"): that duty.
_MEMO_OF_DUTY = re.compile(
    r"^(?:그리고|아|그럼)?\s*(?P<said>[^.!?\n]{2,60}?(?:어야|아야|여야|해야|야)\s*"
    r"(?:돼|되|해|하|함|됨|겠)[^\s.!?]*)\s*[.!~]*\s*(?:그거\s*|그것도\s*|이거\s*)?(?=메모)"
)


# The rest of a memo asked for of what was said: its request, then only politeness
# ("로 남겨 주시겠어요?", "로 함께 적어주실 수 있을까요? 제가 깜빡깜빡해서요.", "로 부탁해요").
_MEMO_ASKED_LAST = re.compile(
    r"\s*(?:로|에|에도|로도)?\s*(?:좀\s*|함께\s*|같이\s*)?"
    r"(?:남겨|적어|달아|추가|넣어|부탁|해\s*(?:줘|주세요|주실|주시|줄래))[^,\n]*$"
)
# A change told ("12월 9일로 바뀌었다고", "연기됐다고"): a request of its own, no memo.
_CHANGE_TOLD = re.compile(r"바뀌|바꼈|변경|연기|옮기|옮겨|미뤄|미루|당겨|당기|취소")


def _names_an_item(words: str) -> bool:
    """Whether the words name an item of their own ("카카오 면접 장소가 …": an event noun,
    `_TOLD_EVENT`, with a company)."""
    return bool(_TOLD_EVENT.search(words) and rank_organization(words))


def _note_words(words: str) -> bool:
    """Words of a note: nouns, foreign words and numbers only ("안전화 지참", "10시 도착")."""
    tokens = analysed(words)
    # (no predicate, ending or trailing particle: "틀렸어", "고마워", "카카오 면접에도"; the
    # analyser may read a noun's first syllable as an adverb: "안전화" as 안 + 전화)
    tags = [t.tag for t in tokens]
    # (a verb made a noun is a note's: "작업화 챙기기")
    said = [
        tag
        for tag, after in zip(tags, [*tags[1:], ""], strict=True)
        if (tag.startswith(("V", "XSV", "XSA")) and after != "ETN")
        or (tag.startswith("E") and tag != "ETN")
    ]
    return (
        any(tag.startswith(("NN", "SL", "SN")) for tag in tags)
        and not said
        and not tags[-1].startswith("J")
    )


def _as_memo(said: str) -> str:
    """Words told in reported speech as a memo: a request's verb stem made a noun ("신분증
    챙기(라고)" -> "신분증 챙기기", "늦지 말(라고)" -> "늦지 말기"); a duty the same way
    ("신분증 챙겨야 함" -> "신분증 챙기기", "이력서 출력 해야 돼요" -> "이력서 출력"); a
    statement as it is."""
    tokens = analysed(said)
    duty = next(
        (i for i, t in enumerate(tokens) if t.tag == "EC" and t.form in ("어야", "아야")), None
    )
    if duty:
        verb = tokens[duty - 1]
        if verb.tag == "XSV" and duty > 1 and tokens[duty - 2].tag.startswith("NN"):
            return said[: verb.start].strip()  # "출력 해야" -> "출력"
        if verb.tag.startswith("VV"):
            return f"{said[: verb.start]}{verb.form}기"
    if tokens and tokens[-1].tag in ("VV", "VX") and not said.endswith("다"):
        return f"{said}기"
    return said


def _said_as_memo(message: str) -> str | None:
    """The memo a request for one takes from the words said before it: what the clause
    before reports ("…금식이라고 하니, 그 내용도 메모로 남겨 주시겠어요?", `_MEMO_OF_SAID`) or a
    duty ("신분증 챙겨야 함. 메모 좀", `_MEMO_OF_DUTY`), as `_as_memo` words it; None when the
    message is not that."""
    if QUOTED.search(message):
        return None
    for reader in (_MEMO_OF_SAID, _MEMO_OF_DUTY):
        found = reader.match(message)
        if found is None:
            continue
        words = found.group("said")
        duty = reader is _MEMO_OF_DUTY
        rest = message[found.end() + (len("메모") if duty else 0) :]
        # (a memo asked for, and nothing after it: not "그거 메모해뒀어", "메모 말고 …",
        # "그것도 메모해 주시고, 시간은 4시로 바꿔 주세요"; a duty's bare "메모 좀", "메모 ㄱ")
        asked = _MEMO_ASKED_LAST.match(rest) or (
            duty and re.fullmatch(r"\s*(?:좀|ㄱ+)?\s*[.!~]*\s*", rest)
        )
        # (words of their own item or change are no memo's: "카카오 면접 장소가 판교라고 …",
        # "토스 면접이 12월 9일로 바뀌었다고 하니 …"; a duty of its own day is the user's own
        # errand: "내일 은행 가야 돼. 메모 좀")
        own_day = has_when(words) and (duty or _CHANGE_TOLD.search(words) is not None)
        if (
            asked
            and not SCHEDULE_VERB.search(words)
            and not _names_an_item(words)
            and not own_day
            and not (duty and re.search(r"이따|나중", words))
        ):
            return _as_memo(words)
    return None


def memo_of(message: str) -> tuple[str | None, str]:
    """The memo a message gives, and the message without it (its verb stays)."""
    said = _said_as_memo(message)
    if said is not None:
        # (the words a pointer to them stands for; the request goes on the item in focus)
        return said, " 그거 메모 추가해줘 "
    m = MEMO.search(message)
    if m is None:
        bare = _BARE_MEMO.match(message)
        words = bare.group(2) if bare else ""
        if bare and not (
            SCHEDULE_VERB.search(words)
            or LIST_VERB.search(words)
            or WH_WORD.search(words)
            or re.match(r"(?:좀|도|는|를|에|로|내용|있)", words)
            or "?" in words
            # (after a pointer, only words of a note: "그거 메모 안전화 지참", not "그거 메모
            # 틀렸어", "… 고마워", "… 카카오 면접에도")
            or (bare.group(1) and not _note_words(words))
        ):
            return words, f" {bare.group(1) or ''}"
        return None, message
    memo = next(g for g in m.groups() if g)
    quoted = m.group(2) or m.group(5) or m.group(6) or m.group(11)
    said_after = None if quoted else _REQUEST_THEN.match(memo.strip())
    if said_after:
        memo = said_after.group(1)  # "메모로 남겨주세요. 여의도 본사 23층": the words after it
    if not quoted and _REQUEST_ONLY.fullmatch(memo.strip()):
        return None, message  # "장소도 메모로 넣어줘": a memo asked for, its words not given
    if memo == m.group(8) and (
        SMALL_TALK.search(memo) or SCHEDULE_VERB.search(memo) or LIST_VERB.search(memo)
    ):
        return None, message  # "코딩 스터디 메모 남겨줘. 고마워!": no memo's words
    if memo in (m.group(9), m.group(10)) and (WH_WORD.search(memo) or "?" in message):
        return None, message  # "뭐라고 메모했지?": a question about a memo
    # "메모 추가: …", "메모 좀 달아줘: …": the request's verb stays
    verb = ADD_VERB.search(m.group(0)) or re.search(r"달아|메모\s*해", m.group(0))
    kept = " 추가해줘 " if verb else " "
    memo = memo.strip().strip("'\"‘’“”").strip()  # "메모: 'DP 3문제'": the words inside
    if not quoted and _NO_MEMO.search(memo):
        return None, message  # "메모칸엔 아무것도 적지 마", "메모에 쓸 건 나중에 알려줄게"
    if memo == m.group(4):
        memo = _without_also(memo)  # "메모에 그린팩토리 2층도 적어줘": the 도 is the request's
    return memo, message[: m.start()] + kept + message[m.end() :]


# A memo declined or put off: no words of a memo.
# ("잊지 말기" is a memo's words: only the memo's own verbs, declined)
_NO_MEMO = re.compile(
    r"(?:적|쓰|넣|남기|달|기재하|하)지\s*(?:마|말)|아무것도|나중에|(?:않|안)\s*(?:적|써|넣)"
)
# Words that only ask for the memo ("넣어줘", "남겨 주세요", "추가 좀"): no memo of their own.
_REQUEST_ONLY = re.compile(
    r"(?:좀\s*)?(?:부탁\S*|(?:추가|등록)(?:해\s*(?:줘|주세요|줄래|줘요|놔|둬|주라)?|\s*좀|\s*ㄱㄱ?)?|"
    r"(?:적어|남겨|넣어|달아|써|해)\s*(?:줘|주세요|줄래|줘요|놔|둬|주라)?)[.!~]*"
)


# A memo's request, its sentence ended, then the memo's words ("남겨주세요. 여의도 본사 23층").
_REQUEST_THEN = re.compile(r"(?:추가|등록|적어|남겨|넣어|달아|써)\S*[.!]\s+(\S.*)$")


def _without_also(words: str) -> str:
    """Unquoted words without the particle 도 that ends them ("2층도" -> "2층"), read by
    morphology ("실내 온도" keeps its 도)."""
    tokens = analysed(words)
    if len(tokens) >= 2 and tokens[-1].tag == "JX" and tokens[-1].form == "도":
        return words[: tokens[-1].start].rstrip()
    return words


@dataclass(frozen=True)
class RouteDecision:
    route: str | None  # None: the fast router is unsure, the model decides
    by: str  # "keywords" | "examples" | "model"
    margin: float = 0.0


_TIME_ASKED = re.compile(r"몇\s*시(?!간)|몇\s*신지|(?i:\bwhat\s+time\b)")


# Kinds of items and words of listing: a listing that names nothing else names no posting.
_LISTED_KINDS = {"면접", "코테", "코딩", "테스트", "일정", "스케줄", "전부", "모두", "목록", "전체"}


# A dated event said with 도 ("also") to close a sentence, then a remark: "그리고 목요일
# 오후 3시에 뷰노 과제 면접도요~ 간호사 출신이라 …", "같은 날 오후 4시 크래프톤 커피챗도 ㅇㅇ".
_TOO_SAID = re.compile(
    r"^(.*?[가-힣A-Za-z0-9]도)(?:요|용)?(?:\s*(?:ㅇㅇ|ㅇㅋ|부탁(?:해요|해|드려요|드립니다)?))?"
    r"\s*(?:[~!.ㅎㅋ^]+\s*|$)",
    re.DOTALL,
)


_PAST_TOLD = re.compile(
    r"(?:았|었|였|했|갔|왔|봤|쳤)(?:어|다|음|네|는데|지|고)|망했|끝났|떨어졌|떨어짐|붙었|탈락|합격"
)


# Not going ("빠질게요", "안 갈래요", "못 갈 것 같아요", "취소할래요").
_NOT_GOING = re.compile(
    r"(?<![가-힣])(?:안|못)\s*\S|빠질|빠져|불참|취소|스킵|포기|패스|안갈|못갈|노쇼"
)


def _said_too(text: str) -> str | None:
    """The first sentence of a message that says one more dated event with 도, when what
    follows only remarks on it (see `_TOO_SAID`), or None. Not a day said with 도 ("내일도
    힘내자")."""
    first = _TOO_SAID.match(text)
    if first is None:
        return None
    said, rest = first.group(1), text[first.end() :]
    when = find_when(said, today_seoul())
    # (a time said, and a remark that is no account of it having happened: "… 면접도요~
    # 완전 망했어요ㅠㅠ", "… 생일파티도~ 갔다 왔어" tell of the past)
    timed = when.time is not None or re.search(r"(?:같은|그)\s*시(?:간|각)", said) is not None
    if not timed or has_when(rest) or operation_kind(rest) or _PAST_TOLD.search(rest):
        return None
    if _NOT_GOING.search(rest):
        return None  # ("내일 오후 3시 코딩 스터디도요~ 빠질게요": skipped, not added)
    if when.date is not None and when.date < today_seoul():
        return None  # ("지난주 금요일 오후 3시 면접도요~": it has happened)
    end = len(said) - 1  # the word 도 closes is no day or time
    if any(s <= end - 1 < e for s, e in when.spans):
        return None
    blank = "".join(
        " " if any(s <= i < e for s, e in when.spans) else c for i, c in enumerate(said)
    )
    return said if content_words(blank[:-1]) else None


def keyword_route(message: str) -> str | None:
    """Clear cases by rule; None when the rules do not settle it. Quoted text (a pasted
    mail, a quoted title) is read as content, never as the user's ask."""
    own = unquoted(message)
    if CAPABILITY.search(own) or ABOUT_SERVICE.search(own):
        return "general"  # "야 너 내 이력서 볼 수 있냐": what the assistant can do
    if (paste := _quoted_paste(message)) is not None and operation_kind(paste[0]) == "add_schedule":
        # "인크루트 공고 문구입니다: "… 접수마감 12.16(수) 17:00" 이 마감 일정을 '…'으로
        # 등록해 주세요": the event pasted, put in the user's own schedule (not a posting's)
        return "schedule"
    # (a memo is often quoted: "두번째 건 메모 좀 달아줘 '자소서 다시 읽기'")
    memo = memo_of(own)[0] or memo_of(message)[0]
    if memo and "?" not in own and not WH_WORD.search(memo):
        # "거기 메모로 공고상 날짜임 이라고": a memo is written on a schedule item; its words
        # are content ("공고", "날짜" in it ask nothing)
        return "schedule"
    schedule_verb = asks_operation(own)
    schedule_word = bool(SCHEDULE_WORD.search(own))
    recruit = bool(RECRUIT_WORD.search(own))
    docs = bool(DOC_WORD.search(own) or DOC_PART.search(own))
    mine = bool(MY_SCHEDULE.search(own))
    when = bool(WHEN.search(own))
    pasted = own != message and len(message) - len(own) >= 12
    if pasted and ABOUT_PASTED.search(own) and not (schedule_verb or docs):
        return "general"  # about the pasted text: it is in the message
    staged = recruit or names_a_stage(own)
    if (
        staged
        and BY_POSTING.search(own)
        and (when or not _says_more(own))
        and not (schedule_verb or OWN_DOC.search(own))
    ):
        # "공고상 코테 날짜가 언제야?", "공고에 나온 면접 전형은 언제 진행돼?", and a stage with
        # nothing else asked of it: "네이버 1차면접은. 공고 기준", "공고상 면접 일자 알려 주세요"
        return "calendar"
    if "공고" in own and SAYS_SO.search(own) and not (when or schedule_verb) and _says_more(own):
        return "rag"  # "그 공고에 코테 언어 제한 있다고 써있음?": what its text says
    if reports_a_change(own) and not docs:
        # "네이버 1차 면접 날짜가 바뀌었대요!! 어떡하죠": the user's own item changed (a
        # posting's dates are its text's; the user keeps their own)
        return "schedule"
    if YEARS_ASKED.search(own) and not (
        when or schedule_verb or mine or GENERALLY.search(own) or ADVICE.search(own)
    ):
        return "rag"  # "네이버 데이터 엔지니어 경력 몇년 이상 뽑는대?": what a document says
    if _KIND_COUNTED.search(own) and not (
        docs
        or "공고" in own
        or recruit
        or ADVICE.search(own)
        or GENERALLY.search(own)
        or any(t.tag == "NNP" for t in analysed(own))  # ("네이버는 면접 몇 번이야?")
        or re.search(r"봐야|해야|붙|합격|떨어", own)  # ("면접 몇 개 봐야 붙을까?")
    ):
        return "schedule"  # "12월에 면접 몇 개야?": the user's own items of a kind, counted
    if CONFIRM_HAVE.search(own) and has_when(own) and not (docs or recruit or "공고" in own):
        return "schedule"  # "다음 주에 면접 있는 거 맞지?": a look at the user's own days
    # ("포폴은 뭐부터 만들어야 돼": the verb is what one should do, not a request)
    # ("스터디 일정 만들어야 돼" names the schedule: a request all the same)
    modal_only = (
        bool(schedule_verb)
        and not schedule_word
        and all(own[m.end() : m.end() + 1] == "야" for m in SCHEDULE_VERB.finditer(own))
        # (a delete said as a must is asked for: "코딩 스터디 지워야 돼")
        and not (MOVE_VERB.search(own) or DELETE_VERB.search(own))
    )
    if WHAT_TO_SAY.search(own) and not (
        docs or "공고" in own or (schedule_verb and not modal_only)
    ):
        return "general"  # "알바 면접에서 주말 근무 된다고 해야됨?": what to say, advice
    if (
        SHOULD_I.search(own)
        and not ((schedule_verb and not modal_only) or when or has_when(own) or "공고" in own)
        # (what a company asks of an applicant: "카카오 지원하려면 경력 3년 있어야됨?")
        and not (_REQUIRED.search(own) and _APPLYING.search(own))
    ):
        return "general"  # "여기에 쿠버네티스도 넣는 게 나을까? 카카오 우대사항에 있던데": advice
    # (a verb with no day and no schedule word is how things are done: "포폴 보통 몇 장으로
    # 만들어요?")
    verb_of_schedule = schedule_verb and (schedule_word or has_when(own))
    if GENERALLY.search(own) and not (docs or mine or verb_of_schedule or "공고" in own):
        return "general"  # a question about hiring in general
    about_posting = "공고" in own and ABOUT_CONTENT.search(own)  # "공고에 … 뽑는다고 돼 있어요?"
    if _said_too(own) is not None:
        # "목요일 오후 3시에 뷰노 과제 면접도요~ 간호사 출신이라 과제가 걱정이네요": one more
        # dated event said first; the remark after it asks nothing
        return "schedule"
    if FEELING.search(own) and not (
        schedule_verb
        or mine
        or when
        or (docs and "?" in own)
        or about_posting
        # (a look asked beside the worry: "12월 전체 일정을 한번 볼 수 있을까요? … 걱정이 되네요")
        or (schedule_word and LIST_VERB.search(own))
        # (a value given an item: "아 방금 거 11시로 해줘 잘못말함ㅠ")
        or (VALUE_GIVEN.search(own) and has_when(own))
    ):
        return "general"  # "오늘 너무 피곤하다", "다음 주에 면접이 세 개나 있어 ㅠㅠ"
    if recruit and STAGES_ASKED.search(own) and not (docs or schedule_verb or _mine_explicit(own)):
        return "calendar"  # "카카오 공고 서류 다음 전형이 뭐야?", "전형 절차 어케됨"
    posting_named = "공고" in own or re.search(r"(?i)\bposting|\bjob\s+ad\b|모집\s*부문", own)
    if POSTING_SAYS_EN.search(own) and not (when or recruit or schedule_verb):
        return "rag"  # "Does the Naver posting say how many years of experience they want?"
    if ROLE_ASKED.search(own) and (docs or recruit or posting_named) and not schedule_verb:
        return "rag"  # "카카오 공고 포지션이 뭐야": the job the posting's text names
    if RECALLED.search(own) and not (schedule_verb or schedule_word or when or recruit):
        return "rag"  # "쿼리 튜닝으로 응답시간 몇 프로 줄였다고 했지 내가"
    if SMALL_TALK.search(own.strip()) and not (
        schedule_verb
        or docs
        or mine
        or recruit
        # (thanks, then a look asked: "ㄳ 그날 일정 다시 보여줘")
        or (schedule_word and LIST_VERB.search(own) and "?" not in own)
    ):
        return "general"  # "안녕! 반가워", "너는 누구야? 뭘 할 수 있어?"
    if WHAT_IS.search(own) and not (docs or mine or schedule_verb or schedule_word or when):
        return "general"  # "카프카에서 컨슈머 그룹이 뭐야?"
    if KNOWLEDGE.search(own) and not (
        docs or mine or schedule_verb or (recruit and when) or POSTING_DATES.search(own)
    ):
        return "general"  # "CAP 이론 설명해줘", "포트폴리오랑 경력기술서는 뭐가 달라?"
    # (applying said of a career, not of a posting's step: "IT 회사 지원하는 거 너무 늦은
    # 걸까요?" asks for advice; "카카오 서류 마감 늦었나?" for a date)
    chances = bool(CHANCES.search(own)) and not (
        names_a_stage(own) or (recruit and (when or "공고" in own))
    )
    if (
        ((PREPARE.search(own) and HOW.search(own)) or ADVICE.search(own) or chances)
        # (a word of when that is no day: "서른 중반에 전향")
        and not (docs or mine or schedule_verb or (when and has_when(own)) or "공고" in own)
        and not (schedule_word and not PREPARE.search(own) and not ADVICE.search(own))
    ):
        return "general"
    if (
        "공고" in own
        and staged
        and BY_POSTING.search(own)
        and ABOUT_CONTENT.search(own)
        and _says_more(own)
        and not (when or schedule_verb or mine)
    ):
        return "rag"  # "공고상 코테 언어 제한 있어?": what its text says of the stage
    if (
        "공고" in own
        and not (when or ASK.search(own) or STAGES_ASKED.search(own) or schedule_verb or mine)
        and not names_a_stage(own)
        and ABOUT_CONTENT.search(own)
    ):
        # "네이버 공고는 경력 몇 년 이상 뽑아?", "공고에 재택근무 가능하다고 돼 있어?": what the
        # posting says, not its dates: its text answers
        return "rag"
    if (
        LIST_VERB.search(own)
        and not when
        and "공고" not in own
        and not set(content_words(own)) - _LISTED_KINDS
    ):
        # "면접 일정만 다 보여줘": a listing of the user's own items of a kind; a posting's
        # stages are asked of a company ("네이버 면접 일정 알려줘") or of its posting
        return "schedule"
    if (
        recruit
        and (when or "공고" in own or ASK.search(own))
        and not (docs or _mine_explicit(own) or schedule_verb)
        and not (PREPARE.search(own) and not when)  # "코테 준비 일정": whose? not sure
    ):
        return "calendar"
    if POSTING_DATES.search(own) and not (
        _mine_explicit(own) or schedule_verb or OWN_DOC.search(own)
    ):
        return "calendar"
    if (
        recruit
        and "공고" in own
        and schedule_verb
        and not (own != message and _has_time(own))
        # (a move to the posting's date is of the user's own item: "내 카카오 면접을 공고상
        # 1차 면접 날짜로 옮겨줘")
        and operation_kind(own) != "update_schedule"
    ):
        # "카카오 공고 일정을 내 일정에 추가해줘": the posting's stages ("그 공고 코테 날 오전
        # 11시에 '코테 최종 복습' 일정 넣어줘" is the user's own event, named and timed)
        return "calendar"
    # (not what is written into a document: "자소서에 코테 경험 넣어줘")
    if (
        schedule_verb
        and not INTO_DOC.search(own)
        and (
            schedule_word
            or re.search(r"면접|스터디|미팅|약속|(?i:interview|meeting)", own)
            # "포스코 설비직 인적성 넣어줘": a hiring stage to put in (a posting's own stages
            # are asked of it)
            or (names_a_stage(own) and not (docs or "공고" in own))
        )
    ):
        return "schedule"
    if schedule_verb and has_when(own):
        return "schedule"  # "수요일 오후 4시 반에 토스 커피챗 등록해 줘"
    if (
        schedule_verb
        and not (docs or MAY_I.search(own))
        and operation_kind(own) == "delete_schedule"
    ):
        return "schedule"  # "카카오꺼 지워": only the user's own schedules can be deleted here
    if docs and not schedule_word:
        return "rag"
    if mine and not recruit:
        return "schedule"
    if WHAT_ON.search(own) and has_when(own) and not (docs or recruit):
        return "schedule"  # "낼 뭐 있음?", "금요일에 뭐 있더라": what the user has that day
    if (
        has_when(own)
        and _TIME_ASKED.search(own)
        and re.search(r"면접|스터디|미팅|약속|커피챗|(?i:interview|meeting)", own)
        and not (docs or recruit or "공고" in own)
    ):
        # "12월 4일에 면접이 하나 있는 것으로 기억하는데, 몇 시인지 확인 부탁드립니다": the
        # hour of the user's own event on a day they name
        return "schedule"
    if not docs and states_event(own):
        return "schedule"  # "토스 2차면접 12월 17일 오후 3시": an event to keep, day and hour
    return None


# The operation verbs by what Kiwi reads them as (a verb's stem, or an action noun before
# 하다/되다), for the forms the verb patterns above do not spell: "빼", "지워버려",
# "재조정됐어", "연기됐어".
_LEMMA_KINDS = {
    "delete_schedule": {"빼", "지우", "없애", "날리", "취소", "삭제", "제거", "캔슬"},
    "update_schedule": {
        "바꾸", "옮기", "미루", "당기", "앞당기", "늦추", "고치", "변경", "수정", "조정", "연기",
        "돌리", "되돌리", "돌려주", "되돌려주", "돌려놓", "되돌려놓",
    },
    "add_schedule": {"넣", "추가", "등록", "잡", "적", "남기", "저장"},
}  # fmt: skip
# A new value the clause ends on, with no verb after it ("… 13시 30분으로", "… 8시 걸로").
# A day counted from the item ("그 다음날로 해줘", "전날로") is such a value too.
NEW_VALUE_LAST = re.compile(
    r"(?:\d{1,2}\s*(?:시(?:\s*\d{1,2}\s*분|\s*반)?|:\d{2})|\d{1,2}\s*일|[월화수목금토일]요일|"
    # clipped weekdays and the week or weekday counted from the item ("그 담주 같은요일로")
    r"[월화수목금토일]욜|같은\s*요일|(?:그\s*)?(?:다음|담)\s*주|"
    r"(?:그\s*)?(?:다음\s*날|전\s*날|이튿날)|(?:하루|이틀|사흘|일주일|\d{1,2}\s*일)\s*(?:전|뒤|후))"
    r"\s*(?:걸로|으로요|로요|(?:으로|로)(?:\s*(?:해\s*줘|해\s*주세요|해|할게|하자))?)\s*[.!~]*$"
)

# What is kept as it was, said after the new value ("… 전으로 해줘 시간은 그대로").
KEPT_AS_IS = re.compile(r"(?:시간|날짜|시각|요일)(?:은|는|도)?\s*그대로\S*")

# A value said to be wrong ("날짜 틀렸다 9일 아니고 8일", "시간 잘못 넣었어 3시 반이야"), or
# another one asked for instead of it ("그날 말고 그 다음날로 해줘"): a change of an item.
WRONG_VALUE = re.compile(
    r"틀렸|틀려|틀림|잘못\s*(?:넣|적|썼|됐|되었|입력|등록|했|알려)|"
    # (not a task named with the word: "자소서 오타 검수"; nor the user's typing excused,
    # "버스라 오타ㅈㅅ", "제가 오타를 잘 내서": operation_kind reads it after the request)
    r"오타(?!\s*(?:검수|체크|확인|수정|교정|점검|검사|찾기))|(?i:\bwrong\b|\btypo\b)"
)
INSTEAD_VALUE = re.compile(
    r"(?:아니고|아니라|말고)\s+(?:그\s*)?\S*(?:날|일|요일|주|시|분|반)\s*(?:으로|로)(?:\s|$)"
)

# A change of the user's item reported with no new value ("네이버 1차 면접 날짜가 바뀌었대요",
# "면접 시간 변경됐어요"): a change to make, its value asked for.
CHANGE_REPORTED = re.compile(
    r"(?:날짜|시간|일정|일시)(?:이|가|도)?\s*(?:바뀌었|바뀜|바꼈|변경됐|변경되었|변경됨|연기됐|연기되었|"
    r"미뤄졌|당겨졌)"
)
# What a user keeps in their own schedule, as against a posting's steps ("서류 발표", "접수")
# and things of daily life ("수면 시간", "출근 시간").
_OWN_EVENT = re.compile(r"면접|스터디|미팅|약속|모임|상담|인터뷰|(?i:\binterview|\bmeeting)")
_NOT_OWN = re.compile(r"공고|서류|발표|접수|마감|결과|어떻게|어떡게|답장|메일|문자")


def reports_a_change(text: str) -> bool:
    """ "네이버 1차 면접 날짜가 바뀌었대요!! 어떡하죠": a change of one of the user's own events
    reported with no new value (not a posting's step, not a question, not how to answer it)."""
    return bool(
        CHANGE_REPORTED.search(text)
        and _OWN_EVENT.search(text)
        and not _NOT_OWN.search(text)
        and "?" not in text
    )


# Taking back the last operation: a change back to what it replaced, a deleted item back.
UNDO = re.compile(
    r"원래대로|원래\s*(?:날짜|시간|이름|제목)?(?:로|으로)|되돌려|돌려\s*(?:줘|놔|주세요|줄래)|복구|살려|"
    r"(?i:\bundo\b|\brevert\b|\brestore\b|(?:change|put|bring)\s+(?:it|that|them)\s+back)"
)


# "방금 지운 거", "삭제한 일정": an item the room deleted.
# "네이버는 지우면 안되는데", "지우지 말 걸": a delete the user takes back.
DELETED_ITEM = re.compile(
    r"(?:지운|삭제한|취소한|뺀)\s*(?:거|것|걸|일정)|"
    r"(?:지우|삭제하|빼)(?:면\s*안\s*(?:되|돼)|지\s*말(?:았어야|걸|\s*걸))|"
    # "헐 잘못 지움 다시 넣어줘": put back (read only right after a delete)
    r"(?:잘못\s*(?:지움|지웠|삭제))|다시\s*(?:넣|추가|등록|살려)"
)


# A new value stated as a fact, right after the item it completes ("시간 말 안 했네 오후
# 1시야", "아 15일이에요"): a change of that item.
NEW_VALUE_STATED = re.compile(
    r"(?:\d{1,2}\s*(?:시(?:\s*\d{1,2}\s*분|\s*반)?|:\d{2})|\d{1,2}\s*일|[월화수목금토일]요일|"
    r"[월화수목금토일]욜)"
    r"\s*(?:이야|야|예요|이에요|입니다|이요|요|이었어|였어|이었네|였네|이었다|였다|이었음|였음|"
    r"이래|래|임)\s*[.!~]*$"
)


# A verb ending "whether" ("지워졌는지", "들어갔는지"): a question about it, not a request.
_WHETHER = re.compile(r"(?:는|은|ㄴ)지(?:도|를|좀|만)?[.,?!~]*$")


def _lemma_kind(clause: str) -> str | None:
    """The operation a clause's last operation verb asks for, read by its lemma."""
    tokens = kiwi().tokenize(clause)
    found = None
    for i, t in enumerate(tokens):
        action_noun = t.tag == "NNG" and i + 1 < len(tokens) and tokens[i + 1].tag in ("XSV", "XSA")
        if not (t.tag == "VV" or action_noun):
            continue
        # a verb describing an item ("방금 추가한 거", "지운 일정") asks for nothing
        after = next(
            (u for u in tokens[i + 1 :] if u.tag not in ("XSV", "XSA", "EP", "EC", "VX")), None
        )
        if after is not None and after.tag == "ETM":
            continue
        ending = next((u for u in tokens[i + 1 :] if u.tag not in ("XSV", "XSA", "EP")), None)
        if ending is not None and ending.tag == "EC" and ending.form in ("면", "으면"):
            after_it = clause[ending.start + ending.len :]
            if LIST_VERB.search(after_it) or _lemma_kind(after_it):
                continue  # "지웠으면 12월 일정 다시 보여줘": a condition of the request after it
        word = clause[t.start :].split(maxsplit=1)[0] if clause[t.start :].strip() else ""
        if _WHETHER.search(word):
            continue  # "잘 지워졌는지 12월 일정 보여줘": whether it was done, looked at
        kind = next((k for k, lemmas in _LEMMA_KINDS.items() if t.form in lemmas), None)
        told = i + 2 < len(tokens) and tokens[i + 1].form == "었" and tokens[i + 2].tag == "EF"
        if t.form == "잡히" and told and "?" not in clause:
            # "넥슨 인턴 면접 잡혔어 12월 17일 오후 2시": an event just set, told to be kept
            # ("잡혀 있어?" asks what is there)
            kind = "add_schedule"
        if (
            t.form in ("밀리", "늦춰지")
            and told
            and _OWN_EVENT.search(clause)
            and not _NOT_OWN.search(clause)
            and (NEW_VALUE_AFTER_SAID.search(clause) or SHIFT.search(clause))
        ):
            # "네이버 면접 다음날로 밀렸어요", "금욜로 하루 밀렸대": the item moved, told with
            # its new day or the amount ("일이 밀려서 힘들어요" says neither)
            kind = "update_schedule"
        found = kind or found
    return found


# A new day or time said with (으)로 ("금욜로", "다음날로", "12월 11일로", "3시 반으로"): what a
# reported move ("…로 밀렸대") moved the item to.
NEW_VALUE_AFTER_SAID = re.compile(r"(?:요일|욜|날|일|시|분|반|주)\s*(?:으로|로)(?![가-힣])")


# An English verb in the past tense ("postponed", "moved"): what happened, not the request.
_REPORTED_EN = re.compile(r"(?i)[a-z]+ed")


def operation_kind(clause: str) -> str | None:
    """Which schedule tool one clause asks for: delete, update, add, get; None when the
    clause asks for no operation (small talk, an advice question)."""
    own = unquoted(clause)
    if (spared := all_but(own)) is not None:
        own = spared.rest  # "스터디 빼고 전부 미뤄줘": 빼고 spares, the verb after it asks
    if (
        UNDO.search(own)
        and re.search(r"취소|캔슬|(?i:\bcancel\b)", own)
        and not DELETED_ITEM.search(own)
    ):
        # "ㄴㄴ 취소 원래시간으로": the last change called off, the item as it was
        return "update_schedule"
    if DELETED_ITEM.search(own) and (
        UNDO.search(own) or re.search(r"다시\s*(?:넣|추가|등록|살려|잡|만들)", own)
    ):
        # "헐 잘못 지움 방금 지운 거 다시 살려줘": the deleted item put back (its delete verb
        # tells which item, it asks for no delete)
        return "add_schedule"
    wrong = WRONG_VALUE.search(own)
    if (
        wrong is not None
        and has_when(own)
        and not DELETE_VERB.search(own)
        # (said after an add asked for, and asking nothing after it: "… 잡아줘 아 오타 많네")
        and not (
            ADD_VERB.search(own[: wrong.start()]) and not SCHEDULE_VERB.search(own[wrong.end() :])
        )
    ):
        # "날짜 틀렸다 9일 아니고 8일", "시간 잘못 넣었네 오후 3시 반": the value, changed
        return "update_schedule"
    # The request is the last operation verb used as one ("이력서 수정 일정 넣어줘" adds: 수정
    # is part of the title); verbs describing an item ("등록해둔") ask for nothing.
    asked = [m for m in SCHEDULE_VERB.finditer(own) if not MODIFIER_END.match(own, m.end())]
    reported = [
        m for m in asked if _REPORTED_EN.fullmatch(m.group(0)) and not has_when(own[m.end() :])
    ]
    if reported and len(reported) < len(asked):
        # "cancel that, they postponed it indefinitely": what happened is reported in the
        # past tense with no new value, what is asked for is said in the base form ("…,
        # kakao moved the interview to dec 11 2pm" is a move to make)
        asked = [m for m in asked if m not in reported]
    if len(asked) > 1 and re.fullmatch(r"ㄱㄱ?", asked[-1].group(0)):
        asked = asked[:-1]  # "삭제 ㄱㄱ": go on with the verb before it
    if (
        asked
        and re.fullmatch(r"ㄱㄱ?", asked[-1].group(0))
        and NEW_VALUE_END.search(own[: asked[-1].start()])
        and has_when(own[: asked[-1].start()])
        # (a time for an item, not a new event with its day: "카카오 면접 준비 12월 9일 저녁
        # 8시로 ㄱ" adds; and of an item pointed at: "맨 아래 거 오후 5시로 ㄱ". An item named by
        # its title is the schedule route's to tell: "미용실 4시로 ㄱ" names a new one)
        and find_when(own, today_seoul()).date is None
        and _POINTED.search(own) is not None
    ):
        return "update_schedule"  # "코딩스터디 오후 8시로 ㄱ": go with the new value
    if (
        asked
        and re.fullmatch(r"ㄱㄱ?", asked[-1].group(0))
        and SCHEDULE_WORD.search(own)
        and not find_when(own, today_seoul()).time
    ):
        return "get_schedule"  # "담달 스케줄 ㄱ": go on, show it (with a time, "ㄱ" adds)
    if RENAME_SAID.search(own) or RENAME_SAID.search(clause):
        # "제목 그냥 라인 면접으로 해줘": the item's new name; beside an add, the added one's,
        # and beside an event the message states ("…면접 있어요. 일정 제목은 '넥슨 1차'로 짧게
        # 해주세요"), the name of that new event
        new_event = EVENT_STATED.search(own) is not None and has_when(own)
        return "add_schedule" if ADD_VERB.search(own) or new_event else "update_schedule"
    if (
        len(asked) > 1
        and ADD_VERB.fullmatch(asked[-1].group(0))
        and any(
            MOVE_VERB.fullmatch(m.group(0))
            and own.startswith("서", m.end())
            # (with the move's amount or new value: not "이력서 바꿔서 제출하기 …", "면접 시간
            # 바꿔서 생긴 오전에 …", whose verb is part of a new event)
            and bool(
                re.search(r"(?:으로|로)\s*$", own[: m.start()])
                or any(s.end() == m.end() for s in SHIFT.finditer(own))
            )
            for m in asked[:-1]
        )
    ):
        # "시간을 10분 당겨서 적어 두는 게 낫겠어요", "4시로 바꿔서 저장해줘": the item moved,
        # then written down as moved (the verb after -서 keeps the change, adds nothing)
        return "update_schedule"
    if asked:
        last = asked[-1].group(0)
        for verb, kind in (
            (DELETE_VERB, "delete_schedule"),
            (MOVE_VERB, "update_schedule"),
            (ADD_VERB, "add_schedule"),
        ):
            if verb.fullmatch(last):
                return kind
    if own != clause and ADD_VERB.search(clause):
        return "add_schedule"
    by_lemma = _lemma_kind(own)
    if by_lemma:
        return by_lemma
    if UNDO.search(own):
        return "update_schedule"  # "원래대로 해줘": the change or the delete taken back
    if INSTEAD_VALUE.search(own):
        return "update_schedule"
    if reports_a_change(own) and not LIST_VERB.search(own):
        return "update_schedule"  # "네이버 1차 면접 날짜가 바뀌었대요": a change, value to ask
    # ("… 이틀 전으로 해줘 시간은 그대로": what stays as it was is no part of the move)
    kept = KEPT_AS_IS.sub("", own).rstrip(" ,.!~")
    if SHIFT.search(own) or NEW_VALUE_LAST.search(kept) or NEW_VALUE_STATED.search(own):
        # "코딩 스터디 1시간 일찍 시작하는 걸로", "카카오 면접 시간만 13시 30분으로": a
        # move said without its verb
        return "update_schedule"
    if (
        _ALSO_PLEASE.search(own)
        and (find_when(own, today_seoul()).time or re.search(r"(?:같은|그)\s*시(?:간|각)", own))
        and not (LIST_VERB.search(own) or MY_SCHEDULE.search(own) or _HELP_ASKED.search(own))
    ):
        return "add_schedule"  # "16일 같은 시간에 성균관대 입학처 면접도 부탁드려요": one more
    if LIST_VERB.search(own) or MY_SCHEDULE.search(own) or SCHEDULE_WORD.search(own):
        return "get_schedule"
    return None


# The kinds of event the router's readers of one more add, a count of the user's items and
# a list of names know ("면접도 부탁드려요", "면접 몇 개야?", "LG 1차면접, 2차면접으로").
# (focus.EVENT_NOUNS, the title reader's, imports this module and cannot be imported here.)
_EVENT_KINDS = (
    r"면접|시험|특강|필기|실기|마감|발표|코테|테스트|설명회|교육|평가|검사|"
    r"스터디|미팅|상담|모임|약속"
)

# Help asked of the assistant, not an event ("예상 질문도 부탁해", "면접 준비도 부탁드려요").
_HELP_ASKED = re.compile(r"질문|준비|팁|조언|추천|피드백|첨삭|정리|요약|도와")
# "… 면접도 부탁드려요": one more event, asked for with a bare "please".
_ALSO_PLEASE = re.compile(
    rf"(?:{_EVENT_KINDS})도\s*(?:부탁(?:드려요|드립니다|해요|해|합니다)?|ㅇㅇ)[.!~ㅎㅋ^]*\s*$"
)


# "둘 다", "모두", "전부": every item the clause joins.
_BOTH = re.compile(r"둘\s*다|(?:두|세|2|3)\s*개\s*(?:다|모두|전부)|모두|전부|각각|(?i:\bboth\b)")


def _deleted_parts(part: str) -> list[str]:
    """ "카카오 면접이랑 코딩 스터디 둘 다 지워줘": one delete for each item joined (by 이랑/랑/
    하고/과/와/and) when the clause says both or all; the clause as it is otherwise."""
    both = _BOTH.search(part)
    if both is None or all_but(part):
        return [part]
    verb = part[both.end() :]
    if re.sub(r"[ㅋㅎㅠㅜ^;]+", "", VERB_ONLY.sub("", verb)).strip(" ,.?!~"):
        # "나랑 친구 둘 다 바빠서 스터디 취소해줘": 둘 다 of something else, not of the items
        # (a laugh or a cry after the verb is no more words: "둘 다 취소해줘 ㅠ")
        return [part]
    items = [p.strip(" ,") for p in NOUN_JOIN.split(part[: both.start()]) if p.strip(" ,")]
    if len(items) < 2:
        return [part]
    return [f"{item} {verb.strip()}" for item in items]


# Where pasted mail or a notice starts, at a line's start: a forwarded mail's marker or
# header ("-----Original Message-----", "From:", "보낸사람:", "Subject:", "제목:"), a
# bracketed head ("[대한물류] 1차 면접 안내", "【한국전력공사 …】", "<에스원 채용담당>") or a
# notice's heavy bullet ("■ 2026년 군무원 채용 …").
_PASTE_START = re.compile(
    r"^[ \t]*(?:-{2,}\s*(?:original\s+message|forwarded\s+message|전달된\s*메시지)|"
    r"(?:from|sent|to|subject|cc|보낸\s*사람|받는\s*사람|제목)[ \t]*[:：]|"
    r"[\[【<][^\]】>\n]+[\]】>]|[■□◆●▶►]\s*\S)",
    re.IGNORECASE | re.MULTILINE,
)
# How the user came to know something ("오늘 아침에 아래와 같은 메일을 받았는데", "선생님이
# 보내준 메일 입니다", "오늘 저녁에 알았는데", "아침에 보니까", "방금 연락 왔는데"): its words
# of now (`NOWISH`) are the day the news came, not the event's. `LEARNED_CLAUSE` is the clause
# that says it, up to those words.
_LEARNED_WORDS = (
    r"받았|받은|받아서|보내\s*준|보내\s*주신|보내\s*온|보내왔|(?:이|가)\s*왔|알았는데|"
    r"알게\s*됐는데|보니까|보니|생각해\s*보니|들었는데|들어\s*보니|연락\s*왔는데|문자\s*왔는데"
)
_RECEIVED = re.compile(_LEARNED_WORDS)
LEARNED_CLAUSE = re.compile(rf"(?:^|(?<=[,.!?\n]))[^,.!?\n]*?(?:{_LEARNED_WORDS})(?=[\s,])")


@lru_cache(maxsize=256)
def pasted_block(message: str) -> tuple[str, str] | None:
    """A message of the user's own words around pasted mail or a notice, as (the user's
    words, the pasted block): the block runs from its first marker line to the end, but for
    a last paragraph that asks for something ("마감만 넣어줘 …", "-> add this as …"). The
    user's words are their sentences that ask, name or tell how the notice came, the last
    with their words of now blanked ("오늘 아침에 … 받았는데": `NOWISH`). None when there is no
    such block (two lines or more, with a date) or the user's words ask for nothing."""
    start = _PASTE_START.search(message)
    if start is None:
        return _quoted_paste(message)
    rest = message[start.start() :]
    paragraphs = re.split(r"\n\s*\n", rest.rstrip())
    tail = ""
    if len(paragraphs) >= 2:
        last = paragraphs[-1].strip()
        if (
            len(last) <= 120
            and not _PASTE_START.match(last)
            and not _NOTICE_CLOSING.search(last)
            and (operation_kind(last) or _NAMING.search(last))
        ):
            tail = last
    block = rest.rstrip()[: len(rest.rstrip()) - len(paragraphs[-1])] if tail else rest
    ref = today_seoul()
    if "\n" not in block.strip() or find_when(block, ref).date is None:
        return None
    # (the user's sentences that ask or name: "좋은 아침입니다. 오늘도 신세를 지게 되었네요."
    # says no day of the event)
    own = [
        _without_days(sentence, ref)
        if _RECEIVED.search(sentence) and not ADD_VERB.search(sentence)
        else sentence
        for sentence in re.split(r"(?<=[.!?。])\s+|\n+", message[: start.start()])
        if operation_kind(sentence) or _NAMING.search(sentence) or _RECEIVED.search(sentence)
    ]
    words = " ".join([*own, tail]).strip()
    if not words or operation_kind(words) is None:
        return None
    return words, _mail_body(block.strip())


# Text pasted in quotes ("인스타 디엠 온거: '… 12월 11일 금요일 오후 4시 면접 가능하실까요?'",
# 「… 2026년 12월 21일(월) 15시 30분으로 확정 …」): a quoted span long enough to be someone
# else's sentence, with a day in it.
_QUOTED_PASTE = re.compile(
    r"[\"“「『]([^\"”」』]{12,})[\"”」』]|(?<![A-Za-z])'([^'\n]{12,})'(?![A-Za-z])|‘([^’]{12,})’"
)


def _as_lines(block: str) -> str:
    """A pasted block with each of its sentences (and each clause with a day of its own) on
    a line: a quoted message ("'… 1차 면접은 12월 2일 …, 2차 면접은 12월 9일 …'") read as a
    notice of lines is."""
    if not _QUOTED_PASTE.fullmatch(block.strip()):
        return block
    inner = block.strip()[1:-1]
    parts = re.split(r"(?<=[.!?])\s+|(?<=,)\s+(?=[^,]*\d)", inner)
    return "\n".join(p.strip() for p in parts if p.strip()) if len(parts) > 1 else block


def _quoted_paste(message: str) -> tuple[str, str] | None:
    """`pasted_block` of a message quoting what was pasted: the user's words are outside
    the quotes, the block is the quote (kept in its quotes, so the two read together again
    are the same message)."""
    ref = today_seoul()
    dated = [m for m in _QUOTED_PASTE.finditer(message) if find_when(m.group(0), ref).date]
    if len(dated) > 1:
        return None  # two quotes, each its own event: the user's words read them
    for m in _QUOTED_PASTE.finditer(message):
        inner = next(g for g in m.groups() if g)
        if find_when(inner, ref).date is None or _QUOTE_AS_VALUE.match(message, m.end()):
            continue  # ("카카오 면접을 '12월 11일 오후 3시'로 바꿔줘": a value in quotes)
        outside = f"{message[: m.start()]}\n{message[m.end() :]}"
        own = [
            _without_days(sentence, ref)
            if _RECEIVED.search(sentence) and not ADD_VERB.search(sentence)
            else sentence
            for sentence in re.split(r"(?<=[.!?。])\s+|\n+", outside)
            if operation_kind(sentence) or _NAMING.search(sentence) or _RECEIVED.search(sentence)
        ]
        words = " ".join(own).strip()
        # (an add asked, not a memo or a name said of an item, nor a question about it:
        # "카카오 면접에 메모 추가해줘 '…'", "자소서에 '…' 내용 추가하면 좋을까?")
        several = len(find_dates(inner, ref)) > 1
        if (
            words
            and operation_kind(words) == "add_schedule"
            and not _NOT_A_PASTE.search(outside)
            and "?" not in outside
            # (a quote of several dated events only with a name given for each)
            and (not several or _NAME_LIST.search(words) is not None)
        ):
            return words, m.group(0)
    return None


# After a quote, what makes it a value, a memo or a name ("'…'로 바꿔", "'…'이라고", "'…'으로").
_QUOTE_AS_VALUE = re.compile(r"\s*(?:으로|로|이라고|라고|이라는|라는|을|를)(?![가-힣])")
# Words outside a quote that make it an item's field, or a question ("메모", "제목").
_NOT_A_PASTE = re.compile(
    r"메모|제목|이름|노트|(?i:\bmemo\b|\bnote\b|\btitle\b)|좋을까|될까|할까|나을까"
)


# A notice's own closing line to the applicant ("면접 취소를 원하시면 12월 7일까지 알려주세요",
# "일정 변경이 필요하신 경우 회신 부탁드립니다"): no request of the user's.
_NOTICE_CLOSING = re.compile(r"시면|신\s*경우|경우에?(?:는|엔)?\s|회신|문의")


# Words of a request that name no item ("이거 취소됐대요 삭제해줘", "이 메일 내용대로").
_NO_ITEM_WORDS = {
    "취소",
    "삭제",
    "변경",
    "수정",
    "일정",
    "스케줄",
    "메일",
    "문자",
    "내용",
    "카톡",
    "연락",
}


def _names_its_own(clause: str) -> bool:
    """The clause names an item by a word of its own (not only pointers and request words)."""
    return any(w not in _NO_ITEM_WORDS for w in content_words(unquoted(clause)))


# Words of now said of when something was learned or came ("오늘 아침에", "어제", "방금",
# "아까 저녁에"), never of an event's day ("12월 15일", "목요일로").
NOWISH = re.compile(
    r"\s*(?:오늘|어제|그제|그저께|아까|방금|이따)?\s*(?:아침|점심|저녁|밤|새벽|오전|오후)?"
    r"\s*(?:에|엔|에는)?\s*"
)


def _without_days(sentence: str, ref: date) -> str:
    """A sentence with its words of now blanked (the day a notice came is no event's; a day
    it gives the event keeps: "날짜가 12월 11일로 바뀌었대요")."""
    for start, end in sorted(find_when(sentence, ref).spans, reverse=True):
        if NOWISH.fullmatch(sentence[start:end]):
            sentence = sentence[:start] + " " + sentence[end:]
    return sentence


_NAMING = re.compile(r"['‘\"“]|제목|이름|타이틀|(?i:\b(?:title|name|call\s+it)\b)")
_HEADER = re.compile(
    r"^[ \t]*(?:from|sent|to|cc|date|보낸\s*사람|받는\s*사람|보낸\s*날짜|날짜)[ \t]*[:：].*$",
    re.IGNORECASE | re.MULTILINE,
)
_SENDER = re.compile(
    r"^[ \t]*(?:from|sent|보낸\s*사람)[ \t]*[:：]|"
    r"original\s+message|forwarded\s+message|전달된\s*메시지",
    re.IGNORECASE | re.MULTILINE,
)
_SUBJECT = re.compile(r"^([ \t]*)(?:subject|제목)[ \t]*[:：][ \t]*", re.IGNORECASE | re.MULTILINE)


def _mail_body(block: str) -> str:
    """A pasted block as the event is read from it: a mail's header lines (sender, date
    sent, recipients) left out where they come as a header (with a subject or a sender in
    the same paragraph: "Date: Thursday, December 17" in the body stays), a subject as a
    plain line (its label is no name the user gave)."""
    paragraphs = []
    for paragraph in re.split(r"(\n\s*\n)", block):
        if _SENDER.search(paragraph):
            # ("제목: 포트폴리오 리뷰 / 날짜: 12월 5일" with no sender is a form the user
            # filled: its lines stay)
            paragraph = _SUBJECT.sub(r"\1", _HEADER.sub("", paragraph))
        paragraphs.append(paragraph)
    return re.sub(r"\n{3,}", "\n\n", "".join(paragraphs)).strip()


def split_operations(message: str) -> list[tuple[str, str]]:
    """The schedule operations a message asks for, in order, as (clause, tool name). A
    memo is read from the whole message first; a clause with nothing but its verb joins the
    clause before; a clause asking for nothing is left out; an add naming two dated events
    ("A이랑 B 넣어줘") is two adds. Always at least one operation (a get by default). Pasted
    mail or a notice is no request: the operations are the user's own words', each
    reading its event from the block (`pasted_block`)."""
    pasted = pasted_block(message)
    if pasted is not None and not _notice_parts(message):
        words, block = pasted
        if each := _notice_parts(f"{_as_lines(block)}\n{words}"):
            # "둘 다 넣어줘" before a notice of two dated lines: one add for each
            return [(part, "add_schedule") for part in each]
        # (each operation reads it: "이거대로 바꿔줘" after a pasted chat moves what it says;
        # a delete that names its item reads only its own words: "기존 카카오 면접은 지우고
        # 아래 걸로 넣어줘" deletes that one, whatever day the notice gives)
        # (in the order the user wrote them: "[토스] 면접 안내 … ↑ 이거 토스 1차 면접으로
        # 넣어줘" keeps the request after the notice it points up at)
        head = _PASTE_START.search(message)
        first = head is not None and not message[: head.start()].strip()
        return [
            (
                clause
                if kind == "delete_schedule" and _names_its_own(clause)
                else f"{block}\n\n{clause}"
                if first
                else f"{clause}\n\n{block}",
                kind,
            )
            for clause, kind in split_operations(words)
        ]
    if (said := _said_too(message)) is not None:
        # "… 뷰노 과제 면접도요~ 간호사 출신이라 과제가 걱정이네요": the event, not the remark
        message = said
    memo, text = memo_of(message)
    parts: list[str] = []
    at = 0
    english = _english_all_but(text)
    for m in CLAUSE_BREAK.finditer(text):
        if ALL_BUT.match(text, m.start()):
            continue  # "카카오 면접 빼고 다 지워줘": all but one, not a delete and then more
        if (
            english
            and m.start() >= english.end("spared")
            and re.fullmatch(
                r"\s*(?:alone|as\s+(?:it\s+)?is)?", text[english.end("spared") : m.start()], re.I
            )
            and re.search(r"(?i)\b(?:the\s+rest|else|others?)\b", text[m.end() :])
        ):
            continue  # "keep only the study and delete the rest": one request
        group = next(i for i in range(1, (m.re.groups or 0) + 1) if m.group(i) is not None)
        if m.start(group) > at:
            parts.append(text[at : m.start(group)])
        at = m.end(group)
    parts.append(text[at:])
    merged: list[str] = []
    for part in parts:
        if merged and not VERB_ONLY.sub("", part).strip(" ,.?!"):
            if memo and operation_kind(merged[-1]) is not None:
                # "…2시로 당기고 메모에 '신분증' 넣어줘": the verb left was the memo's; the
                # clause before asks for its own operation
                continue
            merged[-1] += " " + part
        else:
            merged.append(part)
    operations: list[tuple[str, str]] = []
    for part in merged:
        kind = operation_kind(part)
        if kind is None:
            continue
        if (
            kind == "update_schedule"
            and operations
            and operations[-1][1] == "add_schedule"
            and RENAME_SAID.search(part)
            and not SHIFT.search(part)
            and not has_when(part)
        ):
            # "… 잡아줘. 제목 네이버 코테로 해줘": the name of the item just asked for
            operations[-1] = (f"{operations[-1][0]} {part}", "add_schedule")
            continue
        free = IF_FREE.search(part)
        looked = bool(operations) and operations[-1][1] == "get_schedule"
        if kind == "add_schedule" and free and not looked:
            # "12월 5일 일정 비어 있으면 … 잡아줘": look first, then add if nothing is there;
            # "없으면 그날 오후 6시에 …": the condition first, the day the add names
            before = part[: free.start()]
            look = before if before.strip(" ,.") else part[free.end() :]
            operations.append((look, "get_schedule"))
        if kind == "add_schedule":
            # (a memo for two dated items names them, it adds nothing: "12월 4일 네이버 면접
            # 12월 10일 카카오 면접 둘 다 메모에 '정장'")
            operations += [
                (p, kind) for p in _notice_parts(part) or _dated_parts(part, each=not memo)
            ]
        elif kind == "update_schedule":
            operations += [(p, kind) for p in _moved_parts(part)]
        elif kind == "delete_schedule":
            operations += [(p, kind) for p in _deleted_parts(part)]
        else:
            operations.append((part, kind))
    if not operations:
        kind = operation_kind(text) or ("add_schedule" if states_event(text) else "get_schedule")
        operations.append((text, kind))
    return operations


# What a date and time leave of a line that names an event: no word of plans or of time.
_NOT_EVENT_WORDS = {
    "일정",
    "스케줄",
    "약속",
    "캘린더",
    "달력",
    "오전",
    "오후",
    "저녁",
    "아침",
    "밤",
}


# The event's existence told at the sentence's end ("… 시험 있어요", "… 면접 있습니다").
# (of an event, not "시간 있어요", "할 말 있어요")
_TOLD_EVENT = re.compile(
    r"면접|인터뷰|시험|코테|코딩\s*테스트|인적성|테스트|설명회|미팅|스터디|약속|모임|상담|교육|"
    r"세미나|특강|행사|검진|박람회|(?i:interview|meeting|exam)"
)
EXISTS_TOLD = re.compile(r"(?:이|가)?\s*(?:있어요|있습니다|있음)\s*[.!~ㅎㅋ]*\s*$")


def states_event(text: str) -> bool:
    """A line stating an event with its day and time and no verb ("12월 2일 쏘카 전화면접 오후
    4시 반", "1/4 월 오전 10시 신한은행 디지털 직무 면접"): something to put in the schedule,
    not a question about it ("12월 2일 일정?", "내일 3시 면접 있나")."""
    ref = today_seoul()
    when = find_when(text, ref)
    if when.date is None or when.time is None or "?" in text:
        return False
    rest = text
    for start, end in sorted(when.spans, reverse=True):
        rest = rest[:start] + " " + rest[end:]
    tokens = kiwi().tokenize(rest)
    if not tokens:
        return False  # "금요일 오후 3시": a day and a time, no event named
    # a predicate says something of the event; an adnominal inside a name does not
    # ("우아한형제들 커피챗": 우아하 + ㄴ modifies the noun after it)
    predicates = [
        t
        for t, after in zip(tokens, [*tokens[1:], None], strict=True)
        if t.tag in ("VV", "VA", "VX", "XSV", "XSA", "EF", "VCP")
        and not (after is not None and after.tag == "ETM")
    ]
    # "3주 뒤 오전 10시에 LG CNS 인적성 시험 있어요": the event said to be there, told as a
    # fact (a question asks with a question word, "있나", "있는지" or "?")
    exists = EXISTS_TOLD.search(rest) and _TOLD_EVENT.search(rest) and not WH_WORD.search(rest)
    if predicates and not (exists and len(predicates) <= 2):
        return False
    nouns = [t.form for t in tokens if t.tag in ("NNG", "NNP", "SL")]
    return any(n not in _NOT_EVENT_WORDS for n in nouns)


def _notice_parts(clause: str) -> list[str]:
    """A pasted notice with an event on each of several lines, all asked for ("둘 다 넣어줘",
    or one quoted title for each: "'롯데 L-TAB', '롯데 1차 면접'으로"): one clause per dated
    line, with the notice's undated lines, the request and that line's title; [] when the
    clause is not that."""
    ref = today_seoul()
    lines = [line for line in clause.split("\n") if line.strip()]
    if len(lines) < 3:
        return []
    request = lines[-1]
    dated = [n for n, line in enumerate(lines[:-1]) if find_when(unquoted(line), ref).date]
    titles = [q.group(0) for q in QUOTED.finditer(request)]
    if len(dated) < 2 or find_when(unquoted(request), ref).date:
        return []
    if titles and len(titles) != len(dated):
        return []
    if not titles and not _BOTH.search(request):
        return []
    rest = [line for n, line in enumerate(lines[:-1]) if n not in dated]
    asked = QUOTED.sub(" ", request)
    named = _NAME_LIST.search(asked) if not titles else None
    names = _names_listed(named.group(1)) if named else []
    if named is not None and len(names) == len(dated):
        # "제목은 제주항공 필기, 제주항공 시뮬 평가로", "LG유플 1차면접, 2차면접으로 둘 다":
        # a name for each, in the order the notice gives them
        titles = [f"'{n}'" for n in names]
        asked = asked[: named.start()] + asked[named.end() :]
    if not titles:
        # each line's own label ("▶ L-TAB: 12/13(일) 오전 10시"), after the organisation the
        # notice comes from, as the user would name it ("롯데웰푸드 L-TAB")
        company = rank_organization("\n".join(lines[:-1]))
        for n in dated:
            line = lines[n]
            for start, end in sorted(find_when(line, ref).spans, reverse=True):
                line = line[:start] + " " + line[end:]
            label = re.split(r"[:：(]", _NOTICE_BULLET.sub("", line))[0].strip()
            label = re.sub(r"\s*(?:일정|스케줄)$", "", label)  # "면접 일정": 면접
            if not _WHEN_LABEL.sub(" ", label).strip():
                return []  # "일시: 12월 5일 오후 3시": a field of the one event the notice is
            titles.append(
                f"'{company} {label}'" if company and company not in label else f"'{label}'"
            )
    return ["\n".join([*rest, lines[n], f"{asked} {titles[i]}"]) for i, n in enumerate(dated)]


# Names for several events at once, closing with 로: "제목은 A, B로요", "A, B로 둘 다 넣어줘".
_NAME_LIST = re.compile(
    r"(?:(?:제목|이름)(?:은|는|을|를)?\s*|^\s*)"
    r"((?:[^,\s][^,\n]{0,20}?\s*,\s*)+[^,\n]{1,20}?)\s*(?:으로|로)(?:요)?(?=\s|$|[.!~])"
)


# How many of the user's items of a kind ("면접 몇 개야?", "이번 달 스터디 몇 번 있어?").
_KIND_COUNTED = re.compile(
    rf"(?:{_EVENT_KINDS}|일정|스케줄)\s*(?:이|가|은|는)?\s*몇\s*(?:개|번|건)"
)


def _names_listed(said: str) -> list[str]:
    """The names of a list ("A, B"), a later one said without the head the first one has
    ("LG유플 1차면접, 2차면접") given it ("LG유플 2차면접")."""
    names = [n.strip(" '\"") for n in said.split(",") if n.strip(" '\"")]
    if not names:
        return []
    head = names[0].split()[0] if len(names[0].split()) > 1 else ""

    def elliptic(name: str) -> bool:
        # (shorter than the first, opening with no name of its own: "실기 특강", not "토스")
        first = analysed(name)[:1]
        return (
            len(name.split()) < len(names[0].split())
            and head not in name
            and not (first and first[0].tag in ("NNP", "SL"))
            and bool(names_a_stage(name) or re.search(_EVENT_KINDS, name))
        )

    return [f"{head} {n}" if head and i and elliptic(n) else n for i, n in enumerate(names)]


# The words a notice labels its dates with; a label of nothing else names no event ("일시",
# "회신 기한"), one with more does ("면접 일정", "서류 마감").
_WHEN_LABEL = re.compile(r"일시|일자|날짜|시간|시각|기한|일정|회신|응답")
_NOTICE_BULLET = re.compile(r"^\s*[\-•·*▶■□◆●○▷►]+\s*")


_DAY_AFTER = re.compile(r"(?:그\s*)?(?:다음\s*날|담\s*날|이튿날|전날)")


def _dated_parts(clause: str, each: bool = True) -> list[str]:
    """An add clause cut where a joined noun phrase starts with a date of its own (and, when
    `each`, where an event follows its own date with no joining word)."""
    ref = today_seoul()
    own = unquoted(clause, in_place=True)  # (its positions cut the clause)
    for m in NOUN_JOIN.finditer(own):
        left, right = clause[: m.start()], clause[m.end() :]
        later = find_when(right, ref)
        # the second event dated by its own day, or "같은 날 오후 5시" (the first one's day)
        # (or "그 다음날 오후 3시": the day after the first one's)
        dated = later.date or (
            later.time and (SAME_DAY.match(right.strip()) or _DAY_AFTER.match(right.strip()))
        )
        first = find_when(left, ref)
        if first.date and dated:
            rest = left
            for start, end in sorted(first.spans, reverse=True):
                rest = rest[:start] + rest[end:]
            if later.date and later.date_span and not rest.strip(" ,"):
                # "화요일이랑 목요일 저녁 7시에 헬스 넣어줘": one event on both days, the
                # first day taking what the second one says
                start, end = later.date_span
                return [f"{left} {right[:start]}{right[end:]}".strip(), *_dated_parts(right)]
            return [left, *_dated_parts(right)]
        opens_with_hour = later.time_span is not None and later.time_span[0] == 0
        if first.date and first.time and later.time and opens_with_hour and first.date_span:
            # "낼 오전 10시 A 확인이랑 오후 2시 B 커피챗 둘 다 넣어줘": the second event opens
            # with its own hour on the first one's day
            day = left[slice(*first.date_span)]
            return [left, *_dated_parts(f"{day} {right}")]
    return _each_dated_event(clause, own, ref) if each else [clause]


# Words between two dated events that tie the second to the first (a correction, an order):
# "목요일 면접 아니고 금요일", "면접 끝나고 모레 …"
_TIED = re.compile(
    r"아니|말고|대신|끝나|마치|전에|후에|뒤에|전날|다음\s*날|보다|[인는]데|니까|라서"
)


def _each_dated_event(clause: str, own: str, ref: date) -> list[str]:
    """ "낼 오전11시 cu면접 모레 오후3시 gs면접 둘다 넣어줘": each event named after its own
    date, with no joining word, is an add of its own; the clause whole otherwise."""
    first = find_when(own, ref)
    if first.date is None or first.date_span is None:
        return [clause]
    after = max(end for _, end in first.spans)
    second = find_when(own[after:], ref)
    if second.date is None or second.date_span is None:
        return [clause]
    cut = after + second.date_span[0]
    between, rest = own[after:cut], own[cut:]
    later = find_when(rest, ref)
    for start, end in sorted(later.spans, reverse=True):
        rest = rest[:start] + rest[end:]

    def names(text: str) -> bool:
        return any(w not in ("일정", "스케줄", "시간") for w in content_words(text))

    # (not a range or a new value: "12월 7일 가족여행 12월 9일까지", "… 12월 8일로 옮겨졌대";
    # nor one of them asked for: "… 중에 하나만 넣어줘", "1차만 넣어줘")
    end = after + max(e for _, e in second.spans)
    if re.match(r"\s*(?:까지|부터|~|에서|(?:으로|로)(?![가-힣]))", own[end:]) or re.search(
        r"중에|하나만|[가-힣0-9]만\s*(?:넣|등록|추가|잡)|(?i:\bonly\b)", own[cut:]
    ):
        return [clause]
    if names(between) and names(rest) and not _TIED.search(between):
        return [clause[:cut], *_dated_parts(clause[cut:])]
    return [clause]


def _moved_parts(clause: str) -> list[str]:
    """An update clause moving two items with one verb ("네이버 면접은 12월 7일로, 카카오 면접은
    12월 14일로 옮겨줘"): each part names its own new value, and the verb goes with both."""
    ref = today_seoul()
    own = unquoted(clause)
    verb = list(MOVE_VERB.finditer(own))
    if not verb:
        return [clause]
    tail = clause[verb[-1].start() :]
    for m in MOVE_JOIN.finditer(own, 0, verb[-1].start()):
        left, right = clause[: m.start()], clause[m.end() :]
        named = [find_when(part, ref) for part in (left, right)]
        if NEW_VALUE_END.search(left) and all(w.date or w.time for w in named):
            return [f"{left} {tail}", *_moved_parts(right)]
    return [clause]


def is_compound(message: str) -> bool:
    """The message asks for more than one schedule operation (see split_operations)."""
    return len(split_operations(message)) >= 2


def has_when(message: str) -> bool:
    """The message names a day, a time or a week (the same resolver the tools use)."""
    ref = today_seoul()  # any reference day: only whether something is named matters
    when = find_when(message, ref)
    return bool(when.date or when.time or week_range(message, ref))


def _cosine(a: list[float], b: list[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    return dot / (math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b)))


@lru_cache(maxsize=1)
def _examples() -> list[dict[str, Any]]:
    lines = EXAMPLES.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


class ExampleRouter:
    """Nearest labelled examples by embedding; decides only with a clear margin."""

    def __init__(self, embeddings: Any, margin: float) -> None:
        self.embeddings = embeddings
        self.margin = margin
        rows = _examples()
        self.labels = [r["route"] for r in rows]
        self.vectors = embeddings.embed_documents([r["message"] for r in rows])

    def best(self, message: str) -> tuple[str, float]:
        """The nearest route whatever the margin (when no model can do better)."""
        decision = self._rank(message)
        return decision[0][0], decision[0][1] - decision[1][1]

    def _rank(self, message: str) -> list[tuple[str, float]]:
        vector = self.embeddings.embed_query(message)
        best: dict[str, float] = {}
        for label, v in zip(self.labels, self.vectors, strict=True):
            best[label] = max(best.get(label, -1.0), _cosine(vector, v))
        return sorted(best.items(), key=lambda kv: -kv[1])

    def route(self, message: str) -> RouteDecision:
        ranked = self._rank(message)
        gap = ranked[0][1] - ranked[1][1]
        return RouteDecision(ranked[0][0] if gap >= self.margin else None, "examples", gap)
