"""What a resume line claims: work done, something learned, or something wished for.

A recruiter reads "Spring Boot로 결제 API 개발" as experience, "Spring Boot 온라인 강의 수강"
as study, and "Spring Boot로 서버를 만들어 보고 싶습니다" as a wish. The three weigh differently
as evidence for a requirement (nodes/analysis/requirements.py): a wish shows nothing, study
shows a requirement at most partly.

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

Modality = Literal["practice", "learning", "aspiration"]

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


@lru_cache(maxsize=4096)
def line_modality(line: str) -> Modality:
    """practice | learning | aspiration for one resume line (a sentence or a bullet)."""
    tokens = kiwi().tokenize(line)
    wish = _WISH_EN.search(line) is not None
    learning = _LEARNING_EN.search(line) is not None
    for token in tokens:
        pair = (token.tag, token.form)
        wish = wish or pair in _WISH_MORPHEMES
        learning = (
            learning
            or pair in _LEARNING_MORPHEMES
            or (token.tag in {"NNG", "NNP"} and token.form in _LEARNING_NOUNS)
        )
    if wish:
        return "aspiration"
    return "learning" if learning else "practice"
