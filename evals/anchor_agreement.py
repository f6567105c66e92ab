"""How far two human graders agree on a follow-up's anchor, beside the interview's own pick.

    python -m evals.anchor_agreement

The eval's "follow-up anchors valid" counts a follow-up whose anchor is a phrase of the
answer that one of the grader's 2-4 anchors contains (or that contains one). A second
grader, a helper who saw only the sessions' resumes, postings, questions and answers (not
the first grader's labels, the spec or the code), labelled the answers of two dev splits
with 1-4 anchors in priority order: `interview_xa_grader2_dev6_dev7.jsonl` (session 40).
Printed, over the answers both graders gave anchors:
- the second grader's first anchor agreeing with the first grader's, by the eval's rule:
  the ceiling a picker of one anchor can expect against one grader;
- the interview's own anchor agreeing with either grader's.
Dev splits only; the frozen test splits are never read here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from evals.run_interview import session_answers
from text.korean_text import squash

HERE = Path(__file__).parent / "datasets"
SPLITS = ("dev6", "dev7")
SECOND = HERE / "interview_xa_grader2_dev6_dev7.jsonl"


def agrees(anchor: str, anchors: list[str], answer: str) -> bool:
    """The eval's rule: a phrase of the answer that one of `anchors` contains, or that
    contains one."""
    mine = squash(anchor)
    return mine in squash(answer) and any(mine in squash(a) or squash(a) in mine for a in anchors)


def tally() -> dict[str, Any]:
    second = {
        row["id"]: row["anchors"]
        for row in map(json.loads, SECOND.read_text(encoding="utf-8").splitlines())
    }
    counts = {"graders": [0, 0], "system_first": [0, 0], "system_second": [0, 0]}
    for split in SPLITS:
        path = HERE / f"interview_xa_{split}.jsonl"
        for session in map(json.loads, path.read_text(encoding="utf-8").splitlines()):
            picked = session_answers(session)["answers"]
            theirs = second[f"{split}-{session['id']}"]
            for turn, ours, other in zip(session["turns"], picked, theirs, strict=True):
                first = turn["anchors"]
                if not (first and other):
                    continue
                counts["graders"][0] += agrees(other[0], first, turn["answer"])
                counts["graders"][1] += 1
                if ours["anchor"] is not None:
                    counts["system_first"][0] += agrees(ours["anchor"], first, turn["answer"])
                    counts["system_first"][1] += 1
                    counts["system_second"][0] += agrees(ours["anchor"], other, turn["answer"])
                    counts["system_second"][1] += 1
    return {k: (n, d, round(n / d, 3) if d else None) for k, (n, d) in counts.items()}


def main() -> None:
    names = {
        "graders": "second grader's first anchor, by the first grader's",
        "system_first": "the interview's anchor, by the first grader's",
        "system_second": "the interview's anchor, by the second grader's",
    }
    for key, (agreed, total, share) in tally().items():
        print(f"{names[key]}: {agreed}/{total} = {share}")


if __name__ == "__main__":
    main()
