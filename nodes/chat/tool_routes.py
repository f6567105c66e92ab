"""The chat's two tool routes as graph nodes: the personal schedule (`run_schedule`: read,
add, change, delete, with ask-backs when two schedules fit) and the recruitment calendar
(`run_calendar`: a posting's stages, optionally added to the schedule). They call the same
tools a model would, as tool calls, so the room's messages read the same either way.
"""

from __future__ import annotations

import asyncio
import logging
import re
import uuid
from datetime import date
from typing import Any, cast

from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    ToolMessage,
)
from langchain_core.tools import BaseTool, ToolException

from core.services import get_services
from nodes.chat.focus import (
    COMPANY_POINTER,
    DAY_POINTER,
    DAY_SHIFT,
    EVENT_NOUNS,
    OTHER_POSTING,
    POINTER,
    SAME_AGAIN,
    SAME_VALUE_TOO,
    asked_like_before,
    asks_when_only,
    both_told,
    just_touched,
    last_item,
    only_a_stage_put_in,
    ordinal_position,
    other_posting,
    points_back,
    stage_at,
    stage_title,
    with_memo_recalled,
)
from nodes.chat.grounded import (
    added_text,
    days_left_text,
    deleted_text,
    kind_list_text,
    moved_text,
    schedule_list_text,
    stages_text,
    the_one_asked_text,
    updated_text,
)
from nodes.chat.router import (
    ADD_VERB,
    DAYS_LEFT,
    EXISTS_TOLD,
    IF_FREE,
    LIST_VERB,
    MY_SCHEDULE,
    OWN_DOC,
    QUOTED,
    RECRUIT_WORD,
    SAME_DAY,
    SCHEDULE_VERB,
    UNDO,
    USER_DOC,
    WH_WORD,
    WHEN,
    asks_days_left_only,
    has_when,
    koreanised,
    memo_of,
    split_operations,
    unquoted,
)
from nodes.chat.schedule_requests import (
    AROUND_ITEM,
    DAY_OF,
    HOLDING,
    ONE_MORE,
    POSTING_WHEN,
    AskBack,
    Context,
    _adds_again,
    _another_event_too,
    _only_new_values,
    _relists,
    all_but_items,
    best_schedules,
    corrects_last_value,
    every_one,
    fills_in,
    gives_field_value,
    gives_the_time_it_lacked,
    labelled_memo,
    named_in,
    names_event,
    names_nothing_but_values,
    pick_choice,
    schedule_call,
    shift_in,
    undo_call,
    values_said,
)
from nodes.chat.state import ChatState
from text.dates import find_when
from text.korean_text import content_words, squash
from text.stages import STAGE_PATTERNS, named_stages, names_a_stage
from tools.calendar import get_recruitment_schedule, posting_stages, source_of, today_of
from tools.schedule import ScheduleStore
from tools.schedule_tools import add_schedule, delete_schedule, get_schedule, update_schedule

log = logging.getLogger(__name__)


# Words every posting's timeline shares: they say nothing about which posting is meant.
# "아까 말한", "얘기했던": words about the talk itself, not about a posting.
SAID = re.compile(r"(?:말|얘기|이야기)\s*(?:한|했던|하던|나온)|(?:물어|봤)\s*(?:본|던)")
# How many turns back a pointer ("아까", "그 회사") still reaches the posting in focus.
RECENT_TURNS = 4
TIMING_WORDS = re.compile(
    rf"{RECRUIT_WORD.pattern}|{WHEN.pattern}|공고|알려\S*|언제\S*|(?:이|가|은|는)?\s*뭐야\??",
)


async def call_tool(tool: BaseTool, args: dict[str, Any], **injected: Any) -> ToolMessage:
    """The deterministic path calls the same tools a model would, as a tool call (so the
    result is a ToolMessage with its artifact); `injected` carries what the graph state
    gives a tool (`user_id`, `now`). A `ToolException` (e.g. an id that is gone) is raised
    to the caller."""
    call = {
        "type": "tool_call",
        "id": f"call_{uuid.uuid4().hex[:12]}",
        "name": tool.name,
        "args": {**args, **injected},
    }
    return await tool.ainvoke(call)


Done = tuple[dict[str, Any], ToolMessage]  # the contract's {name, args} and its result


def turn_messages(rounds: list[list[Done]], answer: str) -> list[BaseMessage]:
    """What a deterministic turn adds to `messages`: one AIMessage per round of tool calls
    (model-facing arguments only, never the user), their ToolMessages, then the answer. The
    room then reads like a tool-calling model's, in Studio and for a model's later turns."""
    added: list[BaseMessage] = []
    for calls in rounds:
        tool_calls = [
            {"name": c["name"], "args": c["args"], "id": m.tool_call_id, "type": "tool_call"}
            for c, m in calls
        ]
        added += [AIMessage(content="", tool_calls=tool_calls), *(m for _, m in calls)]
    return [*added, AIMessage(content=answer)]


def _tool_turn(rounds: list[list[Done]], answer: str, **extra: Any) -> dict[str, Any]:
    return {
        "answer": answer,
        "tool_calls": [c for calls in rounds for c, _ in calls],
        "messages": turn_messages(rounds, answer),
        **extra,
    }


