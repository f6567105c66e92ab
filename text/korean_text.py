"""Korean words by morphological analysis (Kiwi, kiwipiepy): nouns and foreign words, the
content of a sentence without its particles and endings ("파이프라인을 만들었습니다" ->
"파이프라인"). The analyser loads once (about 1.5 s), lazily; call from a worker thread."""

from __future__ import annotations

import re
import threading
from functools import lru_cache
from typing import Any

CONTENT_TAGS = {"NNG", "NNP", "SL", "SH"}
# Common Korean surnames: a name of two to four syllables starts with one (PII masking reads
# a bare name by them, the organisation finder tells a person from a company).
SURNAMES = frozenset(
    "김이박최정강조윤장임한오서신권황안송류전홍고문양손배백허유남심노하곽성차주우구민"
    "진지엄채원천방공현함변염여추도소석선설마길연위표명기반라왕금옥육인맹제모탁국어은"
    "편용예봉경사"
)
# Nouns that carry no topic of their own.
GENERIC = {
    "경험",
    "생각",
    "부분",
    "정도",
    "이유",
    "방법",
    "내용",
    "사람",
    "때문",
    "경우",
    "문제",
    "질문",
    "답변",
    "설명",
    "말씀",
    "본인",
    "자신",
    "관련",
    "사용",
    "진행",
    "결과",
    "과정",
    "상황",
    "가지",
    "무엇",
    "어떤",
    "실제",
    "이상",
    "이하",
    "기반",
}


def squash(text: str) -> str:
    """The text without white space, lower-cased: how a phrase is looked for in another
    ("MySQL 인덱스" in "mysql인덱스를")."""
    return re.sub(r"\s", "", text).lower()


# A jamo slipped into a word while typing ("면ㅈ접", "스터ㄷ디"): one letter alone between two
# syllables of the same word. Runs of jamo ("ㅇㅋ", "ㅋㅋ") and a letter at a word's edge are
# the user's own.
# (consonants only, not ㅋ and ㅎ: "면접ㅠ준비", "좋다ㅋ진짜" are the user's feelings)
_SLIPPED_JAMO = re.compile(r"(?<=[가-힣])[ㄱ-ㅊㅌㅍ](?=[가-힣])")


def without_slips(text: str) -> str:
    """The text without jamo slipped into its words ("한국전력 면ㅈ접" -> "한국전력 면접")."""
    return _SLIPPED_JAMO.sub("", text)


_KIWI_LOCK = threading.Lock()


@lru_cache(maxsize=1)
def _build_kiwi() -> Any:
    from kiwipiepy import Kiwi

    return Kiwi()


def kiwi() -> Any:
    """The shared analyser, built once (about 2.5 s) even when the start-up warm-up and a
    first request ask at the same time (lru_cache alone would let both threads build it)."""
    with _KIWI_LOCK:
        return _build_kiwi()


@lru_cache(maxsize=4096)
def analysed(text: str) -> tuple[Any, ...]:
    """Kiwi's tokens of a short text, analysed once: the readers that judge one name or one
    answer in several ways (a coined name? a descriptor? a place?) share one analysis."""
    return tuple(kiwi().tokenize(text))


def compound_nouns(text: str) -> list[str]:
    """Nouns the analyser split inside one written word, joined again ("인적성은" read as
    인 + 적성: 인적성), so a word matches itself whatever its particle."""
    joined: list[str] = []
    run: list[Any] = []
    for token in [*analysed(text), None]:
        if (
            token is not None
            and token.tag in ("NNG", "NNP")
            and run
            and token.start == run[-1].start + run[-1].len
        ):
            run.append(token)
            continue
        if len(run) > 1:
            joined.append("".join(t.form for t in run))
        run = [token] if token is not None and token.tag in ("NNG", "NNP") else []
    return joined


def content_words(text: str) -> list[str]:
    """Nouns (and foreign words) of two or more characters, in order, without repeats."""
    words = []
    for token in analysed(text):  # (one analysis per text: several readers ask of one message)
        if token.tag in CONTENT_TAGS and len(token.form) >= 2 and token.form not in GENERIC:
            words.append(token.form)
    return list(dict.fromkeys(words))
