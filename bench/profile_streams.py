"""Where the server's time goes at 50 concurrent analysis streams (lean stream), sampled by
py-spy (bench extra) from outside the process: the top functions by own time and by total
time, written to bench/results/profile_50_streams.json (and the raw folded stacks beside).

python -m bench.profile_streams
"""

from __future__ import annotations

import asyncio
import collections
import json
import os
import subprocess
import sys
from pathlib import Path

from bench.lean import level
from bench.procs import simulated_server

RESULTS = Path(__file__).resolve().parent / "results"


def top(folded: Path, n: int = 15) -> dict[str, list[tuple[str, float]]]:
    own: collections.Counter[str] = collections.Counter()
    total: collections.Counter[str] = collections.Counter()
    samples = 0
    for line in folded.read_text(encoding="utf-8").splitlines():
        stack, _, count = line.rpartition(" ")
        if not count.isdigit():  # py-spy's own notes
            continue
        # "func (path/file.py:123)" -> "func (path/file.py)": lines of one function together
        frames = [f.rsplit(":", 1)[0] + ")" if f.endswith(")") else f for f in stack.split(";")]
        samples += int(count)
        own[frames[-1]] += int(count)
        for frame in set(frames):
            total[frame] += int(count)
    share = lambda c: [(f, round(100 * k / samples, 1)) for f, k in c.most_common(n)]  # noqa: E731
    return {"samples": samples, "own_percent": share(own), "total_percent": share(total)}


def summarise() -> dict:
    """The figures again from the saved stacks (no new run)."""
    return top(RESULTS / "profile_50_streams.folded")


def run(concurrency: int = 50, rounds: int = 2) -> dict:
    folded = RESULTS / "profile_50_streams.folded"
    RESULTS.mkdir(exist_ok=True)
    with simulated_server(600, 28) as (base, pid):
        asyncio.run(level(base, "lean", 5, 1, False))  # warm
        spy = subprocess.Popen(
            [
                str(Path(sys.executable).parent / "py-spy"),
                "record",
                "--pid",
                str(pid),
                "--format",
                "raw",
                "--output",
                str(folded),
                "--rate",
                "200",
                "--nonblocking",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.nice(10)  # the load generator steps back
        figures = asyncio.run(level(base, "lean", concurrency, rounds, False))
        spy.send_signal(2)
        spy.wait(timeout=60)
    result = {"load": figures, "profile": top(folded)}
    (RESULTS / "profile_50_streams.json").write_text(json.dumps(result, indent=2), "utf-8")
    return result


if __name__ == "__main__":
    print(json.dumps(run()["profile"], indent=1, ensure_ascii=False))
