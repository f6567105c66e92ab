"""Deterministic skill finding over the curated taxonomy (`skill_taxonomy.txt`).

`find_skills(text)` returns canonical names in order of first appearance. The rules:

- Aliases are matched longest first, so "자바스크립트" is JavaScript and not Java, and
  "Spring Boot" is not also "Spring". Spaces inside an alias match any spacing ("스프링부트",
  "Spring-Boot", "데이터파이프라인").
- ASCII aliases need a non-word character on both sides ("Java를" matches, "JavaScript" does
  not contain Java). A version written onto a name still counts ("Java17", "ROS2", "YOLOv8",
  "i.MX8", "ES6+"), and so does an acronym's plural ("SLOs").
- Korean aliases may be followed by particles or glued nouns ("도커를", "쿠버네티스환경"); a
  short one (up to 3 syllables) must not be the tail of a longer Korean word ("일러스트" is not
  러스트).
- `=Alias` is case-sensitive ("Go", not "go"). `?Alias` is case-sensitive and ambiguous (C, R,
  Ray, CAN, SPI, Dio, Bloc ...): it counts only next to another skill (within
  `CONTEXT_CHARS`), and if Korean follows, only a particle ("C로", not "C사").
  `?Alias@cat,Skill` counts only next to a skill of those categories or names ("노드" is
  Node.js next to TypeScript, not next to BLE).
- `re:` aliases are regular expressions for phrases ("led a team of 3") or contexts
  ("모델링" only after "웨어하우스").
- Lines under `## look-alikes` are phrases that are not skills ("R&D", "Go to market", "Spring
  2021", "하이브리드"): matched like aliases, they hide the skill-looking words inside them.
- A skill the text says the writer has not used is not a skill ("Compose는 아직 사용해 보지
  않았습니다", "no experience with Kafka").
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

_TAXONOMY_FILE = Path(__file__).with_name("skill_taxonomy.txt")
_ASCII_WORD = r"A-Za-z0-9+#_"  # "_": "rag_english_mixed" is an identifier, not English
_HANGUL = "가-힣"
# What may stand between two alternatives: "Kotlin 또는 Java", "AWS/GCP", "MySQL이나 PostgreSQL".
# What joins two mentions into alternatives ("Kotlin 또는 Java", "A/B", "A나 B"; also read
# by the analysis for the fields a years requirement names).
ALTERNATIVE = re.compile(r"\s*(?:이나|나|,)?\s*(?:또는|혹은|or|/|이나|나)\s*", re.IGNORECASE)
# How far (characters between the two mentions) an ambiguous alias may be from another skill.
CONTEXT_CHARS = 60
# A version written onto a name ("Java17", "Vue3", "YOLOv8", "i.MX8M", "ES6+").
_VERSION = r"(?:[vV]?\d+(?:\.\d+)*[A-Za-z]?\+?)?"
# What may follow an ambiguous alias in Korean: a particle or a word that makes it a skill.
_KOREAN_AFTER_AMBIGUOUS = (
    r"(?:(?:[은는이가을를의에와과도만랑]|에서|으로|로|이나|나|이랑|까지|부터|및|등)(?![가-힣])"
    r"|언어|통신|기반|개발|프로그래밍|코딩|사용|활용|경험|프로토콜|인터페이스|드라이버)"
)
# A list of mentions on one line, and what makes it a choice: "A, B, C 중 하나 이상",
# "A, B 중 1개 이상", "one of A, B or C".
_RUN_SEPARATOR = re.compile(
    r"[ \t]*(?:[,/·]|및|와|과|또는|혹은|or|and|이나|나)?[ \t]*", re.IGNORECASE
)
# A list said to be a choice, or examples of a kind ("Amplitude, GA4 등 분석 툴", "MySQL,
# PostgreSQL 같은 RDBMS", "such as Braze or Iterable"): any one of them shows it.
_CHOICE_AFTER = re.compile(
    r"[ \t]*\)?[ \t]*(?:(?:중|가운데)[ \t]*(?:하나|한[ \t]*가지|1[ \t]*개|택[ \t]*1|최소)|"
    r"등(?![가-힣])|등의|등을|등에|(?:과|와)?[ \t]*같은|처럼|etc\.?)"
)
_CHOICE_BEFORE = re.compile(
    r"\b(?:(?:one|any|either)\s+of\s*(?:the\s+following)?|such\s+as|e\.g\.,?|like)\s*[:(]?\s*$",
    re.I,
)
# Between two items of a list: "UART/SPI", "C, R", "CAN 및 LIN".
_LIST_SEPARATOR = re.compile(r"\s*(?:[,/·|&+]|및|와|과|or|and)?\s*", re.IGNORECASE)
# A clause: negation reaches the mentions of its own clause only.
_CLAUSE_END = re.compile(r"\n|[.!?;](?:\s|$)|(?:지만|으나|는데|but|however)\b", re.IGNORECASE)
# "... 경험은 없습니다", "사용해 보지 않았습니다", "써 본 적 없음": after the mention, same clause.
_NEGATED_AFTER = re.compile(
    r"(?:경험|경력|사용|써\s*보|써\s*본|해\s*보|해\s*본|다뤄\s*보|다뤄\s*본|접해\s*보|아직)"
    r"[^\n.,]{0,12}?(?:없습니다|없음|없다|없어요|없고|없으며|없지만|않았|않습니다|못\s*했|안\s*해\s*봤)"
)
# What may stand between a mention and its negation: a particle, "아직", a word or two
# ("보안 전문 경력은 없음", "iOS 앱 개발 경험은 없습니다"), never a comma or another clause.
_TO_NEGATION = re.compile(r"[\s은는이가을를도만의]*(?:아직\s*)?(?:[가-힣A-Za-z]{1,4}\s+){0,2}")
# "no experience with", "never used", "have not worked with": before the mention.
_NEGATED_BEFORE = re.compile(
    r"(?:\b(?:no|never|not|without)|n't)\b(?:\s+(?:yet|any|real|hands-on|professional))*"
    r"\s+(?:experience|exposure|used|worked|touched|familiar)\b[^.\n]*$",
    re.IGNORECASE,
)
# "No Android experience", "no React or Vue background": "no" a few words before, the
# experience word after.
_NO_BEFORE = re.compile(r"\bno\s+(?:[\w/.+#-]+[\s,/]+){0,3}$", re.IGNORECASE)
_EXPERIENCE_AFTER = re.compile(
    r"\s*(?:[\w/.+#-]+[\s,/]+){0,3}?(?:experience|exposure|background)\b", re.IGNORECASE
)


@dataclass(frozen=True)
class _Alias:
    canonical: str | None  # None: a look-alike (matched, then dropped)
    ambiguous: bool = False
    # For an ambiguous alias: the categories or skills whose mentions count as context
    # ("?노드@backend,frontend,TypeScript"); empty: any skill.
    context: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Taxonomy:
    canonical: dict[str, str]  # lower-cased alias -> canonical (case-insensitive aliases)
    exact: dict[str, str]  # alias -> canonical (case-sensitive aliases, "=" and "?")
    category: dict[str, str]  # canonical -> category
    implies: dict[str, frozenset[str]]  # canonical -> canonicals it implies (transitively)
    # First character (lower-cased) -> the aliases that can start with it, as one pattern
    # whose group i+1 is alias i (its canonical, None for a look-alike, and whether it needs
    # context). One giant alternation tried every alias at every position: 100x slower.
    dispatch: dict[str, tuple[re.Pattern[str], tuple[_Alias, ...]]]
    ambiguous: frozenset[str] = frozenset()  # case-sensitive aliases that need context
    field_words: dict[str, str] = field(default_factory=dict)  # lower-cased word -> category
    _loose: dict[str, re.Pattern[str]] = field(default_factory=dict, compare=False)

    def normalise(self, name: str) -> str | None:
        """Canonical name of a free-form skill string, or None when it is not in the taxonomy.
        A version is ignored ("Python 3.11" is Python)."""
        cleaned = re.sub(r"\s+", " ", name.strip())
        for candidate in (cleaned, re.sub(r"\s*[vV]?\d+(?:\.\d+)*\+?$", "", cleaned)):
            if not candidate:
                continue
            if candidate in self.exact:
                return self.exact[candidate]
            found = self.canonical.get(candidate.lower()) or self.canonical.get(
                candidate.lower().replace(" ", "")
            )
            if found:
                return found
        # Regular-expression aliases: the whole name must be one mention.
        raw = [s for s in self._raw_spans(cleaned) if s[0] is not None]
        if len(raw) == 1 and raw[0][1] == 0 and raw[0][2] >= len(cleaned.rstrip("+ ")):
            return raw[0][0]
        return None

    def _raw_spans(self, text: str) -> list[tuple[str | None, int, int, _Alias]]:
        """Leftmost, non-overlapping matches (as `finditer` would give), look-alikes
        included."""
        out = []
        pos, end = 0, len(text)
        while pos < end:
            entry = self.dispatch.get(text[pos].lower())
            match = entry[0].match(text, pos) if entry else None
            if match is None or match.end() == pos:
                pos += 1
                continue
            # A match comes from an entry, and every alternative is one capturing group.
            assert entry is not None and match.lastindex is not None
            meta = entry[1][match.lastindex - 1]
            out.append((meta.canonical, match.start(), match.end(), meta))
            pos = match.end()
        return out

    def spans(self, text: str) -> list[tuple[str, int, int]]:
        """(canonical, start, end) of every skill mention, in text order: look-alikes
        dropped, ambiguous aliases kept only next to another skill, negated mentions
        dropped."""
        raw = [(c, s, e, m) for c, s, e, m in self._raw_spans(text) if c is not None]
        accepted = [not meta.ambiguous for _, _, _, meta in raw]
        # Two ambiguous skills of one kind listed together vouch for each other ("UART/SPI").
        for i in range(len(raw) - 1):
            (canon, _, end, meta), (other, start, _, other_meta) = raw[i], raw[i + 1]
            if (
                meta.ambiguous
                and other_meta.ambiguous
                and canon != other
                and self.category[canon] == self.category[other]
                and not meta.context
                and not other_meta.context
                and _LIST_SEPARATOR.fullmatch(text[end:start])
            ):
                accepted[i] = accepted[i + 1] = True

        def vouches(j: int, context: frozenset[str]) -> bool:
            canon = raw[j][0]
            return not context or canon in context or self.category[canon] in context

        changed = True
        while changed:  # an accepted ambiguous mention is context for its neighbours
            changed = False
            for i, (_, start, end, meta) in enumerate(raw):
                if accepted[i]:
                    continue
                if any(
                    accepted[j]
                    and _gap(start, end, raw[j][1], raw[j][2]) <= CONTEXT_CHARS
                    and vouches(j, meta.context)
                    for j in range(len(raw))
                    if j != i
                ):
                    accepted[i] = changed = True
        kept = [
            (canon, start, end)
            for (canon, start, end, _), ok in zip(raw, accepted, strict=True)
            if ok
        ]
        negated = [_negated(text, start, end) for _, start, end in kept]
        # "React, Vue 경험은 없습니다": a list shares its last item's negation.
        for i in range(len(kept) - 2, -1, -1):
            if negated[i + 1] and _LIST_SEPARATOR.fullmatch(text[kept[i][2] : kept[i + 1][1]]):
                negated[i] = True
        return [span for span, no in zip(kept, negated, strict=True) if not no]

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
        "이나" are alternatives ("Kotlin 또는 Java" is one requirement met by either), and
        so is a list said to be a choice ("Java, Python, Go 중 하나 이상", "one of A, B")
        and a class with its examples ("Kafka 등 메시지 큐", "CRM(Salesforce 등)",
        "Salesforce or another CRM": any member meets it); every other mention is a
        requirement of its own. First mention wins."""
        spans = self.spans(text)
        run = _choice_runs(text, spans)
        result: list[list[str]] = []
        seen: set[str] = set()
        previous_end = None
        for i, (canon, start, end) in enumerate(spans):
            joined = previous_end is not None and (
                ALTERNATIVE.fullmatch(text[previous_end:start])
                or (run[i] is not None and run[i] == run[i - 1])
                or _exemplifies(text, previous_end, start, end)
            )
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
        strict matcher misses ("Spring-Boot3", "node js"). Loose matches keep word
        boundaries ("gin" is not in "engine") and need 3 characters; ambiguous aliases
        must match strictly."""
        if skill in self.find(text):
            return True
        if skill not in self._loose:
            aliases = [a for a, c in self.canonical.items() if c == skill]
            aliases += [a for a, c in self.exact.items() if c == skill and a not in self.ambiguous]
            loose = [_loose_regex(a) for a in aliases if len(_squash(a)) >= 3]
            self._loose[skill] = re.compile("|".join(loose) or r"(?!x)x", re.IGNORECASE)
        return bool(self._loose[skill].search(text))

    def fields_named(self, words: Iterable[str]) -> set[str]:
        """The categories (job fields) these words name: "인사" is hr, "backend" backend."""
        return {self.field_words[w.lower()] for w in words if w.lower() in self.field_words}

    def fields_of(self, skills: Iterable[str]) -> set[str]:
        """The job fields these skills belong to (only categories that have field words)."""
        fields = set(self.field_words.values())
        return {c for c in (self.category.get(s) for s in skills) if c in fields}

    def closure(self, skills: Iterable[str]) -> set[str]:
        """The skills plus everything they imply (Spring Boot -> Spring)."""
        out: set[str] = set()
        for skill in skills:
            out.add(skill)
            out |= self.implies.get(skill, frozenset())
        return out


def _choice_runs(text: str, spans: list[tuple[str, int, int]]) -> list[int | None]:
    """For each mention, the index of the first mention of the "one of" list it belongs to
    ("Triton, BentoML, KServe 중 하나 이상", "any of Go, Rust"), else None."""
    out: list[int | None] = [None] * len(spans)
    first = 0
    for i in range(1, len(spans) + 1):
        if i < len(spans) and _RUN_SEPARATOR.fullmatch(text[spans[i - 1][2] : spans[i][1]]):
            continue
        last = i - 1  # spans[first..last] are one list
        if last > first:
            line_start = text.rfind("\n", 0, spans[first][1]) + 1
            if _CHOICE_AFTER.match(text, spans[last][2]) or _CHOICE_BEFORE.search(
                text[line_start : spans[first][1]]
            ):
                for j in range(first, last + 1):
                    out[j] = first
        first = i
    return out


# Examples, then the class they stand for ("Kafka 등 메시지 큐", "브레이즈 같은 CRM",
# "Salesforce or another CRM"); a class, then its examples in brackets ("CRM(Salesforce 등)",
# "a WMS (e.g. SAP EWM)").
_EXAMPLES_THEN_CLASS = re.compile(
    r"\s*\)?\s*(?:등의?|(?:과|와)?\s*같은|처럼|or\s+(?:an)?other|or\s+similar|etc\.?,?)\s*",
    re.IGNORECASE,
)
_CLASS_THEN_EXAMPLES = re.compile(r"\s*[(（]\s*(?:e\.g\.,?|예[:)]?|ex\)|such\s+as)?\s*", re.I)
_EXAMPLE_MARK = re.compile(r"등|같은|e\.g\.|such\s+as|etc|or\s+similar|예[:)]", re.IGNORECASE)


def _exemplifies(text: str, previous_end: int, start: int, end: int) -> bool:
    """Whether the mention at start..end and the one ending at previous_end are a class and
    its examples."""
    between = text[previous_end:start]
    if _EXAMPLES_THEN_CLASS.fullmatch(between):
        return True
    if _CLASS_THEN_EXAMPLES.fullmatch(between):
        close = re.search(r"[)）]", text[end:])
        inside = text[start : end + close.start()] if close else ""
        return bool(_EXAMPLE_MARK.search(text[previous_end:start] + inside))
    return False


def _gap(start: int, end: int, other_start: int, other_end: int) -> int:
    return max(other_start - end, start - other_end, 0)


def _negated(text: str, start: int, end: int) -> bool:
    clause_start = max((m.end() for m in _CLAUSE_END.finditer(text, 0, start)), default=0)
    after = _CLAUSE_END.search(text, end)
    clause_end = after.end() if after else len(text)  # "없지만" ends its own clause
    before = text[clause_start:start]
    cue = _NEGATED_AFTER.search(text, end, clause_end)
    return bool(
        (cue and _TO_NEGATION.fullmatch(text, end, cue.start()))
        or _NEGATED_BEFORE.search(before)
        or (_NO_BEFORE.search(before) and _EXPERIENCE_AFTER.match(text, end, clause_end))
    )


def _squash(text: str) -> str:
    return re.sub(r"[\s\-_.·/]+", "", text).casefold()


def _loose_regex(alias: str) -> str:
    chars = [re.escape(ch) for ch in _squash(alias)]
    body = r"[\s\-_.·/]*".join(chars)
    left = f"(?<![{_ASCII_WORD}])" if re.match(r"[A-Za-z0-9]", alias) else ""
    right = f"{_VERSION}(?![{_ASCII_WORD}])" if re.search(r"[A-Za-z0-9]$", alias) else ""
    return left + body + right


def _is_hangul(ch: str) -> bool:
    return "가" <= ch <= "힣"


def _join(parts: list[str]) -> str:
    """Alias words joined by any spacing: none or more between Korean words ("데이터
    파이프라인" = "데이터파이프라인"), a space, hyphen, underscore or nothing between ASCII ones."""
    out = re.escape(parts[0])
    for prev, part in itertools.pairwise(parts):
        korean = _is_hangul(prev[-1]) or _is_hangul(part[0])
        out += (r"\s*" if korean else r"(?:[\s_-]+|)") + re.escape(part)
    return out


def _alias_regex(alias: str, ambiguous: bool = False) -> str:
    body = _join(alias.split())
    first, last = alias[0], alias[-1]
    if re.match(r"[A-Za-z0-9]", first):
        left = f"(?<![{_ASCII_WORD}])"
    elif first == ".":
        left = r"(?<![A-Za-z0-9])"
    elif _is_hangul(first) and len(alias.replace(" ", "")) <= 3:
        left = f"(?<![{_HANGUL}])"  # "일러스트" is not 러스트
    else:
        left = ""
    if re.search(r"[A-Za-z0-9]$", alias):
        suffix = ""
        letters = re.sub(r"[^A-Za-z]", "", alias)
        if len(alias) >= 3 and last.isalpha():
            suffix = _VERSION  # "Java17", "ROS2", "YOLOv8"
        elif len(alias) >= 2 and last.isdigit():
            suffix = r"\+?"  # "ES6+"
        if len(letters) >= 2 and alias[-2:].isupper():
            suffix = f"(?:s|{suffix})" if suffix else "s?"  # "SLOs", "LLMs"
        elif " " in alias and last.islower() and last != "s":
            suffix = f"(?:s|{suffix})" if suffix else "s?"  # "device drivers", "unit tests"
        right = f"{suffix}(?![{_ASCII_WORD}])"
        if ambiguous or len(alias) == 1:
            right += f"(?![&'])(?:(?![{_HANGUL}])|(?={_KOREAN_AFTER_AMBIGUOUS}))"
    elif ambiguous and _is_hangul(last):  # "노드와", "노드(Express)"; not "노드들"
        right = f"(?:(?![{_HANGUL}])|(?={_KOREAN_AFTER_AMBIGUOUS}))"
    elif last in "+#":
        right = rf"(?:\d+)?(?![{_ASCII_WORD}])"  # "C++17"
    elif last == ".":
        right = r"(?![A-Za-z0-9])"
    else:
        right = ""
    return left + body + right


def _regex_alias(pattern: str) -> str:
    """A `re:` alias, with ASCII word boundaries where it starts or ends with a letter."""
    if re.compile(pattern).groups:
        raise ValueError(f"re: aliases may not capture (use (?:...)): {pattern}")
    left = f"(?<![{_ASCII_WORD}])" if re.match(r"[A-Za-z0-9]", pattern) else ""
    right = f"(?![{_ASCII_WORD}])" if re.search(r"[A-Za-z0-9]$", pattern) else ""
    return f"{left}(?:{pattern}){right}"


def _first_char(pattern: str) -> str:
    """The character a `re:` alias starts with (after leading assertions and inline flags);
    aliases are dispatched by it, so a pattern must start with a literal character."""
    rest = pattern
    while True:
        assertion = re.match(r"\(\?(?:<=|<!|=|!)", rest)
        if assertion:  # skip a balanced (?<=...) / (?<!...) / (?=...) / (?!...)
            depth, close = 0, len(rest) - 1
            for index, ch in enumerate(rest):
                depth += ch == "("
                depth -= ch == ")"
                if depth == 0:
                    close = index
                    break
            rest = rest[close + 1 :]
            continue
        flags = re.match(r"\(\?-?i:", rest)
        if flags:
            rest = rest[flags.end() :]
            continue
        break
    if not rest or rest[0] in "\\([.^$*+?{|" or not rest[0].strip():
        raise ValueError(f"re: alias must start with a literal character: {pattern}")
    return rest[0].lower()


def parse_taxonomy(text: str) -> Taxonomy:
    canonical: dict[str, str] = {}
    exact: dict[str, str] = {}
    ambiguous: set[str] = set()
    contexts: dict[str, frozenset[str]] = {}  # ambiguous alias -> what counts as context
    category: dict[str, str] = {}
    field_words: dict[str, str] = {}  # "인사" -> "hr", from "## hr | 인사 | HR"
    direct: dict[str, set[str]] = {}
    # (sort key, first character, regex, meta): regex aliases and look-alikes first, then
    # literals longest first.
    alternatives: list[tuple[tuple[int, int], str, str, _Alias]] = []
    section = ""

    def add_literal(alias: str, meta: _Alias, case_sensitive: bool) -> None:
        regex = _alias_regex(alias, meta.ambiguous)
        if case_sensitive:
            regex = f"(?-i:{regex})"
        alternatives.append(((1, -len(alias)), alias[0].lower(), regex, meta))

    def add_regex(pattern: str, meta: _Alias) -> None:
        regex = _regex_alias(pattern)  # rejects capturing groups first
        alternatives.append(((0, 0), _first_char(pattern), regex, meta))

    for raw in text.splitlines():
        line = raw.strip()
        if not line or (line.startswith("#") and not line.startswith("##")):
            continue
        if line.startswith("##"):
            section, *words = (c.strip() for c in line.lstrip("#").split(" | "))
            for word in words:
                if field_words.setdefault(word.lower(), section) != section:
                    raise ValueError(f"field word {word!r} names two categories")
            continue
        if section == "implies":
            src, _, dst = (part.strip() for part in line.partition(">"))
            direct.setdefault(src, set()).add(dst)
            continue
        if section == "look-alikes":
            for phrase in (c.strip() for c in line.split(" | ") if c.strip()):
                if phrase.startswith("re:"):
                    add_regex(phrase[3:], _Alias(None))
                else:
                    add_literal(phrase, _Alias(None), phrase.startswith("="))
            continue
        columns = [c.strip() for c in line.split(" | ") if c.strip()]
        name, aliases = columns[0], columns[1:]
        listed_only = name.startswith("!")  # "!Name": only the listed aliases match
        name = name.lstrip("!")
        if name in category:
            raise ValueError(f"skill listed twice: {name}")
        category[name] = section
        marked = {a.lstrip("=?").split("@")[0] for a in aliases if a[0] in "=?"}
        if len(name) >= 2 and name not in marked and not listed_only:
            aliases = [name, *aliases]
            canonical.setdefault(name.lower().replace(" ", ""), name)
        for alias in aliases:
            if alias.startswith("re:"):
                add_regex(alias[3:], _Alias(name))
            elif alias[0] in "=?":
                word, context = alias[1:], ""
                if alias[0] == "?" and "@" in word[1:]:
                    word, _, context = word.rpartition("@")
                if exact.get(word, name) != name:
                    raise ValueError(f"alias {alias!r} names two skills: {exact[word]}, {name}")
                exact[word] = name
                if alias[0] == "?":
                    ambiguous.add(word)
                    contexts[word] = frozenset(c.strip() for c in context.split(",") if c.strip())
                meta = _Alias(name, alias[0] == "?", contexts.get(word, frozenset()))
                add_literal(word, meta, case_sensitive=True)
            else:
                key = re.sub(r"\s+", " ", alias).lower()
                if canonical.get(key, name) != name:
                    raise ValueError(f"alias {alias!r} names two skills: {canonical[key]}, {name}")
                canonical[key] = name
                add_literal(alias, _Alias(name), case_sensitive=False)
    known = set(category.values()) | set(category)
    for word, allowed in contexts.items():
        if allowed - known:
            raise ValueError(f"?{word}@: unknown category or skill {sorted(allowed - known)}")
    for src, dsts in direct.items():
        if src not in category or any(d not in category for d in dsts):
            raise ValueError(f"implies line names an unknown skill: {src} > {dsts}")
    implies = {src: frozenset(_transitive(src, direct)) for src in direct}
    # Stable sort: equal keys keep file order (regex aliases and look-alikes as written).
    alternatives.sort(key=lambda a: a[0])
    by_char: dict[str, list[tuple[str, _Alias]]] = {}
    for _, first, regex, meta in alternatives:
        # A case-insensitive first letter is found under its lower case (the dispatch key).
        by_char.setdefault(first, []).append((regex, meta))
    dispatch = {
        ch: (
            re.compile("|".join(f"({regex})" for regex, _ in entries), re.IGNORECASE),
            tuple(meta for _, meta in entries),
        )
        for ch, entries in by_char.items()
    }
    return Taxonomy(
        canonical, exact, category, implies, dispatch, frozenset(ambiguous), field_words
    )


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
