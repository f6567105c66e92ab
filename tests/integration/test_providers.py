"""Production providers over the wire: the real `ChatOllama` and `ChatGoogleGenerativeAI`
clients, built by the registry from configuration strings, talk HTTP to the stand-in
servers of tests/standins. The app runs in process (ASGI) on in-process saver and cache;
every model call is a real HTTP request to a stand-in, which records what was sent.

What these prove: every feature end to end on each provider (streamed tokens, structured
output, token usage in /metrics), the interview on Ollama while chat uses Gemini, the caps
and schemas on the wire, tool calls both ways, and failures (429, 5xx, timeouts, malformed
bodies, refused tool calls) retried, handed to the next model (counted and logged) or
reported as coded errors, also inside a stream.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from langchain_core.messages import HumanMessage
from langchain_ollama import OllamaEmbeddings
from prometheus_client.parser import text_string_to_metric_families

from core.services import Services, get_services, in_process_services, set_services
from core.settings import Settings
from nodes.analysis.schemas import SectionDigest
from nodes.calendar.schemas import PostingHeader
from tests.conftest import GOOD_FEEDBACK, POSTING, RESUME
from tests.standins import Call, Delay, Fail, Malformed, RefuseTools, StandIn
from tests.standins.gemini import GeminiStandIn
from tests.standins.ollama import EMBED_DIMENSIONS, OllamaStandIn
from tests.unit.test_server import sse_events, stream_parts

pytestmark = pytest.mark.integration

OLLAMA = "ollama:exaone3.5:7.8b"
GEMINI = "google_genai:gemini-2.0-flash"
PROVIDERS = [OLLAMA, GEMINI]
DIGEST = {"summary": "주문 API를 3년간 개발했습니다", "skills": ["스프링부트"]}
REPORT_TEXT = (
    "[강점 패턴]\n- 수치로 성과를 설명합니다\n"
    "[약점 패턴]\n- 선택의 이유가 부족합니다\n"
    "[학습 가이드]\n- 트레이드오프를 정리해 보세요\n"
)
STRONG_ANSWER = (
    "주문 API 개발에서 MySQL 인덱스를 추가해 응답 시간을 40% 단축했습니다. 실행 계획을 분석해 "
    "복합 인덱스를 설계했고, 쓰기 성능과의 트레이드오프를 비교했기 때문에 조회 위주 테이블에만 "
    "적용했습니다. 그 결과 피크 시간 타임아웃이 사라졌습니다."
)
CALENDAR_TEXT = "우아한형제들에서 함께할 분\n서류 마감: 3/15 23:59"
CALENDAR_BODY = {"input": {"text": CALENDAR_TEXT, "now": "2026-03-01"}}
HEADER = {"company": "우아한형제들", "position": None}
ANALYSIS_BODY = {
    "input": {"user_id": "u1", "resume_text": RESUME, "posting_text": POSTING},
    "version": "v2",
}


# MODEL_REQUEST_TIMEOUT_S of these tests, and a reply that comes well after it. The budget
# covers the whole call, connect included; at 1 s a fallback's loopback connect timed out
# once in a loaded CI run (the backup then answered 504 instead of its reply), so the
# budget leaves room for a 2-core machine that is busy with other tests.
REQUEST_TIMEOUT_S = 2.5
TOO_SLOW = Delay(3 * REQUEST_TIMEOUT_S)


# --- fixtures ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def ollama() -> Iterator[OllamaStandIn]:
    with OllamaStandIn() as standin:
        yield standin


@pytest.fixture(scope="module")
def gemini() -> Iterator[GeminiStandIn]:
    with GeminiStandIn() as standin:
        yield standin


@pytest.fixture(autouse=True)
def fresh_standins(ollama: OllamaStandIn, gemini: GeminiStandIn) -> None:
    ollama.reset()
    gemini.reset()


@pytest.fixture
def serve(tmp_path, ollama, gemini) -> Iterator[Callable[..., Services]]:
    """Install in-process services whose models are built from configuration strings, the
    providers' base URLs pointing at the stand-ins. No fallbacks unless a test asks."""

    def install(**settings: Any) -> Services:
        values: dict[str, Any] = {
            "redis_url": None,
            "chroma_path": str(tmp_path / "chroma"),
            "ollama_base_url": ollama.url,
            "google_api_key": "test-key",
            "google_api_base_url": gemini.url,
            "model_fallbacks": "",
            "model_retry_backoff_s": 0.01,
            "model_request_timeout_s": REQUEST_TIMEOUT_S,
            "rate_limit_per_minute": 0,
            "token_quota_per_day": 0,
        }
        values.update(settings)
        services = in_process_services(Settings(**values))
        set_services(services)
        return services

    yield install
    set_services(None)


