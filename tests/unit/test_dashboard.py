"""The Grafana dashboard only queries metrics the server really exports."""

import json
import re
from pathlib import Path

from prometheus_client import REGISTRY

import server  # noqa: F401  # registers every metric the server exports

DASHBOARD = Path(__file__).resolve().parents[2] / "docs" / "grafana" / "devths-ai.json"


def test_every_dashboard_metric_exists():
    exported = set()
    for family in REGISTRY.collect():  # every metric the server's modules registered
        if family.name.startswith("devths_"):
            exported.add(family.name)
            exported |= {f"{family.name}{s}" for s in ("_bucket", "_count", "_sum", "_total")}
    panels = json.loads(DASHBOARD.read_text())["panels"]
    used = {
        m for p in panels for t in p["targets"] for m in re.findall(r"devths_[a-z_]+", t["expr"])
    }
    assert used and used <= exported, used - exported
    titles = " ".join(p["title"] for p in panels).lower()
    for seed_panel in (
        "request rate",
        "latency",
        "tokens per day",
        "error rate",
        "cache hit",
        "retrieval",
    ):
        assert seed_panel in titles
