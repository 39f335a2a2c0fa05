"""The many-to-all benchmark of docs/mpi.md: netcoll's hnc, tree-multicast and all-at-once
against MPI_Allgatherv (the non-sources contributing 0 bytes) on real MPI ranks.

    .venv/bin/python scripts/bench_mpi_manytoall.py [--np 8] [--topo mesh:4x2]
        [--sources 'all;random:4,seed=1'] [--sizes 1K,16K,256K,1M]

Runs `netcoll run manytoall -a ALGO --sources S ... --compare-native --json` per algorithm
and source set and prints markdown tables: time per size (max over ranks of the mean), the
native time (the best of the runs' native measurements, which favours native) and each
algorithm's ratio to it. With every rank a source, MPI_Allgather on the same data is shown
too (MPICH's Allgatherv is much slower than its Allgather on this machine). Figures, not
assertions: the machine's load is printed beside them.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

ALGOS = ("hnc", "tree-multicast", "all-at-once")


def run(algo, sources, args, op="manytoall") -> dict:
    pick = ["--sources", sources] if op == "manytoall" else []
    cmd = [sys.executable, "-m", "netcoll", "run", op, "-a", algo, *pick, "--np",
           str(args.np), "-t", args.topo, "--bytes", args.sizes, "--compare-native",
           "--iters", str(args.iters), "--warmup", str(args.warmup), "--json",
           "--timeout", "3000"]  # fmt: skip
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed: {proc.stderr.strip()}")
    doc = json.loads(proc.stdout)
    assert doc["verified"], doc
    return doc


def human(n: int) -> str:
    for unit, size in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size and n % size == 0:
            return f"{n // size} {unit}"
    return f"{n} B"


def table(sources: str, docs: dict[str, dict], allgather: dict | None) -> str:
    """With every rank a source, `allgather` (MPI_Allgather on the same data, timed in a
    `netcoll run allgather` run) is shown beside MPI_Allgatherv for reference."""
    first = next(iter(docs.values()))
    srcs = first["sources"]
    head = f"#### sources {sources} ({len(srcs)} of {first['np']} ranks: {srcs})\n\n"
    extra = ["MPI_Allgather"] if allgather else []
    cols = [*docs, "MPI_Allgatherv", *extra, *(f"{a} / native" for a in docs)]
    lines = [head + "| bytes per source | " + " | ".join(cols) + " |",
             "|---:|" + "---:|" * len(cols)]  # fmt: skip
    for i, row in enumerate(first["results"]):
        times = {a: d["results"][i]["time"] for a, d in docs.items()}
        native = min(d["results"][i]["native_time"] for d in docs.values())
        cells = [f"{t * 1e6:.0f}" for t in times.values()] + [f"{native * 1e6:.0f}"]
        if allgather:
            cells.append(f"{allgather['results'][i]['native_time'] * 1e6:.0f}")
        cells += [f"{t / native:.2f}" for t in times.values()]
        lines.append(f"| {human(row['bytes'])} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--np", type=int, default=8)
    ap.add_argument("--topo", default="mesh:4x2")
    ap.add_argument("--sources", default="all;random:4,seed=1", help="';'-separated sets")
    ap.add_argument("--sizes", default="1K,16K,256K,1M")
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--json-out", default=None, help="Also write the raw runs here.")
    args = ap.parse_args()
    before = os.getloadavg()[0]
    raw = {}
    out = []
    for sources in args.sources.split(";"):
        docs = {a: run(a, sources, args) for a in ALGOS}
        everyone = docs["hnc"]["sources"] == list(range(args.np))
        allgather = run("ring", "", args, op="allgather") if everyone else None
        raw[sources] = {**docs, **({"allgather-ring": allgather} if allgather else {})}
        out.append(table(sources, docs, allgather))
    after = os.getloadavg()[0]
    print(
        f"{args.np} ranks on {args.topo} ({os.cpu_count()} cores), {args.iters} iterations "
        f"after {args.warmup} warm-up, every result checked; times in microseconds (max "
        f"over ranks of the mean); load average {before:.1f} before, {after:.1f} after.\n"
    )
    print("\n\n".join(out))
    if args.json_out:
        with open(args.json_out, "w") as f:
            json.dump(raw, f, indent=1)


if __name__ == "__main__":
    main()
