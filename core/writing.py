"""The one step that writes user-visible words: the feature's model, or grounded text.

Where the configured model is the embedded stand-in (it cannot write Korean), the words
are grounded text the feature computed, streamed through `GroundedWriter` exactly as a
model's answer would be. Otherwise the model writes, and any part of its answer that is
junk (a loop, the prompt echoed, not Korean) or contradicts what was computed is replaced
by the grounded part, counted in `devths_degenerate_outputs_total{feature,reason}`.

Features decide what is grounded, how it reads and what counts as junk; this module only
chooses the writer and applies their verdicts (no feature logic here).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from langchain_core.messages import BaseMessage
from langchain_core.runnables import Runnable, RunnableConfig
from pydantic import BaseModel

from core.grounded import GroundedWriter
from core.services import get_services
from core.structured import generate_parsed
from core.telemetry import DEGENERATE

T = TypeVar("T", bound=BaseModel)


def writes_grounded_text(model_spec: str) -> bool:
    """Whether a feature's user-visible words come from grounded text instead of its model:
    when that model is the embedded stand-in, which cannot write Korean."""
    return model_spec == "local" or model_spec.startswith("local:")


def grounded_for(feature: str) -> bool:
    """`writes_grounded_text` for the feature's configured model."""
    return writes_grounded_text(get_services().models.spec(feature))


def writer(feature: str, grounded_text: str, **model_options: Any) -> Runnable:
    """The runnable that writes `feature`'s words: `GroundedWriter(grounded_text)` on the
    embedded stand-in, else the feature's model with `model_options` (grammar, max_tokens)."""
    if grounded_for(feature):
        return GroundedWriter(text=grounded_text)
    return get_services().models.runnable(feature, **model_options)


async def write_sections(
    feature: str,
    messages: list[BaseMessage],
    config: RunnableConfig,
    *,
    grounded: T,
    render: Callable[[T], str],
    parse: Callable[[str], T],
    junk: Callable[[str, Any], str | None],
    what: str,
    **model_options: Any,
) -> T:
    """Sectioned words (a Pydantic model of lists and sentences) from `writer`, parsed with
    `parse` (one retry), then every field `junk(field, value)` names a reason for replaced
    by the same field of `grounded` and counted."""
    model = writer(feature, render(grounded), **model_options)
    timeout_s = get_services().settings.model_timeout_s
    written = await generate_parsed(model, parse, messages, config, timeout_s, what)
    values = written.model_dump()
    for field, value in values.items():
        reason = junk(field, value)
        if reason is not None:
            DEGENERATE.labels(feature, reason).inc()
            values[field] = getattr(grounded, field)
    return type(grounded).model_validate(values)
