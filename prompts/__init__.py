"""Prompt templates, one file each, versioned.

A prompt file is Markdown with a small header and two parts:

    ---
    name: analysis/section_summary
    version: 3
    ---
    # system
    ...
    # user
    ... {placeholders} ...

`Prompt.tag` ("name@vN#hash") goes into every cache key, so editing a prompt (even without
bumping the version) never serves answers made by the old text.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

_ROOT = Path(__file__).parent
_HEADER = re.compile(r"^---\n(.*?)\n---\n", re.DOTALL)
_PART = re.compile(r"^# (system|user)\s*$", re.MULTILINE)


@dataclass(frozen=True)
class Prompt:
    name: str
    version: int
    system: str
    user: str
    digest: str

    @property
    def tag(self) -> str:
        return f"{self.name}@v{self.version}#{self.digest}"

    def messages(self, **values: object) -> list[BaseMessage]:
        return [
            SystemMessage(content=self.system.format(**values)),
            HumanMessage(content=self.user.format(**values)),
        ]


def parse_prompt(text: str) -> Prompt:
    header = _HEADER.match(text)
    if header is None:
        raise ValueError("prompt file lacks its --- header ---")
    meta = dict(
        (k.strip(), v.strip())
        for k, _, v in (line.partition(":") for line in header.group(1).splitlines())
    )
    body = text[header.end() :]
    parts = _PART.split(body)
    sections = {parts[i]: parts[i + 1].strip() for i in range(1, len(parts) - 1, 2)}
    return Prompt(
        name=meta["name"],
        version=int(meta["version"]),
        system=sections.get("system", ""),
        user=sections["user"],
        digest=hashlib.sha256(text.encode("utf-8")).hexdigest()[:10],
    )


@lru_cache(maxsize=64)
def load_prompt(name: str) -> Prompt:
    """Load `prompts/<name>.md`, e.g. `load_prompt("analysis/section_summary")`."""
    prompt = parse_prompt((_ROOT / f"{name}.md").read_text(encoding="utf-8"))
    if prompt.name != name:
        raise ValueError(f"prompt file {name}.md declares name {prompt.name!r}")
    return prompt
