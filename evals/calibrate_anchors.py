"""Fits the weights the interview uses to pick a follow-up's anchor from an answer.

    python -m evals.calibrate_anchors     -> prints ANCHOR_WEIGHTS for nodes/interview/answers.py

Every noun phrase `anchor_features` finds in an answer of the development splits
(`evals/datasets/interview_xa_{dev,...,dev5}.jsonl`, answers the grader gave anchors) is
labelled by whether it is one of the grader's anchors (one contains the other, as
`evals.run_interview` counts a valid anchor); the weights are a logistic regression with a
little L2 (Newton's method; its intercept is dropped: only the order within an answer
matters). Printed
with the share of answers whose top phrase is a grader's anchor, leave-one-author-out
(fit on two splits, read on the third) and for the hand-set weights it replaced. The
frozen test split is never read here.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from nodes.interview.answers import ANCHOR_FEATURES, ANCHOR_WEIGHTS, anchor_features
from text.korean_text import squash

HERE = Path(__file__).parent
SPLITS = ("dev", "dev2", "dev3", "dev4", "dev5")
# The weights of the hand-set scoring this fit replaced (session 25), for comparison.
HAND_WEIGHTS = (1.0, -2.0, -1.0, 2.0, 1.5, 1.0, 1.0, 1.5, -1.5, 1.0, 0.0, 0.0)
L2 = 1.0

Answer = tuple[np.ndarray, np.ndarray]  # features per phrase, 1 where a grader's anchor


def answers(split: str) -> list[Answer]:
    path = HERE / "datasets" / f"interview_xa_{split}.jsonl"
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line:
            continue
        for turn in json.loads(line)["turns"]:
            gold = [squash(a) for a in turn.get("anchors") or []]
            phrases = anchor_features(turn["answer"], turn["question"])
            if not gold or not phrases:
                continue
            labels = [any(squash(p) in g or g in squash(p) for g in gold) for p, _, _ in phrases]
            out.append((np.array([v for _, _, v in phrases]), np.array(labels, dtype=float)))
    return out


def fit(rows: list[Answer], l2: float = L2, steps: int = 50) -> np.ndarray:
    x = np.vstack([r[0] for r in rows])
    x = np.hstack([x, np.ones((len(x), 1))])  # the intercept, not penalised below
    y = np.concatenate([r[1] for r in rows])
    w = np.zeros(x.shape[1])
    ridge = l2 * np.eye(len(w))
    ridge[-1, -1] = 0.0
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(x @ w)))
        grad = x.T @ (p - y) + ridge @ w
        hess = (x * (p * (1 - p))[:, None]).T @ x + ridge
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w[:-1]


def top_agreement(rows: list[Answer], weights: np.ndarray) -> float:
    """The share of answers whose highest-scored phrase (the earliest among equals) is one
    of the grader's anchors."""
    return sum(float(y[int(np.argmax(x @ weights))]) for x, y in rows) / len(rows)


def main() -> None:
    data = {split: answers(split) for split in SPLITS}
    hand = np.array(HAND_WEIGHTS)
    shipped = np.array(ANCHOR_WEIGHTS)
    for held in SPLITS:
        train = [r for split in SPLITS if split != held for r in data[split]]
        w = fit(train)
        print(
            f"{held}: {len(data[held])} answers, top phrase a grader's anchor: "
            f"fit on the others {top_agreement(data[held], w):.3f}, "
            f"hand-set {top_agreement(data[held], hand):.3f}, "
            f"shipped {top_agreement(data[held], shipped):.3f}"
        )
    weights = fit([r for split in SPLITS for r in data[split]])
    print("ANCHOR_WEIGHTS = (" + ", ".join(f"{v:.2f}" for v in weights) + ")")
    for name, value in zip(ANCHOR_FEATURES, weights, strict=True):
        print(f"  {name:14} {value:+.2f}")


if __name__ == "__main__":
    main()
