"""Document graphs: OCR text extraction and PII mask drafting.

    ocr:     START -(file)-> read_document -> check_ocr_cache -(hit)-> END
             START -(document)------------------> check_ocr_cache -(miss)-> extract_text -> END
    masking: START -(file)-> read_document -> draft_mask -> END
             START -(document)------------------> draft_mask

HTTP routes check the upload before creating the job and pass the checked `document`, so
it is not read and hashed twice; Studio and other callers pass `file_b64`.

Both run as jobs on the document queue (core/jobs.py; see `submit`): the HTTP request gets
a task id at once, or waits with `?wait=true`; any worker process runs them.
"""

from __future__ import annotations

from typing import Any, Literal

from langgraph.graph import END, START, StateGraph

from core.errors import NotFoundError
from core.jobs import Handler, Progress, register_handler
from core.request_limits import charged_to
from core.security import hash_user_id
from core.services import get_services
from nodes.documents import steps
from nodes.documents.state import DocumentInput, DocumentOutput, DocumentState


def _first_step(after_reading: str):
    def route(state: DocumentState) -> str:
        """An upload already checked by the route is not read and hashed a second time."""
        return after_reading if state.get("document") is not None else "read_document"

    return route


def build_ocr_graph() -> StateGraph:
    graph = StateGraph(DocumentState, input_schema=DocumentInput, output_schema=DocumentOutput)
    graph.add_node("read_document", steps.read_document)
    graph.add_node("check_ocr_cache", steps.check_ocr_cache, destinations=("extract_text", END))
    graph.add_node("extract_text", steps.extract_text)
    graph.add_conditional_edges(
        START, _first_step("check_ocr_cache"), ["read_document", "check_ocr_cache"]
    )
    graph.add_edge("read_document", "check_ocr_cache")
    graph.add_edge("extract_text", END)
    return graph


def build_masking_graph() -> StateGraph:
    graph = StateGraph(DocumentState, input_schema=DocumentInput, output_schema=DocumentOutput)
    graph.add_node("read_document", steps.read_document)
    graph.add_node("draft_mask", steps.draft_mask)
    graph.add_conditional_edges(START, _first_step("draft_mask"), ["read_document", "draft_mask"])
    graph.add_edge("read_document", "draft_mask")
    graph.add_edge("draft_mask", END)
    return graph


ocr_builder = build_ocr_graph()
masking_builder = build_masking_graph()
_GRAPHS = {
    "ocr": ocr_builder.compile(name="ocr"),
    "masking": masking_builder.compile(name="masking"),
}


# The upload routes' own error statuses and codes (the OpenAPI document lists them).
DOCUMENT_ERRORS: dict[int, list[str]] = {
    413: ["PAYLOAD_TOO_LARGE", "FILE_TOO_LARGE", "IMAGE_TOO_LARGE", "PAGE_TOO_LARGE"],
    415: ["UNSUPPORTED_FILE_TYPE"],
    422: [
        "INVALID_INPUT",
        "EMPTY_FILE",
        "BROKEN_IMAGE",
        "BROKEN_PDF",
        "ENCRYPTED_PDF",
        "TOO_MANY_PAGES",
    ],
    429: ["RATE_LIMITED", "QUOTA_EXCEEDED"],
    503: ["QUEUE_FULL"],
}


async def submit(
    kind: Literal["ocr", "masking"], data: bytes, user_id: str | None = None
) -> dict[str, Any]:
    """Check the upload now (a bad file is a 4xx, not a failed task), then queue it as a
    job that outlives the request, on any worker; the task belongs to `user_id`."""
    await steps.check_upload(data)
    # The owner is kept as the user's pseudonym: task records hold no raw ids.
    owner = hash_user_id(user_id) if user_id else None
    return await get_services().jobs.submit(kind, data, owner)


def _job_handler(graph: Any) -> Handler:
    async def run(data: bytes, progress: Progress, owner: str | None) -> dict[str, Any]:
        async with charged_to(owner):  # a vision model's tokens count against the uploader
            out = await graph.ainvoke(
                {"file_bytes": data}, {"configurable": {"progress": progress}}
            )
        return out["result"]

    return run


# Every process that imports this module (the API, `make worker`) can run these jobs.
for _kind, _graph in _GRAPHS.items():
    register_handler(_kind, _job_handler(_graph))


TASK_FIELDS = ("task_id", "kind", "status", "progress", "result", "error")


def public_task(record: dict[str, Any]) -> dict[str, Any]:
    """The contract's view of a task record."""
    return {k: record.get(k) for k in TASK_FIELDS}


async def load_task(task_id: str, user_id: str | None = None) -> dict[str, Any]:
    """The contract's view of a task; with `user_id`, another user's task is as unknown as
    a missing one (404 TASK_NOT_FOUND: its existence is not revealed)."""
    record = await get_services().jobs.load(task_id)
    if user_id is not None and record.get("owner") != hash_user_id(user_id):
        raise NotFoundError(f"No task {task_id}", field="task_id", code="TASK_NOT_FOUND")
    return public_task(record)
