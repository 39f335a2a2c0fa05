"""BookSim 2 against netcoll with each allocator (issue 32): an 8x8 mesh, DOR, uniform
traffic, 4 VCs x 4 flits, 4-flit packets, latency mode, at three offered loads; both
allocators (`vc_allocator` and `sw_allocator`) set to the same name, with one iteration (and
two for the iterative ones, written `islip(2)`: BookSim 2's router builds its allocators
without the configuration, so it ignores `alloc_iters` and iterates only when the name
says so).

    .venv/bin/python scripts/booksim_alloc_compare.py --booksim /path/to/booksim [--out DIR]
        [--allocators islip,pim] [--loads 0.15,0.3,0.38] [--seeds 1]

Both simulators read one generated file; the allocator, iterations, load and seed are given
on the command line. Results are cached in DIR/alloc_results.json (an interrupted run
resumes). Prints the markdown table of docs/validation.md. Not part of CI.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from booksim_compare import run_booksim, run_netcoll  # noqa: E402

ALLOCATORS = (
    "islip",
    "separable_input_first",
    "separable_output_first",
    "wavefront",
    "rr_wavefront",
    "select",
    "max_size",
    "pim",
    "loa",
)
ITERATIVE = ("islip", "select", "pim")
CFG = (
    "topology = mesh;\nk = 8;\nn = 2;\nrouting_function = dor;\nnum_vcs = 4;\n"
    "vc_buf_size = 4;\npacket_size = 4;\ntraffic = uniform;\ninjection_rate_uses_flits = 1;\n"
    "sim_type = latency;\ninjection_rate = 0.1;\n"
)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--booksim", required=True)
    ap.add_argument("--netcoll", default=str(Path(sys.executable).parent / "netcoll"))
    ap.add_argument("--out", default="alloc_compare")
    ap.add_argument("--allocators", default=",".join(ALLOCATORS))
    ap.add_argument("--loads", default="0.15,0.3,0.38")
    ap.add_argument("--seeds", type=int, default=1)
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    cfg = out / "mesh8_alloc.cfg"
    cfg.write_text(CFG)
    cache_file = out / "alloc_results.json"
    cache = json.loads(cache_file.read_text()) if cache_file.exists() else {}
    print("| allocator | iters | load | BookSim latency / accepted | netcoll | difference |")
    print("|---|---|---|---|---|---|")
    for name in args.allocators.split(","):
        for iters in (1, 2) if name in ITERATIVE else (1,):
            alloc = f"{name}({iters})" if iters > 1 else name
            extra = [f"vc_allocator={alloc}", f"sw_allocator={alloc}"]
            for load in (float(x) for x in args.loads.split(",")):
                rows = {}
                for sim in ("booksim", "netcoll"):
                    runs = []
                    for seed in range(1, args.seeds + 1):
                        key = f"{sim} {alloc} {load} {seed}"
                        if key not in cache:
                            run = run_booksim if sim == "booksim" else run_netcoll
                            binary = args.booksim if sim == "booksim" else args.netcoll
                            cache[key] = run(binary, cfg, load, seed, extra)
                            cache_file.write_text(json.dumps(cache, indent=1))
                        runs.append(cache[key])
                    rows[sim] = runs
                print(row(name, iters, load, rows["booksim"], rows["netcoll"]))


def mean_of(runs: list[dict], field: str) -> float | None:
    vals = [r[field] for r in runs]
    return None if any(v is None for v in vals) else sum(vals) / len(vals)


def row(name: str, iters: int, load: float, b: list[dict], n: list[dict]) -> str:
    bl, ba = mean_of(b, "latency"), mean_of(b, "accepted")
    nl, na = mean_of(n, "latency"), mean_of(n, "accepted")
    fb = "unstable" if bl is None else f"{bl:.2f} / {ba:.4f}"
    fn = "unstable" if nl is None else f"{nl:.2f} / {na:.4f}"
    if bl is None or nl is None:
        diff = "both unstable" if bl is None and nl is None else "-"
    else:
        diff = f"{100 * (nl / bl - 1):+.1f}% / {100 * (na / ba - 1):+.1f}%"
    return f"| {name} | {iters} | {load} | {fb} | {fn} | {diff} |"


if __name__ == "__main__":
    main()
