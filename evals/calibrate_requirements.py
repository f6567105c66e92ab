"""Fit the requirement matcher's status model on the dev split (never the test split).

    python -m evals.calibrate_requirements      # prints the fitted StatusModel and its figures

For every dev pair and every gold requirement (its text, as the posting writes it), the
signals of `nodes.analysis.requirements` are computed once (taxonomy skills, lexical
overlap after morphology, the embedding cosine and its lift over the resume's median, the
resume's overall fit, the typed checks); an ordinal logistic model (one linear score, two
cut points) is fitted to the gold statuses by gradient descent with a little L2, on
standardised inputs, then folded back to raw weights. Leave-one-posting-out
cross-validation tells how it does on postings it did not see; the grade band is read
with the expected credits for each PARTIAL_CREDIT candidate. The printed StatusModel goes
into nodes/analysis/requirements.py, the figures into docs/decisions.md.
"""

from __future__ import annotations

import argparse
from collections import Counter
from datetime import date
from typing import Any

import numpy as np

from core.services import in_process_services, set_services
from core.settings import get_settings
from evals.run_requirements import load_rows
from nodes.analysis.requirements import (
    FEATURES,
    StatusModel,
    all_signals,
    decide,
    features,
    field_months,
    resume_facts,
    resume_fit,
    typed_check,
    years_status,
)
from nodes.analysis.scoring import GRADE_FLOORS, grade_for, score_credits
from text.careers import asked_years
from text.requirements import PostingRequirement, requirement_type
from text.skills import find_skills, taxonomy

RANK = {"missing": 0, "partial": 1, "met": 2}


def collect(split: str) -> list[dict[str, Any]]:
    """One record per gold requirement: its inputs for `decide`, features and label."""
    services = in_process_services(get_settings())
    set_services(services)
    cache = services.line_vectors
    known = taxonomy()
    out = []
    for row in load_rows(split):
        if not row["requirements"]:
            continue
        now = date.fromisoformat(row.get("now") or "2026-12-01")
        facts = resume_facts(
            row["resume_text"], now, find_skills(row["resume_text"]), cache.vectors
        )
        reqs = []
        for gold in row["requirements"]:
            groups = known.groups(gold["text"])
            reqs.append(
                PostingRequirement(
                    gold["text"], gold["kind"], requirement_type(gold["text"], groups), groups
                )
            )
        matrix = np.asarray(cache.query_vectors([r.text for r in reqs]), dtype=np.float32)
        sigs, practice = all_signals(reqs, facts, matrix)
        fit = resume_fit(sigs)
        for req, sig, work, gold in zip(reqs, sigs, practice, row["requirements"], strict=True):
            checked = typed_check(req, facts, sig.career)
            typed = checked[0]
            out.append(
                {
                    "row": row,
                    "posting": row["posting_text"],
                    "req": req,
                    "sig": sig,
                    "practice": work,
                    "typed": checked,
                    "fit": fit,
                    "facts": facts,
                    "x": features(sig, fit, typed, req.kind == "preferred"),
                    "y": RANK[gold["status"]],
                }
            )
    return out


def years_in_field(records: list[dict[str, Any]]) -> None:
    """Prints the status accuracy of the years check alone on the years requirements (per
    split), counting the whole career and counting the work in the field (`field_months`)."""
    years = [r for r in records if asked_years(r["req"].text) is not None]
    if not years:
        return

    def accuracy(status_of: Any) -> str:
        right = {id(r): RANK.get(status_of(r) or "", -1) == r["y"] for r in years}
        splits = sorted({r["split"] for r in years})
        parts = ", ".join(
            f"{split} {np.mean([right[id(r)] for r in years if r['split'] == split]):.3f}"
            for split in splits
        )
        return f"{np.mean(list(right.values())):.3f} ({parts})"

    def whole(r: dict[str, Any]) -> str | None:
        return years_status(r["req"].text, r["facts"].months)

    def in_field(r: dict[str, Any]) -> str | None:
        career = field_months(r["req"], r["facts"])
        return years_status(r["req"].text, career.months, career.near)

    print(f"{len(years)} years requirements; the years check alone:")
    print(f"  with the whole career: {accuracy(whole)}")
    print(f"  with the work in the field and next to it: {accuracy(in_field)}")


