"""The model chain: how provider failures are classified, retried, handed to the next model
(counted and logged) and finally reported as coded errors. Scripted fake models raising
the providers' own exception classes; tests/integration/test_providers.py does the same
over real HTTP with the real clients."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable

import httpx
import pytest
from google.genai import errors as genai_errors
from langchain_core.messages import BaseMessage, HumanMessage
from ollama import ResponseError
from prometheus_client import REGISTRY
from pydantic import BaseModel

from core.errors import ModelOutputError, ModelTimeoutError, ModelUnavailableError
from core.models import Link, ModelChain, ModelRegistry, failure_reason
from core.settings import Settings
from tests.fakes import ScriptedChatModel

PROMPT = "비밀 이력서 내용 김지원 010-1234-5678"


class Route(BaseModel):
    route: str


def fallbacks(source: str, target: str, reason: str) -> float:
    value = REGISTRY.get_sample_value(
        "devths_model_fallbacks_total", {"from": source, "to": target, "reason": reason}
    )
    return value or 0.0


def raising(*outcomes: BaseException | str) -> Callable[[list[BaseMessage]], str]:
    """A reply function: each call takes the next outcome (raise it, or answer it); the
    last one repeats."""
    queue = list(outcomes)

    def respond(_messages: list[BaseMessage]) -> str:
        outcome = queue.pop(0) if len(queue) > 1 else queue[0]
        if isinstance(outcome, BaseException):
            raise outcome
        return outcome

    return respond


def chain(*models: tuple[str, ScriptedChatModel], **options) -> ModelChain:
    options.setdefault("max_retries", 2)
    options.setdefault("backoff_s", 0)
    return ModelChain("chat", [Link(spec, m) for spec, m in models], **options)


def google_error(code: int) -> genai_errors.APIError:
    body = {"error": {"code": code, "message": "quota", "status": "RESOURCE_EXHAUSTED"}}
    cls = genai_errors.ServerError if code >= 500 else genai_errors.ClientError
    return cls(code, body)


@pytest.mark.parametrize(
    ("exc", "reason"),
    [
        (ResponseError('{"error": "too many requests"}', 429), "rate_limited"),
        (ResponseError("internal", 500), "server_error"),
        (ResponseError("model crashed"), "server_error"),  # an {"error"} line mid-stream
        (ResponseError("exaone does not support tools", 400), "tool_refused"),
        (ResponseError("model 'x' not found", 404), "rejected"),
        (google_error(429), "rate_limited"),
        (google_error(503), "server_error"),
        (google_error(400), "rejected"),
        (genai_errors.UnknownApiResponseError("Failed to parse"), "malformed_output"),
        (json.JSONDecodeError("Expecting value", "{", 1), "malformed_output"),
        (httpx.ReadTimeout("read timed out"), "timeout"),
        (TimeoutError(), "timeout"),
        (httpx.ConnectError("refused"), "unavailable"),
        (ConnectionError("Failed to connect to Ollama"), "unavailable"),
        (RuntimeError("a bug"), "error"),
    ],
)
def test_provider_failures_are_classified(exc, reason):
    assert failure_reason(exc) == reason


async def test_a_rate_limited_model_is_retried_then_falls_back_counted_and_logged(caplog):
    primary = ScriptedChatModel(respond=raising(ResponseError("slow down", 429)))
    backup = ScriptedChatModel(respond=raising("대체 모델의 답"))
    before = fallbacks("ollama:a", "local", "rate_limited")
    with caplog.at_level(logging.INFO, logger="core.models"):
        out = await chain(("ollama:a", primary), ("local", backup)).ainvoke([HumanMessage(PROMPT)])
    assert out.text == "대체 모델의 답"
    assert len(primary.calls) == 3  # the first attempt and MODEL_MAX_RETRIES=2 retries
    assert len(backup.calls) == 1
    assert fallbacks("ollama:a", "local", "rate_limited") == before + 1
    events = [r.msg for r in caplog.records if isinstance(r.msg, dict)]
    assert [e["event"] for e in events] == ["model_retry", "model_retry", "model_fallback"]
    fallback = events[-1]
    assert (fallback["from"], fallback["to"], fallback["reason"]) == (
        "ollama:a",
        "local",
        "rate_limited",
    )
    assert fallback["status"] == 429 and fallback["feature"] == "chat"
    assert "김지원" not in caplog.text and "010-1234" not in caplog.text


async def test_a_timeout_falls_back_at_once():
    primary = ScriptedChatModel(respond=raising(httpx.ReadTimeout("timed out")))
    backup = ScriptedChatModel(respond=raising("답"))
    before = fallbacks("google_genai:g", "ollama:b", "timeout")
    out = await chain(("google_genai:g", primary), ("ollama:b", backup)).ainvoke("q")
    assert out.text == "답" and len(primary.calls) == 1
    assert fallbacks("google_genai:g", "ollama:b", "timeout") == before + 1


async def test_a_recovering_model_needs_no_fallback():
    primary = ScriptedChatModel(respond=raising(google_error(503), "복구된 답"))
    backup = ScriptedChatModel(respond=raising("대체"))
    before = fallbacks("google_genai:r", "local", "server_error")
    out = await chain(("google_genai:r", primary), ("local", backup)).ainvoke("q")
    assert out.text == "복구된 답" and len(primary.calls) == 2 and backup.calls == []
    assert fallbacks("google_genai:r", "local", "server_error") == before


async def test_an_answer_off_the_schema_is_retried_once_then_falls_back():
    primary = ScriptedChatModel(respond=raising('{"path": "rag"}'))
    backup = ScriptedChatModel(respond=raising('{"route": "rag"}'))
    before = fallbacks("ollama:s", "local", "malformed_output")
    out = await chain(("ollama:s", primary), ("local", backup), schema=Route).ainvoke("q")
    assert json.loads(out.text) == {"route": "rag"}
    assert len(primary.calls) == 2  # retried once, not MODEL_MAX_RETRIES times
    assert fallbacks("ollama:s", "local", "malformed_output") == before + 1


async def test_a_malformed_tool_call_turn_goes_to_the_next_model():
    class Refusing(ScriptedChatModel):
        def _generate(self, messages, stop=None, run_manager=None, **kwargs):
            result = super()._generate(messages, stop, run_manager, **kwargs)
            result.generations[0].message.response_metadata["finish_reason"] = (
                "MALFORMED_FUNCTION_CALL"
            )
            return result

    primary = Refusing(respond=raising(""))
    backup = ScriptedChatModel(respond=raising("도구 없이 답"))
    before = fallbacks("google_genai:t", "ollama:t", "tool_refused")
    out = await chain(("google_genai:t", primary), ("ollama:t", backup), tools=True).ainvoke("q")
    assert out.text == "도구 없이 답" and len(primary.calls) == 1
    assert fallbacks("google_genai:t", "ollama:t", "tool_refused") == before + 1


@pytest.mark.parametrize(
    ("exc", "error", "status"),
    [
        (ResponseError("slow down", 429), ModelUnavailableError, 503),
        (google_error(500), ModelUnavailableError, 503),
        (httpx.ConnectError("refused"), ModelUnavailableError, 503),
        (httpx.ReadTimeout("timed out"), ModelTimeoutError, 504),
        (genai_errors.UnknownApiResponseError("Failed to parse"), ModelOutputError, 502),
    ],
)
async def test_the_last_model_failing_is_a_coded_error(exc, error, status, caplog):
    only = ScriptedChatModel(respond=raising(exc))
    with caplog.at_level(logging.WARNING, logger="core.models"), pytest.raises(error) as raised:
        await chain(("ollama:only", only)).ainvoke([HumanMessage(PROMPT)])
    assert raised.value.status_code == status
    assert "김지원" not in raised.value.message
    failed = [r.msg for r in caplog.records if isinstance(r.msg, dict)]
    assert failed[-1]["event"] == "model_chain_failed"
    assert failed[-1]["reason"] == failure_reason(exc)


async def test_retry_after_is_offered_for_rate_limits_and_server_errors():
    only = ScriptedChatModel(respond=raising(ResponseError("slow down", 429)))
    with pytest.raises(ModelUnavailableError) as raised:
        await chain(("ollama:only", only), max_retries=0).ainvoke("q")
    assert raised.value.headers == {"Retry-After": "30"} and len(only.calls) == 1


async def test_an_unexpected_error_is_not_retried_and_stays_internal():
    only = ScriptedChatModel(respond=raising(RuntimeError("model exploded")))
    with pytest.raises(RuntimeError, match="exploded"):
        await chain(("x", only)).ainvoke("q")
    assert len(only.calls) == 1


def test_the_sync_path_retries_and_falls_back_the_same_way():
    primary = ScriptedChatModel(respond=raising(ResponseError("busy", 503)))
    backup = ScriptedChatModel(respond=raising("동기 답"))
    before = fallbacks("ollama:sync", "local", "server_error")
    out = chain(("ollama:sync", primary), ("local", backup), max_retries=1).invoke("q")
    assert out.text == "동기 답" and len(primary.calls) == 2
    assert fallbacks("ollama:sync", "local", "server_error") == before + 1


def test_caps_live_on_the_provider_models_fields_not_in_call_keywords():
    settings = Settings(
        chat_model="ollama:exaone3.5:7.8b",
        analysis_model="google_genai:gemini-2.0-flash",
        google_api_key="test-key",
        model_fallbacks="",
    )
    registry = ModelRegistry(settings)
    ollama = registry.runnable("chat", max_tokens=77).links[0].runnable
    assert ollama.bound.num_predict == 77 and "num_predict" not in ollama.kwargs
    gemini = registry.runnable("analysis", max_tokens=88).links[0].runnable
    assert gemini.bound.max_output_tokens == 88 and "max_output_tokens" not in gemini.kwargs
    # the shared models are untouched: the cap is per call site
    assert registry.chain("chat")[0][1].num_predict is None


def test_a_tool_chain_leaves_out_models_that_cannot_call_tools():
    settings = Settings(
        chat_model="ollama:exaone3.5:7.8b",
        model_fallbacks="local",
        local_model_path="/nonexistent.gguf",  # never loaded: building is lazy
    )

    def get_schedule(start_date: str) -> str:
        """The user's schedule from start_date."""
        return start_date

    registry = ModelRegistry(settings)
    tool_chain = registry.runnable("chat", tools=[get_schedule])
    assert tool_chain.specs == ["ollama:exaone3.5:7.8b"]
    assert tool_chain.links[0].runnable.kwargs["tools"][0]["function"]["name"] == "get_schedule"
    assert registry.runnable("chat").specs == ["ollama:exaone3.5:7.8b", "local"]
