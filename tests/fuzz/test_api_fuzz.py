"""The API fuzzed from its own OpenAPI schema (schemathesis): every operation, generated
valid and invalid bodies, parameters and paths, sent over real HTTP to the app served by
uvicorn in a thread (fake model, in-process services). No answer is a 5xx; every 4xx
carries the contract's error object; every answer conforms to what the document declares
for its operation and status. Bounded in examples per operation so CI stays fast;
derandomized so a failure reproduces."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator

import pytest
import schemathesis
import uvicorn
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from core.models import ModelRegistry
from core.services import in_process_services, set_services
from core.settings import Settings
from tests.conftest import GOOD_FEEDBACK
from tests.fakes import ScriptedChatModel

# Any JSON a structured call asks for (route, section summary, posting header); free text
# otherwise. Fields a schema does not have are ignored by it.
STRUCTURED = json.dumps(
    {"route": "general", "summary": "요약", "skills": ["Java"], "company": None, "position": None}
)


def coherent_reply(messages) -> str:
    return STRUCTURED if "JSON" in messages[0].text else GOOD_FEEDBACK


def build_app():
    from server import create_app

    return create_app()


APP = build_app()
schema = schemathesis.openapi.from_dict(APP.openapi())


@pytest.fixture(scope="module")
def base_url(tmp_path_factory) -> Iterator[str]:
    """The app on a loopback port, one set of services for every operation (the embedding
    model, a C engine, is loaded once). Over HTTP rather than schemathesis's ASGI client,
    which built a client per call and grew the process by ~30 MB each time."""
    conf = Settings(
        redis_url=None,
        chroma_path=str(tmp_path_factory.mktemp("fuzz") / "chroma"),
        rate_limit_per_minute=0,
        token_quota_per_day=0,
        warm_up_on_start=False,
    )
    fake = ScriptedChatModel(respond=coherent_reply)
    set_services(in_process_services(conf, models=ModelRegistry(conf, {"*": fake})))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(APP, host="127.0.0.1", port=port, lifespan="off", log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline, "the fuzzed server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=30)
    set_services(None)


@schema.parametrize()
@settings(
    max_examples=10,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_no_operation_answers_5xx_and_every_4xx_is_a_contract_error(case, base_url):
    response = case.call(base_url=base_url, timeout=60)
    assert response.status_code < 500, (case.as_curl_command(), response.text[:300])
    if response.status_code >= 400:
        error = response.json().get("error")
        assert isinstance(error, dict), response.text[:300]
        assert isinstance(error.get("code"), str) and isinstance(error.get("message"), str)
    # The answer is the one the document declares for this operation and status.
    checks = [status_code_conformance, content_type_conformance, response_schema_conformance]
    case.validate_response(response, checks=checks)
