"""The agreement statistics the interview rubric is calibrated with, on known values."""

from __future__ import annotations

import pytest

from evals.metrics import cohen_kappa, icc_2_1


def test_icc_2_1_on_shrout_and_fleiss_table_2() -> None:
    # Shrout & Fleiss (1979), Table 2: 6 targets, 4 judges; ICC(2,1) = 0.29
    ratings = [[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]]
    assert icc_2_1(ratings) == pytest.approx(0.29, abs=0.005)
    # raters who agree exactly
    assert icc_2_1([[1, 1], [5, 5], [3, 3]]) == pytest.approx(1.0)


def test_cohen_kappa_plain_and_weighted() -> None:
    labels = ["A", "B", "C"]
    same = ["A", "B", "C", "A", "B"]
    assert cohen_kappa(same, same, labels) == pytest.approx(1.0)
    # Cohen's worked example shape: 2 labels, 50 items, agreement 0.7, chance 0.5 -> 0.4
    a = ["y"] * 25 + ["n"] * 25
    b = ["y"] * 20 + ["n"] * 5 + ["y"] * 10 + ["n"] * 15
    assert cohen_kappa(a, b, ["y", "n"]) == pytest.approx(0.4)
    # a near miss costs less than a far one with quadratic weights
    near = cohen_kappa(["A", "B", "C"], ["B", "B", "C"], labels, "quadratic")
    far = cohen_kappa(["A", "B", "C"], ["C", "B", "C"], labels, "quadratic")
    assert near > far


def test_anchor_agreement_is_the_evals_rule() -> None:
    from evals.anchor_agreement import agrees

    answer = "N+1 문제였고요, 그래서 커버링 인덱스를 만들었습니다."
    # a phrase inside one of the grader's anchors, or one holding it, spacing aside
    assert agrees("커버링 인덱스", ["커버링 인덱스를 만들었습니다"], answer)
    assert agrees("커버링인덱스를 만들었습니다", ["커버링 인덱스"], answer)
    # another anchor of the same answer is no agreement
    assert not agrees("N+1 문제", ["커버링 인덱스"], answer)
    # nor a phrase the answer does not say
    assert not agrees("인덱스 설계", ["인덱스 설계"], answer)