def _said(answer: str) -> dict[str, Any]:
    return {"answer": answer, "messages": [AIMessage(content=answer)]}


SCHEDULE_TOOLS_BY_NAME = {
    t.name: t for t in (get_schedule, add_schedule, update_schedule, delete_schedule)
}
NOT_FOUND = "말씀하신 일정을 찾지 못했어요. 일정 이름을 다시 알려 주세요."
SPARED_NOT_FOUND = (
    "남겨 두실 일정을 찾지 못해서 아무것도 바꾸지 않았어요. 남길 일정의 이름이나 날짜를 다시 "
    "알려 주세요."
)
NOTHING_BUT_SPARED = "말씀하신 일정 말고는 해당하는 일정이 없어서 바꾼 것이 없어요."


def _result_text(name: str, args: dict[str, Any], artifact: dict[str, Any]) -> str:
    """What one schedule operation did, in one sentence (nodes/chat/grounded.py)."""
    if name == "get_schedule":
        return schedule_list_text(artifact["schedules"])
    if name == "add_schedule":
        return added_text(artifact["schedule"])
    if name == "delete_schedule":
        return deleted_text(artifact["schedule"])
    if "title" in args or "memo" in args:
        changed = [k for k in ("title", "memo", "date", "time") if k in args]
        return updated_text(artifact["schedule"], changed)
    return moved_text(artifact["schedule"])


# "코딩 스터디 걔도", "네이버 면접도 ㄱㄱ": the same again, of what the words name.
_THAT_TOO = re.compile(
    r"(?:걔|얘|그거|그것|이거|이것|그\s*일정)?\s*도\s*(?:ㄱㄱ?|부탁해?|요)?[\s.!~ㅠㅜㅋ]*$"
)


def _deletes_again(clause: str, focus: dict[str, Any], live: list[dict[str, Any]]) -> bool:
    """ "코딩 스터디 걔도" right after a delete: one of the user's items named with 도 (also)
    and no verb of its own, deleted too (not "남은 일정도", "토익 공부도 ㄱㄱ")."""
    touched = (focus.get("items") or [{}])[0]
    if touched.get("how") != "deleted" or touched.get("turn") != focus.get("turn"):
        return False
    if LIST_VERB.search(clause) or "?" in clause or has_when(clause) or _ANY_ITEM.search(clause):
        return False
    if not _THAT_TOO.search(clause):
        return False
    named = _THAT_TOO.sub(" ", clause)
    fits = best_schedules(live, named, [], [])
    return len(fits) == 1 and bool(set(content_words(named)) & set(content_words(fits[0]["title"])))


# Words for items in general, not one of them ("남은 일정도", "나머지도").
_ANY_ITEM = re.compile(r"일정|스케줄|남은|나머지|전부|다른")


def _names_another(clause: str, single: dict[str, Any], live: list[dict[str, Any]]) -> bool:
    """Whether the clause names one of the user's items by its title, and not `single`
    ("원래 있던 면접은 메모에 …" right after adding a dentist visit)."""
    fits = best_schedules(live, memo_of(clause)[1], [], [])
    return bool(fits) and all(f["schedule_id"] != single["schedule_id"] for f in fits)