def fit_model(x: np.ndarray, y: np.ndarray, l2: float = 0.01, steps: int = 4000) -> StatusModel:
    mu, sd = x.mean(0), x.std(0) + 1e-9
    z = (x - mu) / sd
    w, b = np.zeros(z.shape[1]), np.array([-1.0, 1.0])
    for _ in range(steps):
        s = z @ w
        g1 = 1 / (1 + np.exp(-(s - b[0]))) - (y >= 1)
        g2 = 1 / (1 + np.exp(-(s - b[1]))) - (y >= 2)
        w -= 0.5 * (z.T @ (g1 + g2) / len(y) + l2 * w)
        b -= 0.5 * np.array([-g1.mean(), -g2.mean()])
    raw = w / sd
    return StatusModel(
        weights=tuple(round(float(v), 4) for v in raw),
        bias=round(float(-(raw @ mu)), 4),
        cut_partial=round(float(b[0]), 4),
        cut_met=round(float(b[1]), 4),
    )


def tune_cuts(model: StatusModel, records: list[dict[str, Any]]) -> StatusModel:
    """The cut points moved (on a grid of +-1 around the likelihood fit) to the pair with the
    best status accuracy on `records` after `decide`'s rules: the likelihood fit places them
    for probabilities, the product shows the status."""

    def accuracy(candidate: StatusModel) -> float:
        return float(
            np.mean(
                [
                    RANK[
                        decide(
                            r["req"],
                            r["sig"],
                            r["fit"],
                            r["facts"],
                            candidate,
                            0.5,
                            r["practice"],
                            r["typed"],
                        )[0]
                    ]
                    == r["y"]
                    for r in records
                ]
            )
        )

    best, chosen = accuracy(model), model
    for dp in np.linspace(-1, 1, 9):
        for dm in np.linspace(-1, 1, 9):
            candidate = StatusModel(
                model.weights,
                model.bias,
                round(model.cut_partial + float(dp), 4),
                round(model.cut_met + float(dm), 4),
            )
            if candidate.cut_met > candidate.cut_partial and (a := accuracy(candidate)) > best:
                best, chosen = a, candidate
    return chosen


def pair_scores(
    records: list[dict[str, Any]], credits: list[float]
) -> list[tuple[str, str, int, list[str]]]:
    """(pair id, posting, score, expected grades) of every pair."""
    by_pair: dict[str, list[tuple[str, float]]] = {}
    rows = {}
    for rec, credit in zip(records, credits, strict=True):
        by_pair.setdefault(rec["row"]["id"], []).append((rec["req"].kind, credit))
        rows[rec["row"]["id"]] = rec["row"]
    out = []
    for pid, items in by_pair.items():
        scored = score_credits(items)
        if scored:
            row = rows[pid]
            out.append((pid, row["posting_text"], scored[0], row["expected_grades"]))
    return out


def _grade(score: int, floors: tuple[int, ...]) -> str:
    return next((g for g, f in zip("ABCD", floors, strict=True) if score >= f), "F")


MIN_BAND = 10


def tune_floors(scores: list[tuple[str, str, int, list[str]]]) -> tuple[int, ...]:
    """The grade floors (A, B, C, D) with the most pairs in their expected band; among
    equals, the one nearest the shipped floors. Every grade between A and F spans at least
    MIN_BAND points (a grade no score can reach tells the user nothing). Prefix counts per
    grade make each candidate O(1): below[g][x] = pairs scored under x whose band holds g."""
    shipped = tuple(f for _, f in GRADE_FLOORS)
    below = {
        g: [sum(1 for _, _, s, eg in scores if s < x and g in eg) for x in range(102)]
        for g in "ABCDF"
    }
    best: tuple[int, int, tuple[int, ...]] = (-1, 0, shipped)
    for a in range(75, 97):
        for b in range(55, a - MIN_BAND + 1):
            for c in range(35, b - MIN_BAND + 1):
                for d in range(15, c - MIN_BAND + 1):
                    ok = (
                        below["A"][101]
                        - below["A"][a]
                        + below["B"][a]
                        - below["B"][b]
                        + below["C"][b]
                        - below["C"][c]
                        + below["D"][c]
                        - below["D"][d]
                        + below["F"][d]
                    )
                    near = -(abs(a - shipped[0]) + abs(b - shipped[1]) + abs(c - shipped[2]))
                    near -= abs(d - shipped[3])
                    if (ok, near) > best[:2]:
                        best = (ok, near, (a, b, c, d))
    return best[2]


