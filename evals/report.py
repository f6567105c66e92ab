"""Where every eval puts its figures: evals/results/{stem}.md (the table) and .json (the
whole result), both stamped with the run's time."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).parent / "results"


def write_results(stem: str, table: str, result: dict[str, Any]) -> None:
    """Print the table and write `{stem}.md` and `{stem}.json` under evals/results."""
    stamp = datetime.now(UTC).isoformat(timespec="seconds")
    print(table)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"{stem}.json").write_text(
        json.dumps({"at": stamp, **result}, ensure_ascii=False, indent=1, default=str),
        encoding="utf-8",
    )
    (RESULTS / f"{stem}.md").write_text(f"{table}\n\nRun at {stamp}.\n", encoding="utf-8")
