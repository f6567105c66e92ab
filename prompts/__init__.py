"""Prompt templates, one file each, versioned; and the one way document text enters them.

A prompt file is Markdown with a small header and two parts:

    ---
    name: analysis/section_summary
    version: 3
    data: text
    trusted: document, section
    ---
    # system
    ...
    # user
    문서: {document}
    <data name="section">
    {text}
    </data>

`Prompt.tag` ("name@vN#hash") goes into every cache key, so editing a prompt (even without
bumping the version) never serves answers made by the old text; the hash also covers
`FENCE_VERSION`, so a change to the fencing below is a new tag as well.

Untrusted text (resumes, postings, retrieved passages, interview answers, chat messages)
never enters a prompt as it is. The header sorts every placeholder into one of:

- `data`: multi-line text from documents or users. It may appear only inside a fence region
  (the lines `<data name="...">` ... `</data>` of the user part) and is escaped by
  `escape_data`.
- `inline`: a short phrase from a document (an interview keyword) that a sentence names,
  also in the system part: squashed to one line, quotes and tags neutralised.
- `trusted`: values the code computed (scores, canonical skill names, labels, dates).

When the prompt is rendered, each region becomes one fence (`fence`):

    <data id="3f9a0c1b2d4e" name="section">
    ...
    </data id="3f9a0c1b2d4e">

Nothing inside can close it: `fence` neutralises every fence-like tag in the body (and
`escape_data` already did in the data), so the closing tag never occurs inside. The id is
a hash of the label and the body: it pairs the two tags, and it is deterministic, so the
same inputs give the same prompt (cache keys, greedy decoding and evals stay reproducible);
a document cannot carry the id of the fence it will be put in, as that id depends on the
document itself. Inside, every line of data that could pose as the prompt's own structure
("# system", "### 지시", "[강점]", "SYSTEM:", "사용자:", "---", a chat template's special
tokens) is escaped with a leading backslash. The system parts say that fenced text is
data, never instructions.

A prompt that declares none of the three lists is formatted as it is (used by tests only).
"""

from __future__ import annotations

import hashlib
import re
import string
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

_ROOT = Path(__file__).parent
_HEADER = re.compile(r"^---\n(.*?)\n---\n", re.DOTALL)
_PART = re.compile(r"^# (system|user)\s*$", re.MULTILINE)
_REGION = re.compile(r'^<data name="([a-z_]+)">\n(.*?)\n</data>$', re.MULTILINE | re.DOTALL)
_REGION_MARK = re.compile(r"^</?data\b.*$", re.MULTILINE)

# Bump when what follows changes the text a prompt is rendered to (it is part of the tag).
FENCE_VERSION = 1
FENCE_OPEN = '<data id="{id}" name="{label}">'
FENCE_CLOSE = '</data id="{id}">'
INLINE_MAX_CHARS = 80

# Characters that render as nothing: "\u200b# system" still reads as a heading.
_INVISIBLE = "\u00ad\u200b\u200c\u200d\u200e\u200f\u2060\ufeff"
_GAP = rf"[\s{_INVISIBLE}]*"
# An opening bracket that starts a tag: our fence ("</data"), role tags ("<system>"),
# chat-template special tokens ("<|im_start|>", "[|user|]", "<s>", "[INST]", "<<SYS>>",
# "<start_of_turn>"). A backslash goes right after the bracket: the tag is no longer one.
_TAG = re.compile(
    rf"([<＜〈‹\[［])(?={_GAP}[/／]?{_GAP}"
    r"(?:\||data\b|system\b|user\b|assistant\b|human\b|instructions?\b|prompt\b|s>|inst\]|"
    r"<?/?sys>|start_of_turn|end_of_turn|bos>|eos>|im_start|im_end|endoftext))",
    re.IGNORECASE,
)
# A line that could pose as the prompt's structure: a heading, a bracketed label, a rule,
# a role or speaker header. Escaped with a backslash before its first visible character.
_STRUCTURE = re.compile(
    rf"^({_GAP})"
    r"(?=[#＃\[［【〔〈《<＞>＜]"
    r"|(?:[-=_*~]\s*){3,}$"
    r"|(?:system|user|assistant|human|ai|bot|model|developer|tool|function|instructions?|"
    r"prompt|시스템|사용자|유저|도우미|어시스턴트|챗봇|상담사|면접관|지원자|지시|지시문|"
    r"지시사항|명령|명령어|관리자|운영자|q|a)\s*[:：])",
    re.IGNORECASE,
)


class Escaped(str):
    """Text whose untrusted parts are already escaped (see `data_records`): a prompt puts
    it in its fence as it is instead of escaping it again."""

    __slots__ = ()


def escape_data(text: str) -> str:
    """Untrusted text made safe to place in a fence: line breaks normalised to "\\n", every
    tag-like sequence broken, every line that looks like prompt structure prefixed with a
    backslash. Idempotent: escaping escaped text changes nothing."""
    text = _TAG.sub(r"\1\\", str(text))
    return "\n".join(_STRUCTURE.sub(r"\1\\", line) for line in text.splitlines())


