"""The document routes' contract types: the job a POST answers, the task record a poll
answers, and the OCR / masking results it carries (docs/contract.md, "Document jobs").
Used to describe the routes in the OpenAPI document and to check the task record."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field


class JobAccepted(BaseModel):
    """202: the job was queued; poll `GET /ai/tasks/{task_id}`."""

    task_id: str
    status: Literal["processing"]


class OcrPage(BaseModel):
    page: int
    text: str


class OcrResult(BaseModel):
    extracted_text: str
    pages: list[OcrPage]
    ocr_engine: str
    cached: bool


class DetectedPii(BaseModel):
    type: Literal["name", "phone", "email", "address", "rrn", "birth_date", "url", "face"]
    text: str | None
    coordinates: list[int] = Field(min_length=4, max_length=4)
    confidence: float


class MaskedPage(BaseModel):
    page: int
    width: int
    height: int
    dpi: int | None
    detected_pii: list[DetectedPii]
    masked_image: str


class MaskingResult(BaseModel):
    pages: list[MaskedPage]


class TaskError(BaseModel):
    code: str
    message: str
    field: str | None = None


class TaskRecord(BaseModel):
    """A document job as `GET /ai/tasks/{task_id}` (or a POST with `?wait=true`) shows it:
    `result` is the OCR result for kind "ocr", the masking result for kind "masking", and
    null until the task has completed; `error` is set when it failed."""

    task_id: str
    kind: Literal["ocr", "masking"]
    status: Literal["processing", "completed", "failed"]
    progress: int = Field(ge=0, le=100)
    result: OcrResult | MaskingResult | None
    error: TaskError | None
