"""``netcoll bench step``: the step engine at a million nodes (a benchmark that prints figures)."""

from __future__ import annotations

import json
import resource
import sys
import time

import click

from . import _core
from .cli_types import bounded
from .networks import topology


def _peak_rss_mib() -> float:
    kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return kib / (1024 * 1024) if sys.platform == "darwin" else kib / 1024


def run_one(spec: str, algo: str, packets: int, params: list[str]) -> dict:
    start = time.perf_counter()
    cpu0 = time.process_time()
    t = topology(spec)
    built = time.perf_counter()
    r = _core.step_broadcast(t, algo, root=0, packets=packets, params=params)
    done = time.perf_counter()
    return {
        "spec": t.name,
        "nodes": t.num_switches,
        "algorithm": algo,
        "packets": packets,
        "params": params,
        "steps": r["steps"],
        "pattern": r["pattern"],
        "lower_bound": r["lower_bound"],
        "sends": r["sends"],
        "duplicates": r["duplicates"],
        "alpha": r.get("alpha"),
        "beta": r.get("beta"),
        "torus": r.get("torus"),
        "seconds_network": round(built - start, 3),
        "seconds_broadcast": round(done - built, 3),
        "seconds_total": round(done - start, 3),
        "cpu_seconds": round(time.process_time() - cpu0, 3),
        "peak_rss_mib": round(_peak_rss_mib(), 1),
    }


def register(app: click.Group) -> None:
    bench = app.commands["bench"]

    @bench.command("step")
    @click.option("--spec", default="ibt:1000x1000:b=8,32", show_default=True, help="Network.")
    @click.option("--algo", default="global", show_default=True, help="line | rect | global")
    @click.option(
        "--packets", type=bounded(1, 65535, "integer count"), default=32, show_default=True
    )
    @click.option(
        "--set",
        "params",
        multiple=True,
        default=("pattern=1",),
        show_default=True,
        help="Protocol parameter (repeatable); give --set pattern= to search patterns.",
    )
    @click.option(
        "--compare",
        default="torus:100x100x100",
        show_default=True,
        help="A second network to run the same broadcast on ('' to skip).",
    )
    @click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
    def bench_step(spec, algo, packets, params, compare, as_json):
        """Time a pipelined broadcast on a million-node network (iBT(1000^2;b=8,32) by default)."""
        params = [p for p in params if p != "pattern="]
        rows = [run_one(spec, algo, packets, params)]
        if compare:
            rows.append(run_one(compare, algo, packets, params))
        if as_json:
            print(json.dumps(rows, indent=2))
            return
        for r in rows:
            click.echo(
                f"{r['spec']} ({r['nodes']:,} nodes): {r['algorithm']} broadcast of "
                f"{r['packets']} packets (pattern {r['pattern']}): {r['steps']} steps "
                f"(lower bound {r['lower_bound']}), {r['sends']:,} transmissions; "
                f"network {r['seconds_network']} s + broadcast {r['seconds_broadcast']} s = "
                f"{r['seconds_total']} s wall ({r['cpu_seconds']} s CPU), "
                f"peak RSS {r['peak_rss_mib']} MiB"
                + (
                    f"; alpha {r['alpha']:.3f}, beta {r['beta']:.3f} against the torus formulas"
                    if r["spec"].startswith("ibt") and r["alpha"] is not None
                    else ""
                )
            )
