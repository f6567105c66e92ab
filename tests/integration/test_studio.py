"""LangGraph Studio's server (`langgraph dev`) loads every graph offline and runs one."""

import os
import sys
from pathlib import Path

import httpx
import pytest

from tests.integration.conftest import ROOT, free_port, running_process

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def studio(tmp_path_factory) -> str:
    port = free_port()
    env = {**os.environ, "LANGGRAPH_CLI_NO_ANALYTICS": "1", "LANGSMITH_TRACING": "false"}
    env.pop("REDIS_URL", None)  # Studio runs the graphs on in-process services
    cli = str(Path(sys.executable).with_name("langgraph"))
    cmd = [
        cli,
        "dev",
        "--no-browser",
        "--no-reload",
        "--port",
        str(port),
        "--config",
        "langgraph.json",
    ]
    log = tmp_path_factory.mktemp("studio") / "studio.log"
    with running_process(cmd, env, log, "/ok", port, 120) as base:
        yield base


def test_every_graph_in_langgraph_json_is_an_assistant(studio):
    import json

    declared = set(json.loads((ROOT / "langgraph.json").read_text())["graphs"])
    found = httpx.post(f"{studio}/assistants/search", json={"limit": 100}).json()
    assert {a["graph_id"] for a in found} == declared


def test_an_analysis_run_completes_through_the_studio_api(studio):
    assistant = next(
        a
        for a in httpx.post(f"{studio}/assistants/search", json={}).json()
        if a["graph_id"] == "analysis"
    )
    run = httpx.post(
        f"{studio}/runs/wait",
        json={
            "assistant_id": assistant["assistant_id"],
            "input": {
                "user_id": "studio",
                "resume_text": "Python, Django, PostgreSQL 개발 2년",
                "posting_text": "[당근] 서버 개발자 채용\n자격요건: Python, Django\n우대사항: AWS",
            },
        },
        timeout=600,
    )
    assert run.status_code == 200, run.text
    out = run.json()
    # required Python, Django both met (1.0), preferred AWS missing (0) -> 75, B
    assert (out["matching"]["score"], out["matching"]["grade"]) == (75, "B")
    assert out["posting_analysis"]["company"] == "당근"


def test_a_chat_turn_shows_its_messages_and_tool_calls(studio):
    """Studio's chat view reads the `messages` channel: a schedule request shows the human
    message, the tool call, the tool's result and the answer."""
    assistants = httpx.post(f"{studio}/assistants/search", json={}).json()
    assistant = next(a for a in assistants if a["graph_id"] == "chat")
    thread = httpx.post(f"{studio}/threads", json={}).json()["thread_id"]
    body = {
        "user_id": "studio",
        "room_id": "r1",
        "now": "2026-11-29T10:00:00+09:00",
        "message": "다음주 금요일 오후 3시에 네이버 1차 면접 추가해줘",
    }
    run = httpx.post(
        f"{studio}/threads/{thread}/runs/wait",
        json={"assistant_id": assistant["assistant_id"], "input": body},
        timeout=600,
    )
    assert run.status_code == 200 and run.json()["tool_calls"][0]["name"] == "add_schedule"
    messages = httpx.get(f"{studio}/threads/{thread}/state").json()["values"]["messages"]
    assert [m["type"] for m in messages] == ["human", "ai", "tool", "ai"]
    assert [c["name"] for c in messages[1]["tool_calls"]] == ["add_schedule"]
