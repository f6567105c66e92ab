"""Server overhead over the model alone, at 1, 10 and 50 concurrent analysis streams.

A real server process (real Redis) runs with the simulated model (600 ms TTFT, 28 tokens/s
by default); every request is a cache miss. Client-side time to first token and total
time are compared with the model's own critical path; loopback only, bounded in count.
"""

from __future__ import annotations

import asyncio
import statistics
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import httpx

from bench.measure import percentile
from bench.procs import simulated_server
from bench.simulated import model_alone_seconds

# Short sections (under SUMMARY_MIN_CHARS): the feedback is the analysis's only model call.
RESUME = "[기술 스택]\nJava, Spring Boot, MySQL\n[경력]\n백엔드 개발 3년, 주문 API 개발\n"
POSTING = "[카카오] 백엔드 개발자\n■ 자격요건\n- Java, Spring\n■ 우대사항\n- Kafka\n"


async def timed_stream(
    client: httpx.AsyncClient, path: str, given: dict[str, Any]
) -> tuple[float | None, float]:
    """POST a v2 `stream_events` request: (seconds to the first model token or None,
    seconds to the end). An error event raises."""
    start = time.perf_counter()
    first = None
    body = {"input": given, "version": "v2"}
    async with client.stream("POST", path, json=body) as response:
        response.raise_for_status()
        async for line in response.aiter_lines():
            if first is None and "on_chat_model_stream" in line:
                first = time.perf_counter() - start
            if line.startswith("event: error"):
                raise RuntimeError("error event")
    return first, time.perf_counter() - start


async def one_stream(client: httpx.AsyncClient) -> tuple[float, float]:
    """One analysis of new documents (a cache miss)."""
    given = {"user_id": "bench", "resume_text": RESUME + uuid.uuid4().hex, "posting_text": POSTING}
    first, total = await timed_stream(client, "/ai/analyze/stream_events", given)
    return (first if first is not None else float("nan")), total


Request = Callable[[httpx.AsyncClient], Awaitable[tuple[float, float]]]


async def bursts(
    base: str, concurrency: int, rounds: int, request: Callable[[httpx.AsyncClient], Awaitable[Any]]
) -> tuple[list[Any], int, float]:
    """`rounds` bursts of `concurrency` simultaneous `request`s after one warm-up: (the
    results, how many failed, wall seconds)."""
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(base_url=base, timeout=300, limits=limits) as client:
        await request(client)  # warm
        results, errors = [], 0
        started = time.perf_counter()
        for _ in range(rounds):
            outcomes = await asyncio.gather(
                *(request(client) for _ in range(concurrency)), return_exceptions=True
            )
            for outcome in outcomes:
                if isinstance(outcome, BaseException):
                    errors += 1
                else:
                    results.append(outcome)
        return results, errors, time.perf_counter() - started


async def level(
    base: str, concurrency: int, rounds: int, request: Request = one_stream
) -> dict[str, Any]:
    """`bursts` of `request`: errors, TTFT and total latency percentiles, requests per
    second."""
    results, errors, wall = await bursts(base, concurrency, rounds, request)
    ttfts = [r[0] for r in results]
    totals = [r[1] for r in results]
    return {
        "concurrency": concurrency,
        "requests": len(results) + errors,
        "errors": errors,
        "ttft_p50_s": statistics.median(ttfts),
        "ttft_p95_s": percentile(ttfts, 0.95),
        "total_p50_s": statistics.median(totals),
        "total_p95_s": percentile(totals, 0.95),
        "total_p99_s": percentile(totals, 0.99),
        "rps": len(results) / wall,
    }


def run(
    ttft_ms: float = 600, tps: float = 28, levels: tuple[int, ...] = (1, 10, 50), rounds: int = 2
) -> dict[str, Any]:
    with simulated_server(ttft_ms, tps) as (base, _pid):
        rows = [asyncio.run(level(base, c, rounds)) for c in levels]
    model_ttft, model_total = model_alone_seconds(ttft_ms / 1000, tps)
    for row in rows:
        row["model_ttft_s"] = model_ttft
        row["model_total_s"] = model_total
        row["added_ttft_p50_ms"] = 1000 * (row["ttft_p50_s"] - model_ttft)
        row["added_total_p50_ms"] = 1000 * (row["total_p50_s"] - model_total)
    return {"simulated_model": {"ttft_ms": ttft_ms, "tokens_per_s": tps}, "levels": rows}


