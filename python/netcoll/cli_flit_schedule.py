"""`netcoll bench flit-schedule`: the issue's schedule benchmark, an all-to-all broadcast
schedule (tree-based, HNC, all-at-once) on a k-ary 2-mesh run by the flit engine with the
network-coding paper's router (seed 000 s5.1; see reproduce/netcoding_flit.py)."""

from __future__ import annotations

import json
import resource
import time

import click

from ._core import Topology, build_schedule, simulate_schedule
from .cli_types import bounded


def bench_schedule(k: int, algo: str, params: list[str], paper: bool) -> dict:
    """Builds and runs one all-to-all broadcast; CPU seconds of each part, peak RSS."""
    from .reproduce.netcoding_flit import FREE, OP, PAPER

    t = Topology(f"mesh:{k}x{k}")
    c0 = time.process_time()
    s = build_schedule(OP, algo, t, nbytes=16, params=params)
    c1, w1 = time.process_time(), time.perf_counter()
    r = simulate_schedule(s, t, PAPER if paper else PAPER + FREE)
    c2, w2 = time.process_time(), time.perf_counter()
    run = max(c2 - c1, 1e-9)
    return {
        "network": f"mesh:{k}x{k}",
        "algo": algo,
        "params": params,
        "measure": "paper (sync_steps, vc_per_step)" if paper else "free-running",
        "cycles": r["cycles"],
        "packets": r["packets"],
        "flit_hops": r["flit_hops"],
        "build_cpu_seconds": round(c1 - c0, 3),
        "run_cpu_seconds": round(run, 3),
        "run_wall_seconds": round(w2 - w1, 3),
        "cycles_per_s": round(r["cycles"] / run),
        "ns_per_flit_hop": round(run * 1e9 / max(r["flit_hops"], 1), 1),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }


def register(app: click.Group) -> None:
    bench = app.commands["bench"]

    @bench.command("flit-schedule")
    @click.option(
        "--k",
        type=bounded(2, 4096, "integer radix"),
        default=32,
        show_default=True,
        help="Radix of the k-ary 2-mesh.",
    )
    @click.option(
        "--algo",
        "algos",
        multiple=True,
        default=("tree-multicast", "hnc", "all-at-once"),
        show_default=True,
        help="Algorithms (repeatable).",
    )
    @click.option("--set", "params", multiple=True, help="Algorithm parameter key=value.")
    @click.option("--free", is_flag=True, help="Free-running (no barrier, any VC).")
    @click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
    def bench_flit_schedule(k, algos, params, free, as_json):
        """All-to-all broadcast on a k-ary 2-mesh on the flit engine: cycles, CPU seconds,
        simulated cycles/s, ns per flit-hop, peak RSS (the process's, Python included)."""
        rows = []
        for algo in algos:
            rows.append(bench_schedule(k, algo, list(params), not free))
            if not as_json:
                r = rows[-1]
                click.echo(
                    f"{r['network']} {algo:<15} cycles {r['cycles']:>7} build "
                    f"{r['build_cpu_seconds']:>6}s run {r['run_cpu_seconds']:>7}s CPU "
                    f"({r['run_wall_seconds']}s wall) {r['cycles_per_s']:>8} cycles/s "
                    f"{r['ns_per_flit_hop']:>7} ns/flit-hop peak RSS {r['peak_rss_mb']} MB"
                )
        if as_json:
            print(json.dumps(rows, indent=2))
