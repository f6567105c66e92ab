"""The calendar parser's contract types and the model's structured answer."""

from __future__ import annotations

import datetime
from datetime import date
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, StrictStr, field_validator

from text.text_bounds import bounded_text

StageType = Literal["DOCUMENT", "CODING_TEST", "INTERVIEW", "OTHER"]


class CalendarParseInput(BaseModel):
    model_config = ConfigDict(extra="ignore")

    text: StrictStr
    now: date | None = None
    # Optional (contract v1.2): whose posting it is, for the per-user rate limit and token
    # quota. Without it only the per-key limit applies.
    user_id: StrictStr | None = Field(default=None, pattern=r"^[A-Za-z0-9_.@-]{1,128}$")

    @field_validator("text")
    @classmethod
    def _text_bounds(cls, value: str) -> str:
        return bounded_text(value)


class Schedule(BaseModel):
    stage: str
    stage_type: StageType
    # datetime.date by the module's name: inside the class, the field `date` hides the type
    date: datetime.date | None
    # contract v1.5: an application period keeps both ends ("접수 9.8 ~ 9.21": date 9.21,
    # start_date 9.8); null for a single day
    start_date: datetime.date | None = None
    time: str | None = Field(default=None, pattern=r"^\d{2}:\d{2}$")


class CalendarParseResult(BaseModel):
    company: str | None
    position: str | None
    schedules: list[Schedule]
    hashtags: list[str]


class PostingHeader(BaseModel):
    """What the model is asked for when the text does not say it in a known form."""

    company: str | None = Field(default=None, max_length=40)
    position: str | None = Field(default=None, max_length=60)
