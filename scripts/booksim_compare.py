"""Compare netcoll's flit engine with BookSim 2 on the same configuration files (issue 5).

    .venv/bin/python scripts/booksim_compare.py --booksim /path/to/booksim [--seeds 2]
        [--cases mesh8-1,mesh8-16,mesh16-1,mesh16-16,torus8-1,torus8-16] [--out DIR]

For every case (network x packet size; uniform traffic, DOR, 4 VCs x 8 flits, BookSim's
defaults otherwise) it writes one BookSim .cfg file, then

1. finds the saturation throughput of each simulator and seed: the highest offered load
   (flits/node/cycle, bisection to 0.01) whose latency-mode run is stable and accepts at
   least 95% of the offered load;
2. runs both at 30, 50, 70 and 90% of BookSim's mean saturation load, every seed,
   and compares mean packet latency.

Both simulators read the same file (`netcoll sim --booksim FILE --json`); only the seed and
the offered load are given on the command line. Besides the generated files, three cases
read BookSim's own: its shipped runfile `examples/torus88` and `examples/anynet` (with its
network listing), found beside the binary (BookSim's `src/`), and `anynet16`, a generated
irregular listing of 16 routers with 4 nodes each (seeded). BookSim runs in the folder of
its file (it opens `network_file` relative to the working directory). Runs are one at a
time under `nice` (the machine is shared); every result is cached in DIR/results.json, so an
interrupted comparison resumes. Prints
the markdown tables of docs/flit.md. Without a BookSim binary it prints why and exits 0; it
is not part of CI.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
from pathlib import Path
from statistics import mean

CASES = {
    # name: (label, topology (or runfile), k, packet size, saturation bracket, overrides
    # for both simulators)
    "mesh8-1": ("mesh 8x8", "mesh", 8, 1, (0.36, 0.44), []),
    "torus8-1": ("torus 8x8", "torus", 8, 1, (0.5, 0.9), []),
    "mesh8-16": ("mesh 8x8", "mesh", 8, 16, (0.26, 0.42), []),
    "mesh16-1": ("mesh 16x16", "mesh", 16, 1, (0.16, 0.24), []),
    "torus8-16": ("torus 8x8", "torus", 8, 16, (0.4, 0.8), []),
    "mesh16-16": ("mesh 16x16", "mesh", 16, 16, (0.14, 0.22), []),
    "torus88-runfile": ("runfile torus88", "examples/torus88", 8, 1, (0.1, 0.5), []),
    "anynet-example": (
        "runfile anynet (3 routers)",
        "examples/anynet/anynet_config",
        0,
        1,
        (0.2, 1.0),
        [],
    ),
    "anynet16": ("anynet 16 routers x 4", "anynet16", 0, 1, (0.02, 0.3), []),
}


def anynet16_listing() -> str:
    """The bench's irregular network (`netcoll bench flit`): 16 routers on a ring plus 8
    seeded chords, 4 nodes each, in BookSim's anynet format."""
    from netcoll.cli.bench import anynet_listing

    return anynet_listing()


FRACTIONS = (0.3, 0.5, 0.7, 0.9)
RESOLUTION = 0.01
MIN_ACCEPTED = 0.98


def cfg_text(topology: str, k: int, size: int) -> str:
    routing = "dor" if topology == "mesh" else "dim_order"
    return (
        f"topology = {topology};\nk = {k};\nn = 2;\nrouting_function = {routing};\n"
        "num_vcs = 4;\nvc_buf_size = 8;\ntraffic = uniform;\n"
        f"packet_size = {size};\ninjection_rate_uses_flits = 1;\nsim_type = latency;\n"
        "injection_rate = 0.1;\n"
    )


def child_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def last_number(text: str, label: str) -> float | None:
    found = re.findall(rf"{label}\s*=\s*([-0-9.e+]+)", text)
    return float(found[-1]) if found else None


def run_booksim(binary: str, cfg: Path, load: float, seed: int, extra: list[str]) -> dict:
    cpu = child_cpu()
    out = subprocess.run(
        ["nice", str(Path(binary).resolve()), cfg.name, f"injection_rate={load}", f"seed={seed}"]
        + extra,
        capture_output=True,
        text=True,
        cwd=cfg.parent,
    ).stdout
    cpu = child_cpu() - cpu
    overall = out.split("Overall Traffic Statistics")[-1]
    unstable = "unstable" in out or "Overall Traffic Statistics" not in out
    m = re.search(r"Time taken is (\d+) cycles", out)
    cycles = int(m.group(1)) if m else None
    return {
        "latency": None if unstable else last_number(overall, "Packet latency average"),
        "accepted": None if unstable else last_number(overall, "Accepted flit rate average"),
        "unstable": unstable,
        "cycles": cycles,
        "cpu": cpu,
    }


def run_netcoll(netcoll: str, cfg: Path, load: float, seed: int, extra: list[str]) -> dict:
    cpu = child_cpu()
    p = subprocess.run(
        ["nice", netcoll, "sim", "--booksim", str(cfg), f"injection_rate={load}", f"seed={seed}"]
        + extra
        + ["--json"],
        capture_output=True,
        text=True,
    )
    cpu = child_cpu() - cpu
    if p.returncode != 0:
        raise SystemExit(f"netcoll failed on {cfg} at {load}: {p.stderr.strip()}")
    r = json.loads(p.stdout)
    unstable = bool(r["unstable"])
    return {
        "latency": None if unstable else r["avg_packet_latency"],
        "accepted": None if unstable else r["accepted_rate"],
        "unstable": unstable,
        "cycles": r["cycles"],
        "cpu": cpu,
    }


