from dataclasses import replace

import pytest

from core.cache import MemoryJsonCache, cache_key
from nodes.analysis import steps
from prompts import load_prompt, parse_prompt

PROMPT = "---\nname: x/y\nversion: 2\n---\n# system\nS {a}\n# user\nU {b}\n"


def test_prompt_file_parses_with_version_and_parts():
    p = parse_prompt(PROMPT)
    assert (p.name, p.version) == ("x/y", 2)
    msgs = p.messages(a="1", b="2")
    assert [m.content for m in msgs] == ["S 1", "U 2"]


def test_editing_a_prompt_changes_its_tag_even_without_a_version_bump():
    assert parse_prompt(PROMPT).tag != parse_prompt(PROMPT.replace("U {b}", "U! {b}")).tag


def test_every_shipped_prompt_loads():
    for name in ("analysis/section_summary", "analysis/match_feedback"):
        assert load_prompt(name).version >= 1


def test_analysis_cache_key_ignores_whitespace_but_not_content_or_model():
    base = steps.analysis_cache_key("Java  개발\n\n3년", "공고", "local")
    assert base == steps.analysis_cache_key(" Java 개발\n3년 ", "공고", "local")
    assert base != steps.analysis_cache_key("Java 개발\n4년", "공고", "local")
    assert base != steps.analysis_cache_key("Java 개발\n3년", "공고", "google_genai:gemini")


def test_analysis_cache_key_changes_with_the_prompt(monkeypatch):
    before = steps.analysis_cache_key("a", "b", "m")
    real = load_prompt("analysis/match_feedback")
    monkeypatch.setattr(steps, "FEEDBACK_PROMPT", replace(real, version=real.version + 1))
    assert steps.analysis_cache_key("a", "b", "m") != before


def test_cache_keys_are_namespaced_hashes():
    key = cache_key("analysis", "x")
    assert key.startswith("devths:analysis:") and len(key.rsplit(":", 1)[1]) == 64


@pytest.mark.parametrize("ttl", [1])
async def test_memory_cache_round_trip_and_expiry(ttl, monkeypatch):
    cache = MemoryJsonCache()
    await cache.set("k", {"v": [1, "한"]}, ttl)
    assert await cache.get("k") == {"v": [1, "한"]}
    import core.cache as mod

    now = mod.time.monotonic()
    monkeypatch.setattr(mod.time, "monotonic", lambda: now + ttl + 1)
    assert await cache.get("k") is None


async def test_missing_cache_misses_only_the_namespaces_it_is_told():
    from core.cache import MissingCache

    reports = MissingCache("interview-report")
    await reports.set("devths:interview-report:k", {"v": 1}, 60)
    await reports.set("devths:interview-prefetch:k", {"v": 2}, 60)
    assert await reports.get("devths:interview-report:k") is None
    assert await reports.get("devths:interview-prefetch:k") == {"v": 2}
    everything = MissingCache()
    await everything.set("devths:analysis:k", {"v": 3}, 60)
    assert await everything.get("devths:analysis:k") is None
