"""Document embedding's contract types: FileEmbedInput / FileEmbedResult."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, StrictStr, field_validator

from core.ids import ID_PATTERN
from text.text_bounds import bounded_text

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
        return bounded_text(value)


class FileEmbedResult(BaseModel):
    doc_id: str
    chunks: int
    collection: str
    replaced: int
