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
