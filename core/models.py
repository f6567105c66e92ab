"""The one model factory: "provider:model" strings -> LangChain chat models.

Providers:
- `google_genai:<model>`  Gemini through `langchain-google-genai`; needs GOOGLE_API_KEY.
- `ollama:<model>`        a local Ollama server at OLLAMA_BASE_URL (e.g. EXAONE).
- `local`                 the embedded llama.cpp model shipped in a PyPI wheel.

Provider SDKs are imported only when a model of theirs is built, so a missing key or
package never breaks import, tests or `langgraph dev`. A feature's chain is its configured
model followed by MODEL_FALLBACKS; providers that cannot be built (no key, no package) are
skipped, and the rest become runtime fallbacks of the first.
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.runnables import Runnable
from pydantic import BaseModel

from core.errors import ModelUnavailableError
from core.settings import Settings
from core.telemetry import ModelUsageCallback

log = logging.getLogger(__name__)


def _build_google(name: str, settings: Settings) -> BaseChatModel:
    if not settings.google_api_key:
        raise ModelUnavailableError("GOOGLE_API_KEY is not set")
    try:
        from langchain_google_genai import ChatGoogleGenerativeAI
    except ImportError as exc:
        raise ModelUnavailableError("langchain-google-genai is not installed") from exc
    return ChatGoogleGenerativeAI(
        model=name,
        google_api_key=settings.google_api_key,
        temperature=0,
        timeout=settings.model_timeout_s,
        max_retries=1,
    )


def _build_ollama(name: str, settings: Settings) -> BaseChatModel:
    try:
        from langchain_ollama import ChatOllama
    except ImportError as exc:
        raise ModelUnavailableError("langchain-ollama is not installed") from exc
    return ChatOllama(model=name, base_url=settings.ollama_base_url, temperature=0, seed=0)


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


def json_constraint(model: BaseChatModel, schema: type[BaseModel]) -> dict[str, Any]:
    """Provider-specific call arguments that constrain output to the schema's JSON."""
    json_schema = copy.deepcopy(_json_schema(schema))  # a provider may adjust its copy
    kind = getattr(model, "_llm_type", "")
    if kind == "local-llama-cpp":
        return {"response_format": {"type": "json_object", "schema": json_schema}}
    if kind == "chat-ollama" or type(model).__name__ == "ChatOllama":
        return {"format": json_schema}
    if type(model).__name__ == "ChatGoogleGenerativeAI":
        return {"response_mime_type": "application/json", "response_json_schema": json_schema}
    return {}


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
    ) -> Runnable:
        """The feature's model chain ready to call.

        `schema` constrains output to JSON of that schema where the provider can;
        `grammar` (GBNF) constrains free text on the embedded model (others get the prompt);
        `internal` turns streaming off so the call never shows up as user tokens.
        """
        runnables: list[Runnable] = []
        for spec, model in self.chain(feature):
            m: BaseChatModel = model
            if internal:
                # A copy shares private state (the embedded model's engine) with the original.
                m = model.model_copy(update={"disable_streaming": True})
            kwargs: dict[str, Any] = json_constraint(m, schema) if schema else {}
            if grammar and getattr(m, "_llm_type", "") == "local-llama-cpp":
                kwargs["grammar"] = grammar
            if max_tokens is not None:
                kwargs.update(_max_tokens_kwarg(m, max_tokens))
            bound = m.bind(**kwargs) if kwargs else m
            runnables.append(bound.with_config(callbacks=[ModelUsageCallback(feature, spec)]))
        first, rest = runnables[0], runnables[1:]
        return first.with_fallbacks(rest) if rest else first


def _max_tokens_kwarg(model: BaseChatModel, max_tokens: int) -> dict[str, Any]:
    name = type(model).__name__
    if name == "ChatGoogleGenerativeAI":
        return {"max_output_tokens": max_tokens}
    if name == "ChatOllama":
        return {"num_predict": max_tokens}
    if getattr(model, "_llm_type", "") == "local-llama-cpp":
        return {"max_tokens": max_tokens}
    return {}
