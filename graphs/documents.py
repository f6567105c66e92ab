"""Document graphs: OCR text extraction and PII mask drafting.

    ocr:     START -> read_document -> check_ocr_cache --hit--> END
                                             | miss
                                        extract_text -> END
    masking: START -> read_document -> draft_mask -> END

Both run as jobs (see `submit`): the HTTP request gets a task id at once, or waits with
`?wait=true`.
"""

from __future__ import annotations

from typing import Any, Literal

from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict

from core.jobs import Progress
from core.services import get_services
from nodes.documents import steps
from nodes.documents.intake import Document


class DocumentInput(TypedDict, total=False):
    file_b64: str  # for Studio / JSON callers; the HTTP routes pass bytes
    file_bytes: bytes | None


class DocumentOutput(TypedDict):
    result: dict[str, Any]


class DocumentState(DocumentInput, DocumentOutput, total=False):
    document: Document
    cache_key: str


def build_ocr_graph() -> StateGraph:
    graph = StateGraph(DocumentState, input_schema=DocumentInput, output_schema=DocumentOutput)
    graph.add_node("read_document", steps.read_document)
    graph.add_node("check_ocr_cache", steps.check_ocr_cache, destinations=("extract_text", END))
    graph.add_node("extract_text", steps.extract_text)
    graph.add_edge(START, "read_document")
    graph.add_edge("read_document", "check_ocr_cache")
    graph.add_edge("extract_text", END)
    return graph


def build_masking_graph() -> StateGraph:
    graph = StateGraph(DocumentState, input_schema=DocumentInput, output_schema=DocumentOutput)
    graph.add_node("read_document", steps.read_document)
    graph.add_node("draft_mask", steps.draft_mask)
    graph.add_edge(START, "read_document")
    graph.add_edge("read_document", "draft_mask")
    graph.add_edge("draft_mask", END)
    return graph


ocr_builder = build_ocr_graph()
masking_builder = build_masking_graph()
_GRAPHS = {
    "ocr": ocr_builder.compile(name="ocr"),
    "masking": masking_builder.compile(name="masking"),
}


async def submit(kind: Literal["ocr", "masking"], data: bytes) -> dict[str, Any]:
    """Check the upload now (a bad file is a 4xx, not a failed task), then run the graph
    as a job that outlives the request."""
    await steps.read_document({"file_bytes": data})
    graph = _GRAPHS[kind]

    async def work(progress: Progress) -> dict[str, Any]:
        out = await graph.ainvoke({"file_bytes": data}, {"configurable": {"progress": progress}})
        return out["result"]

    jobs = get_services().jobs
    if jobs is None:  # pragma: no cover - every Services has a runner
        raise RuntimeError("no job runner")
    return await jobs.submit(kind, work)


TASK_FIELDS = ("task_id", "kind", "status", "progress", "result", "error")


def public_task(record: dict[str, Any]) -> dict[str, Any]:
    """The contract's view of a task record."""
    return {k: record.get(k) for k in TASK_FIELDS}
