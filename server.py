"""The HTTP server: app factory, lifespan, routes. Feature logic lives in graphs/ and nodes/.

Run: `uvicorn server:app` (host/port from HOST/PORT; `make run` does everything).
"""

from __future__ import annotations

import logging
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import Depends, FastAPI, File, Form, Header, Request, UploadFile
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from langserve import add_routes
from pydantic import BaseModel, create_model
from sse_starlette import EventSourceResponse
from starlette.exceptions import HTTPException

from core.api_docs import ASSETS_PATH, docs_asset, drawable_input, redoc_page, swagger_page
from core.checkpoint import ServicesCheckpointer
from core.errors import AIError, as_ai_error, error_body
from core.health import HealthReport, ReadyReport, health_report, readiness_report
from core.lean_stream import check_owner, sse, start_run
from core.openapi import contract_openapi
from core.request_limits import (
    RequestLimitsMiddleware,
    TokenQuotaMiddleware,
    admit,
    admit_upload,
)
from core.security import check_api_key, require_api_key, run_metadata
from core.services import create_services, get_services, set_services
from core.settings import get_settings
from core.streaming import StreamErrorMiddleware, contract_errors
from core.telemetry import (
    REQUEST,
    RequestMetricsMiddleware,
    configure_logging,
    configure_tracing,
    mark_process_dead_on_exit,
    metrics_payload,
    note_error,
)
from core.thread_lock import one_run_per_thread
from core.vector_store import check_topology
from graphs.analysis import build_analysis_graph
from graphs.calendar import build_calendar_graph
from graphs.chat import build_chat_graph
from graphs.documents import DOCUMENT_ERRORS, load_task, public_task
from graphs.documents import submit as submit_document_job
from graphs.embed import build_embed_graph
from graphs.interview import build_interview_graph, build_report_graph
from graphs.warmup import warm_up
from nodes.analysis.schemas import AnalysisResult, AnalyzeInput
from nodes.calendar.schemas import CalendarParseInput, CalendarParseResult
from nodes.chat.schemas import ChatInput, ChatResult
from nodes.documents.schemas import JobAccepted, TaskRecord
from nodes.embed.schemas import FileEmbedInput, FileEmbedResult
from nodes.interview.schemas import (
    InterviewQuestion,
    InterviewReport,
    InterviewReportInput,
    InterviewTurnInput,
)

log = logging.getLogger("devths.server")

# Each route's own error statuses and codes, beside those every /ai/* route and every
# feature run can answer (core/openapi.py): the OpenAPI document lists them, and a test
# holds every real answer to it.
ROUTE_ERRORS: dict[str, dict[int, list[str]]] = {
    "/ai/chat": {409: ["THREAD_BUSY"]},
    "/ai/interview/question": {
        404: ["SESSION_NOT_FOUND"],
        409: ["THREAD_BUSY", "STALE_ANSWER", "INTERVIEW_FINISHED"],
    },
    "/ai/interview/report": {404: ["SESSION_NOT_FOUND"], 409: ["NO_ANSWERS"]},
    "/ai/ocr/extract": DOCUMENT_ERRORS,
    "/ai/masking/draft": DOCUMENT_ERRORS,
    "/ai/tasks/{task_id}": {404: ["TASK_NOT_FOUND"], 422: ["INVALID_INPUT"]},
    "/ai/runs/{run_id}/events": {404: ["RUN_NOT_FOUND"], 422: ["INVALID_INPUT"]},
}


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """Shared clients are created once here and closed on shutdown."""
    settings = get_settings()
    check_topology(settings.web_concurrency, settings.chroma_host)
    configure_tracing(settings)
    services = await create_services(settings)
    set_services(services)
    if settings.job_worker_in_process:
        await services.jobs.start_worker()
    if settings.warm_up_on_start:
        services.warm = False  # until warm_up has run: GET /ready says 503
        services.background.spawn("warm-up", warm_up)  # start-up is not delayed by it
    try:
        yield
    finally:
        await services.aclose()
        set_services(None)
        mark_process_dead_on_exit()


def _validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
    errors = exc.errors()
    first = errors[0] if errors else "Invalid request"
    note_error("INVALID_INPUT")
    if not isinstance(first, dict):  # LangServe reports a broken body as a bare string
        body = {"code": "INVALID_INPUT", "message": str(first), "field": "body"}
        return JSONResponse({"error": body}, 422)
    return JSONResponse({"error": _invalid_field(first)}, status_code=422)


