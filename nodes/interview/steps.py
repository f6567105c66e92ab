"""The interview turn graph's steps. Each docstring says what the step reads and writes.

State per session (checkpointed under `interview:{user_id}:{session_id}`): the candidate
`facts` (not the documents), the `plan` of main questions, and `turns` (every question,
with its answer once given). Prompts see the facts, a summary and the last 3 turns only.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from typing import Any

from langchain_core.messages import BaseMessage
from langchain_core.runnables import RunnableConfig
from langgraph.graph import END
from langgraph.types import Command

from core.errors import AIError, InvalidInputError, NotFoundError, validated
from core.security import hash_user_id, thread_id
from core.services import get_services
from nodes.interview import prefetch
from nodes.interview.answers import decide_followup
from nodes.interview.facts import extract_facts, facts_digest, facts_lines
from nodes.interview.plan import FOLLOWUP_PURPOSE, FOLLOWUP_TEMPLATES, build_plan
from nodes.interview.questions import FEATURE, INTERNAL, compose_question, max_similarity
from nodes.interview.schemas import InterviewTurnInput
from nodes.interview.session import summary_text, window_text
from nodes.interview.state import InterviewState
from prompts import load_prompt

log = logging.getLogger(__name__)
MAIN_PROMPT = load_prompt("interview/main_question")
FOLLOWUP_PROMPT = load_prompt("interview/followup_question")
TYPE_LABEL = {"technical": "기술", "personality": "인성"}
CLEARED_INPUT = {"answer": None, "answer_for": None, "resume_text": None, "posting_text": None}
MAX_FOLLOWUP_ANSWER_CHARS = 600


def session_thread(state: Mapping[str, Any]) -> str:
    return thread_id("interview", state["user_id"], state["session_id"], "session_id")


def validate_turn(state: InterviewState) -> InterviewTurnInput:
    return validated(InterviewTurnInput, state)


def _already_recorded(turns: list[dict[str, Any]], request: InterviewTurnInput) -> bool:
    """The answer names (`answer_for`) a question that already has this very answer: a
    client's retry of a request that went through."""
    if request.answer_for is None or request.answer is None:
        return False
    earlier = next((t for t in turns if t["question_id"] == request.answer_for), None)
    return earlier is not None and earlier.get("answer") == request.answer.strip()


def begin_turn(state: InterviewState) -> Command:
    """Reads the input and the session. A new session goes to `prepare_session` (resume and
    posting required); an answer is recorded on the pending question and goes to
    `choose_next`; a turn without an answer repeats the pending question (a safe retry), and
    so does an answer whose `answer_for` names an earlier question it was already recorded
    for; any other answer to a question that is not pending is 409 STALE_ANSWER."""
    request = validate_turn(state)
    if not state.get("plan"):
        if request.answer is not None and not (request.resume_text or request.posting_text):
            # An answer to a session this server never started (or has forgotten).
            raise NotFoundError(
                "No interview session with this id; start one with resume_text and posting_text",
                code="SESSION_NOT_FOUND",
                field="session_id",
            )
        for name in ("resume_text", "posting_text"):
            if not (getattr(request, name) or "").strip():
                raise InvalidInputError(f"{name} is required on the first turn", field=name)
        return Command(goto="prepare_session")
    if request.answer is None or _already_recorded(state["turns"], request):
        return Command(goto=END, update=CLEARED_INPUT)
    if state.get("done"):
        raise AIError(
            "The interview is finished; request the report instead",
            code="INTERVIEW_FINISHED",
            status_code=409,
            field="session_id",
        )
    pending = state["turns"][-1]["question_id"]
    if request.answer_for is not None and request.answer_for != pending:
        raise AIError(
            f"This answer is for {request.answer_for}; the pending question is {pending}",
            code="STALE_ANSWER",
            status_code=409,
            field="answer_for",
        )
    turns = [dict(t) for t in state["turns"]]
    turns[-1]["answer"] = request.answer.strip()
    return Command(goto="choose_next", update={**CLEARED_INPUT, "turns": turns})


