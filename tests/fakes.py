"""Fake chat models for unit tests of graph logic (never used by integration tests)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.messages.ai import UsageMetadata
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from pydantic import Field


def fake_usage(messages: list[BaseMessage], answer: str) -> UsageMetadata:
    """Token usage as a provider reports it: one token per character, so tests can compute
    what a call costs from its prompt and answer."""
    prompt = sum(len(m.text) for m in messages)
    return UsageMetadata(
        input_tokens=prompt, output_tokens=len(answer), total_tokens=prompt + len(answer)
    )


class ScriptedChatModel(BaseChatModel):
    """Answers with `respond(messages)`; streams the answer in 4-character chunks.
    Records every call so tests can assert how often a model was used."""

    respond: Callable[[list[BaseMessage]], str]
    calls: list[list[BaseMessage]] = Field(default_factory=list)
    bound_kwargs: list[dict[str, Any]] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "scripted-fake"

    def _answer(self, messages: list[BaseMessage], kwargs: dict[str, Any]) -> str:
        self.calls.append(messages)
        self.bound_kwargs.append(kwargs)
        return self.respond(messages)

    def _generate(self, messages, stop=None, run_manager=None, **kwargs) -> ChatResult:
        text = self._answer(messages, kwargs)
        message = AIMessage(content=text, usage_metadata=fake_usage(messages, text))
        return ChatResult(generations=[ChatGeneration(message=message)])

    def _stream(
        self, messages, stop=None, run_manager: CallbackManagerForLLMRun | None = None, **kwargs
    ) -> Iterator[ChatGenerationChunk]:
        text = self._answer(messages, kwargs)
        for i in range(0, len(text), 4):
            chunk = ChatGenerationChunk(message=AIMessageChunk(content=text[i : i + 4]))
            if run_manager:
                run_manager.on_llm_new_token(chunk.text, chunk=chunk)
            yield chunk
        usage = fake_usage(messages, text)
        yield ChatGenerationChunk(message=AIMessageChunk(content="", usage_metadata=usage))

    async def _astream(
        self,
        messages,
        stop=None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs,
    ) -> AsyncIterator[ChatGenerationChunk]:
        text = self._answer(messages, kwargs)
        for i in range(0, len(text), 4):
            chunk = ChatGenerationChunk(message=AIMessageChunk(content=text[i : i + 4]))
            if run_manager:
                await run_manager.on_llm_new_token(chunk.text, chunk=chunk)
            yield chunk
        usage = fake_usage(messages, text)
        yield ChatGenerationChunk(message=AIMessageChunk(content="", usage_metadata=usage))