class Runner:
    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.out = Path(args.out)
        self.out.mkdir(parents=True, exist_ok=True)
        self.cache_file = self.out / "results.json"
        self.cache = json.loads(self.cache_file.read_text()) if self.cache_file.exists() else {}

    def cfg(self, case: str) -> Path:
        _, topology, k, size, _, _ = CASES[case]
        if topology.startswith("examples/"):
            # BookSim's own runfile, as shipped.
            return Path(self.args.booksim).resolve().parent / topology
        path = self.out / f"{case}.cfg"
        if topology == "anynet16":
            (self.out / "anynet16.net").write_text(anynet16_listing())
            path.write_text(
                "topology = anynet;\nnetwork_file = anynet16.net;\nrouting_function = min;\n"
                "num_vcs = 4;\nvc_buf_size = 8;\ntraffic = uniform;\npacket_size = 1;\n"
                "injection_rate_uses_flits = 1;\nsim_type = latency;\n"
            )
            return path
        path.write_text(cfg_text(topology, k, size))
        return path

    def run(self, sim: str, case: str, load: float, seed: int) -> dict:
        load = round(load, 4)
        key = f"{sim}|{case}|{load}|{seed}"
        if key not in self.cache:
            cfg = self.cfg(case)
            if sim == "booksim":
                r = run_booksim(self.args.booksim, cfg, load, seed, CASES[case][5])
            else:
                r = run_netcoll(self.args.netcoll, cfg, load, seed, CASES[case][5])
            self.cache[key] = r
            self.cache_file.write_text(json.dumps(self.cache, indent=1))
            lat = "unstable" if r["unstable"] else f"{r['latency']:.2f} acc {r['accepted']:.4f}"
            print(f"  {sim:8} {case:10} load {load:<6} seed {seed}: {lat}", file=sys.stderr)
        return self.cache[key]

    def stable(self, sim: str, case: str, load: float, seed: int) -> bool:
        r = self.run(sim, case, load, seed)
        return not r["unstable"] and r["accepted"] >= MIN_ACCEPTED * load

    def saturation(self, sim: str, case: str, seed: int) -> float:
        lo, hi = CASES[case][4]
        while hi - lo > RESOLUTION:
            mid = round((lo + hi) / 2, 4)
            if self.stable(sim, case, mid, seed):
                lo = mid
            else:
                hi = mid
        return lo


def pct(a: float, b: float) -> str:
    return f"{(a - b) / b * 100:+.1f}%"


def spread(xs: list[float]) -> str:
    return f"{mean(xs):.2f} ± {(max(xs) - min(xs)) / 2:.2f}" if len(xs) > 1 else f"{xs[0]:.2f}"


def compare(runner: Runner, case: str, seeds: list[int]) -> tuple[list[str], str]:
    label, _, _, size, _, _ = CASES[case]
    sat = {s: [runner.saturation(s, case, seed) for seed in seeds] for s in ("booksim", "netcoll")}
    bs, nc = mean(sat["booksim"]), mean(sat["netcoll"])
    rows = []
    for f in FRACTIONS:
        load = round(round(f * bs / RESOLUTION) * RESOLUTION, 4)
        lat = {s: [runner.run(s, case, load, seed) for seed in seeds] for s in sat}
        if any(r["unstable"] for rs in lat.values() for r in rs):
            rows.append(f"| {label} | {size} | {load} | unstable in a run | | |")
            continue
        b = [r["latency"] for r in lat["booksim"]]
        n = [r["latency"] for r in lat["netcoll"]]
        rows.append(
            f"| {label} | {size} | {load} ({f:.0%}) | {spread(b)} | {spread(n)} "
            f"| {pct(mean(n), mean(b))} |"
        )
    sat_row = (
        f"| {label} | {size} | {bs:.3f} ({', '.join(map(str, sat['booksim']))}) "
        f"| {nc:.3f} ({', '.join(map(str, sat['netcoll']))}) | {pct(nc, bs)} |"
    )
    return rows, sat_row


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--booksim", default=os.environ.get("BOOKSIM", ""))
    ap.add_argument("--netcoll", default=shutil.which("netcoll") or ".venv/bin/netcoll")
    ap.add_argument("--seeds", type=int, default=2)
    ap.add_argument("--cases", default=",".join(CASES))
    ap.add_argument("--out", default="/tmp/netcoll-booksim-compare")
    args = ap.parse_args()
    if not args.booksim or not Path(args.booksim).is_file():
        print("skipping: no BookSim binary (give --booksim PATH or set BOOKSIM)")
        return 0
    runner = Runner(args)
    seeds = list(range(1, args.seeds + 1))
    lat_rows, sat_rows = [], []
    for case in args.cases.split(","):
        if case not in CASES:
            print(f"unknown case {case}: use {', '.join(CASES)}", file=sys.stderr)
            return 2
        rows, sat = compare(runner, case, seeds)
        lat_rows += rows
        sat_rows.append(sat)
    print(f"Mean packet latency (cycles; mean ± half-range over seeds {seeds}):\n")
    print("| network | packet flits | offered (flits/node/cycle) | BookSim | netcoll | diff |")
    print("|---|---|---|---|---|---|")
    print("\n".join(lat_rows))
    print("\nSaturation throughput (flits/node/cycle; mean, then per seed):\n")
    print("| network | packet flits | BookSim | netcoll | diff |")
    print("|---|---|---|---|---|")
    print("\n".join(sat_rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
