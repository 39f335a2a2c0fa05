"""The MPI benchmark of docs/mpi.md: netcoll's schedules against the MPI library's own
collectives, on several rank counts, from one command.

    .venv/bin/python scripts/bench_mpi.py [--np 2,4,8] [--sizes 8,64,...,16M] [--iters 40]
        [--warmup 5] [--executor native] [--out docs/mpi-bench]

For each rank count, collective and candidate algorithm it runs `netcoll run OP --algo A
--compare-native --json` (every result checked on the first and the last timed iteration;
netcoll and native take turns iteration by iteration; per iteration the maximum over ranks,
the median reported). It writes OUT.md: per rank count and collective, per size the native
median, netcoll's best median, which algorithm that was, and the ratio best / native measured
in the same run, what `algo="auto"` picks without a tuning table (`netcoll.mpi.tuning.by_size`)
and its ratio, then every candidate's median. OUT.json keeps the raw runs (`--render` rewrites
OUT.md from it). Figures, not
assertions: the machine's core count and load average are printed beside them.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from mpi_bench import human  # noqa: E402

CANDIDATES = {
    "bcast": ["binomial", "scatter-allgather", "intercom-long"],
    "allgather": ["recursive-doubling", "ring", "bruck"],
    "allreduce": ["recursive-doubling", "rabenseifner", "ring"],
}
SIZES = "8,64,512,4K,32K,256K,2M,16M"


def run(op: str, algo: str, np_: int, args) -> dict:
    import subprocess

    cmd = [sys.executable, "-m", "netcoll", "run", op, "--algo", algo, "--np", str(np_),
           "--bytes", args.sizes, "--compare-native", "--iters", str(args.iters), "--warmup",
           str(args.warmup), "--executor", args.executor, "--json",
           "--timeout", "3000"]  # fmt: skip
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed: {proc.stderr.strip()}")
    doc = json.loads(proc.stdout)
    if not doc["verified"]:
        raise SystemExit(f"{' '.join(cmd)}: a result did not check out")
    return doc


KIND = {"bcast": "broadcast", "allgather": "allgather", "allreduce": "allreduce"}


def auto_pick(op: str, np_: int, nbytes: int, names: list[str]) -> str:
    """What `algo="auto"` runs without a tuning table (netcoll.mpi.tuning.by_size), among
    the candidates measured."""
    from netcoll.mpi.tuning import by_size

    return next((a for a in by_size(KIND[op], np_, nbytes) if a in names), names[0])


def table(np_: int, op: str, docs: dict[str, dict], loads: tuple[float, float]) -> list[str]:
    names = list(docs)
    cores = os.cpu_count() or 1
    over = f" ({np_} ranks on {cores} cores: oversubscribed)" if np_ > cores else ""
    lines = [f"#### {op}, {np_} ranks{over}", "",
             f"Load average {loads[0]:.1f} before, {loads[1]:.1f} after.", "",
             "| bytes | native us | netcoll best us | best algorithm | best / native | "
             "auto picks | auto / native | " + " | ".join(names) + " |",
             "|---:|---:|---:|---|---:|---|---:|" + "---:|" * len(names)]  # fmt: skip
    first = docs[names[0]]["results"]
    for i, row in enumerate(first):
        per = {a: d["results"][i] for a, d in docs.items()}
        best = min(per, key=lambda a: per[a]["median_us"])
        b = per[best]
        auto = auto_pick(op, np_, row["bytes"], names)
        cells = [human(row["bytes"]), f"{b['native_median_us']:.1f}", f"{b['median_us']:.1f}",
                 best, f"{b['ratio']:.2f}", auto, f"{per[auto]['ratio']:.2f}"]  # fmt: skip
        cells += [f"{per[a]['median_us']:.1f}" for a in names]
        lines.append("| " + " | ".join(cells) + " |")
    return lines + [""]


def render(raw: dict, head: str) -> str:
    lines: list[str] = []
    for key, entry in raw.items():
        op, np_ = key.split("/")
        lines += table(int(np_), op, entry["runs"], tuple(entry["load"]))
    return head + "\n\n" + "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--np", default="2,4,8", help="Rank counts, comma-separated.")
    ap.add_argument("--ops", default=",".join(CANDIDATES))
    ap.add_argument("--sizes", default=SIZES)
    ap.add_argument("--iters", type=int, default=40)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--executor", default="native", choices=["native", "python"])
    ap.add_argument("--out", default="docs/mpi-bench")
    ap.add_argument("--render", action="store_true",
                    help="Only rewrite OUT.md from OUT.json (no runs).")  # fmt: skip
    args = ap.parse_args()
    out = Path(args.out)
    if args.render:
        doc = json.loads(out.with_suffix(".json").read_text())
        out.with_suffix(".md").write_text(render(doc["raw"], doc["head"]))
        print(out.with_suffix(".md").read_text())
        return
    load = os.getloadavg()[0]
    start = time.strftime("%H:%M", time.gmtime())
    raw: dict = {}
    for np_ in (int(x) for x in args.np.split(",")):
        for op in args.ops.split(","):
            before = os.getloadavg()[0]
            docs = {}
            for algo in CANDIDATES[op]:
                docs[algo] = run(op, algo, np_, args)
                print(f"{np_} ranks {op:10s} {algo:20s} done (load {os.getloadavg()[0]:.1f})",
                      file=sys.stderr, flush=True)  # fmt: skip
            raw[f"{op}/{np_}"] = {"runs": docs, "load": [before, os.getloadavg()[0]]}
    head = (f"`scripts/bench_mpi.py --np {args.np}`, {start}-"
            f"{time.strftime('%H:%M', time.gmtime())} UTC; {os.cpu_count()} cores; "
            f"{args.iters} timed iterations after {args.warmup} warm-up, netcoll "
            f"({args.executor} executor) and native taking turns; per iteration the maximum "
            f"over ranks, medians in microseconds; first and last iteration checked; "
            f"buffers page-aligned; load average {load:.1f} before, "
            f"{os.getloadavg()[0]:.1f} after.")  # fmt: skip
    out.parent.mkdir(parents=True, exist_ok=True)
    out.with_suffix(".json").write_text(json.dumps({"head": head, "raw": raw}, indent=1))
    out.with_suffix(".md").write_text(render(raw, head))
    print(out.with_suffix(".md").read_text())


if __name__ == "__main__":
    main()
