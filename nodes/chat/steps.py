"""The chat graph's routing step and its answer routes (document search, general answer).
Each docstring says what the step reads and writes. The tool routes (schedule, calendar)
are `tool_routes.py`, the model agent `agent.py`, the room's memory `memory.py`.

Per room (checkpointed under `chat:{user_id}:{room_id}`): `messages` (LangGraph's
convention: Human, AI with `tool_calls`, Tool messages) trimmed to the last 5 turns, the
same turns as compact `history` records for the answer prompt, and a bounded running
summary of older ones. Tools act for the request's `user_id` only (injected from the state).
"""

from __future__ import annotations

import asyncio
import logging
import re
import threading
from datetime import date
from typing import Any, cast

from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
)
from langchain_core.runnables import RunnableConfig
from langgraph.types import Command

from core.cache import cache_key
from core.errors import validated
from core.grounded import GroundedWriter
from core.services import get_services
from core.structured import INTERNAL, generate_structured, invoke_text
from core.telemetry import DEGENERATE
from core.writing import writes_grounded_text
from nodes.chat.agent import FEATURE, agent_available
from nodes.chat.focus import (
    AMONG_THOSE,
    COMPANY_POINTER,
    DAY_POINTER,
    OTHER_POSTING,
    POINTED_NOUN,
    SAME_AGAIN,
    SAME_VALUE_TOO,
    THERE,
    answer_named,
    both_told,
    just_touched,
    only_a_stage_put_in,
    ordinal_position,
    other_posting,
    points_at_noun,
    points_back,
)
from nodes.chat.grounded import (
    SAME_THING,
    Passage,
    asked_words,
    asks_held_by_resume,
    asks_skill_category,
    general_answer,
    in_korean_terms,
    junk_reason,
    named_types,
    rag_answer,
    without_besides,
)
from nodes.chat.router import (
    ABOUT_CONTENT,
    ADD_VERB,
    ADVICE,
    CONTENT_ASKED,
    DELETED_ITEM,
    INTO_DOC,
    KEPT_AS_IS,
    MY_SCHEDULE,
    NEW_VALUE_LAST,
    NEW_VALUE_STATED,
    RENAME_SAID,
    SCHEDULE_VERB,
    SCHEDULE_WORD,
    SMALL_TALK,
    UNDO,
    ExampleRouter,
    RouteDecision,
    asks_operation,
    has_when,
    is_compound,
    keyword_route,
)
from nodes.chat.schedule_requests import (
    ONE_MORE,
    POSTING_WHEN,
    answers_ask_back,
    corrects_last_value,
    gives_the_time_it_lacked,
    names_only_a_stage,
    posting_stage,
    sentences_of,
    shift_in,
    stage_just_told,
)
from nodes.chat.schemas import ChatInput, RouteChoice
from nodes.chat.state import ChatState
from nodes.chat.tool_routes import asks_about_posting
from prompts import data_records, load_prompt
from text.colloquial import standard_spelling, without_opening_acknowledgement
from text.dates import date_range
from text.korean_text import analysed, content_words
from text.skills import find_skills
from text.stages import names_a_stage
from tools.calendar import today_of
from tools.documents import (
    context_of,
    query_vector,
    search_user_documents,
    sources_of,
    whole_documents,
)

log = logging.getLogger(__name__)
ANSWER_PROMPT = load_prompt("chat/answer")
ROUTE_PROMPT = load_prompt("chat/route")
ANSWER_CACHE_TTL_S = 3600
# The examples are 32 written ones plus the dev sets' messages (chat_dev 263, chat_dev2 206);
# the margin is calibrated by 5-fold cross-validation on the dev sets (each fold routed by
# the other four and the 32): the smallest gap whose decisions are >= 0.95 right (0.01: 390
# of 469 decided at 0.967; 0.02: 298 at 0.983; without a margin 0.925).
ROUTER_MARGIN = 0.01
_routers: dict[int, ExampleRouter] = {}
_ROUTERS_LOCK = threading.Lock()


def _now(state: ChatState) -> date:
    return today_of(state.get("now"))


def router_for_services() -> ExampleRouter:
    """The example router for the active services' embeddings (built once, also when the
    start-up warm-up and a first request ask at the same time)."""
    embeddings = get_services().embeddings
    with _ROUTERS_LOCK:
        if id(embeddings) not in _routers:
            _routers[id(embeddings)] = ExampleRouter(embeddings, ROUTER_MARGIN)
        return _routers[id(embeddings)]


