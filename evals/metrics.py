"""Evaluation metrics. Pure functions over outputs and gold labels (unit-tested)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

TARGETS = {"skills_f1": 0.85, "grade_band": 0.8, "pairwise": 1.0, "score_spread": 0}
FIT_ORDER = {"strong": 2, "medium": 1, "weak": 0}


def prf_micro(pairs: Iterable[tuple[Sequence[str], Sequence[str]]]) -> dict[str, float]:
    """Micro precision/recall/F1 over (predicted, gold) label sets, case-insensitive."""
    tp = fp = fn = 0
    for predicted, gold in pairs:
        p = {s.casefold() for s in predicted}
        g = {s.casefold() for s in gold}
        tp += len(p & g)
        fp += len(p - g)
        fn += len(g - p)
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": precision, "recall": recall, "f1": f1, "tp": tp, "fp": fp, "fn": fn}


def prf(predicted: Sequence[str], gold: Sequence[str]) -> dict[str, float]:
    return prf_micro([(predicted, gold)])


def band_accuracy(grades: Sequence[str], bands: Sequence[Sequence[str]]) -> float:
    return sum(g in band for g, band in zip(grades, bands, strict=True)) / len(grades)


def pairwise_order(items: Iterable[tuple[str, str, int]]) -> float:
    """Share of same-posting resume pairs whose scores follow their fit (strong > medium >
    weak). `items` are (posting_id, fit, score)."""
    by_posting: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for posting, fit, score in items:
        by_posting[posting].append((FIT_ORDER[fit], score))
    right = total = 0
    for entries in by_posting.values():
        for i, (fit_a, score_a) in enumerate(entries):
            for fit_b, score_b in entries[i + 1 :]:
                if fit_a == fit_b:
                    continue
                total += 1
                right += (score_a > score_b) == (fit_a > fit_b)
    return right / total if total else 1.0


def score_spread(spreads: Sequence[int]) -> int:
    """The largest max-min score difference over repeated runs of the same input."""
    return max(spreads)


def edit_distance(a: Sequence[str], b: Sequence[str]) -> int:
    """Levenshtein distance over characters (str) or tokens (list of words)."""
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)))
        previous = current
    return previous[-1]


def cer(reference: str, hypothesis: str) -> float:
    """Character error rate, ignoring whitespace differences (OCR spacing in Korean is
    unreliable and not what a reader cares about)."""
    ref = "".join(reference.split())
    return edit_distance(ref, "".join(hypothesis.split())) / max(1, len(ref))


def wer(reference: str, hypothesis: str) -> float:
    ref = reference.split()
    return edit_distance(ref, hypothesis.split()) / max(1, len(ref))


def iou(a: Sequence[float], b: Sequence[float]) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def match_boxes(
    gold: Sequence[tuple[str, Sequence[float]]],
    found: Sequence[tuple[str, Sequence[float]]],
    min_iou: float = 0.5,
):
    """Greedy one-to-one matching of same-type boxes by IoU. Returns (matched IoUs per gold
    item or None, indices of found items left unmatched)."""
    used: set[int] = set()
    ious: list[float | None] = []
    for kind, box in gold:
        best, best_j = 0.0, None
        for j, (fkind, fbox) in enumerate(found):
            if j in used or fkind != kind:
                continue
            score = iou(box, fbox)
            if score > best:
                best, best_j = score, j
        if best_j is not None and best >= min_iou:
            used.add(best_j)
            ious.append(best)
        else:
            ious.append(None)
    return ious, [j for j in range(len(found)) if j not in used]


def icc_2_1(ratings: Sequence[Sequence[float]]) -> float:
    """ICC(2,1) of Shrout & Fleiss (1979): two-way random effects, absolute agreement, one
    rater; rows are the rated items, columns the raters (here: the gold score and ours)."""
    import numpy as np

    x = np.asarray(ratings, dtype=float)
    n, k = x.shape
    grand = x.mean()
    ss_rows = k * ((x.mean(axis=1) - grand) ** 2).sum()
    ss_cols = n * ((x.mean(axis=0) - grand) ** 2).sum()
    ss_error = ((x - grand) ** 2).sum() - ss_rows - ss_cols
    ms_rows = ss_rows / (n - 1)
    ms_cols = ss_cols / (k - 1)
    ms_error = ss_error / ((n - 1) * (k - 1))
    return float(
        (ms_rows - ms_error) / (ms_rows + (k - 1) * ms_error + k * (ms_cols - ms_error) / n)
    )


def cohen_kappa(
    a: Sequence[str], b: Sequence[str], labels: Sequence[str], weights: str = ""
) -> float:
    """Cohen's kappa of two raters over ordered `labels`; `weights="quadratic"` for the
    weighted kappa (disagreements cost their squared distance)."""
    import numpy as np

    index = {label: i for i, label in enumerate(labels)}
    m = len(labels)
    observed = np.zeros((m, m))
    for x, y in zip(a, b, strict=True):
        observed[index[x], index[y]] += 1
    observed /= observed.sum()
    expected = np.outer(observed.sum(axis=1), observed.sum(axis=0))
    i, j = np.indices((m, m))
    cost = ((i - j) ** 2 / (m - 1) ** 2) if weights == "quadratic" else (i != j).astype(float)
    return float(1 - (cost * observed).sum() / (cost * expected).sum())