def standin_for(spec: str, ollama: OllamaStandIn, gemini: GeminiStandIn) -> StandIn:
    return ollama if spec.startswith("ollama") else gemini


async def metric(client: httpx.AsyncClient, name: str, **labels: str) -> float:
    """One sample of GET /metrics (0 when the series does not exist yet)."""
    text = (await client.get("/metrics")).text
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name and all(sample.labels.get(k) == v for k, v in labels.items()):
                return sample.value
    return 0.0


async def token_metrics(client: httpx.AsyncClient, feature: str, spec: str) -> tuple[float, float]:
    name = "devths_model_tokens_total"
    return (
        await metric(client, name, feature=feature, model=spec, direction="input"),
        await metric(client, name, feature=feature, model=spec, direction="output"),
    )


def analysis_reply(call: Call) -> Any:
    """Section summaries get their JSON; the feedback call gets the sectioned text."""
    return DIGEST if "섹션:" in call.prompt else GOOD_FEEDBACK


def interview_reply(call: Call) -> Any:
    """A model that writes grounded questions (it repeats the anchor the prompt names)
    and the labelled report."""
    if "종합 피드백" in call.prompt:
        return REPORT_TEXT
    anchor = re.search(r'키워드 "([^"]+)"', call.prompt)
    assert anchor, "an interview prompt without its anchor"
    return f"{anchor.group(1)}에 관해 본인의 판단 근거를 구체적으로 말씀해 주시겠어요?"


def schema_on_the_wire(call: Call, spec: str) -> Any:
    """The JSON schema a request carried, checking the provider's own field for it."""
    if spec.startswith("ollama"):
        return call.body["format"]
    config = call.body["generationConfig"]
    assert config["responseMimeType"] == "application/json"
    return config["responseJsonSchema"]


def cap_on_the_wire(call: Call, spec: str) -> int:
    if spec.startswith("ollama"):
        return call.body["options"]["num_predict"]
    return call.body["generationConfig"]["maxOutputTokens"]


# --- every feature on each provider -------------------------------------------------------


