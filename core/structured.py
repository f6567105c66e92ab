"""Structured model output: Pydantic in, validated Pydantic out, one retry, clear errors."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable
from typing import TypeVar

from langchain_core.messages import BaseMessage
from langchain_core.runnables import Runnable, RunnableConfig
from langchain_core.utils.json import parse_partial_json
from pydantic import BaseModel

from core.errors import ModelOutputError, ModelTimeoutError

T = TypeVar("T", bound=BaseModel)

# The config of a model call the user never reads (a route, a summary, a header, a question
# being drafted): no stream shows its tokens, and traces tag it internal.
INTERNAL: RunnableConfig = {"tags": ["internal", "langsmith:nostream"]}

_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$", re.MULTILINE)


def parse_json_text(text: str) -> object:
    """JSON from a model's text: tolerates code fences, prose around one object, and an
    answer cut off by the token limit (closed by LangChain's partial-JSON parser; the
    schema validation that follows still decides whether what remains is usable)."""
    cleaned = _FENCE.sub("", text.strip())
    start = cleaned.find("{")
    if start == -1:
        raise ValueError("no JSON object in the answer")
    candidate = cleaned[start:]
    try:
        return json.loads(candidate, strict=False)
    except json.JSONDecodeError:
        end = candidate.rfind("}")
        if end > 0:
            try:
                return json.loads(candidate[: end + 1], strict=False)
            except json.JSONDecodeError:
                pass
    repaired = parse_partial_json(candidate, strict=False)
    if repaired is None:
        raise ValueError("the answer is not JSON")
    return repaired


async def invoke_text(
    runnable: Runnable, messages: list[BaseMessage], config: RunnableConfig, timeout_s: float
) -> str:
    """One model call with a deadline; the answer's text."""
    try:
        message = await asyncio.wait_for(runnable.ainvoke(messages, config), timeout_s)
    except TimeoutError as exc:
        raise ModelTimeoutError(f"The model did not answer within {timeout_s:.0f} s") from exc
    return message.text if hasattr(message, "text") else str(message)


async def generate_parsed(
    runnable: Runnable,
    parse: Callable[[str], T],
    messages: list[BaseMessage],
    config: RunnableConfig,
    timeout_s: float,
    what: str,
) -> T:
    """Call the model and `parse` its text (ValueError, incl. pydantic's ValidationError,
    means malformed); retry once, then raise MODEL_OUTPUT_INVALID naming `what`."""
    problem = ""
    for _attempt in range(2):
        text = await invoke_text(runnable, messages, config, timeout_s)
        try:
            return parse(text)
        except ValueError as exc:
            problem = str(exc).splitlines()[0][:200]
    raise ModelOutputError(f"The model's {what} was malformed after a retry: {problem}")


async def generate_structured(
    runnable: Runnable,
    schema: type[T],
    messages: list[BaseMessage],
    config: RunnableConfig,
    timeout_s: float,
) -> T:
    """Call the model and validate its JSON against `schema`; retry once, then raise."""
    return await generate_parsed(
        runnable,
        lambda text: schema.model_validate(parse_json_text(text)),
        messages,
        config,
        timeout_s,
        f"answer (expected {schema.__name__})",
    )