def inline_data(text: str) -> str:
    """A short untrusted phrase for the middle of a sentence: one line, no double quotes
    (the prompts quote it), tags broken, at most INLINE_MAX_CHARS characters."""
    line = " ".join(str(text).split())[:INLINE_MAX_CHARS]
    return escape_data(re.sub(r'["“”„‟＂]', "'", line))


def data_records(records: Iterable[tuple[str, str]]) -> Escaped:
    """Lines `head text` where the head is ours (a speaker, a source) and the text is
    untrusted: the text is escaped, the head is not, so a line inside a message can never
    pose as a head ("도우미: ..." in a user's message becomes "\\도우미: ...")."""
    return Escaped("\n".join(f"{head} {escape_data(text)}" for head, text in records))


def fence(body: str, label: str) -> str:
    """Wrap prompt text in a data fence whose id the body cannot know. Every fence-like tag
    in the body is broken first, so nothing inside can close the fence. Untrusted parts of
    the body must already be escaped (`escape_data`, `data_records`): `Prompt.messages`
    does that for every `data` placeholder."""
    body = _TAG.sub(r"\1\\", body)
    nonce = hashlib.sha256(f"{label}\x1f{body}".encode()).hexdigest()[:12]
    return f"{FENCE_OPEN.format(id=nonce, label=label)}\n{body}\n{FENCE_CLOSE.format(id=nonce)}"


def _placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def _names(value: str | None) -> frozenset[str]:
    return frozenset(n.strip() for n in (value or "").split(",") if n.strip())


@dataclass(frozen=True)
class Prompt:
    name: str
    version: int
    system: str
    user: str
    digest: str
    data: frozenset[str] = field(default_factory=frozenset)
    inline: frozenset[str] = field(default_factory=frozenset)
    trusted: frozenset[str] = field(default_factory=frozenset)

    @property
    def tag(self) -> str:
        return f"{self.name}@v{self.version}#{self.digest}"

    @property
    def placeholders(self) -> set[str]:
        return _placeholders(self.system) | _placeholders(self.user)

    def messages(self, **values: object) -> list[BaseMessage]:
        """The system and user messages. `data` values are escaped and their regions
        fenced, `inline` values squashed to safe phrases, `trusted` values used as given."""
        prepared = dict(values)
        for name in self.data & values.keys():
            value = values[name]
            prepared[name] = value if isinstance(value, Escaped) else escape_data(str(value))
        for name in self.inline & values.keys():
            prepared[name] = inline_data(str(values[name]))

        pieces = _REGION.split(self.user)  # text, (label, body, text)*
        user = [pieces[0].format(**prepared)]
        for label, body, after in zip(pieces[1::3], pieces[2::3], pieces[3::3], strict=True):
            user += [fence(body.format(**prepared), label), after.format(**prepared)]
        return [
            SystemMessage(content=self.system.format(**prepared)),
            HumanMessage(content="".join(user)),
        ]


def _check_declarations(prompt: Prompt) -> None:
    """Every placeholder sorted into exactly one list; data only inside fence regions."""
    lists = (prompt.data, prompt.inline, prompt.trusted)
    if not any(lists):
        return
    declared = prompt.data | prompt.inline | prompt.trusted
    if sum(len(x) for x in lists) != len(declared):
        raise ValueError(f"{prompt.name}: a placeholder is declared in two lists")
    if declared != prompt.placeholders:
        raise ValueError(
            f"{prompt.name}: undeclared {sorted(prompt.placeholders - declared)}, "
            f"unused {sorted(declared - prompt.placeholders)}"
        )
    outside = _placeholders(prompt.system) | _placeholders(_REGION.sub("", prompt.user))
    if prompt.data & outside:
        raise ValueError(f"{prompt.name}: data {sorted(prompt.data & outside)} outside a fence")
    if _REGION_MARK.search(prompt.system) or _REGION_MARK.search(_REGION.sub("", prompt.user)):
        raise ValueError(f"{prompt.name}: a fence region is not closed (or is in the system)")


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
    fenced = "<data" in body
    digest_of = f"{text}\x1ffence-v{FENCE_VERSION}" if fenced else text
    prompt = Prompt(
        name=meta["name"],
        version=int(meta["version"]),
        system=sections.get("system", ""),
        user=sections["user"],
        digest=hashlib.sha256(digest_of.encode("utf-8")).hexdigest()[:10],
        data=_names(meta.get("data")),
        inline=_names(meta.get("inline")),
        trusted=_names(meta.get("trusted")),
    )
    _check_declarations(prompt)
    return prompt


@lru_cache(maxsize=64)
def load_prompt(name: str) -> Prompt:
    """Load `prompts/<name>.md`, e.g. `load_prompt("analysis/section_summary")`."""
    prompt = parse_prompt((_ROOT / f"{name}.md").read_text(encoding="utf-8"))
    if prompt.name != name:
        raise ValueError(f"prompt file {name}.md declares name {prompt.name!r}")
    return prompt
