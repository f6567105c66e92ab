"""Stand-in provider servers: real HTTP servers that speak Ollama's and Gemini's wire formats,
so the real client classes (`ChatOllama`, `ChatGoogleGenerativeAI`) run against them
unchanged, offline.

Each stand-in is a context manager running a small Starlette app under uvicorn on a free
loopback port in a background thread:

    from tests.standins import Delay, Fail, Malformed, RefuseTools
    from tests.standins.gemini import GeminiStandIn
    from tests.standins.ollama import OllamaStandIn

    with OllamaStandIn() as ollama, GeminiStandIn() as gemini:
        ChatOllama(model="exaone3.5:7.8b", base_url=ollama.url)
        ChatGoogleGenerativeAI(model="gemini-2.0-flash", google_api_key="test-key",
                               base_url=gemini.url)   # GOOGLE_API_BASE_URL in settings

Scripting what the "model" answers
----------------------------------
`standin.script(*replies)` queues replies; each model request (Ollama `/api/chat`, Gemini
`generateContent` / `streamGenerateContent`) takes the next one. A reply is:

- `"text"`                                   plain text (streamed in several chunks)
- `{"route": "rag"}` (a dict)                JSON text (the dict, serialised)
- `[{"name": "get_schedule", "args": {...}}, ...]`
                                             tool calls (Ollama `message.tool_calls`,
                                             Gemini `functionCall` parts), several = one turn
- `Fail(429)` / `Fail(500, "message")`       an HTTP error in the provider's error shape
- `Delay(5.0)` / `Delay(5.0, then="text")`   answer only after this many seconds (longer
                                             than the client's timeout: a timeout)
- `Malformed()`                              HTTP 200 whose body is not JSON
- `Malformed(after="partial")`               a stream that sends "partial", then breaks
- `RefuseTools()`                            the provider refusing a tool call (Ollama:
                                             400 "does not support tools"; Gemini: a
                                             MALFORMED_FUNCTION_CALL finish, no content)

When the queue is empty, `standin.respond_with(fn)` decides: `fn(call)` gets the `Call`
(below) and returns a reply, or None for the default. The default is `DEFAULT_REPLY`, a
short deterministic Korean sentence. Scripted replies go first, then `fn`, then the default.

What was sent
-------------
`standin.requests` records every request (`Call`, in arrival order; `standin.calls` only
the model requests, without embeddings or health probes):

- `call.path`, `call.body` (the parsed JSON, exactly as the client sent it), `call.headers`
- provider-neutral views of the body: `call.prompt` (the text of every message, system
  instruction included), `call.max_tokens` (Ollama `options.num_predict`, Gemini
  `generationConfig.maxOutputTokens`), `call.schema` (Ollama `format`, Gemini
  `generationConfig.responseJsonSchema`), `call.tools` (declared tool names), `call.stream`
- `call.reply` (what it was answered with) and `call.usage` (the tokens reported back)

Token accounting
----------------
Both report usage the way the providers do (Ollama `prompt_eval_count`/`eval_count` on the
final chunk, Gemini cumulative `usageMetadata` on every chunk), counting one token per two
characters (`count_tokens`). A token cap is honoured: the text is cut to the cap and the
reply says so (`done_reason: "length"`, `finishReason: "MAX_TOKENS"`).
`standin.tokens()` sums what was reported: tests compare it with `/metrics`.
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

DEFAULT_REPLY = "스탠드인 모델의 기본 답변입니다."
CHARS_PER_TOKEN = 2
CHUNK_CHARS = 8  # characters per streamed chunk: a reply of any length streams in several


@dataclass(frozen=True)
class Fail:
    """An HTTP error status in the provider's own error body."""

    status: int
    message: str = ""


@dataclass(frozen=True)
class Delay:
    """Answer `then` (default: the default reply) only after `seconds`."""

    seconds: float
    then: Any = None


@dataclass(frozen=True)
class Malformed:
    """HTTP 200 with a body that is not JSON (Ollama: the first NDJSON line; Gemini: the
    body, or the first SSE event). With `after`, a stream first sends that text in good
    chunks, then breaks: a failure after the first tokens."""

    after: str = ""


@dataclass(frozen=True)
class RefuseTools:
    """The provider's own refusal of a tool call: Ollama's HTTP 400 "<model> does not
    support tools" (a model whose template has no tools); Gemini's HTTP 200 whose candidate
    has no content and `finishReason: "MALFORMED_FUNCTION_CALL"`."""


Reply = Any  # str | dict | list[dict] (tool calls) | Fail | Delay | Malformed | RefuseTools


