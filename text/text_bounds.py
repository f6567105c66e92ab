"""The one rule for a document text in any input: not blank, at most MAX_INPUT_CHARS."""

from __future__ import annotations

from core.settings import get_settings


def bounded_text(value: str, allow_blank: bool = False) -> str:
    if not allow_blank and not value.strip():
        raise ValueError("must not be empty or whitespace")
    limit = get_settings().max_input_chars
    if len(value) > limit:
        raise ValueError(f"must be at most {limit} characters (got {len(value)})")
    return value
