"""Plots docs/scale-bench.json (from `netcoll bench scale --json`): seconds and peak memory
against ranks, log-log, one line per (op, algo) that verified at two sizes or more.

Usage: .venv/bin/python scripts/plot_scale.py [docs/scale-bench.json] [docs/img/scale.png]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(src: str = "docs/scale-bench.json", out: str = "docs/img/scale.png") -> None:
    rows = [r for r in json.loads(Path(src).read_text()) if r["verified"]]
    series: dict[tuple[str, str], list[dict]] = {}
    for r in rows:
        series.setdefault((r["op"], r["algo"]), []).append(r)
    fig, (ax_t, ax_m) = plt.subplots(1, 2, figsize=(12, 5))
    for (op, algo), rs in sorted(series.items()):
        rs.sort(key=lambda r: r["ranks"])
        if len(rs) < 2:
            continue
        n = [r["ranks"] for r in rs]
        ax_t.plot(n, [r["seconds"] for r in rs], marker="o", lw=0.8, label=f"{op} {algo}")
        ax_m.plot(n, [r["peak_bytes"] / 2**20 for r in rs], marker="o", lw=0.8)
    for ax, what in ((ax_t, "seconds (wall, fresh process)"), (ax_m, "peak memory, MiB")):
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("ranks (square mesh)")
        ax.set_ylabel(what)
        ax.grid(True, which="both", alpha=0.3)
    fig.legend(loc="lower center", ncol=5, fontsize=6)
    fig.suptitle("netcoll schedule: build + verify + analyse, every pair listed for meshes")
    fig.tight_layout(rect=(0, 0.2, 1, 1))
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=110)


if __name__ == "__main__":
    main(*sys.argv[1:])
