"""The stack's floor: what FastAPI, sse-starlette, LangChain and LangGraph alone add to the
first token at 50 simultaneous streams, with none of the project's code on the path.

Three minimal servers answer one SSE route with the simulated model's feedback (600 ms TTFT,
28 tokens/s), each one layer more than the last:
- `bare`: an async generator that sleeps the model's TTFT and yields the words (no LangChain);
- `model`: the simulated chat model's `astream` (LangChain's callbacks and chunks);
- `graph`: a one-node LangGraph graph calling that model, read with `stream_mode="messages"`
  (how the lean stream reads tokens).
Measured with the lean benchmark's load generator (same bursts, nice 10), so the figures sit
beside `bench.lean`'s. If the floor already adds more than the target (0.25x the model's TTFT)
the target cannot be met by this stack on this machine, whatever the project's code does.

python -m bench.floor   (writes bench/results/floor.json)
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import statistics
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, TypedDict

import httpx
from fastapi import FastAPI
from langchain_core.messages import HumanMessage
from sse_starlette import EventSourceResponse

from bench.measure import percentile
from bench.overhead import bursts
from bench.procs import ROOT, free_port, wait_ready
from bench.simulated import FEEDBACK, SimulatedChatModel

RESULTS = Path(__file__).resolve().parent / "results" / "floor.json"
KINDS = ("bare", "model", "graph")
MODEL_TTFT_S = 0.6  # the seed's measured Gemini TTFT, as bench.lean's simulated model


class _State(TypedDict):
    text: str


def _graph(model: SimulatedChatModel) -> Any:
    from langgraph.graph import END, START, StateGraph

    async def write(state: _State) -> dict[str, str]:
        reply = await model.ainvoke([HumanMessage(state["text"])])
        return {"text": reply.text}

    builder = StateGraph(_State)
    builder.add_node("write", write)
    builder.add_edge(START, "write")
    builder.add_edge("write", END)
    return builder.compile()


def create_app() -> FastAPI:
    kind = os.environ["FLOOR_KIND"]
    model = SimulatedChatModel(ttft_s=MODEL_TTFT_S, tokens_per_s=28.0)
    graph = _graph(model)
    app = FastAPI()

    @app.get("/health")
    async def health() -> dict[str, str]:
        return {"status": "ok"}

    async def tokens(text: str) -> AsyncIterator[str]:
        if kind == "bare":
            await asyncio.sleep(model.ttft_s)
            for piece in re.findall(r"\S+\s*", FEEDBACK):
                yield piece
                await asyncio.sleep(1 / model.tokens_per_s)
        elif kind == "model":
            async for chunk in model.astream([HumanMessage(text)]):
                if chunk.text:
                    yield chunk.text
        else:
            async for chunk, _meta in graph.astream({"text": text}, stream_mode="messages"):
                if chunk.text:
                    yield chunk.text

    @app.post("/floor")
    async def floor(body: dict[str, Any]) -> EventSourceResponse:
        async def events() -> AsyncIterator[dict[str, str]]:
            async for piece in tokens(str(body.get("text", ""))):
                yield {"event": "token", "data": json.dumps({"delta": piece}, ensure_ascii=False)}
            yield {"event": "end", "data": "{}"}

        return EventSourceResponse(events())

    return app


async def _one(client: httpx.AsyncClient) -> tuple[float, float]:
    start, first = time.perf_counter(), None
    async with client.stream("POST", "/floor", json={"text": "피드백:"}) as response:
        response.raise_for_status()
        async for line in response.aiter_lines():
            if first is None and line.startswith("event: token"):
                first = time.perf_counter() - start
    return (first if first is not None else float("nan")), time.perf_counter() - start


def _measure(kind: str, concurrency: int, rounds: int) -> dict[str, Any]:
    port = free_port()
    cmd = [
        sys.executable, "-m", "uvicorn", "bench.floor:create_app", "--factory",
        "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning", "--no-access-log",
    ]  # fmt: skip
    proc = subprocess.Popen(cmd, cwd=ROOT, env={**os.environ, "FLOOR_KIND": kind})
    try:
        wait_ready(f"http://127.0.0.1:{port}/health", proc, 60)
        # the load generator runs at lower priority (nice 10), the server at the usual one
        load = [
            sys.executable,
            "-m",
            "bench.floor",
            "--load",
            str(port),
            str(concurrency),
            str(rounds),
        ]
        out = subprocess.run(["nice", "-n", "10", *load], cwd=ROOT, check=True, capture_output=True)
        results, errors, wall = json.loads(out.stdout)
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    ttfts = [r[0] for r in results]
    added = statistics.median(ttfts) - MODEL_TTFT_S
    return {
        "kind": kind,
        "concurrency": concurrency,
        "requests": len(results) + errors,
        "errors": errors,
        "ttft_p50_s": round(statistics.median(ttfts), 4),
        "ttft_p95_s": round(percentile(ttfts, 0.95), 4),
        "added_ttft_p50_ms": round(1000 * added, 1),
        "added_ttft_over_model": round(added / MODEL_TTFT_S, 3),
        "rps": round(len(results) / wall, 2),
    }


def run(concurrency: int = 50, rounds: int = 2, repeats: int = 2) -> dict[str, Any]:
    rows = [_measure(kind, concurrency, rounds) for _ in range(repeats) for kind in KINDS]
    best = {
        k: min((r for r in rows if r["kind"] == k), key=lambda r: r["ttft_p50_s"]) for k in KINDS
    }
    result = {"runs": rows, "best": best}
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=2), encoding="utf-8")
    return result


if __name__ == "__main__":
    if sys.argv[1:2] == ["--load"]:
        port, concurrency, rounds = (int(a) for a in sys.argv[2:5])
        got = asyncio.run(bursts(f"http://127.0.0.1:{port}", concurrency, rounds, _one))
        print(json.dumps(got))
    else:
        print(json.dumps(run()["best"], indent=2))
