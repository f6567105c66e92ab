"""Calibrates the interview rubric against answers graded by other authors.

    python -m evals.calibrate_rubric      -> nodes/interview/rubric_calibration.json

The score is a linear model of what the rubric measures in an answer
(`nodes.interview.answers.RUBRIC_FEATURES`), fitted to the grader's 0..100 score over the
development splits only (`evals/datasets/interview_xa_{dev,...,dev5}.jsonl`, five
authors): ridge regression on standardised features whose weights must agree with their
meaning (more words, numbers, results or reasons never lower a score; hedging, turning
away and a short answer never raise it). A feature whose weight comes out of its sign is
left out and the rest refitted, one at a time (`fit`). Then the A/B/C/D floors with the
most answers in the grader's band (`fit_floors`).

Printed: leave-one-author-out (fitted on the other splits, read on the held-out one): exact
band, Cohen's kappa, ICC(2,1). The calibration this replaced (session 27), an isotonic map
of the rubric's raw sum, read 0.671 / 0.681 / 0.607 exact on the same three held-out
splits (docs/decisions.md). The frozen test split is never read here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from core.services import in_process_services, set_services
from core.settings import get_settings

HERE = Path(__file__).parent
TABLE = HERE.parent / "nodes" / "interview" / "rubric_calibration.json"
# the development splits: the first cross-author split, its former test half, a third and
# a fourth and a fifth helper's sessions
SPLITS = ("dev", "dev2", "dev3", "dev4", "dev5")
L2 = 3.0


def fit(
    x: np.ndarray, y: np.ndarray, names: tuple[str, ...], against: tuple[str, ...], l2: float = L2
) -> tuple[dict[str, float], float]:
    """Weights per unit of each kept feature and the intercept: ridge on standardised
    features (the intercept not penalised), refitted without the feature most out of its
    sign until every weight has its sign (positive, negative for `against`)."""
    kept = list(range(len(names)))
    while True:
        cols = x[:, kept]
        mean, sd = cols.mean(0), cols.std(0)
        sd[sd == 0] = 1.0
        z = np.hstack([(cols - mean) / sd, np.ones((len(cols), 1))])
        ridge = l2 * np.eye(z.shape[1])
        ridge[-1, -1] = 0.0
        w = np.linalg.solve(z.T @ z + ridge, z.T @ y)
        signed = [w[i] * (-1 if names[k] in against else 1) for i, k in enumerate(kept)]
        worst = min(range(len(kept)), key=lambda i: signed[i])
        if signed[worst] >= 0:
            break
        kept.pop(worst)
    per_unit = {names[k]: float(w[i] / sd[i]) for i, k in enumerate(kept)}
    intercept = float(w[-1] - sum(w[i] * mean[i] / sd[i] for i in range(len(kept))))
    return per_unit, intercept


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


def _rows() -> list[dict[str, Any]]:
    """Every graded answer of the dev splits with its rubric (and so its features)."""
    from nodes.interview.answers import score_answer
    from nodes.interview.facts import extract_facts

    rows = []
    for split in SPLITS:
        path = HERE / "datasets" / f"interview_xa_{split}.jsonl"
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line:
                continue
            session = json.loads(line)
            facts = extract_facts(session["resume_text"] or "", session["posting_text"] or "")
            for turn in session["turns"]:
                rubric = score_answer(
                    turn["question"],
                    turn["question"],
                    turn["answer"],
                    session["interview_type"],
                    facts,
                )
                rows.append(
                    {
                        "split": split,
                        "rubric": rubric,
                        "gold_score": float(turn["score"]),
                        "gold_band": turn["band"],
                    }
                )
    return rows


Fitted = tuple[dict[str, float], float, FloorSet]


def fit_rows(rows: list[dict[str, Any]]) -> Fitted:
    """The weights, intercept and grade floors fitted on `rows`."""
    from nodes.interview.answers import AGAINST, RUBRIC_FEATURES

    weights, b = fit(
        np.array([[r["rubric"].features[n] for n in RUBRIC_FEATURES] for r in rows]),
        np.array([r["gold_score"] for r in rows]),
        RUBRIC_FEATURES,
        AGAINST,
    )
    floors = fit_floors(
        list(zip(scores(rows, weights, b), [r["gold_band"] for r in rows], strict=True))
    )
    return weights, b, floors


def scores(rows: list[dict[str, Any]], weights: dict[str, float], b: float) -> list[int]:
    """What `calibrated_score` gives each row's answer under these weights."""
    from nodes.interview.answers import model_score

    return [model_score(r["rubric"], weights, b) for r in rows]


def held_out(rows: list[dict[str, Any]]) -> None:
    """Leave-one-author-out: weights and floors fitted on the other splits, read on one."""
    from evals.metrics import cohen_kappa, icc_2_1
    from evals.run_interview import BANDS
    from nodes.interview.report import grade_for

    for held in sorted({r["split"] for r in rows}, key=SPLITS.index):
        test = [r for r in rows if r["split"] == held]
        weights, b, floors = fit_rows([r for r in rows if r["split"] != held])
        scored = scores(test, weights, b)
        gold = [r["gold_band"] for r in test]
        ours = [grade_for(s, floors) for s in scored]
        exact = sum(g == o for g, o in zip(gold, ours, strict=True)) / len(test)
        kappa = cohen_kappa(gold, ours, BANDS)
        icc = icc_2_1([[r["gold_score"], s] for r, s in zip(test, scored, strict=True)])
        print(
            f"{held}: {len(test)} answers, fitted on the others: exact {exact:.3f}, "
            f"kappa {kappa:.3f}, ICC {icc:.3f}"
        )


def main() -> None:
    set_services(in_process_services(get_settings()))
    rows = _rows()
    held_out(rows)
    weights, b, floors = fit_rows(rows)
    splits = sorted({r["split"] for r in rows}, key=SPLITS.index)
    table = {
        "fitted_on": f"interview_xa_{{{','.join(splits)}}}.jsonl ({len(rows)} answers graded "
        "by other authors)",
        "method": "ridge regression (L2 3.0 on standardised features) of the grader's score "
        "on the rubric's features, each weight held to its sign (features out of sign left "
        "out); grade floors: the A/B/C/D floors of the calibrated score with the most "
        "answers in the grader's band",
        "grade_floors": list(floors),
        "intercept": round(b, 3),
        "weights": {n: round(w, 3) for n, w in weights.items()},
    }
    TABLE.write_text(json.dumps(table, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"grade floors {floors}; weights {table['weights']}, intercept {table['intercept']}")
    print(f"-> {TABLE}")


if __name__ == "__main__":
    main()
