"""The real server with every model replaced by the simulated one (benchmarks only).

python -m bench.sim_server --port 8100 --ttft-ms 600 --tps 28
"""

from __future__ import annotations

import argparse

import uvicorn

import server
from bench.simulated import SimulatedChatModel
from core.models import ModelRegistry
from core.settings import Settings


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=8100)
    parser.add_argument("--ttft-ms", type=float, default=600)
    parser.add_argument("--tps", type=float, default=28)
    # uvicorn's choices; "auto" is what `make run` gets (uvloop and httptools are installed)
    parser.add_argument("--loop", default="auto", choices=("auto", "asyncio", "uvloop"))
    parser.add_argument("--http", default="auto", choices=("auto", "h11", "httptools"))
    args = parser.parse_args()
    model = SimulatedChatModel(ttft_s=args.ttft_ms / 1000, tokens_per_s=args.tps)
    real_create = server.create_services

    async def with_simulated_model(settings: Settings):
        services = await real_create(settings)
        services.models = ModelRegistry(settings, {"*": model})
        return services

    server.create_services = with_simulated_model  # the lifespan looks it up at start-up
    uvicorn.run(
        server.create_app(),
        host="127.0.0.1",
        port=args.port,
        log_level="warning",
        access_log=False,
        loop=args.loop,
        http=args.http,
    )


if __name__ == "__main__":
    main()
