"""The clause splitter of the calendar parser.

A posting is read line by line (a line break always ends a clause); a line is cut into
clauses at sentence ends and at the separators postings put between steps: `/`, `|`,
`→`, `->`, `>`, `▶`, `·`, `,`, `;` and a spaced dash (" - ", " – "). A separator inside
parentheses ("(NCS·전공)", "(온라인, 90분)") or inside a date or a time ("3/20", "17:00")
cuts nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# Runs of whitespace are one space before anything is read: every later pattern then scans
# a line in linear time (no `\s*` restarted from each position of a long run).
_SPACES = re.compile(r"\s+")
# Korean connective endings join two clauses of a sentence ("…까지이며 코테는 …").
_SEPARATOR = re.compile(
    r"→|->|=>|➡|▶|>|\||·|,|;|/|[.!?。](?= |$)| [-–—] |(?<=이며|하며|되며|이고|하고|되고) "
)
# Separators that order the steps of a process: two steps on either side are two stages.
FLOW = re.compile(r"→|->|=>|➡|▶|>|\||·|/| [-–—] ")
_OPEN, _CLOSE = "([（【「『", ")]）】」』"


# A written sentence's end and the space after it.
_SENTENCE_BREAK = re.compile(r"(?<=[.!?。])\s+")


def sentences(text: str) -> list[str]:
    """The text's sentences, cut after a full stop, a question or an exclamation mark."""
    return [part.strip() for part in _SENTENCE_BREAK.split(text) if part.strip()]


def lines_of(text: str) -> list[str]:
    """The text's non-blank lines, each with its whitespace runs made one space."""
    return [_SPACES.sub(" ", line).strip() for line in text.splitlines() if line.strip()]


def bracket_depths(line: str) -> list[int]:
    """How many brackets are open at each position of the line (never below zero)."""
    depth, out = 0, []
    for ch in line:
        if ch in _CLOSE and depth:
            depth -= 1
        out.append(depth)
        if ch in _OPEN:
            depth += 1
    return out


def _between_digits(line: str, at: int) -> bool:
    return 0 < at < len(line) - 1 and line[at - 1].isdigit() and line[at + 1].isdigit()


def split_clauses(
    line: str, protected: Iterable[tuple[int, int]] = (), depths: list[int] | None = None
) -> list[tuple[int, int]]:
    """The clauses of a line as (start, end) spans, separators excluded, blank ones dropped.
    `protected` spans (dates, times) and bracketed text are never cut."""
    depths = depths if depths is not None else bracket_depths(line)
    shielded = bytearray(len(line) + 1)
    for s, e in protected:
        shielded[s:e] = b"\x01" * (e - s)
    clauses, at = [], 0
    for m in _SEPARATOR.finditer(line):
        if depths[m.start()] or shielded[m.start()]:
            continue
        if m.group(0) == "/" and _between_digits(line, m.start()):
            continue  # "24/7", or a date the reader did not take
        if line[at : m.start()].strip():
            clauses.append((at, m.start()))
        at = m.end()
    if line[at:].strip():
        clauses.append((at, len(line)))
    return clauses
