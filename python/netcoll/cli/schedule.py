"""`netcoll algos | schedule | analyze | tune`: the algorithm registry, schedules and their
figures from the analytic engine, and the tuner (docs/algorithms.md, docs/analytic.md)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import click

from .. import _core
from .. import networks as topo_mod
from .._core import NetcollError
from ..api import REFERENCE_MACHINE
from ..api import tune as tune_api
from ..engines import STEP_DEFINITION
from ..textvalues import parse_dests
from ..vocabulary import display_op, op_name, registry_name, round_floats
from .common import params_option, schedule_file_option
from .sizes import SIZE
from .types import (
    DESTS,
    PLACEMENT,
    POSITIVE,
    RANK,
    SECONDS,
    OutputPath,
    Placement,
    parse_placement_text,
    short,
)

# What `schedule --algo hnc` adds from the plan the closed form resolves.
HNC_PLAN_KEYS = ("group", "group_size", "groups", "place", "inner")


def collective_name(op: str) -> str:
    """The registry's name of collective ``op`` (any spelling of docs/cli.md)."""
    return registry_name(op)


def _kv(text: str, what: str) -> dict[str, str]:
    out = {}
    for item in text.split(","):
        if "=" not in item:
            raise NetcollError(f"{what}: '{short(item)}' is not key=value")
        k, v = (x.strip() for x in item.split("=", 1))
        if k in out:
            raise NetcollError(f"{what}: '{k}' is given twice")
        out[k] = v
    return out


def parse_placement(text: str | Placement | None, ranks: int, endpoints: int) -> list[int] | None:
    """identity | reverse | spread:BLOCKS | random[:seed=S] | a comma-separated endpoint list."""
    if text is None:
        text = Placement("identity")
    if isinstance(text, str):
        text = parse_placement_text(text)
    return text.resolve(ranks, endpoints)


def parse_machine(items: tuple[str, ...], **given: float | None) -> dict[str, float]:
    out: dict[str, float] = {k: v for k, v in given.items() if v is not None}
    for item in items:
        for k, v in _kv(item, "--machine").items():
            try:
                out[k] = float(v)
            except ValueError:
                raise NetcollError(
                    f"--machine {k}={short(v)}: the value must be a number"
                ) from None
            if not math.isfinite(out[k]) or out[k] < 0:
                raise NetcollError(f"--machine {k}={short(v)}: use a finite number >= 0")
    return out


sources_option = click.option(
    "--sources",
    default=None,
    metavar="S",
    help="manytoall sources: rank list 0,5,9 | all | random:COUNT,seed=S.",
)


#: Options that pick a collective's ranks: schedule, analyze, tune and simulate take them.
COLLECTIVE_OPTIONS = [
    click.option(
        "--ranks",
        "-p",
        type=POSITIVE,
        default=None,
        help="Number of ranks (default: every endpoint).",
    ),
    click.option(
        "--placement",
        type=PLACEMENT,
        default=None,
        help="identity (linear) | reverse | spread:BLOCKS (by group or pod) | random[:seed=S] "
        "| endpoint list 0,5,3,...",
    ),
    click.option(
        "--dests",
        type=DESTS,
        default=None,
        help="Multicast targets: rank list 1,4,7 | random:COUNT,seed=S.",
    ),
    sources_option,
]


def collective_options(f):
    """Decorates a command with COLLECTIVE_OPTIONS."""
    for o in reversed(COLLECTIVE_OPTIONS):
        f = o(f)
    return f


def request_options(f):
    """Options shared by schedule, analyze and tune."""
    opts = [
        click.option("--topo", "-t", required=True, metavar="SPEC", help="Network spec."),
        click.option("--root", type=RANK, default=0, show_default=True, help="Root rank."),
        click.option(
            "--bytes",
            "nbytes",
            type=SIZE,
            default="1K",
            show_default=True,
            help="Message size: 8, 1K, 1Ki, 1M, 16MiB (powers of 1024; per rank for "
            "gather/allgather).",
        ),
        click.option(
            "--packets",
            type=POSITIVE,
            default=1,
            show_default=True,
            help="Packets per whole-vector message.",
        ),
        *COLLECTIVE_OPTIONS,
        click.option(
            "--routing",
            "-r",
            default="auto",
            show_default=True,
            help="auto (dor where it exists) | dor | shortest | updown",
        ),
        click.option(
            "--machine",
            "machine",
            multiple=True,
            metavar="K=V",
            help="Model parameter: alpha, beta, gamma (s, s/B), lambda, L, o, g, G, "
            "write_combining=1, per link class (local, global, up, down) alpha_CLASS (s per "
            "hop, default 0) and beta_CLASS (s/B, default beta) (repeatable; defaults: the "
            "reference machine, alpha=1e-6, beta=1e-9, gamma=1e-10).",
        ),
        click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON."),
    ]
    for o in reversed(opts):
        f = o(f)
    return f


