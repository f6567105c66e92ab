"""The OpenAPI document as the contract: what every route really answers.

FastAPI describes a route from its signature: the success body, and a 422 in its own
`HTTPValidationError {detail: [...]}` shape that this server never sends. LangServe's routes
declare no error at all. `contract_openapi` rewrites the generated document so a client
generated from it decodes every answer:

- every error response is the contract's `ErrorResponse` (`{"error": {code, message,
  field}}`), with the codes the route can answer listed in the description and in
  `x-error-codes` (a machine-readable list a test holds the server to);
- each route declares the statuses it gives: the ones every `/ai/*` route can give (401
  without a valid key, 429 past the per-key rate, 503 when Redis is unreachable, 500),
  those of a feature run (413, 422, 429 per user and quota, 502/503/504 from the model),
  and the route's own (`route_errors`: 404 SESSION_NOT_FOUND, 409 THREAD_BUSY, ...);
- streaming endpoints answer `text/event-stream` (a failure inside the stream is an
  `error` event carrying the same object; see docs/contract.md);
- FastAPI's validation schemas, now unreferenced, are dropped; upload parts also say
  `format: binary`, so a generated client sends a file.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from typing import Any

from core.errors import ErrorResponse

ERROR_REF = "#/components/schemas/ErrorResponse"
RUNS = ("/invoke", "/batch", "/stream", "/stream_log", "/stream_events", "/events")
STREAMS = ("/stream", "/stream_log", "/stream_events", "/events")

# Every route under /ai/ (the API key, the per-key rate, Redis, a bug).
AI_ERRORS: dict[int, list[str]] = {
    401: ["UNAUTHORIZED"],
    429: ["RATE_LIMITED"],
    500: ["INTERNAL_ERROR"],
    503: ["DEPENDENCY_UNAVAILABLE"],
}
# Every feature run (/invoke, /batch and the streams, before the stream starts).
RUN_ERRORS: dict[int, list[str]] = {
    413: ["PAYLOAD_TOO_LARGE"],
    422: ["INVALID_INPUT"],
    429: ["RATE_LIMITED", "QUOTA_EXCEEDED"],
}
# What a model failure is on /invoke and /batch (inside a stream: an `error` event).
MODEL_ERRORS: dict[int, list[str]] = {
    502: ["MODEL_OUTPUT_INVALID"],
    503: ["MODEL_UNAVAILABLE"],
    504: ["MODEL_TIMEOUT"],
}
_DESCRIPTIONS = {
    400: "Bad request (a config hash that does not decode)",
    401: "Missing or invalid X-API-Key",
    404: "Not found",
    409: "Conflict with the conversation's state",
    413: "Too large",
    415: "Unsupported file type",
    422: "Invalid input",
    429: "Too many requests or quota spent (see Retry-After)",
    500: "Internal error",
    502: "The model answered out of structure",
    503: "A dependency or the model is unavailable (see Retry-After)",
    504: "The model timed out",
}


def _merge(*tables: Mapping[int, list[str]]) -> dict[int, list[str]]:
    merged: dict[int, list[str]] = {}
    for table in tables:
        for status, codes in table.items():
            known = merged.setdefault(status, [])
            known.extend(code for code in codes if code not in known)
    return merged


def route_codes(
    path: str, method: str, route_errors: Mapping[str, Mapping[int, list[str]]]
) -> dict[int, list[str]]:
    """The error statuses and codes of one operation (see the module docstring)."""
    tables: list[Mapping[int, list[str]]] = []
    if path.startswith("/ai/"):
        tables.append(AI_ERRORS)
    run = method == "post" and path.endswith(RUNS)
    if method == "post":  # every body passes the request limits (core/request_limits.py)
        tables.append({413: ["PAYLOAD_TOO_LARGE"], 422: ["INVALID_INPUT"]})
    if run:
        tables.append(RUN_ERRORS)
        if not path.endswith(STREAMS):
            tables.append(MODEL_ERRORS)
    # The longest route prefix that names this path; a feature's own codes apply to its
    # runs only, the document routes' to themselves.
    owners = [p for p in route_errors if path == p or path.startswith(p + "/")]
    if owners and (run or path in route_errors):
        tables.append(route_errors[max(owners, key=len)])
    if "/c/{config_hash}/" in path:  # LangServe's configured variants
        tables.append({400: ["BAD_REQUEST"]})
    return _merge(*tables)


def _error_response(status: int, codes: list[str]) -> dict[str, Any]:
    title = _DESCRIPTIONS.get(status, "Error")
    return {
        "description": f"{title}: {', '.join(codes)}",
        "content": {"application/json": {"schema": {"$ref": ERROR_REF}}},
        "x-error-codes": codes,
    }


def _binary_uploads(node: Any) -> None:
    """An upload part is `{"type": "string", "contentMediaType": ...}` in OpenAPI 3.1 as
    pydantic writes it; client generators read a file from `format: binary` (3.0's way),
    which 3.1 still allows: both are said."""
    if isinstance(node, dict):
        if node.get("type") == "string" and "contentMediaType" in node:
            node.setdefault("format", "binary")
        for value in node.values():
            _binary_uploads(value)
    elif isinstance(node, list):
        for value in node:
            _binary_uploads(value)


def _drop_unused(doc: dict[str, Any], names: tuple[str, ...]) -> None:
    schemas = doc.get("components", {}).get("schemas", {})
    for name in names:
        if name not in schemas:
            continue
        kept = schemas.pop(name)
        if f'"#/components/schemas/{name}"' in json.dumps(doc):
            schemas[name] = kept  # still referenced


def contract_openapi(
    generated: dict[str, Any], route_errors: Mapping[str, Mapping[int, list[str]]]
) -> dict[str, Any]:
    """A copy of FastAPI's generated document rewritten as described above.
    `route_errors` maps a route (`/ai/interview/question`, `/ai/tasks/{task_id}`) to its own
    error statuses and codes."""
    doc = copy.deepcopy(generated)
    schemas = doc.setdefault("components", {}).setdefault("schemas", {})
    error_schema = ErrorResponse.model_json_schema(ref_template="#/components/schemas/{model}")
    schemas.update(error_schema.pop("$defs", {}))
    schemas["ErrorResponse"] = error_schema
    for path, operations in doc.get("paths", {}).items():
        for method, operation in operations.items():
            responses = operation.setdefault("responses", {})
            for status in list(responses):
                if "HTTPValidationError" in json.dumps(responses[status]):
                    del responses[status]  # FastAPI's own 422 shape: never sent
            for status, codes in sorted(route_codes(path, method, route_errors).items()):
                responses.setdefault(str(status), _error_response(status, codes))
            lean = "text/event-stream" in responses.get("200", {}).get("content", {})
            if method == "post" and path.endswith(STREAMS) and "200" in responses and not lean:
                responses["200"] = {
                    "description": "Server-sent events; a failure inside the stream is an "
                    "`error` event carrying the ErrorResponse object",
                    "content": {"text/event-stream": {}},
                }
    _drop_unused(doc, ("HTTPValidationError", "ValidationError"))
    _binary_uploads(schemas)
    return doc
