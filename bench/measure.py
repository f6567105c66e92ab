"""What every benchmark measures with: percentiles, the embedded model's token count, and
the model calls the registry's callback has counted."""

from __future__ import annotations

from collections.abc import Callable

from core.local_llm import embedded_model_path, get_engine
from core.telemetry import MODEL_CALLS


def percentile(values: list[float], q: float) -> float:
    """The nearest-rank q-quantile (q in 0..1) of `values`."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def token_counter() -> Callable[[str], int]:
    """Counts tokens with the embedded model's tokenizer (Gemini's differs: read ratios)."""
    engine = get_engine(str(embedded_model_path()), 4096, None)
    return lambda text: len(engine.llama.tokenize(text.encode("utf-8"), add_bos=False))


def model_calls_by_feature() -> dict[str, float]:
    """Chat model calls counted so far in this process, per feature (all origins)."""
    out: dict[str, float] = {}
    for metric in MODEL_CALLS.collect():
        for sample in metric.samples:
            if sample.name.endswith("_total"):
                feature = sample.labels["feature"]
                out[feature] = out.get(feature, 0.0) + sample.value
    return out
