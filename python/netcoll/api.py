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
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import _core, engines
from ._core import NetcollError, Topology
from .units import parse_size
from .vocabulary import normalise, op_name, registry_name

if TYPE_CHECKING:  # imported where a Schedule is made: numpy only for those who need it
    from .schedules import Schedule

#: A network: a spec string (``"mesh:4x4"``) or a built :class:`Topology`.
TopoLike = str | Topology
#: Parameters: ``{"k": 2}`` or ``["k=2"]``.
Params = Mapping[str, Any] | Iterable[str] | None

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


def as_topology(topo: TopoLike) -> Topology:
    """``topo`` built from its spec, or as it is if already a :class:`Topology`."""
    if isinstance(topo, Topology):
        return topo
    if not isinstance(topo, str):
        raise NetcollError(f"a network is a spec string or a netcoll.Topology, not {topo!r}")
    return Topology(topo)


def spec_of(topo: TopoLike) -> str:
    """The spec string of ``topo``."""
    return topo if isinstance(topo, str) else topo.name


def as_pairs(params: Params) -> list[str]:
    """``KEY=VALUE`` strings from a dict or an iterable of such strings."""
    if params is None:
        return []
    if isinstance(params, Mapping):
        return [f"{k}={v}" for k, v in params.items()]
    if isinstance(params, str):
        raise NetcollError(f"parameters '{params}': give a dict or a list of KEY=VALUE strings")
    return [str(p) for p in params]


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
) -> dict[str, Any]:
    """The analytic engine's figures of ``op`` by ``algo`` on ``topo``: counts, hops, rounds
    and the models' times, from a closed form where one exists (a 65,536-rank network answers
    in well under a second), else the schedule or per-step aggregates (``method``; the
    result's ``method`` says which was taken; docs/analytic.md)."""
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
    )
    return normalise({"op": op_name(op), "algo": algo, "topo": spec_of(topo), **fig})


def simulate(
    op: str | Schedule,
    algo: str | None = None,
    topo: TopoLike | None = None,
    *,
    engine: str = "flit",
    root: int = 0,
    nbytes: int | str = 1024,
    packets: int = 1,
    params: Params = None,
    sim: Params = None,
    request: dict[str, Any] | None = None,
    network: Topology | None = None,
    schedule: Any = None,
    schedule_file: tuple[bytes, str] | None = None,
) -> dict[str, Any]:
    """Runs collective ``op`` by ``algo`` on ``topo`` with an engine: ``flit`` (cycles,
    docs/flit.md), ``step`` (synchronous steps, docs/step-engine.md), ``analytic`` (the
    models' times of the schedule, docs/analytic.md) or ``loggops`` (LogGOPSim's model,
    docs/formats.md; it needs no network unless ``sim`` has ``hops=1``).

    ``op`` may be a :class:`netcoll.Schedule` itself (from :func:`schedule` or
    :func:`load_schedule`): ``netcoll.simulate(s, engine="flit", topo="mesh:4x4")``.
    ``schedule``: a schedule read from a file (:func:`load_schedule`) run in place of
    ``algo``; ``schedule_file``: a schedule file's
    ``(bytes, name)``, for ``loggops`` only (a GOAL file runs as it is).

    ``params``: the algorithm's parameters; ``sim``: the engine's settings (flit: BookSim
    keys and schedule keys such as ``max_packet_flits``); ``request``: further schedule
    keywords (``p``, ``placement``, ``targets``, ``sources``); ``network``: ``topo`` already
    built. Returns the figures with the shared keys (``op``, ``algo``, ``topo``, ``cycles``
    or ``steps``, ...)."""
    if not isinstance(op, str):  # a Schedule in hand: simulate it as it is
        core = getattr(op, "core", op)
        schedule, op = core, core.kind
    if engine not in engines.ENGINES:
        raise NetcollError(f"unknown engine '{engine}': use {', '.join(engines.ENGINES)}")
    if topo is None and engine != "loggops":
        raise NetcollError(f"the {engine} engine needs a network: give topo (--topo SPEC)")
    t = network if network is not None or topo is None else as_topology(topo)
    spec = None if topo is None else spec_of(topo)
    extra: dict[str, Any] = {}
    if schedule is not None:
        extra["schedule"] = schedule
    if schedule_file is not None:
        extra["schedule_file"] = schedule_file
    result = engines.ENGINES[engine](
        op=registry_name(op),
        algo=algo,
        topo=spec,
        root=root,
        nbytes=parse_size(nbytes),
        packets=packets,
        params=as_pairs(params),
        sim=as_pairs(sim),
        request=request,
        network=t,
        **extra,
    )
    return normalise({"op": op_name(op), "algo": algo, "topo": spec, **result})


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
    if engine != "analytic":
        cands = cands[:top]
        for c in cands:
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
            c[RANK_KEY[engine]] = figures[ENGINE_FIGURE[engine]]
        cands.sort(key=lambda c: (c[RANK_KEY[engine]], c["time_s"]))
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
        "max_conflict": a["max_conflict"],
        "bytes_moved": a["bytes"],
    }
