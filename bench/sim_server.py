"""The real server with every model replaced by the simulated one (benchmarks only).

python -m bench.sim_server --port 8100 --ttft-ms 600 --tps 28 [--workers 2]
"""

from __future__ import annotations

import argparse
import os

import uvicorn
from fastapi import FastAPI

import server
from bench.simulated import SimulatedChatModel
from core.models import ModelRegistry
from core.settings import Settings


def create_simulated_app() -> FastAPI:
    """The app with the simulated model (SIM_TTFT_MS, SIM_TPS): a factory, so that each
    uvicorn worker process patches its own server module."""
    model = SimulatedChatModel(
        ttft_s=float(os.environ["SIM_TTFT_MS"]) / 1000, tokens_per_s=float(os.environ["SIM_TPS"])
    )
    real_create = server.create_services

    async def with_simulated_model(settings: Settings):
        services = await real_create(settings)
        services.models = ModelRegistry(settings, {"*": model})
        return services

    server.create_services = with_simulated_model  # the lifespan looks it up at start-up
    return server.create_app()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=8100)
    parser.add_argument("--ttft-ms", type=float, default=600)
    parser.add_argument("--tps", type=float, default=28)
    # uvicorn's choices; "auto" is what `make run` gets (uvloop and httptools are installed)
    parser.add_argument("--loop", default="auto", choices=("auto", "asyncio", "uvloop"))
    parser.add_argument("--http", default="auto", choices=("auto", "h11", "httptools"))
    parser.add_argument("--workers", type=int, default=1, help="uvicorn worker processes")
    args = parser.parse_args()
    os.environ.update(SIM_TTFT_MS=str(args.ttft_ms), SIM_TPS=str(args.tps))
    uvicorn.run(
        "bench.sim_server:create_simulated_app",
        factory=True,
        workers=args.workers,
        host="127.0.0.1",
        port=args.port,
        log_level="warning",
        access_log=False,
        loop=args.loop,
        http=args.http,
    )


if __name__ == "__main__":
    main()
