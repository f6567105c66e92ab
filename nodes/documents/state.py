"""The document graphs' (OCR, masking) input, output and state."""

from __future__ import annotations

from typing import Any

from typing_extensions import TypedDict

from scan.intake import Document


class DocumentInput(TypedDict, total=False):
    file_b64: str  # Studio / JSON callers
    file_bytes: bytes | None  # in-process callers
    document: Document  # the HTTP routes, which checked the upload before creating the job


class DocumentOutput(TypedDict):
    result: dict[str, Any]


class DocumentState(DocumentInput, DocumentOutput, total=False):
    cache_key: str
