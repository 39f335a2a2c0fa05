"""What the MPI benchmark scripts (bench_mpi_manytoall.py, bench_mpi_multicast.py) share:
the common options, one checked `netcoll run ... --compare-native --json` per algorithm,
the markdown table rows and the report with the machine's load."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys


def parser(topo: str) -> argparse.ArgumentParser:
    """The options every benchmark takes (`topo`: its default network)."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--np", type=int, default=8)
    ap.add_argument("--topo", default=topo)
    ap.add_argument("--sizes", default="1K,16K,256K,1M")
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--json-out", default=None, help="Also write the raw runs here.")
    return ap


def run(op: str, algo: str, pick: list[str], args) -> dict:
    """One `netcoll run OP -a ALGO PICK...` on `args.np` ranks; its checked JSON."""
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


def rows(docs: dict[str, dict], extra: dict | None) -> list[str]:
    """Per size: each algorithm's time, the native time (the best of the runs' native
    measurements, which favours native), `extra`'s native time if given, and each
    algorithm's ratio to native; microseconds."""
    first = next(iter(docs.values()))
    lines = []
    for i, row in enumerate(first["results"]):
        times = {a: d["results"][i]["time"] for a, d in docs.items()}
        native = min(d["results"][i]["native_time"] for d in docs.values())
        cells = [f"{t * 1e6:.0f}" for t in times.values()] + [f"{native * 1e6:.0f}"]
        if extra:
            cells.append(f"{extra['results'][i]['native_time'] * 1e6:.0f}")
        cells += [f"{t / native:.2f}" for t in times.values()]
        lines.append(f"| {human(row['bytes'])} | " + " | ".join(cells) + " |")
    return lines


def report(args, tables: list[str], raw: dict, load_before: float) -> None:
    """Prints the setup with the load average before and after, then the tables."""
    after = os.getloadavg()[0]
    print(
        f"{args.np} ranks on {args.topo} ({os.cpu_count()} cores), {args.iters} iterations "
        f"after {args.warmup} warm-up, first and last iteration checked; times in "
        f"microseconds (median of the per-iteration maxima over ranks, netcoll and native "
        f"taking turns); load average {load_before:.1f} before, {after:.1f} after.\n"
    )
    print("\n\n".join(tables))
    if args.json_out:
        with open(args.json_out, "w") as f:
            json.dump(raw, f, indent=1)
