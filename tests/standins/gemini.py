"""A stand-in Gemini Developer API: `POST /{version}/models/{model}:generateContent` and
`:streamGenerateContent?alt=sse` (see the package docstring for scripting).

Wire format as `google-genai` 2.34.0 sends and parses it (`google/genai/models.py`,
`_api_client.py`): the key in the `x-goog-api-key` header; the body's `contents[].parts[]`
(`text`, `functionCall`, `functionResponse`), `systemInstruction`, `generationConfig`
(`maxOutputTokens`, `temperature`, `responseMimeType`, `responseJsonSchema`), `tools[]
.functionDeclarations[]` and `toolConfig`. A reply is `candidates[].content.parts[]` with
`text` or `functionCall`, `finishReason`, and `usageMetadata` (`promptTokenCount`,
`candidatesTokenCount`, `totalTokenCount`); a stream sends one such object per SSE event
(`data: {...}` and a blank line), usage cumulative in each. Errors are an HTTP status with
`{"error": {"code", "message", "status"}}`.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import AsyncIterator
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

STATUS_NAMES = {
    400: "INVALID_ARGUMENT",
    401: "UNAUTHENTICATED",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    429: "RESOURCE_EXHAUSTED",
    500: "INTERNAL",
    503: "UNAVAILABLE",
    504: "DEADLINE_EXCEEDED",
}
_PATH = re.compile(r"^/(?P<version>[^/]+)/models/(?P<model>[^/:]+):(?P<method>\w+)$")


def _texts(content: dict[str, Any] | None) -> list[str]:
    return [p["text"] for p in (content or {}).get("parts") or [] if isinstance(p.get("text"), str)]


def _prompt(body: dict[str, Any]) -> str:
    parts = _texts(body.get("systemInstruction"))
    for content in body.get("contents") or []:
        parts += _texts(content)
    return "\n".join(parts)


def _text_event(text: str) -> dict[str, Any]:
    return {"candidates": [{"content": {"parts": [{"text": text}], "role": "model"}, "index": 0}]}


class GeminiStandIn(StandIn):
    def routes(self) -> list[Route]:
        return [Route("/{rest:path}", self.handle, methods=["POST"])]

    async def handle(self, request: Request) -> Response:
        body = await read_json(request) or {}
        call = new_call(request, body)
        match = _PATH.match(request.url.path)
        if match is None or match["method"] not in ("generateContent", "streamGenerateContent"):
            self.record(call)
            return self._error(404, f"Unknown method {request.url.path}")
        if not request.headers.get("x-goog-api-key"):
            self.record(call)
            return self._error(403, "Method doesn't allow unregistered callers")
        config = body.get("generationConfig") or {}
        call.prompt = _prompt(body)
        call.max_tokens = config.get("maxOutputTokens")
        call.schema = config.get("responseJsonSchema") or config.get("responseSchema")
        call.tools = [
            d.get("name", "")
            for tool in body.get("tools") or []
            for d in tool.get("functionDeclarations") or []
        ]
        call.stream = match["method"] == "streamGenerateContent"
        call.is_model_call = True
        reply = self.next_reply(call)
        call.reply = reply
        self.record(call)
        while isinstance(reply, Delay):
            await self.pause(reply.seconds)
            reply = reply.then
        if isinstance(reply, Fail):
            return self._error(reply.status, reply.message)
        if isinstance(reply, Malformed):
            if call.stream:
                good = "".join(
                    "data: " + json.dumps(_text_event(piece), ensure_ascii=False) + "\r\n\r\n"
                    for piece in (chunks(reply.after) if reply.after else [])
                )
                return Response(
                    good + 'data: {"candidates": [{"content": \r\n\r\n',
                    media_type="text/event-stream",
                )
            return Response('{"candidates": [{"content": ', media_type="application/json")
        return self._answer(call, match["model"], reply)

    def _error(self, status: int, message: str) -> Response:
        error = {
            "code": status,
            "message": message or f"stand-in error {status}",
            "status": STATUS_NAMES.get(status, "UNKNOWN"),
        }
        return json_response({"error": error}, status=status)

    def _answer(self, call: Call, model: str, reply: Reply) -> Response:
        prompt_tokens = count_tokens(call.prompt)
        response_id = uuid.uuid4().hex[:16]
        events: list[tuple[list[dict[str, Any]], int, str | None]] = []  # parts, tokens, finish
        if isinstance(reply, RefuseTools):
            output_tokens = 0
            events.append(([], 0, "MALFORMED_FUNCTION_CALL"))
        elif is_tool_calls(reply):
            parts = [
                {"functionCall": {"name": name, "args": args}}
                for name, args in iter_tool_calls(reply)
            ]
            output_tokens = count_tokens(json.dumps(parts, ensure_ascii=False))
            events.append((parts, output_tokens, "STOP"))
        else:
            text, cut = capped(reply_text(reply), call.max_tokens)
            output_tokens = count_tokens(text)
            pieces = chunks(text)
            so_far = ""
            for i, piece in enumerate(pieces):
                so_far += piece
                last = i == len(pieces) - 1
                finish = ("MAX_TOKENS" if cut else "STOP") if last else None
                events.append(([{"text": piece}], count_tokens(so_far), finish))
        call.usage = (prompt_tokens, output_tokens)

        def payload(parts: list[dict[str, Any]], tokens: int, finish: str | None) -> dict:
            candidate: dict[str, Any] = {"index": 0}
            if parts:  # a candidate with no parts has no content at all (a refusal)
                candidate["content"] = {"parts": parts, "role": "model"}
            if finish:
                candidate["finishReason"] = finish
            return {
                "candidates": [candidate],
                "usageMetadata": {
                    "promptTokenCount": prompt_tokens,
                    "candidatesTokenCount": tokens,
                    "totalTokenCount": prompt_tokens + tokens,
                },
                "modelVersion": model,
                "responseId": response_id,
            }

        if not call.stream:
            parts = [p for event in events for p in event[0]]
            if parts and all("text" in p for p in parts):
                parts = [{"text": "".join(p["text"] for p in parts)}]
            return json_response(payload(parts, output_tokens, events[-1][2]))

        async def sse() -> AsyncIterator[bytes]:
            for event in events:
                data = json.dumps(payload(*event), ensure_ascii=False)
                yield f"data: {data}\r\n\r\n".encode()

        return StreamingResponse(sse(), media_type="text/event-stream")