def count_tokens(text: str) -> int:
    """The stand-ins' tokenizer: one token per two characters, rounded up."""
    return (len(text) + CHARS_PER_TOKEN - 1) // CHARS_PER_TOKEN


def is_tool_calls(reply: Reply) -> bool:
    return (
        isinstance(reply, list)
        and bool(reply)
        and all(isinstance(c, dict) and "name" in c for c in reply)
    )


def reply_text(reply: Reply) -> str:
    if reply is None:
        return DEFAULT_REPLY
    if isinstance(reply, dict):
        return json.dumps(reply, ensure_ascii=False)
    return str(reply)


def capped(text: str, max_tokens: int | None) -> tuple[str, bool]:
    """The text cut to `max_tokens` tokens, and whether it was cut."""
    if max_tokens is None or count_tokens(text) <= max_tokens:
        return text, False
    return text[: max_tokens * CHARS_PER_TOKEN], True


def chunks(text: str) -> list[str]:
    return [text[i : i + CHUNK_CHARS] for i in range(0, len(text), CHUNK_CHARS)] or [""]


@dataclass
class Call:
    """One request as the stand-in received it."""

    method: str
    path: str
    query: str
    headers: dict[str, str]
    body: Any
    prompt: str = ""
    max_tokens: int | None = None
    schema: Any = None
    tools: list[str] = field(default_factory=list)
    stream: bool = False
    is_model_call: bool = False
    reply: Reply = None
    usage: tuple[int, int] = (0, 0)  # (input, output) tokens reported back


class StandIn:
    """Shared machinery: the server thread, the reply queue and the request record.
    Subclasses provide `routes()`."""

    def __init__(self) -> None:
        self.requests: list[Call] = []
        self._queue: deque[Reply] = deque()
        self._responder: Callable[[Call], Reply] | None = None
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self.url = ""

    # --- scripting -------------------------------------------------------------------
    def script(self, *replies: Reply) -> None:
        """Queue replies: each model request takes the next one."""
        with self._lock:
            self._queue.extend(replies)

    def respond_with(self, responder: Callable[[Call], Reply] | None) -> None:
        """Decide the reply per request once the queue is empty (None: default reply)."""
        self._responder = responder

    def reset(self) -> None:
        """Forget the queue, the responder and the recorded requests."""
        with self._lock:
            self._queue.clear()
            self.requests.clear()
        self._responder = None

    @property
    def calls(self) -> list[Call]:
        return [c for c in self.requests if c.is_model_call]

    def tokens(self) -> tuple[int, int]:
        """(input, output) tokens reported back over every request so far."""
        return (
            sum(c.usage[0] for c in self.requests),
            sum(c.usage[1] for c in self.requests),
        )

    def next_reply(self, call: Call) -> Reply:
        with self._lock:
            if self._queue:
                return self._queue.popleft()
        if self._responder is not None:
            return self._responder(call)
        return None

    def record(self, call: Call) -> None:
        with self._lock:
            self.requests.append(call)

    async def pause(self, seconds: float) -> None:
        """Sleep, but wake when the stand-in closes (so shutdown never waits on it)."""
        await asyncio.to_thread(self._closing.wait, seconds)

    # --- serving ---------------------------------------------------------------------
    def routes(self) -> list[Route]:
        raise NotImplementedError

    def app(self) -> Starlette:
        return Starlette(routes=self.routes())

    def __enter__(self) -> StandIn:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        config = uvicorn.Config(
            self.app(),
            log_level="warning",
            lifespan="off",
            access_log=False,
            timeout_graceful_shutdown=2,
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [sock]}, daemon=True
        )
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError(f"{type(self).__name__} did not start")
            time.sleep(0.01)
        self.url = f"http://127.0.0.1:{port}"
        return self

    def __exit__(self, *exc: object) -> None:
        self._closing.set()
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)


async def read_json(request: Request) -> Any:
    raw = await request.body()
    try:
        return json.loads(raw) if raw else None
    except json.JSONDecodeError:
        return {"_unparsed": raw.decode("utf-8", "replace")}


def new_call(request: Request, body: Any) -> Call:
    return Call(
        method=request.method,
        path=request.url.path,
        query=request.url.query,
        headers={k.lower(): v for k, v in request.headers.items()},
        body=body,
    )


def json_response(payload: Any, status: int = 200) -> Response:
    return Response(
        json.dumps(payload, ensure_ascii=False), status_code=status, media_type="application/json"
    )


def iter_tool_calls(reply: Reply) -> Iterator[tuple[str, dict[str, Any]]]:
    for c in reply:
        yield c["name"], dict(c.get("args") or {})
