"""The frozen test splits as pytest tests, for evaluators who work in pytest:

    make eval-pytest                                   # offline: plain pytest
    LANGSMITH_API_KEY=... LANGSMITH_TEST_TRACKING=true make eval-pytest   # tracked

Each test runs one feature's frozen split through `evals.lab` (the same experiment
`python -m evals.lab` records), logs every set-level figure as LangSmith feedback
(`langsmith.testing.log_feedback`, a no-op offline), and fails for each figure that misses
its target: a red test here is a target not met, never hidden. Not part of `make test`
(testpaths = tests): these read the frozen splits, once per change.
"""

from __future__ import annotations

import asyncio

import pytest
from langsmith import testing

from evals import lab

FROZEN = [
    ("calendar", "xa_test"),
    ("calendar", "xa_test2"),
    ("chat", "xa_test"),
    ("chat", "xa_test2"),
    ("interview", "xa_test"),
    ("interview", "xa_test2"),
    ("documents", "test"),
]


@pytest.mark.langsmith
@pytest.mark.parametrize(("feature", "split"), FROZEN, ids=[f"{f}-{s}" for f, s in FROZEN])
def test_frozen_split_meets_its_targets(feature: str, split: str) -> None:
    suite = lab.suite_for(feature)
    experiment = asyncio.run(lab.run(suite, split))
    testing.log_inputs({"feature": feature, "split": split, "cases": len(experiment.rows)})
    testing.log_outputs({"experiment": experiment.name, "figures": experiment.figures})
    for key, value in experiment.figures.items():
        if value is not None:
            testing.log_feedback(key=key, score=value)
    missed = [
        f"{m.label}: {experiment.figures.get(m.key)} (target {m.target})"
        for m in suite.metrics
        if m.met(experiment.figures.get(m.key)) is False
    ]
    assert not experiment.summary["failed_runs"], experiment.summary["failed_runs"]
    assert not missed, "; ".join(missed)
