"""A stand-in Ollama server: `POST /api/chat` (NDJSON stream or one JSON object),
`POST /api/embed`, `GET /api/tags`, `GET /` (see the package docstring for scripting).

Wire format as `ollama` 0.6.3's client sends and parses it (`ollama/_client.py`,
`ollama/_types.py`): the request carries `model`, `messages`, `tools`, `stream`, `format`
(`"json"` or a JSON schema) and `options` (`num_predict`, `temperature`, `seed`, ...).
Streamed replies are one JSON object per line (`message.content` fragments, `done: false`),
then a final line with `done: true`, `done_reason` and the counts `prompt_eval_count` /
`eval_count`. Errors are an HTTP status with `{"error": "..."}`.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from tests.standins import (
    Call,
    Delay,
    Fail,
    Malformed,
    RefuseTools,
    Reply,
    StandIn,
    capped,
    chunks,
    count_tokens,
    is_tool_calls,
    iter_tool_calls,
    json_response,
    new_call,
    read_json,
    reply_text,
)

EMBED_DIMENSIONS = 16


def _now() -> str:
    return datetime.now(UTC).isoformat().replace("+00:00", "Z")


def _prompt(body: dict[str, Any]) -> str:
    parts = []
    for message in body.get("messages") or []:
        content = message.get("content")
        if isinstance(content, str):
            parts.append(content)
    return "\n".join(parts)


def embedding(text: str) -> list[float]:
    """A deterministic unit vector per text (equal texts, equal vectors)."""
    digest = hashlib.sha256(text.encode()).digest()
    raw = [(b - 127.5) / 127.5 for b in digest[:EMBED_DIMENSIONS]]
    norm = math.sqrt(sum(v * v for v in raw)) or 1.0
    return [v / norm for v in raw]


def _line(payload: dict[str, Any]) -> bytes:
    return (json.dumps({"created_at": _now(), "done": False, **payload}) + "\n").encode()


class OllamaStandIn(StandIn):
    def routes(self) -> list[Route]:
        return [
            Route("/", self.root, methods=["GET", "HEAD"]),
            Route("/api/tags", self.tags, methods=["GET"]),
            Route("/api/chat", self.chat, methods=["POST"]),
            Route("/api/embed", self.embed, methods=["POST"]),
        ]

    async def root(self, request: Request) -> Response:
        return Response("Ollama is running", media_type="text/plain")

    async def tags(self, request: Request) -> Response:
        return json_response({"models": []})

    async def embed(self, request: Request) -> Response:
        body = await read_json(request) or {}
        call = new_call(request, body)
        texts = body.get("input") or []
        texts = [texts] if isinstance(texts, str) else list(texts)
        prompt_tokens = sum(count_tokens(t) for t in texts)
        call.usage = (prompt_tokens, 0)
        self.record(call)
        return json_response(
            {
                "model": body.get("model", ""),
                "embeddings": [embedding(t) for t in texts],
                "total_duration": 1000,
                "load_duration": 100,
                "prompt_eval_count": prompt_tokens,
            }
        )

    async def chat(self, request: Request) -> Response:
        body = await read_json(request) or {}
        call = new_call(request, body)
        options = body.get("options") or {}
        call.prompt = _prompt(body)
        call.max_tokens = options.get("num_predict")
        call.schema = body.get("format")
        call.tools = [t.get("function", {}).get("name", "") for t in body.get("tools") or []]
        call.stream = bool(body.get("stream", True))  # Ollama streams unless told not to
        call.is_model_call = True
        reply = self.next_reply(call)
        call.reply = reply
        self.record(call)
        while isinstance(reply, Delay):
            await self.pause(reply.seconds)
            reply = reply.then
        if isinstance(reply, Fail):
            message = reply.message or f"stand-in error {reply.status}"
            return json_response({"error": message}, status=reply.status)
        if isinstance(reply, RefuseTools):
            model = body.get("model", "")
            error = f"registry.ollama.ai/library/{model} does not support tools"
            return json_response({"error": error}, status=400)
        if isinstance(reply, Malformed):
            media = "application/x-ndjson" if call.stream else "application/json"
            good = b""
            if reply.after and call.stream:
                model = body.get("model", "")
                good = b"".join(
                    _line({"model": model, "message": {"role": "assistant", "content": piece}})
                    for piece in chunks(reply.after)
                )
            return Response(good + b'{"model": "broken", "message": {"role": ', media_type=media)
        return self._answer(call, body.get("model", ""), reply)

    def _answer(self, call: Call, model: str, reply: Reply) -> Response:
        prompt_tokens = count_tokens(call.prompt)
        lines: list[dict[str, Any]] = []
        if is_tool_calls(reply):
            tool_calls = [
                {"function": {"index": i, "name": name, "arguments": args}}
                for i, (name, args) in enumerate(iter_tool_calls(reply))
            ]
            output_tokens = count_tokens(json.dumps(tool_calls, ensure_ascii=False))
            lines.append(
                {
                    "model": model,
                    "created_at": _now(),
                    "message": {"role": "assistant", "content": "", "tool_calls": tool_calls},
                    "done": False,
                }
            )
            done_reason, text = "stop", ""
        else:
            text, cut = capped(reply_text(reply), call.max_tokens)
            output_tokens = count_tokens(text)
            done_reason = "length" if cut else "stop"
            for piece in chunks(text):
                lines.append(
                    {
                        "model": model,
                        "created_at": _now(),
                        "message": {"role": "assistant", "content": piece},
                        "done": False,
                    }
                )
        call.usage = (prompt_tokens, output_tokens)
        final = {
            "model": model,
            "created_at": _now(),
            "message": {"role": "assistant", "content": ""},
            "done": True,
            "done_reason": done_reason,
            "total_duration": 5_000_000,
            "load_duration": 1_000_000,
            "prompt_eval_count": prompt_tokens,
            "prompt_eval_duration": 1_000_000,
            "eval_count": output_tokens,
            "eval_duration": 3_000_000,
        }
        if not call.stream:
            message: dict[str, Any] = {"role": "assistant", "content": text}
            if is_tool_calls(reply):
                message["tool_calls"] = lines[0]["message"]["tool_calls"]
            return json_response({**final, "message": message})

        async def ndjson() -> AsyncIterator[bytes]:
            for line in [*lines, final]:
                yield (json.dumps(line, ensure_ascii=False) + "\n").encode()

        return StreamingResponse(ndjson(), media_type="application/x-ndjson")
