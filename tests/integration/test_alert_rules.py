"""The Prometheus alerting rules (docs/prometheus/alerts.yml) and their promtool unit tests.

promtool comes from Debian's prometheus package (`make test` installs SYSTEM_PACKAGES):
without it these tests fail, they do not skip. The rules must also name only metrics the
server really exports (core/telemetry.py, and the process_* metrics of prometheus-client's
default registry), with the labels those metrics really have.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from prometheus_client import REGISTRY
from prometheus_client.metrics import MetricWrapperBase

import core.telemetry as telemetry

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs" / "prometheus" / "alerts.yml"
RULE_TESTS = ROOT / "docs" / "prometheus" / "alerts_test.yml"

# Labels Prometheus adds to every scraped series (and promtool test series carry).
TARGET_LABELS = {"job", "instance"}
SUFFIXES = {"counter": ("_total",), "histogram": ("_bucket", "_count", "_sum"), "gauge": ("",)}


def promtool(*args: str) -> subprocess.CompletedProcess[str]:
    executable = shutil.which("promtool")
    assert executable, (
        "promtool is missing: `make test` installs Debian's prometheus package "
        "(SYSTEM_PACKAGES in the Makefile), or run `apt-get install prometheus`"
    )
    return subprocess.run(
        [executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=120
    )


def rules() -> list[dict[str, Any]]:
    groups = yaml.safe_load(RULES.read_text())["groups"]
    return [rule for group in groups for rule in group["rules"]]


def alerts() -> list[dict[str, Any]]:
    return [rule for rule in rules() if "alert" in rule]


def server_metrics() -> dict[str, set[str]]:
    """Every series name core/telemetry.py exports -> its label names (a histogram's
    _bucket has `le` too), worked out from the metric objects: a labelled metric has no
    samples until its first observation, so the registry alone would miss it."""
    names: dict[str, set[str]] = {}
    for metric in vars(telemetry).values():
        if isinstance(metric, MetricWrapperBase):
            for suffix in SUFFIXES[metric._type]:
                labels = set(metric._labelnames) | ({"le"} if suffix == "_bucket" else set())
                names[metric._name + suffix] = labels
    return names


def exported_names() -> set[str]:
    """The server's metrics plus what the default registry exports on its own in one
    process (process_*, python_gc_*, python_info)."""
    samples = {sample.name for family in REGISTRY.collect() for sample in family.samples}
    return set(server_metrics()) | samples


def strip_strings(expr: str) -> str:
    """The expression without its string literals (label values, regexes)."""
    return re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr)


def test_promtool_accepts_the_rules() -> None:
    out = promtool("check", "rules", str(RULES))
    output = out.stdout + out.stderr
    assert out.returncode == 0, output
    assert f"SUCCESS: {len(rules())} rules found" in output, output


def test_promtool_unit_tests_pass() -> None:
    out = promtool("test", "rules", str(RULE_TESTS))
    output = out.stdout + out.stderr
    assert out.returncode == 0, output
    assert "SUCCESS" in output and "FAILED" not in output, output


def test_the_spec_alerts_are_there_with_severity_for_and_annotations() -> None:
    by_name = {rule["alert"]: rule for rule in alerts()}
    assert {name: rule["labels"]["severity"] for name, rule in by_name.items()} == {
        "DevthsLatencyP95High": "warning",
        "DevthsLatencyP99High": "critical",
        "DevthsErrorRateHigh": "critical",
        "DevthsCpuHigh": "warning",
        "DevthsMemoryHigh": "critical",
        "DevthsModelProviderFailures": "critical",
    }
    assert by_name["DevthsCpuHigh"]["for"] == "5m"  # the spec: 80 % *for 5 minutes*
    for name, rule in by_name.items():
        assert rule.get("for"), name
        assert rule["annotations"]["summary"], name
        assert "$value" in rule["annotations"]["description"], name


def test_every_alert_has_a_firing_and_a_quiet_unit_test() -> None:
    checks = [
        check
        for case in yaml.safe_load(RULE_TESTS.read_text())["tests"]
        for check in case.get("alert_rule_test", [])
    ]
    for rule in alerts():
        mine = [check for check in checks if check["alertname"] == rule["alert"]]
        assert any(check.get("exp_alerts") for check in mine), f"{rule['alert']} never fires"
        assert any(not check.get("exp_alerts") for check in mine), f"{rule['alert']} never quiet"


def test_the_rules_name_only_metrics_the_server_exports() -> None:
    exported = exported_names()
    recorded = {rule["record"] for rule in rules() if "record" in rule}
    referenced: set[str] = set()
    for rule in rules():
        expr = strip_strings(rule["expr"])
        referenced |= set(re.findall(r"\b(?:devths|process)_[A-Za-z0-9_]+\b", expr))
        for name in re.findall(r"\bdevths:[A-Za-z0-9_:]+", expr):
            assert name in recorded, f"{name} is not recorded in {RULES.name}"
    assert len(referenced) >= 6, referenced  # the pattern found the names
    assert referenced <= exported, f"not exported by the server: {referenced - exported}"


def test_the_unit_tests_use_the_real_label_names() -> None:
    metrics = server_metrics()
    exported = exported_names()
    for case in yaml.safe_load(RULE_TESTS.read_text())["tests"]:
        for series in case["input_series"]:
            match = re.fullmatch(r"([A-Za-z_:][A-Za-z0-9_:]*)\{(.*)\}", series["series"])
            assert match, series["series"]
            name, labels = match[1], set(re.findall(r'(\w+)="', match[2]))
            assert name in exported, f"{name} is not exported by the server"
            if name in metrics:
                assert labels - TARGET_LABELS == metrics[name], series["series"]
