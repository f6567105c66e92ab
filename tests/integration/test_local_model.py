"""The embedded llama.cpp model for real: determinism, the one-at-a-time queue, schema
constraints, streaming, cancellation."""

import asyncio

import pytest
from langchain_core.messages import HumanMessage

from core.models import ModelRegistry
from core.settings import Settings
from core.structured import generate_structured
from nodes.analysis.schemas import SectionDigest

pytestmark = pytest.mark.integration

PROMPT = [HumanMessage("List three programming languages.")]


@pytest.fixture(scope="module")
def registry() -> ModelRegistry:
    return ModelRegistry(Settings(chat_model="local", model_fallbacks=""))


async def test_greedy_decoding_is_deterministic(registry):
    model = registry.runnable("chat", max_tokens=24)
    a = await model.ainvoke(PROMPT)
    b = await model.ainvoke(PROMPT)
    assert a.text and a.text == b.text
    assert a.usage_metadata["input_tokens"] > 0 and a.usage_metadata["output_tokens"] > 0


async def test_concurrent_requests_queue_instead_of_corrupting_each_other(registry):
    model = registry.runnable("chat", max_tokens=24)
    alone = (await model.ainvoke(PROMPT)).text
    together = await asyncio.gather(*(model.ainvoke(PROMPT) for _ in range(4)))
    assert [m.text for m in together] == [alone] * 4


async def test_schema_constrained_generation_always_parses(registry):
    model = registry.runnable("analysis", schema=SectionDigest, internal=True, max_tokens=256)
    digest = await generate_structured(
        model, SectionDigest, [HumanMessage("요약: Java, Spring Boot 3년 경력")], {}, 120
    )
    assert isinstance(digest, SectionDigest) and digest.summary


async def test_streaming_yields_tokens_and_usage(registry):
    model = registry.runnable("chat", max_tokens=24)
    chunks = [c async for c in model.astream(PROMPT)]
    assert len([c for c in chunks if c.text]) > 3
    total = chunks[0]
    for chunk in chunks[1:]:
        total += chunk
    assert total.usage_metadata["output_tokens"] > 3


async def test_an_abandoned_stream_frees_the_engine_for_the_next_caller(registry):
    model = registry.runnable("chat", max_tokens=200)
    stream = model.astream(PROMPT)
    async for _chunk in stream:
        break
    await stream.aclose()
    after = await asyncio.wait_for(registry.runnable("chat", max_tokens=8).ainvoke(PROMPT), 60)
    assert after.text
