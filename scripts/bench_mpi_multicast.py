"""The multicast benchmark of docs/mpi.md: netcoll's multicast algorithms against MPI_Bcast
on the sub-communicator of the root and the targets, on real MPI ranks.

    .venv/bin/python scripts/bench_mpi_multicast.py [--np 8]
        [--topo irregular:switches=4,ports=8,nodes=8,seed=1] [--root 0]
        [--dests 'random:3,seed=1;random:7'] [--sizes 1K,16K,256K,1M]

Runs `netcoll run multicast -a ALGO --dests D ... --compare-native --json` per algorithm and
target set and prints markdown tables: time per size (max over ranks of the mean), the native
time (the best of the runs' native measurements, which favours native) and each algorithm's
ratio to it. When the targets are a subset, MPI_Bcast to every rank (timed in a `netcoll run
bcast` run) is shown too: what a program without a sub-communicator would call. Figures, not
assertions: the machine's load is printed beside them.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

# The worm and NI schemes run on the irregular network (switch replication is modelled in
# the schedule, the executor sends their multi-destination messages as unicasts).
ALGOS = ("intercom-mst", "kbinomial", "postal", "worm-path", "worm-tree", "ni-kbinomial")


def run(algo, dests, args, op="multicast") -> dict:
    pick = ["--dests", dests] if op == "multicast" else []
    cmd = [sys.executable, "-m", "netcoll", "run", op, "-a", algo, *pick, "--root",
           str(args.root), "--np", str(args.np), "-t", args.topo, "--bytes", args.sizes,
           "--compare-native", "--iters", str(args.iters), "--warmup", str(args.warmup),
           "--json", "--timeout", "3000"]  # fmt: skip
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


def table(dests: str, docs: dict[str, dict], bcast_all: dict | None) -> str:
    first = next(iter(docs.values()))
    tg = first["targets"]
    head = f"#### root {first['root']}, dests {dests} ({len(tg)} of {first['np']} ranks: {tg})\n\n"
    extra = [f"MPI_Bcast (all {first['np']})"] if bcast_all else []
    cols = [*docs, "MPI_Bcast (root+targets)", *extra, *(f"{a} / native" for a in docs)]
    lines = [head + "| bytes | " + " | ".join(cols) + " |", "|---:|" + "---:|" * len(cols)]
    for i, row in enumerate(first["results"]):
        times = {a: d["results"][i]["time"] for a, d in docs.items()}
        native = min(d["results"][i]["native_time"] for d in docs.values())
        cells = [f"{t * 1e6:.0f}" for t in times.values()] + [f"{native * 1e6:.0f}"]
        if bcast_all:
            cells.append(f"{bcast_all['results'][i]['native_time'] * 1e6:.0f}")
        cells += [f"{t / native:.2f}" for t in times.values()]
        lines.append(f"| {human(row['bytes'])} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--np", type=int, default=8)
    ap.add_argument("--topo", default="irregular:switches=4,ports=8,nodes=8,seed=1")
    ap.add_argument("--root", type=int, default=0)
    ap.add_argument("--dests", default="random:3,seed=1;random:7", help="';'-separated sets")
    ap.add_argument("--sizes", default="1K,16K,256K,1M")
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--json-out", default=None, help="Also write the raw runs here.")
    args = ap.parse_args()
    before = os.getloadavg()[0]
    raw, out = {}, []
    for dests in args.dests.split(";"):
        docs = {a: run(a, dests, args) for a in ALGOS}
        subset = len(docs[ALGOS[0]]["targets"]) < args.np - 1
        bcast_all = run("binomial", "", args, op="bcast") if subset else None
        raw[dests] = {**docs, **({"bcast-binomial": bcast_all} if bcast_all else {})}
        out.append(table(dests, docs, bcast_all))
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