def _invalid_field(error: dict[str, Any]) -> dict[str, Any]:
    """The contract's error for one pydantic/FastAPI validation error: `field` is the path
    inside the feature's input (`resume_text`, `inputs.2.text`), `input` when the wrapper
    itself is missing, and `body` when the body as a whole is wrong."""
    loc = [str(p) for p in error.get("loc", ()) if p != "body"]
    if loc[:1] == ["input"] and len(loc) > 1:
        loc = loc[1:]
    message = str(error.get("msg", "Invalid request")).removeprefix("Value error, ")
    if loc == ["input"] and error.get("type") == "missing":
        message = 'The body must be {"input": {...}}; "input" is missing'
    return {"code": "INVALID_INPUT", "message": message, "field": ".".join(loc) or "body"}


def _ai_error(request: Request, exc: AIError) -> JSONResponse:
    note_error(exc.code)
    return JSONResponse(exc.to_dict(), status_code=exc.status_code, headers=exc.headers)


_HTTP_CODES = {
    400: "BAD_REQUEST",
    404: "NOT_FOUND",
    405: "METHOD_NOT_ALLOWED",
    413: "PAYLOAD_TOO_LARGE",
}
# What each framework error is about: the path, the method, or the body.
_HTTP_FIELDS = {404: "path", 405: "method"}


def _http_error(request: Request, exc: HTTPException) -> JSONResponse:
    """Framework errors (an unknown path, a wrong method, LangServe's own 422s) in the
    contract's shape too."""
    status = exc.status_code
    field = _HTTP_FIELDS.get(status, "body")
    if "config hash" in str(exc.detail).lower():  # LangServe's /c/{config_hash}/ routes
        field = "config_hash"
    elif status == 400:  # a body the framework cannot parse (broken multipart): bad input
        status = 422
    code = _HTTP_CODES.get(status) or ("INVALID_INPUT" if status == 422 else f"HTTP_{status}")
    note_error(code)
    body = {"error": {"code": code, "message": str(exc.detail), "field": field}}
    return JSONResponse(body, status_code=status, headers=exc.headers)


def _unexpected_error(request: Request, exc: Exception) -> JSONResponse:
    known = as_ai_error(exc)  # e.g. Redis unreachable: a coded 503, not a 500
    if known is not None:
        return _ai_error(request, known)
    note_error("INTERNAL_ERROR")
    log.exception("unhandled error", exc_info=exc)
    return JSONResponse(error_body(exc), status_code=500)


# The lean stream's token events: which graph node's model tokens belong to which field of
# the feature's result (other nodes' tokens are internal and not sent).
EVENT_TOKENS: dict[str, dict[str, str]] = {
    "/ai/analyze": {"write_feedback": "feedback"},
    "/ai/chat": {"write_answer": "answer", "call_model": "answer"},
    "/ai/interview/report": {"write_report": "report"},
}
LEAN_STREAM_DOC = (
    "Server-sent events: `run` {run_id}, then `match` (analysis), `token` {field, text}, "
    "`result` (the route's output object) or `error` (the ErrorResponse object), and `end`. "
    "Each has an id; resume with GET /ai/runs/{run_id}/events and Last-Event-ID."
)


LEAN_STREAM_RESPONSE = {"description": LEAN_STREAM_DOC, "content": {"text/event-stream": {}}}


def add_event_route(
    app: FastAPI,
    path: str,
    graph: Any,
    input_type: type,
    feature: str,
    dependencies: list[Any],
) -> None:
    """`POST {path}/events`: the lean event stream of one feature (core/lean_stream.py)."""
    tokens = EVENT_TOKENS.get(path, {})
    request_type = create_model(f"{input_type.__name__}Events", input=(input_type, ...))

    async def events(request: Request, body: BaseModel) -> EventSourceResponse:
        services = get_services()
        record = REQUEST.get() or {}
        metadata = {"feature": feature, "route": request.url.path, "user": record.get("user")}
        # The validated input as a dict, as LangServe hands it to the graph on /invoke.
        given = body.input.model_dump()  # type: ignore[attr-defined]
        run_id = await start_run(services, graph, given, metadata, tokens)
        stream = sse(services, run_id, None)
        return EventSourceResponse(stream, headers={"X-Run-Id": run_id})

    events.__doc__ = f"The lean event stream of {path} (see /ai/runs/{{run_id}}/events)."
    # The body's model is made here, per feature: FastAPI reads it from the annotations.
    events.__annotations__ = {
        "request": Request,
        "body": request_type,
        "return": EventSourceResponse,
    }
    app.post(
        f"{path}/events",
        dependencies=dependencies,
        response_class=EventSourceResponse,
        responses={200: LEAN_STREAM_RESPONSE},
        name=f"{feature}_events",
    )(events)