def fast_route(message: str) -> RouteDecision:
    """Stage one of routing (no model): rules, then labelled examples with a margin."""
    by_rule = keyword_route(message)
    if by_rule is not None:
        return RouteDecision(by_rule, "keywords")
    return router_for_services().route(message)


def _carried_over(state: ChatState) -> list[BaseMessage]:
    """A room checkpointed before the `messages` channel existed has only `history`: its
    turns become messages on the room's first new turn, so the model and Studio see them."""
    if state.get("messages") or not state.get("history"):
        return []
    return [
        message
        for turn in state["history"]
        for message in (HumanMessage(content=turn["user"]), AIMessage(content=turn["assistant"]))
    ]


async def route_message(state: ChatState, config: RunnableConfig) -> Command:
    """Reads the message; validates it; appends it to `messages`; writes `route` and
    `routed_by`, and clears the previous turn's answer, tool calls, sources and tool steps.

    Stage one has no model (rules, then examples with a margin). When it is unsure, or a
    schedule message asks for two operations at once, a tool-calling model takes the turn
    (`call_model`: the route then follows from the tools it calls); a model that cannot call
    tools picks
    a route (internal call, not streamed); the embedded stand-in is not asked at all."""
    request = validated(ChatInput, state)
    services = get_services()
    # read in one spelling from here on ("담주 머있지" is "담주 뭐있지", "첫째꺼" "첫째거")
    # (and without an acknowledgement it opens with: "ㅇㅋ 그날 뭐 있나 봐줘" asks for a look)
    read = without_opening_acknowledgement(standard_spelling(request.message))
    request = request.model_copy(update={"message": read})
    state = cast("ChatState", {**state, "message": request.message})
    focus = state.get("focus")
    if await asyncio.to_thread(answers_ask_back, request.message, focus, _now(state)):
        decision = RouteDecision("schedule", "pending")
    elif asks_about_posting(request.message, focus):
        decision = RouteDecision("calendar", "focus")
    elif (added := await asyncio.to_thread(stage_add_route, state)) is not None:
        decision = RouteDecision(added, "focus")
    elif (inherited := await asyncio.to_thread(follow_up_route, state)) is not None:
        decision = RouteDecision(inherited, "focus")
    elif await asyncio.to_thread(schedule_follow_up, state):  # (the Korean analyser)
        decision = RouteDecision("schedule", "focus")
    else:
        decision = await asyncio.to_thread(fast_route, request.message)
    route = decision.route
    fresh = {
        "answer": "",
        "tool_calls": [],
        "sources": [],
        "context": "",
        "passages": [],
        "tool_steps": 0,
        "asked_back": None,
        "message": request.message,
        "messages": [*_carried_over(state), HumanMessage(content=request.message)],
    }
    compound = route == "schedule" and is_compound(request.message)
    if (route is None or compound) and agent_available():
        return Command(
            goto="call_model", update={**fresh, "route": "general", "routed_by": "model-tools"}
        )
    if route is None and not services.models.spec(FEATURE).startswith("local"):
        key = cache_key(
            "chat-route",
            " ".join(request.message.split()),
            ROUTE_PROMPT.tag,
            services.models.spec(FEATURE),
        )
        cached = await services.cache.get(key)
        if cached is None:
            model = services.models.runnable(
                FEATURE, schema=RouteChoice, internal=True, max_tokens=24
            )
            choice = await generate_structured(
                model,
                RouteChoice,
                ROUTE_PROMPT.messages(message=request.message),
                {**config, **INTERNAL, "run_name": "route_message"},
                services.settings.model_timeout_s,
            )
            cached = {"route": choice.route}
            await services.cache.set(key, cached, ANSWER_CACHE_TTL_S)
        route, decision = cached["route"], RouteDecision(cached["route"], "model")
    elif route is None:
        # The embedded stand-in cannot classify (it answers "rag" to everything, see the
        # eval): the nearest examples' route, even without a clear margin, does better.
        best, gap = await asyncio.to_thread(router_for_services().best, request.message)
        route, decision = best, RouteDecision(best, "examples-nearest", gap)
    goto = {"rag": "retrieve", "calendar": "run_calendar", "schedule": "run_schedule"}
    return Command(
        goto=goto.get(route, "write_answer"),
        update={**fresh, "route": route, "routed_by": decision.by},
    )


