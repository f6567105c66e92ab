"""The chat feature's contract types: ChatInput / ChatResult."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictStr, field_validator

from core.ids import ID_PATTERN

Route = Literal["rag", "calendar", "schedule", "general"]
MAX_MESSAGE_CHARS = 2000


class ChatInput(BaseModel):
    model_config = ConfigDict(extra="ignore")

    user_id: StrictStr = Field(pattern=ID_PATTERN)
    room_id: StrictStr = Field(pattern=ID_PATTERN)
    message: StrictStr
    now: datetime | None = None

    @field_validator("message")
    @classmethod
    def _message_bounds(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be empty or whitespace")
        if len(value) > MAX_MESSAGE_CHARS:
            raise ValueError(f"must be at most {MAX_MESSAGE_CHARS} characters (got {len(value)})")
        return value


class ToolCall(BaseModel):
    name: str
    args: dict[str, Any]


class Source(BaseModel):
    doc_id: str
    doc_type: str
    text: str
    score: float


class ChatResult(BaseModel):
    answer: str
    route: Route
    tool_calls: list[ToolCall]
    sources: list[Source]


class RouteChoice(BaseModel):
    route: Route
