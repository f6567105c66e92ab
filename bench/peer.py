"""A peer, side by side: the same analysis graph and simulated model served by
`langgraph dev` (the LangGraph API server) and by our server, under the same load.

Our side streams `/ai/analyze/stream_events`; the peer streams `/runs/stream` with
`stream_mode=messages-tuple`. Time to first token is the first token event on each.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
import uuid
from functools import partial
from pathlib import Path
from typing import Any

import httpx

from bench.overhead import POSTING, RESUME, level
from bench.procs import ROOT, free_port, simulated_server, wait_ready

LANGGRAPH = str(Path(sys.executable).with_name("langgraph"))


async def peer_stream(client: httpx.AsyncClient, assistant_id: str) -> tuple[float, float]:
    body = {
        "assistant_id": assistant_id,
        "input": {
            "user_id": "bench",
            "resume_text": RESUME + uuid.uuid4().hex,
            "posting_text": POSTING,
        },
        "stream_mode": ["messages-tuple"],
    }
    start = time.perf_counter()
    first = None
    async with client.stream("POST", "/runs/stream", json=body) as response:
        response.raise_for_status()
        async for line in response.aiter_lines():
            if first is None and line.startswith("event: messages"):
                first = time.perf_counter() - start
            if line.startswith("event: error"):
                raise RuntimeError("error event")
    return (first if first is not None else float("nan")), time.perf_counter() - start


async def peer_level(base: str, concurrency: int, rounds: int) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        assistants = (await client.post("/assistants/search", json={})).json()
    assistant = next(a["assistant_id"] for a in assistants if a["graph_id"] == "analysis")
    return await level(base, concurrency, rounds, partial(peer_stream, assistant_id=assistant))


def run(levels: tuple[int, ...] = (1, 10, 50), rounds: int = 2) -> dict[str, Any]:
    peer_port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env.update(LANGGRAPH_CLI_NO_ANALYTICS="1", LANGSMITH_TRACING="false")
    cmd = [
        LANGGRAPH,
        "dev",
        "--no-browser",
        "--no-reload",
        "--port",
        str(peer_port),
        "--n-jobs-per-worker",
        "64",
        "--config",
        "bench/langgraph.peer.json",
    ]
    peer = subprocess.Popen(
        cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    peer_base = f"http://127.0.0.1:{peer_port}"
    try:
        with simulated_server() as (ours, _pid):
            wait_ready(f"{peer_base}/ok", peer, 120)
            rows = [
                {
                    "concurrency": c,
                    "ours": asyncio.run(level(ours, c, rounds)),
                    "langgraph_dev": asyncio.run(peer_level(peer_base, c, rounds)),
                }
                for c in levels
            ]
    finally:
        peer.terminate()
        peer.wait(timeout=30)
    return {"levels": rows}
