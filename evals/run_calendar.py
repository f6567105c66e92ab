"""Calendar parsing eval: 22 Korean postings written for this project
(evals/datasets/calendar.jsonl), each with its company, position and stages.

    python -m evals.run_calendar        # embedded defaults

Metrics: company exact, position exact, schedule date F1 (a predicted (stage type, date)
pair matches a gold one; stages whose date is unknown are excluded: "nothing is guessed"
is measured separately as invented dates), stage-type accuracy (gold stages matched in
order by type), time accuracy on matched dated stages, invented dates (a predicted date
where the gold has none). Results: evals/results/calendar-latest.{json,md}.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

from core.services import in_process_services, set_services
from core.settings import get_settings
from evals.lab import Case, Metric, Refused, Row, Suite, Target, langserve_target
from evals.lab import run as lab_run
from evals.report import write_results
from graphs.calendar import build_calendar_graph

HERE = Path(__file__).parent
DATASETS = {
    "tuning": HERE / "datasets" / "calendar.jsonl",
    # Written after the extractor was tuned on the set above. Its misses ("3.20(금)" dates,
    # a "회사 | 직무" title) were fixed in session 3, so it is no longer unseen.
    "holdout": HERE / "datasets" / "calendar_holdout.jsonl",
    # Written in session 3 after those fixes, before running the extractor on it. Its misses
    # were then fixed, so it is no longer unseen either.
    "holdout2": HERE / "datasets" / "calendar_holdout2.jsonl",
    # Written in session 3 before the holdout2 fixes; only its totals were read before
    # them, so it measures those fixes on postings they were not shaped on.
    "holdout3": HERE / "datasets" / "calendar_holdout3.jsonl",
    # Session 5 (#13): 135 postings over 17 phrasing families (calendar_spec.md), written by
    # someone who never read the parser, split 50/50 by family. Fix against "dev"; "test"
    # is frozen: read once per change, and a case read and then fixed moves to dev.
    "dev": HERE / "datasets" / "calendar_dev.jsonl",
    "test": HERE / "datasets" / "calendar_test.jsonl",
    # Session 15 (#27): 130 inputs written by a helper who saw only the contract and a
    # brief (calendar_xa_brief.md): pasted job-site, mail and messenger text of every job
    # family, 8 that are not postings, ranges with both ends; split 50/50 by family.
    "xa_dev": HERE / "datasets" / "calendar_xa_dev.jsonl",
    # the first cross-author test split, read six times (sessions 15-19): development now
    "xa_dev2": HERE / "datasets" / "calendar_xa_dev2.jsonl",
    # the second one (session 20, calendar_xa_dev3_brief.md), read five times: development
    "xa_dev3": HERE / "datasets" / "calendar_xa_dev3.jsonl",
    # session 22: 80 inputs by a third helper from the same brief (calendar_xa_dev4_brief.md),
    # the frozen test of sessions 22-24, read in their changes: development now
    "xa_dev4": HERE / "datasets" / "calendar_xa_dev4.jsonl",
    # session 27: 50 inputs by a fifth helper from the same brief with other counts
    # (calendar_xa_dev5_brief.md); its first read, before any use, is
    # evals/results/calendar-xa-dev5-first-read.md
    "xa_dev5": HERE / "datasets" / "calendar_xa_dev5.jsonl",
    # session 28: 50 inputs by a sixth helper from the same brief with other counts
    # (calendar_xa_dev6_brief.md); its first read, before any use, is
    # evals/results/calendar-xa-dev6-first-read.md
    "xa_dev6": HERE / "datasets" / "calendar_xa_dev6.jsonl",
    # session 28: 40 inputs by a seventh helper, mostly outside IT (calendar_xa_dev7_brief.md);
    # its first read, before any use, is evals/results/calendar-xa-dev7-first-read.md
    "xa_dev7": HERE / "datasets" / "calendar_xa_dev7.jsonl",
    # session 29: 50 inputs by a ninth helper, mostly outside IT, the company given in many
    # ways (calendar_xa_dev8_brief.md); its first read, before any use, is
    # evals/results/calendar-xa-dev8-first-read.md
    "xa_dev8": HERE / "datasets" / "calendar_xa_dev8.jsonl",
    # session 30: 45 inputs by a tenth helper, the company given in many ways, 34 of 40
    # postings outside IT (calendar_xa_dev9_brief.md); its first read, before any use, is
    # evals/results/calendar-xa-dev9-first-read.md
    "xa_dev9": HERE / "datasets" / "calendar_xa_dev9.jsonl",
    # session 31: 45 inputs by an eleventh helper, the company the focus (brands, places
    # before public bodies, signatures, search firms), 6 not postings
    # (calendar_xa_dev10_brief.md); its first read, before any use, is
    # evals/results/calendar-xa-dev10-first-read.md
    "xa_dev10": HERE / "datasets" / "calendar_xa_dev10.jsonl",
    # session 32: 45 inputs by a twelfth helper, the company the focus again (a job site's
    # header, a mail domain or URL, an abbreviation beside the name, a foreign parent, a
    # hospital or university department; calendar_xa_dev11_brief.md); its first read, before
    # any use, is evals/results/calendar-xa-dev11-first-read.md
    "xa_dev11": HERE / "datasets" / "calendar_xa_dev11.jsonl",
    # session 25: 80 inputs by a fourth helper from the same brief (calendar_xa_test_brief.md);
    # its first read is evals/results/calendar-xa-test-first-read.md
    "xa_test": HERE / "datasets" / "calendar_xa_test.jsonl",
    # session 29: 60 inputs by an eighth helper, at least half outside IT
    # (calendar_xa_test2_brief.md); frozen, its first read is
    # evals/results/calendar-xa-test2-first-read.md. The split above is worn and reported
    # beside it.
    "xa_test2": HERE / "datasets" / "calendar_xa_test2.jsonl",
}
TARGETS = {"company": 0.95, "date_f1": 0.90, "stage_type": 0.90}


def per_contract(gold: dict[str, Any]) -> dict[str, Any]:
    """The gold as the contract (v1.5) writes it. The cross-author brief described a
    period's two ends for the application ("start_date" its first day, "date" its last) and
    its helper wrote every period that way; the contract keeps `start_date` for the
    application only, and any other stage's period keeps its first day as `date` (as since
    v1, so a client that ignores `start_date` still shows an interview window's first day).
    Read that way: dev 12, test 17 interview/test/other periods."""
    schedules = [
        {**s, "date": s["start_date"], "start_date": None}
        if s.get("start_date") and s.get("date") and s["stage_type"] != "DOCUMENT"
        else s
        for s in gold["schedules"]
    ]
    return {**gold, "schedules": schedules}


def _dated(schedules: list[dict[str, Any]]) -> Counter[tuple[str, str]]:
    return Counter((s["stage_type"], s["date"]) for s in schedules if s["date"])


# The cross-author brief types aptitude, personality and written tests and assignments as
# CODING_TEST ("the test stage"); calendar_spec.md and the parser type them OTHER unless
# code is written. The scorer also reports date F1 with the parser's such stages re-typed
# the brief's way, so a date read right is told apart from a definition that differs.
_BRIEF_TESTS = re.compile(
    r"적성|인성\s*검사|GSAT|SKCT|HMAT|CJAT|필기|NCS|역량\s*검사|과제|"
    r"(?i:aptitude|personality\s+test|written\s+(?:exam|test)|assignment|online\s+test)"
)


def _as_brief_types(schedules: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {**s, "stage_type": "CODING_TEST"}
        if s["stage_type"] == "OTHER" and _BRIEF_TESTS.search(s.get("stage") or "")
        else s
        for s in schedules
    ]


def score(predicted: dict[str, Any], written: dict[str, Any]) -> dict[str, Any]:
    gold = per_contract(written)
    pred_dated = _dated(predicted["schedules"])
    gold_dated = _dated(gold["schedules"])
    hits = sum((pred_dated & gold_dated).values())
    # the same against the gold as its helper wrote it (every period's last day as `date`)
    hits_as_written = sum((pred_dated & _dated(written["schedules"])).values())
    hits_brief_types = sum((_dated(_as_brief_types(predicted["schedules"])) & gold_dated).values())
    # Stage types: gold stages in order, each matched to the next predicted stage of its type.
    remaining = list(predicted["schedules"])
    typed = 0
    invented = 0
    times_ok = times_n = 0
    for g in gold["schedules"]:
        match = next((p for p in remaining if p["stage_type"] == g["stage_type"]), None)
        if match is None:
            continue
        remaining.remove(match)
        typed += 1
        if g["date"] is None and match["date"] is not None:
            invented += 1
        if g["date"] is not None and match["date"] == g["date"]:
            times_n += 1
            times_ok += match["time"] == g["time"]
    # A range kept whole: the predicted stage of a gold range (same type and end date)
    # carries its first day too (the contract's optional `start_date`).
    ranges = [g for g in gold["schedules"] if g.get("start_date") and g.get("date")]
    starts = sum(
        any(
            p["stage_type"] == g["stage_type"]
            and p["date"] == g["date"]
            and p.get("start_date") == g["start_date"]
            for p in predicted["schedules"]
        )
        for g in ranges
    )
    not_posting = bool(gold.get("not_a_posting"))
    refused = predicted.get("refused") or (
        predicted["company"] is None
        and predicted["position"] is None
        and not any(p["date"] for p in predicted["schedules"])
    )
    return {
        "not_posting": not_posting,
        "not_posting_ok": refused if not_posting else None,
        "range_n": len(ranges),
        "range_ok": starts,
        "company": predicted["company"] == gold["company"],
        "position": predicted["position"] == gold["position"],
        "date_hits": hits,
        "date_hits_as_written": hits_as_written,
        "date_hits_brief_types": hits_brief_types,
        "date_predicted": sum(pred_dated.values()),
        "date_gold": sum(gold_dated.values()),
        "stage_typed": typed,
        "stage_gold": len(gold["schedules"]),
        "stage_extra": len(remaining),
        "invented_dates": invented,
        "times_ok": times_ok,
        "times_n": times_n,
    }


def cases(split: str, limit: int | None = None) -> list[Case]:
    text = DATASETS[split].read_text(encoding="utf-8")
    rows = [json.loads(line) for line in text.splitlines() if line]
    return [
        Case(
            key=row["id"],
            inputs={"text": row["text"], "now": row["now"]},
            reference=row["gold"],
            metadata={k: row[k] for k in ("family", "source") if k in row},
        )
        for row in rows[:limit]
    ]


def _refused(code: str) -> dict[str, Any]:
    """A coded refusal (e.g. 422 NOT_A_POSTING) is an answer: nothing was guessed."""
    return {"company": None, "position": None, "schedules": [], "refused": code}


async def in_process() -> Target:
    from core.errors import AIError

    settings = get_settings().model_copy(update={"model_timeout_s": 900.0})
    set_services(in_process_services(settings))
    graph = build_calendar_graph().compile()

    async def parse(inputs: dict[str, Any]) -> dict[str, Any]:
        try:
            return await graph.ainvoke(inputs)
        except AIError as exc:
            return _refused(exc.code)

    return parse


def over_http(server: str) -> Target:
    call = langserve_target(server, "/ai/calendar/parse")

    async def parse(inputs: dict[str, Any]) -> dict[str, Any]:
        try:
            return await call(inputs)
        except Refused as exc:
            return _refused(exc.code)

    return parse


def per_case(
    inputs: dict[str, Any], outputs: dict[str, Any], gold: dict[str, Any]
) -> dict[str, float | bool | None]:
    """What LangSmith shows per posting (the set-level F1 is the summary's)."""
    s = score(outputs, gold)
    return {
        "company": s["company"],
        "position": s["position"],
        "dates_all_found": s["date_hits"] == s["date_gold"] == s["date_predicted"],
        "stage_type": s["stage_typed"] / s["stage_gold"] if s["stage_gold"] else None,
        "invented_dates": s["invented_dates"],
        "not_posting_ok": s["not_posting_ok"],
    }


def _f1(precision: float, recall: float) -> float:
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


def summarise(rows: list[Row]) -> dict[str, Any]:
    results = [
        {"id": r.case.key, "output": r.outputs, **score(r.outputs, r.case.reference)}
        for r in rows
        if r.outputs is not None
    ]
    total = lambda k: sum(r[k] for r in results)  # noqa: E731
    precision = total("date_hits") / max(1, total("date_predicted"))
    recall = total("date_hits") / max(1, total("date_gold"))
    return {
        "postings": len(results),
        "company": total("company") / max(1, len(results)),
        "position": total("position") / max(1, len(results)),
        "date_precision": precision,
        "date_recall": recall,
        "date_f1": _f1(precision, recall),
        "date_f1_as_written": _f1(
            total("date_hits_as_written") / max(1, total("date_predicted")),
            total("date_hits_as_written") / max(1, total("date_gold")),
        ),
        "date_f1_brief_types": _f1(
            total("date_hits_brief_types") / max(1, total("date_predicted")),
            total("date_hits_brief_types") / max(1, total("date_gold")),
        ),
        "stage_type": total("stage_typed") / max(1, total("stage_gold")),
        "extra_stages": total("stage_extra"),
        "invented_dates": total("invented_dates"),
        "time_accuracy": total("times_ok") / max(1, total("times_n")),
        "not_postings": sum(r["not_posting"] for r in results),
        "not_posting_refused": (
            sum(bool(r["not_posting_ok"]) for r in results if r["not_posting"])
            / sum(r["not_posting"] for r in results)
            if any(r["not_posting"] for r in results)
            else None
        ),
        "postings_wrongly_refused": sum(
            1 for r in results if not r["not_posting"] and r["output"].get("refused")
        ),
        "ranges": total("range_n"),
        "range_start_kept": total("range_ok") / total("range_n") if total("range_n") else None,
        "postings_scored": results,
    }


SUITE = Suite(
    feature="calendar",
    splits=tuple(DATASETS),
    cases=cases,
    target=in_process,
    http_target=over_http,
    score=per_case,
    summarise=summarise,
    metrics=(
        Metric("company", "company exact", TARGETS["company"]),
        Metric("position", "position exact"),
        Metric("date_f1", "schedule date F1", TARGETS["date_f1"]),
        Metric("stage_type", "stage type accuracy", TARGETS["stage_type"]),
        Metric("invented_dates", "invented dates (gold has none)", 0, lower_is_better=True),
        Metric("not_posting_refused", "not a posting: nothing guessed", 1.0),
        Metric("range_start_kept", "ranges with both ends"),
    ),
    model_features=("calendar",),
)


async def run(dataset: str = "tuning", server: str | None = None) -> dict[str, Any]:
    """One split through `evals.lab` (LangSmith `aevaluate`), summarised for the table."""
    experiment = await lab_run(SUITE, dataset, server=server)
    summary = dict(experiment.summary)
    postings = summary.pop("postings_scored")
    summary["model"] = experiment.metadata["models"]["calendar"]
    summary["experiment"] = experiment.name
    return {"summary": summary, "postings": postings}


def render(s: dict[str, Any], dataset: str = "tuning") -> str:
    rows = [
        ("company exact", s["company"], TARGETS["company"]),
        ("position exact", s["position"], None),
        ("schedule date F1", s["date_f1"], TARGETS["date_f1"]),
        (
            "schedule date precision / recall",
            f"{s['date_precision']:.3f} / {s['date_recall']:.3f}",
            None,
        ),
        (
            "schedule date F1, every period's last day as date (the gold as written)",
            s["date_f1_as_written"],
            None,
        ),
        (
            "schedule date F1, aptitude/written tests and assignments typed CODING_TEST (the "
            "cross-author brief's definition)",
            s.get("date_f1_brief_types"),
            None,
        ),
        ("stage type accuracy", s["stage_type"], TARGETS["stage_type"]),
        ("time accuracy (dated stages found)", s["time_accuracy"], None),
        ("stages not in the gold", s["extra_stages"], None),
        ("invented dates (gold has none)", s["invented_dates"], 0),
    ]
    if s.get("not_postings"):
        rows.append(
            (f"not a posting: nothing guessed ({s['not_postings']})", s["not_posting_refused"], 1.0)
        )
        rows.append(("postings refused as not a posting", s["postings_wrongly_refused"], 0))
    if s.get("ranges"):
        rows.append((f"ranges with both ends ({s['ranges']})", s["range_start_kept"], None))
    lines = [
        f"Calendar eval ({dataset} set): {s['postings']} postings, model `{s['model']}`",
        "",
        "| metric | value | target | met |",
        "|---|---|---|---|",
    ]
    for name, value, target in rows:
        shown = f"{value:.3f}" if isinstance(value, float) else str(value)
        met = ""
        if target is not None and not isinstance(value, str):
            met = "yes" if (value <= target if target == 0 else value >= target) else "NO"
        lines.append(f"| {name} | {shown} | {'' if target is None else target} | {met} |")
    return "\n".join(lines)


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser()
    parser.add_argument("--dataset", nargs="*", choices=sorted(DATASETS), default=list(DATASETS))
    parser.add_argument("--tag", default="latest", help="results file suffix")
    parser.add_argument("--server", help="call a running server at this URL instead")
    args = parser.parse_args()
    for dataset in args.dataset:
        result = asyncio.run(run(dataset, args.server))
        name = dataset.replace("_", "-")
        stem = f"calendar-{args.tag}" if dataset == "tuning" else f"calendar-{name}-{args.tag}"
        write_results(stem, render(result["summary"], dataset), result)


if __name__ == "__main__":
    main()