async def run_schedule(state: ChatState) -> dict[str, Any]:
    """Reads the message; runs its schedule operations in order (one, or each of a compound
    request: "다음주 일정 보여주고 금요일 면접은 3시로 옮겨줘") for the request's user; writes
    the answer, `tool_calls` and the turn's messages. Dates are resolved against `now`
    deterministically; the schedule to change is the user's own, by shared nouns, its day
    and its time."""
    services = get_services()
    store = ScheduleStore(services.redis)
    user, now = state["user_id"], today_of(state.get("now"))
    focus = state.get("focus")
    # (the Korean analyser reads the message: off the event loop)
    both = (
        await asyncio.to_thread(both_told, state["message"], focus)
        if state.get("routed_by") != "pending"
        else []
    )
    if both and not _names_its_own_titles(state["message"], both):
        # "둘다 넣어줘" after "카카오 코테 날짜" and "네이버는": the stage of each, as the
        # user called it, in the order asked
        return await _add_stages(user, [], [(stage_title(p, s), s) for p, s in both], [])
    if state.get("routed_by") == "focus":
        focus = await _with_stages_read(user, focus, state["message"], now)
    # a memo pointed to ("그 Redis 얘기", "같은 메모") is read as the words it points to
    # (the Korean analyser reads the words it points with: off the event loop)
    message = await asyncio.to_thread(with_memo_recalled, state["message"], focus)
    memo, _ = memo_of(message)
    # "장소도 메모로 넣어줘" after pasting a notice: the value of that line of it (its label
    # names no event)
    labelled = (
        None
        if memo
        else labelled_memo(message, [t["user"] for t in state.get("history") or []][-3:])
    )
    memo = memo or labelled
    chosen = None
    # the user's schedules, read once until an operation changes them
    live: list[dict[str, Any]] | None = None

    async def schedules() -> list[dict[str, Any]]:
        nonlocal live
        if live is None:
            live = await store.get(user)
        return live

    if state.get("routed_by") == "pending":
        # the answer to the ask-back: the operation asked about, on the item picked
        # routed "pending" only when the room's focus holds an ask-back (answers_ask_back)
        pending = cast("dict[str, Any]", focus)["pending"]
        if pending["kind"] == "undo":
            # "1번", "카카오 면접 지운 거": the operation picked, undone
            undone = await asyncio.to_thread(
                pick_choice, message, pending["choices"], pending["choices"], focus, now
            )
            if undone is None:
                return _said("어느 쪽을 되돌릴지 번호나 일정 이름으로 알려 주세요.")
            name, args = undo_call(undone)
            try:
                result = await call_tool(SCHEDULE_TOOLS_BY_NAME[name], args, user_id=user)
            except ToolException:
                return _said(NOT_FOUND)
            answer = _result_text(name, args, result.artifact)
            return _tool_turn([[({"name": name, "args": args}, result)]], answer)
        if pending.get("missing"):
            # the day or time the operation asked for: read with the request it completes
            # ("금요일 오후 3시" + "토스 최종면접 일정 추가해줘"), on the item it was about
            ids = {i["schedule_id"]: i for i in await schedules()}
            waiting = [ids[c["schedule_id"]] for c in pending["choices"] if c["schedule_id"] in ids]
            chosen = waiting[0] if waiting else None
            said_values = await asyncio.to_thread(values_said, message, now)
            operations = [(f"{said_values} {pending['clause']}", pending["kind"])]
        else:
            chosen = await asyncio.to_thread(
                pick_choice, message, pending["choices"], await schedules(), focus, now
            )
            operations = [(pending["clause"], pending["kind"])]
        memo = pending.get("memo") or memo
    else:
        operations = await asyncio.to_thread(split_operations, message)
        named_item = (
            await asyncio.to_thread(_item_given_a_time, operations[0][0], await schedules(), now)
            if len(operations) == 1
            else None
        )
        if named_item is not None:
            # "코딩스터디 오후 8시로 ㄱ", "시뮬 평가 시간 나옴 오후 1시 반": the item named by its
            # whole title, given a time (a new event's name is no item's: "미용실 4시로 ㄱ")
            operations, chosen = [(operations[0][0], "update_schedule")], named_item
    context = Context()
    rounds: list[list[Done]] = []
    said: list[str] = []
    asked_back = None
    if len(operations) == 1 and focus:
        # "시간도 저녁 8시로", "아니다 다시 오후 5시로", "메모도 달아줘: '…'" right after a
        # change: the same item, changed again; "같은 날 오후 5시에 자소서 수정도" right after an
        # add: another event, also added (수정 there names the event, it asks for no change)
        single = last_item(focus, await schedules())
        clause, kind = operations[0]
        if (
            kind != "delete_schedule"
            and focus.get("last_change")
            and SAME_VALUE_TOO.search(clause)
            and not ADD_VERB.search(clause)  # ("면접 준비도 같은 날로 넣어줘": an add)
        ):
            operations = [(clause, "update_schedule")]  # "나머지 면접도 같은 날로"
        elif (
            kind != "delete_schedule"
            and single is not None
            and await asyncio.to_thread(_another_event_too, clause, single, now)
        ):
            operations = [(clause, "add_schedule")]
        elif (
            kind in ("add_schedule", "get_schedule")
            and single is not None
            and just_touched(focus)
            and gives_field_value(clause, now, single)
        ):
            # "시간은 오후 1시" right after an add: the time of the item just added
            operations, chosen = [(clause, "update_schedule")], single
        elif kind == "add_schedule" and single is not None and fills_in(clause, now):
            operations, chosen = [(clause, "update_schedule")], single
        elif (
            kind == "add_schedule"
            and memo
            and ordinal_position(clause) is not None
            and not names_event(clause, now)
            and not has_when(clause)
        ):
            # "두번째 건 메모 좀 달아줘 '…'": the item at that place, not the one just touched
            operations = [(clause, "update_schedule")]
        elif (
            kind == "add_schedule"
            and single is not None
            and memo
            and (labelled or not names_event(clause, now))
            and not _names_another(clause, single, await schedules())
        ):
            # "그리고 메모에 '3장까지 풀어오기' 넣어줘": a memo put into the item just touched
            operations, chosen = [(clause, "update_schedule")], single
        elif kind in ("get_schedule", "add_schedule") and await asyncio.to_thread(
            _deletes_again, clause, focus, await schedules()
        ):
            operations = [(clause, "delete_schedule")]  # "코딩 스터디 걔도" right after a delete
        elif kind == "get_schedule":
            if await asyncio.to_thread(_adds_again, clause, focus, now):
                operations = [(clause, "add_schedule")]
            elif _relists(clause, focus, now):
                pass  # "아니 그거 말고 목요일" after a listing: the listing again, for that day
            elif (
                single is not None
                and ordinal_position(clause) is None
                and (
                    memo
                    or shift_in(clause)[0]
                    or _only_new_values(clause, now)
                    or (just_touched(focus) and corrects_last_value(clause, now))
                    # "저녁 8시에" after "목요일" completed an add with no time
                    or (just_touched(focus) and gives_the_time_it_lacked(clause, single, now))
                )
            ):
                named_other = _names_another(clause, single, await schedules())
                operations = [(clause, "update_schedule")]
                chosen = None if named_other else single
            elif ONE_MORE.search(clause) and (
                SAME_AGAIN.search(clause)
                # (not a look: "그 다음 주도 하나 더 보여줘", "그날 하나 더 있지 않았어?")
                or (
                    (DAY_POINTER.search(clause) or has_when(clause))
                    and not LIST_VERB.search(unquoted(clause))
                    and "?" not in clause
                )
            ):
                # "같은걸로 하나더 화욜에": a copy; "그 다음날 같은 시간에 '…' 하나 더": another
                operations = [(clause, "add_schedule")]
            elif focus.get("last_change") and SAME_AGAIN.search(clause):
                operations = [(clause, "update_schedule")]  # "카카오 것도 똑같이"
            elif memo and (points_back(clause) or ordinal_position(clause) is not None):
                operations = [(clause, "update_schedule")]  # "마지막 거 메모에 '…'"
            elif memo and not has_when(clause):
                # "인적성은 온라인이라고 메모 달아줘" after adding two: a memo asks for no
                # listing; it goes on the item its words name
                operations = [(clause, "update_schedule")]
    chosen_at: dict[int, dict[str, Any]] = {}
    if chosen is None and (
        memo or any(k in ("update_schedule", "delete_schedule") for _, k in operations)
    ):
        # "카카오 면접 빼고 다 지워줘", "둘 다 하루씩 뒤로", "면접만 5시로": one operation for
        # each item of the set (the Korean analyser reads the clause: off the event loop)
        operations, chosen_at = await asyncio.to_thread(
            _each_of_the_sets, operations, focus, await schedules(), now, said, memo
        )
    looked_at = (
        await asyncio.to_thread(_looked_just_now, operations, cast("dict[str, Any]", focus), now)
        if focus
        else None
    )
    if focus and looked_at is not None:
        # "크리스마스에 일정 있어?" then "없으면 그날 오후 6시에 … 넣어줘": the day was just
        # looked at (alone or in a period: "오늘이랑 내일 일정" then "아무것도 없으면 내일 …");
        # what the user saw decides, no second look
        day = looked_at
        seen = [i for i in focus.get("listed") or [] if i.get("date") == day]
        operations, context = operations[1:], Context(day=day, listed=seen)
    skip_next = False
    for index, (clause, kind) in enumerate(operations):
        if skip_next:
            skip_next = False  # merged into the change before it
            continue
        # an add counted from an item ("네이버 면접 끝나고 같은 날", "마감 전날") reads them too
        reads = (
            kind in ("update_schedule", "delete_schedule")
            or bool(memo)
            or bool(focus)
            or bool(DAY_SHIFT.search(clause) or SAME_DAY.search(clause) or DAY_OF.search(clause))
            or bool(AROUND_ITEM.search(clause))  # "스터디 끝나고 밤 10시에 …"
            or bool(HOLDING.search(clause))  # "카카오 면접 있는 주에 뭐 있어?"
            # an event told as being there may be one already kept ("… 면접 있어요")
            or bool(EXISTS_TOLD.search(clause))
        )
        items = await schedules() if reads else []
        planned = await asyncio.to_thread(
            schedule_call,
            clause,
            kind,
            now,
            items,
            context,
            memo if kind != "get_schedule" else None,
            focus,
            chosen_at.get(index, chosen),
        )
        if isinstance(planned, AskBack) and not (
            planned.pending.get("missing") and index + 1 < len(operations)
        ):
            said.append(planned.text)
            asked_back = planned.pending
            break
        if isinstance(planned, AskBack):
            said.append(planned.text)  # (a value missing before more operations: said only)
            continue
        if isinstance(planned, str):
            said.append(planned)
            continue
        name, args, target = planned
        if name in ("add_schedule", "update_schedule") and index not in chosen_at:
            memo = None  # the memo goes with one operation (or each item of a set)
        if (
            name == "update_schedule"
            and target is not None
            and index + 1 < len(operations)
            and not chosen_at  # (each of "둘 다" is its own change)
        ):
            # "4시로 옮기고 제목도 카카오 1차 면접으로 바꿔줘": two changes of one item are
            # one change of it
            more = await asyncio.to_thread(
                _same_item_change, operations[index + 1], target, args, now, items, context, focus
            )
            if more and not set(more) & set(args):
                args, skip_next = {**args, **more}, True
        try:
            result = await call_tool(SCHEDULE_TOOLS_BY_NAME[name], args, user_id=user)
        except ToolException:
            said.append(NOT_FOUND)
            continue
        picked = (
            await asyncio.to_thread(_the_one_asked, clause, result.artifact)
            if name == "get_schedule" and ordinal_position(clause) is not None
            else None
        )
        kind = _kind_asked(clause) if name == "get_schedule" and picked is None else None
        of_kind = (
            [s for s in result.artifact["schedules"] if squash(kind) in squash(s["title"])]
            if kind
            else []
        )
        if picked is not None:
            # "제 일정 중에 제일 빠른 게 뭐예요?": that one is what the room shows (and what
            # "그거" means next)
            item = picked[0]
            result.artifact = {**result.artifact, "schedules": [item]}
        elif kind and 0 < len(of_kind) < len(result.artifact["schedules"]):
            # "12월에 면접 몇 개 잡혀있어?": the items of that kind are what the room shows
            # (and what "그 두 개 중에 늦게 있는 거" picks among)
            result.artifact = {**result.artifact, "schedules": of_kind}
        else:
            kind = None
        rounds.append([({"name": name, "args": args}, result)])
        if name != "get_schedule":
            live = None  # changed: the next operation reads them again
        said.append(
            the_one_asked_text(*picked)
            if picked
            else kind_list_text(kind, result.artifact["schedules"], bool(_HOW_MANY.search(clause)))
            if kind
            else _result_text(name, args, result.artifact)
        )
        item = (result.artifact.get("schedule") or target or {}) if name != "get_schedule" else {}
        context.day = item.get("date") or args.get("start_date")
        context.time = item.get("time")
        context.listed = result.artifact["schedules"] if name == "get_schedule" else None
    answer = "\n".join(said)
    if not rounds:
        return {**_said(answer), "asked_back": asked_back}
    return {**_tool_turn(rounds, answer), "asked_back": asked_back}


