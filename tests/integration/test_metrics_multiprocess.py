"""/metrics is whole across uvicorn worker processes (prometheus-client multiprocess mode).

A real `uvicorn server:app --workers 2` on real Redis, PROMETHEUS_MULTIPROC_DIR on a fresh
directory. Each worker's own values are read from its file in that directory, which is
what /metrics would report if the scrape reached that worker without the merge.
"""

from __future__ import annotations

import os
import re
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.parser import text_string_to_metric_families

from tests.integration.conftest import free_port, running_process

pytestmark = pytest.mark.integration

HEALTH = {"route": "/health", "status": "200"}
METRICS = {"route": "/metrics", "status": "200"}


def per_process_counts(directory: Path, labels: dict[str, str]) -> dict[int, float]:
    """Requests counted by each worker alone (its own histogram file), by pid."""
    counts: dict[int, float] = {}
    for path in directory.glob("histogram_*.db"):
        pid = int(path.stem.split("_")[1])
        for metric in MultiProcessCollector.merge([str(path)]):
            for sample in metric.samples:
                if sample.name == "devths_request_seconds_count" and sample.labels == labels:
                    counts[pid] = sample.value
    return counts


def scrape(base: str) -> tuple[float, list]:
    """The merged /health request count and the in-flight gauge's samples, from one
    /metrics read on a fresh connection."""
    response = httpx.get(f"{base}/metrics", headers={"Connection": "close"}, timeout=10)
    assert response.status_code == 200
    health, in_flight = 0.0, []
    for family in text_string_to_metric_families(response.text):
        for sample in family.samples:
            if sample.name == "devths_request_seconds_count" and sample.labels == HEALTH:
                health = sample.value
            if sample.name == "devths_requests_in_flight":
                in_flight.append(sample)
    return health, in_flight


def test_metrics_sum_every_worker(redis_url: str, tmp_path: Path) -> None:
    metrics_dir = tmp_path / "prometheus"
    metrics_dir.mkdir()
    port = free_port()
    env = {**os.environ, "REDIS_URL": redis_url, "HOST": "127.0.0.1", "PORT": str(port)}
    env.pop("AI_API_KEY", None)
    env.pop("prometheus_multiproc_dir", None)
    env.update(
        PROMETHEUS_MULTIPROC_DIR=str(metrics_dir),
        RATE_LIMIT_PER_MINUTE="100000",
        TOKEN_QUOTA_PER_DAY="1000000000",
        WARM_UP_ON_START="false",
    )
    cmd = [sys.executable, "-m", "uvicorn", "server:app", "--workers", "2"]
    cmd += ["--port", str(port), "--no-access-log"]
    log_path = tmp_path / "server.log"
    # Ready on /metrics, so that the readiness probe adds nothing to the /health count;
    # running_process terminates the server by its pid and waits for it, in a finally.
    with running_process(cmd, env, log_path, "/metrics", port, 120) as base:
        deadline = time.monotonic() + 120
        while log_path.read_text().count("Application startup complete.") < 2:
            assert time.monotonic() < deadline, "both workers did not start"
            time.sleep(0.3)
        workers = {
            int(p) for p in re.findall(r"Started server process \[(\d+)\]", log_path.read_text())
        }
        assert len(workers) == 2

        def health(_: int) -> int:  # a fresh connection each: either worker may accept it
            url = f"{base}/health"
            return httpx.get(url, headers={"Connection": "close"}, timeout=30).status_code

        # Batches until both workers have served some (the kernel picks who accepts).
        sent = 0
        with ThreadPoolExecutor(max_workers=8) as pool:
            while sent < 400:
                assert set(pool.map(health, range(20))) == {200}
                sent += 20
                served = per_process_counts(metrics_dir, HEALTH)
                if len(served) == 2 and sum(served.values()) == sent:
                    break
        served = per_process_counts(metrics_dir, HEALTH)
        assert set(served) == workers, f"one worker served all {sent}: {served}"
        # Each worker alone holds only its share: scraping one worker's own registry
        # would report a partial, changing count.
        assert all(0 < count < sent for count in served.values()), served
        assert sum(served.values()) == sent

        # Read /metrics until both workers have answered some of the reads: every read,
        # whichever worker served it, reports the whole count.
        before = per_process_counts(metrics_dir, METRICS)
        totals, in_flight_values = [], []
        for _ in range(200):
            total, in_flight = scrape(base)
            totals.append(total)
            # One series, no pid label: the workers' in-flight counts are summed ("livesum").
            assert [(s.labels, s.value >= 1) for s in in_flight] == [({}, True)], in_flight
            in_flight_values.append(in_flight[0].value)
            after = per_process_counts(metrics_dir, METRICS)
            if len(totals) >= 5 and all(after.get(p, 0) > before.get(p, 0) for p in workers):
                break
        assert all(after.get(p, 0) > before.get(p, 0) for p in workers), (before, after)
        assert set(totals) == {sent}, totals
        # Only the read itself is in flight (a read can overlap the end of the previous one
        # on the other worker, hence "at least one read").
        assert 1.0 in in_flight_values, in_flight_values
