"""The chat agent's tool calls over the wire: the real server (`uvicorn server:app`, real
Redis for schedules and checkpoints) with CHAT_MODEL=ollama pointed at the Ollama
stand-in, which scripts the model's tool calls and records what the real `ChatOllama`
client sent (the tools' JSON schemas, the ToolMessages fed back); and a compound request
on CHAT_MODEL=google_genai through the Gemini stand-in."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.integration.conftest import serve_app
from tests.standins import Call
from tests.standins.gemini import GeminiStandIn
from tests.standins.ollama import OllamaStandIn
from tests.unit.test_server import stream_parts

pytestmark = pytest.mark.integration
NOW = "2026-11-29T10:00:00+09:00"  # a Sunday
UNCLEAR = "음 그러니까 저번에 말한 거 있잖아"  # the fast router does not decide it
MAX_STEPS = 3  # the unknown-tool test uses three rounds
CAP = 300  # CHAT_MAX_OUTPUT_TOKENS


@pytest.fixture(scope="module")
def ollama() -> Iterator[OllamaStandIn]:
    with OllamaStandIn() as standin:
        yield standin


@pytest.fixture(scope="module")
def server(redis_url: str, ollama: OllamaStandIn, tmp_path_factory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("chat-tools")
    with serve_app(
        redis_url,
        folder / "server.log",
        CHAT_MODEL="ollama:exaone3.5:7.8b",
        MODEL_FALLBACKS="",
        OLLAMA_BASE_URL=ollama.url,
        CHAT_MAX_TOOL_STEPS=str(MAX_STEPS),
        CHAT_MAX_OUTPUT_TOKENS=str(CAP),
        CHROMA_PATH=str(folder / "chroma"),
    ) as base:
        yield base


@pytest.fixture
def client(server: str, ollama: OllamaStandIn) -> Iterator[httpx.Client]:
    ollama.reset()
    with httpx.Client(base_url=server, timeout=120) as c:
        yield c


def user() -> str:
    return f"t{uuid.uuid4().hex[:10]}"


def say(client: httpx.Client, who: str, message: str, room: str = "room") -> dict[str, Any]:
    body = {"input": {"user_id": who, "room_id": room, "message": message, "now": NOW}}
    r = client.post("/ai/chat/invoke", json=body)
    assert r.status_code == 200, r.text
    return r.json()["output"]


def tool_results(call: Call) -> list[dict[str, Any]]:
    """The tool messages at the end of what the client sent (the results the model reads)."""
    tail: list[dict[str, Any]] = []
    for message in reversed(call.body["messages"]):
        if message.get("role") != "tool":
            break
        tail.insert(0, message)
    return tail


def add(client: httpx.Client, who: str, message: str) -> str:
    """A schedule added on the deterministic path (no model call); its id."""
    out = say(client, who, message, room="setup")
    assert out["tool_calls"][0]["name"] == "add_schedule", out
    return out["tool_calls"][0]["args"]["title"]


def listed(client: httpx.Client, ollama: OllamaStandIn, who: str) -> list[dict[str, Any]]:
    """The user's schedules, read through the model path's get_schedule."""
    ollama.script([{"name": "get_schedule", "args": {}}], "목록이에요.")
    say(client, who, UNCLEAR, room=f"list-{uuid.uuid4().hex[:6]}")
    [result] = tool_results(ollama.calls[-1])
    return json.loads(result["content"])["schedules"]


def test_clear_requests_never_reach_the_model(client, ollama):
    who = user()
    out = say(client, who, "다음주 금요일 오후 3시에 네이버 1차 면접 추가해줘")
    assert out["tool_calls"] == [
        {
            "name": "add_schedule",
            "args": {"title": "네이버 1차 면접", "date": "2026-12-04", "time": "15:00"},
        }
    ]
    assert ollama.calls == []


def test_a_single_tool_call_with_the_schemas_the_model_saw(client, ollama):
    who = user()
    add(client, who, "다음주 금요일 오후 2시 네이버 1차 면접 일정 추가해줘")
    ollama.reset()
    ollama.script(
        [{"name": "get_schedule", "args": {"start_date": "2026-11-30", "end_date": "2026-12-06"}}],
        "다음 주에는 네이버 1차 면접이 있어요.",
    )
    out = say(client, who, UNCLEAR)
    assert out == {
        "answer": "다음 주에는 네이버 1차 면접이 있어요.",
        "route": "schedule",
        "tool_calls": [
            {"name": "get_schedule", "args": {"start_date": "2026-11-30", "end_date": "2026-12-06"}}
        ],
        "sources": [],
    }
    first, second = ollama.calls
    tools = {t["function"]["name"]: t["function"]["parameters"] for t in first.body["tools"]}
    assert {"get_schedule", "add_schedule", "update_schedule", "delete_schedule"} <= set(tools)
    assert "get_recruitment_schedule" in tools
    assert set(tools["add_schedule"]["properties"]) == {"title", "date", "time", "memo"}
    assert set(tools["update_schedule"]["required"]) == {"schedule_id"}
    assert all("user" not in json.dumps(p) for p in tools.values())  # no field for a user
    assert "2026-11-29 (일)" in first.body["messages"][0]["content"]
    assert first.max_tokens == CAP == second.max_tokens  # options.num_predict on the wire
    last = first.body["messages"][-1]
    assert (last["role"], last["content"]) == ("user", UNCLEAR)
    [result] = tool_results(second)
    assert [i["title"] for i in json.loads(result["content"])["schedules"]] == ["네이버 1차 면접"]


def test_a_compound_request_makes_two_calls_in_one_turn(client, ollama):
    who = user()
    add(client, who, "12월 1일 저녁 7시 코딩 스터디 일정 추가해줘")
    add(client, who, "다음주 금요일 오후 2시 네이버 1차 면접 일정 추가해줘")
    ollama.reset()

    def move_friday(call: Call) -> Any:
        results = tool_results(call)
        if not results:
            return None
        content = json.loads(results[-1]["content"])
        if "schedules" not in content:
            return "다음 주 일정을 보여 드렸고, 금요일 면접은 15:00로 옮겼어요."
        friday = next(i for i in content["schedules"] if i["date"] == "2026-12-04")
        return [
            {
                "name": "update_schedule",
                "args": {"schedule_id": friday["schedule_id"], "time": "15:00"},
            }
        ]

    ollama.script(
        [{"name": "get_schedule", "args": {"start_date": "2026-11-30", "end_date": "2026-12-06"}}]
    )
    ollama.respond_with(move_friday)
    out = say(client, who, "다음주 일정 보여주고 금요일 면접은 3시로 옮겨줘")
    assert [c["name"] for c in out["tool_calls"]] == ["get_schedule", "update_schedule"]
    assert out["tool_calls"][1]["args"]["time"] == "15:00"
    assert out["route"] == "schedule" and out["answer"].endswith("옮겼어요.")
    assert len(ollama.calls) == 3
    items = {i["title"]: i for i in listed(client, ollama, who)}
    assert (items["네이버 1차 면접"]["date"], items["네이버 1차 면접"]["time"]) == (
        "2026-12-04",
        "15:00",
    )
    assert items["코딩 스터디"]["time"] == "19:00"


def test_a_tool_error_is_fed_back_and_the_model_recovers(client, ollama):
    who = user()
    ollama.script(
        [{"name": "delete_schedule", "args": {"schedule_id": "no-such-id"}}],
        "그 일정은 찾지 못했어요. 어떤 일정인지 알려 주세요.",
    )
    out = say(client, who, UNCLEAR)
    [result] = tool_results(ollama.calls[1])
    assert "SCHEDULE_NOT_FOUND" in result["content"] and "get_schedule" in result["content"]
    assert out["tool_calls"] == [] and out["route"] == "schedule"
    assert out["answer"] == "그 일정은 찾지 못했어요. 어떤 일정인지 알려 주세요."


def test_an_unknown_tool_and_bad_arguments_are_clear_errors(client, ollama):
    who = user()
    ollama.script(
        [{"name": "send_email", "args": {"to": "a@example.com"}}],
        [{"name": "add_schedule", "args": {"title": "면접", "date": "다음주 금요일"}}],
        [
            {
                "name": "add_schedule",
                "args": {"title": "면접", "date": "2026-12-04", "time": "15:00"},
            }
        ],
        "금요일 15:00 면접을 추가했어요.",
    )
    out = say(client, who, UNCLEAR)
    unknown = tool_results(ollama.calls[1])[0]["content"]
    bad = tool_results(ollama.calls[2])[0]["content"]
    assert "send_email is not a valid tool" in unknown
    assert "YYYY-MM-DD" in bad and "다음주 금요일" in bad
    assert out["tool_calls"] == [
        {"name": "add_schedule", "args": {"title": "면접", "date": "2026-12-04", "time": "15:00"}}
    ]
    assert [(i["title"], i["date"]) for i in listed(client, ollama, who)] == [
        ("면접", "2026-12-04")
    ]


def test_the_step_limit_ends_the_turn_with_a_clear_answer(client, ollama):
    who = user()
    ollama.respond_with(lambda call: [{"name": "get_schedule", "args": {}}])
    out = say(client, who, UNCLEAR)
    assert len(ollama.calls) == MAX_STEPS + 1
    assert out["tool_calls"] == [{"name": "get_schedule", "args": {}}] * MAX_STEPS
    assert f"{MAX_STEPS}단계" in out["answer"]
    ollama.respond_with(None)
    # the room stays usable: the next turn sends a well-formed conversation back
    ollama.script("네, 다른 질문 있으신가요?")
    again = say(client, who, UNCLEAR)
    assert again["answer"] == "네, 다른 질문 있으신가요?"
    sent = ollama.calls[-1].body["messages"]
    asked = sum(len(m.get("tool_calls") or []) for m in sent if m["role"] == "assistant")
    assert asked == MAX_STEPS + 1 == sum(m["role"] == "tool" for m in sent)


def test_older_turns_fold_into_a_model_written_summary(client, ollama):
    who = user()
    summary = "사용자는 12월에 스터디 일정을 여러 개 잡았다."
    ollama.respond_with(lambda call: summary if "누적 요약" in call.prompt else None)
    for day in range(1, 7):  # deterministic turns: the model is asked only to summarise
        add(client, who, f"12월 {day}일 오전 10시 스터디{day} 일정 추가해줘")
    message = "12월 7일 오전 10시 스터디7 일정 추가해줘"
    body = {"user_id": who, "room_id": "setup", "message": message, "now": NOW}
    r = client.post("/ai/chat/stream_events", json={"input": body, "version": "v2"})
    payloads, token_at, final_at = stream_parts(r.text)
    assert payloads[final_at]["data"]["output"]["tool_calls"][0]["name"] == "add_schedule"
    assert token_at == []  # the summary call is internal: none of its tokens reach the user
    folds = ollama.calls
    assert len(folds) == 2 and all("누적 요약" in c.prompt for c in folds)
    assert "스터디1" in folds[0].prompt and "스터디2" in folds[1].prompt
    assert summary in folds[1].prompt  # the running summary is rewritten, not appended
    assert folds[0].max_tokens == 256
    ollama.respond_with(None)
    ollama.script("네, 기억하고 있어요.")
    say(client, who, UNCLEAR, room="setup")
    turn = [c for c in ollama.calls if "누적 요약" not in c.prompt]
    assert len(turn) == 1 and len(ollama.calls) == 4  # this turn, then its own fold
    sent = turn[0].body["messages"]
    assert summary in sent[1]["content"] and "<data id=" in sent[1]["content"]
    humans = [m["content"] for m in sent if m["role"] == "user"][1:]  # after the summary
    assert len(humans) == 5 + 1 and humans[-1] == UNCLEAR  # the window and this turn


def test_a_model_cannot_reach_another_users_schedule(client, ollama):
    me, other = user(), user()
    add(client, me, "12월 2일 저녁 7시 내 스터디 일정 추가해줘")
    add(client, other, "12월 3일 오전 10시 남의 면접 일정 추가해줘")
    ollama.reset()
    [theirs] = listed(client, ollama, other)
    ollama.reset()
    ollama.script(
        [
            {"name": "get_schedule", "args": {"user_id": other}},
            {
                "name": "delete_schedule",
                "args": {"schedule_id": theirs["schedule_id"], "user_id": other},
            },
        ],
        "확인했어요.",
    )
    out = say(client, me, UNCLEAR)
    mine, refused = tool_results(ollama.calls[1])
    assert [i["title"] for i in json.loads(mine["content"])["schedules"]] == ["내 스터디"]
    assert "SCHEDULE_NOT_FOUND" in refused["content"]
    assert out["tool_calls"] == [{"name": "get_schedule", "args": {}}]
    assert [i["title"] for i in listed(client, ollama, other)] == ["남의 면접"]


# --- the same agent on Gemini -----------------------------------------------------------


@pytest.fixture(scope="module")
def gemini() -> Iterator[GeminiStandIn]:
    with GeminiStandIn() as standin:
        yield standin


@pytest.fixture(scope="module")
def gemini_server(redis_url: str, gemini: GeminiStandIn, tmp_path_factory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("chat-tools-gemini")
    with serve_app(
        redis_url,
        folder / "server.log",
        CHAT_MODEL="google_genai:gemini-2.0-flash",
        MODEL_FALLBACKS="",
        GOOGLE_API_KEY="test-key",
        GOOGLE_API_BASE_URL=gemini.url,
        CHROMA_PATH=str(folder / "chroma"),
    ) as base:
        yield base


def function_responses(call: Call) -> list[dict[str, Any]]:
    """The functionResponse parts of the last content Gemini was sent."""
    parts = call.body["contents"][-1].get("parts") or []
    return [p["functionResponse"] for p in parts if "functionResponse" in p]


def test_a_compound_request_on_gemini(gemini_server, gemini):
    gemini.reset()
    who = user()
    with httpx.Client(base_url=gemini_server, timeout=120) as c:
        add(c, who, "12월 1일 저녁 7시 코딩 스터디 일정 추가해줘")
        add(c, who, "다음주 금요일 오후 2시 네이버 1차 면접 일정 추가해줘")
        assert gemini.calls == []  # the deterministic path called no model

        def move_friday(call: Call) -> Any:
            [result] = function_responses(call)
            if result["name"] == "update_schedule":
                return "금요일 면접을 15:00로 옮겼어요."
            friday = next(i for i in result["response"]["schedules"] if i["date"] == "2026-12-04")
            args = {"schedule_id": friday["schedule_id"], "time": "15:00"}
            return [{"name": "update_schedule", "args": args}]

        args = {"start_date": "2026-11-30", "end_date": "2026-12-06"}
        gemini.script([{"name": "get_schedule", "args": args}])
        gemini.respond_with(move_friday)
        out = say(c, who, "다음주 일정 보여주고 금요일 면접은 3시로 옮겨줘")
        gemini.respond_with(None)
    assert [t["name"] for t in out["tool_calls"]] == ["get_schedule", "update_schedule"]
    assert out["route"] == "schedule" and out["answer"] == "금요일 면접을 15:00로 옮겼어요."
    first = gemini.calls[0]
    assert {"get_schedule", "update_schedule", "get_recruitment_schedule"} <= set(first.tools)
    assert "user" not in json.dumps(first.body["tools"])  # no field for a user on the wire
    assert "2026-11-29 (일)" in first.prompt
    assert len(gemini.calls) == 3
