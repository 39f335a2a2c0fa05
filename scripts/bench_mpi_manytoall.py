"""The many-to-all benchmark of docs/mpi.md: netcoll's hnc, tree-multicast and all-at-once
against MPI_Allgatherv (the non-sources contributing 0 bytes) on real MPI ranks.

    .venv/bin/python scripts/bench_mpi_manytoall.py [--np 8] [--topo mesh:4x2]
        [--sources 'all;random:4,seed=1'] [--sizes 1K,16K,256K,1M]

Runs `netcoll run manytoall -a ALGO --sources S ... --compare-native --json` per algorithm
and source set and prints markdown tables: time per size (median of the per-iteration maxima
over ranks), the native time (the best of the runs' native measurements, which favours
native) and each algorithm's ratio to it. With every rank a source, MPI_Allgather on the
same data is shown too (MPICH's Allgatherv is much slower than its Allgather on this
machine). Figures, not assertions: the machine's load is printed beside them.
"""

from __future__ import annotations

import os

from mpi_bench import parser, report, rows, run

ALGOS = ("hnc", "tree-multicast", "all-at-once")


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
    return "\n".join(lines + rows(docs, allgather))


def main() -> None:
    ap = parser("mesh:4x2")
    ap.add_argument("--sources", default="all;random:4,seed=1", help="';'-separated sets")
    args = ap.parse_args()
    before = os.getloadavg()[0]
    raw, out = {}, []
    for sources in args.sources.split(";"):
        docs = {a: run("manytoall", a, ["--sources", sources], args) for a in ALGOS}
        everyone = docs["hnc"]["sources"] == list(range(args.np))
        allgather = run("allgather", "ring", [], args) if everyone else None
        raw[sources] = {**docs, **({"allgather-ring": allgather} if allgather else {})}
        out.append(table(sources, docs, allgather))
    report(args, out, raw, before)


if __name__ == "__main__":
    main()
