"""Running a collective or a schedule on an engine (``netcoll.simulate``), and the shared
readers of a network and of parameters. Below both :mod:`netcoll.api` (which re-exports
``simulate``) and :mod:`netcoll.schedules` (``Schedule.simulate``), so neither imports the
other's module for it: no import circle.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from . import engines
from ._core import NetcollError, Topology
from .units import parse_size
from .vocabulary import normalise, op_name, registry_name

if TYPE_CHECKING:
    from .schedules import Schedule

#: A network: a spec string (``"mesh:4x4"``) or a built :class:`Topology`.
TopoLike = str | Topology
#: Parameters: ``{"k": 2}`` or ``["k=2"]``.
Params = Mapping[str, Any] | Iterable[str] | None


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
