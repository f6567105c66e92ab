"""The chat agent with a tool-calling model (issue 12): schedule and calendar operations as
LangChain tools, a `messages` channel, `ToolNode` in a bounded loop, the user injected.

A scripted fake model that supports `bind_tools` drives the graph over HTTP (the real app
over ASGI, in-process saver, cache and schedules, real embedded embeddings). Every reply
it gives is a new AIMessage with a new id (a reused id would replace an earlier turn).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import Field

from core.models import ModelRegistry
from core.services import get_services, in_process_services, set_services
from core.settings import Settings
from nodes.chat import agent, memory, steps
from nodes.chat.router import is_compound
from tests.conftest import POSTING, saved_state
from tests.unit.test_chat import NOW, chat, embed
from tests.unit.test_server import sse_events
from tools.schedule import ScheduleStore

UNCLEAR = "음 그러니까 저번에 말한 거 있잖아"  # neither rules nor examples decide it
COMPOUND = "다음주 일정 보여주고 금요일 면접은 3시로 옮겨줘"
SUMMARY_MARK = "누적 요약"  # in the summary prompt's system part
Reply = AIMessage | str | Callable[[list[BaseMessage]], AIMessage | str]


class ToolCallingFake(BaseChatModel):
    """Replies from a script, in order; records every call and the tools it was bound to
    (as the JSON schemas a provider would be sent). Summary requests (internal calls) get
    `summary` and do not consume the script."""

    script: list[Any] = Field(default_factory=list)
    summary: str = "요약: 사용자는 백엔드 면접을 준비 중이다."
    calls: list[list[BaseMessage]] = Field(default_factory=list)
    summary_calls: list[list[BaseMessage]] = Field(default_factory=list)
    tools_seen: list[list[dict[str, Any]]] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "tool-calling-fake"

    def bind_tools(self, tools: Any, **kwargs: Any) -> ToolCallingFake:  # type: ignore[override]
        self.tools_seen.append([convert_to_openai_tool(t) for t in tools])
        return self

    def _generate(self, messages, stop=None, run_manager=None, **kwargs) -> ChatResult:
        if SUMMARY_MARK in messages[0].text:
            self.summary_calls.append(list(messages))
            reply: Any = self.summary
        else:
            self.calls.append(list(messages))
            assert self.script, "the model was called more often than scripted"
            reply = self.script.pop(0)
            if callable(reply):
                reply = reply(messages)
        if isinstance(reply, str):
            reply = AIMessage(content=reply)
        fresh = reply.model_copy(update={"id": f"fake-{uuid.uuid4().hex}"})
        return ChatResult(generations=[ChatGeneration(message=fresh)])


def asks(*calls: tuple[str, dict[str, Any]], text: str = "") -> AIMessage:
    """A model reply asking for tool calls (each with a fresh id)."""
    return AIMessage(
        content=text,
        tool_calls=[
            {"name": name, "args": args, "id": f"call_{uuid.uuid4().hex[:10]}"}
            for name, args in calls
        ],
    )


def last_tool_results(messages: list[BaseMessage]) -> list[ToolMessage]:
    """The ToolMessages after the model's last request (what it reads now)."""
    tail: list[ToolMessage] = []
    for m in reversed(messages):
        if not isinstance(m, ToolMessage):
            break
        tail.insert(0, m)
    return tail


@pytest.fixture
def tool_model(tmp_path) -> Iterator[Callable[..., ToolCallingFake]]:
    def install(*script: Reply, **settings: Any) -> ToolCallingFake:
        fake = ToolCallingFake(script=list(script))
        settings.setdefault("chroma_path", str(tmp_path / "chroma"))
        conf = Settings(redis_url=None, **settings)
        set_services(in_process_services(conf, models=ModelRegistry(conf, {"*": fake})))
        return fake

    yield install
    set_services(None)


@pytest.fixture(autouse=True)
def fresh_schedules():
    from tools import schedule

    schedule._MEMORY.clear()
    schedule._MEMORY_VERSIONS.clear()


async def seed(user: str, title: str, day: str, time: str | None = None) -> str:
    from datetime import date

    item = await ScheduleStore(None).add(user, title, date.fromisoformat(day), time)
    return item["schedule_id"]


