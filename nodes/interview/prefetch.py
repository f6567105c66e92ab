"""The next main question, generated in the background while the candidate answers.

It is stored in Redis (the service cache) under the session's thread, with a fingerprint
of everything that decides it: the candidate facts, the interview type, the slot and its
anchor, the prompt version and the model. A stored question whose fingerprint no longer
matches is discarded; one that would now repeat an asked question is discarded at use.
A restart loses only in-flight work: the stored question survives, and a missing one is
generated on demand.
"""

from __future__ import annotations

from typing import Any

from core.cache import cache_key
from core.services import get_services
from nodes.interview.state import InterviewState


def fingerprint(state: InterviewState, index: int, prompt_tag: str, model_spec: str) -> str:
    slot = state["plan"][index]
    return cache_key(
        "interview-prefetch-fp",
        state["facts_digest"],
        state["interview_type"],
        str(index),
        slot["category"],
        slot["anchor"],
        prompt_tag,
        model_spec,
    )


def store_key(thread: str) -> str:
    return cache_key("interview-prefetch", thread)


async def load(thread: str, expected: str) -> dict[str, Any] | None:
    stored = await get_services().cache.get(store_key(thread))
    if stored is None or stored.get("fingerprint") != expected:
        return None
    return stored


async def save(thread: str, value: dict[str, Any]) -> None:
    services = get_services()
    await services.cache.set(
        store_key(thread), value, services.settings.checkpoint_ttl_minutes * 60
    )


async def discard(thread: str) -> None:
    await get_services().cache.delete(store_key(thread))
