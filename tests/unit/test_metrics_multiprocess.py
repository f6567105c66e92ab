"""Metrics with one process (unchanged) and with several (prometheus-client's multiprocess
mode, which is chosen when the process starts: those cases run in child processes)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest
from prometheus_client import REGISTRY, Gauge, generate_latest
from prometheus_client.parser import text_string_to_metric_families

import server  # noqa: F401  # registers every metric the server exports
from core import telemetry

ROOT = Path(__file__).resolve().parents[2]


def families(payload: bytes) -> dict[str, list]:
    return {f.name: f.samples for f in text_string_to_metric_families(payload.decode())}


def run_python(code: str, **environment: str) -> subprocess.CompletedProcess[str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k.lower() not in ("prometheus_multiproc_dir", "prometheus_multiprocess_dir")
    }
    env.update(environment)
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )


def test_one_process_serves_its_own_registry():
    assert telemetry.MULTIPROCESS_DIR is None  # this test process runs without the mode
    telemetry.CACHE_LOOKUPS.labels("unit-single", "hit").inc(3)
    payload, content_type = telemetry.metrics_payload()
    assert content_type.startswith("text/plain")
    served = families(payload)
    lookups = [s for s in served["devths_cache_lookups"] if s.labels["cache"] == "unit-single"]
    assert [(s.name, s.value) for s in lookups if s.name.endswith("_total")] == [
        ("devths_cache_lookups_total", 3.0)
    ]
    # As before: the whole default registry, the process and GC collectors included
    # (which the multiprocess merge cannot export).
    assert {"process_cpu_seconds", "python_gc_objects_collected"} <= set(served)
    assert set(served) == set(families(generate_latest(REGISTRY)))


def test_every_gauge_says_how_processes_combine():
    gauges = [c for c in list(REGISTRY._collector_to_names) if isinstance(c, Gauge)]
    assert telemetry.IN_FLIGHT in gauges
    # "all"/"liveall" export one series per pid: series pile up as workers restart.
    assert {
        g._name: g._multiprocess_mode for g in gauges if g._multiprocess_mode.endswith("all")
    } == {}
    assert telemetry.IN_FLIGHT._multiprocess_mode == "livesum"


async def test_in_flight_counts_a_request_until_its_last_byte():
    seen = []

    async def app(scope, receive, send):
        seen.append(telemetry.IN_FLIGHT._value.get())
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await asyncio.sleep(0)
        seen.append(telemetry.IN_FLIGHT._value.get())
        await send({"type": "http.response.body", "body": b"ok"})

    async def receive():
        return {"type": "http.request", "body": b""}

    async def send(message):
        pass

    before = telemetry.IN_FLIGHT._value.get()
    scope = {"type": "http", "path": "/health", "method": "GET"}
    await telemetry.RequestMetricsMiddleware(app)(scope, receive, send)
    assert seen == [before + 1, before + 1]
    assert telemetry.IN_FLIGHT._value.get() == before


def test_no_op_hook_without_the_mode():
    telemetry.mark_process_dead_on_exit()  # prometheus-client's own call would need a path


WORKER = """
import os, sys
from core import telemetry
telemetry.CACHE_LOOKUPS.labels("unit-multi", "hit").inc({count})
telemetry.IN_FLIGHT.inc()  # a request still in flight when the process ends
if {graceful}:
    telemetry.mark_process_dead_on_exit()
print(os.getpid())
"""

READER = """
import sys
from core import telemetry
telemetry.IN_FLIGHT.inc(2)  # this live process serves 2 requests
sys.stdout.write(telemetry.metrics_payload()[0].decode())
"""


def test_several_processes_merge_and_dead_ones_leave_the_live_gauges(tmp_path):
    env = {"PROMETHEUS_MULTIPROC_DIR": str(tmp_path)}
    pids = []
    for count, graceful in ((3, True), (4, False)):  # the second dies without its shutdown
        done = run_python(WORKER.format(count=count, graceful=graceful), **env)
        assert done.returncode == 0, done.stderr
        pids.append(int(done.stdout))
    files = {p.name for p in tmp_path.iterdir()}
    assert f"counter_{pids[0]}.db" in files and f"counter_{pids[1]}.db" in files
    assert f"gauge_livesum_{pids[0]}.db" not in files  # dropped by the shutdown hook
    assert f"gauge_livesum_{pids[1]}.db" in files

    read = run_python(READER, **env)
    assert read.returncode == 0, read.stderr
    served = families(read.stdout.encode())
    lookups = [
        (s.name, s.value)
        for s in served["devths_cache_lookups"]
        if s.labels == {"cache": "unit-multi", "result": "hit"}
    ]
    assert lookups == [("devths_cache_lookups_total", 7.0)]  # counters of dead ones stay
    # Only the live reader's 2: neither dead process's in-flight request is counted.
    assert [(s.labels, s.value) for s in served["devths_requests_in_flight"]] == [({}, 2.0)]
    assert f"gauge_livesum_{pids[1]}.db" not in {p.name for p in tmp_path.iterdir()}
    assert "process_cpu_seconds" not in served  # per-process collectors cannot be merged


@pytest.mark.parametrize(
    ("environment", "message"),
    [
        ({"PROMETHEUS_MULTIPROCESS_DIR": "/tmp"}, "set PROMETHEUS_MULTIPROC_DIR instead"),
        ({"PROMETHEUS_MULTIPROC_DIR": "/nonexistent/devths"}, "is not a directory"),
        ({"PROMETHEUS_MULTIPROC_DIR": ""}, "is not a directory"),
    ],
)
def test_a_wrong_metrics_directory_stops_the_start(environment, message):
    done = run_python("import core.telemetry", **environment)
    assert done.returncode != 0
    assert message in done.stderr
