"""Chunks of a Korean resume, posting, portfolio or note for retrieval.

Section-aware: headings ("[경력]", "■ 자격요건", "## 프로젝트") start a new chunk and name its
section; inside a section, lines are packed up to `size` characters, and a line longer than
that is cut at sentence ends (then at `size`), with `overlap` characters carried into the
next chunk of the same section. Identical chunks (after whitespace normalisation) are kept
once.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from text.sections import DocKind, split_sections

_SENTENCE_END = re.compile(r"(?<=[.!?。])\s+|(?<=다\.)\s*|(?<=요\.)\s*")


@dataclass(frozen=True)
class Chunk:
    section: str
    text: str

    @property
    def digest(self) -> str:
        return hashlib.sha256(" ".join(self.text.split()).encode()).hexdigest()[:16]


def _pieces(line: str, size: int) -> list[str]:
    if len(line) <= size:
        return [line]
    out: list[str] = []
    for sentence in (s for s in _SENTENCE_END.split(line) if s and s.strip()):
        while len(sentence) > size:
            out.append(sentence[:size])
            sentence = sentence[size:]
        out.append(sentence)
    return out


def chunk_text(text: str, doc_type: str, size: int = 500, overlap: int = 80) -> list[Chunk]:
    kind: DocKind = "posting" if doc_type == "posting" else "resume"
    chunks: list[Chunk] = []
    seen: set[str] = set()
    for section in split_sections(text, kind, max_chars=len(text) + 1):
        # The heading travels with its content: "[접수 기간] 2026.12.15 18:00까지" is still a
        # deadline when read alone (and retrieval sees the section's name).
        current = f"[{section.name}]" if section.name != "개요" else ""
        for line in section.text.splitlines():
            for piece in _pieces(line.strip(), size):
                if current and len(current) + 1 + len(piece) > size:
                    _keep(chunks, seen, Chunk(section.name, current))
                    tail = current[-overlap:] if overlap else ""
                    current = f"{tail} {piece}".strip() if tail else piece
                else:
                    current = f"{current}\n{piece}" if current else piece
        if current and current != f"[{section.name}]":
            _keep(chunks, seen, Chunk(section.name, current))
    return chunks


def _keep(chunks: list[Chunk], seen: set[str], chunk: Chunk) -> None:
    if chunk.digest not in seen:
        seen.add(chunk.digest)
        chunks.append(chunk)
