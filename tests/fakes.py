"""Fake chat models for unit tests of graph logic (never used by integration tests)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from pydantic import Field


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
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text))])

    def _stream(
        self, messages, stop=None, run_manager: CallbackManagerForLLMRun | None = None, **kwargs
    ) -> Iterator[ChatGenerationChunk]:
        text = self._answer(messages, kwargs)
        for i in range(0, len(text), 4):
            chunk = ChatGenerationChunk(message=AIMessageChunk(content=text[i : i + 4]))
            if run_manager:
                run_manager.on_llm_new_token(chunk.text, chunk=chunk)
            yield chunk

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
