"""`netcoll algos | schedule | analyze | tune`: the algorithm registry, schedules and their
figures from the analytic engine, and the tuner (docs/algorithms.md, docs/analytic.md)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import click

from .. import _core
from .. import networks as topo_mod
from .._core import NetcollError

# Command-line collective names -> registry names (mirrors the core's parse_collective).
OPS = {
    "bcast": "broadcast",
    "broadcast": "broadcast",
    "multicast": "multicast",
    "mcast": "multicast",
    "scatter": "scatter",
    "gather": "gather",
    "allgather": "allgather",
    "alltoall-broadcast": "alltoall_broadcast",
    "a2a-broadcast": "alltoall_broadcast",
    "all-to-all-broadcast": "alltoall_broadcast",
    "reduce": "reduce",
    "allreduce": "allreduce",
    "reduce-scatter": "reduce_scatter",
    "reducescatter": "reduce_scatter",
    "manytoall": "many_to_all",
    "many-to-all": "many_to_all",
    "m2a": "many_to_all",
    "alltoall": "alltoall",
    "all-to-all": "alltoall",
    "barrier": "barrier",
}

# What `schedule --algo hnc` adds from the plan the closed form resolves.
HNC_PLAN_KEYS = ("group", "group_size", "groups", "place", "inner")


def collective_name(op: str) -> str:
    key = op.lower().replace("_", "-")
    if key not in OPS:
        raise NetcollError(
            f"unknown collective '{op}': use bcast, multicast, scatter, gather, allgather, "
            "alltoall-broadcast, reduce, allreduce, reduce-scatter, manytoall, alltoall or barrier"
        )
    return OPS[key]


def _ints(text: str, what: str) -> list[int]:
    try:
        return [int(x) for x in text.split(",") if x.strip() != ""]
    except ValueError:
        raise NetcollError(f"{what} '{text}' is not a comma-separated list of integers") from None


def _kv(text: str, what: str) -> dict[str, str]:
    out = {}
    for item in text.split(","):
        if "=" not in item:
            raise NetcollError(f"{what}: '{item}' is not key=value")
        k, v = item.split("=", 1)
        out[k.strip()] = v.strip()
    return out


def parse_placement(text: str | None, ranks: int, endpoints: int) -> list[int] | None:
    """identity | reverse | random[:seed=S] | a comma-separated list of endpoints."""
    if text is None or text == "identity":
        return None if ranks == endpoints else list(range(ranks))
    if ranks > endpoints:
        raise NetcollError(
            f"{ranks} ranks do not fit on {endpoints} endpoints: use --ranks <= {endpoints}"
        )
    if text == "reverse":
        return [endpoints - 1 - i for i in range(ranks)]
    if text.startswith("random"):
        rest = text[len("random") :].lstrip(":")
        seed = int(_kv(rest, "--placement").get("seed", "0")) if rest else 0
        return random.Random(seed).sample(range(endpoints), ranks)
    return _ints(text, "--placement")


def parse_dests(text: str | None, ranks: int, root: int) -> list[int] | None:
    """LIST of ranks | random:COUNT[,seed=S] (distinct ranks other than the root)."""
    if text is None:
        return None
    if text.startswith("random:"):
        head, _, tail = text[len("random:") :].partition(",")
        try:
            count = int(head)
        except ValueError:
            raise NetcollError(f"--dests '{text}': use random:COUNT,seed=S") from None
        seed = int(_kv(tail, "--dests").get("seed", "0")) if tail else 0
        others = [r for r in range(ranks) if r != root]
        if not 0 < count <= len(others):
            raise NetcollError(f"--dests random:{count}: choose 1..{len(others)} destinations")
        return sorted(random.Random(seed).sample(others, count))
    return _ints(text, "--dests")


def parse_machine(items: tuple[str, ...], **given: float | None) -> dict[str, float]:
    out: dict[str, float] = {k: v for k, v in given.items() if v is not None}
    for item in items:
        for k, v in _kv(item, "--machine").items():
            try:
                out[k] = float(v)
            except ValueError:
                raise NetcollError(f"--machine {k}={v}: the value must be a number") from None
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
        type=click.IntRange(1),
        default=None,
        help="Number of ranks (default: every endpoint).",
    ),
    click.option(
        "--placement",
        default=None,
        metavar="P",
        help="identity | reverse | random[:seed=S] | endpoint list 0,5,3,...",
    ),
    click.option(
        "--dests",
        default=None,
        metavar="D",
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
        click.option("--root", type=int, default=0, show_default=True, help="Root rank."),
        click.option(
            "--bytes",
            "nbytes",
            type=click.IntRange(1),
            default=1024,
            show_default=True,
            help="Message size in bytes (per rank for gather/allgather).",
        ),
        click.option(
            "--packets",
            type=click.IntRange(1),
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
            "write_combining=1 (repeatable).",
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
    for key, value in fig.items():
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
    rows = list(_core.algorithms())
    if op is not None:
        kind = collective_name(op)
        rows = [a for a in rows if kind in a["collectives"]]
    if as_json:
        print(json.dumps(rows, indent=2))
        return
    from rich.table import Table

    from .common import console

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
@click.option(
    "--set",
    "params",
    multiple=True,
    metavar="KEY=VALUE",
    help="Algorithm parameter (repeatable).",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False),
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
@request_options
def schedule(op, algo, params, output, fmt, topo, machine, as_json, **req):
    """Build, verify and analyse the schedule of collective OP by algorithm ALGO."""
    kind, t, kw = _common(op, topo, machine=parse_machine(machine), **req)
    fig, text = _core.schedule_figures(kind, algo, t, params=list(params), **kw)
    fig = {"op": kind, "algo": algo, "topo": topo, "params": _params(params), **fig}
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
        fig["output"] = output
        fig["format"] = fmt
    _print(fig, as_json)


@click.command("analyze")
@click.argument("op")
@click.option("--algo", "-a", required=True, help="Algorithm name (see `netcoll algos`).")
@click.option(
    "--set",
    "params",
    multiple=True,
    metavar="KEY=VALUE",
    help="Algorithm parameter (repeatable).",
)
@request_options
def analyze(op, algo, params, topo, machine, as_json, **req):
    """Figures of OP by ALGO: from its closed form if it has one, else from its schedule."""
    kind, t, kw = _common(op, topo, machine=parse_machine(machine), **req)
    fig = _core.analyze(kind, algo, t, params=list(params), **kw)
    _print({"op": kind, "algo": algo, "topo": topo, "params": _params(params), **fig}, as_json)


@click.command("tune")
@click.argument("op")
@click.option("--alpha", type=float, required=True, help="Start-up per message, seconds.")
@click.option("--beta", type=float, required=True, help="Seconds per byte.")
@click.option(
    "--gamma", type=float, default=0.0, show_default=True, help="Seconds per byte combined."
)
@click.option(
    "--model",
    default="rounds",
    show_default=True,
    help="rounds (InterCom's round rule) | list (list-scheduled Hockney)",
)
@click.option("--top", type=click.IntRange(1), default=None, help="Show only the best N.")
@request_options
def tune(op, alpha, beta, gamma, model, top, topo, nbytes, machine, as_json, **req):
    """Rank every applicable algorithm and parameter choice for OP, best first."""
    mach = parse_machine(machine, alpha=alpha, beta=beta, gamma=gamma)
    kind, t, kw = _common(op, topo, nbytes=nbytes, machine=mach, **req)
    res = _core.tune(kind, t, model=model, **kw)
    cands = [
        {
            "algo": c["algo"],
            "family": c["family"],
            "params": c["params"],
            "time": c["time"],
            "messages": c["analysis"]["messages"],
            "steps": c["analysis"]["steps"],
            "aggregate_hops": c["analysis"]["aggregate_hops"],
        }
        for c in res["candidates"]
    ]
    if top:
        cands = cands[:top]
    out = {
        "op": kind,
        "topo": topo,
        "bytes": nbytes,
        "model": model,
        "candidates": cands,
        "skipped": res["skipped"],
    }
    if as_json:
        print(json.dumps(out, indent=2))
        return
    if not cands:
        raise NetcollError(f"no {kind} algorithm applies here")
    for i, c in enumerate(cands, 1):
        params = ",".join(f"{k}={v}" for k, v in c["params"].items())
        click.echo(
            f"{i:>3}. {c['algo']:<24} {params:<24} {c['time']:.6e} s  "
            f"{c['steps']} steps  {c['messages']} messages"
        )


def _params(items: tuple[str, ...]) -> dict[str, str]:
    return dict(item.split("=", 1) for item in items if "=" in item)
