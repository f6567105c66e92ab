"""The first chat request after start-up, with and without the start-up warm-up.

The real server on real Redis with the simulated model (600 ms TTFT, 28 tokens/s); the
client waits until /health answers and 5 s more (a deploy's readiness delay), then sends one
general chat question, then a second one. The difference between the first and the second
is what the first user waits for lazily loaded parts (Kiwi, the router's examples).

    python -m bench.run --only first_request
"""

from __future__ import annotations

import time
import uuid
from typing import Any

import httpx

from bench.procs import simulated_server


def _ask(client: httpx.Client, user: str, message: str) -> float:
    # a new user each run: the answer cache (in Redis) must not serve an earlier run
    body = {"input": {"user_id": user, "room_id": "r1", "message": message}}
    start = time.perf_counter()
    response = client.post("/ai/chat/invoke", json=body)
    response.raise_for_status()
    return time.perf_counter() - start


def first_request(settle_s: float = 5.0) -> dict[str, Any]:
    out: dict[str, Any] = {"settle_s": settle_s}
    for name, flag in (("without_warm_up", "false"), ("with_warm_up", "true")):
        settings = {"WARM_UP_ON_START": flag}
        with (
            simulated_server(env=settings) as (base, _pid),
            httpx.Client(base_url=base, timeout=120) as c,
        ):
            time.sleep(settle_s)
            run = uuid.uuid4().hex[:8]
            first = _ask(c, f"a-{run}", "면접 볼 때 긴장을 줄이는 방법 있어?")
            second = _ask(c, f"b-{run}", "연봉 협상은 어떻게 하는 게 좋아?")
        out[name] = {"first_s": round(first, 2), "second_s": round(second, 2)}
    return out