async def retrieve(state: ChatState) -> dict[str, Any]:
    """Reads the message; writes `sources` (the user's chunks, top-k, above the calibrated
    threshold), `context` for the answer prompt (the same search `search_documents` runs)
    and `passages` (the same chunks with their sections, for a grounded answer)."""
    # (English names and headings as the user's Korean documents write them: "the Naver
    # posting's requirements" finds 네이버's 자격요건)
    # (the Korean analyser reads both: off the event loop)
    # (what the question names as not asked is not searched for: "카카오 말고 네이버 자격요건")
    query = await asyncio.to_thread(lambda: in_korean_terms(without_besides(_with_context(state))))
    vector = await query_vector(query)  # one embedding for every search of this question
    focus = state.get("focus")
    held = (focus or {}).get("posting") or {}
    if held and OTHER_POSTING.search(state["message"]):
        # "그럼 다른 데는?" after a question on one posting: that question, of the other one
        # (the user's nearest posting that is not the one in focus, from the same search)
        asked = query.replace(held["company"], " ") if held.get("company") else query
        postings = await search_user_documents(state["user_id"], asked, "posting")
        other = other_posting(state["message"], focus, [h.doc_id for h in postings])
        kept = [h for h in postings if h.doc_id == other]
    else:
        kept = await search_user_documents(state["user_id"], query, vector=vector)
    # "그 중에 내 이력서에 있는 거 있어?": the posting's lines and the whole resume (what it
    # names anywhere counts), read by the grounded answer only: no source or context of its own
    # ("첫번째 거 관련해서 내 이력서엔 뭐라고 써놨지?" after a posting's list: the item is
    # looked for in the whole document the question names, which the search, led by the
    # list's words, may not reach)
    read_too = []
    for doc_type in _read_whole(state["message"], previous_question(state)):
        read_too += await whole_documents(state["user_id"], vector, doc_type)
    passages = [
        {
            "doc_id": h.doc_id,
            "doc_type": h.doc_type,
            "section": h.section,
            "text": h.text,
            "score": h.score,
            "company": h.company,
            "position": h.position,
        }
        for h in kept + read_too
    ]
    return {
        "sources": sources_of(kept),
        "context": context_of(kept) or "(찾은 문서 없음)",
        "passages": passages,
    }


def _read_whole(message: str, context: str = "") -> list[str]:
    """The user's document types a question is answered from as a whole: the resume for what
    it holds of a posting's lines, the user's own document a question names."""
    if asks_held_by_resume(message, context):
        # (the posting too: a comparison with no line named reads its every line)
        return ["posting", "resume"]
    named = named_types(message)[0]
    if asks_skill_category(message):
        # "네이버 공고는 어떤 프로그래밍 언어를 요구해?": the search, led by the kind's words,
        # may not reach the line naming one ("Python 능숙자")
        return sorted(named)
    if "posting" in named:
        return []
    # (one of the user's own documents named: all of it, which is short; the search, led
    # by the question's other words, may miss the section asked: "본인 이력서상 경력 기간은
    # 어떻게 기재되어 있습니까?")
    return sorted(named & {"resume", "portfolio", "cover"})


def _window(history: list[dict[str, Any]]) -> str:
    """The recent turns for the answer prompt. The speaker heads are ours; each message and
    answer is escaped, so a line "도우미: ..." inside a message cannot pose as a turn."""
    if not history:
        return "(없음)"
    return data_records(
        record for t in history for record in (("사용자:", t["user"]), ("도우미:", t["assistant"]))
    )


def _today(state: ChatState) -> str:
    day = _now(state)
    return f"{day.isoformat()} ({'월화수목금토일'[day.weekday()]})"


def answer_inputs(state: ChatState) -> dict[str, str]:
    """Every value the answer prompt is rendered with: the message, the window and summary
    of this room, the retrieved context and today's date (relative dates in a question or
    in the history mean something else tomorrow)."""
    return {
        "today": _today(state),
        "summary": "\n".join(state.get("summary_lines") or []) or "(없음)",
        "window": _window(state.get("history") or []),
        "context": state.get("context") or "(없음)",
        "message": state["message"],
    }