def _names_its_own_titles(message: str, both: list[tuple[dict[str, Any], dict[str, Any]]]) -> bool:
    """Whether "둘 다 …" says the titles itself ("제목은 '네이버 코테', '카카오 코테'",
    "네이버코테 카카오코테 이렇게"): a quote, or a company of them named."""
    asked = squash(koreanised(message))
    return bool(QUOTED.search(message)) or any(
        p.get("company") and squash(p["company"]) in asked for p, _ in both
    )


async def _with_stages_read(
    user: str, focus: dict[str, Any] | None, message: str, now: date
) -> dict[str, Any] | None:
    """The room's focus with the stages of its posting read, when a document answer
    quoted that posting (its dates unread) and the message points at one of its stages
    ("그 회사 1차 면접 날짜도 내 캘린더에 넣어줘"); the focus unchanged otherwise."""
    posting = (focus or {}).get("posting") or {}
    if (
        not posting.get("doc_id")
        or posting.get("stages")
        or not COMPANY_POINTER.search(message)
        or not await asyncio.to_thread(only_a_stage_put_in, message)
    ):
        return focus
    parsed = await posting_stages(user, posting["doc_id"], now)
    return {**(focus or {}), "posting": {**posting, "stages": parsed["stages"], "dated": True}}


# A listing of one kind of item: "12월에 면접 몇 개 잡혀있어?", "이번 주 스터디 일정 보여줘"
# (not a day told by an item: "면접 있는 날", "면접 전날", "면접 끝나고").
_KIND_ASKED = re.compile(
    rf"({EVENT_NOUNS})(?:\s*(?:일정|스케줄))?\s*(?:은|는|이|가|만|들|도)?\s*"
    r"(?:몇|뭐|뭣|무슨|어떤|있|잡혀|잡힌|보여|알려|언제|다\s|전부|목록|리스트|[?？]|$)"
)
_KIND_DAY = re.compile(
    r"\s*(?:일정)?\s*(?:있는|잡힌|보는|하는)?\s*(?:날|주|전날|다음\s*날|당일|때|끝나|전에|후에)"
)
_HOW_MANY = re.compile(r"몇\s*(?:개|번|건|탕)|(?i:\bhow\s+many\b)")


