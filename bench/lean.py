"""The lean event stream beside LangServe's `stream_events`, at 50 concurrent analyses.

One real server process (real Redis, simulated model: 600 ms TTFT, 28 tokens/s), every
request a cache miss; both streams measured in the same run, alternating, so they share
the machine's state. Per stream kind: client-side time to the first token event (and what
the server adds over the model's own TTFT), bytes on the wire per token event, requests per
second. Then the lean stream again on two uvicorn workers (WEB_CONCURRENCY=2) for the RPS
ratio. The load generator shares the 2 cores with the server: it runs at lower priority
(nice 10 for this process) so the server's figures are the server's.

python -m bench.lean   (also part of `make bench`; writes bench/results/lean.json)
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from bench.measure import percentile
from bench.overhead import bursts
from bench.procs import simulated_server
from bench.simulated import model_alone_seconds

RESUME = "[기술 스택]\nJava, Spring Boot, MySQL\n[경력]\n백엔드 개발 3년, 주문 API 개발\n"
POSTING = "[카카오] 백엔드 개발자\n■ 자격요건\n- Java, Spring\n■ 우대사항\n- Kafka\n"
RESULTS = Path(__file__).resolve().parent / "results" / "lean.json"
KINDS = {
    "stream_events": ("/ai/analyze/stream_events", "on_chat_model_stream"),
    "lean": ("/ai/analyze/events", "event: token"),
}


async def one(
    client: httpx.AsyncClient, kind: str, new_resume: bool = True
) -> tuple[float, float, int, int]:
    """(seconds to the first token, seconds to the end, bytes, token events). Every request
    is a cache miss: a new resume line (whose embedding is computed: the analysis's own
    CPU work), or with `new_resume=False` a new posting title (every line's embedding is
    cached: what remains is the server's overhead around the model)."""
    path, marker = KINDS[kind]
    tag = uuid.uuid4().hex
    given = {
        "user_id": "bench",
        "resume_text": RESUME + tag if new_resume else RESUME,
        "posting_text": POSTING if new_resume else f"[{tag}] 채용\n{POSTING}",
    }
    body: dict[str, Any] = {"input": given}
    if kind == "stream_events":
        body["version"] = "v2"
    start = time.perf_counter()
    first, size, tokens = None, 0, 0
    async with client.stream("POST", path, json=body) as response:
        response.raise_for_status()
        async for line in response.aiter_lines():
            size += len(line.encode()) + 1
            if marker in line:
                tokens += 1
                if first is None:
                    first = time.perf_counter() - start
            if line.startswith("event: error"):
                raise RuntimeError("error event")
    return (first if first is not None else float("nan")), time.perf_counter() - start, size, tokens


def _machine_jiffies() -> tuple[int, int]:
    """(busy, total) CPU jiffies of the whole machine since boot (/proc/stat)."""
    with open("/proc/stat", encoding="ascii") as stat:
        fields = [int(v) for v in stat.readline().split()[1:]]
    idle = fields[3] + fields[4]  # idle + iowait
    return sum(fields) - idle, sum(fields)


def with_cpu_shares(measure: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """`measure()`'s figures plus how busy the machine's cores were meanwhile and the load
    generator's (this process's) share of them: whether the cores, not the server, are
    what limits a figure."""
    busy0, total0 = _machine_jiffies()
    mine0 = sum(os.times()[:2])
    row = measure()
    busy1, total1 = _machine_jiffies()
    mine = sum(os.times()[:2]) - mine0
    ticks = os.sysconf("SC_CLK_TCK")
    cores = os.cpu_count() or 1
    row["machine_busy_share"] = round((busy1 - busy0) / max(1, total1 - total0), 3)
    row["load_generator_cpu_share"] = round(mine * ticks / max(1, total1 - total0), 3)
    row["cores"] = cores
    return row


async def level(
    base: str, kind: str, concurrency: int, rounds: int, new_resume: bool = True
) -> dict[str, Any]:
    results, errors, wall = await bursts(
        base, concurrency, rounds, lambda client: one(client, kind, new_resume)
    )
    ttfts = [r[0] for r in results]
    return {
        "kind": kind,
        "new_resume": new_resume,
        "concurrency": concurrency,
        "requests": len(results) + errors,
        "errors": errors,
        "ttft_p50_s": statistics.median(ttfts),
        "ttft_p95_s": percentile(ttfts, 0.95),
        "total_p50_s": statistics.median(r[1] for r in results),
        "bytes_per_token": sum(r[2] for r in results) / max(1, sum(r[3] for r in results)),
        "bytes_per_request": statistics.median(r[2] for r in results),
        "rps": len(results) / wall,
    }


def run(concurrency: int = 50, rounds: int = 2, ttft_ms: float = 600, tps: float = 28) -> dict:
    model_ttft, _ = model_alone_seconds(ttft_ms / 1000, tps)
    rows = []
    workers = ("--workers", "2")
    with (
        simulated_server(ttft_ms, tps) as (one_process, _),
        simulated_server(ttft_ms, tps, *workers) as (two_procs, _),
    ):
        # The servers exist (at the usual priority): the load generator steps back.
        os.nice(10)
        for new_resume in (True, False):
            for kind in ("stream_events", "lean", "stream_events", "lean"):
                rows.append(asyncio.run(level(one_process, kind, concurrency, rounds, new_resume)))
        one_lean = with_cpu_shares(
            lambda: asyncio.run(level(one_process, "lean", concurrency, rounds, False))
        )
        two = with_cpu_shares(
            lambda: asyncio.run(level(two_procs, "lean", concurrency, rounds, False))
        )
        # the same where the server's CPU is the limit: every request embeds a new line
        one_cpu = with_cpu_shares(
            lambda: asyncio.run(level(one_process, "lean", concurrency, rounds, True))
        )
        two_cpu = with_cpu_shares(
            lambda: asyncio.run(level(two_procs, "lean", concurrency, rounds, True))
        )
    for row in [*rows, two]:
        row["added_ttft_p50_ms"] = round(1000 * (row["ttft_p50_s"] - model_ttft), 1)
        row["added_ttft_over_model"] = round(row["added_ttft_p50_ms"] / (1000 * model_ttft), 3)

    def best(kind: str, new_resume: bool) -> dict[str, Any]:
        same = [r for r in rows if r["kind"] == kind and r["new_resume"] == new_resume]
        return min(same, key=lambda r: r["ttft_p50_s"])

    summary: dict[str, Any] = {"model_ttft_s": model_ttft}
    for new_resume, label in ((True, "new_resume"), (False, "cached_lines")):
        lean, events = best("lean", new_resume), best("stream_events", new_resume)
        summary[label] = {
            "lean_added_ttft_over_model": lean["added_ttft_over_model"],
            "stream_events_added_ttft_over_model": events["added_ttft_over_model"],
            "bytes_per_token_ratio": round(lean["bytes_per_token"] / events["bytes_per_token"], 3),
        }
    one_lean["added_ttft_p50_ms"] = round(1000 * (one_lean["ttft_p50_s"] - model_ttft), 1)
    summary["rps_two_workers_over_one"] = round(two["rps"] / one_lean["rps"], 2)
    summary["two_workers_machine_busy_share"] = two["machine_busy_share"]
    summary["two_workers_load_generator_cpu_share"] = two["load_generator_cpu_share"]
    # Bursts of `concurrency` streams that each last at least the model's own time: no
    # number of processes gets past concurrency / that time.
    _, model_total = model_alone_seconds(ttft_ms / 1000, tps)
    summary["rps_ceiling_of_the_bursts"] = round(concurrency / model_total, 2)
    summary["rps_one_two_workers_cached_lines"] = [round(one_lean["rps"], 2), round(two["rps"], 2)]
    summary["rps_one_two_workers_new_resume"] = [round(one_cpu["rps"], 2), round(two_cpu["rps"], 2)]
    summary["rps_two_workers_over_one_new_resume"] = round(two_cpu["rps"] / one_cpu["rps"], 2)
    summary["new_resume_machine_busy_share_one_two"] = [
        one_cpu["machine_busy_share"],
        two_cpu["machine_busy_share"],
    ]
    result = {
        "runs": rows,
        "one_worker": one_lean,
        "two_workers": two,
        "one_worker_new_resume": one_cpu,
        "two_workers_new_resume": two_cpu,
        "summary": summary,
    }
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=2), encoding="utf-8")
    return result


if __name__ == "__main__":
    print(json.dumps(run()["summary"], indent=2))
