"""What a question prompt sees of the session: the last turns verbatim (the window) and a
compact running summary of the turns before them. Never the whole history."""

from __future__ import annotations

import re
from typing import Any

from prompts import data_records

WINDOW_TURNS = 3
SUMMARY_LINES = 6
WINDOW_ANSWER_CHARS = 300
SUMMARY_ANSWER_CHARS = 50


def answered(turns: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [t for t in turns if t.get("answer") is not None]


def _gist(answer: str, limit: int) -> str:
    text = re.sub(r"\s+", " ", answer).strip()
    first = re.split(r"(?<=[.!?])\s|(?<=다\.)", text)[0]
    return (first if len(first) <= limit else first[: limit - 1] + "…") or "(무응답)"


def window_text(turns: list[dict[str, Any]], size: int = WINDOW_TURNS) -> str:
    """The last `size` answered question/answer pairs (escaped for a prompt's fence)."""
    recent = answered(turns)[-size:]
    if not recent:
        return "(아직 없음)"
    # The Q/A heads are ours; question and answer are escaped (`data_records`), so an answer
    # cannot pose as a question or a turn of its own.
    records = []
    for t in recent:
        answer = re.sub(r"\s+", " ", t["answer"]).strip()[:WINDOW_ANSWER_CHARS] or "(무응답)"
        records += [("Q:", t["question"]), ("A:", answer)]
    return data_records(records)


def summary_text(turns: list[dict[str, Any]], size: int = WINDOW_TURNS) -> str:
    """One short line per answered turn before the window (the most recent few)."""
    earlier = answered(turns)[:-size] if size else answered(turns)
    if not earlier:
        return "(없음)"
    lines = []
    for t in earlier[-SUMMARY_LINES:]:
        kind = " (꼬리)" if t["depth"] else ""
        lines.append(f"- {t['label']}{kind}: {_gist(t['answer'], SUMMARY_ANSWER_CHARS)}")
    if len(earlier) > SUMMARY_LINES:
        lines.insert(0, f"- (앞선 답변 {len(earlier) - SUMMARY_LINES}개 생략)")
    return "\n".join(lines)


def full_history_text(turns: list[dict[str, Any]]) -> str:
    """Every turn verbatim: what the seed put in each prompt (benchmarks compare with it)."""
    return "\n".join(f"Q: {t['question']}\nA: {t['answer']}" for t in answered(turns)) or "(없음)"
