"""Writing one question: the model proposes, deterministic checks decide.

A question is accepted when it is Korean, one line of sensible length, contains its anchor
(the project, skill or answer term it must be about) and is not a near-duplicate of an
earlier question of the session (embedding cosine above INTERVIEW_DUPLICATE_THRESHOLD).
On the embedded model a llama.cpp grammar makes the question start with its anchor. When
the model's question fails a check it is regenerated once, then a template is used, so
a session never stalls on a weak model; the turn records which source was used.
INTERVIEW_QUESTION_SOURCE=auto words questions with templates only while the interview
model is the embedded stand-in (135M parameters: it loops and invents words in Korean).
"""

from __future__ import annotations

import asyncio
import math
import re
from typing import Any

from langchain_core.messages import BaseMessage
from langchain_core.runnables import RunnableConfig

from core.services import get_services
from core.structured import INTERNAL, invoke_text
from nodes.interview.plan import FOLLOWUP_TEMPLATES, GENERIC_TEMPLATES, TEMPLATES, fill
from text.korean_text import kiwi, squash

FEATURE = "interview"
MAX_QUESTION_CHARS = 200
_LEAD = re.compile(r"^\s*(?:질문\s*[:：]|Q\d*\s*[:：.]|\d+[.)]|[-*•])\s*")
_HANGUL = re.compile(r"[가-힣]")
_ENDING = re.compile(r"(?:\?|[요까오다죠]\s*[.?!]?)\s*$")


def question_grammar(anchor: str) -> str:
    """GBNF for the embedded model: one line that starts with the anchor, ends with '?'."""
    literal = anchor.replace("\\", "\\\\").replace('"', '\\"')
    return f'root ::= "{literal}" body "?"\nbody ::= [^\\n?.!]{{4,40}}\n'


def clean_question(text: str) -> str:
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    first = _LEAD.sub("", lines[0] if lines else "").strip().strip("\"'“”‘’`")
    return first[:MAX_QUESTION_CHARS]


def is_grounded(question: str, anchor: str) -> bool:
    """A finished Korean question (not one cut off by the token limit), of a sensible
    length, about its anchor."""
    if not 8 <= len(question) <= MAX_QUESTION_CHARS or not _ENDING.search(question):
        return False
    letters = re.sub(r"[\s\d\W]", "", question)
    if not letters or len(_HANGUL.findall(question)) / len(letters) < 0.3:
        return False
    words = question.split()
    if words and max(words.count(w) for w in words) > 2:  # a degenerate loop
        return False
    return squash(anchor) in squash(question) and ends_as_a_sentence(question)


def ends_as_a_sentence(question: str) -> bool:
    """Korean morphology (Kiwi): the question closes with a sentence-final ending ("...나요?",
    "...주세요."). Word salad that merely stops at a "?" does not ("...새롭으로?")."""
    tokens = [t for t in kiwi().tokenize(question) if not t.tag.startswith("S")]
    return any(t.tag == "EF" for t in tokens[-3:])


def _cosine(a: list[float], b: list[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return dot / norm if norm else 0.0


async def max_similarity(candidate: str, asked: list[str]) -> float:
    """The highest embedding cosine between `candidate` and the questions already asked."""
    if not asked:
        return 0.0
    embeddings = get_services().embeddings
    vectors = await asyncio.to_thread(embeddings.embed_documents, [candidate, *asked])
    return max(_cosine(vectors[0], v) for v in vectors[1:])


async def _model_question(
    messages: list[BaseMessage], anchor: str, config: RunnableConfig, run_name: str
) -> str | None:
    services = get_services()
    model = services.models.runnable(
        FEATURE,
        grammar=question_grammar(anchor),
        internal=True,
        max_tokens=services.settings.interview_question_max_tokens,
    )
    text = await invoke_text(
        model,
        messages,
        {**config, **INTERNAL, "run_name": run_name},
        services.settings.model_timeout_s,
    )
    question = clean_question(text)
    grounded = await asyncio.to_thread(is_grounded, question, anchor)  # Kiwi: CPU
    return question if grounded else None


def model_writes_questions() -> bool:
    services = get_services()
    source = services.settings.interview_question_source
    if source == "auto":
        return not services.models.spec(FEATURE).startswith("local")
    return source == "model"


async def compose_question(
    messages: list[BaseMessage],
    slot: dict[str, Any],
    asked: list[str],
    config: RunnableConfig,
    run_name: str,
    templates: tuple[str, ...] | None = None,
) -> dict[str, Any]:
    """{question, source: model|template, similarity, attempts} for `slot`.

    `slot` has the anchor (and category/tie for templates); `templates` overrides the
    slot's category templates (follow-ups have their own)."""
    threshold = get_services().settings.interview_duplicate_threshold
    attempts = 0
    for _ in range(2 if model_writes_questions() else 0):
        attempts += 1
        question = await _model_question(messages, slot["anchor"], config, run_name)
        if question is None:
            break  # ungrounded: a second try of the same prompt rarely fixes that
        similarity = await max_similarity(question, asked)
        if similarity < threshold:
            return {
                "question": question,
                "source": "model",
                "similarity": similarity,
                "attempts": attempts,
            }
    options = templates or TEMPLATES[slot["category"]]
    # The slot's own wordings first; when every one is a (near) repeat of a question already
    # asked, the wordings of the other kinds about the same anchor: never the same question
    # twice in a session.
    tie = slot.get("tie", "")
    others = [
        *(t for kind in (FOLLOWUP_TEMPLATES.values() if templates else ()) for t in kind),
        *GENERIC_TEMPLATES,
    ]
    others = [t for t in others if t not in options and (tie or "{tie}" not in t)]
    candidates = list(
        dict.fromkeys(fill(t, anchor=slot["anchor"], tie=tie) for t in [*options, *others])
    )
    said = {_normalised(q) for q in asked}
    fresh = [q for q in candidates if _normalised(q) not in said] or candidates
    similarities = await all_similarities(fresh[: len(options)], asked)
    if min(similarities) >= threshold and len(fresh) > len(options):
        similarities += await all_similarities(fresh[len(options) :], asked)
    chosen = next(
        (i for i, sim in enumerate(similarities) if sim < threshold),
        min(range(len(similarities)), key=similarities.__getitem__),
    )
    return {
        "question": fresh[chosen],
        "source": "template",
        "similarity": similarities[chosen],
        "attempts": attempts,
    }


def _normalised(question: str) -> str:
    return re.sub(r"[\s.?!,]+", "", question)


async def all_similarities(candidates: list[str], asked: list[str]) -> list[float]:
    """For each candidate, its highest embedding cosine with the questions already asked;
    one embedding call for all of them."""
    if not candidates:
        return []
    if not asked:
        return [0.0] * len(candidates)
    embeddings = get_services().embeddings
    vectors = await asyncio.to_thread(embeddings.embed_documents, [*candidates, *asked])
    mine, theirs = vectors[: len(candidates)], vectors[len(candidates) :]
    return [max(_cosine(v, w) for w in theirs) for v in mine]
