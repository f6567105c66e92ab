"""PNG plots of bench/results/latest.json (written by `python -m bench.run`, which calls
`write_plots` at the end; `python -m bench.plots` redraws them from the JSON).

    overhead.png     time to first token and total latency vs concurrent streams: the model
                     alone, our server, and the `langgraph dev` peer
    seed_ratios.png  each seed experiment as ours / the seed's design (tokens, calls, latency)
    interview.png    prompt tokens per interview turn, and next-question latency with and
                     without prefetch
    retrieval.png    retrieval P50/P95 at 10k and 100k chunks
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).parent / "results"


def _overhead(plt: Any, r: dict[str, Any], out: Path) -> None:
    levels = r["overhead"]["levels"]
    conc = [lv["concurrency"] for lv in levels]
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    for ax, key, title in (
        (axes[0], "ttft", "time to first token (P50)"),
        (axes[1], "total", "total latency (P50)"),
    ):
        ax.plot(conc, [lv[f"{key}_p50_s"] for lv in levels], "o-", label="devths-ai")
        ax.plot(conc, [lv[f"model_{key}_s"] for lv in levels], "k--", label="simulated model alone")
        if "peer" in r:
            peer = r["peer"]["levels"]
            ax.plot(
                [p["concurrency"] for p in peer],
                [p["langgraph_dev"][f"{key}_p50_s"] for p in peer],
                "s-",
                label="langgraph dev (peer)",
            )
        ax.set_xscale("log")
        ax.set_xticks(conc, [str(c) for c in conc])
        ax.set_xlabel("concurrent streams")
        ax.set_ylabel("seconds")
        ax.set_title(title)
        ax.set_ylim(bottom=0)
        ax.legend()
    fig.suptitle("Server overhead, /ai/analyze/stream_events (600 ms TTFT, 28 tok/s model)")
    fig.tight_layout()
    fig.savefig(out / "overhead.png", dpi=110)
    plt.close(fig)


def seed_ratios(r: dict[str, Any]) -> list[tuple[str, float]]:
    """(experiment, ours / seed design) for every seed experiment present in the results."""
    rows: list[tuple[str, float]] = []
    if "analysis_tokens" in r:
        at = r["analysis_tokens"]
        rows.append(
            ("analysis input tokens, eval pairs\n(sections vs whole docs)", at["all_calls_ratio"])
        )
        if "long" in at:
            rows.append(
                (
                    "analysis input tokens, long docs\n(user-facing prompt)",
                    at["long"]["user_facing_ratio"],
                )
            )
    if "chat_history_tokens" in r:
        ht = r["chat_history_tokens"]
        for size, label in (("short", "72-char"), ("long", "700-char")):
            rows.append(
                (
                    f"chat history tokens, {label} answers\n(5 turns + summary vs 10)",
                    ht[size]["ratio"],
                )
            )
    if "rag_context_tokens" in r:
        rows.append(
            ("RAG context tokens\n(top-5 + threshold vs top-10)", r["rag_context_tokens"]["ratio"])
        )
    if "interview_tokens" in r:
        rows.append(
            (
                "interview prompt tokens\n(3 turns + summary, turn 10)",
                r["interview_tokens"]["last_turn_ratio"],
            )
        )
    if "caches" in r:
        rows.append(("model calls, 30% repeats\n(caches vs none)", 1 - r["caches"]["saved_share"]))
    if "interview_prefetch" in r:
        sim = r["interview_prefetch"]["simulated"]
        rows.append(
            ("interview next question P50\n(prefetch vs none, simulated)", sim["p50_ratio"])
        )
    return rows


def _ratios(plt: Any, r: dict[str, Any], out: Path) -> None:
    rows = seed_ratios(r)
    fig, ax = plt.subplots(figsize=(9, 0.6 * len(rows) + 1.5))
    names, values = [n for n, _ in rows], [v for _, v in rows]
    met = ["tab:green" if v <= 0.7 else "tab:orange" for v in values]
    bars = ax.barh(names, values, color=met)
    ax.axvline(1.0, color="k", linestyle="--", linewidth=1)
    ax.axvspan(0.6, 0.7, color="tab:gray", alpha=0.2, label="seed's promise: -30 to -40%")
    for bar, value in zip(bars, values, strict=True):
        ax.text(value + 0.01, bar.get_y() + bar.get_height() / 2, f"{value:.2f}", va="center")
    ax.invert_yaxis()
    ax.set_xlim(0, 1.15)
    ax.set_xlabel("ours / seed design (lower is better)")
    ax.legend(loc="lower right")
    ax.set_title("The seed's experiments on our code paths")
    fig.tight_layout()
    fig.savefig(out / "seed_ratios.png", dpi=110)
    plt.close(fig)


def _interview(plt: Any, r: dict[str, Any], out: Path) -> None:
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    tokens = r["interview_tokens"]
    turns = list(range(1, tokens["turns"] + 1))
    axes[0].plot(turns, tokens["full_history"], "o-", label="every turn verbatim (seed)")
    axes[0].plot(turns, tokens["windowed"], "o-", label="3 turns + summary (ours)")
    axes[0].set_xlabel("main question")
    axes[0].set_ylabel("prompt tokens")
    axes[0].set_title("interview prompt tokens")
    axes[0].legend()
    prefetch = r["interview_prefetch"]
    models = list(prefetch)
    x = range(len(models))
    axes[1].bar(
        [i - 0.2 for i in x],
        [prefetch[m]["without_prefetch"]["p50_s"] for m in models],
        0.4,
        label="without prefetch",
    )
    axes[1].bar(
        [i + 0.2 for i in x],
        [prefetch[m]["with_prefetch"]["p50_s"] for m in models],
        0.4,
        label="with prefetch",
    )
    axes[1].axhline(3.2, color="k", linestyle="--", linewidth=1, label="seed 3.2 s")
    axes[1].set_yscale("log")
    axes[1].set_xticks(list(x), [f"{m} model" for m in models])
    axes[1].set_ylabel("next question P50, seconds (log)")
    axes[1].set_title("interview next-question latency")
    axes[1].legend()
    fig.tight_layout()
    fig.savefig(out / "interview.png", dpi=110)
    plt.close(fig)


def _retrieval(plt: Any, r: dict[str, Any], out: Path) -> None:
    rows = sorted(r["retrieval"].values(), key=lambda row: row["chunks"])
    fig, ax = plt.subplots(figsize=(5, 4))
    labels = [f"{row['chunks'] // 1000}k" for row in rows]
    x = range(len(rows))
    ax.bar([i - 0.2 for i in x], [row["p50_ms"] for row in rows], 0.4, label="P50")
    ax.bar([i + 0.2 for i in x], [row["p95_ms"] for row in rows], 0.4, label="P95")
    ax.set_xticks(list(x), labels)
    ax.set_xlabel("chunks in the collection")
    ax.set_ylabel("ms")
    ax.set_title("Chroma user-filtered top-5")
    ax.legend()
    fig.tight_layout()
    fig.savefig(out / "retrieval.png", dpi=110)
    plt.close(fig)


def write_plots(results: dict[str, Any], out: Path = RESULTS) -> list[Path]:
    """Draws every plot whose sections are in `results`; returns the files written."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    drawn = []
    for name, needs, draw in (
        ("overhead.png", ("overhead",), _overhead),
        ("seed_ratios.png", (), _ratios),
        ("interview.png", ("interview_tokens", "interview_prefetch"), _interview),
        ("retrieval.png", ("retrieval",), _retrieval),
    ):
        if all(k in results for k in needs):
            draw(plt, results, out)
            drawn.append(out / name)
    return drawn


if __name__ == "__main__":
    for path in write_plots(json.loads((RESULTS / "latest.json").read_text())):
        print(path)
