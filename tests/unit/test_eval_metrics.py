import pytest

from evals.metrics import band_accuracy, pairwise_order, prf, prf_micro


def test_prf_counts_true_and_false_positives():
    m = prf(["Java", "Kafka", "Go"], ["java", "Kafka", "Redis", "MySQL"])
    assert (m["tp"], m["fp"], m["fn"]) == (2, 1, 2)
    assert m["precision"] == pytest.approx(2 / 3) and m["recall"] == pytest.approx(0.5)
    assert m["f1"] == pytest.approx(2 * (2 / 3) * 0.5 / (2 / 3 + 0.5))


def test_micro_average_pools_counts_across_items():
    m = prf_micro([(["A"], ["A", "B"]), (["C", "D"], ["C"])])
    assert (m["tp"], m["fp"], m["fn"]) == (2, 1, 1)


def test_band_accuracy():
    assert band_accuracy(["A", "C", "F"], [["A", "B"], ["B"], ["F"]]) == pytest.approx(2 / 3)


def test_pairwise_order_checks_only_pairs_of_different_fit_on_the_same_posting():
    items = [
        ("p1", "strong", 80),
        ("p1", "medium", 50),
        ("p1", "weak", 60),
        ("p2", "strong", 10),
        ("p2", "weak", 10),
    ]
    # p1: strong>medium ok, strong>weak ok, medium>weak wrong; p2: tie is wrong
    assert pairwise_order(items) == pytest.approx(2 / 4)


def test_cer_and_wer_by_hand():
    from evals.metrics import cer, wer

    assert cer("가나다라", "가나다마") == 0.25
    assert cer("가 나", "가나") == 0.0  # spacing is not an error
    assert wer("a b c d", "a x c d") == 0.25


def test_box_matching_is_one_to_one_and_typed():
    from evals.metrics import iou, match_boxes

    assert iou((0, 0, 10, 10), (5, 0, 15, 10)) == pytest.approx(50 / 150)
    gold = [("phone", (0, 0, 10, 10)), ("email", (20, 0, 30, 10))]
    found = [("phone", (0, 0, 10, 9)), ("phone", (20, 0, 30, 10)), ("url", (50, 0, 60, 10))]
    ious, unmatched = match_boxes(gold, found)
    assert ious[0] == pytest.approx(0.9) and ious[1] is None
    assert unmatched == [1, 2]