def create_app() -> FastAPI:
    configure_logging()
    # The API's own pages are served below, behind the key when keys are set.
    app = FastAPI(
        title="devths-ai",
        version="0.1.0",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        openapi_url=None,
    )
    app.add_exception_handler(RequestValidationError, _validation_error)  # type: ignore[arg-type]
    app.add_exception_handler(AIError, _ai_error)  # type: ignore[arg-type]
    app.add_exception_handler(HTTPException, _http_error)  # type: ignore[arg-type]
    app.add_exception_handler(Exception, _unexpected_error)
    # Outermost last: metrics and the log line see every response, 413s included; the
    # quota is charged once the (streamed) response has ended.
    app.add_middleware(TokenQuotaMiddleware)
    app.add_middleware(StreamErrorMiddleware)
    app.add_middleware(RequestLimitsMiddleware)
    app.add_middleware(RequestMetricsMiddleware)
    guarded = [Depends(require_api_key)]

    # path, graph builder, run name, input, output, feature, and for checkpointed threads
    # (prefix, key field, queue): runs of one thread never overlap; with queue a second
    # chat message waits (TURN_WAIT_S) for the one before it, without it a second interview
    # answer while one is being handled is a duplicate and is refused (409 THREAD_BUSY).
    features: list[tuple[str, Any, str, type, type, str, tuple[str, str, bool] | None]] = [
        (
            "/ai/analyze",
            build_analysis_graph,
            "analysis",
            AnalyzeInput,
            AnalysisResult,
            "analysis",
            None,
        ),
        (
            "/ai/chat",
            build_chat_graph,
            "chat",
            ChatInput,
            ChatResult,
            "chat",
            ("chat", "room_id", True),
        ),
        (
            "/ai/interview/question",
            build_interview_graph,
            "interview",
            InterviewTurnInput,
            InterviewQuestion,
            "interview",
            ("interview", "session_id", False),
        ),
        (
            "/ai/interview/report",
            build_report_graph,
            "interview_report",
            InterviewReportInput,
            InterviewReport,
            "interview",
            None,
        ),
        (
            "/ai/calendar/parse",
            build_calendar_graph,
            "calendar",
            CalendarParseInput,
            CalendarParseResult,
            "calendar",
            None,
        ),
        (
            "/ai/file/embed",
            build_embed_graph,
            "file_embed",
            FileEmbedInput,
            FileEmbedResult,
            "embed",
            None,
        ),
    ]
    for path, build, name, input_type, output_type, feature, thread in features:
        graph = build().compile(name=name, checkpointer=ServicesCheckpointer() if thread else None)
        if thread:
            graph = one_run_per_thread(graph, *thread)
        add_routes(
            app,
            contract_errors(graph),
            path=path,
            input_type=drawable_input(input_type),  # a schema the playground can draw
            output_type=output_type,
            dependencies=[*guarded, Depends(admit(input_type, thread and thread[1]))],
            per_req_config_modifier=run_metadata(feature),
        )
        add_event_route(
            app,
            path,
            graph,
            input_type,
            feature,
            [*guarded, Depends(admit(input_type, thread and thread[1]))],
        )

    @app.get(
        "/ai/runs/{run_id}/events",
        dependencies=guarded,
        response_class=EventSourceResponse,
        responses={200: LEAN_STREAM_RESPONSE},
    )
    async def run_events(
        run_id: str,
        user_id: str | None = None,
        last_event_id: str | None = Header(default=None),
    ) -> EventSourceResponse:
        """The events of a run started with `POST {feature}/events`, after `Last-Event-ID`
        (all of them without it): a client that lost its connection continues here, on
        any API process, while the run's events are kept (EVENT_TTL_S)."""
        services = get_services()
        await check_owner(services, run_id, user_id)
        return EventSourceResponse(sse(services, run_id, last_event_id))

    async def document_job(kind: str, file: UploadFile, user_id: str, wait: bool) -> JSONResponse:
        await admit_upload(user_id)
        limit = get_settings().upload_max_bytes
        data = await file.read(limit + 1)  # one byte over the limit is enough to refuse
        record = await submit_document_job(kind, data, user_id)  # type: ignore[arg-type]
        if wait:
            timeout_s = get_settings().job_wait_timeout_s
            record = await get_services().jobs.wait(record["task_id"], timeout_s)
            if record["status"] != "processing":
                return JSONResponse(public_task(record), 200)
        # Not waited for, or not done within JOB_WAIT_TIMEOUT_S: poll GET /ai/tasks/{id}.
        return JSONResponse({"task_id": record["task_id"], "status": "processing"}, 202)

    job_answers: dict[int | str, dict[str, Any]] = {
        200: {"model": TaskRecord, "description": "With ?wait=true: the finished task"},
        202: {"model": JobAccepted, "description": "Queued: poll GET /ai/tasks/{task_id}"},
    }

    @app.post("/ai/ocr/extract", dependencies=guarded, status_code=202, responses=job_answers)
    async def ocr_extract(
        file: UploadFile = File(...), user_id: str = Form(..., min_length=1), wait: bool = False
    ) -> JSONResponse:
        return await document_job("ocr", file, user_id, wait)

    @app.post("/ai/masking/draft", dependencies=guarded, status_code=202, responses=job_answers)
    async def masking_draft(
        file: UploadFile = File(...), user_id: str = Form(..., min_length=1), wait: bool = False
    ) -> JSONResponse:
        return await document_job("masking", file, user_id, wait)

    @app.get("/ai/tasks/{task_id}", dependencies=guarded, response_model=TaskRecord)
    async def task_status(task_id: str, user_id: str | None = None) -> dict[str, Any]:
        return await load_task(task_id, user_id)

    @app.get("/health", response_model=HealthReport)
    async def health() -> dict[str, Any]:
        return await health_report(get_services())

    @app.get(
        "/ready",
        response_model=ReadyReport,
        responses={503: {"model": ReadyReport, "description": "Warming up, or Redis down"}},
    )
    async def ready() -> JSONResponse:
        status, body = await readiness_report(get_services())
        return JSONResponse(body, status)

    async def metrics_key(request: Request) -> None:
        if not get_settings().metrics_public:
            await check_api_key(request)

    @app.get("/metrics", dependencies=[Depends(metrics_key)], response_class=PlainTextResponse)
    async def metrics() -> Response:
        payload, content_type = metrics_payload()
        return Response(payload, media_type=content_type)

    def openapi_document() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = contract_openapi(
                get_openapi(title=app.title, version=app.version, routes=app.routes), ROUTE_ERRORS
            )
        return app.openapi_schema

    app.openapi = openapi_document  # type: ignore[method-assign]
    keyed = [Depends(check_api_key)]

    @app.get("/openapi.json", dependencies=keyed, include_in_schema=False)
    async def openapi() -> JSONResponse:
        return JSONResponse(app.openapi())

    @app.get("/docs", dependencies=keyed, include_in_schema=False)
    async def docs(request: Request) -> HTMLResponse:
        return swagger_page(request.scope.get("root_path", ""), "/openapi.json", "devths-ai")

    @app.get("/redoc", dependencies=keyed, include_in_schema=False)
    async def redoc(request: Request) -> HTMLResponse:
        return redoc_page(request.scope.get("root_path", ""), "/openapi.json", "devths-ai")

    # Their scripts, styles and images, from an installed package (offline, no CDN).
    @app.get(ASSETS_PATH + "/{kind}/{name}", dependencies=keyed, include_in_schema=False)
    async def docs_assets(kind: str, name: str) -> Response:
        return docs_asset(kind, name)

    @app.get("/redoc/logo-mini.svg", dependencies=keyed, include_in_schema=False)
    async def redoc_logo() -> Response:
        return docs_asset("redoc", "logo-mini.svg")

    return app


app = create_app()

if __name__ == "__main__":
    import uvicorn

    uvicorn.run(app, host=os.getenv("HOST", "127.0.0.1"), port=int(os.getenv("PORT", "8000")))
