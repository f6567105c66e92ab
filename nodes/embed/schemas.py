"""Document embedding's contract types: FileEmbedInput / FileEmbedResult."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, StrictStr, field_validator

from core.settings import get_settings
from nodes.interview.schemas import ID_PATTERN

DocType = Literal["resume", "posting", "portfolio", "note"]


class FileEmbedInput(BaseModel):
    model_config = ConfigDict(extra="ignore")

    user_id: StrictStr = Field(pattern=ID_PATTERN)
    doc_id: StrictStr = Field(pattern=ID_PATTERN)
    doc_type: DocType
    text: StrictStr

    @field_validator("text")
    @classmethod
    def _text_bounds(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be empty or whitespace")
        limit = get_settings().max_input_chars
        if len(value) > limit:
            raise ValueError(f"must be at most {limit} characters (got {len(value)})")
        return value


class FileEmbedResult(BaseModel):
    doc_id: str
    chunks: int
    collection: str
    replaced: int