@pytest.mark.parametrize("spec", PROVIDERS)
async def test_analysis_streams_feedback_tokens_and_structured_parts(
    spec, serve, client, ollama, gemini
):
    standin = standin_for(spec, ollama, gemini)
    standin.respond_with(analysis_reply)
    serve(analysis_model=spec, summary_min_chars=0)  # every chosen section is summarised
    tokens_before = await token_metrics(client, "analysis", spec)

    # against a posting that states no requirement, the documents are carried as their
    # sections (summarised); otherwise requirement evidence lines stand for them (#26)
    no_skills = "[자기소개]\n함께 문제를 풀어 온 3년차 개발자입니다.\n[경력]\n주문 서비스 개발\n"
    no_requirements = "[카카오] 채용\n■ 회사 소개\n함께 성장할 동료를 기다립니다.\n"
    given = {"resume_text": no_skills, "posting_text": no_requirements}
    body = {**ANALYSIS_BODY, "input": {**ANALYSIS_BODY["input"], **given}}
    r = await client.post("/ai/analyze/stream_events", json=body)

    payloads, token_at, final_at = stream_parts(r.text)
    streamed = [payloads[i]["data"]["chunk"]["content"] for i in token_at]
    assert "".join(streamed) == GOOD_FEEDBACK
    assert len(streamed) >= 5  # the provider's chunks, not one block
    assert max(token_at) < final_at
    final = payloads[final_at]["data"]["output"]
    assert final["resume_analysis"]["strengths"] == ["Spring Boot 실무 경험이 공고와 맞습니다"]
    assert final["matching"]["grade"] and final["cached"] is False

    summaries = [c for c in standin.calls if "섹션:" in c.prompt]
    feedback = [c for c in standin.calls if "섹션:" not in c.prompt]
    assert summaries and len(feedback) == 1
    for call in summaries:  # structured output reached the wire, with its cap
        assert schema_on_the_wire(call, spec) == SectionDigest.model_json_schema()
        assert cap_on_the_wire(call, spec) == 256  # SECTION_SUMMARY_MAX_TOKENS
    assert cap_on_the_wire(feedback[0], spec) == 1024  # ANALYSIS_MAX_OUTPUT_TOKENS
    if spec == GEMINI:  # internal calls do not stream; the user-visible one does
        assert {c.stream for c in summaries} == {False}
        assert feedback[0].stream and feedback[0].query == "alt=sse"
        assert all(c.headers["x-goog-api-key"] == "test-key" for c in standin.calls)
    tokens_after = await token_metrics(client, "analysis", spec)
    sent_in, sent_out = standin.tokens()
    assert sent_in > 0 and sent_out > 0
    assert (tokens_after[0] - tokens_before[0], tokens_after[1] - tokens_before[1]) == (
        sent_in,
        sent_out,
    )
    assert (ollama if standin is gemini else gemini).requests == []


@pytest.mark.parametrize("spec", PROVIDERS)
async def test_chat_answers_through_the_provider_with_its_cap(spec, serve, client, ollama, gemini):
    standin = standin_for(spec, ollama, gemini)
    answer = "면접에는 단정한 비즈니스 캐주얼이 무난합니다."
    standin.respond_with(lambda call: {"route": "general"} if "JSON" in call.prompt else answer)
    serve(chat_model=spec)
    body = {"user_id": "u1", "room_id": "r1", "message": "면접 복장은 어떻게 해?"}

    r = await client.post("/ai/chat/stream_events", json={"input": body, "version": "v2"})

    events = [json.loads(d) for kind, d in sse_events(r.text) if kind == "data"]
    assert sse_events(r.text)[-1][0] == "end"
    tokens = [e["data"]["chunk"]["content"] for e in events if e["event"] == "on_chat_model_stream"]
    final = [e for e in events if e["event"] == "on_chain_end" and not e["parent_ids"]][-1]
    assert final["data"]["output"]["answer"] == answer == "".join(tokens)
    answering = standin.calls[-1]
    assert "면접 복장" in answering.prompt and answering.stream
    assert cap_on_the_wire(answering, spec) == 512  # CHAT_MAX_OUTPUT_TOKENS


@pytest.mark.parametrize("spec", PROVIDERS)
async def test_calendar_asks_the_provider_for_a_missing_company(
    spec, serve, client, ollama, gemini
):
    standin = standin_for(spec, ollama, gemini)
    standin.script(HEADER)
    serve(chat_model=spec)

    r = await client.post("/ai/calendar/parse/invoke", json=CALENDAR_BODY)

    assert r.status_code == 200, r.text
    out = r.json()["output"]
    assert out["company"] == "우아한형제들" and out["position"] is None
    assert out["schedules"][0]["date"] == "2026-03-15"
    (call,) = standin.calls
    assert schema_on_the_wire(call, spec) == PostingHeader.model_json_schema()
    assert cap_on_the_wire(call, spec) == 96