def _kind_asked(clause: str) -> str | None:
    """The kind of item a listing asks for alone ("면접 몇 개", "스터디 일정 보여줘"), or None."""
    m = _KIND_ASKED.search(clause)
    if m is None or _KIND_DAY.match(clause, m.end(1)):
        return None
    return m.group(1)


# A time given to an item without a verb of change: "X 오후 8시로 ㄱ", "X 시간 나옴 오후 1시 반".
_GO_WITH = re.compile(r"(?:으로|로)\s*ㄱㄱ?[\s.!~ㅋㅎ]*$")
_TIME_OUT = re.compile(
    r"(?:시간|시각)\s*(?:이|가|은|는|도)?\s*(?:나옴|나왔\S*|정해졌\S*|정해짐|확정\S*|떴\S*)"
)


def _item_given_a_time(
    clause: str, items: list[dict[str, Any]], now: date
) -> dict[str, Any] | None:
    """The one item whose whole title the clause says before a time it is given with no
    verb of change ("코딩스터디 오후 8시로 ㄱ", "시뮬 평가 시간 나옴 오후 1시 반": an item with
    no time yet, for the latter); None otherwise (a day said, or a name no item has)."""
    go, out = _GO_WITH.search(clause), _TIME_OUT.search(clause)
    when = find_when(clause, now)
    if not (go or out) or when.time is None or when.date is not None:
        return None
    cue = go if go is not None else out
    assert cue is not None
    said = squash(clause[: cue.start()])
    named = [i for i in items if squash(i["title"]) and squash(i["title"]) in said]
    if out is not None:
        # (the item lacking its time, named by its title or a part of it: "시뮬 평가")
        named = [
            i
            for i in items
            if not i.get("time")
            and said
            and (said in squash(i["title"]) or squash(i["title"]) in said)
        ]
    if len(named) != 1:
        return None
    # (nothing but the title and the time before it: "카카오 면접 준비 8시로 ㄱ" names another)
    rest = said.replace(squash(named[0]["title"]), "", 1)
    for start, end in when.spans:
        rest = rest.replace(squash(clause[start:end]), "", 1)
    return named[0] if not re.sub(r"[ㄱ-ㅎ.,!~]", "", rest) or out is not None else None


