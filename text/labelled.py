"""Labelled-section text: what models write when the answer must stream readably and still
be parsed ("[강점]\\n- ...\\n[약점]\\n- ..."), plus the llama.cpp grammar that enforces it."""

from __future__ import annotations

import re

MAX_ITEM_CHARS = 200
_ITEM_MARK = re.compile(r"^\s*(?:[-•*·]|\d+[.)])\s*")


def label_line(labels: list[str]) -> re.Pattern[str]:
    names = "|".join(map(re.escape, labels))
    return re.compile(r"^\s*[\[【]?\s*(" + names + r")\s*[\]】]?\s*:?\s*$")


def parse_labelled(text: str, labels: dict[str, str]) -> dict[str, list[str]]:
    """{field: [items]} for each `label -> field` found; lines before any label are ignored."""
    heading = label_line(list(labels))
    fields: dict[str, list[str]] = {}
    current: str | None = None
    for raw in text.splitlines():
        found = heading.match(raw)
        if found:
            current = labels[found.group(1)]
            fields.setdefault(current, [])
            continue
        item = _ITEM_MARK.sub("", raw).strip()
        if current and item:
            fields[current].append(item[:MAX_ITEM_CHARS])
    return fields


def list_grammar(labels: list[str], max_items: int = 2, max_chars: int = 40) -> str:
    """GBNF: each label, in order, followed by 1..max_items "- item" lines of at most
    max_chars characters (Korean costs 2-3 tokens a character on small models: keep the
    whole answer inside the call's token limit, or its last section is cut off)."""
    parts = " ".join(f'"[{label}]\\n" items' for label in labels)
    optional = " ".join(["item?"] * (max_items - 1))
    return (
        f"root  ::= {parts}\n"
        f"items ::= item {optional}\n"
        'item  ::= "- " text "\\n"\n'
        f"text  ::= [^\\n\\[\\]\\- ] [^\\n\\[\\]]{{4,{max_chars - 1}}}\n"
    )
