"""Plots a `netcoll bench scale --json` file: seconds and peak memory against ranks, log-log,
one line per (op, algo). Rows that failed (a time or memory limit, an error) are drawn as red
crosses at the size where they failed, at the seconds and memory they had used when they were
stopped, so a failure is visible rather than a line that silently ends.

Usage: .venv/bin/python scripts/plot_scale.py [docs/scale-bench.json] [docs/img/scale.png]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def succeeded(row: dict) -> bool:
    """As `netcoll.bench_scale.succeeded` (rows written before `ok` existed: `verified`)."""
    return bool(row.get("ok", row.get("verified")))


def main(src: str = "docs/scale-bench.json", out: str = "docs/img/scale.png") -> None:
    rows = json.loads(Path(src).read_text())
    series: dict[tuple[str, str], list[dict]] = {}
    for r in rows:
        if succeeded(r):
            series.setdefault((r["op"], r["algo"]), []).append(r)
    failed = [r for r in rows if not succeeded(r)]
    entries = len(series) + bool(failed)
    ncol = 4
    # The legend gets its own band under the axes (constrained layout, "outside"), as tall as
    # its rows, so that it never covers the axes' labels.
    legend_inches = 0.16 * -(-entries // ncol) + 0.3
    fig, (ax_t, ax_m) = plt.subplots(1, 2, figsize=(12, 5.0 + legend_inches), layout="constrained")
    for (op, algo), rs in sorted(series.items()):
        rs.sort(key=lambda r: r["ranks"])
        n = [r["ranks"] for r in rs]
        style = {"marker": "o", "lw": 0.8, "ms": 3}
        ax_t.plot(n, [r["seconds"] for r in rs], label=f"{op} {algo}", **style)
        ax_m.plot(n, [r["peak_bytes"] / 2**20 for r in rs], **style)
    if failed:
        n = [r["ranks"] for r in failed]
        cross = {"marker": "x", "color": "red", "ls": "none", "ms": 7, "mew": 1.5}
        ax_t.plot(n, [r["seconds"] for r in failed], label="failed (limit or error)", **cross)
        ax_m.plot(n, [r["peak_bytes"] / 2**20 for r in failed], **cross)
    sizes = sorted({r["ranks"] for r in rows})
    for ax, what in ((ax_t, "seconds (wall, fresh process)"), (ax_m, "peak memory, MiB")):
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xticks(sizes, [f"{n:,}" for n in sizes])
        ax.set_xlabel("ranks (square mesh)")
        ax.set_ylabel(what)
        ax.grid(True, which="both", alpha=0.3)
    fig.legend(loc="outside lower center", ncol=ncol, fontsize=6)
    commands = sorted({r.get("command", "schedule") for r in rows})
    what = " / ".join(commands)
    fig.suptitle(f"netcoll {what}: every pair listed for meshes ({len(failed)} failed rows)")
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=110)


if __name__ == "__main__":
    main(*sys.argv[1:])
