"""A chat model that writes text the server computed itself.

Where the configured model cannot write well (the embedded 135M stand-in cannot write
Korean), a feature answers with grounded text built from what it computed (matched and
missing requirements, retrieved passages, schedule items). Sent through this model, that
text reaches clients exactly as a model's answer would: the same `on_chat_model_stream`
token events, the same final output. It makes no model call and spends no tokens.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator
from typing import Any

from langchain_core.callbacks import (
    AsyncCallbackManagerForLLMRun,
    CallbackManagerForLLMRun,
)
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from pydantic import Field

_PIECES = re.compile(r"\S+\s*|\s+")


class GroundedWriter(BaseChatModel):
    """Answers every call with `text`, streamed a word at a time.

    The text quotes the user's documents, so it stays out of the model's repr: tracing
    sends a model's repr as its `serialized` description, beside the hidden inputs and
    outputs (TRACE_HIDE_IO)."""

    text: str = Field(repr=False)

    @property
    def _llm_type(self) -> str:
        return "grounded-text"

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=self.text))])

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        for chunk in self._chunks():
            if run_manager is not None:
                run_manager.on_llm_new_token(chunk.text, chunk=chunk)
            yield chunk

    async def _astream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> AsyncIterator[ChatGenerationChunk]:
        for chunk in self._chunks():
            if run_manager is not None:
                await run_manager.on_llm_new_token(chunk.text, chunk=chunk)
            yield chunk

    def _chunks(self) -> Iterator[ChatGenerationChunk]:
        """`text` a word (and its following space) at a time."""
        for piece in _PIECES.findall(self.text):
            yield ChatGenerationChunk(message=AIMessageChunk(content=piece))