async def test_interview_runs_on_ollama_while_chat_uses_gemini(serve, client, ollama, gemini):
    ollama.respond_with(interview_reply)
    gemini.respond_with(lambda call: "네, 도와드릴게요.")
    serve(chat_model=GEMINI, interview_model=OLLAMA)
    start = {
        "user_id": "u1",
        "session_id": "s1",
        "interview_type": "technical",
        "resume_text": RESUME + "[프로젝트]\n- 주문 API 개발 (Spring Boot, MySQL)\n",
        "posting_text": POSTING,
    }

    r = await client.post("/ai/interview/question/invoke", json={"input": start})
    assert r.status_code == 200, r.text
    first = r.json()["output"]
    written = [c.reply for c in ollama.calls if "키워드" in c.prompt]
    assert first["question"] in written  # the model's question, not a template
    await get_services().background.drain()
    r = await client.post(
        "/ai/interview/question/invoke",
        json={"input": {"user_id": "u1", "session_id": "s1", "answer": STRONG_ANSWER}},
    )
    assert r.status_code == 200, r.text
    await get_services().background.drain()
    r = await client.post(
        "/ai/interview/report/stream_events",
        json={"input": {"user_id": "u1", "session_id": "s1"}, "version": "v2"},
    )
    payloads, token_at, final_at = stream_parts(r.text)
    assert "".join(payloads[i]["data"]["chunk"]["content"] for i in token_at) == REPORT_TEXT
    report = payloads[final_at]["data"]["output"]["report"]
    assert report["strength_patterns"] == ["수치로 성과를 설명합니다"]

    body = {"user_id": "u1", "room_id": "r1", "message": "면접 복장은 어떻게 해?"}
    r = await client.post("/ai/chat/invoke", json={"input": body})
    assert r.json()["output"]["answer"] == "네, 도와드릴게요."

    # the question prompts ask for 키워드 "X"; the report's evidence may name 키워드 too
    question_caps = {cap_on_the_wire(c, OLLAMA) for c in ollama.calls if '키워드 "' in c.prompt}
    assert question_caps == {128}  # INTERVIEW_QUESTION_MAX_TOKENS
    report_calls = [c for c in ollama.calls if "종합 피드백" in c.prompt]
    assert [cap_on_the_wire(c, OLLAMA) for c in report_calls] == [768]
    assert all("키워드" in c.prompt or "종합 피드백" in c.prompt for c in ollama.calls)
    assert gemini.calls and all("면접 복장" in c.prompt for c in gemini.calls)
    assert all(c.path.startswith("/v1beta/models/gemini-2.0-flash:") for c in gemini.calls)
    assert {c.body["model"] for c in ollama.calls} == {"exaone3.5:7.8b"}


# --- tool calls -----------------------------------------------------------------------------


FRIDAY = "2026-12-11"


def get_schedule(start_date: str, end_date: str | None = None) -> str:
    """The user's schedule between two dates (YYYY-MM-DD)."""
    return f"{start_date}..{end_date}"


@pytest.mark.parametrize("spec", PROVIDERS)
async def test_tool_calls_are_declared_and_parsed_both_ways(spec, serve, ollama, gemini):
    standin = standin_for(spec, ollama, gemini)
    standin.script(
        [
            {"name": "get_schedule", "args": {"start_date": "2026-12-07"}},
            {"name": "get_schedule", "args": {"start_date": FRIDAY, "end_date": FRIDAY}},
        ]
    )
    services = serve(chat_model=spec)
    model = services.models.runnable("chat", tools=[get_schedule], max_tokens=300)

    message = await model.ainvoke([HumanMessage("다음주 일정 보여주고 금요일 것도 알려줘")])

    assert [(c["name"], c["args"]) for c in message.tool_calls] == [
        ("get_schedule", {"start_date": "2026-12-07"}),
        ("get_schedule", {"start_date": FRIDAY, "end_date": FRIDAY}),
    ]
    (call,) = standin.calls
    assert call.tools == ["get_schedule"] and cap_on_the_wire(call, spec) == 300


