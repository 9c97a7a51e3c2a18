"""The picture of ``make bench``: throughput and p99 latency against concurrency, engine vs floor."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def plot(results: dict, path: Path) -> None:
    rows = results["http"]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))
    for mode, style, label in (("engine", "o-", "engine: moves/s"), ("floor", "s--", "floor")):
        pts = sorted((r["clients"], r["rps"], r["p99_ms"], r.get("bid_rps", 0)) for r in rows
                     if r["mode"] == mode)
        xs = [p[0] for p in pts]
        ax1.plot(xs, [p[1] for p in pts], style, label=label)
        ax2.plot(xs, [p[2] for p in pts], style, label="engine: bids" if mode == "engine" else label)
        if mode == "engine":
            ax1.plot(xs, [p[3] for p in pts], "o:", label="engine: bids/s", color="C0",
                     alpha=0.6)
    for ax in (ax1, ax2):
        ax.set_xscale("log", base=2)
        ax.set_xticks([1, 16, 64])
        ax.set_xticklabels(["1", "16", "64"])
        ax.set_xlabel("concurrent clients")
        ax.grid(True, alpha=0.3)
        ax.legend()
    ax1.set_ylabel("requests per second")
    ax1.set_title("Throughput")
    ax2.set_ylabel("p99 latency (ms)")
    ax2.set_yscale("log")
    ax2.set_title("p99 latency (bids for the engine)")
    m = results["machine"]
    fig.suptitle(f"Impresario engine vs floor - gunicorn as shipped, {m['nproc']} CPUs "
                 f"({m['cpu_model']})", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