def well_formed(messages: list[BaseMessage]) -> None:
    """Every tool call in the room has exactly one ToolMessage answering it (what every
    provider requires of a conversation sent back to it)."""
    asked = [c["id"] for m in messages if isinstance(m, AIMessage) for c in m.tool_calls]
    answered = [m.tool_call_id for m in messages if isinstance(m, ToolMessage)]
    assert sorted(asked) == sorted(answered)


# --- the tools themselves --------------------------------------------------------------


def test_the_tools_are_named_as_the_contract_and_show_no_user_field():
    names = [t.name for t in agent.CHAT_TOOLS]
    assert names[:4] == ["get_schedule", "add_schedule", "update_schedule", "delete_schedule"]
    assert "get_recruitment_schedule" in names
    shapes = {t.name: convert_to_openai_tool(t)["function"]["parameters"] for t in agent.CHAT_TOOLS}
    assert set(shapes["add_schedule"]["properties"]) == {"title", "date", "time", "memo"}
    assert shapes["add_schedule"]["required"] == ["title", "date"]
    assert set(shapes["get_schedule"]["properties"]) == {"start_date", "end_date"}
    assert shapes["delete_schedule"]["required"] == ["schedule_id"]
    assert shapes["update_schedule"]["required"] == ["schedule_id"]
    for shape in shapes.values():
        text = json.dumps(shape)
        assert "user" not in text and '"now"' not in text


def test_compound_requests_are_recognised():
    assert is_compound(COMPOUND)
    assert is_compound("내일 10시 스터디 추가하고 모레 2시 면접도 추가해줘")
    assert not is_compound("다음주 금요일 오후 3시에 네이버 1차 면접 추가해줘")
    assert not is_compound("이번 주 내 일정 보여줘")
    assert not is_compound("네이버 면접 일정 목요일로 옮겨줘")


# --- the deterministic path with a capable model ---------------------------------------


async def test_clear_requests_stay_deterministic_and_show_their_tool_calls(tool_model, client):
    fake = tool_model()
    out = await chat(client, "다음주 금요일 오후 3시에 네이버 1차 면접 추가해줘")
    args = {"title": "네이버 1차 면접", "date": "2026-12-04", "time": "15:00"}
    assert out["route"] == "schedule"
    assert out["tool_calls"] == [{"name": "add_schedule", "args": args}]
    assert fake.calls == [] and fake.tools_seen == []  # no model call on the fast path
    messages = (await saved_state("chat:u1:r1"))["messages"]
    assert [type(m).__name__ for m in messages] == [
        "HumanMessage",
        "AIMessage",
        "ToolMessage",
        "AIMessage",
    ]
    assert messages[1].tool_calls[0]["name"] == "add_schedule"
    assert messages[1].tool_calls[0]["args"] == args  # no user id in the recorded call
    assert json.loads(messages[2].content)["added"]["title"] == "네이버 1차 면접"
    assert messages[3].content == out["answer"]
    well_formed(messages)


# --- the model's calls -----------------------------------------------------------------


async def test_a_single_tool_call(tool_model, client):
    fake = tool_model(
        asks(("get_schedule", {"start_date": "2026-11-30", "end_date": "2026-12-06"})),
        "다음 주에는 네이버 1차 면접이 있어요.",
    )
    assert steps.fast_route(UNCLEAR).route is None  # the fast router does not decide it
    await seed("u1", "네이버 1차 면접", "2026-12-04", "14:00")
    await seed("u1", "지난 스터디", "2026-11-20")
    out = await chat(client, UNCLEAR)
    assert out == {
        "answer": "다음 주에는 네이버 1차 면접이 있어요.",
        "route": "schedule",
        "tool_calls": [
            {"name": "get_schedule", "args": {"start_date": "2026-11-30", "end_date": "2026-12-06"}}
        ],
        "sources": [],
    }
    assert len(fake.calls) == 2
    [result] = last_tool_results(fake.calls[1])
    listed = json.loads(result.content)["schedules"]
    assert [i["title"] for i in listed] == ["네이버 1차 면접"]  # the range was applied
    # the model saw the tools as JSON schemas, with today's date in its instructions
    assert {t["function"]["name"] for t in fake.tools_seen[0]} >= {"get_schedule"}
    assert "2026-11-29 (일)" in fake.calls[0][0].text
    assert isinstance(fake.calls[0][-1], HumanMessage) and fake.calls[0][-1].text == UNCLEAR
    messages = (await saved_state("chat:u1:r1"))["messages"]
    assert [type(m).__name__ for m in messages] == [
        "HumanMessage",
        "AIMessage",
        "ToolMessage",
        "AIMessage",
    ]
    well_formed(messages)


