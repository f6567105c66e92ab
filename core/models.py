"""The one model factory: "provider:model" strings -> LangChain chat models.

Providers:
- `google_genai:<model>`  Gemini through `langchain-google-genai`; needs GOOGLE_API_KEY
                          (GOOGLE_API_BASE_URL points it at another endpoint).
- `ollama:<model>`        a local Ollama server at OLLAMA_BASE_URL (e.g. EXAONE).
- `local`                 the embedded llama.cpp model shipped in a PyPI wheel.

Provider SDKs are imported only when a model of theirs is built, so a missing key or
package never breaks import, tests or `langgraph dev`. A feature's chain is its configured
model followed by MODEL_FALLBACKS; providers that cannot be built (no key, no package) are
skipped. At run time a `ModelChain` tries them in order: a 429, a 5xx or a lost connection
is retried MODEL_MAX_RETRIES times (and a malformed answer once), then the next model is
asked. Every fallback is counted (`devths_model_fallbacks_total{from,to,reason}`) and
logged with its reason; when the last model fails too, the caller gets a coded error
(503 MODEL_UNAVAILABLE, 502 MODEL_OUTPUT_INVALID, 504 MODEL_TIMEOUT).
"""

from __future__ import annotations

import asyncio
import copy
import json
import logging
import random
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import httpx
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.exceptions import (
    ModelAPIError,
    ModelConnectionError,
    ModelRateLimitError,
)
from langchain_core.exceptions import ModelTimeoutError as LangChainTimeoutError
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from langchain_core.runnables import Runnable, RunnableConfig
from langchain_core.runnables.config import merge_configs
from pydantic import BaseModel

from core.errors import AIError, ModelOutputError, ModelTimeoutError, ModelUnavailableError
from core.settings import Settings
from core.structured import parse_json_text
from core.telemetry import MODEL_FALLBACKS, ModelUsageCallback

log = logging.getLogger(__name__)


def _build_google(name: str, settings: Settings) -> BaseChatModel:
    if not settings.google_api_key:
        raise ModelUnavailableError("GOOGLE_API_KEY is not set")
    try:
        from langchain_google_genai import ChatGoogleGenerativeAI
    except ImportError as exc:
        raise ModelUnavailableError("langchain-google-genai is not installed") from exc
    endpoint: dict[str, Any] = {}
    if settings.google_api_base_url:
        endpoint["base_url"] = settings.google_api_base_url
    return ChatGoogleGenerativeAI(
        model=name,
        google_api_key=settings.google_api_key,
        temperature=0,
        timeout=settings.model_request_timeout_s,
        # 1 = a single attempt (0 would mean the SDK's default of 5): the ModelChain
        # retries, the same way for every provider, and counts what it does.
        max_retries=1,
        **endpoint,
    )


@lru_cache(maxsize=1)
def _ollama_class() -> Any:  # a subclass of ChatOllama, defined on first use
    from langchain_ollama import ChatOllama

    class QuietChatOllama(ChatOllama):
        """ChatOllama whose internal calls (`disable_streaming=True`) report no tokens.

        langchain-ollama 1.1.0 answers even a non-streamed call by streaming from the
        server and reporting each chunk to the callbacks (`on_llm_new_token`), so the JSON
        of every internal call (section summaries, the chat router) appeared among the
        user's `stream_events` tokens. Found by the stand-in test of the analysis stream."""

        def _generate(
            self,
            messages: list[BaseMessage],
            stop: list[str] | None = None,
            run_manager: Any = None,
            **kwargs: Any,
        ) -> Any:
            quiet = self.disable_streaming is True
            return super()._generate(messages, stop, None if quiet else run_manager, **kwargs)

        async def _agenerate(
            self,
            messages: list[BaseMessage],
            stop: list[str] | None = None,
            run_manager: Any = None,
            **kwargs: Any,
        ) -> Any:
            quiet = self.disable_streaming is True
            return await super()._agenerate(
                messages, stop, None if quiet else run_manager, **kwargs
            )

    return QuietChatOllama


