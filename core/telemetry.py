"""Prometheus metrics and one JSON log line per request (no raw personal data)."""

from __future__ import annotations

import json
import logging
import os
import time
import traceback
import uuid
from contextvars import ContextVar
from typing import Any

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.outputs import LLMResult
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from core.settings import Settings


def _multiprocess_dir() -> str | None:
    """The directory of prometheus-client's multiprocess mode, or None when it is off.

    Several worker processes (`uvicorn --workers N`) each count only what they served, and
    a scrape reaches one of them: /metrics would jump between partial counts. With
    PROMETHEUS_MULTIPROC_DIR set (read by prometheus-client when it is imported, so it must
    be in the environment before the process starts), every process writes its values to
    files there and /metrics merges them. The launcher creates the directory and empties it
    before the first worker starts (files of earlier runs would be summed in)."""
    if "PROMETHEUS_MULTIPROCESS_DIR" in os.environ and not any(
        name in os.environ for name in ("PROMETHEUS_MULTIPROC_DIR", "prometheus_multiproc_dir")
    ):  # a plausible spelling that prometheus-client ignores: metrics would split silently
        raise RuntimeError(
            "PROMETHEUS_MULTIPROCESS_DIR is not read by prometheus-client: "
            "set PROMETHEUS_MULTIPROC_DIR instead"
        )
    for name in ("PROMETHEUS_MULTIPROC_DIR", "prometheus_multiproc_dir"):
        if name in os.environ:  # prometheus-client switches on the name alone, even if empty
            path = os.environ[name]
            if not path or not os.path.isdir(path):
                raise RuntimeError(f"{name}={path!r} is not a directory (create it first)")
            return path
    return None


MULTIPROCESS_DIR = _multiprocess_dir()

# Counters and histograms need nothing more in multiprocess mode: their values are summed
# over every process that ever ran since the directory was emptied (a restarted worker's
# counts are kept, so totals never go down). Each Gauge must say how its per-process values
# combine (`multiprocess_mode`); the default, "all", exports one series per pid, which
# piles up as workers restart and is wrong to sum in a dashboard: no gauge here uses it.

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
TTFT = Histogram(
    "devths_time_to_first_token_seconds",
    "Time from request start to the first model token, per route",
    ["route"],
    buckets=(0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60),
)
RETRIEVAL_SECONDS = Histogram(
    "devths_retrieval_seconds",
    "Vector store query latency",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5),
)
ERRORS = Counter("devths_errors_total", "Errors reported to clients, by code", ["route", "code"])
# origin: "request" (on a request's path, which the user waits for) or "background"
# (prefetches, evals, benchmarks: no request in the context).
MODEL_CALLS = Counter(
    "devths_model_calls_total", "Chat model calls", ["feature", "model", "origin"]
)
MODEL_TOKENS = Counter(
    "devths_model_tokens_total", "Chat model tokens", ["feature", "model", "direction"]
)
# A model call that failed (after its retries) and was handed to the next model of the
# feature's chain (core/models.py): from/to are "provider:model" specs, reason one of
# rate_limited, server_error, unavailable, timeout, malformed_output, rejected,
# tool_refused, error (unexpected). Bounded: specs come from configuration.
MODEL_FALLBACKS = Counter(
    "devths_model_fallbacks_total",
    "Model calls handed to the next model of the chain, by reason",
    ["from", "to", "reason"],
)

LIMIT_REFUSALS = Counter(
    "devths_limit_refusals_total", "Requests refused by a limit (user, key, quota)", ["limit"]
)
QUOTA_TOKENS = Counter("devths_quota_tokens_total", "Model tokens charged to user quotas")
DEGENERATE = Counter(
    "devths_degenerate_outputs_total",
    "Model texts replaced by grounded text because they were junk (loop, prompt echo, "
    "not Korean, empty), by feature and reason",
    ["feature", "reason"],
)
# "livesum": the server's in-flight total is the sum over its processes, and only over the
# live ones: a dead worker's requests ended with it (its file is dropped at shutdown by
# mark_process_dead_on_exit, and by the next scrape if it died without shutting down).
IN_FLIGHT = Gauge(
    "devths_requests_in_flight",
    "HTTP requests being served, streams until their last byte (a scrape counts itself)",
    multiprocess_mode="livesum",
)

access_log = logging.getLogger("devths.access")

# One mutable record per HTTP request, shared with everything the request runs (graph
# tasks copy the context, and so see the same dict): user hash, tokens, first token, error.
REQUEST: ContextVar[dict[str, Any] | None] = ContextVar("devths_request", default=None)


def note_request(**values: Any) -> None:
    """Add facts to the current request's log line (no-op outside a request)."""
    record = REQUEST.get()
    if record is not None:
        record.update(values)