async def test_a_compound_request_makes_two_calls_in_one_turn(tool_model, client):
    def move_friday(messages: list[BaseMessage]) -> AIMessage:
        [result] = last_tool_results(messages)
        friday = next(
            i for i in json.loads(result.content)["schedules"] if i["date"] == "2026-12-04"
        )
        return asks(("update_schedule", {"schedule_id": friday["schedule_id"], "time": "15:00"}))

    fake = tool_model(
        asks(("get_schedule", {"start_date": "2026-11-30", "end_date": "2026-12-06"})),
        move_friday,
        "다음 주 일정: 화요일 코딩 스터디, 금요일 네이버 면접(15:00로 옮김).",
    )
    assert steps.fast_route(COMPOUND).route == "schedule"  # a rule alone would do one thing
    study = await seed("u1", "코딩 스터디", "2026-12-01", "19:00")
    interview = await seed("u1", "네이버 1차 면접", "2026-12-04", "14:00")
    out = await chat(client, COMPOUND)
    assert out["route"] == "schedule"
    assert out["tool_calls"] == [
        {"name": "get_schedule", "args": {"start_date": "2026-11-30", "end_date": "2026-12-06"}},
        {"name": "update_schedule", "args": {"schedule_id": interview, "time": "15:00"}},
    ]
    assert out["answer"].startswith("다음 주 일정:")
    items = {i["schedule_id"]: i for i in await ScheduleStore(None).get("u1")}
    assert items[interview]["time"] == "15:00" and items[interview]["date"] == "2026-12-04"
    assert items[study]["time"] == "19:00"
    assert len(fake.calls) == 3
    well_formed((await saved_state("chat:u1:r1"))["messages"])


async def test_two_calls_in_one_model_reply_both_run(tool_model, client):
    fake = tool_model(
        asks(
            ("add_schedule", {"title": "스터디", "date": "2026-11-30", "time": "10:00"}),
            ("add_schedule", {"title": "면접", "date": "2026-12-01", "time": "14:00"}),
        ),
        "두 일정을 추가했어요.",
    )
    out = await chat(client, "내일 10시 스터디 추가하고 모레 2시 면접도 추가해줘")
    assert [c["args"]["title"] for c in out["tool_calls"]] == ["스터디", "면접"]
    stored = await ScheduleStore(None).get("u1")
    assert [(i["title"], i["date"], i["time"]) for i in stored] == [
        ("스터디", "2026-11-30", "10:00"),
        ("면접", "2026-12-01", "14:00"),
    ]
    assert len(last_tool_results(fake.calls[1])) == 2


async def test_a_tool_error_goes_back_to_the_model_which_recovers(tool_model, client):
    def delete_the_right_one(messages: list[BaseMessage]) -> AIMessage:
        [result] = last_tool_results(messages)
        [item] = json.loads(result.content)["schedules"]
        return asks(("delete_schedule", {"schedule_id": item["schedule_id"]}))

    fake = tool_model(
        asks(("delete_schedule", {"schedule_id": "made-up-id"})),
        asks(("get_schedule", {})),
        delete_the_right_one,
        "스터디 일정을 지웠어요.",
    )
    study = await seed("u1", "스터디", "2026-12-02", "19:00")
    out = await chat(client, UNCLEAR)
    [failed] = last_tool_results(fake.calls[1])
    assert failed.status == "error"
    assert "SCHEDULE_NOT_FOUND" in failed.content and "get_schedule" in failed.content
    assert out["tool_calls"] == [  # only the calls that ran: the refused one is not listed
        {"name": "get_schedule", "args": {}},
        {"name": "delete_schedule", "args": {"schedule_id": study}},
    ]
    assert out["route"] == "schedule" and out["answer"] == "스터디 일정을 지웠어요."
    assert await ScheduleStore(None).get("u1") == []
    well_formed((await saved_state("chat:u1:r1"))["messages"])