def _the_one_asked(clause: str, artifact: dict[str, Any]) -> tuple[dict[str, Any], int, int] | None:
    """ "제일 빠른 게 뭐예요?", "다음 주 두 번째 일정이 뭐지", "가장 늦게 있는 면접 언제야?": the
    item a question asks for by its place in the listing (among those its words name), with
    its position and how many there were; None when the clause asks for no one place."""
    position = ordinal_position(clause)
    if position is None or not (WH_WORD.search(clause) or "?" in clause):
        return None
    shown = artifact.get("schedules") or []
    pool = best_schedules(shown, clause, [], []) or shown
    if not -len(pool) <= position < len(pool) or len(pool) < 2:
        return None
    return pool[position], position if position >= 0 else -1, len(pool)


def _each_of_the_sets(
    operations: list[tuple[str, str]],
    focus: dict[str, Any] | None,
    live: list[dict[str, Any]],
    now: date,
    said: list[str],
    memo: str | None,
) -> tuple[list[tuple[str, str]], dict[int, dict[str, Any]]]:
    """The operations with a change or delete of a set ("all but X", "둘 다", "면접만")
    made one for each item of it, and the item each of those acts on by its index. When the
    items spared cannot be found, or nothing is left but them, that operation is dropped and
    `said` tells why."""
    expanded: list[tuple[str, str, dict[str, Any] | None]] = []
    acted: set[str] = set()  # the items the message's earlier changes and deletes name
    for n, (clause, kind) in enumerate(operations):
        spared = (
            all_but_items(clause, focus, live, now)
            if kind in ("update_schedule", "delete_schedule")
            else None
        )
        if spared is not None:
            kept, meant = spared
            # ("cancel everything but Naver, and move the study to 8pm": not the study)
            later = {
                i["schedule_id"]
                for c, k in operations[n + 1 :]
                if k in ("update_schedule", "delete_schedule")
                for i in named_in(c, live, now)
            }
            meant = [i for i in meant if i["schedule_id"] not in later]
            if not kept:
                said.append(SPARED_NOT_FOUND)
            elif not meant:
                said.append(NOTHING_BUT_SPARED)
            expanded += [(clause, kind, item) for item in meant]
            acted |= {i["schedule_id"] for i in meant}
            continue
        if kind == "add_schedule" and memo and not has_when(clause):
            kind = "update_schedule"  # "둘 다 메모에 '…' 넣어줘": a memo on the items named
            pool = every_one(clause, kind, focus, live, now, acted)
            kind = kind if pool else "add_schedule"
        else:
            pool = every_one(clause, kind, focus, live, now, acted)
        expanded += [(clause, kind, item) for item in pool] if pool else [(clause, kind, None)]
        if kind in ("update_schedule", "delete_schedule"):
            # ("카카오 면접 지우고 나머지는 하루씩 미뤄줘": the rest is not 카카오 면접)
            acted |= {i["schedule_id"] for i in pool or named_in(clause, live, now)}
    chosen_at = {n: item for n, (_, _, item) in enumerate(expanded) if item is not None}
    return [(clause, kind) for clause, kind, _ in expanded], chosen_at


def _same_item_change(
    operation: tuple[str, str],
    target: dict[str, Any],
    changed: dict[str, Any],
    now: date,
    items: list[dict[str, Any]],
    context: Context,
    focus: dict[str, Any] | None,
) -> dict[str, Any] | None:
    """The fields the next operation changes when it is a change of the same item, read as
    if the change before it (`changed`) were done: the room's day and time are the item's
    new ones. A clause that names no item of its own ("제목도 …로 바꿔줘", "3시로 바꿔줘")
    is of that item."""
    clause, kind = operation
    if kind != "update_schedule":
        return None
    after = Context(
        day=changed.get("date", target.get("date")),
        time=changed.get("time", target.get("time")),
        notes=list(context.notes),
    )
    planned = schedule_call(clause, kind, now, items, after, None, focus, None)
    if not isinstance(planned, tuple) and names_nothing_but_values(clause, now):
        # "제목도 …로 바꿔줘", "3시로 바꿔줘": no item named, the one just changed
        planned = schedule_call(clause, kind, now, items, after, None, focus, target)
    if not isinstance(planned, tuple) or planned[0] != "update_schedule":
        return None
    _, args, other = planned
    if other is None or other.get("schedule_id") != target.get("schedule_id"):
        return None
    return {k: v for k, v in args.items() if k != "schedule_id"}


