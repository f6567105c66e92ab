"""Chat spellings read as the standard ones, so that every rule downstream sees one form.

People typing on a phone write 뭐 as "머" ("담주 머있지", "숫자 머임"), 거 as "꺼" after a
word ("첫째꺼", "밑에꺼", "그날꺼"), 그냥 as "걍", 아무것도 as "암것도", 너무 as "넘" and
"내 일정" without its space ("내일정"), 당겨 as "땡겨", minutes as Sino-Korean words ("삼십분"
is 30분), and an item's field in English before a Korean particle ("title을" is 제목을). Each
is rewritten only where it stands as that word (a whole word, or before the endings it takes
in chat), never inside another word ("머리", "머신러닝", "꺼내", "넘어"). Spacing is kept
otherwise: the positions of what follows move by at most one character per rewrite.
"""

from __future__ import annotations

import re

_SPELLINGS: tuple[tuple[re.Pattern[str], str], ...] = (
    # 머 as 뭐: alone, or before the endings and verbs it takes ("머있지", "머임", "머였지",
    # "머 쓸수있는지", "머야", "머하지"); not 머리, 머신, 머물다, 머그
    (
        re.compile(
            r"(?<![가-힣])머(?=\s|$|[?!.,~]|있|였|임|야|지|냐|냥|하|해|했|할|쓰|먹|라|든|가\s)"
        ),
        "뭐",
    ),
    # 꺼 as 거 after a word ("첫째꺼", "밑에꺼", "카카오꺼는"); not 꺼내다, 꺼지다, 꺼져
    (re.compile(r"(?<=[가-힣])꺼(?=\s|$|[?!.,~]|는|도|만|를|랑|로|야|임|요|\d)"), "거"),
    (re.compile(r"(?<![가-힣])걍(?![가-힣])"), "그냥"),
    (re.compile(r"(?<![가-힣])암것도"), "아무것도"),
    (re.compile(r"(?<![가-힣])넘(?=\s+[가-힣])(?!\s*어)"), "너무"),
    # "내일정" is 내 일정 typed without its space ("그회사 면접 내일정에서 2시간 뒤로",
    # "내일정 다 보여줘"), never 내일 + 정; "내일정리" is 내일 정리 ("일정리" is no word)
    (re.compile(r"(?<![가-힣])내일정(?!리|오|각)"), "내 일정"),
    # 삭제 typed with ㅐ for ㅔ ("카카오면접 삭재좀"): 삭재 is no word
    (re.compile(r"삭재"), "삭제"),
    # 당기다 said 땡기다 ("1시간 땡겨줘", "30분만 땡길 수 있어?", "땡겼어"); not 땡땡이, 땡처리
    (re.compile(r"(?<![가-힣])땡(?=겨|기|길|김|겼)"), "당"),
)
# An item's field named in English inside a Korean sentence ("title을 …로 바꿔줘", "memo에
# …", "time은 그대로"): the Korean word, only with a Korean particle after it, never after
# another English word ("Lead time을 줄인 사례") and never inside quotes.
_FIELD_WORDS = tuple(
    (
        re.compile(
            rf"(?i)(?<![A-Za-z])(?<![A-Za-z]\s){english}"
            r"(?=\s?(?:을|를|은|는|도|만|이|가|에|으로|로)(?![가-힣]{2}))"
        ),
        korean,
    )
    for english, korean in (
        ("title", "제목"),
        ("name", "이름"),
        ("memo", "메모"),
        ("note", "메모"),
        ("time", "시간"),
        ("date", "날짜"),
    )
)
_DIGIT = dict(zip("일이삼사오육칠팔구", "123456789", strict=True))
# Minutes counted in Sino-Korean words ("삼십분만 늦게", "십오 분 일찍", "사십오분"): the tens
# with 십 (a lone 이분/오분 is "this person"/"오 분", too often not a count to rewrite).
_SINO_MINUTES = re.compile(r"(?<![가-힣])([이삼사오]?)십([일이삼사오육칠팔구]?)(?=\s*분)")


def _sino_minutes(m: re.Match[str]) -> str:
    return f"{_DIGIT.get(m.group(1), '1')}{_DIGIT.get(m.group(2), '0')}"


# An acknowledgement or a greeting that opens a message and asks nothing ("ㅇㅋ 그날 나 뭐
# 있나 봐줘", "ok add a mock interview …", "Great, please add …"): the request is what
# follows it.
_OPENING_ACK = re.compile(
    r"^\s*(?:ㅇㅋ|ㅇㅇ+|오케이|오키|okay|ok|굿|넵|네네|웅|응응?|좋아요(?=[\s,.!~])|알겠어요?|알겠습니다|"
    r"great|cool|alright|sure|perfect|thanks|thank you|고마워요?|감사합니다|"
    # a greeting before the request ("안녕하세요. 12월 4일 면접 몇 시인지 …", "Hi, can you …")
    r"안녕하세요|안녕|하이|hi|hello|hey)"
    r"(?:[\s,.!~]+|(?<=[ㄱ-ㅎ])(?=[가-힣]))(?=\S)",
    re.IGNORECASE,
)


_GREETING = re.compile(r"\s*(?:안녕|하이|hi\b|hello|hey)", re.IGNORECASE)


def without_opening_acknowledgement(text: str) -> str:
    """The text without an acknowledgement it opens with, when something follows it (a bare
    "ㅇㅋ" or "감사합니다" stays as it is: it is the whole message)."""
    m = _OPENING_ACK.match(text)
    rest = text[m.end() :] if m else ""
    if m and _GREETING.match(m.group(0)) and len(rest.split()) < 3:
        return text  # "안녕~ 잘 지냈어?", "hi there": the greeting is the message
    return rest if m and rest.strip() else text


def standard_spelling(text: str) -> str:
    """The text with chat spellings of common words in their standard form."""
    for pattern, standard in _SPELLINGS:
        text = pattern.sub(standard, text)
    # (minutes and field words in a quoted title or memo are as the user wrote them:
    # "'삼십분 명상'", "'Lead time을 줄인 사례'")
    parts = _QUOTED.split(text)
    return "".join(p if _QUOTED.fullmatch(p) else _outside_quotes(p) for p in parts)


def _outside_quotes(text: str) -> str:
    for pattern, standard in _FIELD_WORDS:
        text = pattern.sub(standard, text)
    return _SINO_MINUTES.sub(_sino_minutes, text)


_QUOTED = re.compile(r"('[^'\n]*'|\"[^\"\n]*\"|‘[^’]*’|“[^”]*”)")
