"""Korean particles that depend on the word before them (받침): 을/를, 이/가, 은/는, 과/와,
이라고/라고, 으로/로, chosen by how the word is read aloud, English and numbers included."""

from __future__ import annotations

import re

_PAIRS = {
    "을": "를",
    "를": "을",
    "이": "가",
    "가": "이",
    "은": "는",
    "는": "은",
    "과": "와",
    "와": "과",
    "이라고": "라고",
    "라고": "이라고",
    "이에요": "예요",
    "예요": "이에요",
}
_WITH_FINAL = {"을", "이", "은", "과", "이라고", "이에요"}
RIEUL = "ㄹ"
# How the last letter of an acronym or a number is read: 엘, 엠, 엔; 영, 일, 삼, 육, 칠, 팔.
_LETTER_FINAL = {"L": RIEUL, "M": "ㅁ", "N": "ㄴ", "R": RIEUL}
_DIGIT_FINAL = {"0": "ㅇ", "1": RIEUL, "3": "ㅁ", "6": "ㄱ", "7": RIEUL, "8": RIEUL}
# English words whose Korean reading ends in a consonant the spelling does not show
# (스프링 is regular: "-ng"; these are not): 슬랙, 하둡, 깃, 잭슨, 웹, 랩, 팀, 룩.
_WORD_FINAL = {
    "slack": "ㄱ",
    "hadoop": "ㅂ",
    "git": "ㅅ",
    "web": "ㅂ",
    "lab": "ㅂ",
    "pub": "ㅂ",
    "jackson": "ㄴ",
    "outlook": "ㄱ",
    "facebook": "ㄱ",
    "notebook": "ㄱ",
    "jupyter notebook": "ㄱ",
    "mac": "ㄱ",
    "tiktok": "ㄱ",
    "photoshop": "ㅂ",
}
_HANGUL_FINALS = " ㄱㄲㄳㄴㄵㄶㄷㄹㄺㄻㄼㄽㄾㄿㅀㅁㅂㅄㅅㅆㅇㅈㅊㅋㅌㅍㅎ"


def final_consonant(word: str) -> str | None:
    """The final consonant (받침) of how `word` is read in Korean, None when it ends in a
    vowel: Hangul by its last syllable; digits and acronyms by their Korean names (7 칠,
    SQL 에스큐엘); English words by their usual reading (Spring 스프링, Python 파이썬,
    Oracle 오라클, Kafka 카프카, React 리액트)."""
    if word.strip().lower().endswith("c#"):  # 씨샵
        return "ㅂ"
    text = re.sub(r"[^0-9A-Za-z가-힣]+$", "", word.strip())
    if not text:
        return None
    last = text[-1]
    if "가" <= last <= "힣":
        return _HANGUL_FINALS[(ord(last) - 0xAC00) % 28].strip() or None
    if last.isdigit():
        return _DIGIT_FINAL.get(last)
    tail = re.search(r"[A-Za-z][A-Za-z.+#]*$", text)
    token = tail.group(0) if tail else text
    lowered = text.lower()
    for known, final in _WORD_FINAL.items():
        if lowered.endswith(known):
            return final
    if token.isupper() or len(token) <= 1:  # an acronym: read letter by letter
        return _LETTER_FINAL.get(last.upper())
    if lowered.endswith("ng"):
        return "ㅇ"
    if lowered.endswith(("le", "l")):
        return RIEUL
    if lowered.endswith(("m", "n")):
        return {"m": "ㅁ", "n": "ㄴ"}[lowered[-1]]
    return None


def particle_for(word: str, particle: str) -> str:
    """The form of `particle` (either form of a pair) that fits after `word`:
    을/를, 이/가, 은/는, 과/와, 이라고/라고, 이에요/예요, and 으로/로 (로 after a vowel or ㄹ)."""
    final = final_consonant(word)
    if particle in ("으로", "로"):
        return "으로" if final is not None and final != RIEUL else "로"
    return particle if (particle in _WITH_FINAL) == (final is not None) else _PAIRS[particle]
