"""`netcoll simulate OP --engine E ...`: run a collective's schedule on an engine (the engines
are the Python API of :mod:`netcoll.simulate`, one function each in ``ENGINES``)."""

from __future__ import annotations

import json

import click
from click.core import ParameterSource

from .._core import NetcollError
from ..simulate import ENGINES, PROTOCOLS
from .schedule import collective_kw, collective_options
from .types import BYTES, POSITIVE, RANK


def load_engine(name: str):
    if name not in ENGINES:
        raise NetcollError(f"unknown engine '{name}': use {', '.join(ENGINES)}")
    return ENGINES[name]


@click.command("simulate")
@click.argument("op")
@click.option("--engine", "-e", default="step", show_default=True, help="step | flit")
@click.option("--algo", "-a", required=True, help="Algorithm name (see `netcoll algos`).")
@click.option("--topo", "-t", required=True, metavar="SPEC", help="Network spec.")
@click.option("--root", type=RANK, default=0, show_default=True, help="Root rank.")
@click.option(
    "--bytes",
    "nbytes",
    type=BYTES,
    default=1024,
    show_default=True,
    help="Message size in bytes.",
)
@click.option(
    "--packets",
    type=POSITIVE,
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
    given = click.get_current_context().get_parameter_source("nbytes")
    if engine == "step" and algo in PROTOCOLS and given == ParameterSource.COMMANDLINE:
        raise NetcollError(
            f"--bytes does nothing for the step protocol {algo}: it moves --packets packets, "
            "whatever their size; drop --bytes"
        )
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
