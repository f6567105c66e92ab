"""Deterministic skill finding over the curated taxonomy (`skill_taxonomy.txt`).

`find_skills(text)` returns canonical names in order of first appearance. Aliases are
matched longest first, so "자바스크립트" is JavaScript and not Java, and "Spring Boot" is not
also "Spring". ASCII aliases need a non-alphanumeric character on both sides ("Java를" still
matches, "JavaScript" does not match "Java"); Korean aliases may be followed by particles.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

_TAXONOMY_FILE = Path(__file__).with_name("skill_taxonomy.txt")
_ASCII_WORD = r"A-Za-z0-9+#"
# What may stand between two alternatives: "Kotlin 또는 Java", "AWS/GCP", "MySQL이나 PostgreSQL".
_ALTERNATIVE = re.compile(r"\s*(?:이나|나|,)?\s*(?:또는|혹은|or|/|이나|나)\s*", re.IGNORECASE)


@dataclass(frozen=True)
class Taxonomy:
    canonical: dict[str, str]  # lower-cased alias -> canonical (case-insensitive aliases)
    exact: dict[str, str]  # alias -> canonical (case-sensitive aliases)
    category: dict[str, str]  # canonical -> category
    implies: dict[str, frozenset[str]]  # canonical -> canonicals it implies (transitively)
    pattern: re.Pattern[str]

    def normalise(self, name: str) -> str | None:
        """Canonical name of a free-form skill string, or None when it is not in the taxonomy."""
        cleaned = re.sub(r"\s+", " ", name.strip())
        if cleaned in self.exact:
            return self.exact[cleaned]
        return self.canonical.get(cleaned.lower()) or self.canonical.get(
            cleaned.lower().replace(" ", "")
        )

    def spans(self, text: str) -> list[tuple[str, int, int]]:
        """(canonical, start, end) of every skill mention, in text order."""
        out = []
        for match in self.pattern.finditer(text):
            alias = match.group(0)
            canon = self.exact.get(alias) or self.canonical.get(re.sub(r"\s+", " ", alias).lower())
            if canon:
                out.append((canon, match.start(), match.end()))
        return out

    def find(self, text: str) -> list[str]:
        return list(dict.fromkeys(canon for canon, _, _ in self.spans(text)))

    def mentions(self, text: str) -> dict[str, str]:
        """{canonical: the words the text used for it} (first mention): what to show a
        Korean reader ("대용량 트래픽", not "Large-Scale Traffic")."""
        out: dict[str, str] = {}
        for canon, start, end in self.spans(text):
            out.setdefault(canon, text[start:end])
        return out

    def groups(self, text: str) -> list[list[str]]:
        """Skills as requirement groups: mentions joined by "또는", "혹은", "or", "/" or
        "이나" are alternatives ("Kotlin 또는 Java" is one requirement met by either);
        every other mention is a requirement of its own. First mention wins."""
        result: list[list[str]] = []
        seen: set[str] = set()
        previous_end = None
        for canon, start, end in self.spans(text):
            joined = previous_end is not None and _ALTERNATIVE.fullmatch(text[previous_end:start])
            previous_end = end
            if canon in seen:
                continue
            seen.add(canon)
            if joined and result:
                result[-1].append(canon)
            else:
                result.append([canon])
        return result

    def grounded(self, skill: str, text: str) -> bool:
        """Whether the text names the skill, tolerating spacing and punctuation variants the
        strict matcher misses ("Spring-Boot3", "node js"). Short aliases (< 3 characters)
        must match strictly, or "go" would be found in "google"."""
        if skill in self.find(text):
            return True
        squashed = _squash(text)
        aliases = [a for a, c in self.canonical.items() if c == skill]
        aliases += [a for a, c in self.exact.items() if c == skill]
        return any(len(_squash(a)) >= 3 and _squash(a) in squashed for a in aliases)

    def closure(self, skills: Iterable[str]) -> set[str]:
        """The skills plus everything they imply (Spring Boot -> Spring)."""
        out: set[str] = set()
        for skill in skills:
            out.add(skill)
            out |= self.implies.get(skill, frozenset())
        return out


def _squash(text: str) -> str:
    return re.sub(r"[\s\-_.·/]+", "", text).casefold()


def _alias_regex(alias: str) -> str:
    # Spaces in an alias match any run of whitespace ("스프링  부트").
    body = r"\s+".join(re.escape(part) for part in alias.split())
    left = f"(?<![{_ASCII_WORD}])" if re.match(r"[A-Za-z0-9]", alias) else ""
    right = f"(?![{_ASCII_WORD}])" if re.search(r"[A-Za-z0-9+#]$", alias) else ""
    if alias.endswith((".", "+", "#")):
        right = f"(?![{_ASCII_WORD}])" if not alias.endswith(".") else r"(?![A-Za-z0-9])"
    return left + body + right


def parse_taxonomy(text: str) -> Taxonomy:
    canonical: dict[str, str] = {}
    exact: dict[str, str] = {}
    category: dict[str, str] = {}
    direct: dict[str, set[str]] = {}
    section = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or (line.startswith("#") and not line.startswith("##")):
            continue
        if line.startswith("##"):
            section = line.lstrip("#").strip()
            continue
        if section == "implies":
            src, _, dst = (part.strip() for part in line.partition(">"))
            direct.setdefault(src, set()).add(dst)
            continue
        columns = [c.strip() for c in line.split("|") if c.strip()]
        name, aliases = columns[0], columns[1:]
        category[name] = section
        exact_aliases = {a[1:] for a in aliases if a.startswith("=")}
        for alias in aliases:
            if alias.startswith("="):
                exact[alias[1:]] = name
            else:
                canonical[re.sub(r"\s+", " ", alias).lower()] = name
        # Single letters ("C", "R") never match alone; "=Go" makes "Go" case-sensitive.
        if len(name) >= 2 and name not in exact_aliases:
            canonical[name.lower()] = name
        if len(name) >= 2 and name not in exact_aliases:
            canonical.setdefault(name.lower().replace(" ", ""), name)
    for src, dsts in direct.items():
        if src not in category or any(d not in category for d in dsts):
            raise ValueError(f"implies line names an unknown skill: {src} > {dsts}")
    implies = {src: frozenset(_transitive(src, direct)) for src in direct}
    aliases = sorted(set(canonical) | set(exact), key=len, reverse=True)
    # Case-insensitive aliases are compared lower-cased after matching; exact ones as written.
    alternatives = [_alias_regex(a) for a in aliases]
    pattern = re.compile("|".join(alternatives), re.IGNORECASE)
    return Taxonomy(canonical, exact, category, implies, pattern)


def _transitive(src: str, direct: dict[str, set[str]]) -> set[str]:
    seen: set[str] = set()
    stack = list(direct.get(src, ()))
    while stack:
        skill = stack.pop()
        if skill not in seen:
            seen.add(skill)
            stack.extend(direct.get(skill, ()))
    return seen


@lru_cache(maxsize=1)
def taxonomy() -> Taxonomy:
    return parse_taxonomy(_TAXONOMY_FILE.read_text(encoding="utf-8"))


def find_skills(text: str) -> list[str]:
    return taxonomy().find(text)


def normalise_skills(names: Iterable[str]) -> list[str]:
    """Canonical names of free-form skills (e.g. from a model); unknown names are dropped."""
    out: dict[str, None] = {}
    for name in names:
        canon = taxonomy().normalise(name)
        if canon:
            out.setdefault(canon, None)
    return list(out)
