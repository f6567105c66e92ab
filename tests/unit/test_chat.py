"""Chat graph over HTTP: scripted fake model, in-process saver/cache/schedules, real
embedded embeddings and a temporary Chroma directory."""

from __future__ import annotations

import json
from datetime import date

import pytest

from core.errors import NotFoundError
from core.services import get_services
from nodes.chat.router import keyword_route
from tests.conftest import POSTING, RESUME, saved_state
from tests.unit.test_server import sse_events
from text.dates import find_when, week_range
from tools.schedule import ScheduleStore

NOW = "2026-11-29T10:00:00+09:00"  # a Sunday


def echo(messages) -> str:
    """Answers with the question (never with the prompt's closing fence: that would be a
    prompt echo, which the chat replaces as junk)."""
    if "JSON 하나로만" in messages[0].text:
        return '{"route": "general"}'
    question = messages[-1].text.split("## 질문")[-1].split("</data")[0]
    return "답변: " + question.strip()[:40]


async def chat(client, message, user="u1", room="r1"):
    r = await client.post(
        "/ai/chat/invoke",
        json={"input": {"user_id": user, "room_id": room, "message": message, "now": NOW}},
    )
    assert r.status_code == 200, r.text
    return r.json()["output"]


async def embed(client, user, doc_id, doc_type, text):
    body = {"user_id": user, "doc_id": doc_id, "doc_type": doc_type, "text": text}
    r = await client.post("/ai/file/embed/invoke", json={"input": body})
    assert r.status_code == 200, r.text


@pytest.fixture(autouse=True)
def fresh_schedules():
    from tools import schedule

    schedule._MEMORY.clear()
    schedule._MEMORY_VERSIONS.clear()


def _dt(when):
    return when.date, when.time


def test_relative_dates_resolve_against_now():
    now = date(2026, 11, 29)
    assert _dt(find_when("내일 오후 3시", now)) == (date(2026, 11, 30), "15:00")
    assert _dt(find_when("다음주 금요일 오후 3시", now)) == (date(2026, 12, 4), "15:00")
    assert _dt(find_when("이번 달 말까지", now)) == (date(2026, 11, 30), None)
    assert _dt(find_when("모레 10시 반", now)) == (date(2026, 12, 1), "10:30")
    assert _dt(find_when("네이버 1차 면접", now)) == (None, None)
    assert week_range("다음 주 일정", now) == (date(2026, 11, 30), date(2026, 12, 6))


@pytest.mark.parametrize(
    ("message", "route"),
    [
        ("다음주 금요일 오후 3시에 네이버 1차 면접 추가해줘", "schedule"),
        ("이번 주 내 일정 보여줘", "schedule"),
        ("카카오 코딩테스트 언제야?", "calendar"),
        ("내 이력서에서 강조할 프로젝트가 뭐야?", "rag"),
        ("안녕하세요", "general"),  # greetings are decided by rule (session 7)
        # advice on preparing names a stage but asks how, not when (the examples said
        # "calendar" for this one)
        ("코딩테스트 준비는 어떤 순서로 하면 좋아?", "general"),
        ("코딩테스트 준비 일정 알려줘", None),
        ("카카오 코테 준비 언제까지 해야 해?", "calendar"),
    ],
)
def test_keyword_rules(message, route):
    assert keyword_route(message) == route


async def test_schedule_tools_add_list_move_and_delete(use_fake_model, client):
    fake = use_fake_model(echo)
    added = await chat(client, "다음주 금요일 오후 3시에 네이버 1차 면접 추가해줘")
    assert added["route"] == "schedule"
    assert added["tool_calls"] == [
        {
            "name": "add_schedule",
            "args": {"title": "네이버 1차 면접", "date": "2026-12-04", "time": "15:00"},
        }
    ]
    listed = await chat(client, "다음 주 일정 알려줘")
    assert listed["tool_calls"][0] == {
        "name": "get_schedule",
        "args": {"start_date": "2026-11-30", "end_date": "2026-12-06"},
    }
    assert "네이버 1차 면접" in listed["answer"]
    moved = await chat(client, "네이버 면접 일정 목요일로 옮겨줘")
    assert moved["tool_calls"][0]["name"] == "update_schedule"
    assert moved["tool_calls"][0]["args"]["date"] == "2026-12-03"
    items = await ScheduleStore(None).get("u1")
    assert [(i["title"], i["date"], i["time"]) for i in items] == [
        ("네이버 1차 면접", "2026-12-03", "15:00")
    ]
    deleted = await chat(client, "네이버 면접 취소해줘")
    assert deleted["tool_calls"] == [
        {"name": "delete_schedule", "args": {"schedule_id": items[0]["schedule_id"]}}
    ]
    assert await ScheduleStore(None).get("u1") == []
    assert fake.calls == []  # every schedule turn was routed and answered without a model


