"""`netcoll bench step`: the step engine at a million nodes: a pipelined iBT broadcast with
its pattern given, the user's own `netcoll simulate` command line with the pattern searched
(issue 30's regression case, timed as a whole process), and the same broadcast on a torus.
Each row prints its seconds (wall and CPU) and its own peak RSS."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time

import click

from .. import _core
from .._core import NetcollError
from ..networks import topology
from .bench import _peak_rss_mib
from .types import bounded


def _reset_peak_rss() -> bool:
    """Restarts this process's peak-RSS count (Linux: VmHWM, reset by writing 5 to
    /proc/self/clear_refs), so each row reports its own peak, not an earlier row's."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def _row_peak_rss_mib(reset: bool) -> float:
    """This row's peak RSS (VmHWM after a reset), else the process's peak so far."""
    if reset:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    return _peak_rss_mib()


def _figures(r: dict) -> dict:
    """What a row shows of the broadcast itself (step_broadcast's or simulate's result)."""
    keys = ("steps", "pattern", "lower_bound", "sends", "duplicates")
    return {**{k: r[k] for k in keys}, **{k: r.get(k) for k in ("alpha", "beta", "torus")}}


def run_one(spec: str, algo: str, packets: int, params: list[str]) -> dict:
    reset = _reset_peak_rss()
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
        **_figures(r),
        "seconds_network": round(built - start, 3),
        "seconds_broadcast": round(done - built, 3),
        "seconds_total": round(done - start, 3),
        "cpu_seconds": round(time.process_time() - cpu0, 3),
        "peak_rss_mib": round(_row_peak_rss_mib(reset), 1),
    }


def run_command(spec: str, algo: str, packets: int) -> dict:
    """The user's command line itself, `netcoll simulate bcast --engine step --algo ALGO
    --topo SPEC --packets N` (the pattern searched), in a child process: wall seconds, CPU
    seconds (user + system, from wait4) and peak RSS of that process, start-up included."""
    cmd = ["simulate", "bcast", "--engine", "step", "--algo", algo, "--topo", spec,
           "--packets", str(packets)]  # fmt: skip
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "netcoll", *cmd, "--json"],
                                stdout=out, stderr=err)  # fmt: skip
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if proc.returncode != 0:
            raise NetcollError(f"netcoll {' '.join(cmd)} failed: {err.read().strip()[-300:]}")
        r = json.loads(out.read())
    scale = 1024 * 1024 if sys.platform == "darwin" else 1024
    return {
        "command": "netcoll " + " ".join(cmd),
        "spec": r["topo"],
        "nodes": r["targets"] + 1,
        "algorithm": algo,
        "packets": packets,
        "params": [],
        **_figures(r),
        "seconds_total": round(wall, 3),
        "cpu_seconds": round(usage.ru_utime + usage.ru_stime, 3),
        "peak_rss_mib": round(usage.ru_maxrss / scale, 1),
    }


@click.command("step")
@click.option(
    "--topo",
    "-t",
    "--spec",
    "spec",
    default="ibt:1000x1000:b=8,32",
    show_default=True,
    help="Network spec (--spec: deprecated spelling).",
)
@click.option("--algo", default="global", show_default=True, help="line | rect | global")
@click.option("--packets", type=bounded(1, 65535, "integer count"), default=32, show_default=True)
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
@click.option(
    "--searched/--no-searched",
    default=True,
    show_default=True,
    help="Also run `netcoll simulate bcast --engine step --algo ALGO --topo SPEC --packets N` "
    "itself (the pattern searched) in a child process and print its wall and CPU seconds and "
    "peak RSS (the regression case of issue 30).",
)
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
def bench_step(spec, algo, packets, params, compare, searched, as_json):
    """Time a pipelined broadcast on a million-node network (iBT(1000^2;b=8,32) by default)."""
    params = [p for p in params if p != "pattern="]
    rows = [run_one(spec, algo, packets, params)]
    if searched:
        rows.append(run_command(spec, algo, packets))
    if compare:
        rows.append(run_one(compare, algo, packets, params))
    if as_json:
        print(json.dumps(rows, indent=2))
        return
    for r in rows:
        if "command" in r:
            click.echo(
                f"{r['command']} ({r['nodes']:,} nodes, pattern {r['pattern']} searched): "
                f"{r['steps']} steps (lower bound {r['lower_bound']}), {r['sends']:,} "
                f"transmissions; {r['seconds_total']} s wall, {r['cpu_seconds']} s CPU, "
                f"peak RSS {r['peak_rss_mib']} MiB (the whole process, start-up included)"
            )
            continue
        click.echo(
            f"{r['spec']} ({r['nodes']:,} nodes): {r['algorithm']} broadcast of "
            f"{r['packets']} packets (pattern {r['pattern']}"
            f"{', searched' if not r['params'] else ''}): {r['steps']} steps "
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