def answer_cache_key(state: ChatState, inputs: dict[str, str], model_spec: str) -> str:
    """The answer cache's key: the user, the route, the prompt's tag, the model and every
    input of the prompt (whitespace-normalised).

    Why key on the room's window and summary instead of skipping the cache when a room has
    history: an answer is a function of its prompt, so two requests whose prompts are equal
    may share it, and no others. Keying on every input gives exactly that: a new room (or
    two rooms with the same conversation so far) still hits, while the same question after
    a different conversation, or on another day, is a new answer. Skipping would lose the
    hits and still need a rule for what counts as "history"."""
    return cache_key(
        "chat-answer",
        state["user_id"],
        state["route"],
        ANSWER_PROMPT.tag,
        model_spec,
        *(f"{name}={' '.join(value.split())}" for name, value in sorted(inputs.items())),
    )


# A follow-up that only names its topic ("카카오는?", "포트폴리오도?"): it asks the previous
# question again about what it names.
ELLIPTICAL = re.compile(
    r"^\s*\S+(?:\s+\S+){0,2}(?:은|는|도)요?\s*[?？]?\s*$"
    # "what about the other company?", "and naver?", "how about the portfolio?"
    r"|(?i:^\s*(?:(?:and|ok|okay|oh|hmm)[,\s]+)*(?:what|how)\s+about\s+(?!\w+ing\b)[^?？]{1,40}[?？]?\s*$|^\s*and\s+\S+(?:\s+\S+)?\s*[?？]\s*$)"
)
# Words that open a follow-up and say nothing of their own ("그럼 담주는?", "아 내일은?").
_FILLER = re.compile(r"^\s*(?:그럼|그러면|그면|아|음|혹시|그리고)[,\s]+")


_PERIOD = re.compile(r"기간|마감|(?i:\bdeadline\b)")


# Asking what something is said to be ("얼마래?", "몇 명 뽑는대?", "어디래요?").
# (a chat question often has no mark: "연봉은 얼마 준대")
REPORTED_QUESTION = re.compile(
    r"(?:래|대)(?:요)?\s*[?？]\s*$|"
    r"(?:얼마|몇|어디|언제|뭐|무슨|누가)\S*(?:\s+\S+){0,2}?\s*\S*대(?:요)?\s*$"
)


# A part of a document named as such ("… 부분은?", "… 항목은?", "그 섹션은?").
_DOC_PART = re.compile(
    r"부분|항목|섹션|파트|란(?:은|는|도)|칸(?:은|는|도)|(?i:\bsection\b|\bpart\b)"
)


def _elliptical(message: str) -> bool:
    """Only a topic ("카카오는?", "성격 장단점 부분은?"), not a question that names its own
    document ("카카오 공고 자격요건은?" stands alone)."""
    bare = _FILLER.sub("", message)
    if not ELLIPTICAL.match(bare):
        return False
    if re.match(r"(?i)\s*(?:ok|okay|so|then|oh|hmm)\b", bare) and re.search(r"\d", bare):
        return False  # "so what about Dec 10 then": a day asked, not a topic
    return len(bare.split()) < 3 or not named_types(bare)[0]


def previous_question(state: ChatState) -> str:
    """The question a follow-up leans on: the room's last user message, when this one
    points back ("그거 언제 땄다고 돼 있어?") or only names a new topic ("카카오는?");
    else ""."""
    history = state.get("history") or []
    message = state.get("message") or ""
    there = (
        bool(history)
        and history[-1].get("route") == "rag"
        and bool(
            THERE.search(message)
            # "부족한 건 뭐야" after a comparison with a posting: of that posting
            or asks_held_by_resume(message, str(history[-1].get("user") or ""))
        )
    )
    if not history or not (_leans_back(message) or there):
        return ""  # ("anything preferred there?" after a document answer: that document)
    before = str(history[-1]["user"])
    if history[-1].get("route") != "rag":
        # "아까 그 질문 네이버 공고로도" with small talk in between: the last document question
        before = _asked_again(history, message) or before
    if (
        len(history) >= 2
        and history[-1].get("route") == "rag"
        and _leans_back(before)
        and not content_words(before)
    ):
        # "어디서 했던 거야?" then "거기서 Kafka로는 뭐 했다고 했지?": the question before
        # had no words of its own but leaned on its own, part of what this one asks about
        return f"{history[-2]['user']} {before}"
    return before


# A question with no word of its own but where or who ("어디서 했던 거야?"): of what was
# just quoted ("언제 봐?", "왜?" ask the calendar or for advice).
# (and when from and to: "몇년부터 몇년까지", "언제부터 언제까지?", of what was just shown)
_ONLY_ASKING = re.compile(
    r"어디|어느|누구|몇\s*년|언제\s*부터|언제\s*까지|(?i:\b(?:where|who)\b|\bhow\s+long\b)"
)


