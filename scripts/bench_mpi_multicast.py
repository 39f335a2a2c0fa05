"""The multicast benchmark of docs/mpi.md: netcoll's multicast algorithms against MPI_Bcast
on the sub-communicator of the root and the targets, on real MPI ranks.

    .venv/bin/python scripts/bench_mpi_multicast.py [--np 8]
        [--topo irregular:switches=4,ports=8,nodes=8,seed=1] [--root 0]
        [--dests 'random:3,seed=1;random:7'] [--sizes 1K,16K,256K,1M]

Runs `netcoll run multicast -a ALGO --dests D ... --compare-native --json` per algorithm and
target set and prints markdown tables: time per size (median of the per-iteration maxima
over ranks), the native time (the best of the runs' native measurements, which favours
native) and each algorithm's ratio to it. When the targets are a subset, MPI_Bcast to every
rank (timed in a `netcoll run bcast` run) is shown too: what a program without a sub-
communicator would call. Figures, not assertions: the machine's load is printed beside them.
"""

from __future__ import annotations

import os

from mpi_bench import parser, report, rows, run

# The worm and NI schemes run on the irregular network (switch replication is modelled in
# the schedule, the executor sends their multi-destination messages as unicasts).
ALGOS = ("intercom-mst", "kbinomial", "postal", "worm-path", "worm-tree", "ni-kbinomial")


def table(dests: str, docs: dict[str, dict], bcast_all: dict | None) -> str:
    first = next(iter(docs.values()))
    tg = first["targets"]
    head = f"#### root {first['root']}, dests {dests} ({len(tg)} of {first['np']} ranks: {tg})\n\n"
    extra = [f"MPI_Bcast (all {first['np']})"] if bcast_all else []
    cols = [*docs, "MPI_Bcast (root+targets)", *extra, *(f"{a} / native" for a in docs)]
    lines = [head + "| bytes | " + " | ".join(cols) + " |", "|---:|" + "---:|" * len(cols)]
    return "\n".join(lines + rows(docs, bcast_all))


def main() -> None:
    ap = parser("irregular:switches=4,ports=8,nodes=8,seed=1")
    ap.add_argument("--root", type=int, default=0)
    ap.add_argument("--dests", default="random:3,seed=1;random:7", help="';'-separated sets")
    args = ap.parse_args()
    before = os.getloadavg()[0]
    root = ["--root", str(args.root)]
    raw, out = {}, []
    for dests in args.dests.split(";"):
        docs = {a: run("multicast", a, ["--dests", dests, *root], args) for a in ALGOS}
        subset = len(docs[ALGOS[0]]["targets"]) < args.np - 1
        bcast_all = run("bcast", "binomial", root, args) if subset else None
        raw[dests] = {**docs, **({"bcast-binomial": bcast_all} if bcast_all else {})}
        out.append(table(dests, docs, bcast_all))
    report(args, out, raw, before)


if __name__ == "__main__":
    main()
