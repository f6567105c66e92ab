"""Load: 64 concurrent streams, half analyses and half chats, against a real server process
on real Redis, with the simulated model, for a bounded time and request count (loopback
only).

    python -m bench.load --seconds 120 --concurrency 64 --max-requests 5000

Every analysis is a new pair of documents (a cache miss); every chat worker keeps talking in
its own room (its checkpointed history grows in Redis, the window keeps the prompt bounded)
with a new question each time (no answer-cache hits). Reports errors (target 0), latency
P50/P95 per feature, requests/s and the server's memory growth; writes
bench/results/load-latest.json.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path

import httpx

from bench.chat import QUESTIONS
from bench.measure import percentile
from bench.overhead import one_stream, timed_stream
from bench.procs import simulated_server

RESULTS = Path(__file__).parent / "results"


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def chat_stream(user: str) -> Callable[[httpx.AsyncClient], Awaitable[tuple[float, float]]]:
    """One worker's conversation: each call streams the next question in the same room."""
    turn = {"n": 0}

    async def one(client: httpx.AsyncClient) -> tuple[float, float]:
        turn["n"] += 1
        question = f"{QUESTIONS[turn['n'] % len(QUESTIONS)]} ({uuid.uuid4().hex[:8]})"
        given = {"user_id": user, "room_id": "load", "message": question}
        first, total = await timed_stream(client, "/ai/chat/stream_events", given)
        if first is None:
            raise RuntimeError("no streamed token")
        return first, total

    return one


async def sample_rss(pid: int, every_s: float, into: list[tuple[float, float]]) -> None:
    """(seconds since start, server RSS in MB) every `every_s` until cancelled."""
    started = time.monotonic()
    while True:
        into.append((round(time.monotonic() - started), round(rss_mb(pid), 1)))
        await asyncio.sleep(every_s)


async def hammer(
    base: str, concurrency: int, seconds: float, max_requests: int, pid: int | None = None
) -> dict:
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    latencies: dict[str, list[float]] = {"analysis": [], "chat": []}
    errors: dict[str, int] = {}
    budget = {"left": max_requests}
    deadline = time.monotonic() + seconds
    run = uuid.uuid4().hex[:6]

    async with httpx.AsyncClient(base_url=base, timeout=120, limits=limits) as client:

        async def worker(i: int) -> None:
            feature = "analysis" if i % 2 == 0 else "chat"
            request = one_stream if feature == "analysis" else chat_stream(f"load-{run}-{i}")
            while time.monotonic() < deadline and budget["left"] > 0:
                budget["left"] -= 1
                try:
                    _, total = await request(client)
                    latencies[feature].append(total)
                except Exception as exc:  # counted, never hidden
                    key = f"{feature}: {type(exc).__name__}"
                    errors[key] = errors.get(key, 0) + 1

        series: list[tuple[float, float]] = []
        sampler = asyncio.create_task(sample_rss(pid, 15, series)) if pid else None
        started = time.perf_counter()
        await asyncio.gather(*(worker(i) for i in range(concurrency)))
        wall = time.perf_counter() - started
        if sampler:
            sampler.cancel()
    every = latencies["analysis"] + latencies["chat"]
    return {
        "requests": len(every) + sum(errors.values()),
        "errors": errors,
        "p50_s": percentile(every, 0.5) if every else None,
        "p95_s": percentile(every, 0.95) if every else None,
        "by_feature": {
            feature: {
                "requests": len(values),
                "p50_s": percentile(values, 0.5) if values else None,
                "p95_s": percentile(values, 0.95) if values else None,
            }
            for feature, values in latencies.items()
        },
        "rps": len(every) / wall,
        "seconds": wall,
        "rss_mb_every_15_s": series,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--max-requests", type=int, default=5000)
    args = parser.parse_args()
    if not os.environ.get("REDIS_URL"):
        raise SystemExit("REDIS_URL is not set: `make load` starts the local Redis")
    with simulated_server() as (base, pid):
        asyncio.run(hammer(base, 4, 5, 20))  # warm-up, not counted
        before = rss_mb(pid)
        result = asyncio.run(hammer(base, args.concurrency, args.seconds, args.max_requests, pid))
        after = rss_mb(pid)
    result.update(
        concurrency=args.concurrency,
        rss_before_mb=round(before, 1),
        rss_after_mb=round(after, 1),
        rss_growth_mb=round(after - before, 1),
    )
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "load-latest.json").write_text(json.dumps(result, indent=1))
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