def _asked_again(history: list[dict[str, Any]], message: str) -> str | None:
    """The document question a message asks again ("아까 그 질문 …로도"): the last one of the
    room's recent turns, or None."""
    if not SAME_THING.search(message):
        return None
    asked = [t for t in history[-3:] if t.get("route") == "rag"]
    return str(asked[-1]["user"]) if asked else None


def _leans_back(message: str) -> bool:
    """Whether a message asks of what the previous turn was about: it points back, picks
    among what was shown, asks the same of another, names only a topic, or asks only where,
    when or how of it."""
    return bool(
        points_back(message)
        or points_at_noun(message)
        or AMONG_THOSE.search(message)
        or SAME_THING.search(message)
        or _elliptical(message)
        or (_ONLY_ASKING.search(message) and not content_words(message))
        # "Kafka 말고 또 뭐 있어?": the rest of what was just shown
        or bool(_THE_REST.search(message))
    )


_THE_REST = re.compile(r"말고\s*(?:또|다른|더|그\s*외|나머지)|말고는\s*[?？]|말고\s*뭐")


# How far back a schedule turn may be for an operation that points back to its items.
_EARLIER_TURNS = 3
# "아까 화요일 거", "목요일 거": an item by its day (a bare "그거" after other talk is what
# that talk was about).
_ITEM_OF_A_DAY = re.compile(r"(?:요일|욜|일|날)\s*(?:거|꺼|건|것)(?![가-힣])")


def _points_at_an_item(message: str, focus: dict[str, Any]) -> bool:
    """Whether the message points at one of the room's items, not at what the last turn was
    about: one it deleted ("아까 지운 거"), by its position in a listing, by its day, by a
    noun of its title ("아까 그 면접"), or a day counted from it ("그 다음날 … 하나 더")."""
    if DELETED_ITEM.search(message) or ordinal_position(message) is not None:
        return True
    if _ITEM_OF_A_DAY.search(message) or (DAY_POINTER.search(message) and ONE_MORE.search(message)):
        return True
    noun = POINTED_NOUN.search(message)
    titles = " ".join(str(i.get("title") or "") for i in focus.get("items") or [])
    return bool(noun and noun.group(1) in titles)


def _new_value_for_an_item(
    message: str, history: list[dict[str, Any]], focus: dict[str, Any]
) -> bool:
    """ "아까 두 번째 거 시간 오후 2시로": a new value said without a verb for an item the
    message points at, unless the last turn listed a posting's stages (its "첫 번째 거" is a
    stage's)."""
    if history and history[-1].get("route") == "calendar":
        return False
    said = KEPT_AS_IS.sub("", message).rstrip(" ,.!~")
    return bool(NEW_VALUE_LAST.search(said) and _points_at_an_item(message, focus))


# The words a period is said with ("그 다음 주는요?", "담주는?", "12월은요?", "이번 주말은?")
_PERIOD_SAID = re.compile(
    r"\d{1,2}\s*(?:월|일)|(?:이번|요번|다음|담|다다음|저번|지난|그\s*다음|그)\s*(?:주|달)(?:말)?|"
    r"주말|[월화수목금토일](?:요일|욜)|내일|모레|오늘|글피"
)
# What a question about a day's schedule asks: whether something is on it, at what time.
_ON_THE_DAY = re.compile(
    r"있(?:어|나|나요|어요|지|죠|는지|습니까)(?![가-힣])|몇\s*시|일정|스케줄|비(?:어|었)"
)


