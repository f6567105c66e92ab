"""Benchmarks (not tests): figures go to bench/results/latest.{json,md}, plots (bench/plots.py)
next to them.

    python -m bench.run            # needs REDIS_URL (make bench starts the local Redis)
    python -m bench.run --only interview_prefetch interview_tokens   # some sections only

1. The embedded local model: time to first token and tokens/s (median of 3).
2. Analysis through the real app (ASGI, real Redis, configured model): a cache miss, then
   hits on the same input (P50/P95 of 50), and the model calls each made.
3. Server overhead and the `langgraph dev` peer (bench/overhead.py, bench/peer.py), input
   tokens per analysis (bench/tokens.py), interview prefetch latency and prompt tokens
   (bench/interview.py).
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import platform
import statistics
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
from langchain_core.messages import HumanMessage

from bench import (
    caches,
    chat,
    documents,
    first_request,
    interview,
    overhead,
    peer,
    plots,
    processes,
    retrieval,
    tokens,
)
from bench import floor as stack_floor
from bench.measure import model_calls_by_feature, percentile
from core.models import ModelRegistry
from core.services import create_services, set_services
from core.settings import Settings, get_settings

RESULTS = Path(__file__).parent / "results"
RESUME = """[기술 스택]
Java, Spring Boot, JPA, MySQL, Redis, Docker
[경력]
커머스 백엔드 3년: 주문 API 개발, 쿼리 튜닝
[프로젝트]
Kafka 기반 알림 서비스"""
POSTING = """[카카오] 백엔드 개발자 채용
■ 자격요건
- Java, Spring 기반 개발 3년 이상
- MySQL 활용 경험
■ 우대사항
- Kafka, Kubernetes 경험"""


async def bench_local_model(threads: int | None = None) -> dict[str, Any]:
    settings = Settings(chat_model="local", model_fallbacks="", local_model_threads=threads)
    model = ModelRegistry(settings).runnable("chat", max_tokens=64)
    await model.ainvoke([HumanMessage("warm up")])  # load the model file
    ttfts, rates = [], []
    topics = ["code reviews", "system design interviews", "technical debt"]
    for topic in topics:
        # A new prompt each time: llama.cpp reuses the KV cache of a repeated prefix, which
        # would make time to first token look like nothing.
        prompt = [HumanMessage(f"Write two sentences about {topic} for a junior developer.")]
        start = time.perf_counter()
        first = None
        async for chunk in model.astream(prompt):
            if chunk.text and first is None:
                first = time.perf_counter() - start
        total = time.perf_counter() - start
        # Greedy decoding: the same prompt gives the same text, so its count is this stream's.
        tokens = (await model.ainvoke(prompt)).usage_metadata["output_tokens"]
        ttfts.append(first or total)
        rates.append(tokens / (total - (first or 0)) if total > (first or 0) else 0.0)
    return {
        "ttft_ms_median": round(1000 * statistics.median(ttfts)),
        "tokens_per_s_median": round(statistics.median(rates), 1),
    }


def _spin(seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass


async def bench_local_model_threads() -> dict[str, Any]:
    """The embedded model's speed by llama.cpp thread count, alone and while another
    process keeps one core busy (another request's CPU work, a second eval)."""
    out: dict[str, Any] = {"cores": os.cpu_count()}
    for threads in sorted({1, max(1, os.cpu_count() or 1)}):
        alone = await bench_local_model(threads)
        hog = multiprocessing.get_context("spawn").Process(target=_spin, args=(600,))
        hog.start()
        try:
            busy = await bench_local_model(threads)
        finally:
            hog.terminate()
            hog.join()
        out[str(threads)] = {"alone": alone, "one_core_busy": busy}
    return out


def model_calls() -> float:
    return sum(model_calls_by_feature().values())


async def bench_analysis_cache(hits: int) -> dict[str, Any]:
    from server import create_app

    settings = get_settings()
    services = await create_services(settings)
    set_services(services)
    transport = httpx.ASGITransport(app=create_app())
    body = {
        "input": {
            "user_id": "bench",
            "resume_text": RESUME + f"\n{uuid.uuid4().hex[:6]}",
            "posting_text": POSTING,
        }
    }
    try:
        async with httpx.AsyncClient(transport=transport, base_url="http://b", timeout=900) as c:
            calls0 = model_calls()
            start = time.perf_counter()
            miss = await c.post("/ai/analyze/invoke", json=body)
            miss_s = time.perf_counter() - start
            assert miss.status_code == 200 and miss.json()["output"]["cached"] is False
            calls_miss = model_calls() - calls0
            times = []
            for _ in range(hits):
                start = time.perf_counter()
                hit = await c.post("/ai/analyze/invoke", json=body)
                times.append(time.perf_counter() - start)
                assert hit.json()["output"]["cached"] is True
            calls_hits = model_calls() - calls0 - calls_miss
    finally:
        await services.aclose()
    return {
        "model": settings.model_for("analysis"),
        "miss_s": round(miss_s, 2),
        "miss_model_calls": calls_miss,
        "hit_p50_ms": round(1000 * statistics.median(times), 1),
        "hit_p95_ms": round(1000 * percentile(times, 0.95), 1),
        "hits": hits,
        "hit_model_calls": calls_hits,
        "speedup_p50": round(miss_s / statistics.median(times)),
    }


def render(results: dict[str, Any]) -> str:
    lm, an = results["local_model"], results["analysis_cache"]
    ov, tk, pe = results["overhead"], results["analysis_tokens"], results["peer"]
    sim = ov["simulated_model"]
    first = ov["levels"][0]
    lines = [
        f"Benchmarks, {results['at']} on {results['machine']}",
        "",
        "| benchmark | figure | value |",
        "|---|---|---|",
        f"| embedded model (SmolLM2-135M Q4_1, llama.cpp) | time to first token | "
        f"{lm['ttft_ms_median']} ms |",
        f"| embedded model | tokens/s | {lm['tokens_per_s_median']} |",
        f"| analysis, cache miss (`{an['model']}`) | latency | {an['miss_s']} s "
        f"({an['miss_model_calls']:.0f} model calls) |",
        f"| analysis, cache hit | P50 / P95 latency | {an['hit_p50_ms']} / {an['hit_p95_ms']} ms "
        f"({an['hit_model_calls']:.0f} model calls in {an['hits']} hits) |",
        f"| analysis | miss / hit (P50) | {an['speedup_p50']}x |",
        *render_threads(results),
        "",
        f"Server overhead on `/ai/analyze/stream_events`, simulated model ({sim['ttft_ms']:.0f} ms "
        f"TTFT, {sim['tokens_per_s']:.0f} tokens/s): the model alone needs "
        f"{first['model_ttft_s']:.2f} s to the first token and {first['model_total_s']:.2f} s in "
        "all. Every request is a cache miss; the load generator shares the 2 cores.",
        "",
        "| concurrent streams | requests | errors | TTFT P50 / P95 | added TTFT (P50) | "
        "TTFT / model's | total P50 / P95 / P99 | added total (P50) | RPS |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    lines += [
        f"| {r['concurrency']} | {r['requests']} | {r['errors']} | "
        f"{r['ttft_p50_s']:.2f} / {r['ttft_p95_s']:.2f} s | {r['added_ttft_p50_ms']:.0f} ms | "
        f"{r['ttft_p50_s'] / r['model_ttft_s']:.2f} | "
        f"{r['total_p50_s']:.2f} / {r['total_p95_s']:.2f} / {r['total_p99_s']:.2f} s | "
        f"{r['added_total_p50_ms']:.0f} ms | {r['rps']:.1f} |"
        for r in ov["levels"]
    ]
    lines += [
        "",
        "Input tokens per analysis (the seed's experiment; embedded model's tokenizer, summaries "
        "counted at their 80-character maximum). Eval pairs: the 22 eval pairs as they are; "
        "long: each resume joined with the next five and each posting with the next two "
        "(sections merge under shared headings).",
        "",
        "| prompt design | eval pairs: tokens (mean) | ratio | long: tokens (mean) | ratio |",
        "|---|---|---|---|---|",
    ]
    lg = tk.get("long", {})
    for label, key, ratio in (
        ("whole documents in one prompt (seed before)", "whole_documents_tokens_mean", None),
        ("sections, all calls", "sections_all_calls_tokens_mean", "all_calls_ratio"),
        (
            "sections, the user-facing feedback prompt",
            "sections_feedback_prompt_tokens_mean",
            "user_facing_ratio",
        ),
    ):
        lines.append(
            f"| {label} | {tk[key]} | {tk[ratio] if ratio else 1} | {lg.get(key, '-')} | "
            f"{(lg.get(ratio, '-') if ratio else 1) if lg else '-'} |"
        )
    lines += [
        "",
        "Peer, same graph and simulated model: our server vs `langgraph dev` (LangGraph API "
        "server, in-memory runtime, `--n-jobs-per-worker 64`); values are ours / peer:",
        "",
        "| concurrent streams | TTFT P50 | TTFT ours / peer | total P50 | total P95 | RPS | "
        "errors |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in pe["levels"]:
        o, p = r["ours"], r["langgraph_dev"]
        lines.append(
            f"| {r['concurrency']} | {o['ttft_p50_s']:.2f} / {p['ttft_p50_s']:.2f} s | "
            f"{o['ttft_p50_s'] / p['ttft_p50_s']:.2f} | "
            f"{o['total_p50_s']:.2f} / {p['total_p50_s']:.2f} s | "
            f"{o['total_p95_s']:.2f} / {p['total_p95_s']:.2f} s | "
            f"{o['rps']:.1f} / {p['rps']:.1f} | {o['errors']} / {p['errors']} |"
        )
    lines += render_interview(results)
    lines += render_retrieval(results)
    lines += render_chat(results)
    if "chat_turns" in results:
        ct = results["chat_turns"]
        routes = ", ".join(
            f"{r} {v['p50_ms']} / {v['p95_ms']} ms (n={v['n']})" for r, v in ct["by_route"].items()
        )
        lines += [
            "",
            f"Chat turns on the embedded defaults ({ct['turns']} turns of a 10-turn conversation "
            f"with pointers, listings, documents and postings): P50 {ct['p50_ms']} ms, "
            f"P95 {ct['p95_ms']} ms (target P50 < 200 ms); by route P50 / P95: {routes}.",
        ]
    lines += render_documents(results)
    lines += render_first_request(results)
    lines += render_limits(results)
    lines += render_processes(results)
    am = results.get("analysis_match")
    if am:
        lines += [
            "",
            f"`analysis_match` (the deterministic match, before any model call), cache misses, "
            f"{am['requests']} requests: P50 {am['match_p50_ms']} ms, P95 {am['match_p95_ms']} "
            f"ms after the request; the first model token at {am['first_token_p50_ms']} ms. "
            f"With no resume line seen before (every line embedded): P50 "
            f"{am.get('cold_lines_match_p50_ms')} ms, P95 {am.get('cold_lines_match_p95_ms')} ms.",
        ]
    lines += render_stream_floor(results)
    return "\n".join(lines)


def render_stream_floor(results: dict[str, Any]) -> list[str]:
    """The lean stream beside `stream_events`, and the stack's own floor, at 50 streams."""
    lines: list[str] = []
    lean = results.get("lean_stream")
    if lean:
        cached, new = lean["cached_lines"], lean["new_resume"]
        lines += [
            "",
            "Lean stream vs `stream_events`, 50 simultaneous analyses, added TTFT over the "
            f"model's: cached lines {cached['lean_added_ttft_over_model']}x vs "
            f"{cached['stream_events_added_ttft_over_model']}x, a new resume line "
            f"{new['lean_added_ttft_over_model']}x vs "
            f"{new['stream_events_added_ttft_over_model']}x; bytes per token "
            f"{cached['bytes_per_token_ratio']} of `stream_events`; RPS with two "
            f"workers / one {lean['rps_two_workers_over_one']}x (`bench/results/lean.json`).",
        ]
    floor = results.get("stack_floor")
    if floor:
        cells = ", ".join(
            f"{kind} {row['added_ttft_p50_ms']:.0f} ms ({row['added_ttft_over_model']}x)"
            for kind, row in floor.items()
        )
        lines += [
            "",
            "The stack's floor at 50 simultaneous streams, none of the project's code (FastAPI + "
            "sse-starlette; + the LangChain model; + a one-node LangGraph graph): added TTFT "
            f"{cells} (`bench/results/floor.json`).",
        ]
    return lines


def render_limits(results: dict[str, Any]) -> list[str]:
    lim = results.get("limits")
    if not lim:
        return []
    lines = [
        "",
        "Rate limits and token quota (simulated model, analysis streams): TTFT P50 with every "
        "limit off vs on",
        "",
        "| streams | off | on | added | RPS off / on | errors |",
        "|---|---|---|---|---|---|",
    ]
    for row in lim["levels"]:
        lines.append(
            f"| {row['concurrency']} | {row['ttft_p50_off_s']:.3f} s "
            f"| {row['ttft_p50_on_s']:.3f} s | {row['added_ttft_p50_ms']} ms "
            f"| {row['rps_off']:.1f} / {row['rps_on']:.1f} "
            f"| {row['errors']} |"
        )
    return lines


def render_processes(results: dict[str, Any]) -> list[str]:
    pr = results.get("processes")
    if not pr:
        return []
    docs, web, death = pr["documents_per_minute"], pr["web_concurrency"], pr["worker_death"]
    lines = [
        "",
        f"More than one process ({pr['cpu_count']} cores): document workers (JOB_WORKERS=1 "
        "each), multi-page scanned PDFs",
        "",
        "| workers | documents x pages | wall | documents/min | pages/min |",
        "|---|---|---|---|---|",
    ]
    for row in docs["rows"]:
        lines.append(
            f"| {row['workers']} | {row['documents']} x {row['pages_each']} | {row['wall_s']} s "
            f"| {row['documents_per_min']} | {row['pages_per_min']} |"
        )
    lines += [
        f"\n2 vs 1 workers: {docs['ratio_2_vs_1']}x documents per minute.",
        "",
        "| WEB_CONCURRENCY | streams | TTFT P50 | added TTFT | total P95 | RPS | errors |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in web["rows"]:
        lines.append(
            f"| {row['web_concurrency']} | {row['streams']} | {row['ttft_p50_s']} s "
            f"| {row['added_ttft_p50_ms']} ms | {row['total_p95_s']} s | {row['rps']} "
            f"| {row['errors']} |"
        )
    lines += [
        f"\n2 vs 1 processes: added TTFT {web['added_ttft_ratio_2_vs_1']}x, RPS "
        f"{web['rps_ratio_2_vs_1']}x.",
        "",
        f"Worker SIGKILLed mid-job (heartbeat {death['heartbeat_s']} s, sweep every "
        f"{death['sweep_s']} s): "
        + ", ".join(
            f"{r['death_to_completion_s']} s ({r['pages']} pages, attempts {r['attempts']})"
            for r in death["rows"]
        )
        + " from the kill to the job's completion on the other worker.",
    ]
    return lines


def render_first_request(results: dict[str, Any]) -> list[str]:
    fr = results.get("first_request")
    if not fr:
        return []
    off, on = fr["without_warm_up"], fr["with_warm_up"]
    return [
        "",
        f"First chat request after start-up (/health answered, {fr['settle_s']:g} s later; "
        "simulated model):",
        "",
        "| start-up | first request | second request | first / second |",
        "|---|---|---|---|",
        f"| lazy (WARM_UP_ON_START=false) | {off['first_s']} s | {off['second_s']} s | "
        f"{off['first_s'] / off['second_s']:.2f} |",
        f"| warmed in the background | {on['first_s']} s | {on['second_s']} s | "
        f"{on['first_s'] / on['second_s']:.2f} |",
    ]


def render_threads(results: dict[str, Any]) -> list[str]:
    """Table rows: the embedded model's tokens/s by llama.cpp threads, alone and busy."""
    lt = results.get("local_model_threads")
    if not lt:
        return []
    return [
        f"| embedded model, {n} llama.cpp thread(s) | tokens/s alone / one core busy | "
        f"{row['alone']['tokens_per_s_median']} / {row['one_core_busy']['tokens_per_s_median']} |"
        for n, row in lt.items()
        if n != "cores"
    ]


def render_documents(results: dict[str, Any]) -> list[str]:
    if "documents" not in results:
        return []
    d = results["documents"]
    return [
        "",
        f"Documents, real Tesseract (kor+eng), {d['pages']} rendered A4 resume pages at 150 dpi "
        "(half with noise), caches off:",
        "",
        "| job | one page per request P50 / P95 | as one PDF, per page | ratio |",
        "|---|---|---|---|",
        f"| OCR | {d['ocr_page_p50_s']} / {d['ocr_page_p95_s']} s | {d['pdf_ocr_s_per_page']} s "
        f"| {d['pdf_ocr_ratio']} |",
        f"| masking | {d['mask_page_p50_s']} / {d['mask_page_p95_s']} s | "
        f"{d['pdf_mask_s_per_page']} s | {d['pdf_mask_ratio']} |",
        "",
        f"A PDF's pages are read {d['page_parallelism']} at a time.",
    ] + (
        [
            "",
            f"Born-digital PDF (masked from its text layer, no OCR): "
            f"{d['text_pdf_mask_s_per_page']} s per page. "
            f"Hard scans ({d['hard_pages']} development pages of evals/documents_hard.py): "
            f"OCR P50 / P95 {d['hard_ocr_page_p50_s']} / {d['hard_ocr_page_p95_s']} s, "
            f"masking {d['hard_mask_page_p50_s']} / {d['hard_mask_page_p95_s']} s.",
        ]
        if "hard_pages" in d
        else []
    )


def render_chat(results: dict[str, Any]) -> list[str]:
    lines = []
    if "chat_history_tokens" in results:
        ht = results["chat_history_tokens"]
        lines += [
            "",
            "Chat, the seed's experiments on our code paths (embedded model's tokenizer):",
            "",
            "| experiment | seed design | ours | ratio |",
            "|---|---|---|---|",
        ]
        for size in ("short", "long"):
            row = ht[size]
            lines.append(
                f"| answer-prompt history tokens after {ht['turns']} turns, "
                f"{row['answer_chars']}-character answers | {row['full_history']} (all turns) | "
                f"{row['window_summary']} (5 turns + summary) | {row['ratio']} |"
            )
    if "rag_context_tokens" in results:
        rc = results["rag_context_tokens"]
        seed, ours = rc["top10"], rc["ours"]
        lines.append(
            f"| RAG context tokens, {rc['questions']} questions over 5 documents | "
            f"{seed['context_tokens_mean']:.0f} (top-10) | {ours['context_tokens_mean']:.0f} "
            f"(top-{ours['rag_top_k']}, score >= {ours['rag_min_score']}: "
            f"{ours['chunks_mean']} chunks, none for {100 * ours['no_context_share']:.0f}% of "
            f"questions) | {rc['ratio']} |"
        )
    if "caches" in results:
        ca = results["caches"]
        lines += [
            "",
            f"Model calls on one stream of {ca['requests']} requests with {ca['repeats']} "
            f"repeats ({ca['respaced_repeats']} of them analyses resent with other spacing), "
            "simulated model; the seed promised -40% through caching:",
            "",
            "| feature | requests | calls without caches | with caches | ratio |",
            "|---|---|---|---|---|",
        ]
        for feature, row in ca["by_feature"].items():
            lines.append(
                f"| {feature} | {row['requests']} | {row['without_cache']:.0f} | "
                f"{row['with_cache']:.0f} | {row['with_cache'] / row['without_cache']:.2f} |"
            )
        lines.append(
            f"| all | {ca['requests']} | {ca['without_cache']:.0f} | {ca['with_cache']:.0f} | "
            f"{1 - ca['saved_share']:.2f} |"
        )
    return lines


def render_retrieval(results: dict[str, Any]) -> list[str]:
    if "retrieval" not in results:
        return []
    return retrieval.render(results["retrieval"], results.get("embedding_throughput"))


def render_interview(results: dict[str, Any]) -> list[str]:
    pf, it = results["interview_prefetch"], results["interview_tokens"]
    lines = [
        "",
        "Interview next-question latency (real Redis; follow-ups off so every turn asks a main "
        "question; the benchmark waits for background work between turns, as a candidate's "
        "answering time would). Seed: 3.2 s per question, target 1.5 s.",
        "",
        "| model | without prefetch P50 / P95 | with prefetch P50 / P95 | ratio (P50) | turns |",
        "|---|---|---|---|---|",
    ]
    for name, r in pf.items():
        a, b = r["without_prefetch"], r["with_prefetch"]
        lines.append(
            f"| {name} | {a['p50_s']:.3f} / {a['p95_s']:.3f} s | {b['p50_s']:.3f} / "
            f"{b['p95_s']:.3f} s | {r['p50_ratio']} | {a['n']} / {b['n']} |"
        )
    lines += [
        "",
        f"Interview prompt tokens per main question (embedded tokenizer, {it['turns']}-question "
        "session): 3-turn window + summary vs every turn verbatim (the seed).",
        "",
        "| turn | " + " | ".join(str(i + 1) for i in range(it["turns"])) + " |",
        "|---|" + "---|" * it["turns"],
        "| window + summary | " + " | ".join(map(str, it["windowed"])) + " |",
        "| full history | " + " | ".join(map(str, it["full_history"])) + " |",
        "",
        f"Window / full: {it['last_turn_ratio']} at the last turn, {it['mean_ratio']} over the "
        "session.",
    ]
    return lines


SECTIONS = {
    "local_model": lambda: bench_local_model(),
    "local_model_threads": lambda: bench_local_model_threads(),
    "analysis_cache": lambda: bench_analysis_cache(hits=50),
    "overhead": lambda: asyncio.to_thread(overhead.run),
    "peer": lambda: asyncio.to_thread(peer.run, (1, 10, 50), 2),
    "analysis_tokens": lambda: asyncio.to_thread(tokens.measure),
    "interview_prefetch": lambda: interview.prefetch_latency(),
    "interview_tokens": lambda: asyncio.to_thread(interview.prompt_tokens),
    "retrieval": lambda: retrieval.retrieval_latency(),
    "chat_history_tokens": lambda: asyncio.to_thread(chat.history_tokens),
    "rag_context_tokens": lambda: chat.rag_context_tokens(),
    "chat_turns": lambda: chat.turn_latency(),
    "caches": lambda: caches.cache_savings(),
    "documents": lambda: documents.seconds_per_page(),
    "first_request": lambda: asyncio.to_thread(first_request.first_request),
    "limits": lambda: asyncio.to_thread(overhead.limits_cost),
    "embedding_throughput": lambda: asyncio.to_thread(retrieval.embedding_throughput),
    "processes": lambda: asyncio.to_thread(processes.run),
    "analysis_match": lambda: asyncio.to_thread(overhead.analysis_match_latency),
    # Its own process: it lowers its priority (the load generator's) after its servers start.
    "lean_stream": lambda: asyncio.to_thread(_lean_stream),
    # The stack alone (FastAPI, LangChain, a one-node LangGraph graph) at 50 streams.
    "stack_floor": lambda: asyncio.to_thread(lambda: stack_floor.run()["best"]),
}


def _lean_stream() -> dict:
    import subprocess
    import sys

    from bench import lean

    subprocess.run([sys.executable, "-m", "bench.lean"], check=True, stdout=subprocess.DEVNULL)
    return json.loads(lean.RESULTS.read_text(encoding="utf-8"))["summary"]


async def main(only: list[str]) -> None:
    """Runs every section (or `only` those, keeping the others' last figures)."""
    if not os.environ.get("REDIS_URL"):
        raise SystemExit("REDIS_URL is not set: run `make bench`, which starts the local Redis")
    latest = RESULTS / "latest.json"
    results = json.loads(latest.read_text()) if only and latest.exists() else {}
    results["at"] = datetime.now(UTC).isoformat(timespec="seconds")
    results["machine"] = (
        f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    )
    for name, run in SECTIONS.items():
        if not only or name in only:
            results[name] = await run()
    RESULTS.mkdir(exist_ok=True)
    latest.write_text(json.dumps(results, indent=1, ensure_ascii=False))
    table = render(results)
    (RESULTS / "latest.md").write_text(table + "\n")
    print(table)
    for path in plots.write_plots(results):
        print(path)


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser()
    parser.add_argument("--only", nargs="*", default=[], choices=sorted(SECTIONS))
    asyncio.run(main(parser.parse_args().only))