def _build_ollama(name: str, settings: Settings) -> BaseChatModel:
    try:
        chat_ollama = _ollama_class()
    except ImportError as exc:
        raise ModelUnavailableError("langchain-ollama is not installed") from exc
    return chat_ollama(
        model=name,
        base_url=settings.ollama_base_url,
        temperature=0,
        seed=0,
        # The ollama client's httpx timeout is None (wait for ever) unless given.
        client_kwargs={"timeout": settings.model_request_timeout_s},
    )


def _build_local(name: str, settings: Settings) -> BaseChatModel:
    from core.local_llm import LocalLlamaChatModel, embedded_model_path

    path = name or settings.local_model_path or str(embedded_model_path())
    return LocalLlamaChatModel(
        model_path=path,
        n_ctx=settings.local_model_ctx,
        n_threads=settings.local_model_threads,
    )


_BUILDERS: dict[str, Callable[[str, Settings], BaseChatModel]] = {
    "google_genai": _build_google,
    "ollama": _build_ollama,
    "local": _build_local,
}


def build_chat_model(spec: str, settings: Settings) -> BaseChatModel:
    """Build one model from a "provider:model" string; raises ModelUnavailableError."""
    provider, _, name = spec.partition(":")
    builder = _BUILDERS.get(provider.strip())
    if builder is None:
        raise ModelUnavailableError(f"Unknown model provider in {spec!r}")
    return builder(name.strip(), settings)


@lru_cache(maxsize=64)
def _json_schema(schema: type[BaseModel]) -> dict[str, Any]:
    return schema.model_json_schema()  # pydantic rebuilds it on every call


def _kind(model: BaseChatModel) -> str:
    name = type(model).__name__
    if name == "ChatGoogleGenerativeAI":
        return "google_genai"
    if name == "ChatOllama" or getattr(model, "_llm_type", "") == "chat-ollama":
        return "ollama"
    if getattr(model, "_llm_type", "") == "local-llama-cpp":
        return "local"
    return "other"


def json_constraint(model: BaseChatModel, schema: type[BaseModel]) -> dict[str, Any]:
    """Provider-specific call arguments that constrain output to the schema's JSON."""
    json_schema = copy.deepcopy(_json_schema(schema))  # a provider may adjust its copy
    kind = _kind(model)
    if kind == "local":
        return {"response_format": {"type": "json_object", "schema": json_schema}}
    if kind == "ollama":
        return {"format": json_schema}
    if kind == "google_genai":
        return {"response_mime_type": "application/json", "response_json_schema": json_schema}
    return {}


def with_max_tokens(model: BaseChatModel, max_tokens: int) -> tuple[BaseChatModel, dict[str, Any]]:
    """The model and call arguments that cap its answer at `max_tokens`.

    Ollama's cap is the model's `num_predict` field, sent as `options.num_predict`: as a
    call keyword, langchain-ollama 1.1.0 passes it straight to `AsyncClient.chat()`, which
    raises TypeError. Gemini's is the `max_output_tokens` field too (sent as
    `generationConfig.maxOutputTokens`), so both caps live where the clients read them
    (tests/integration/test_providers.py asserts them on the wire). A copy shares the
    original's HTTP client."""
    kind = _kind(model)
    if kind == "ollama":
        return model.model_copy(update={"num_predict": max_tokens}), {}
    if kind == "google_genai":
        return model.model_copy(update={"max_output_tokens": max_tokens}), {}
    if kind == "local":
        return model, {"max_tokens": max_tokens}
    return model, {}


# --- failures --------------------------------------------------------------------------