LIMITS_OFF = {
    "RATE_LIMIT_PER_MINUTE": "0",
    "RATE_LIMIT_PER_KEY_PER_MINUTE": "0",
    "TOKEN_QUOTA_PER_DAY": "0",
}


def limits_cost(levels: tuple[int, ...] = (1, 10), rounds: int = 5) -> dict[str, Any]:
    """What the rate limits and the token quota add per request (their Redis round trips:
    quota check, per-user and per-key sliding windows, the charge after the stream): the
    same streams against the server with every limit off, then on (sized never to refuse)."""
    rows = {}
    for name, env in (("off", LIMITS_OFF), ("on", {})):
        with simulated_server(env=env) as (base, _pid):
            rows[name] = [asyncio.run(level(base, c, rounds)) for c in levels]
    return {
        "levels": [
            {
                "concurrency": off["concurrency"],
                "errors": off["errors"] + on["errors"],
                "ttft_p50_off_s": off["ttft_p50_s"],
                "ttft_p50_on_s": on["ttft_p50_s"],
                "added_ttft_p50_ms": round(1000 * (on["ttft_p50_s"] - off["ttft_p50_s"]), 1),
                "rps_off": off["rps"],
                "rps_on": on["rps"],
            }
            for off, on in zip(rows["off"], rows["on"], strict=True)
        ]
    }


async def _time_to_match(client: httpx.AsyncClient, cold: bool = False) -> tuple[float, float]:
    """(seconds to the `analysis_match` event, seconds to the first model token). A result
    cache miss every time; `cold` sends a 30-line resume whose every line is new, so none of
    its line vectors is cached (otherwise only the last line is new, as when one resume is
    matched against postings one after another)."""
    nonce = uuid.uuid4().hex
    resume = RESUME + nonce
    if cold:  # a resume of usual length (30 lines), every line new
        lines = [f"- 프로젝트 {i}: 주문 API 개발, MySQL 쿼리 튜닝 ({nonce[:8]})" for i in range(30)]
        resume = RESUME + "[프로젝트]\n" + "\n".join(lines)
    given = {"user_id": "bench", "resume_text": resume, "posting_text": POSTING}
    start = time.perf_counter()
    match = token = None
    body = {"input": given, "version": "v2"}
    async with client.stream("POST", "/ai/analyze/stream_events", json=body) as response:
        response.raise_for_status()
        async for line in response.aiter_lines():
            if match is None and '"analysis_match"' in line:
                match = time.perf_counter() - start
            if token is None and "on_chat_model_stream" in line:
                token = time.perf_counter() - start
    if match is None or token is None:
        raise RuntimeError("no analysis_match event or no token")
    return match, token


def analysis_match_latency(requests: int = 30) -> dict[str, Any]:
    """Time from the request to the deterministic match (`analysis_match`), on cache misses,
    one request at a time, against the first model token (simulated model, 600 ms TTFT)."""

    async def measure(base: str) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
        async with httpx.AsyncClient(base_url=base, timeout=60) as client:
            await _time_to_match(client)  # warm
            warm = [await _time_to_match(client) for _ in range(requests)]
            cold = [await _time_to_match(client, cold=True) for _ in range(requests)]
            return warm, cold

    with simulated_server() as (base, _pid):
        rows, cold_rows = asyncio.run(measure(base))
    match_s = [r[0] for r in rows]
    token_s = [r[1] for r in rows]
    cold_s = [r[0] for r in cold_rows]
    return {
        "requests": requests,
        "match_p50_ms": round(1000 * statistics.median(match_s), 1),
        "match_p95_ms": round(1000 * percentile(match_s, 0.95), 1),
        "first_token_p50_ms": round(1000 * statistics.median(token_s), 1),
        "cold_lines_match_p50_ms": round(1000 * statistics.median(cold_s), 1),
        "cold_lines_match_p95_ms": round(1000 * percentile(cold_s, 0.95), 1),
    }