def _looked_just_now(
    operations: list[tuple[str, str]], focus: dict[str, Any], now: date
) -> str | None:
    """The day of a look-then-add ("없으면 … 넣어줘") that the room's last turn listed, alone
    or within the period it listed; None otherwise."""
    looked = focus.get("listed_day") or {}
    period = focus.get("listed_range") or {}
    just_looked = focus.get("looked_turn", -1) == focus.get("turn")
    if not (
        len(operations) >= 2
        and [k for _, k in operations[:2]] == ["get_schedule", "add_schedule"]
        and IF_FREE.search(operations[1][0])
        and (looked.get("turn") == focus.get("turn") or (just_looked and period))
    ):
        return None
    planned = schedule_call(operations[1][0], "add_schedule", now, [], Context(), None, focus)
    day = planned[1].get("date") if isinstance(planned, tuple) else None
    if (
        day is None
        and looked.get("turn") == focus.get("turn")
        and find_when(operations[1][0], now).date is None
    ):
        # "이날 나 다른 일정 있어?" then "없으면 KT 면접으로 등록해줘요" (or "없으면 오후 2시
        # 카카오 코딩 테스트 넣어 주세요"): no day said, the day just looked at
        return looked.get("date")
    if day is None:
        return None
    if looked.get("turn") == focus.get("turn"):
        return day if day == looked.get("date") else None
    return day if period.get("start", "") <= day <= period.get("end", "") else None


def posting_query(message: str) -> str:
    """What finds the posting a calendar question is about: the message without its
    timing words ("… 만드는 그 공고, 코딩테스트 날짜가 언제였지?" is searched as what the
    posting is about, not as a question about coding-test dates, which every posting has)."""
    rest = " ".join(TIMING_WORDS.sub(" ", message).split())
    return rest if len(re.sub(r"\W", "", rest)) >= 4 else message


# What a stage question says besides its stage and its time: sitting it ("몇 시에 봐?", "언제
# 치러?"), and English function words ("when's their coding test?").
_ASKING_ONLY = re.compile(
    r"(?:봐|보는|보나|봐요|치러|치르는|진행)\S*|"
    r"(?i:'s\b|\b(?:their|its|the|that|is|it|do|does|they|what|time)\b)"
)


def names_no_posting(message: str) -> bool:
    """A follow-up that says nothing about which posting ("면접은 언제야?", "서류 마감은?"):
    without its timing and stage words, nothing is left."""
    # a pointer to the posting in focus names none ("그 회사 서류 마감은?", "아까 말한 거기")
    rest = SAID.sub(" ", POINTER.sub(" ", TIMING_WORDS.sub(" ", message)))
    rest = _ASKING_ONLY.sub(" ", rest)
    for _, pattern in STAGE_PATTERNS:
        rest = pattern.sub(" ", rest)
    # (the past of the copula left after a stage or time word: "몇 시였지?", "마감이었나")
    rest = _PAST_COPULA.sub(" ", rest)
    return len(re.sub(r"[\W은는이가도요]", "", rest)) < 2


_PAST_COPULA = re.compile(r"(?<!\S)(?:였|이었)\S*")


def asks_about_posting(message: str, focus: dict[str, Any] | None) -> bool:
    """A stage question right after a recruitment answer ("거기 1차 면접은?", "서류 마감은
    언제야?") that names no posting and asks for no schedule operation is about the
    posting the room was just talking about."""
    posting = (focus or {}).get("posting")
    turn = int((focus or {}).get("turn") or 0)
    if (
        posting
        and posting.get("turn") == turn
        and asks_days_left_only(message)  # (names nothing else: not the user's own items)
        and not SCHEDULE_VERB.search(message)
    ):
        return True  # "그럼 D-몇임" right after a stage's date: counted to that date
    return bool(
        posting
        and (
            posting.get("turn") == turn
            # "아까 말한 그 회사 코테 몇시였지": pointed back to, a few turns later
            or (points_back(message) and turn - int(posting.get("turn") or 0) < RECENT_TURNS)
        )
        and names_a_stage(message)
        and not SCHEDULE_VERB.search(message)
        # "면접 시간은 그냥 원래대로 해줘": the user's own item put back (a posting's are not)
        and not UNDO.search(message)
        and not MY_SCHEDULE.search(message)
        # "아까 그회사 면접 2시간 뒤로": a move of the user's own item, not a question
        and shift_in(message)[0] is None
        # "내 이력서상 경력 기간이 언제부터 언제까지야?": the user's own document, not the posting
        and not OWN_DOC.search(message)
        # "포폴은?" after a question on the resume: the same question of the user's portfolio
        # (a portfolio is also a posting's step: "포트폴리오 제출은 언제까지야?" asks when)
        and not (USER_DOC.search(message) and not POSTING_WHEN.search(message))
        # a question of when ("거기 1차 면접은 언제야?", "코테 몇 시야?"), not advice about
        # an interview ("그거 면접에서 어떻게 어필하면 좋을까?")
        and bool(POSTING_WHEN.search(message) or names_no_posting(message))
    )