# Reasons a model call failed, as counted in devths_model_fallbacks_total{reason}.
RATE_LIMITED = "rate_limited"  # HTTP 429
SERVER_ERROR = "server_error"  # HTTP 5xx, or an error inside the provider's stream
UNAVAILABLE = "unavailable"  # the provider could not be reached (refused, reset, DNS)
TIMEOUT = "timeout"  # no answer within MODEL_REQUEST_TIMEOUT_S
MALFORMED_OUTPUT = "malformed_output"  # a body that is not JSON, or JSON off the schema
REJECTED = "rejected"  # another 4xx: bad request, key refused, unknown model
TOOL_REFUSED = "tool_refused"  # the model cannot or did not make a valid tool call
ERROR = "error"  # anything else (a bug): not retried, re-raised as it is at the end

RETRIED = {RATE_LIMITED: None, SERVER_ERROR: None, UNAVAILABLE: None, MALFORMED_OUTPUT: 1}
"""Reasons worth asking the same model again, with the most retries for each (None:
MODEL_MAX_RETRIES). A timeout is not retried: it has already spent its share of the
step's deadline, which the next model needs more."""


class MalformedOutputError(ValueError):
    """A model answered, but not with JSON of the schema it was constrained to."""


class ToolCallRefusedError(RuntimeError):
    """A model bound to tools ended its turn on a malformed or unexpected tool call."""


def _http_status(exc: BaseException) -> int | None:
    """The provider's HTTP status carried by `exc` or what it wraps: ollama's
    ResponseError.status_code, google-genai's APIError.code, httpx's response."""
    seen: BaseException | None = exc
    for _ in range(4):
        if seen is None:
            return None
        for value in (getattr(seen, "status_code", None), getattr(seen, "code", None)):
            if isinstance(value, int) and not isinstance(value, bool):
                return value
        response = getattr(seen, "response", None)
        status = getattr(response, "status_code", None)
        if isinstance(status, int):
            return status
        seen = seen.__cause__
    return None


def _names(exc: BaseException) -> set[str]:
    return {cls.__name__ for cls in type(exc).__mro__}


def failure_reason(exc: BaseException) -> str:
    """Classify a failed model call (no provider SDK import needed)."""
    names = _names(exc)
    if isinstance(exc, MalformedOutputError | ModelOutputError):
        return MALFORMED_OUTPUT
    if isinstance(exc, ToolCallRefusedError):
        return TOOL_REFUSED
    if isinstance(
        exc, TimeoutError | httpx.TimeoutException | LangChainTimeoutError | ModelTimeoutError
    ):
        return TIMEOUT
    if isinstance(exc, ModelUnavailableError):
        return UNAVAILABLE
    if isinstance(exc, AIError):  # our own coded errors carry statuses of their own
        return ERROR
    status = _http_status(exc)
    if "does not support tools" in str(exc):  # Ollama's 400 for a model without tools
        return TOOL_REFUSED
    if status == 429 or isinstance(exc, ModelRateLimitError):
        return RATE_LIMITED
    if status == 408:
        return TIMEOUT
    if (
        isinstance(exc, ModelAPIError)
        or (status is not None and status >= 500)
        or ("ResponseError" in names and status == -1)  # ollama: {"error"} inside a stream
    ):
        return SERVER_ERROR
    if status is not None and 400 <= status < 500:
        return REJECTED
    if (
        isinstance(exc, ConnectionError | httpx.TransportError | ModelConnectionError)
        or "ClientConnectionError" in names  # aiohttp (google-genai's async transport)
    ):
        return UNAVAILABLE
    if isinstance(exc, json.JSONDecodeError) or "UnknownApiResponseError" in names:
        return MALFORMED_OUTPUT
    return ERROR


RETRY_AFTER_S = 30


def coded_error(feature: str, reason: str, exc: BaseException) -> BaseException:
    """What the caller gets when the chain's last model failed: a coded AIError for a
    known provider failure (its message names the reason only: provider messages may
    echo the prompt), the exception itself for an unexpected one (INTERNAL_ERROR)."""
    if isinstance(exc, AIError):
        return exc
    if reason == TIMEOUT:
        return ModelTimeoutError(f"The {feature} model did not answer in time")
    if reason == MALFORMED_OUTPUT:
        return ModelOutputError(f"The {feature} model's answer was malformed ({exc})")
    if reason == ERROR:
        return exc
    retry_after = RETRY_AFTER_S if reason in (RATE_LIMITED, SERVER_ERROR, UNAVAILABLE) else None
    return ModelUnavailableError(
        f"The {feature} model is unavailable ({reason}) and no fallback answered",
        retry_after_s=retry_after,
    )