def grade_band(records: list[dict[str, Any]], credits: list[float]) -> float:
    """Share of pairs whose grade (the shipped floors) is in their expected band."""
    scores = pair_scores(records, credits)
    return sum(grade_for(s) in eg for _, _, s, eg in scores) / len(scores)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--split",
        nargs="+",
        default=["dev", "dev2"],
        choices=[f"dev{n}" if n > 1 else "dev" for n in range(1, 11)],
    )
    parser.add_argument(
        "--hold-out",
        choices=["posting", "author"],
        default="posting",
        help="what the cross-validation leaves out: one posting, or one author's split",
    )
    parser.add_argument("--credits", nargs="*", type=float, default=[0.5])
    args = parser.parse_args()
    records = [dict(r, split=split) for split in args.split for r in collect(split)]
    years_in_field(records)
    x = np.array([r["x"] for r in records], dtype=float)
    y = np.array([r["y"] for r in records])
    postings = np.array([r["posting"] for r in records])
    print(f"{len(records)} {'+'.join(args.split)} requirements over {len(set(postings))} postings")
    # the ceiling of any status model: the grade band the gold statuses themselves give
    gold_credits = [(0.0, 0.5, 1.0)[r["y"]] for r in records]
    print(f"grade band with the gold statuses: {grade_band(records, gold_credits):.3f}")
    if args.hold_out == "author":
        # leave one author out: every posting of one split held out together
        postings = np.array([r["split"] for r in records])
    for credit in args.credits:
        statuses, credits = [None] * len(records), [0.0] * len(records)
        for posting in sorted(set(postings)):
            held_out = postings == posting
            model = fit_model(x[~held_out], y[~held_out])
            model = tune_cuts(model, [r for r, h in zip(records, held_out, strict=True) if not h])
            for i in np.flatnonzero(held_out):
                r = records[i]
                st, cr, _, _ = decide(
                    r["req"],
                    r["sig"],
                    r["fit"],
                    r["facts"],
                    model,
                    credit,
                    r["practice"],
                    r["typed"],
                )
                statuses[i], credits[i] = RANK[st], cr
        accuracy = float(np.mean(np.array(statuses) == y))
        for group in sorted(set(postings)) if args.hold_out == "author" else []:
            held = postings == group
            print(
                f"  held-out {group}: status accuracy "
                f"{np.mean(np.array(statuses)[held] == y[held]):.3f}"
            )
        by_status = [(1.0, credit, 0.0)[2 - s] for s in statuses]
        print(
            f"leave-one-{args.hold_out}-out, partial credit {credit}: "
            f"status accuracy {accuracy:.3f}, "
            f"grade band {grade_band(records, credits):.3f} (expected credits), "
            f"{grade_band(records, by_status):.3f} (credits of the statuses shown)"
        )
        for label, values in (("expected credits", credits), ("statuses shown", by_status)):
            scores = pair_scores(records, values)
            ok = 0
            for posting in sorted({p for _, p, _, _ in scores}):
                floors = tune_floors([t for t in scores if t[1] != posting])
                ok += sum(_grade(s, floors) in eg for _, p, s, eg in scores if p == posting)
            print(
                f"  grade band with floors tuned leave-one-posting-out ({label}): "
                f"{ok / len(scores):.3f}"
            )
        if credit == 0.5:
            print(
                "  confusion (gold, predicted):",
                sorted(Counter(zip(y.tolist(), statuses, strict=False)).items()),
            )
    model = tune_cuts(fit_model(x, y), records)
    fitted = [
        decide(r["req"], r["sig"], r["fit"], r["facts"], model, 0.5, r["practice"], r["typed"])
        for r in records
    ]
    fitted_accuracy = np.mean([RANK[f[0]] == r["y"] for f, r in zip(fitted, records, strict=True)])
    fitted_band = grade_band(records, [f[1] for f in fitted])
    print(
        f"fitted on all of {'+'.join(args.split)}: status accuracy {fitted_accuracy:.3f}, "
        f"grade band {fitted_band:.3f}"
    )
    floors = tune_floors(pair_scores(records, [f[1] for f in fitted]))
    print(f"grade floors tuned on all (expected credits): {floors}")
    print("features:", ", ".join(FEATURES))
    print(f"STATUS_MODEL = {model!r}")


if __name__ == "__main__":
    main()
