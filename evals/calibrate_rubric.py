"""Calibrates the interview rubric's scale against answers graded by another author.

    python -m evals.calibrate_rubric      -> nodes/interview/rubric_calibration.json

The rubric adds four parts (substance, relevance, concreteness, structure) into a raw
0..100 that is compressed: the cross-author dev split's A answers average about 70 raw,
its F answers about 30. The calibration is the monotone (isotonic, pool-adjacent-violators)
fit of the grader's score on the raw score over the development splits only
(`evals/datasets/interview_xa_{dev,dev2,dev3}.jsonl`), with its leave-one-session-out agreement
printed; the frozen test split measures it. Monotone, so a better answer never scores
lower than a worse one did.
"""

from __future__ import annotations

import json
from pathlib import Path

from core.services import in_process_services, set_services
from core.settings import get_settings

HERE = Path(__file__).parent
TABLE = HERE.parent / "nodes" / "interview" / "rubric_calibration.json"
# the development splits (the first cross-author split, its former test half, a third
# helper's sessions)
SPLITS = ("dev", "dev2", "dev3")


def isotonic(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Pool-adjacent-violators: the non-decreasing step fit of y on x, as (mean x, fitted
    y) per pooled block."""
    blocks: list[list[float]] = []  # [sum x, sum y, n]
    for x, y in sorted(points):
        if blocks and blocks[-1][0] / blocks[-1][2] == x:  # one block per raw score
            blocks[-1][0] += x
            blocks[-1][1] += y
            blocks[-1][2] += 1
        else:
            blocks.append([x, y, 1])
        while len(blocks) > 1 and blocks[-2][1] / blocks[-2][2] > blocks[-1][1] / blocks[-1][2]:
            last = blocks.pop()
            for i in range(3):
                blocks[-1][i] += last[i]
    return [(sx / n, sy / n) for sx, sy, n in blocks]


def held_out(rows: list[dict]) -> dict[str, float]:
    """Leave-one-session-out: each session scored by the fit on the other sessions, so the
    dev split's agreement is not read off the points it was fitted to."""
    from evals.metrics import cohen_kappa, icc_2_1
    from evals.run_interview import BANDS
    from nodes.interview.answers import interpolate
    from nodes.interview.report import grade_for

    pairs = []
    for session in sorted({r["session"] for r in rows}):
        fit = isotonic(
            [(float(r["score"]), float(r["gold_score"])) for r in rows if r["session"] != session]
        )
        for r in rows:
            if r["session"] == session:
                pairs.append((r, interpolate(fit, r["score"])))
    gold, ours = [r["gold_band"] for r, _ in pairs], [grade_for(s) for _, s in pairs]
    return {
        "icc_2_1": round(icc_2_1([[r["gold_score"], s] for r, s in pairs]), 3),
        "kappa": round(cohen_kappa(gold, ours, BANDS), 3),
        "kappa_quadratic": round(cohen_kappa(gold, ours, BANDS, "quadratic"), 3),
    }


FloorSet = tuple[int, int, int, int]


def fit_floors(pairs: list[tuple[int, str]]) -> FloorSet:
    """The A, B, C and D floors (each at least 5 above the next) that put the most of the
    (calibrated score, grader's band) pairs in the grader's band; the highest floors among
    equals. Counted with running sums per band over the integer scores 0..100."""
    running = {band: [0] * 102 for band in "ABCDF"}
    for score, band in pairs:
        running[band][min(max(score, 0), 100) + 1] += 1
    for band in running:
        for i in range(1, 102):
            running[band][i] += running[band][i - 1]

    def within(band: str, low: int, high: int) -> int:  # scores low..high-1
        return running[band][high] - running[band][low]

    best: tuple[int, FloorSet] | None = None
    for a in range(95, 59, -1):
        for b in range(a - 5, 44, -1):
            for c in range(b - 5, 29, -1):
                for d in range(c - 5, 14, -1):
                    hits = (
                        within("A", a, 101)
                        + within("B", b, a)
                        + within("C", c, b)
                        + within("D", d, c)
                        + within("F", 0, d)
                    )
                    if best is None or hits > best[0]:
                        best = (hits, (a, b, c, d))
    assert best is not None
    return best[1]


def floors_held_out(rows: list[dict], fitted: list[tuple[float, float]]) -> None:
    """Leave-one-split-out: floors fitted on two dev splits, exact band agreement read on
    the third, beside the graders' own floors (85/70/55/40)."""
    from nodes.interview.answers import interpolate
    from nodes.interview.report import GRADE_FLOORS, grade_for

    own: FloorSet = tuple(f for _, f in GRADE_FLOORS)  # type: ignore[assignment]
    for held in SPLITS:
        train = [
            (interpolate(fitted, r["score"]), r["gold_band"]) for r in rows if r["split"] != held
        ]
        test = [
            (interpolate(fitted, r["score"]), r["gold_band"]) for r in rows if r["split"] == held
        ]
        floors = fit_floors(train)
        agree = sum(grade_for(s, floors) == b for s, b in test) / len(test)
        base = sum(grade_for(s, own) == b for s, b in test) / len(test)
        print(f"{held}: floors {floors} fitted on the others: exact {agree:.3f}", end="")
        print(f" (own floors {base:.3f})")


def main() -> None:
    from evals.run_interview import cross_author

    set_services(in_process_services(get_settings()))
    rows = [
        {**r, "split": split}
        for split in SPLITS
        for r in cross_author(split, calibrated=False)["rows"]
    ]
    print(f"leave-one-session-out on {' + '.join(SPLITS)}:", held_out(rows))
    fitted = isotonic([(float(r["score"]), float(r["gold_score"])) for r in rows])
    from nodes.interview.answers import interpolate

    floors_held_out(rows, fitted)
    floors = fit_floors([(interpolate(fitted, r["score"]), r["gold_band"]) for r in rows])
    print(f"grade floors on all dev splits: {floors}")
    table = {
        "fitted_on": f"interview_xa_{{{','.join(SPLITS)}}}.jsonl ({len(rows)} answers graded "
        "by another author)",
        "method": "isotonic regression (pool-adjacent-violators) of the grader's score on "
        "the rubric's raw score; linear between points, flat beyond them; grade floors: "
        "the A/B/C/D floors of the calibrated score with the most answers in the grader's band",
        "grade_floors": list(floors),
        "points": [[round(x, 2), round(y, 2)] for x, y in fitted],
    }
    text = json.dumps(
        {k: v for k, v in table.items() if k != "points"}, ensure_ascii=False, indent=1
    )
    points = ",\n  ".join(json.dumps(p) for p in table["points"])
    text = text[:-2] + f',\n "points": [\n  {points}\n ]\n}}'
    TABLE.write_text(text + "\n", encoding="utf-8")
    print(f"{len(fitted)} points -> {TABLE}")


if __name__ == "__main__":
    main()