def collective_kw(topo, root, ranks, placement, dests, sources=None):
    """The network and the build_schedule keywords that pick the ranks of a collective:
    ``p``, ``placement``, ``targets`` (multicast) and ``sources`` (manytoall)."""
    t = topo_mod.topology(topo)
    n = t.num_endpoints
    p = ranks or n
    kw: dict[str, Any] = {}
    if ranks is not None:
        kw["p"] = ranks
    pl = parse_placement(placement, p, n)
    if pl is not None:
        kw["placement"] = pl
        kw["p"] = len(pl)
    targets = parse_dests(dests, p, root)
    if targets is not None:
        kw["targets"] = targets
    if sources is not None:
        kw["sources"] = sources
    return t, kw


def _common(op, topo, root, nbytes, packets, machine, routing, **picked):
    """The collective's name, its network and the keywords of the analytic bindings, from
    the options of `request_options` (``picked``: ranks, placement, dests, sources)."""
    t, kw = collective_kw(topo, root, **picked)
    kw.update(
        {"root": root, "nbytes": nbytes, "packets": packets, "routing": routing, "machine": machine}
    )
    return collective_name(op), t, kw


def _print(fig: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print(json.dumps(fig, indent=2))
        return
    for key, value in round_floats(fig).items():
        if isinstance(value, dict):
            for k, v in value.items():
                click.echo(f"{key + '.' + k:>24}: {v}")
        elif not isinstance(value, list):
            click.echo(f"{key:>24}: {value}")


@click.command("algos")
@click.option("--op", default=None, help="Only algorithms for this collective.")
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
def algos(op, as_json):
    """List every algorithm: collectives, parameters, preconditions, source."""
    rows = [
        {**a, "collectives": [display_op(c) for c in a["collectives"]]} for a in _core.algorithms()
    ]
    if op is not None:
        kind = op_name(op)
        rows = [a for a in rows if kind in a["collectives"]]
    if as_json:
        print(json.dumps(rows, indent=2))
        return
    from rich.table import Table

    from ..console import stdout_console

    console = stdout_console()

    table = Table("name", "collectives", "family", "parameters", "preconditions", "source")
    for a in rows:
        params = ", ".join(f"{p['name']}={p['default']}" for p in a["params"]) or "-"
        table.add_row(
            a["name"],
            ", ".join(a["collectives"]),
            a["family"],
            params,
            a["preconditions"],
            a["source"],
        )
    console.print(table)


@click.command("schedule")
@click.argument("op")
@click.option("--algo", "-a", required=True, help="Algorithm name (see `netcoll algos`).")
@params_option
@click.option(
    "-o",
    "--output",
    type=OutputPath((".json", ".xml", ".msccl-xml", ".goal")),
    default=None,
    help="Write the schedule to this file (in --format).",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["json", "msccl-xml", "goal"]),
    default="json",
    show_default=True,
    help="Format of -o: netcoll JSON (docs/schedule.md), MSCCL XML or GOAL (docs/formats.md).",
)
@click.option(
    "--method",
    type=click.Choice(["auto", "schedule", "stream"]),
    default="auto",
    show_default=True,
    help="schedule (build every op, verify, analyse with every model) | stream (round "
    "programs: the classic and InterCom algorithms; verify and analyse round by round, "
    "keeping no schedule; list-scheduled times null) | auto: stream when the schedule is "
    "not small (over 2^18 messages or 2^22 pieces) and can be streamed, else build. -o "
    "FILE always builds. The result's `method` says which was taken.",
)
@request_options
def schedule(op, algo, params, output, fmt, method, topo, machine, as_json, **req):
    """Build (or stream), verify and analyse the schedule of collective OP by algorithm
    ALGO."""
    kind, t, kw = _common(op, topo, machine=parse_machine(machine), **req)
    with_json = bool(output) or kind == "multicast"
    if kind == "multicast" and method == "stream":
        raise NetcollError("multicast figures need the built schedule: use --method schedule")
    if with_json and method == "auto":
        method = "schedule"
    fig, text = _core.schedule_figures(
        kind, algo, t, params=list(params), with_json=with_json, method=method, **kw
    )
    fig = _figures(kind, algo, topo, params, fig)
    if algo == "hnc":  # the resolved plan (group=auto's choice), from the closed form
        plan = _core.analyze(kind, algo, t, params=list(params), **kw)
        fig.update({k: plan[k] for k in HNC_PLAN_KEYS if k in plan})
    if kind == "multicast":  # worms, phases, header bits, link traversals (seed 003 s5)
        ud_root = int(_params(params).get("ud-root", 0))
        extra = _core.multicast_figures(_core.Schedule.from_json(text), t, ud_root)
        fig.update({k: v for k, v in extra.items() if k not in fig})
    if output:
        if fmt != "json":
            text = _core.write_schedule(_core.Schedule.from_json(text), fmt)
        Path(output).write_text(text.rstrip("\n") + "\n")
        fig["output"] = str(output)
        fig["format"] = fmt
    _print(fig, as_json)