async def test_an_unknown_tool_is_a_clear_error_to_the_model_not_a_crash(tool_model, client):
    fake = tool_model(
        asks(("send_email", {"to": "boss@example.com"})),
        "죄송해요, 메일은 보낼 수 없어요.",
    )
    out = await chat(client, UNCLEAR)
    [result] = last_tool_results(fake.calls[1])
    assert result.status == "error" and "send_email is not a valid tool" in result.content
    assert "get_schedule" in result.content  # the error names the tools that exist
    assert out["tool_calls"] == [] and out["route"] == "general"
    assert out["answer"] == "죄송해요, 메일은 보낼 수 없어요."


async def test_bad_arguments_are_explained_to_the_model_which_fixes_them(tool_model, client):
    fake = tool_model(
        asks(("add_schedule", {"title": "네이버 면접", "date": "다음주 금요일", "time": "3pm"})),
        asks(("add_schedule", {"title": "네이버 면접", "date": "2026-12-04", "time": "15:00"})),
        "추가했어요.",
    )
    out = await chat(client, UNCLEAR)
    [result] = last_tool_results(fake.calls[1])
    assert result.status == "error"
    assert "YYYY-MM-DD" in result.content and "HH:MM" in result.content
    assert out["tool_calls"] == [
        {
            "name": "add_schedule",
            "args": {"title": "네이버 면접", "date": "2026-12-04", "time": "15:00"},
        }
    ]
    assert [(i["date"], i["time"]) for i in await ScheduleStore(None).get("u1")] == [
        ("2026-12-04", "15:00")
    ]


async def test_a_missing_required_argument_is_explained(tool_model, client):
    fake = tool_model(asks(("delete_schedule", {})), "어떤 일정을 지울지 알려 주세요.")
    out = await chat(client, UNCLEAR)
    [result] = last_tool_results(fake.calls[1])
    assert result.status == "error" and "schedule_id" in result.content
    assert out["answer"] == "어떤 일정을 지울지 알려 주세요." and out["tool_calls"] == []


async def test_the_step_limit_stops_a_model_that_keeps_calling(tool_model, client):
    always = [asks(("get_schedule", {})) for _ in range(5)]
    fake = tool_model(*always, chat_max_tool_steps=2)
    await seed("u1", "스터디", "2026-12-02")
    out = await chat(client, UNCLEAR)
    assert len(fake.calls) == 3  # two rounds ran; the third request was not executed
    assert out["tool_calls"] == [{"name": "get_schedule", "args": {}}] * 2
    assert "2단계" in out["answer"] and "다시 말씀해 주세요" in out["answer"]
    messages = (await saved_state("chat:u1:r1"))["messages"]
    well_formed(messages)  # the unrun call is answered "not run", the room stays valid
    assert "CHAT_MAX_TOOL_STEPS" in messages[-2].content and messages[-2].status == "error"
    assert messages[-1].content == out["answer"]


async def test_the_user_is_injected_never_taken_from_the_model(tool_model, client):
    theirs = await seed("u2", "다른 사람 면접", "2026-12-03", "10:00")
    await seed("u1", "내 스터디", "2026-12-02", "19:00")
    fake = tool_model(
        asks(
            ("get_schedule", {"user_id": "u2"}),
            ("delete_schedule", {"schedule_id": theirs, "user_id": "u2"}),
        ),
        "확인했어요.",
    )
    out = await chat(client, UNCLEAR, user="u1")
    listed, deleted = last_tool_results(fake.calls[1])
    assert [i["title"] for i in json.loads(listed.content)["schedules"]] == ["내 스터디"]
    assert deleted.status == "error" and "SCHEDULE_NOT_FOUND" in deleted.content
    assert [i["schedule_id"] for i in await ScheduleStore(None).get("u2")] == [theirs]
    assert out["tool_calls"] == [{"name": "get_schedule", "args": {}}]  # no user_id shown
    for tools in fake.tools_seen:  # what the model was shown: no field for a user
        assert all("user" not in json.dumps(t["function"]["parameters"]) for t in tools)