async def test_another_users_schedule_cannot_be_touched(use_fake_model, client):
    use_fake_model(echo)
    await chat(client, "내일 오전 10시 스터디 일정 등록해줘", user="u1")
    item = (await ScheduleStore(None).get("u1"))[0]
    with pytest.raises(NotFoundError):
        await ScheduleStore(None).delete("u2", item["schedule_id"])
    out = await chat(client, "스터디 일정 삭제해줘", user="u2")
    assert out["tool_calls"] == [] and "찾지 못했어요" in out["answer"]
    assert len(await ScheduleStore(None).get("u1")) == 1


async def test_calendar_reads_the_users_posting_and_adds_its_stages(use_fake_model, client):
    fake = use_fake_model(echo)
    await embed(client, "u1", "kakao", "posting", POSTING)
    out = await chat(client, "카카오 서류 마감 언제야?")
    assert out["route"] == "calendar" and "2026-12-15" in out["answer"]
    assert out["sources"][0]["doc_id"] == "kakao"
    added = await chat(client, "카카오 공고 일정을 내 일정에 추가해줘")
    assert added["route"] == "calendar"
    assert {
        "name": "add_schedule",
        "args": {"title": "카카오 접수 기간", "date": "2026-12-15", "time": "18:00"},
    } in added["tool_calls"]
    assert fake.calls == []
    other = await chat(client, "카카오 서류 마감 언제야?", user="u2")  # not u2's posting
    assert "2026-12-15" not in other["answer"] and other["sources"] == []


async def test_rag_answers_from_the_users_documents_with_sources(use_fake_model, client):
    fake = use_fake_model(echo)
    await embed(client, "u1", "cv", "resume", RESUME)
    await embed(client, "u2", "cv", "resume", "[기술 스택]\nGo, gRPC, Kubernetes")
    out = await chat(client, "내 이력서에 적은 기술 스택이 뭐였지?")
    assert out["route"] == "rag" and out["sources"]
    assert all(s["doc_id"] == "cv" and "Kubernetes" not in s["text"] for s in out["sources"])
    prompt = fake.calls[-1][-1].text
    assert "Spring Boot" in prompt and "gRPC" not in prompt  # only u1's chunks
    calls = len(fake.calls)
    again = await chat(client, "내 이력서에 적은 기술 스택이 뭐였지?", room="r2")
    assert again["answer"] == out["answer"] and len(fake.calls) == calls  # answer cache


async def test_unclear_messages_go_to_the_model_router(use_fake_model, client):
    fake = use_fake_model(echo)
    out = await chat(client, "음 그러니까 저번에 말한 거 있잖아")
    routed = [c for c in fake.calls if "JSON 하나로만" in c[0].text]
    assert out["route"] == "general" and len(routed) <= 1


async def test_memory_keeps_five_turns_and_a_bounded_summary_over_100_turns(use_fake_model, client):
    fake = use_fake_model(echo, rate_limit_per_minute=0)  # 100 turns in seconds
    for n in range(12):
        await chat(client, f"면접 준비 질문 {n}번째입니다 어떻게 할까요")
    values = await saved_state("chat:u1:r1")
    assert len(values["history"]) == 5 and len(values["summary_lines"]) == 7
    last_prompt = fake.calls[-1][-1].text
    assert "질문 10번째" in last_prompt and "질문 6번째" in last_prompt
    window = last_prompt.split("## 최근 대화")[1].split("## 참고 문서")[0]
    assert "질문 5번째" not in window  # older turns only as summary lines
    for n in range(12, 100):
        await chat(client, f"면접 준비 질문 {n}번째입니다 어떻게 할까요")
    values = await saved_state("chat:u1:r1")
    assert len(values["history"]) == 5 and len(values["summary_lines"]) == 10


async def test_stream_carries_only_the_answers_tokens(use_fake_model, client):
    use_fake_model(echo)
    r = await client.post(
        "/ai/chat/stream_events",
        json={
            "input": {
                "user_id": "u1",
                "room_id": "r1",
                "message": "음 그러니까 저번에 말한 거",
                "now": NOW,
            },
            "version": "v2",
        },
    )
    events = [json.loads(d) for kind, d in sse_events(r.text) if kind == "data"]
    tokens = [e for e in events if e["event"] == "on_chat_model_stream"]
    assert tokens and {e["metadata"]["langgraph_node"] for e in tokens} == {"write_answer"}
    final = [e for e in events if e["event"] == "on_chain_end" and not e["parent_ids"]][-1]
    assert set(final["data"]["output"]) == {"answer", "route", "tool_calls", "sources"}
    assert (
        "".join(e["data"]["chunk"]["content"] for e in tokens) == final["data"]["output"]["answer"]
    )