@click.command("analyze")
@click.argument("op")
@click.option("--algo", "-a", default=None, help="Algorithm name (see `netcoll algos`).")
@schedule_file_option("Analyse")
@params_option
@click.option(
    "--method",
    type=click.Choice(["auto", "closed-form", "per-step", "schedule"]),
    default="auto",
    show_default=True,
    help="closed-form | per-step (rounds, no schedule; round-rule time only) | schedule "
    "(build and verify; every model) | auto: closed form, else the schedule up to 2^18 "
    "messages and 2^22 pieces, else per-step. The result's `method` says which was taken.",
)
@request_options
def analyze(op, algo, schedule_path, params, method, topo, machine, as_json, **req):
    """Figures of OP by ALGO (or a --schedule file): from a closed form, per-step aggregates
    or its schedule."""
    if (algo is None) == (schedule_path is None):
        raise NetcollError("give exactly one of --algo NAME and --schedule FILE")
    if schedule_path is not None:
        fig = analyze_file(op, schedule_path, topo, req["root"], req["routing"], machine)
        _print(_figures(collective_name(op), None, topo, params, fig), as_json)
        return
    kind, t, kw = _common(op, topo, machine=parse_machine(machine), **req)
    fig = _core.analyze(kind, algo, t, params=list(params), method=method, **kw)
    _print(_figures(kind, algo, topo, params, fig), as_json)


def analyze_file(op, path, topo, root, routing, machine) -> dict[str, Any]:
    """The analytic figures of the schedule in file ``path`` (any format, docs/formats.md)
    on network ``topo``, as ``--method schedule`` gives them for a built one; ``verified``
    is the file's own verdict (GOAL: the happens-before check)."""
    from .verify import read_bytes

    kind = collective_name(op)
    s = _core.load_schedule(read_bytes(path), path, op=kind, root=root)
    t = topo_mod.topology(topo)
    fig = _core.analyze_loaded(s, t, routing=routing, machine=parse_machine(machine))
    return {"schedule": path, "method": "schedule", **fig}


def _figures(kind: str, algo: str, topo: str, params, fig: dict[str, Any]) -> dict[str, Any]:
    """The analytic figures under the shared keys: ``op`` spelled canonically, the model's
    time in ``time_s``, and what its steps are."""
    out = {"op": display_op(kind), "algo": algo, "topo": topo, "params": _params(params)}
    out.update(fig)
    times = fig.get("times")
    if isinstance(times, dict) and "hockney_rounds" in times:
        out["time_s"] = times["hockney_rounds"]
    if "steps" in fig:
        out["step_definition"] = STEP_DEFINITION["schedule"]
    return out


