"""`netcoll simulate OP --engine E ...`: run a collective's schedule on an engine.

Engines live in their own modules, each with
``simulate(op, algo, topo, root, nbytes, packets, params, sim, request, network) -> dict``
(``request``: the ``build_schedule`` keywords of --ranks/--placement/--dests/--sources;
``network``: the network of ``topo``, built once by the CLI) returning at least
``cycles`` or ``steps`` and ``verified``; ``ENGINE_MODULES`` maps engine names to modules.
"""

from __future__ import annotations

import importlib
import json

import click

from ._core import NetcollError
from .cli_algos import collective_kw, collective_options
from .cli_types import BYTES, POSITIVE, RANK

ENGINE_MODULES = {
    "step": "netcoll.engine_step",
    "flit": "netcoll.engine_flit",
}


def load_engine(name: str):
    if name not in ENGINE_MODULES:
        raise NetcollError(f"unknown engine '{name}': use {', '.join(ENGINE_MODULES)}")
    try:
        return importlib.import_module(ENGINE_MODULES[name])
    except ModuleNotFoundError as e:
        if e.name == ENGINE_MODULES[name]:
            raise NetcollError(f"the {name} engine is not available in this build") from None
        raise


def register(app: click.Group) -> None:
    @app.command("simulate")
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
        network, request = collective_kw(topo, root, **picked)
        result = load_engine(engine).simulate(
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
