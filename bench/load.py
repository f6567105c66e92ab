"""Load: 64 concurrent analysis streams against a real server process on real Redis, with
the simulated model, for a bounded time and request count (loopback only).

    python -m bench.load --seconds 120 --concurrency 64 --max-requests 5000

Reports errors (target 0), latency P50/P95, requests/s and the server's memory growth;
writes bench/results/load-latest.json.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import time
from pathlib import Path

import httpx

from bench.overhead import one_stream, pct
from bench.procs import simulated_server

RESULTS = Path(__file__).parent / "results"


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def hammer(base: str, concurrency: int, seconds: float, max_requests: int) -> dict:
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    latencies: list[float] = []
    errors: dict[str, int] = {}
    budget = {"left": max_requests}
    deadline = time.monotonic() + seconds

    async with httpx.AsyncClient(base_url=base, timeout=120, limits=limits) as client:

        async def worker() -> None:
            while time.monotonic() < deadline and budget["left"] > 0:
                budget["left"] -= 1
                try:
                    _, total = await one_stream(client)
                    latencies.append(total)
                except Exception as exc:  # counted, never hidden
                    errors[type(exc).__name__] = errors.get(type(exc).__name__, 0) + 1

        started = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        wall = time.perf_counter() - started
    return {
        "requests": len(latencies) + sum(errors.values()),
        "errors": errors,
        "p50_s": pct(latencies, 0.5) if latencies else None,
        "p95_s": pct(latencies, 0.95) if latencies else None,
        "rps": len(latencies) / wall,
        "seconds": wall,
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
        result = asyncio.run(hammer(base, args.concurrency, args.seconds, args.max_requests))
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