@pytest.mark.parametrize(("spec", "backup"), [(OLLAMA, GEMINI), (GEMINI, OLLAMA)])
async def test_a_refused_tool_call_falls_back_to_the_next_model(
    spec, backup, serve, client, ollama, gemini
):
    standin, other = standin_for(spec, ollama, gemini), standin_for(backup, ollama, gemini)
    standin.script(RefuseTools())
    other.script([{"name": "get_schedule", "args": {"start_date": "2026-12-07"}}])
    services = serve(chat_model=spec, model_fallbacks=backup)
    labels = {"from": spec, "to": backup, "reason": "tool_refused"}
    before = await metric(client, "devths_model_fallbacks_total", **labels)

    message = await services.models.runnable("chat", tools=[get_schedule]).ainvoke("일정 보여줘")

    assert [c["name"] for c in message.tool_calls] == ["get_schedule"]
    assert len(standin.calls) == 1 and len(other.calls) == 1  # a refusal is not retried
    assert await metric(client, "devths_model_fallbacks_total", **labels) == before + 1


# --- failures -------------------------------------------------------------------------------

FAILURES = [
    # (reply, reason, attempts on the failing model with MODEL_MAX_RETRIES=2)
    (Fail(429, "Resource has been exhausted (e.g. check quota)."), "rate_limited", 3),
    (Fail(500, "An internal error has occurred."), "server_error", 3),
    (TOO_SLOW, "timeout", 1),
    (Malformed(), "malformed_output", 2),
]


@pytest.mark.parametrize(("spec", "backup"), [(OLLAMA, GEMINI), (GEMINI, OLLAMA)])
@pytest.mark.parametrize(("failure", "reason", "attempts"), FAILURES)
async def test_failures_are_retried_then_fall_back_counted_and_logged(
    spec, backup, failure, reason, attempts, serve, client, ollama, gemini, caplog
):
    failing, other = standin_for(spec, ollama, gemini), standin_for(backup, ollama, gemini)
    failing.script(*[failure] * 3)
    other.script(HEADER)
    serve(chat_model=spec, model_fallbacks=backup)
    labels = {"from": spec, "to": backup, "reason": reason}
    before = await metric(client, "devths_model_fallbacks_total", **labels)

    with caplog.at_level(logging.INFO, logger="core.models"):
        r = await client.post("/ai/calendar/parse/invoke", json=CALENDAR_BODY)

    assert r.status_code == 200, r.text
    assert r.json()["output"]["company"] == "우아한형제들"  # the backup's answer
    assert len(failing.calls) == attempts and len(other.calls) == 1
    assert await metric(client, "devths_model_fallbacks_total", **labels) == before + 1
    logged = [r.msg for r in caplog.records if r.name == "core.models"]
    assert [e["event"] for e in logged] == ["model_retry"] * (attempts - 1) + ["model_fallback"]
    assert (logged[-1]["from"], logged[-1]["to"], logged[-1]["reason"]) == (spec, backup, reason)
    assert "우아한형제들" not in caplog.text  # no prompt text in the logs


CODED = [
    (Fail(429), 503, "MODEL_UNAVAILABLE"),
    (Fail(503), 503, "MODEL_UNAVAILABLE"),
    (TOO_SLOW, 504, "MODEL_TIMEOUT"),
    (Malformed(), 502, "MODEL_OUTPUT_INVALID"),
]


@pytest.mark.parametrize("spec", PROVIDERS)
@pytest.mark.parametrize(("failure", "status", "code"), CODED)
async def test_without_a_fallback_a_failure_is_a_coded_error(
    spec, failure, status, code, serve, client, ollama, gemini
):
    standin = standin_for(spec, ollama, gemini)
    standin.script(*[failure] * 3)
    serve(chat_model=spec, model_max_retries=1)

    r = await client.post("/ai/calendar/parse/invoke", json=CALENDAR_BODY)

    assert r.status_code == status, r.text
    assert r.json()["error"]["code"] == code
    assert "우아한형제들" not in r.text
    if code == "MODEL_UNAVAILABLE":
        assert r.headers["retry-after"] == "30"
        assert len(standin.calls) == 2  # MODEL_MAX_RETRIES=1


