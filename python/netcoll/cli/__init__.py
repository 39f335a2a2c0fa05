"""The ``netcoll`` command line (click + rich), assembled here in full: every group and every
command is registered below, one line each, so this file is the map of the CLI. The commands
live in one module per command group; what they share (console, options, the one-line error
with exit status 2) is in :mod:`.common`. Every command that reports figures takes ``--json``.

To add a command: write it in the module of its group (or a new module) as a
``@click.command``, then add one ``add_command`` line below.
"""

from __future__ import annotations

import click

from . import bench, demo, hnc, reproduce, run, schedule, sim, simulate, topo, verify, worms
from .common import CONTEXT, console, emit_json, fail, run_cli

__all__ = ["app", "console", "emit_json", "fail", "main"]


@click.group(context_settings=CONTEXT)
@click.version_option(package_name="netcoll")
def app() -> None:
    """Design, prove, simulate and run collective communication on interconnection networks.

    SPEC is a network: mesh:8x8 | torus:8x8x8 | hypercube:6 | ibt:64x64:b=8,24 |
    irregular:switches=8,ports=8,nodes=32,conn=0.8,seed=3 | file:PATH
    """


@app.group("topo", context_settings=CONTEXT)
def topo_group() -> None:
    """Networks: metrics, deadlock checks, pictures, export."""


@app.group("bench", context_settings=CONTEXT)
def bench_group() -> None:
    """Benchmarks that print figures (not tests)."""


@app.group("hnc")
def hnc_group() -> None:
    """Hierarchical network coding for all-to-all broadcast (seed 000)."""


@app.group("worms")
def worms_group() -> None:
    """Multidestination worms on switch networks (seed 003 s5)."""


# Networks: topo.py
topo_group.add_command(topo.topo_stats)
topo_group.add_command(topo.topo_check)
topo_group.add_command(topo.topo_draw)
topo_group.add_command(topo.topo_export)
app.add_command(topo.route)

# Algorithms and schedules: schedule.py
app.add_command(schedule.algos)
app.add_command(schedule.schedule)
app.add_command(schedule.analyze)
app.add_command(schedule.tune)
app.add_command(verify.verify)

# Engines: simulate.py (a collective's schedule), sim.py (BookSim-style synthetic traffic)
app.add_command(simulate.simulate)
app.add_command(sim.sim)

# Real machines: run.py (MPI)
app.add_command(run.run_cmd)

# Papers: reproduce.py, hnc.py, worms.py
app.add_command(reproduce.reproduce)
hnc_group.add_command(hnc.compare_cmd)
hnc_group.add_command(hnc.groups_cmd)
worms_group.add_command(worms.show)
worms_group.add_command(worms.trends_cmd)

# The main job and the benchmarks: demo.py, bench.py
app.add_command(demo.demo)
bench_group.add_command(bench.bench_metrics)
bench_group.add_command(bench.bench_step)
bench_group.add_command(bench.bench_flit)
bench_group.add_command(bench.bench_flit_schedule)


def main(argv: list[str] | None = None) -> None:
    """Run the CLI; bad input ends in one line on stderr and exit status 2."""
    run_cli(app, argv)