async def prepare_session(state: InterviewState) -> Command:
    """Reads resume_text and posting_text; writes the candidate `facts`, the question
    `plan`, and clears the documents from state (only the facts are kept)."""
    services = get_services()
    facts = await asyncio.to_thread(
        extract_facts,
        state.get("resume_text") or "",
        state.get("posting_text") or "",
        services.settings.section_max_chars,
    )
    interview_type = state.get("interview_type") or "technical"
    thread = session_thread(state)
    plan = build_plan(facts, interview_type, services.settings.interview_questions, thread)
    await prefetch.discard(thread)  # a stale question of an earlier session under this id
    return Command(
        goto="ask_main_question",
        update={
            **CLEARED_INPUT,
            "interview_type": interview_type,
            "facts": facts,
            "facts_digest": facts_digest(facts),
            "plan": plan,
            "turns": [],
            "next_index": 0,
            "done": False,
        },
    )


def choose_next(state: InterviewState) -> Command:
    """Reads the just-answered turn; goes to `ask_followup` (writing `followup`), to the
    next main question (writing `next_index`) or to `finish`."""
    turns, settings = state["turns"], get_services().settings
    last = turns[-1]
    main_turns = [t for t in turns if t["main_index"] == last["main_index"]]
    decision = decide_followup(
        last["answer"],
        main_turns,
        state["interview_type"],
        state["facts"],
        settings.interview_max_followup_depth,
    )
    if decision is not None:
        return Command(goto="ask_followup", update={"followup": decision})
    following = last["main_index"] + 1
    if following < len(state["plan"]):
        return Command(goto="ask_main_question", update={"next_index": following})
    return Command(goto="finish")


def main_question_messages(state: Mapping[str, Any], slot: dict[str, Any]) -> list[BaseMessage]:
    return MAIN_PROMPT.messages(
        type_label=TYPE_LABEL[state["interview_type"]],
        category=slot["label"],
        anchor=slot["anchor"],
        tie=slot["tie"] or "없음",
        facts=facts_lines(state["facts"]),
        summary=summary_text(state["turns"]),
        window=window_text(state["turns"]),
    )


def _prompt_chars(messages: list[BaseMessage]) -> int:
    return sum(len(m.text) for m in messages)


def _new_turn(
    main_index: int, depth: int, slot: dict[str, Any], chosen: dict[str, Any], **extra: Any
) -> dict[str, Any]:
    suffix = f"-f{depth}" if depth else ""
    return {
        "question_id": f"q{main_index + 1}{suffix}",
        "main_index": main_index,
        "depth": depth,
        "category": slot["category"],
        "label": slot["label"],
        "anchor": slot["anchor"],
        "question": chosen["question"],
        "source": chosen["source"],
        "prompt_chars": chosen.get("prompt_chars", 0),
        "answer": None,
        "followup_kind": None,
        **extra,
    }


async def _take_prefetched(state: InterviewState, index: int) -> dict[str, Any] | None:
    """The stored prefetched question for `index` if still valid, waiting for one that
    this process is still writing; None when there is none (the caller generates)."""
    services = get_services()
    thread = session_thread(state)
    expected = prefetch.fingerprint(state, index, MAIN_PROMPT.tag, services.models.spec(FEATURE))
    stored = await prefetch.load(thread, expected)
    if stored is None:
        running = services.background.running(f"{thread}:{expected}")
        if running is not None:
            try:
                await asyncio.wait_for(asyncio.shield(running), services.settings.model_timeout_s)
            except Exception as exc:  # the on-demand path below still answers
                log.info("prefetch in flight failed: %s", type(exc).__name__)
            stored = await prefetch.load(thread, expected)
    if stored is None:
        return None
    # Checked against the questions asked so far when it was written; only the ones asked
    # since (follow-ups) can make it a repeat now, and usually there are none: no embedding.
    since = [t["question"] for t in state["turns"][stored.get("asked_count", 0) :]]
    if (
        await max_similarity(stored["question"], since)
        >= services.settings.interview_duplicate_threshold
    ):
        await prefetch.discard(thread)  # a follow-up has since asked the same thing
        return None
    return {**stored, "source": "prefetch"}