@click.command("tune")
@click.argument("op")
@click.option(
    "--alpha",
    type=SECONDS,
    default=None,
    help=f"Start-up per message, seconds [default: {REFERENCE_MACHINE['alpha']:g}].",
)
@click.option(
    "--beta",
    type=SECONDS,
    default=None,
    help=f"Seconds per byte [default: {REFERENCE_MACHINE['beta']:g}].",
)
@click.option(
    "--gamma",
    type=SECONDS,
    default=None,
    help=f"Seconds per byte combined [default: {REFERENCE_MACHINE['gamma']:g}].",
)
@click.option(
    "--model",
    default="rounds",
    show_default=True,
    help="rounds (InterCom's round rule) | list (list-scheduled Hockney)",
)
@click.option(
    "--engine",
    "-e",
    default="analytic",
    show_default=True,
    type=click.Choice(["analytic", "step", "flit"]),
    help="Rank by the analytic model (time_s), or simulate the model's best --top on the "
    "step engine (sim_steps) or the flit engine (cycles) and rank by that.",
)
@click.option(
    "--top",
    type=POSITIVE,
    default=None,
    help="Show (and with --engine step|flit, simulate) the best N [default: all with "
    "analytic, 8 with step|flit].",
)
@click.option(
    "--sim", "sim", multiple=True, metavar="KEY=VALUE", help="Engine parameter (repeatable)."
)
@request_options
def tune(op, alpha, beta, gamma, model, engine, top, sim, topo, nbytes, machine, as_json, **req):
    """Rank every applicable algorithm and parameter choice for OP, best first.

    Each candidate's parameters are printed as --set arguments that `netcoll simulate`
    accepts; candidates far off the best say why."""
    mach = parse_machine(machine, alpha=alpha, beta=beta, gamma=gamma)
    kind, t, kw = _common(op, topo, nbytes=nbytes, machine=mach, **req)
    request = {k: kw[k] for k in ("p", "placement", "targets", "sources") if k in kw}
    out = tune_api(
        kind,
        t,
        nbytes=nbytes,
        engine=engine,
        top=top,
        machine=mach,
        model=model,
        sim=list(sim),
        root=kw["root"],
        packets=kw["packets"],
        routing=kw["routing"],
        request=request,
    )
    out["topo"] = topo
    if as_json:
        print(json.dumps(out, indent=2))
        return
    if not out["candidates"]:
        raise NetcollError(f"no {op_name(op)} algorithm applies here")
    _tune_table(out)


def _tune_table(out: dict[str, Any]) -> None:
    """The candidates as a table: rank, the simulate arguments, the figures with units."""
    from rich.table import Table

    from ..console import stdout_console
    from ..units import format_size

    console = stdout_console()

    rank_by = out["rank_by"]
    title = (
        f"{out['op']} on {out['topo']}, {format_size(out['bytes'])}: ranked by {rank_by} "
        f"({out['engine']})"
    )
    table = Table(title=title)
    cols = ["#", "algo", "simulate arguments", RANK_HEADER[rank_by], "x best"]
    if rank_by != "time_s":
        cols.append(RANK_HEADER["time_s"] + " (model)")
    for col in (*cols, "rounds", "messages", "why it is far off"):
        table.add_column(col, justify="left" if col[0].isalpha() and col != "x best" else "right")
    for i, c in enumerate(out["candidates"], 1):
        row = [str(i), c["algo"], " ".join(f"--set {kv}" for kv in c["set"]) or "-"]
        row += [_figure(c, rank_by), f"{c['ratio']:.2f}"]
        if rank_by != "time_s":
            row.append(_figure(c, "time_s"))
        row += [str(c["steps"]), str(c["messages"]), c["note"]]
        table.add_row(*row)
    console.print(table)
    for c in out.get("cannot_run", []):
        args = " ".join(f"--set {kv}" for kv in c["set"])
        console.print(f"cannot run: {c['algo']} {args}: {c['reason']}", highlight=False)


#: Column headers with units of the figures tune ranks by.
RANK_HEADER = {"time_s": "time (us)", "sim_steps": "link steps", "cycles": "cycles"}


def _figure(c: dict[str, Any], key: str) -> str:
    return f"{c[key] * 1e6:,.2f}" if key == "time_s" else f"{c[key]:,}"


def _params(items: tuple[str, ...]) -> dict[str, str]:
    return dict(item.split("=", 1) for item in items if "=" in item)