# --- the chain -------------------------------------------------------------------------


class _TokenWatch(BaseCallbackHandler):
    """Notes whether an attempt has reported tokens (which a stream listener has already
    sent to the client)."""

    run_inline = True

    def __init__(self) -> None:
        self.seen = False

    def on_llm_new_token(self, token: Any, **kwargs: Any) -> None:
        if token:
            self.seen = True


def _streams_to_a_listener(config: RunnableConfig | None) -> bool:
    """Whether the caller's callbacks include a stream listener (`astream_events`,
    LangGraph's messages stream): the handlers LangChain streams model calls for."""
    callbacks = (config or {}).get("callbacks")
    handlers = callbacks if isinstance(callbacks, list) else getattr(callbacks, "handlers", [])
    return any(hasattr(h, "tap_output_aiter") for h in handlers or [])


@dataclass(frozen=True)
class Link:
    spec: str
    runnable: Runnable


class ModelChain(Runnable[Any, BaseMessage]):
    """A feature's models in order, with bounded retries and counted, logged fallbacks.

    Replaces `with_fallbacks`, which falls back on any exception without a trace (with the
    default MODEL_FALLBACKS=local, every failing provider call was answered by the local
    model and nobody knew). Streaming: callers run it with `ainvoke` inside a streamed
    graph; the chosen model's tokens reach `stream_events` through the callbacks. A model
    that fails before its first token (HTTP errors, timeouts) is retried or replaced with
    nothing shown; one that fails after tokens reached a stream listener is not (the
    client would see the start of one answer followed by another): the caller gets the
    coded error. Attributes it does not have are read from the first model's runnable
    (e.g. `.kwargs` in tests)."""

    def __init__(
        self,
        feature: str,
        links: list[Link],
        *,
        schema: type[BaseModel] | None = None,
        tools: bool = False,
        max_retries: int = 2,
        backoff_s: float = 1.0,
    ) -> None:
        if not links:
            raise ValueError("a model chain needs at least one model")
        self.feature = feature
        self.links = links
        self.schema = schema
        self.tools = tools
        self.max_retries = max_retries
        self.backoff_s = backoff_s

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or name in ("links", "feature", "schema"):
            raise AttributeError(name)
        return getattr(self.links[0].runnable, name)

    @property
    def specs(self) -> list[str]:
        return [link.spec for link in self.links]

    def _check(self, output: Any) -> Any:
        """Raise when an answer must not be passed on (it goes to the next model)."""
        if self.tools:
            finish = str(getattr(output, "response_metadata", {}).get("finish_reason", ""))
            if finish in ("MALFORMED_FUNCTION_CALL", "UNEXPECTED_TOOL_CALL"):
                raise ToolCallRefusedError(finish)
        if self.schema is not None:
            text = output.text if isinstance(output, BaseMessage) else str(output)
            try:
                self.schema.model_validate(parse_json_text(text))
            except ValueError as exc:  # pydantic's ValidationError is a ValueError
                problem = str(exc).splitlines()[0][:200]
                raise MalformedOutputError(f"expected {self.schema.__name__}: {problem}") from exc
        return output

    def _next_step(self, index: int, attempt: int, exc: BaseException) -> tuple[str, float | None]:
        """After attempt `attempt` (0-based) of model `index` failed: the reason, and the
        seconds to wait before asking the same model again (None: move on)."""
        reason = failure_reason(exc)
        if reason in RETRIED:
            cap = RETRIED[reason]
            allowed = self.max_retries if cap is None else min(cap, self.max_retries)
            if attempt < allowed:
                wait = self.backoff_s * (2**attempt) * (1 + random.random() / 4)
                log.info(
                    {
                        "event": "model_retry",
                        "feature": self.feature,
                        "model": self.links[index].spec,
                        "reason": reason,
                        "attempt": attempt + 1,
                        "error_type": type(exc).__name__,
                        "status": _http_status(exc),
                    }
                )
                return reason, min(wait, 30.0)
        return reason, None

    def _moved_on(self, index: int, reason: str, exc: BaseException) -> None:
        """Model `index` failed for good: count and log the fallback, or give up."""
        spec = self.links[index].spec
        entry = {
            "feature": self.feature,
            "from": spec,
            "reason": reason,
            "error_type": type(exc).__name__,
            "status": _http_status(exc),
        }
        if index + 1 < len(self.links):
            to = self.links[index + 1].spec
            MODEL_FALLBACKS.labels(spec, to, reason).inc()
            log.warning({"event": "model_fallback", **entry, "to": to})
        else:
            log.warning({"event": "model_chain_failed", **entry, "models": len(self.links)})

    def _watched(self, config: RunnableConfig | None) -> tuple[RunnableConfig | None, _TokenWatch]:
        watch = _TokenWatch()
        if not _streams_to_a_listener(config):
            return config, watch
        return merge_configs(config, {"callbacks": [watch]}), watch

    def _cut_mid_stream(self, index: int, exc: BaseException) -> BaseException:
        """Model `index` failed after its tokens were streamed: no retry, no fallback."""
        reason = failure_reason(exc)
        log.warning(
            {
                "event": "model_failed_mid_stream",
                "feature": self.feature,
                "model": self.links[index].spec,
                "reason": reason,
                "error_type": type(exc).__name__,
                "status": _http_status(exc),
            }
        )
        return coded_error(self.feature, reason, exc)

    def _after_failure(self, index: int, attempt: int, exc: BaseException) -> float | None:
        """Model `index` failed before showing anything: the seconds to wait before asking
        it again, or None to move to the next model (counted); the coded error when it was
        the last one."""
        reason, wait = self._next_step(index, attempt, exc)
        if wait is None:
            self._moved_on(index, reason, exc)
            if index + 1 == len(self.links):
                raise coded_error(self.feature, reason, exc) from exc
        return wait

    def invoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Any:
        for index, link in enumerate(self.links):
            attempt = 0
            while True:
                attempt_config, watch = self._watched(config)
                try:
                    return self._check(link.runnable.invoke(input, attempt_config, **kwargs))
                except Exception as exc:
                    if watch.seen:
                        raise self._cut_mid_stream(index, exc) from exc
                    wait = self._after_failure(index, attempt, exc)
                    if wait is None:
                        break
                    time.sleep(wait)
                    attempt += 1
        raise AssertionError("unreachable")  # pragma: no cover

    async def ainvoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Any:
        for index, link in enumerate(self.links):
            attempt = 0
            while True:
                attempt_config, watch = self._watched(config)
                try:
                    output = await link.runnable.ainvoke(input, attempt_config, **kwargs)
                    return self._check(output)
                except Exception as exc:
                    if watch.seen:
                        raise self._cut_mid_stream(index, exc) from exc
                    wait = self._after_failure(index, attempt, exc)
                    if wait is None:
                        break
                    await asyncio.sleep(wait)
                    attempt += 1
        raise AssertionError("unreachable")  # pragma: no cover

    async def astream(  # type: ignore[override]
        self, input: Any, config: RunnableConfig | None = None, **kwargs: Any
    ) -> AsyncIterator[Any]:
        """The chosen model's own chunks (Runnable's default would wait for the whole
        answer and yield it once). Before the first chunk a failure is retried or handed to
        the next model, as in `ainvoke`; after it, the caller gets the coded error. Chunks
        are passed on as they come, so a schema or tool check does not apply here."""
        for index, link in enumerate(self.links):
            attempt = 0
            while True:
                started = False
                try:
                    async for chunk in link.runnable.astream(input, config, **kwargs):
                        started = True
                        yield chunk
                    return
                except Exception as exc:
                    if started:
                        raise self._cut_mid_stream(index, exc) from exc
                    wait = self._after_failure(index, attempt, exc)
                    if wait is None:
                        break
                    await asyncio.sleep(wait)
                    attempt += 1