@pytest.mark.parametrize("spec", PROVIDERS)
@pytest.mark.parametrize(
    ("failure", "code"), [(Fail(503), "MODEL_UNAVAILABLE"), (TOO_SLOW, "MODEL_TIMEOUT")]
)
async def test_a_failure_inside_a_stream_is_the_contracts_error_event(
    spec, failure, code, serve, client, ollama, gemini
):
    standin = standin_for(spec, ollama, gemini)
    standin.script(*[failure] * 3)  # the feedback call (no long sections: no summaries)
    serve(analysis_model=spec, model_max_retries=1)

    r = await client.post("/ai/analyze/stream_events", json=ANALYSIS_BODY)

    events = sse_events(r.text)
    assert events[-1][0] == "error" and "end" not in [k for k, _ in events]
    assert json.loads(events[-1][1])["error"]["code"] == code
    assert not [e for k, e in events if k == "data" and "on_chat_model_stream" in e]


@pytest.mark.parametrize(("spec", "backup"), [(OLLAMA, GEMINI), (GEMINI, OLLAMA)])
async def test_a_stream_cut_after_its_first_tokens_is_an_error_not_a_second_answer(
    spec, backup, serve, client, ollama, gemini
):
    failing, other = standin_for(spec, ollama, gemini), standin_for(backup, ollama, gemini)
    partial = "[강점]\n- Spring Boot 실무"
    failing.script(Malformed(after=partial))  # the feedback call: tokens, then a broken line
    other.script(GOOD_FEEDBACK)
    serve(analysis_model=spec, model_fallbacks=backup)

    r = await client.post("/ai/analyze/stream_events", json=ANALYSIS_BODY)

    events = sse_events(r.text)
    assert events[-1][0] == "error"
    assert json.loads(events[-1][1])["error"]["code"] == "MODEL_OUTPUT_INVALID"
    payloads = [json.loads(d) for k, d in events if k == "data"]
    streamed = [
        p["data"]["chunk"]["content"] for p in payloads if p["event"] == "on_chat_model_stream"
    ]
    assert "".join(streamed) == partial  # what the client saw is never followed by a restart
    assert len(failing.calls) == 1 and other.calls == []


async def test_without_a_stream_listener_a_cut_answer_still_falls_back(
    serve, client, ollama, gemini
):
    ollama.script(*[Malformed(after="면접에는")] * 2)  # ChatOllama streams even for /invoke
    gemini.respond_with(lambda call: "단정한 복장이 무난합니다.")
    serve(chat_model=OLLAMA, model_fallbacks=GEMINI)
    body = {"user_id": "u1", "room_id": "r1", "message": "면접 복장은 어떻게 해?"}

    r = await client.post("/ai/chat/invoke", json={"input": body})

    assert r.status_code == 200, r.text
    assert r.json()["output"]["answer"] == "단정한 복장이 무난합니다."
    assert len(ollama.calls) == 2 and len(gemini.calls) == 1


# --- embeddings -----------------------------------------------------------------------------


def test_ollama_embed_speaks_the_wire_format_the_client_parses(ollama):
    embeddings = OllamaEmbeddings(model="bge-m3", base_url=ollama.url)
    vectors = embeddings.embed_documents(["백엔드 개발자", "백엔드 개발자", "데이터 엔지니어"])
    assert [len(v) for v in vectors] == [EMBED_DIMENSIONS] * 3
    assert vectors[0] == vectors[1] != vectors[2]
    (call,) = ollama.requests
    assert call.path == "/api/embed" and call.body["input"][2] == "데이터 엔지니어"
