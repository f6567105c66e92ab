"""Whether a Latin name and a Hangul name are one name in two scripts ("kakao" / "카카오",
"AMOREPACIFIC" / "아모레퍼시픽", "Toss" / "토스", "KT" / "케이티").

The Hangul is romanised syllable by syllable (the Revised Romanization's letters, without
its sound-change rules), then both spellings are reduced to the same consonant skeleton:
the letters an English spelling and a Korean transcription of one brand most often share
(p/f/b, k/g/c/q, t/d, l/r, s/soft c, j/ch/z), vowels and h dropped. Equal skeletons of at
least two consonants are taken as the same name.
"""

from __future__ import annotations

import re

# Revised Romanization's letters of the initials, vowels and finals, in Unicode's order.
_INITIAL = " ".join(("g kk n d tt r m b pp s ss _ j jj ch k t p h",)).split()
_MEDIAL = " ".join(("a ae ya yae eo e yeo ye o wa wae oe yo u wo we wi yu eu ui i",)).split()
_FINAL = ["", *" ".join(("k k k n n n t l k m l l l p l m p p t t ng t t k t p t",)).split()]


def romanized(text: str) -> str:
    """Hangul syllables in Revised Romanization letters (other characters kept)."""
    out = []
    for ch in text:
        code = ord(ch) - 0xAC00
        if 0 <= code < 11172:
            initial, rest = divmod(code, 588)
            medial, final = divmod(rest, 28)
            out.append(_INITIAL[initial].strip("_") + _MEDIAL[medial] + _FINAL[final])
        else:
            out.append(ch)
    return "".join(out)


_SPELLING = (
    (r"ph|f|v", "p"),
    (r"c(?=[eiy])", "s"),
    (r"ch|tch|z", "j"),
    (r"ck|c|q|g", "k"),
    (r"x", "ks"),
    (r"sh", "s"),
    (r"th|d", "t"),
    (r"b", "p"),
    (r"r(?![aeiouy])", ""),  # "naver" / "네이버": a final r is not written in Hangul
    (r"r", "l"),
    (r"ng", "n"),
    (r"([a-z])\1+", r"\1"),
    (r"[aeiouwyh]", ""),
)


def skeleton(text: str) -> str:
    """The consonant skeleton of a Latin or Hangul spelling ("kakao" and "카카오" -> "kk")."""
    letters = re.sub(r"[^a-z]", "", romanized(text).lower())
    for pattern, replacement in _SPELLING:
        letters = re.sub(pattern, replacement, letters)
    return letters


def same_name(latin: str, hangul: str) -> bool:
    """A Latin spelling and a Hangul one of the same name (skeletons of two or more
    consonants, equal)."""
    key = skeleton(latin)
    return len(key) >= 2 and key == skeleton(hangul)