class ModelRegistry:
    """Per-feature model chains, built once and shared.

    `overrides` maps a feature (or "*") to ready models: how unit tests inject fakes.
    """

    def __init__(
        self, settings: Settings, overrides: dict[str, BaseChatModel] | None = None
    ) -> None:
        self.settings = settings
        self.overrides = overrides or {}
        self._chains: dict[str, list[tuple[str, BaseChatModel]]] = {}

    def chain(self, feature: str) -> list[tuple[str, BaseChatModel]]:
        """Usable (spec, model) pairs for the feature, in fallback order."""
        override = self.overrides.get(feature) or self.overrides.get("*")
        if override is not None:
            return [(f"override:{type(override).__name__}", override)]
        if feature not in self._chains:
            usable: list[tuple[str, BaseChatModel]] = []
            reasons: list[str] = []
            for spec in self.settings.fallback_chain(feature):
                try:
                    usable.append((spec, build_chat_model(spec, self.settings)))
                except ModelUnavailableError as exc:
                    reasons.append(f"{spec}: {exc.message}")
            if not usable:
                raise ModelUnavailableError(f"No usable model for {feature}: " + "; ".join(reasons))
            if reasons:
                log.info("model chain for %s skipped %s", feature, reasons)
            self._chains[feature] = usable
        return self._chains[feature]

    def spec(self, feature: str) -> str:
        """The primary model's spec: part of every cache key."""
        return self.chain(feature)[0][0]

    def runnable(
        self,
        feature: str,
        *,
        schema: type[BaseModel] | None = None,
        grammar: str | None = None,
        internal: bool = False,
        max_tokens: int | None = None,
        tools: Sequence[Any] | None = None,
        tool_choice: str | None = None,
    ) -> ModelChain:
        """The feature's model chain ready to call.

        `schema` constrains output to JSON of that schema where the provider can (and an
        answer that does not validate is retried once, then handed to the next model);
        `grammar` (GBNF) constrains free text on the embedded model (others get the prompt);
        `internal` turns streaming off so the call never shows up as user tokens;
        `max_tokens` caps the answer where each provider reads its cap;
        `tools` (LangChain tools, Pydantic classes or JSON schemas) are bound to every model
        of the chain that can call tools (`bind_tools`); the others are left out of it
        (ModelUnavailableError when none can), and a turn that ends on a malformed tool call
        goes to the next model (reason tool_refused).
        """
        links: list[Link] = []
        for spec, model in self.chain(feature):
            m: BaseChatModel = model
            if internal:
                # A copy shares private state (the embedded model's engine) with the original.
                m = m.model_copy(update={"disable_streaming": True})
            kwargs: dict[str, Any] = {}
            if max_tokens is not None:
                m, cap_kwargs = with_max_tokens(m, max_tokens)
                kwargs.update(cap_kwargs)
            if schema:
                kwargs.update(json_constraint(m, schema))
            if grammar and _kind(m) == "local":
                kwargs["grammar"] = grammar
            bound: Runnable = m
            if tools:
                try:
                    bound = m.bind_tools(list(tools), tool_choice=tool_choice)
                except NotImplementedError:
                    continue  # this model cannot call tools: not part of a tool chain
            if kwargs:
                bound = bound.bind(**kwargs)
            links.append(
                Link(spec, bound.with_config(callbacks=[ModelUsageCallback(feature, spec)]))
            )
        if not links:
            raise ModelUnavailableError(f"No model of the {feature} chain can call tools")
        return ModelChain(
            feature,
            links,
            schema=schema,
            tools=bool(tools),
            max_retries=self.settings.model_max_retries,
            backoff_s=self.settings.model_retry_backoff_s,
        )
