"""The ``netcoll`` command line (click + rich), assembled here in full: every group and every
command is registered below, one line each, so this file is the map of the CLI. The commands
live in one module per command group; what they share (console, options, the one-line error
with exit status 2) is in :mod:`.common`. Every command that reports figures takes ``--json``.

To add a command: write it in the module of its group (or a new module) as a
``@click.command``, then add one ``add_lazy`` line below (command name, module, function):
a command's module is imported only when that command (or a help listing it) runs, so a
command pays only for what it uses (:mod:`.lazy`).
"""

from __future__ import annotations

import os

import click

from .. import _core
from .common import CONTEXT, emit_json, fail, run_cli
from .lazy import LazyGroup
from .types import GIGABYTES

__all__ = ["app", "emit_json", "fail", "main"]


def set_max_memory(ctx, param, value: float | None) -> float | None:
    """The option's budget, else NETCOLL_MAX_MEMORY's, checked as the option is: a value
    the option refuses is refused from the environment too (the core would ignore it)."""
    if value is None and os.environ.get("NETCOLL_MAX_MEMORY", "").strip():
        raw = os.environ["NETCOLL_MAX_MEMORY"]
        try:
            value = GIGABYTES.convert(raw, param, ctx)
        except click.BadParameter as e:
            raise click.BadParameter(f"NETCOLL_MAX_MEMORY={raw!r}: {e.message}") from None
    _core.set_max_memory(value)
    return value


@click.group(cls=LazyGroup, context_settings=CONTEXT)
@click.version_option(package_name="netcoll")
@click.option(
    "--max-memory",
    type=GIGABYTES,
    default=None,
    expose_value=False,
    is_eager=True,
    callback=set_max_memory,
    metavar="GB",
    help="Memory budget of the memory guard, in gigabytes (default: what is free; also "
    "NETCOLL_MAX_MEMORY). Builders that would need more refuse before allocating.",
)
def app() -> None:
    """Design, prove, simulate and run collective communication on interconnection networks.

    Every command takes its network as -t/--topo SPEC: mesh:8x8 | torus:8x8x8 |
    hypercube:6 | ibt:64x64:b=8,24 | irregular:switches=8,ports=8,nodes=32,conn=0.8,seed=3 |
    fattree:k=4,levels=3 | dragonfly:p=2,a=4,h=2 | flatfly:k=4,n=2,c=4 | hyperx:4x4,t=1 |
    file:PATH. Sizes take suffixes (--bytes 1M); docs/cli.md lists the shared vocabulary.
    """


@app.group("topo", cls=LazyGroup, context_settings=CONTEXT)
def topo_group() -> None:
    """Networks: metrics, deadlock checks, pictures, export."""


@app.group("bench", cls=LazyGroup, context_settings=CONTEXT)
def bench_group() -> None:
    """Benchmarks that print figures (not tests)."""


@app.group("hnc", cls=LazyGroup)
def hnc_group() -> None:
    """Hierarchical network coding for all-to-all broadcast (seed 000)."""


@app.group("worms", cls=LazyGroup)
def worms_group() -> None:
    """Multidestination worms on switch networks (seed 003 s5)."""


# Networks: topo.py
topo_group.add_lazy("stats", "topo", "topo_stats")
topo_group.add_lazy("check", "topo", "topo_check")
topo_group.add_lazy("draw", "topo", "topo_draw")
topo_group.add_lazy("export", "topo", "topo_export")
app.add_lazy("route", "topo", "route")

# Algorithms and schedules: schedule.py
app.add_lazy("algos", "schedule", "algos")
app.add_lazy("schedule", "schedule", "schedule")
app.add_lazy("analyze", "schedule", "analyze")
app.add_lazy("tune", "schedule", "tune")
app.add_lazy("verify", "verify", "verify")

# Engines: simulate.py (a collective's schedule), sim.py (BookSim-style synthetic traffic)
app.add_lazy("simulate", "simulate", "simulate")
app.add_lazy("sim", "sim", "sim")

# Studies: sweep.py (the cross product of axes, on processes or MPI ranks)
app.add_lazy("sweep", "sweep", "sweep_group")

# Real machines: run.py (MPI)
app.add_lazy("run", "run", "run_cmd")

# Papers: reproduce.py, hnc.py, worms.py
app.add_lazy("reproduce", "reproduce", "reproduce")
hnc_group.add_lazy("compare", "hnc", "compare_cmd")
hnc_group.add_lazy("groups", "hnc", "groups_cmd")
worms_group.add_lazy("show", "worms", "show")
worms_group.add_lazy("trends", "worms", "trends_cmd")

# The main job and the benchmarks: demo.py, bench.py
app.add_lazy("demo", "demo", "demo")
bench_group.add_lazy("metrics", "bench", "bench_metrics")
bench_group.add_lazy("step", "bench_step", "bench_step")
bench_group.add_lazy("flit", "bench", "bench_flit")
bench_group.add_lazy("flit-schedule", "bench", "bench_flit_schedule")
bench_group.add_lazy("scale", "bench", "bench_scale")
bench_group.add_lazy("loggops", "bench_loggops", "bench_loggops")


def main(argv: list[str] | None = None) -> None:
    """Run the CLI; bad input ends in one line on stderr and exit status 2."""
    run_cli(app, argv)
