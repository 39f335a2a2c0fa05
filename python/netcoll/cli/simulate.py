"""`netcoll simulate OP --engine E ...`: run a collective's schedule on an engine (the engines
are the Python API of :mod:`netcoll.simulate`, one function each in ``ENGINES``)."""

from __future__ import annotations

import json

import click

from .. import _core
from .._core import NetcollError
from ..simulate import ENGINES
from .schedule import collective_kw, collective_options
from .verify import read_bytes


def load_engine(name: str):
    if name not in ENGINES:
        raise NetcollError(f"unknown engine '{name}': use {', '.join(ENGINES)}")
    return ENGINES[name]


@click.command("simulate")
@click.argument("op")
@click.option("--engine", "-e", default="step", show_default=True, help="step | flit | loggops")
@click.option("--algo", "-a", default=None, help="Algorithm name (see `netcoll algos`).")
@click.option(
    "--schedule",
    "schedule_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="Run this schedule file (netcoll JSON, MSCCL XML; GOAL with --engine loggops) "
    "instead of --algo.",
)
@click.option("--topo", "-t", default=None, metavar="SPEC", help="Network spec.")
@click.option("--root", type=int, default=0, show_default=True, help="Root rank.")
@click.option(
    "--bytes",
    "nbytes",
    type=click.IntRange(1),
    default=1024,
    show_default=True,
    help="Message size in bytes.",
)
@click.option(
    "--packets",
    type=click.IntRange(1),
    default=1,
    show_default=True,
    help="Packets per message (pipelining).",
)
@click.option(
    "--set",
    "params",
    multiple=True,
    metavar="KEY=VALUE",
    help="Algorithm parameter (repeatable).",
)
@click.option(
    "--sim", "sim", multiple=True, metavar="KEY=VALUE", help="Engine parameter (repeatable)."
)
@collective_options
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
def simulate(
    op, engine, algo, schedule_path, topo, root, nbytes, packets, params, sim, as_json, **picked
):
    """Simulate collective OP by algorithm ALGO (or a --schedule file) on network TOPO with
    an engine; the loggops engine needs no network."""
    run = load_engine(engine)
    if (algo is None) == (schedule_path is None):
        raise NetcollError("give exactly one of --algo NAME and --schedule FILE")
    extra = {}
    if schedule_path is not None:
        data = read_bytes(schedule_path)
        if engine == "loggops":
            extra["schedule_file"] = (data, schedule_path)
        else:
            extra["schedule"] = _core.load_schedule(data, schedule_path, op=op, root=root)
    if topo is None and engine != "loggops":
        raise NetcollError(f"--engine {engine} needs --topo SPEC")
    network, request = collective_kw(topo, root, **picked) if topo else (None, {})
    result = run(
        op=op,
        algo=algo,
        topo=topo,
        root=root,
        nbytes=nbytes,
        packets=packets,
        params=list(params),
        sim=list(sim),
        request=request,
        network=network,
        **extra,
    )
    if as_json:
        print(json.dumps(result, indent=2))
    else:
        for key, value in result.items():
            if not isinstance(value, (list, dict)):
                click.echo(f"{key:>24}: {value}")
