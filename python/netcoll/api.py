"""The public Python API: :func:`schedule`, :func:`simulate` and :func:`tune`, each taking a
network as a spec string or a :class:`netcoll.Topology`, sizes as bytes or ``"1M"``, and
parameters as a dict (or ``KEY=VALUE`` strings, as on the command line).

>>> import netcoll
>>> s = netcoll.schedule("bcast", algo="binomial", topo="mesh:4x4", nbytes="1K")
>>> int(s.messages["bytes"].sum())
15360
>>> r = netcoll.simulate("bcast", algo="binomial", topo="mesh:4x4", engine="step")
>>> r["op"], r["algo"], r["steps"]
('bcast', 'binomial', 6)
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import _core
from ._core import NetcollError
from .simulation import Params, TopoLike, as_pairs, as_topology, simulate, spec_of  # noqa: F401
from .units import parse_size
from .vocabulary import normalise, op_name, registry_name

if TYPE_CHECKING:  # imported where a Schedule is made: numpy only for those who need it
    from .schedules import Schedule

#: The reference machine of the analytic engine and the tuner (the core's ``Machine``
#: defaults): 1 us start-up per message (alpha), 1 GB/s (beta = 1 ns/B), 0.1 ns/B to combine
#: (gamma). Override any of them with ``machine={"alpha": ...}`` or ``--alpha``.
REFERENCE_MACHINE = {"alpha": 1e-6, "beta": 1e-9, "gamma": 1e-10}

#: Engines that rank tuner candidates, and the candidate key of the figure they rank by: the
#: model's time, the step engine's link steps (``sim_steps``: a candidate's ``steps`` are its
#: schedule's rounds), the flit engine's cycles.
RANK_KEY = {"analytic": "time_s", "step": "sim_steps", "flit": "cycles"}
#: The figure of the engine's own output that the candidate key holds.
ENGINE_FIGURE = {"step": "steps", "flit": "cycles"}


def schedule(
    op: str,
    algo: str,
    topo: TopoLike,
    *,
    root: int = 0,
    nbytes: int | str = 1024,
    packets: int = 1,
    params: Params = None,
    ranks: int | None = None,
    placement: list[int] | None = None,
    targets: list[int] | None = None,
    sources: str | None = None,
) -> Schedule:
    """Builds the schedule of collective ``op`` (``bcast``, ``allreduce``, ... or an alias)
    by algorithm ``algo`` (see ``netcoll algos``) on network ``topo``.

    ``nbytes``: the message size (``1024`` or ``"1K"``); ``ranks`` defaults to every
    endpoint, ``placement`` to rank i on endpoint i; ``targets`` for multicast, ``sources``
    for manytoall. Raises ``NetcollError`` on bad input."""
    kw: dict[str, Any] = {}
    for key, value in (("p", ranks), ("placement", placement), ("targets", targets)):
        if value is not None:
            kw[key] = value
    if sources is not None:
        kw["sources"] = sources
    core = _core.build_schedule(
        registry_name(op),
        algo,
        as_topology(topo),
        root=root,
        nbytes=parse_size(nbytes),
        packets=packets,
        params=as_pairs(params),
        **kw,
    )
    from .schedules import Schedule

    return Schedule(core)


def load_schedule(
    path: str | os.PathLike, op: str | None = None, root: int = 0, nbytes: int | str | None = None
) -> Schedule:
    """Reads a schedule file (netcoll JSON, MSCCL XML; docs/formats.md) as a
    :class:`netcoll.Schedule`, to verify, analyse or simulate (``op`` names the collective
    where the file does not)."""
    from .schedules import Schedule

    data = Path(path).read_bytes()
    size = None if nbytes is None else parse_size(nbytes)
    return Schedule(_core.load_schedule(data, str(path), op=op, root=root, nbytes=size))


def analyze(
    op: str,
    algo: str,
    topo: TopoLike,
    *,
    root: int = 0,
    nbytes: int | str = 1024,
    packets: int = 1,
    params: Params = None,
    method: str = "auto",
    routing: str = "auto",
    machine: Mapping[str, float] | None = None,
) -> dict[str, Any]:
    """The analytic engine's figures of ``op`` by ``algo`` on ``topo``: counts, hops, rounds
    and the models' times, from a closed form where one exists (a 65,536-rank network answers
    in well under a second), else the schedule or per-step aggregates (``method``; the
    result's ``method`` says which was taken; docs/analytic.md). ``machine``: model
    parameters over :data:`REFERENCE_MACHINE` (alpha, beta, gamma, lambda, L, o, g, G, and
    per link class ``alpha_global``, ``beta_up``, ...: docs/analytic.md, "Link classes")."""
    fig = _core.analyze(
        registry_name(op),
        algo,
        as_topology(topo),
        params=as_pairs(params),
        method=method,
        root=root,
        nbytes=parse_size(nbytes),
        packets=packets,
        routing=routing,
        machine=dict(machine or {}),
    )
    return normalise({"op": op_name(op), "algo": algo, "topo": spec_of(topo), **fig})


def tune(
    op: str,
    topo: TopoLike,
    *,
    nbytes: int | str = 1024,
    engine: str = "analytic",
    top: int | None = None,
    machine: Mapping[str, float] | None = None,
    model: str = "rounds",
    sim: Params = None,
    root: int = 0,
    packets: int = 1,
    routing: str = "auto",
    request: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Ranks every applicable algorithm and parameter choice for ``op`` on ``topo``.

    The analytic model (``machine``: alpha, beta, gamma, ... over :data:`REFERENCE_MACHINE`;
    ``model``: ``rounds`` or ``list``) ranks all of them; with ``engine="step"`` or
    ``"flit"`` its best ``top`` (default 8) are simulated and re-ranked by the step engine's
    steps (``sim_steps``) or the flit engine's ``cycles``; ``top`` also cuts the analytic
    list (default: all).
    Every candidate carries ``set``: its parameters as ``KEY=VALUE`` strings that
    :func:`simulate` and ``netcoll simulate --set`` accept, and ``note``: why it is far off
    the best (empty when it is not). Returns ``{op, topo, bytes, engine, rank_by, candidates,
    skipped}``."""
    if engine not in RANK_KEY:
        raise NetcollError(f"unknown engine '{engine}': use {', '.join(RANK_KEY)}")
    if top is None:
        top = 8 if engine != "analytic" else None
    elif top < 1:
        raise NetcollError(f"top = {top}: use 1 or more")
    t, size = as_topology(topo), parse_size(nbytes)
    mach = {**REFERENCE_MACHINE, **(machine or {})}
    kind = registry_name(op)
    res = _core.tune(
        kind,
        t,
        root=root,
        nbytes=size,
        packets=packets,
        routing=routing,
        machine=mach,
        model=model,
        **(request or {}),
    )
    cands = [_candidate(c) for c in res["candidates"]]
    cannot_run: list[dict[str, Any]] = []
    if engine != "analytic":
        ran = []
        for c in cands[:top]:
            # One candidate the engine refuses (a worm longer than the router's buffers) is
            # listed with its reason; the others are still ranked.
            try:
                figures = simulate(
                    op,
                    c["algo"],
                    t,
                    engine=engine,
                    root=root,
                    nbytes=size,
                    packets=packets,
                    params=c["set"],
                    sim=sim,
                    request=request,
                )
            except NetcollError as e:
                cannot_run.append({"algo": c["algo"], "set": c["set"], "reason": str(e)})
                continue
            c[RANK_KEY[engine]] = figures[ENGINE_FIGURE[engine]]
            ran.append(c)
        if not ran:
            first = cannot_run[0]
            raise NetcollError(
                f"no candidate runs on the {engine} engine; {first['algo']}: {first['reason']}"
            )
        cands = sorted(ran, key=lambda c: (c[RANK_KEY[engine]], c["time_s"]))
    elif top is not None:
        cands = cands[:top]
    from .tune_notes import annotate

    annotate(cands, RANK_KEY[engine], op_name(op))
    return {
        "op": op_name(op),
        "topo": spec_of(topo),
        "bytes": size,
        "engine": engine,
        "rank_by": RANK_KEY[engine],
        "model": model,
        "machine": mach,
        "candidates": cands,
        "skipped": res["skipped"],
        "cannot_run": cannot_run,
    }


def _candidate(c: dict[str, Any]) -> dict[str, Any]:
    a = c["analysis"]
    return {
        "algo": c["algo"],
        "family": c["family"],
        "params": c["params"],
        "set": [f"{k}={v}" for k, v in c["params"].items()],
        "time_s": c["time"],
        "ranks": a["ranks"],
        "messages": a["messages"],
        "steps": a["steps"],
        "aggregate_hops": a["aggregate_hops"],
        "hops_by_class": a["hops_by_class"],
        "max_conflict": a["max_conflict"],
        "bytes_moved": a["bytes"],
    }


# The API, including what simulation.py defines and this module re-exports (the reference
# documents these names here).
__all__ = [
    "REFERENCE_MACHINE",
    "Params",
    "TopoLike",
    "analyze",
    "load_schedule",
    "schedule",
    "simulate",
    "tune",
]