@pytest.mark.parametrize(
    ("input_", "field"),
    [
        ({"user_id": "u1", "room_id": "r1", "message": "  "}, "message"),
        ({"user_id": "u1", "room_id": "r:1", "message": "안녕"}, "room_id"),
        ({"user_id": "u1", "room_id": "r1", "message": "가" * 2001}, "message"),
    ],
)
async def test_bad_chat_input_is_422(use_fake_model, client, input_, field):
    fake = use_fake_model(echo)
    r = await client.post("/ai/chat/invoke", json={"input": input_})
    assert r.status_code == 422 and r.json()["error"]["field"] == field
    assert fake.calls == []


async def test_threaded_runs_carry_a_pseudonymous_thread_id_never_the_raw_user(
    use_fake_model, client
):
    from core.security import hash_user_id

    use_fake_model(echo)
    user = "user-5521"
    body = {"user_id": user, "room_id": "r9", "message": "면접 복장은 어떻게 해?", "now": NOW}
    r = await client.post("/ai/chat/stream_events", json={"input": body, "version": "v2"})
    payloads = [json.loads(d) for k, d in sse_events(r.text) if k == "data"]
    metas = [p["metadata"] for p in payloads if "metadata" in p]
    assert metas and all(user not in json.dumps(m) for m in metas)
    assert {m.get("thread_id") for m in metas} == {f"chat:{hash_user_id(user)}:r9"}
    # the checkpoint itself stays under the contract's thread id: the room remembers
    await chat(client, "연봉 협상 팁 알려줘", user=user, room="r9")
    saved = await saved_state(f"chat:{user}:r9")
    assert len(saved["history"]) == 2


async def test_two_messages_at_once_in_one_room_are_both_kept(use_fake_model, client):
    import asyncio
    import time

    def slow(messages):
        time.sleep(0.3)  # in the model's worker thread: the event loop keeps serving
        return echo(messages)

    use_fake_model(slow)
    first, second = await asyncio.gather(
        chat(client, "연봉 협상 팁 알려줘", room="busy"),
        chat(client, "면접 복장은 어떻게 해?", room="busy"),
    )
    assert first["answer"] and second["answer"]
    saved = await saved_state("chat:u1:busy")
    turns = [t["user"] for t in saved["history"]]
    assert sorted(turns) == sorted(["연봉 협상 팁 알려줘", "면접 복장은 어떻게 해?"])


async def test_a_message_that_waits_too_long_for_its_room_is_409(use_fake_model, client):
    import asyncio

    from core.thread_lock import thread_turn

    use_fake_model(echo, turn_wait_s=0.2)
    async with thread_turn("chat:u1:held", 0):  # another run holds the room
        r = await asyncio.wait_for(
            client.post(
                "/ai/chat/invoke",
                json={"input": {"user_id": "u1", "room_id": "held", "message": "안녕"}},
            ),
            timeout=60,
        )
    assert r.status_code == 409 and r.json()["error"]["code"] == "THREAD_BUSY"
    assert r.json()["error"]["field"] == "room_id"


async def test_a_busy_room_inside_a_stream_is_an_error_event(use_fake_model, client):
    from core.thread_lock import thread_turn

    use_fake_model(echo, turn_wait_s=0.2)
    body = {"input": {"user_id": "u1", "room_id": "held2", "message": "안녕"}, "version": "v2"}
    async with thread_turn("chat:u1:held2", 0):
        r = await client.post("/ai/chat/stream_events", json=body)
    events = sse_events(r.text)
    errors = [json.loads(d) for k, d in events if k == "error"] + [
        json.loads(d)["data"] for k, d in events if k == "data" and '"event":"error"' in d
    ]
    assert any(e.get("error", {}).get("code") == "THREAD_BUSY" for e in errors), r.text[-500:]


async def test_warm_up_loads_what_a_first_request_would_wait_for(use_fake_model):
    from graphs.warmup import warm_up
    from nodes.chat import steps
    from text import korean_text

    use_fake_model(echo)
    korean_text._build_kiwi.cache_clear()
    steps._routers.clear()
    get_services()._line_vectors = None
    await warm_up()
    assert korean_text._build_kiwi.cache_info().currsize == 1
    assert id(get_services().embeddings) in steps._routers
    # The analysis's requirement matching ran once: its resume lines and requirements
    # (as queries) are embedded and cached.
    assert len(get_services().line_vectors._vectors) >= 4


async def test_ready_only_once_warm(use_fake_model, client):
    from graphs.warmup import warm_up

    use_fake_model(echo)
    get_services().warm = False  # as the lifespan leaves it while the warm-up runs
    cold = await client.get("/ready")
    assert cold.status_code == 503 and cold.json()["status"] == "warming_up"
    assert (await client.get("/health")).status_code == 200  # alive all the same
    await warm_up()
    warm = await client.get("/ready")
    assert warm.status_code == 200 and warm.json() == {"status": "ready"}


@pytest.mark.parametrize(
    "message",
    ["what are the requirements in the kakao posting?", "any benefits listed at naver?"],
)
def test_a_part_of_a_posting_named_in_english_is_a_document_question(message):
    assert keyword_route(message) == "rag"
