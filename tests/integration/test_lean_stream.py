"""The lean event stream across real processes on a real Redis: a client drops its
connection to one server after the `match` event, the run goes on without it, and the client
continues on the other server with `Last-Event-ID`, receiving exactly the events it had not
seen, through `result` and `end`."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator

import httpx
import pytest

from nodes.analysis.schemas import AnalysisResult
from tests.conftest import POSTING, RESUME
from tests.integration.conftest import serve_apps

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def two_servers(redis_url, tmp_path_factory) -> Iterator[tuple[str, str]]:
    logs = tmp_path_factory.mktemp("lean")
    with serve_apps(redis_url, logs, 2, WARM_UP_ON_START="false") as (a, b):
        yield a, b


def events_of(lines: Iterator[str]) -> Iterator[tuple[str, str, object]]:
    """(id, event, data) of each SSE message as it arrives."""
    fields: dict[str, str] = {}
    for line in lines:
        if not line:
            if "event" in fields:
                yield fields.get("id", ""), fields["event"], json.loads(fields["data"])
            fields = {}
        elif ": " in line and not line.startswith(":"):
            name, value = line.split(": ", 1)
            fields[name] = value


def test_a_dropped_client_continues_on_the_other_server(two_servers):
    a, b = two_servers
    analysis = {
        "user_id": "lean-user",
        # A resume of its own on every run: no cached analysis answers it.
        "resume_text": f"{RESUME}\n(린 스트림 재개 시험 {uuid.uuid4().hex[:8]})",
        "posting_text": POSTING,
    }
    seen = []
    with (
        httpx.Client(timeout=120) as client,
        client.stream("POST", f"{a}/ai/analyze/events", json={"input": analysis}) as r,
    ):
        assert r.status_code == 200
        run_id = r.headers["x-run-id"]
        for event in events_of(r.iter_lines()):
            seen.append(event)
            if event[1] == "match":
                break  # the client drops here, before any token
    assert [kind for _, kind, _ in seen] == ["run", "match"], seen

    headers = {"Last-Event-ID": seen[-1][0]}
    with httpx.Client(timeout=300) as client:
        with client.stream(
            "GET", f"{b}/ai/runs/{run_id}/events", headers=headers, params={"user_id": "lean-user"}
        ) as rest_response:
            assert rest_response.status_code == 200
            rest = list(events_of(rest_response.iter_lines()))
        whole = list(events_of(client.get(f"{b}/ai/runs/{run_id}/events").iter_lines()))

    kinds = [kind for _, kind, _ in rest]
    assert kinds[-2:] == ["result", "end"], kinds
    assert "run" not in kinds and "match" not in kinds  # nothing seen twice
    assert seen + rest == whole  # nothing lost
    result = AnalysisResult.model_validate(rest[-2][2])
    assert result.matching.score == seen[1][2]["score"]
    assert result.matching.requirements  # the posting's requirements, each with a status
