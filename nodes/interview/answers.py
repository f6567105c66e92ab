"""Reading an answer deterministically: is it an answer at all, does it need a follow-up,
and how does it score on the rubric.

The rubric has four components with anchored levels (docs/decisions.md):
  substance     0-30  how much was said (characters, past the filler)
  relevance     0-25  the question's key terms that the answer takes up
  concreteness  0-25  numbers and results, named technologies, the candidate's own facts
  structure     0-20  reasons and trade-offs (technical) / situation-action-result (personality)
less up to 15 for guesses, hearsay and work handed to others (hedging).
The same answer always gets the same score; no model moves it.

The score a candidate sees is not that sum but a linear model of what the rubric measured
(`RUBRIC_FEATURES`: length, numbers and measured results, reasons, situation-action-result,
hedging, concreteness, and whether it was an answer at all), its weights fitted to the
scores graders from several authors gave (evals/calibrate_rubric.py writes them to
rubric_calibration.json): every weight says "more of this never lowers the score".
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from nodes.interview.measures import EVIDENCE, measured_results
from nodes.interview.stance import hedges, read_stance
from prompts import escape_data
from text.korean_text import GENERIC, analysed, content_words, squash
from text.skills import taxonomy

NON_ANSWER = re.compile(
    r"모르겠|잘 모르|모릅니다|기억이 (?:안|나지)|패스|넘어가|답변하기 어렵|생각이 안|없습니다\.?$"
)
MIN_ANSWER_CHARS = 10
# What an answer that says it cannot answer (or turns away) scores: the lowest substance
# level, nothing else.
CANNOT_SUBSTANCE = 8
# Deducted per guess, hearsay or handed-off task per 100 characters of answer, at most
# HEDGING_MAX points (fitted on the cross-author dev split: 10 of its 13 D answers hedge,
# 5 of its 43 A-C answers do, docs/decisions.md).
HEDGING_WEIGHT = 10
HEDGING_MAX = 15
SHORT_ANSWER_CHARS = 80
_REASONING = re.compile(
    r"때문|왜냐하면|따라서|그래서|대신|장단점|장점|단점|트레이드오프|비교|반면|이유는"
)
_STAR = {
    "situation": re.compile(r"당시|상황|때\b|프로젝트에서|팀에서|하던 중"),
    "action": re.compile(r"제안|주도|조율|설득|분석|도입|개선|정리|해결|했습니다|진행"),
    "result": re.compile(r"결과|덕분|줄었|늘었|단축|향상|감소|증가|성공|배웠|배운"),
}


def is_non_answer(answer: str | None) -> bool:
    """Empty, a few characters, or a short "I don't know"."""
    text = (answer or "").strip()
    if len(re.sub(r"\s", "", text)) < MIN_ANSWER_CHARS:
        return True
    return len(text) < 40 and bool(NON_ANSWER.search(text))


def key_terms(text: str) -> list[str]:
    """The technologies the text names (in its own words) and its other content nouns."""
    terms = [*taxonomy().mentions(text).values(), *content_words(text)]
    seen: set[str] = set()
    out = []
    for term in terms:
        if (key := squash(term)) not in seen:
            seen.add(key)
            out.append(term)
    return out


SIGNALS = {
    "detailed": "충분한 분량으로 설명",
    "keywords_named": "질문의 키워드를 짚어 답함",
    "numbers": "수치로 결과를 제시",
    "star": "상황-행동-결과 구조가 분명",
    "reasoning": "선택의 이유와 대안을 설명",
    "non_answer": "답하지 못함",
    "off_topic": "질문과 다른 이야기로 넘어감",
    "short": "답변이 짧음",
    "keywords_absent": "질문의 키워드를 답변에 직접 쓰지 않음",
    "no_numbers": "성과 수치가 없음",
    "star_gap": "상황-행동-결과 중 일부가 빠짐",
    "no_reasoning": "선택의 이유 설명이 없음",
    "hedged": "추측이나 남의 일로 답함",
}
POSITIVE = {"detailed", "keywords_named", "numbers", "star", "reasoning"}


@dataclass
class Rubric:
    substance: int
    relevance: int
    concreteness: int
    structure: int
    # deducted for guesses, hearsay and work handed to others (stance.hedges)
    hedging: int = 0
    good_points: list[str] = field(default_factory=list)
    improvements: list[str] = field(default_factory=list)
    # Stable keys of what was (not) there (SIGNALS), for session-level patterns.
    signals: list[str] = field(default_factory=list)
    # What the calibrated score is computed from (RUBRIC_FEATURES)
    features: dict[str, float] = field(default_factory=dict)

    def note(self, signal: str, text: str) -> None:
        (self.good_points if signal in POSITIVE else self.improvements).append(text)
        self.signals.append(signal)

    @property
    def score(self) -> int:
        total = self.substance + self.relevance + self.concreteness + self.structure
        return max(0, total - self.hedging)


_CALIBRATION = Path(__file__).with_name("rubric_calibration.json")


@lru_cache(maxsize=1)
def _calibration() -> dict[str, Any]:
    if not _CALIBRATION.exists():
        return {}
    table: dict[str, Any] = json.loads(_CALIBRATION.read_text(encoding="utf-8"))
    return table


@lru_cache(maxsize=1)
def calibrated_floors() -> tuple[int, int, int, int] | None:
    """The lowest calibrated score of an A, B, C and D (evals/calibrate_rubric.py: the
    floors with the most answers in the grader's band on the dev splits), or None."""
    floors = _calibration().get("grade_floors")
    return (floors[0], floors[1], floors[2], floors[3]) if floors else None


def calibrated_score(rubric: Rubric) -> int:
    """The score on the scale graders use: the fitted linear model of the rubric's
    features (evals/calibrate_rubric.py); without a table, the rubric's own sum."""
    table = _calibration()
    weights = table.get("weights")
    if not weights:
        return rubric.score
    return model_score(rubric, weights, float(table["intercept"]))


def model_score(rubric: Rubric, weights: dict[str, float], intercept: float) -> int:
    """A linear model of the rubric's features, within 0..100; an empty answer or a short
    "I don't know" (`is_non_answer`) scores 0. The calibration fits and reads its weights
    through this same function."""
    if "non_answer" in rubric.signals and rubric.score == 0:
        return 0
    total = intercept + sum(float(w) * rubric.features.get(n, 0.0) for n, w in weights.items())
    return max(0, min(100, round(total)))


def _shared(terms: list[str], answer: str) -> list[str]:
    squashed = squash(answer)
    return [t for t in terms if squash(t) in squashed]


def score_answer(
    question: str, anchor: str, answer: str, interview_type: str, facts: dict[str, Any]
) -> Rubric:
    """The anchored rubric; good points and improvements name what was (not) there.
    The question's key terms are its anchor's words and the technologies it names."""
    text = (answer or "").strip()
    rubric = _score_parts(question, anchor, text, interview_type, facts)
    rubric.features = answer_features(text, rubric)
    return rubric


# What the calibrated score reads from an answer (`answer_features`), each oriented so that
# more of it is better, except the last three, which the fit may only weigh against it.
RUBRIC_FEATURES = (
    "log_said",  # log(1 + letters of distinct content words): an account over a line
    "numbers",  # numbers with a unit, at most 5
    "measured",  # measured results (measures.measured_results), at most 3
    "reasoning",  # distinct words of reasons and trade-offs
    "star",  # situation, action and result words present (0..3)
    "concreteness",  # the rubric's part for numbers, named technologies, own facts
    "relevance",  # the rubric's part for the question's key terms taken up
    "hedging",  # the rubric's deduction for guesses, hearsay, work handed to others
    "not_an_answer",  # 1 when it says it cannot answer or turns to another topic
    "short",  # 1 under SHORT_ANSWER_CHARS letters
)
# The features whose weight may only be negative ("less is better").
AGAINST = ("hedging", "not_an_answer", "short")


# What counts as said: the letters of the distinct content words (nouns, verbs, adjectives,
# adverbs, foreign words, numbers), not fillers, particles, endings or repeats; at most
# SAID_CAP, about the most any answer the calibration saw said, so no length beyond it is
# extrapolated.
_SAID_TAGS = ("NN", "VV", "VA", "MAG", "SL", "SN", "XR")
SAID_CAP = 200


def answer_features(text: str, rubric: Rubric) -> dict[str, float]:
    """The measured quantities of one answer (RUBRIC_FEATURES), from the text and the
    rubric's parts."""
    chars = len(re.sub(r"\s", "", text))
    said = sum(len(w) for w in {t.form for t in analysed(text) if t.tag.startswith(_SAID_TAGS)})
    evasive = "non_answer" in rubric.signals or "off_topic" in rubric.signals
    return {
        "log_said": math.log1p(min(said, SAID_CAP)),
        "numbers": float(min(len(EVIDENCE.findall(text)), 5)),
        "measured": float(min(len(measured_results(text)), 3)),
        "reasoning": float(len(set(_REASONING.findall(text)))),
        "star": float(sum(1 for pattern in _STAR.values() if pattern.search(text))),
        "concreteness": float(rubric.concreteness),
        "relevance": float(rubric.relevance),
        "hedging": float(rubric.hedging),
        "not_an_answer": float(evasive),
        "short": float(chars < SHORT_ANSWER_CHARS),
    }


def _score_parts(
    question: str, anchor: str, text: str, interview_type: str, facts: dict[str, Any]
) -> Rubric:
    unanswered = "질문에 답하지 못했습니다. 아는 범위까지라도 생각의 과정을 말해 보세요."
    if is_non_answer(text):
        rubric = Rubric(0, 0, 0, 0)
        rubric.note("non_answer", unanswered)
        return rubric
    # an answer that says it cannot answer, or turns to another topic, is no thin answer:
    # it said something (the lowest substance level) and nothing else of it is scored
    stance = read_stance(question, text)
    if stance.kind == "cannot":
        rubric = Rubric(CANNOT_SUBSTANCE, 0, 0, 0)
        rubric.note("non_answer", unanswered)
        return rubric
    if stance.kind == "evades":
        rubric = Rubric(CANNOT_SUBSTANCE, 0, 0, 0)
        topic = topic_phrase(question, stance.topic[0])
        rubric.note(
            "off_topic",
            f"질문은 {topic}에 대한 것이었는데 답변이 다른 이야기로 넘어갔습니다. "
            "질문에 먼저 답하고, 하고 싶은 이야기는 그 뒤에 이어 붙이세요.",
        )
        return rubric
    chars = len(re.sub(r"\s", "", text))
    substance = 8 if chars < 40 else 16 if chars < SHORT_ANSWER_CHARS else 24 if chars < 200 else 30
    known = taxonomy()
    # What the question is about: the technologies it names (matched by canonical name, so
    # "쿠버네티스" answers "Kubernetes") and the other nouns of its anchor.
    asked_skills = {**known.mentions(question), **known.mentions(anchor)}
    asked_words = [w for w in content_words(anchor) if known.normalise(w) is None]
    answered_skills = set(known.find(text))
    shared = [surface for canon, surface in asked_skills.items() if canon in answered_skills]
    shared += _shared(asked_words, text)
    asked = [*asked_skills.values(), *asked_words]
    relevance = 5 if not asked else min(25, 5 + round(20 * len(shared) / min(len(asked), 3)))
    numbers = EVIDENCE.findall(text)
    own = [
        s for s in (*facts.get("skills", []), *facts.get("experiences", [])) if _shared([s], text)
    ]
    named = taxonomy().find(text)
    concreteness = min(
        25, 10 * min(len(numbers), 1) + 5 * min(len(named), 2) + 5 * min(len(own), 1)
    )
    if interview_type == "personality":
        parts = [name for name, pattern in _STAR.items() if pattern.search(text)]
        structure = round(20 * len(parts) / 3)
    else:
        parts = []
        structure = min(20, 10 * len(set(_REASONING.findall(text))))
    hedged = hedges(text)
    # per 100 characters: one guess in a short answer weighs more than one in a long account
    hedging = min(HEDGING_MAX, round(HEDGING_WEIGHT * 100 * len(hedged) / chars))
    rubric = Rubric(substance, relevance, concreteness, structure, hedging)
    if substance >= 24:
        rubric.note("detailed", "충분한 분량으로 구체적으로 답했습니다.")
    elif substance <= 16:
        rubric.note("short", "답변이 짧습니다. 배경-행동-결과 순서로 두세 문장 이상 설명하세요.")
    # What is measured is whether the answer names the question's key words, not whether it
    # addressed the question: on the cross-author splits an answer without them was never
    # one the graders called off-topic (18 of 70 dev answers, 14 of 69 test, precision 0),
    # and the embedded model's similarity does not tell them apart either (docs/decisions.md).
    # So the note is advice about naming them, never a claim that the answer missed the point.
    if shared:
        rubric.note("keywords_named", f"질문의 키워드({', '.join(shared[:2])})를 짚어 답했습니다.")
    elif asked:
        rubric.note(
            "keywords_absent",
            f"첫 문장에서 질문의 키워드({', '.join(asked[:2])})를 직접 짚으면 답변의 초점이 "
            "분명해집니다.",
        )
    if hedged and hedging >= HEDGING_WEIGHT // 2:
        rubric.note(
            "hedged",
            f"'{hedged[0]}…'처럼 추측하거나 남의 일로 말한 부분이 있습니다. 본인이 직접 한 일과 "
            "확인한 사실로 답하세요.",
        )
    # any number makes an answer concrete (the score above); only a measured result is
    # praised as one
    results = measured_results(text)
    if results:
        rubric.note("numbers", f"수치({results[0]})로 결과를 보여 주었습니다.")
    else:
        rubric.note(
            "no_numbers",
            "무엇이 얼마나 달라졌는지 성과를 수치(예: 응답 시간, 전환율)로 보여 주세요.",
        )
    if interview_type == "personality":
        if len(parts) == 3:
            rubric.note("star", "상황-행동-결과(STAR) 구조가 분명합니다.")
        else:
            missing = [p for p in ("situation", "action", "result") if p not in parts]
            names = {"situation": "상황", "action": "본인의 행동", "result": "결과와 배운 점"}
            gap = ", ".join(names[m] for m in missing)
            rubric.note("star_gap", f"STAR 구조에서 {gap}을 보강하세요.")
    elif structure >= 10:
        rubric.note("reasoning", "선택의 이유와 대안을 함께 설명했습니다.")
    else:
        rubric.note("no_reasoning", "왜 그렇게 했는지, 다른 선택지와 비교한 이유를 덧붙이세요.")
    return rubric


_PHRASE_TAGS = ("NNG", "NNP", "SL", "SN", "SH", "SW", "XSN")
_FILLER_NOUNS = {"그때", "당시", "처음", "정도", "부분", "쪽", "거", "것", "때", "저", "제", "저희"}


_LETTER = re.compile(r"[가-힣A-Za-z]")
_TRAILING_NUMBER = re.compile(r"\s*[\d.,]+$")
_VERB_ENDING = re.compile(r"[가-힣](?:여서|해서|어서|아서|워서|와서|하고|해도|니까|는데|지만)$")


def noun_phrases(text: str) -> list[tuple[str, int]]:
    """The answer's noun phrases as written (runs of nouns, foreign words and numbers with
    the spaces between them: "N+1 쿼리", "SELECT FOR UPDATE", "fetch join"), with their
    positions. Calls the Korean analyser."""
    phrases: list[tuple[str, int]] = []
    run: list[Any] = []

    def close() -> None:
        if run:
            start, end = run[0].start, run[-1].start + run[-1].len
            # never a word cut short: a phrase the analyser began inside a word starts at
            # the word ("스레드풀이" -> "스레드풀", not "레드풀"); a number whose unit the
            # analyser left out is no part of it ("출고 1만 5천 건" -> "출고", not "출고 1")
            while start > 0 and _LETTER.match(text[start - 1]):
                start -= 1
            phrase = text[start:end]
            if end < len(text) and _LETTER.match(text[end]):
                phrase = _TRAILING_NUMBER.sub("", phrase)
            phrase = phrase.strip(" +")
            if len(re.sub(r"\s", "", phrase)) >= 2 and phrase not in _FILLER_NOUNS:
                phrases.append((phrase, start))
            run.clear()

    for token in analysed(text):
        adjacent = not run or token.start - (run[-1].start + run[-1].len) <= 1
        noun = (
            token.tag in _PHRASE_TAGS
            and token.form not in _FILLER_NOUNS
            # a word the analyser did not know that ends like a verb is one ("버벅여서")
            and not (token.tag == "NNP" and _VERB_ENDING.search(token.form))
        )
        if noun and adjacent:
            run.append(token)
        else:
            close()
            if noun:
                run.append(token)
    close()
    return phrases


_IDENTIFIER = re.compile(r"[a-z][A-Z]|_|[A-Za-z]\.[A-Za-z]|[A-Za-z]\d|\d[A-Za-z]|\+")
_AGENT = re.compile(r"(?:팀|분|님|분들|씨|부서|본부)$")
_CLAUSE = re.compile(r"[^,.!?…]+")
_NEGATION = re.compile(r"(?:^|\s)(?:안|못)\s|않|없")


# What each candidate phrase of an answer shows (see `anchor_features`), in this order.
ANCHOR_FEATURES = (
    "identifier",  # a code identifier ("FLAG_SECURE", "viewModelScope", "N+1")
    "agent",  # someone else, not what the candidate did ("팀 리드분", "IT팀")
    "negated",  # in a clause saying what was not done ("용어는 안 쓰려고")
    "named",  # a technology or tool the taxonomy names
    "latin",  # a foreign technical term
    "several_words",
    "number",  # a number with its unit
    "means",  # what the candidate did something with ("React Query로", "락을")
    "acronym",  # a bare short acronym names a field ("DB", "SEO", "QA")
    "length",  # up to 8 letters, as a share of 8
    "position",  # where it starts, as a share of the answer
    "asked",  # the share of its letter pairs the question already has
)
# Fitted by `python -m evals.calibrate_anchors` (logistic, every phrase of an answer
# labelled by the grader's anchors) on the interview dev splits (dev..dev5: 292 answers, five
# authors); leave-one-author-out top-phrase agreement 0.750 / 0.714 / 0.618 / 0.589 / 0.696
# (the four-author weights read dev5, unseen, at 0.696).
ANCHOR_WEIGHTS = (-0.18, -0.71, -0.04, 0.07, 0.59, -0.27, -0.72, 0.78, -0.62, 1.16, 0.10, -0.40)


def anchor_features(answer: str, question: str) -> list[tuple[str, int, list[float]]]:
    """The answer's noun phrases the question did not already say, each with its position
    and its ANCHOR_FEATURES; never a filler, a function word or a cut word (phrases are
    whole runs of nouns)."""
    asked = squash(question)
    asked_pairs = _pairs(asked)
    known = taxonomy()
    means = {
        t.start
        for t in analysed(answer)
        if t.tag == "JKO" or (t.tag == "JKB" and t.form in ("로", "으로"))
    }
    negated = [m.span() for m in _CLAUSE.finditer(answer) if _NEGATION.search(m.group(0))]
    # lines posing as prompt structure ("<|im_start|>system", "# system") give no anchor: it
    # would be quoted to a model outside the answer's fence
    posing, start = [], 0
    for line in answer.split("\n"):
        if escape_data(line) != line:
            posing.append((start, start + len(line)))
        start += len(line) + 1
    out = []
    for phrase, at in noun_phrases(answer):
        squashed = squash(phrase)
        if squashed in asked or squashed in GENERIC:
            continue
        if escape_data(phrase) != phrase or any(a <= at < b for a, b in posing):
            continue
        pairs = _pairs(squashed)
        values = [
            _IDENTIFIER.search(phrase) is not None,
            _AGENT.search(phrase) is not None,
            any(a <= at < b for a, b in negated),
            bool(known.find(phrase)),
            re.search(r"[A-Za-z]{2,}", phrase) is not None,
            " " in phrase.strip(),
            EVIDENCE.search(phrase) is not None,
            at + len(phrase) in means,
            re.fullmatch(r"[A-Z]{2,3}", phrase.strip()) is not None,
            min(len(squashed), 8) / 8,
            at / max(len(answer), 1),
            len(pairs & asked_pairs) / len(pairs),
        ]
        out.append((phrase, at, [float(v) for v in values]))
    return out


def _pairs(text: str) -> set[str]:
    return {text[i : i + 2] for i in range(len(text) - 1)} or {text}


def salient_phrase(answer: str, question: str) -> str | None:
    """What a good interviewer picks up from an answer: the phrase of `anchor_features`
    with the highest fitted score (ANCHOR_WEIGHTS), the earliest among equals. None when
    the answer adds no noun phrase of its own."""
    best: tuple[float, int, str] | None = None
    for phrase, at, values in anchor_features(answer, question):
        score = sum(w * v for w, v in zip(ANCHOR_WEIGHTS, values, strict=True))
        if best is None or (score, -at) > (best[0], -best[1]):
            best = (score, at, phrase)
    return best[2] if best else None


def topic_phrase(question: str, word: str) -> str:
    """The question's noun phrase that holds `word` ("접근" -> "웹 접근성"), else the word."""
    key = squash(word)
    for phrase, _ in noun_phrases(question):
        if key in squash(phrase):
            return phrase
    return word


def decide_followup(
    answer: str,
    main_turns: list[dict[str, Any]],
    interview_type: str,
    facts: dict[str, Any],
    max_depth: int,
) -> dict[str, str] | None:
    """Whether to dig deeper into the current main question, and how.

    `main_turns` are this main question's turns so far (the main one, then follow-ups),
    the last one just answered. Each kind is used at most once per main question:
      clarify    the answer is short             -> ask to elaborate on its own words
      experience no evidence (numbers, own facts) -> ask for a concrete experience
      deeper     a technology named, no reasons   -> why it, what its limits are
      apply      a solid answer about a project   -> apply it to the posting's requirement
      redirect   the answer turned to another topic -> say so, ask the question's topic again
    None when the answer is a non-answer or says it cannot answer, the depth is used up, or
    nothing is missing."""
    depth = len(main_turns) - 1
    if is_non_answer(answer) or depth >= max_depth:
        return None
    used = {t.get("followup_kind") for t in main_turns}
    text = answer.strip()
    question = str(main_turns[-1].get("question") or main_turns[-1].get("anchor") or "")
    stance = read_stance(question, text)
    if stance.kind == "cannot":
        return None
    if stance.kind == "evades":
        # say so and ask the question's topic again, once; nothing of the answer is echoed
        if "redirect" in used:
            return None
        return {"kind": "redirect", "anchor": topic_phrase(question, stance.topic[0])}
    known = taxonomy()
    named = list(known.mentions(text).values())  # in the candidate's own words
    # what the answer adds, never a function word or a word cut short ("이전에 대해")
    echo = salient_phrase(text, question) or (named or [main_turns[-1]["anchor"]])[0]
    if len(re.sub(r"\s", "", text)) < SHORT_ANSWER_CHARS and "clarify" not in used:
        return {"kind": "clarify", "anchor": echo}
    own = [
        s for s in (*facts.get("experiences", []), *facts.get("skills", [])) if _shared([s], text)
    ]
    if not EVIDENCE.search(text) and not own and "experience" not in used:
        return {"kind": "experience", "anchor": echo}
    if interview_type == "technical":
        if named and not _REASONING.search(text) and "deeper" not in used:
            # why that choice: the phrase picked up when it names a technology or a foreign
            # technical term ("SELECT FOR UPDATE", "outbox 테이블"), else the first named
            chosen = echo if known.find(echo) or re.search(r"[A-Za-z]{2,}", echo) else named[0]
            return {"kind": "deeper", "anchor": chosen}
        category = main_turns[0]["category"]
        mentioned = set(known.find(text))
        unmet = [r for r in facts.get("required", []) if r not in mentioned]
        if category in ("project", "tech_stack") and unmet and "apply" not in used:
            surface = facts.get("surface", {}).get(unmet[0], unmet[0])
            return {"kind": "apply", "anchor": surface, "echo": echo}
    return None