def note_error(code: str) -> None:
    note_request(error=code)


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
        record = REQUEST.get()
        if record is not None:  # what the call costs if it never reports usage (see on_llm_error)
            prompt_chars = sum(len(getattr(m, "text", "")) for batch in messages for m in batch)
            record.setdefault("_pending", {})[kwargs.get("run_id")] = [prompt_chars, 0]
        MODEL_CALLS.labels(*self.labels, "request" if record is not None else "background").inc()
        if record is not None:
            record["model_calls"] = record.get("model_calls", 0) + 1

    def on_llm_new_token(  # type: ignore[override]  # only the token is needed
        self, token: Any, **kwargs: Any
    ) -> None:
        record = REQUEST.get()
        if record is not None and token and "first_token_at" not in record:
            record["first_token_at"] = time.perf_counter()
        pending = (record or {}).get("_pending", {}).get(kwargs.get("run_id"))
        if pending is not None and token:
            pending[1] += 1

    def on_llm_error(self, error: BaseException, **kwargs: Any) -> None:
        """A call cut short (the client left mid-stream, a timeout, a provider error)
        reports no usage, but the provider still billed the prompt and what it streamed:
        the request record (and so the user's quota) gets an estimate, one token per
        prompt character and per streamed chunk (an overestimate for most tokenizers)."""
        record = REQUEST.get()
        pending = (record or {}).get("_pending", {}).pop(kwargs.get("run_id"), None)
        if record is not None and pending is not None:
            record["tokens_input"] = record.get("tokens_input", 0) + pending[0]
            record["tokens_output"] = record.get("tokens_output", 0) + pending[1]

    def on_llm_end(self, response: LLMResult, **kwargs: Any) -> None:
        record = REQUEST.get()
        if record is not None:
            record.get("_pending", {}).pop(kwargs.get("run_id"), None)
        for generations in response.generations:
            for generation in generations:
                usage = getattr(getattr(generation, "message", None), "usage_metadata", None)
                if not usage:
                    continue
                tokens_in, tokens_out = usage.get("input_tokens", 0), usage.get("output_tokens", 0)
                MODEL_TOKENS.labels(*self.labels, "input").inc(tokens_in)
                MODEL_TOKENS.labels(*self.labels, "output").inc(tokens_out)
                if record is not None:
                    record["tokens_input"] = record.get("tokens_input", 0) + tokens_in
                    record["tokens_output"] = record.get("tokens_output", 0) + tokens_out


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
    """This process's registry; in multiprocess mode, the merge of every process's files
    instead (a fresh registry per scrape, as prometheus-client requires: the merge is the
    only collector). The process, platform and GC collectors of the default registry
    describe one process and cannot be merged, so they are not exported in that mode."""
    if MULTIPROCESS_DIR is None:
        return generate_latest(), CONTENT_TYPE_LATEST
    _forget_dead_processes(MULTIPROCESS_DIR)
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry, path=MULTIPROCESS_DIR)
    return generate_latest(registry), CONTENT_TYPE_LATEST


def mark_process_dead_on_exit() -> None:
    """Call at shutdown: drops this process's "live" gauge values (e.g. its in-flight
    requests) from the merged metrics; counters and histograms are kept. No-op when the
    multiprocess mode is off."""
    if MULTIPROCESS_DIR is not None:
        multiprocess.mark_process_dead(os.getpid(), MULTIPROCESS_DIR)


def _forget_dead_processes(path: str) -> None:
    """A worker killed without its shutdown (OOM, SIGKILL) leaves its live gauges behind
    (uvicorn restarts it under a new pid): drop those of pids that no longer exist. The
    directory is local to one host and its pid namespace, as the workers share it."""
    pids = set()
    for name in os.listdir(path):  # gauge_<mode>_<pid>.db
        kind, _, rest = name.partition("_")
        mode, _, digits = rest.removesuffix(".db").partition("_")
        if (
            kind == "gauge"
            and mode.startswith("live")
            and name.endswith(".db")
            and digits.isdigit()
        ):
            pids.add(int(digits))
    for pid in pids:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            multiprocess.mark_process_dead(pid, path)
        except PermissionError:  # alive, owned by another user
            pass


# The endpoints that run a feature's graph: LangServe's, and the lean event stream's.
RUN_SUFFIXES = ("/invoke", "/batch", "/stream", "/stream_events", "/stream_log", "/events")


def _route_of(path: str) -> str:
    """Bounded label values: the feature path, never ids from the URL."""
    if path.startswith("/ai/runs/"):
        return "/ai/runs/{run_id}/events"
    if path.endswith(RUN_SUFFIXES):
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
        status: dict[str, Any] = {"code": 500}
        record: dict[str, Any] = {}
        token = REQUEST.set(record)

        async def timed_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                status["code"] = message["status"]
                status["sent"] = True
            await send(message)

        IN_FLIGHT.inc()
        try:
            await self.app(scope, receive, timed_send)
        finally:
            IN_FLIGHT.dec()
            REQUEST.reset(token)
            elapsed = time.perf_counter() - start
            route = _route_of(scope["path"])
            error = record.get("error")
            if error == "CLIENT_DISCONNECTED" and not status.get("sent"):
                status["code"] = 499  # the client left before an answer: not a server fault
            REQUEST_LATENCY.labels(route, str(status["code"])).observe(elapsed)
            ttft = record.get("first_token_at")
            if ttft is not None:
                TTFT.labels(route).observe(ttft - start)
            if error is None and status["code"] >= 400:
                error = f"HTTP_{status['code']}"
            if error:
                ERRORS.labels(route, error).inc()
            access_log.info(
                {
                    "request_id": uuid.uuid4().hex[:12],
                    "endpoint": route,
                    "method": scope.get("method"),
                    "user_id_hash": record.get("user"),
                    "latency_ms": round(elapsed * 1000, 1),
                    "ttft_ms": None if ttft is None else round((ttft - start) * 1000, 1),
                    "tokens_input": record.get("tokens_input", 0),
                    "tokens_output": record.get("tokens_output", 0),
                    "model_calls": record.get("model_calls", 0),
                    "status_code": status["code"],
                    "success": status["code"] < 400 and error is None,
                    "error": error,
                }
            )