def schedule_follow_up(state: ChatState) -> bool:
    """ "아 귀찮다 지워", "그 면접 2시간 뒤로", "원래대로 해줘" right after a schedule turn: an
    operation verb, a relative move or taking the last operation back, about the schedule the
    room is on."""
    history = state.get("history") or []
    message = state.get("message") or ""
    if not history:
        return False
    focus = state.get("focus") or {}
    if history[-1].get("route") != "schedule":
        # "아까 화요일 거 빼", "아까 지운 거 다시 넣어줘" with other talk since: an operation
        # pointed back at an item the room touched a few turns ago
        return bool(
            any(t.get("route") == "schedule" for t in history[-_EARLIER_TURNS:])
            and focus.get("items")
            and _points_at_an_item(message, focus)
            and "?" not in message
            and (
                asks_operation(message)
                or UNDO.search(message)
                or shift_in(message)[0]
                or ONE_MORE.search(message)
                or _new_value_for_an_item(message, history, focus)
            )
        )
    again = bool(
        focus.get("last_change") and (SAME_AGAIN.search(message) or SAME_VALUE_TOO.search(message))
    )
    undo = UNDO.search(message) is not None  # "아 아니다 원래대로 돌려줘": the last operation back
    # "시간 말 안 했네 오후 1시야": a value for the item the last turn added or changed
    stated = NEW_VALUE_STATED.search(message) is not None
    # "그럼 담주는?" after a listing: the same look at another day or week
    # ("없네요. 그럼 12월은요?": what the listing showed remarked on first, then the question)
    last = (sentences_of(message) or [message])[-1]
    relisting = bool(
        focus.get("looked_turn", -1) == focus.get("turn")
        and ELLIPTICAL.match(_FILLER.sub("", last))
        # (a month or a week is a period to look at too: "그럼 12월은요?"; not "그럼 12월 카카오
        # 코테는요?", which asks of a posting)
        and (has_when(last) or date_range(last, _now(state)) != (_now(state), None))
        # (the period alone: not "그럼 12월 채용공고는요?", "12월 카카오 코테는요?")
        and all(w in ("일정", "스케줄") for w in content_words(_PERIOD_SAID.sub(" ", last)))
    )
    # "아니 목욜", "oh wait no 5시" right after an add or a change: the value taken back
    corrected = just_touched(focus) and corrects_last_value(message, _now(state))
    # "오후 두시 반이야" right after adding an item with no time: its time
    touched = (focus.get("items") or [{}])[0]
    lacked = just_touched(focus) and gives_the_time_it_lacked(message, touched, _now(state))
    # "그 전날 스터디 몇 시예요?" right after an add: a look at a day counted from the room's,
    # when nothing in the message settles another route
    counted_look = bool(
        DAY_POINTER.search(message)
        and "?" in message
        and keyword_route(message) is None
        # (asking what is on it, not advice about it: "그날 면접 질문 뭐 나올까요?", "그 전날
        # 준비할 거 뭐가 있을까요?")
        and _ON_THE_DAY.search(message)
    )
    return bool(
        counted_look
        or SCHEDULE_VERB.search(message)
        or RENAME_SAID.search(message)  # "그거 이름 '포폴 피드백'으로 줄여줘"
        or shift_in(message)[0]
        or again
        or undo
        or stated
        or relisting
        or corrected
        or lacked
    )


# Every one of what was shown: "전부", "다", "싹 다", "all of them".
EVERY = re.compile(r"전부|모두|모든|싹|다\s*(?:넣|추가|등록|저장)|(?i:\ball\b|\bevery)")


def stage_add_route(state: ChatState) -> str | None:
    """An add that points back right after the posting's stages were shown: "거기 코테
    날짜에 카카오 코테 일정 만들어줘" is one add of the one stage it names, whose date the
    room already has (schedule); "거기 일정 전부 내 캘린더에 넣어줘" copies every dated
    stage of that posting (calendar). None otherwise."""
    history = state.get("history") or []
    message = state.get("message") or ""
    focus = state.get("focus") or {}
    if history and history[-1].get("route") == "calendar" and both_told(message, focus):
        # "둘다 넣어줘" after "카카오 코테 날짜" and "네이버는": each posting's stage, added
        return "schedule"
    posting = focus.get("posting") or {}
    if (
        ADD_VERB.search(message)
        and posting.get("turn") == focus.get("turn")
        and not posting.get("stages")
        and COMPANY_POINTER.search(message)
        and only_a_stage_put_in(message)
        and not has_when(message)
        and answer_named(history, posting)
    ):
        # "그 회사 1차 면접 날짜도 내 캘린더에 넣어줘" right after a document answer quoted
        # that company's posting: its stage (read by the schedule route), added
        return "schedule"
    if not history or history[-1].get("route") != "calendar" or not ADD_VERB.search(message):
        return None
    if not focus.get("posting") or INTO_DOC.search(message):
        # ("그거 이력서에 넣어줘" is written into a document, not the schedule)
        return None
    if (
        posting_stage(message, focus) is not None
        and not EVERY.search(message)
        and (points_back(message) or names_only_a_stage(message, focus))
    ) or stage_just_told(message, focus) is not None:
        # (pointed at or not: "코테 '카카오 코테'로 내 일정에 넣어줘"; "그거 내 일정에 넣어줘"
        # right after one stage was told)
        return "schedule"
    if not points_back(message):
        return None
    if DAY_POINTER.search(message) and not EVERY.search(message):
        # "add a reminder two days before that": the user's own event on a day counted
        # from the stage just shown
        return "schedule"
    return "calendar" if EVERY.search(message) else None


