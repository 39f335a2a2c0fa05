"""`netcoll simulate OP --engine E ...`: run a collective's schedule on an engine (the engines
are the Python API of :mod:`netcoll.simulate`, one function each in ``ENGINES``)."""

from __future__ import annotations

import json

import click

from .._core import NetcollError
from ..simulate import ENGINES
from .schedule import collective_kw, collective_options


def load_engine(name: str):
    if name not in ENGINES:
        raise NetcollError(f"unknown engine '{name}': use {', '.join(ENGINES)}")
    return ENGINES[name]


@click.command("simulate")
@click.argument("op")
@click.option("--engine", "-e", default="step", show_default=True, help="step | flit")
@click.option("--algo", "-a", required=True, help="Algorithm name (see `netcoll algos`).")
@click.option("--topo", "-t", required=True, metavar="SPEC", help="Network spec.")
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
def simulate(op, engine, algo, topo, root, nbytes, packets, params, sim, as_json, **picked):
    """Simulate collective OP by algorithm ALGO on network TOPO with an engine."""
    network, request = collective_kw(topo, root, **picked)
    result = load_engine(engine)(
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
    )
    if as_json:
        print(json.dumps(result, indent=2))
    else:
        for key, value in result.items():
            if not isinstance(value, (list, dict)):
                click.echo(f"{key:>24}: {value}")
