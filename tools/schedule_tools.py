"""The personal schedule as LangChain tools: get / add / update / delete_schedule.

Named and shaped as the contract names them. The same tools serve the chat's deterministic
path (which calls them with arguments it resolved itself) and a tool-calling model (through
LangGraph's `ToolNode`). The user is never an argument the model fills: `user_id` is
`InjectedState("user_id")`, so it is absent from the JSON schema a model sees, and the
`ToolNode` overwrites whatever a model put there with the request's user.

A tool returns `(content, artifact)`: the content (JSON) is what a model reads in the
`ToolMessage`, the artifact is the same data for code. Mistakes a model can fix (a date in
the wrong form, an id that is not this user's) raise `ToolException` with a message that
says what to do; infrastructure failures (Redis down) propagate as coded errors.
"""

from __future__ import annotations

import json
from datetime import date
from typing import Annotated, Any

from langchain_core.tools import StructuredTool, ToolException
from langgraph.prebuilt import InjectedState
from pydantic import AfterValidator, BaseModel, Field

from core.cache import cache_key
from core.errors import NotFoundError
from core.services import get_services
from tools.schedule import ScheduleStore

READ_CACHE_TTL_S = 30
MAX_LISTED = 50
TITLE_MAX_CHARS = 100
MEMO_MAX_CHARS = 500


def _iso_date(value: str | None) -> str | None:
    if value is None:
        return None
    try:
        return date.fromisoformat(value.strip()).isoformat()
    except ValueError:
        raise ValueError(f"날짜는 YYYY-MM-DD 형식이어야 해요 (받은 값: {value!r})") from None


def _hh_mm(value: str | None) -> str | None:
    if value is None:
        return None
    text = value.strip()
    parts = text.split(":")
    if (
        len(parts) != 2
        or not all(p.isdigit() and len(p) == 2 for p in parts)
        or not (0 <= int(parts[0]) <= 23 and 0 <= int(parts[1]) <= 59)
    ):
        raise ValueError(f"시간은 24시간제 HH:MM 형식이어야 해요 (받은 값: {value!r})")
    return text


# Plain strings in the schema (every provider's function-calling accepts them); the form is
# checked here, and a wrong one goes back to the model as a clear error.
IsoDate = Annotated[str, AfterValidator(_iso_date)]
OptionalIsoDate = Annotated[str | None, AfterValidator(_iso_date)]
OptionalTime = Annotated[str | None, AfterValidator(_hh_mm)]
UserId = Annotated[str, InjectedState("user_id")]


class GetScheduleArgs(BaseModel):
    start_date: OptionalIsoDate = Field(
        default=None, description="조회 시작일 YYYY-MM-DD (포함). 없으면 처음부터"
    )
    end_date: OptionalIsoDate = Field(
        default=None, description="조회 종료일 YYYY-MM-DD (포함). 없으면 끝까지"
    )
    user_id: UserId


class AddScheduleArgs(BaseModel):
    title: str = Field(min_length=1, max_length=TITLE_MAX_CHARS, description="일정 이름")
    date: IsoDate = Field(description="날짜 YYYY-MM-DD")
    time: OptionalTime = Field(default=None, description="시간 HH:MM (24시간제), 없으면 생략")
    memo: str | None = Field(default=None, max_length=MEMO_MAX_CHARS, description="메모")
    user_id: UserId


class UpdateScheduleArgs(BaseModel):
    schedule_id: str = Field(min_length=1, description="바꿀 일정의 id (get_schedule 결과)")
    title: str | None = Field(default=None, max_length=TITLE_MAX_CHARS, description="새 이름")
    date: OptionalIsoDate = Field(default=None, description="새 날짜 YYYY-MM-DD")
    time: OptionalTime = Field(default=None, description="새 시간 HH:MM (24시간제)")
    memo: str | None = Field(default=None, max_length=MEMO_MAX_CHARS, description="새 메모")
    user_id: UserId


class DeleteScheduleArgs(BaseModel):
    schedule_id: str = Field(min_length=1, description="지울 일정의 id (get_schedule 결과)")
    user_id: UserId