async def ask_main_question(state: InterviewState, config: RunnableConfig) -> dict[str, Any]:
    """Reads `next_index`, the plan, facts and turns; appends the main question as a new
    turn: the prefetched one when valid (no model call), else a freshly written one."""
    services = get_services()
    index = state["next_index"]
    slot = state["plan"][index]
    chosen = None
    if services.settings.interview_prefetch and index > 0:
        chosen = await _take_prefetched(state, index)
    if chosen is None:
        messages = main_question_messages(state, slot)
        asked = [t["question"] for t in state["turns"]]
        chosen = await compose_question(messages, slot, asked, config, "ask_main_question")
        chosen["prompt_chars"] = _prompt_chars(messages)
    return {"turns": [*state["turns"], _new_turn(index, 0, slot, chosen)]}


async def ask_followup(state: InterviewState, config: RunnableConfig) -> dict[str, Any]:
    """Reads `followup` ({kind, anchor}) and the just-answered turn; appends a follow-up
    question about that answer as a new turn."""
    turns, decision = state["turns"], state["followup"]
    assert decision is not None  # choose_next routes here only with a decision
    last = turns[-1]
    slot = {
        "category": last["category"],
        "label": last["label"],
        "anchor": decision["anchor"],
        "tie": decision.get("echo", ""),  # the answer's own term, for "apply" wording
    }
    messages = FOLLOWUP_PROMPT.messages(
        type_label=TYPE_LABEL[state["interview_type"]],
        anchor=decision["anchor"],
        purpose=FOLLOWUP_PURPOSE[decision["kind"]],
        facts=facts_lines(state["facts"]),
        summary=summary_text(turns[:-1], size=2),
        window=window_text(turns[:-1], size=2),
        question=last["question"],
        answer=last["answer"][:MAX_FOLLOWUP_ANSWER_CHARS] or "(무응답)",
    )
    chosen = await compose_question(
        messages,
        slot,
        [t["question"] for t in turns],
        config,
        "ask_followup",
        templates=FOLLOWUP_TEMPLATES[decision["kind"]],
    )
    chosen["prompt_chars"] = _prompt_chars(messages)
    turn = _new_turn(
        last["main_index"], last["depth"] + 1, slot, chosen, followup_kind=decision["kind"]
    )
    return {"turns": [*turns, turn], "followup": None}


def _schedule_prefetch(state: InterviewState, index: int) -> None:
    """Start writing main question `index` in the background (unless already stored or
    in flight). It runs under its own config: the request's run has ended by then."""
    services = get_services()
    thread = session_thread(state)
    expected = prefetch.fingerprint(state, index, MAIN_PROMPT.tag, services.models.spec(FEATURE))
    snapshot: dict[str, Any] = {k: state[k] for k in ("facts", "plan", "turns", "interview_type")}
    slot = snapshot["plan"][index]
    config: RunnableConfig = {
        "run_name": "prefetch_next_question",
        **INTERNAL,
        "metadata": {"feature": FEATURE, "user": hash_user_id(state["user_id"])},
    }

    async def work() -> None:
        if await prefetch.load(thread, expected) is not None:
            return
        messages = main_question_messages(snapshot, slot)
        asked = [t["question"] for t in snapshot["turns"]]
        chosen = await compose_question(messages, slot, asked, config, "prefetch_next_question")
        await prefetch.save(
            thread,
            {
                **chosen,
                "fingerprint": expected,
                "index": index,
                "asked_count": len(asked),
                "prompt_chars": _prompt_chars(messages),
            },
        )

    services.background.spawn(f"{thread}:{expected}", work)


async def present_question(state: InterviewState) -> dict[str, Any]:
    """Reads the newest turn; writes the InterviewQuestion fields and starts the prefetch
    of the next main question."""
    turn, plan = state["turns"][-1], state["plan"]
    following = turn["main_index"] + 1
    if get_services().settings.interview_prefetch and following < len(plan):
        _schedule_prefetch(state, following)
    return {
        "question_id": turn["question_id"],
        "question_number": turn["main_index"] + 1,
        "total_questions": len(plan),
        "category": turn["label"],
        "question": turn["question"],
        "is_followup": turn["depth"] > 0,
        "depth": turn["depth"],
        "done": False,
    }


def finish(state: InterviewState) -> dict[str, Any]:
    """Every main question is answered: writes `done` (no further question)."""
    total = len(state["plan"])
    return {
        "question_id": "done",
        "question_number": total,
        "total_questions": total,
        "category": "종료",
        "question": None,
        "is_followup": False,
        "depth": 0,
        "done": True,
    }