# What a posting's text asks, not its dates ("몇 년 이상 요구해?", "몇 명 뽑아?").
_CONTENT_OF_POSTING = re.compile(r"몇\s*(?:년|명)(?!\s*월)|요구|뽑")


# Words of a time that are no date ("그거 주말에 봐?", "연말 지나고 보네?").
_TIME_NOUN = re.compile(
    r"주말|주중|평일|연말|연초|월말|월초|초순|중순|하순|오전|오후|아침|점심|저녁|밤|새벽|"
    r"(?i:\bweekend|\bmorning|\bevening|\bafternoon)"
)


def _asks_with_a_verb(message: str) -> bool:
    """A question with a predicate of its own ("거기 영어 점수 봐?"), not a bare noun asked
    again ("연봉은?", "카카오는?": whose turn it continues is the previous route's)."""
    tokens = analysed(message.strip())
    return bool(
        tokens
        and tokens[-1].form in ("?", "？")
        and any(t.tag in ("VV", "VA", "VX") for t in tokens)
    )


def follow_up_route(state: ChatState) -> str | None:
    """The route of a follow-up that leans on the previous turn and asks for nothing of its
    own ("그거 언제 땄다고 돼 있어?" after a document answer, "카카오는?"): the previous
    turn's route. None when the message asks for a schedule operation or a listing itself,
    or does not lean on the previous turn."""
    history = state.get("history") or []
    message = state.get("message") or ""
    # "연봉은 얼마래?": a short question of what the text just talked about says (its own
    # words are the question: it leans on the previous turn for its route only)
    reported = bool(history and REPORTED_QUESTION.search(message) and len(message.split()) <= 4)
    if (
        history
        and history[-1].get("route") == "general"
        and any(t.get("route") == "rag" for t in history[-3:])
        and CONTENT_ASKED.search(message)
        and not SCHEDULE_VERB.search(message)
    ):
        # "배포 자동화 쪽은 수치가 어떻게 돼?" after advice on a project a document answer
        # named: a figure the document states, as the room was reading it
        return "rag"
    if _asked_again(history, message) and not SCHEDULE_VERB.search(message):
        return "rag"  # "아까 그 질문 네이버 공고로도 알려줘": a document question again
    if (
        history
        and history[-1].get("route") == "rag"
        and asks_held_by_resume(message, str(history[-1].get("user") or ""))
        and not SCHEDULE_VERB.search(message)
        and not (has_when(message) or MY_SCHEDULE.search(message) or SCHEDULE_WORD.search(message))
    ):
        return "rag"  # "부족한 건 뭐야" after a comparison of the resume with a posting
    if not (previous_question(state) or reported) or SCHEDULE_VERB.search(message):
        return None
    if ONE_MORE.search(message) and (has_when(message) or DAY_POINTER.search(message)):
        return None  # "그 다음날 같은 시간에 '…' 하나 더": another item, asked for
    if shift_in(message)[0] is not None:
        return None  # "아까 그회사 면접 2시간 뒤로": a move of the user's own item
    if _new_value_for_an_item(message, history, state.get("focus") or {}):
        return None  # "아까 두 번째 거 시간 오후 2시로": a new value for one of the room's items
    if MY_SCHEDULE.search(message) or SCHEDULE_WORD.search(message):
        return None  # "그 날 내 일정 비어있어?": the user's own schedule, whatever came before
    settled = keyword_route(message)
    if settled == "general" and AMONG_THOSE.search(message):
        settled = None  # "거기 나온 것 중에 메시징 쪽은 뭐야": one of what was just shown
    if (
        settled == "general"
        and history[-1].get("route") == "rag"
        and _elliptical(message)
        and _DOC_PART.search(message)
        and not (ADVICE.search(message) or SMALL_TALK.search(message) or find_skills(message))
    ):
        # "성격 장단점 부분은?" after a question on the cover letter: the same question of
        # another part of the document ("동기 비동기 차이는?", "Redis 장단점은?": knowledge)
        settled = None
    if settled is not None:
        # the message settles its own route ("거기 담당업무는 뭐야?" after a timeline asks
        # for the posting's text; "그거 면접에서 어떻게 어필하면 좋을까?" for advice)
        return None
    route = history[-1].get("route")
    if (
        route == "rag"
        and names_a_stage(message)
        and (POSTING_WHEN.search(message) or _PERIOD.search(message))
    ):
        return "calendar"  # "그럼 접수 기간은?" after a question on the posting's text
    if route == "general" and ABOUT_CONTENT.search(message):
        return None  # "그럼 거기 자격증 뭐 적혀있어" after small talk: it asks of a text
    if (
        route == "calendar"
        and (
            _CONTENT_OF_POSTING.search(message)
            # (a question of its own with no day in it: "그날 오전에 스터디 가능?" asks of
            # the user's own day)
            or (
                (ABOUT_CONTENT.search(message) or _asks_with_a_verb(message))
                and not (
                    has_when(message) or DAY_POINTER.search(message) or _TIME_NOUN.search(message)
                )
            )
        )
        and asked_words(message)  # words of its own to look for ("경력"), not a number alone
        and not POSTING_WHEN.search(message)
        and not names_a_stage(message)
    ):
        # "거기 경력 몇 년 이상 요구해?", "거기 학력 제한 있어?" after the posting's dates:
        # a question of what its text says (not when: no time word, no stage)
        return "rag"
    if route == "schedule" or route not in ("rag", "calendar", "general"):
        return None  # schedule follow-ups carry their own verb; the rules read them
    return str(route)