async def test_a_redis_outage_in_a_tool_is_the_coded_error_not_a_model_retry(tmp_path):
    """Only mistakes a model can fix go back to it: Redis being down ends the turn with
    503 DEPENDENCY_UNAVAILABLE, as on the deterministic path."""
    import socket

    from langgraph.checkpoint.memory import InMemorySaver

    from core.errors import DependencyError
    from core.redis import create_redis
    from graphs.chat import build_chat_graph

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens there once released
    redis = create_redis(f"redis://127.0.0.1:{port}/0", 4, 1)
    fake = ToolCallingFake(script=[asks(("get_schedule", {})), "not reached"])
    conf = Settings(redis_url=None, chroma_path=str(tmp_path / "chroma"))
    models = ModelRegistry(conf, {"*": fake})
    set_services(in_process_services(conf, models=models, redis=redis))
    try:
        graph = build_chat_graph().compile(checkpointer=InMemorySaver())
        body = {"user_id": "u1", "room_id": "r1", "message": UNCLEAR, "now": NOW}
        with pytest.raises(DependencyError) as caught:
            await graph.ainvoke(body, {"configurable": {"thread_id": "chat:u1:r1"}})
        assert caught.value.code == "DEPENDENCY_UNAVAILABLE"
        assert len(fake.calls) == 1  # the outage was not handed to the model as a tool error
    finally:
        await redis.aclose()
        set_services(None)


async def test_the_calendar_lookup_serves_the_model_with_sources(tool_model, client):
    fake = tool_model(
        asks(("get_recruitment_schedule", {"company": "카카오"})),
        "카카오 서류 접수는 2026-12-15 18:00까지예요.",
    )
    await embed(client, "u1", "kakao", "posting", POSTING)
    await embed(client, "u2", "naver", "posting", POSTING.replace("카카오", "네이버"))
    out = await chat(client, UNCLEAR)
    [result] = last_tool_results(fake.calls[1])
    lookup = json.loads(result.content)
    assert lookup["doc_id"] == "kakao" and lookup["company"] == "카카오"
    assert {"stage": "접수 기간", "date": "2026-12-15", "time": "18:00"}.items() <= next(
        s for s in lookup["stages"] if s["date"]
    ).items()
    assert out["route"] == "calendar" and [s["doc_id"] for s in out["sources"]] == ["kakao"]
    assert out["tool_calls"] == [
        {"name": "get_recruitment_schedule", "args": {"company": "카카오"}}
    ]
    # another user's posting cannot be reached by naming its company
    fake.script += [asks(("get_recruitment_schedule", {"company": "네이버"})), "없어요."]
    other = await chat(client, UNCLEAR, room="r2")
    [missing] = last_tool_results(fake.calls[-1])
    assert missing.status == "error" and "POSTING_NOT_FOUND" in missing.content
    assert "naver" not in missing.content and other["sources"] == []


async def test_the_answer_streams_from_the_model_and_ends_with_the_contract(tool_model, client):
    tool_model(asks(("get_schedule", {})), "등록된 일정이 없어요.")
    body = {"user_id": "u1", "room_id": "r1", "message": UNCLEAR, "now": NOW}
    r = await client.post("/ai/chat/stream_events", json={"input": body, "version": "v2"})
    events = [json.loads(d) for kind, d in sse_events(r.text) if kind == "data"]
    final = [e for e in events if e["event"] == "on_chain_end" and not e["parent_ids"]][-1]
    assert final["data"]["output"] == {
        "answer": "등록된 일정이 없어요.",
        "route": "schedule",
        "tool_calls": [{"name": "get_schedule", "args": {}}],
        "sources": [],
    }
    ends = [e for e in events if e["event"] == "on_tool_end"]
    assert [e["name"] for e in ends] == ["get_schedule"]


# --- memory ----------------------------------------------------------------------------


def booking(n: int) -> str:
    return f"12월 {n + 1}일 오전 10시 스터디{n} 일정 등록해줘"


