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
from functools import lru_cache
from pathlib import Path
from typing import Any

from nodes.shared.korean_dates import find_when, today_seoul, week_range

ROUTES = ("rag", "calendar", "schedule", "general")
EXAMPLES = Path(__file__).with_name("router_examples.jsonl")

ADD_VERB = re.compile(r"추가|등록|넣어|잡아|만들어|기록")
MOVE_VERB = re.compile(r"바꿔|변경|수정|옮겨|미뤄|당겨")
DELETE_VERB = re.compile(r"취소|삭제|지워|빼\s*줘|없애")
SCHEDULE_VERB = re.compile("|".join(v.pattern for v in (ADD_VERB, MOVE_VERB, DELETE_VERB)))
LIST_VERB = re.compile(r"보여|알려|조회|확인")
# Two requests in one message ("다음주 일정 보여주고 금요일 면접은 3시로 옮겨줘"): two
# operation verbs, joined ("...고", "그리고", a comma, "또"). The deterministic path does one
# thing per message; a tool-calling model can do both.
OPERATION = re.compile("|".join(v.pattern for v in (LIST_VERB, SCHEDULE_VERB)))
JOINED = re.compile(r"고\s|그리고|그다음|,|또\s|하고|랑\s")
SCHEDULE_WORD = re.compile(r"일정|스케줄|약속|캘린더|달력")
MY_SCHEDULE = re.compile(r"(?:내|나의|제)\s*(?:일정|스케줄)|일정\s*(?:알려|보여|확인|뭐|있)")
RECRUIT_WORD = re.compile(
    r"코딩\s*테스트|코테|서류\s*(?:마감|접수|발표)|마감일?|접수\s*기간|전형|합격\s*발표|발표일|"
    r"채용\s*일정|면접\s*(?:일정|날짜|언제)|공고\s*일정"
)
WHEN = re.compile(r"언제|며칠|몇\s*일|날짜|일정이|마감이|까지야|까지인지")
# The user's own documents: a document word with a sign that it is theirs ("내 이력서",
# "이력서에 적은", "올린 포트폴리오"), or what a posting they hold says.
OWN = r"(?:내|제|나의|저의|올린|적은|쓴|써\s*둔|적어|썼|넣었|넣은|기준)"
DOC_NOUN = r"(?:이력서|자소서|자기\s*소개서|포트폴리오|경력\s*기술서|문서|경력|프로젝트|경험)"
DOC_WORD = re.compile(
    rf"{OWN}\s*{DOC_NOUN}|{DOC_NOUN}(?:에|에서|의)?\s*(?:\S+\s*)?{OWN}|"
    r"공고(?:에서|의|에\s*나온)|요구\s*(?:사항|조건|기술)|우대\s*사항|자격\s*요건|강조할|어필"
)
ASK = re.compile(r"알려|정리|보여|어떻게\s*돼|확인")
# Advice on preparing ("코딩테스트 준비는 어떤 순서로 하면 좋아?"): general, even when it
# names a recruitment stage, unless it asks when or acts on a schedule.
PREPARE = re.compile(r"준비|공부|대비|연습")
HOW = re.compile(r"어떻게|어떤\s*순서|방법|팁|뭘|뭐부터|무엇을|요령")


@dataclass(frozen=True)
class RouteDecision:
    route: str | None  # None: the fast router is unsure, the model decides
    by: str  # "keywords" | "examples" | "model"
    margin: float = 0.0


def keyword_route(message: str) -> str | None:
    """Clear cases by rule; None when the rules do not settle it."""
    schedule_verb = bool(SCHEDULE_VERB.search(message))
    schedule_word = bool(SCHEDULE_WORD.search(message))
    recruit = bool(RECRUIT_WORD.search(message))
    docs = bool(DOC_WORD.search(message))
    mine = bool(MY_SCHEDULE.search(message))
    if (
        PREPARE.search(message)
        and HOW.search(message)
        and not (docs or mine or schedule_verb or schedule_word or WHEN.search(message))
    ):
        return "general"
    if (
        recruit
        and (WHEN.search(message) or "공고" in message or ASK.search(message))
        and not (docs or mine or schedule_verb)
    ):
        return "calendar"
    if recruit and "공고" in message and schedule_verb:
        return "calendar"  # "카카오 공고 일정을 내 일정에 추가해줘": the posting's stages
    if schedule_verb and (schedule_word or re.search(r"면접|스터디|미팅|약속", message)):
        return "schedule"
    if schedule_verb and has_when(message):
        return "schedule"  # "수요일 오후 4시 반에 토스 커피챗 등록해 줘"
    if MY_SCHEDULE.search(message) and not recruit:
        return "schedule"
    if docs and not schedule_word:
        return "rag"
    return None


def is_compound(message: str) -> bool:
    """The message asks for more than one operation (see OPERATION and JOINED)."""
    return len(OPERATION.findall(message)) >= 2 and bool(JOINED.search(message))


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
