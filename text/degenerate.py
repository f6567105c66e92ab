"""Is a model's text usable, or junk a user must not see?

The checks are about the shape of text, not its truth: an empty or tiny answer, a loop
(the same words over and over), the prompt's own headings echoed back, and text that is
not Korean where Korean is expected. Each returns the reason, counted in /metrics
(`devths_degenerate_outputs_total{feature,reason}`) by the caller that replaces it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

_WORD = re.compile(r"[0-9A-Za-z가-힣]+")
_HANGUL = re.compile(r"[가-힣]")
_LETTER = re.compile(r"[A-Za-z가-힣]")


def degenerate_reason(text: str, *, korean: bool = True, echoes: Iterable[str] = ()) -> str | None:
    """Why `text` is junk ("empty", "loop", "prompt_echo", "not_korean"), or None."""
    words = _WORD.findall(text)
    if len("".join(words)) < 4:
        return "empty"
    if len(words) >= 6:
        trigrams = Counter(zip(words, words[1:], words[2:], strict=False))
        if trigrams.most_common(1)[0][1] >= 3 or len(set(words)) / len(words) < 0.4:
            return "loop"
    if any(echo and echo in text for echo in echoes):
        return "prompt_echo"
    if korean:
        # Counted in words, not letters: a Korean sentence naming skills ("우대 기술 HLSL,
        # Gameplay Ability System, Perforce을 갖췄습니다.") has more Latin letters than Hangul.
        lettered = [w for w in words if _LETTER.search(w)]
        if lettered and sum(bool(_HANGUL.search(w)) for w in lettered) / len(lettered) < 0.3:
            return "not_korean"
    return None


def degenerate_items(items: list[str], **checks: object) -> str | None:
    """The reason a list of short texts is junk: any item junk, or the same item twice."""
    for item in items:
        reason = degenerate_reason(item, **checks)  # type: ignore[arg-type]
        if reason is not None:
            return reason
    normalised = [re.sub(r"\W+", "", item) for item in items]
    if len(set(normalised)) < len(normalised):
        return "loop"
    return None
