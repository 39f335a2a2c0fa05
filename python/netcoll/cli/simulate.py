"""`netcoll simulate OP --engine E ...`: run a collective's schedule on an engine
(:func:`netcoll.simulate`; the engines are :mod:`netcoll.engines`, one function each)."""

from __future__ import annotations

import json

import click
from click.core import ParameterSource

from .. import _core
from .._core import NetcollError
from ..api import simulate as simulate_api
from ..engines import ENGINES, PROTOCOLS
from ..vocabulary import round_floats
from .common import params_option, schedule_file_option, threads_option
from .schedule import collective_kw, collective_options
from .sizes import SIZE
from .types import POSITIVE, RANK
from .verify import read_bytes


@click.command("simulate")
@click.argument("op")
@click.option(
    "--engine", "-e", default="step", show_default=True, help="analytic | step | flit | loggops"
)
@click.option("--algo", "-a", default=None, help="Algorithm name (see `netcoll algos`).")
@schedule_file_option("Run")
@click.option("--topo", "-t", default=None, metavar="SPEC", help="Network spec.")
@click.option("--root", type=RANK, default=0, show_default=True, help="Root rank.")
@click.option(
    "--bytes",
    "nbytes",
    type=SIZE,
    default="1K",
    show_default=True,
    help="Message size: 8, 1K, 1Ki, 1M, 16MiB (powers of 1024).",
)
@click.option(
    "--packets",
    type=POSITIVE,
    default=1,
    show_default=True,
    help="Packets per message (pipelining).",
)
@params_option
@click.option(
    "--sim",
    "sim",
    multiple=True,
    metavar="KEY=VALUE",
    help="Engine parameter (repeatable): flit: BookSim keys and schedule keys such as "
    "max_packet_flits (the NI cuts larger packets); step: routing, ports, timing; analytic: "
    "alpha, beta, gamma, lambda, L, o, g, G, and per link class (local, global, up, down) "
    "alpha_CLASS (s per hop, default 0) and beta_CLASS (s/B, default beta); loggops: L, o, "
    "g, G, O, S, hops=1 (L per "
    "routed hop of --topo).",
)
@threads_option(
    "--engine flit: threads (the `threads` key; a schedule's executor reacts to each "
    "arrival in order, so schedule runs use one)."
)
@collective_options
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
def simulate(
    op,
    engine,
    algo,
    schedule_path,
    topo,
    root,
    nbytes,
    packets,
    params,
    sim,
    threads,
    as_json,
    **picked,
):
    """Simulate collective OP by algorithm ALGO (or a --schedule file) on network TOPO with
    an engine; the loggops engine needs no network."""
    if engine not in ENGINES:
        raise NetcollError(f"unknown engine '{engine}': use {', '.join(ENGINES)}")
    if (algo is None) == (schedule_path is None):
        raise NetcollError("give exactly one of --algo NAME and --schedule FILE")
    given = click.get_current_context().get_parameter_source("nbytes")
    if engine == "step" and algo in PROTOCOLS and given == ParameterSource.COMMANDLINE:
        raise NetcollError(
            f"--bytes does nothing for the step protocol {algo}: it moves --packets packets, "
            "whatever their size; drop --bytes"
        )
    if threads is not None:
        if engine != "flit":
            raise NetcollError(f"--threads is a flit engine option, not one of --engine {engine}")
        sim = (*sim, f"threads={threads}")
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
    result = simulate_api(
        op,
        algo,
        topo,
        engine=engine,
        root=root,
        nbytes=nbytes,
        packets=packets,
        params=params,
        sim=sim,
        request=request,
        network=network,
        **extra,
    )
    if as_json:
        print(json.dumps(result, indent=2))
    else:
        for key, value in round_floats(result).items():
            if not isinstance(value, (list, dict)):
                click.echo(f"{key:>28}: {value}")
