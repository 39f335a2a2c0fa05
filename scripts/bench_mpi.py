"""The MPI benchmark of docs/mpi.md: netcoll schedules vs the MPI library's collectives.

    .venv/bin/python scripts/bench_mpi.py [--np 8] [--sizes 1K..16M] [--out docs/mpi-bench]

Runs `netcoll run OP ... --compare-native --json` for each collective and candidate (the
registered algorithms and the hand-written examples), then writes OUT.md (a markdown table:
time per size, netcoll vs native, the best netcoll candidate's ratio) and OUT.png (time vs
size per collective). Figures, not assertions: the machine's load is printed beside them.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

CANDIDATES = {
    "bcast": [("algo", "linear"), ("example", "scatter-allgather-bcast"),
              ("example", "chain-bcast", "--packets", "8")],
    "allgather": [("example", "ring-allgather"), ("example", "doubling-allgather")],
    "allreduce": [("example", "ring-allreduce"), ("example", "rabenseifner-allreduce")],
}  # fmt: skip


def registered(op: str) -> list[tuple[str, str]]:
    from netcoll import _core

    kind = {"bcast": "broadcast"}.get(op, op)
    return [("algo", a["name"]) for a in _core.algorithms() if kind in a["collectives"]]


def run(op, how, name, np_, sizes, iters, warmup, extra=()) -> dict:
    cmd = [sys.executable, "-m", "netcoll", "run", op, f"--{how}", name, "--np", str(np_),
           "--bytes", sizes, "--compare-native", "--iters", str(iters), "--warmup",
           str(warmup), "--json", "--timeout", "3000", *extra]  # fmt: skip
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed: {proc.stderr.strip()}")
    return json.loads(proc.stdout)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--np", type=int, default=8)
    ap.add_argument("--sizes", default="1K,16K,256K,1M,4M,16M")
    ap.add_argument("--iters", type=int, default=10)
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--out", default="docs/mpi-bench")
    args = ap.parse_args()
    load = os.getloadavg()
    results: dict[str, dict[str, dict]] = {}
    for op, cands in CANDIDATES.items():
        cands = list(dict.fromkeys(cands + registered(op)))
        results[op] = {}
        for how, name, *extra in cands:
            doc = run(op, how, name, args.np, args.sizes, args.iters, args.warmup, extra)
            assert doc["verified"], doc
            results[op][name] = doc
            print(f"{op:10s} {name:24s} done", file=sys.stderr, flush=True)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.with_suffix(".json").write_text(json.dumps(results, indent=1))
    out.with_suffix(".md").write_text(table(results, args, load, os.getloadavg()))
    plot(results, out.with_suffix(".png"), args.np)
    print(out.with_suffix(".md").read_text())


def table(results, args, load_before, load_after) -> str:
    lines = [
        f"{args.np} ranks, {args.iters} iterations after {args.warmup} warm-up, every result "
        f"checked; times in microseconds (max over ranks of the mean); load average "
        f"{load_before[0]:.1f} before, {load_after[0]:.1f} after.",
        "",
    ]
    for op, by_name in results.items():
        names = list(by_name)
        first = by_name[names[0]]["results"]
        lines.append(f"**{op}**")
        lines.append("")
        lines.append("| bytes | " + " | ".join(names) + " | native | best / native |")
        lines.append("|---:|" + "---:|" * (len(names) + 2))
        for i, row in enumerate(first):
            times = [by_name[n]["results"][i]["time"] for n in names]
            natives = [by_name[n]["results"][i]["native_time"] for n in names]
            native = min(natives)  # the native figure is measured once per run: take the best
            best = min(times)
            cells = [f"{t * 1e6:.0f}" for t in times]
            lines.append(f"| {human(row['bytes'])} | " + " | ".join(cells)
                         + f" | {native * 1e6:.0f} | {best / native:.2f} |")  # fmt: skip
        lines.append("")
    return "\n".join(lines)


def human(n: int) -> str:
    for unit, size in (("M", 1 << 20), ("K", 1 << 10)):
        if n >= size and n % size == 0:
            return f"{n // size} {unit}iB"
    return f"{n} B"


def plot(results, path, np_) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(results), figsize=(5 * len(results), 4.2))
    for ax, (op, by_name) in zip(axes, results.items()):
        for name, doc in by_name.items():
            rows = doc["results"]
            ax.plot([r["bytes"] for r in rows], [r["time"] * 1e6 for r in rows], "o-", label=name)
        rows = next(iter(by_name.values()))["results"]
        natives = [min(d["results"][i]["native_time"] for d in by_name.values())
                   for i in range(len(rows))]  # fmt: skip
        ax.plot([r["bytes"] for r in rows], [t * 1e6 for t in natives], "k--", label="native")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_title(f"{op}, {np_} ranks")
        ax.set_xlabel("bytes")
        ax.set_ylabel("us")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


if __name__ == "__main__":
    main()