def _content(payload: dict[str, Any]) -> str:
    return json.dumps(payload, ensure_ascii=False)


def _not_found(schedule_id: str) -> ToolException:
    return ToolException(
        f"SCHEDULE_NOT_FOUND: 이 사용자의 일정 중 schedule_id {schedule_id!r}는 없어요. "
        "get_schedule로 일정 목록과 id를 확인하세요."
    )


async def _get(
    user_id: str, start_date: str | None = None, end_date: str | None = None
) -> tuple[str, dict[str, Any]]:
    services = get_services()
    store = ScheduleStore(services.redis)
    args = {k: v for k, v in (("start_date", start_date), ("end_date", end_date)) if v}
    # A per-user version that every write bumps is part of the key: a cached list never
    # hides a change.
    key = cache_key("tool-schedule", user_id, str(await store.version(user_id)), repr(args))
    items = await services.cache.get(key)
    if items is None:
        start = date.fromisoformat(start_date) if start_date else None
        end = date.fromisoformat(end_date) if end_date else None
        items = await store.get(user_id, start, end)
        await services.cache.set(key, items, READ_CACHE_TTL_S)
    shown = items[:MAX_LISTED]
    return _content({"schedules": shown, "total": len(items)}), {"schedules": items}


async def _add(
    user_id: str, title: str, date: str, time: str | None = None, memo: str | None = None
) -> tuple[str, dict[str, Any]]:
    store = ScheduleStore(get_services().redis)
    item = await store.add(user_id, title.strip(), _date(date), time, memo)
    return _content({"added": item}), {"schedule": item}


def _date(value: str) -> date:
    return date.fromisoformat(value)


async def _update(
    user_id: str,
    schedule_id: str,
    title: str | None = None,
    date: str | None = None,
    time: str | None = None,
    memo: str | None = None,
) -> tuple[str, dict[str, Any]]:
    changes = {"title": title, "date": date, "time": time, "memo": memo}
    if all(v is None for v in changes.values()):
        raise ToolException("바꿀 내용이 없어요: title, date, time, memo 중 하나 이상을 주세요.")
    store = ScheduleStore(get_services().redis)
    try:
        before, item = await store.update(user_id, schedule_id, **changes)
    except NotFoundError:
        raise _not_found(schedule_id) from None
    return _content({"updated": item}), {"schedule": item, "before": before}


async def _delete(user_id: str, schedule_id: str) -> tuple[str, dict[str, Any]]:
    store = ScheduleStore(get_services().redis)
    try:
        item = await store.delete(user_id, schedule_id)
    except NotFoundError:
        raise _not_found(schedule_id) from None
    return _content({"deleted": item}), {"schedule": item}


get_schedule = StructuredTool.from_function(
    coroutine=_get,
    name="get_schedule",
    description=(
        "사용자의 개인 일정을 날짜 순으로 조회합니다. 기간을 주면 그 안의 일정만 돌려줍니다. "
        "각 일정의 schedule_id는 update_schedule / delete_schedule에 씁니다."
    ),
    args_schema=GetScheduleArgs,
    response_format="content_and_artifact",
)
add_schedule = StructuredTool.from_function(
    coroutine=_add,
    name="add_schedule",
    description="사용자의 개인 일정에 새 일정을 추가합니다.",
    args_schema=AddScheduleArgs,
    response_format="content_and_artifact",
)
update_schedule = StructuredTool.from_function(
    coroutine=_update,
    name="update_schedule",
    description=(
        "사용자의 일정 하나를 바꿉니다 (이름, 날짜, 시간, 메모 중 준 것만). "
        "schedule_id는 get_schedule 결과에서 가져옵니다."
    ),
    args_schema=UpdateScheduleArgs,
    response_format="content_and_artifact",
)
delete_schedule = StructuredTool.from_function(
    coroutine=_delete,
    name="delete_schedule",
    description="사용자의 일정 하나를 지웁니다. schedule_id는 get_schedule 결과에서 가져옵니다.",
    args_schema=DeleteScheduleArgs,
    response_format="content_and_artifact",
)

SCHEDULE_TOOLS = (get_schedule, add_schedule, update_schedule, delete_schedule)
