"""Prometheus metrics and one JSON log line per request (no raw personal data)."""

from __future__ import annotations

import json
import logging
import os
import time
import traceback
import uuid
from typing import Any

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.outputs import LLMResult
from prometheus_client import CONTENT_TYPE_LATEST, Counter, Histogram, generate_latest
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from core.settings import Settings

REQUEST_LATENCY = Histogram(
    "devths_request_seconds",
    "HTTP request latency by route and status",
    ["route", "status"],
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 15, 30, 60, 120),
)
CACHE_LOOKUPS = Counter("devths_cache_lookups_total", "Cache lookups", ["cache", "result"])
JOB_SECONDS = Histogram(
    "devths_job_seconds",
    "Job queue wait and run time",
    ["kind", "phase"],
    buckets=(0.05, 0.1, 0.5, 1, 2, 5, 10, 30, 60, 120, 300),
)
MODEL_CALLS = Counter("devths_model_calls_total", "Chat model calls", ["feature", "model"])
MODEL_TOKENS = Counter(
    "devths_model_tokens_total", "Chat model tokens", ["feature", "model", "direction"]
)

access_log = logging.getLogger("devths.access")


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "timestamp": self.formatTime(record, "%Y-%m-%dT%H:%M:%S%z"),
            "level": record.levelname,
            "logger": record.name,
        }
        if isinstance(record.msg, dict):
            entry.update(record.msg)
        else:
            entry["message"] = record.getMessage()
        if record.exc_info and record.exc_info[0]:
            # Frames only: exception messages may echo user input (personal data).
            entry["exc_type"] = record.exc_info[0].__name__
            entry["traceback"] = "".join(traceback.format_tb(record.exc_info[2])[-6:])
        return json.dumps(entry, ensure_ascii=False)


def configure_logging(level: int = logging.INFO) -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers = [handler]
    root.setLevel(level)


class ModelUsageCallback(BaseCallbackHandler):
    """Counts model calls and tokens per feature and model (attached by the model registry)."""

    run_inline = True

    def __init__(self, feature: str, model: str) -> None:
        self.labels = (feature, model)

    def on_chat_model_start(self, serialized: Any, messages: Any, **kwargs: Any) -> None:
        MODEL_CALLS.labels(*self.labels).inc()

    def on_llm_end(self, response: LLMResult, **kwargs: Any) -> None:
        for generations in response.generations:
            for generation in generations:
                usage = getattr(getattr(generation, "message", None), "usage_metadata", None)
                if usage:
                    MODEL_TOKENS.labels(*self.labels, "input").inc(usage.get("input_tokens", 0))
                    MODEL_TOKENS.labels(*self.labels, "output").inc(usage.get("output_tokens", 0))


def configure_tracing(settings: Settings) -> bool:
    """LangSmith tracing only when asked for *and* a key is set; off and silent otherwise.
    With TRACE_HIDE_IO (default) run inputs and outputs (resumes, answers) are not sent."""
    enabled = settings.langsmith_tracing and bool(settings.langsmith_api_key)
    os.environ["LANGSMITH_TRACING"] = "true" if enabled else "false"
    if enabled and settings.trace_hide_io:
        os.environ.setdefault("LANGSMITH_HIDE_INPUTS", "true")
        os.environ.setdefault("LANGSMITH_HIDE_OUTPUTS", "true")
    return enabled


def metrics_payload() -> tuple[bytes, str]:
    return generate_latest(), CONTENT_TYPE_LATEST


def _route_of(path: str) -> str:
    """Bounded label values: the feature path, never ids from the URL."""
    for suffix in ("/invoke", "/batch", "/stream_events", "/stream_log", "/stream"):
        if path.endswith(suffix):
            return path
    if path.startswith("/ai/tasks/"):
        return "/ai/tasks/{task_id}"
    return path if path in ("/health", "/metrics") else path.rsplit("/", 1)[0] + "/*"


class RequestMetricsMiddleware:
    """Latency histogram and one JSON access-log line per request (pure ASGI: streams
    are timed to their last byte)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = {"code": 500}
        first_body: dict[str, float] = {}

        async def timed_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                status["code"] = message["status"]
            elif message["type"] == "http.response.body" and "t" not in first_body:
                first_body["t"] = time.perf_counter()
            await send(message)

        try:
            await self.app(scope, receive, timed_send)
        finally:
            elapsed = time.perf_counter() - start
            route = _route_of(scope["path"])
            REQUEST_LATENCY.labels(route, str(status["code"])).observe(elapsed)
            access_log.info(
                {
                    "request_id": uuid.uuid4().hex[:12],
                    "endpoint": route,
                    "method": scope.get("method"),
                    "latency_ms": round(elapsed * 1000, 1),
                    "first_byte_ms": round((first_body.get("t", start) - start) * 1000, 1),
                    "status_code": status["code"],
                    "success": status["code"] < 400,
                }
            )
