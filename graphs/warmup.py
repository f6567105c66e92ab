"""Start-up warm-up: what the first chat or interview request would otherwise wait for.

Kiwi's model (about 2.5 s on 2 cores) and the chat router's example embeddings (about
0.7 s) load lazily; the server's lifespan starts this in the background, so the first
request finds them ready and start-up is not delayed. Everything it loads is also loaded on
demand, so a failure here only costs that first request the wait.
"""

from __future__ import annotations

import asyncio

from nodes.chat.steps import router_for_services
from nodes.shared.korean_text import kiwi


def _load() -> None:
    kiwi().tokenize("면접 준비")
    router_for_services()


async def warm_up() -> None:
    await asyncio.to_thread(_load)