async def run_calendar(state: ChatState) -> dict[str, Any]:
    """Reads the message; finds the user's posting it is about (vector search over the
    user's postings only) and reads its recruitment stages with `get_recruitment_schedule`;
    answers with the asked stage, or adds the dated stages to the schedule (`add_schedule`)
    when asked to."""
    services = get_services()
    user, message = state["user_id"], state["message"]
    vector = await asyncio.to_thread(services.embeddings.embed_query, posting_query(message))
    hits = await services.vectors.query(user, vector, 5, ["posting"])
    if not hits:
        return _said("등록된 채용공고가 없어요. 공고를 먼저 올려 주세요.")
    named = [h for h in hits if h.company and h.company in koreanised(message)]
    history = state.get("history") or []
    if (
        not named
        and history
        and names_no_posting(re.sub(r"^\s*(?:그럼|그러면|아)\s+|기간", " ", message))
        and not OTHER_POSTING.search(message)
    ):
        # "그럼 서류 접수 기간은?" after "카카오 공고에 근무지 나와 있어?" (which quoted
        # nothing): the company the question before named
        before = koreanised(str(history[-1].get("user") or ""))
        named = [h for h in hits if h.company and h.company in before]
    posting = (named or hits)[0]
    focus = state.get("focus") or {}
    focused = focus.get("posting")
    other = other_posting(message, focus, [h.doc_id for h in hits]) if not named else None
    if other is not None:
        # "그럼 다른 데는?": the user's other posting
        posting = next(h for h in hits if h.doc_id == other)
    elif (
        not named
        and focused
        and (points_back(message) or names_no_posting(message) or DAYS_LEFT.search(message))
    ):
        # "거기 면접은 언제야?", "코테는?": the posting this room was just talking about
        posting = next((h for h in hits if h.doc_id == focused["doc_id"]), posting)
    elif not named and points_back(message):
        # "그 회사 공고 최종 발표는?" after a turn about "카카오 면접": the company the
        # room's last schedule names
        titles = [str(i.get("title") or "") for i in focus.get("items") or []][:1]
        posting = next(
            (h for h in hits if h.company and any(h.company in t for t in titles)), posting
        )
    lookup_args = {"doc_id": posting.doc_id}
    lookup = await call_tool(
        get_recruitment_schedule, lookup_args, user_id=user, now=state.get("now")
    )
    parsed = lookup.artifact
    rounds: list[list[Done]] = [
        [({"name": "get_recruitment_schedule", "args": lookup_args}, lookup)]
    ]
    company = parsed["company"] or "해당 공고"
    # a stage by its name first ("2차 면접"), by its place only when none is named
    asked = named_stages(message, parsed["stages"])
    asked = stage_at(message, parsed["stages"]) if asked is None else asked
    # "네이버는" right after "카카오 코테 날짜": that stage of this posting
    if not asked:
        asked = asked_like_before(message, parsed["company"], parsed["stages"], focused) or asked
    if (
        asked is None
        and focused
        and focused.get("doc_id") == posting.doc_id
        and names_no_posting(message)
        and asks_when_only(message)
        and not ADD_VERB.search(message)
    ):
        # "몇 시에 봐?" right after "네이버 코테 언제야": the stage the room was about
        held = {s.get("stage") for s in focused.get("asked") or []}
        asked = [s for s in parsed["stages"] if s["stage"] in held] or None
    stages = parsed["stages"] if asked is None else asked
    sources = [source_of(posting)]
    if DAYS_LEFT.search(message) and not ADD_VERB.search(message):
        # "D-몇임" after "서류마감 언제": the stage the room was about, else the deadline
        if asked is None and focused and focused.get("doc_id") == posting.doc_id:
            held = {s.get("stage") for s in focused.get("asked") or []}
            asked = [s for s in parsed["stages"] if s["stage"] in held] or None
        today = today_of(state.get("now"))
        if asked is None:
            # the next stage to come, else the last one past
            dated = [s for s in parsed["stages"] if s.get("date")]
            ahead = [s for s in dated if s["date"] >= today.isoformat()]
            asked = (ahead or dated[-1:])[:1] or None
        return _tool_turn(rounds, days_left_text(company, asked or [], today), sources=sources)
    if ADD_VERB.search(message):
        return await _add_stages(
            user, rounds, [(f"{company} {s['stage']}", s) for s in stages], sources=sources
        )
    return _tool_turn(rounds, stages_text(company, stages), sources=sources)


async def _add_stages(
    user: str,
    rounds: list[list[Done]],
    titled: list[tuple[str, dict[str, Any]]],
    sources: list[dict[str, Any]],
) -> dict[str, Any]:
    """Adds the dated stages to the user's schedule, each under its title."""
    adds: list[Done] = []
    added = []
    for title, s in titled:
        if s["date"]:
            args = {
                "title": title,
                "date": s["date"],
                **({"time": s["time"]} if s["time"] else {}),
            }
            result = await call_tool(add_schedule, args, user_id=user)
            adds.append(({"name": "add_schedule", "args": args}, result))
            added.append(f"{s['date']}{' ' + s['time'] if s['time'] else ''} {title}")
    answer = (
        ("일정에 추가했어요:\n- " + "\n- ".join(added))
        if added
        else ("날짜가 정해진 전형이 없어 추가하지 않았어요.")
    )
    return _tool_turn([*rounds, adds] if adds else rounds, answer, sources=sources)