def _with_context(state: ChatState) -> str:
    """What retrieval searches with: the message, after the question it leans on."""
    before = previous_question(state)
    return f"{before} {state['message']}" if before else state["message"]


def grounded_answer(state: ChatState, *, stand_in: bool) -> str:
    """The answer written from what this turn computed (nodes/chat/grounded.py): the
    retrieved passages for a document question, the honest reply otherwise. Calls the
    Korean analyser: run it in a worker thread."""
    if state.get("route") == "rag":
        passages = [Passage.of(p) for p in state.get("passages") or []]
        return rag_answer(state["message"], passages, previous_question(state))
    return general_answer(state["message"], _now(state), stand_in=stand_in)


async def write_answer(state: ChatState, config: RunnableConfig) -> dict[str, Any]:
    """Reads the message, the window, the summary, `context`, `passages` and `now`; writes
    `answer` (the user-visible, streamed call), `answer_cached` and the answer as an
    AIMessage.

    On the embedded stand-in (which cannot write Korean) the answer is grounded text,
    streamed as tokens like a model's, with no model call and no cache. With any other
    model, a request whose prompt inputs all equal an earlier one's (same question,
    context, room history and date) is answered from the cache without a model call; an
    answer that is junk (a loop, the prompt echoed, not Korean, empty) is replaced by the
    grounded one and counted. Its tokens have already streamed: the replacement is the
    final `answer` and what the room remembers."""
    services = get_services()
    inputs = answer_inputs(state)
    messages = ANSWER_PROMPT.messages(**inputs)
    timeout_s = services.settings.model_timeout_s
    call: RunnableConfig = {**config, "run_name": "write_answer"}
    spec = services.models.spec(FEATURE)
    if writes_grounded_text(spec):
        text = await asyncio.to_thread(grounded_answer, state, stand_in=True)
        answer = (await invoke_text(GroundedWriter(text=text), messages, call, timeout_s)).strip()
        return {"answer": answer, "answer_cached": False, "messages": [AIMessage(content=answer)]}
    key = answer_cache_key(state, inputs, spec)
    hit = await services.cache.get(key)
    known = "\n".join(inputs.values())  # what the model was given
    if hit is not None and junk_reason(hit["answer"], known) is None:
        return {
            "answer": hit["answer"],
            "answer_cached": True,
            "messages": [AIMessage(content=hit["answer"])],
        }
    model = services.models.runnable(FEATURE, max_tokens=services.settings.chat_max_output_tokens)
    answer = (await invoke_text(model, messages, call, timeout_s)).strip()
    reason = junk_reason(answer, known)
    if reason is not None:
        DEGENERATE.labels(FEATURE, reason).inc()
        log.info("chat answer replaced by grounded text: %s (route %s)", reason, state["route"])
        answer = await asyncio.to_thread(grounded_answer, state, stand_in=False)
    await services.cache.set(key, {"answer": answer}, ANSWER_CACHE_TTL_S)
    return {"answer": answer, "answer_cached": False, "messages": [AIMessage(content=answer)]}