async def test_messages_keep_five_whole_turns_and_the_model_writes_the_summary(tool_model, client):
    fake = tool_model()
    for n in range(7):  # deterministic turns: only the summary is the model's
        await chat(client, booking(n))
    state = await saved_state("chat:u1:r1")
    humans = [m.content for m in state["messages"] if isinstance(m, HumanMessage)]
    assert humans == [booking(n) for n in range(2, 7)]
    assert isinstance(state["messages"][0], HumanMessage)  # trimmed at a turn's start
    well_formed(state["messages"])
    assert len(state["history"]) == 5
    assert state["summary_lines"] == [fake.summary]  # one model-written summary, bounded
    assert fake.calls == [] and len(fake.summary_calls) == 2  # turns 6 and 7 folded
    first, second = (calls[-1].text for calls in fake.summary_calls)
    assert "스터디0" in first and "(없음)" in first
    assert fake.summary in second and "스터디1" in second  # the old summary and the turn
    assert "스터디0" not in second  # already folded into the summary the first time


async def test_a_failed_summary_falls_back_to_the_rule_lines(tool_model, client, monkeypatch):
    fake = tool_model()
    outs = [await chat(client, booking(n)) for n in range(5)]

    def broken(self, messages, stop=None, run_manager=None, **kwargs):
        raise RuntimeError("summary model down")

    monkeypatch.setattr(ToolCallingFake, "_generate", broken)
    await chat(client, booking(5))
    state = await saved_state("chat:u1:r1")
    line = f"- (schedule) {booking(0)[:60]} -> {outs[0]['answer'][:60]}"
    assert state["summary_lines"] == [line]
    assert len(state["history"]) == 5 and fake.calls == []


async def test_a_room_saved_before_messages_existed_is_carried_over(use_fake_model, client):
    """A checkpoint from before this change holds only `history` and `summary_lines`: the
    room loads, its turns become messages, and the answer prompt still sees them."""
    from langgraph.graph import END, START, StateGraph
    from typing_extensions import TypedDict

    class OldChatState(TypedDict, total=False):
        user_id: str
        room_id: str
        message: str | None
        answer: str
        route: str
        history: list[dict[str, Any]]
        summary_lines: list[str]

    def old_turn(state: dict[str, Any]) -> dict[str, Any]:
        return {
            "history": [
                {"user": "연봉 협상 팁 알려줘", "assistant": "먼저 시장가를...", "route": "general"}
            ],
            "summary_lines": ["- (general) 자기소개 -> 짧게"],
        }

    old = StateGraph(OldChatState)
    old.add_node("old_turn", old_turn)
    old.add_edge(START, "old_turn")
    old.add_edge("old_turn", END)
    fake = use_fake_model(lambda messages: "네, 알겠습니다.")
    saver = get_services().checkpointer
    config = {"configurable": {"thread_id": "chat:u1:old"}}
    await old.compile(checkpointer=saver).ainvoke({"user_id": "u1", "room_id": "old"}, config)
    assert "messages" not in (await saved_state("chat:u1:old"))

    out = await chat(client, "면접 준비는 어떻게 할까요", room="old")
    assert out["answer"] == "네, 알겠습니다."
    state = await saved_state("chat:u1:old")
    assert [(type(m).__name__, m.content) for m in state["messages"]] == [
        ("HumanMessage", "연봉 협상 팁 알려줘"),
        ("AIMessage", "먼저 시장가를..."),
        ("HumanMessage", "면접 준비는 어떻게 할까요"),
        ("AIMessage", "네, 알겠습니다."),
    ]
    assert [t["user"] for t in state["history"]] == [
        "연봉 협상 팁 알려줘",
        "면접 준비는 어떻게 할까요",
    ]
    prompt = fake.calls[-1][-1].text
    assert "연봉 협상 팁 알려줘" in prompt and "자기소개 -> 짧게" in prompt


def test_trimming_keeps_whole_turns():
    messages: list[BaseMessage] = []
    for n in range(7):
        call = {"name": "get_schedule", "args": {}, "id": f"c{n}"}
        messages += [
            HumanMessage(content=f"q{n}", id=f"h{n}"),
            AIMessage(content="", tool_calls=[call], id=f"a{n}"),
            ToolMessage(content="[]", tool_call_id=f"c{n}", id=f"t{n}"),
            AIMessage(content=f"answer{n}", id=f"b{n}"),
        ]
    update = memory.trimmed_messages(messages)
    assert update[0].id == "__remove_all__"
    assert [m.id for m in update[1:]] == [m.id for m in messages[8:]]  # turns 2..6, whole
    assert memory.trimmed_messages(messages[8:]) == []  # five turns: nothing to remove
