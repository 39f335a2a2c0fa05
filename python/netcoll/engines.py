"""Run a collective's schedule on an engine: the Python API behind ``netcoll simulate``.

Every engine is a function ``simulate_<engine>(op, algo, topo, root, nbytes, packets, params,
sim, request, network) -> dict`` (``request``: further ``build_schedule`` keywords, ``p``,
``placement``, ``targets``, ``sources``; ``network``: ``topo`` already built) returning at
least ``cycles`` or ``steps`` and ``verified``; ``ENGINES`` maps engine names to them.

**step** (``simulate_step``): synchronous steps, one packet per directed link per step
(docs/step-engine.md). The iBT and torus broadcast protocols of seed 004 (``line``, ``rect``,
``global``, ``trees``) run directly on flat arrays, at a million nodes; with no ``pattern`` the
best packet-sending pattern is searched and reported. Any other registered algorithm is built,
verified and replayed packet by packet over the topology's routing.

**flit** (``simulate_flit``): builds and verifies the schedule, then runs it cycle by cycle on
the network (docs/flit.md).

**analytic** (``simulate_analytic``): the analytic engine's figures of the schedule (counts,
routed hops, rounds, the four models' times, link classes' alpha and beta; docs/analytic.md);
a schedule too large to build is taken per step, as ``netcoll analyze`` does.

**loggops** (``simulate_loggops``): LogGOPSim's model (docs/formats.md), topology-free or with
L per routed hop (``hops=1``).

Each takes ``schedule=`` (a schedule read from a file, any format) in place of ``algo``.
"""

from __future__ import annotations

import time

from . import _core
from ._core import NetcollError, Topology, build_schedule, simulate_schedule
from .networks import topology
from .vocabulary import display_op, normalise

#: What a step is, per engine: the step engine's steps are not the schedule's rounds.
STEP_DEFINITION = {
    "step": "synchronous link steps: each directed link carries one packet per step, so a "
    "message routed over h links takes h steps and contending messages wait",
    "schedule": "the schedule's rounds: one round per wave of sends, whatever the distance "
    "and contention",
}

PROTOCOLS = ("line", "rect", "global", "trees")
BROADCAST_NAMES = ("bcast", "broadcast")
# Largest network whose protocol run is also built as a schedule and verified, and largest
# number of packet deliveries (nodes x packets) verified: the schedule has one message per
# delivery and the verifier takes about 20 us each, so 2^19 take about ten seconds.
VERIFY_MAX_NODES = 1024
VERIFY_MAX_DELIVERIES = 2**19


def simulate_step(
    op, algo, topo, root, nbytes, packets, params, sim, request=None, network=None, schedule=None
) -> dict:
    """Run collective ``op`` by ``algo`` on network spec ``topo``; returns the figures.
    ``request`` holds further ``build_schedule`` keywords (``p``, ``placement``,
    ``targets``, ``sources``); the broadcast protocols run on every node from ``root``.
    ``network``: ``topo`` already built (not built again)."""
    t = network if network is not None else topology(topo)
    if schedule is not None:  # a schedule read from a file (netcoll verify's formats)
        result = {"algo": algo, **_core.step_run(schedule, t, list(sim))}
        return {**result, "engine": "step", "front_end": "schedule"}
    if algo in PROTOCOLS and op.lower() in BROADCAST_NAMES and not request:
        if sim:
            raise _core.NetcollError(
                "the broadcast protocols take their settings as --set (pattern, dim, tie, "
                "forward, ports), not --sim"
            )
        result = _core.step_broadcast(t, algo, root=root, packets=packets, params=list(params))
        result["engine"] = "step"
        result["front_end"] = "protocol"
        result["verified"] = _verified(op, algo, t, root, nbytes, packets, params)
        return _shared(result, op, algo, topo, t)
    schedule = _core.build_schedule(
        op,
        algo,
        t,
        root=root,
        nbytes=nbytes,
        packets=packets,
        params=list(params),
        **(request or {}),
    )
    result = {"algo": algo, **_core.step_run(schedule, t, list(sim))}
    result["engine"] = "step"
    result["front_end"] = "schedule"
    return _shared(result, op, algo, topo, t)


def _shared(result: dict, op: str, algo: str, topo, t: Topology) -> dict:
    """The step engine's figures under the shared keys (docs/cli.md, "Vocabulary"), with
    what its steps are."""
    spec = topo if isinstance(topo, str) else t.name
    out = normalise({"op": display_op(op), "algo": algo, "topo": spec, **result})
    out["step_definition"] = STEP_DEFINITION["step"]
    return out


def _verified(op, algo, t, root, nbytes, packets, params):
    """Small runs: the same protocol run as a schedule, proved by the verifier. Larger
    networks, or more than VERIFY_MAX_DELIVERIES packet deliveries, are not built (None)."""
    if t.num_switches > VERIFY_MAX_NODES or t.num_switches * packets > VERIFY_MAX_DELIVERIES:
        return None
    schedule = _core.build_schedule(
        op, algo, t, root=root, nbytes=nbytes, packets=packets, params=list(params)
    )
    return bool(schedule.verify()["ok"])


#: Keys of ``--sim`` that the schedule layer reads; the rest configure the network.
SCHEDULE_KEYS = (
    "flit_bytes",
    "t_hs",
    "t_ns",
    "t_hr",
    "t_nr",
    "compute_base",
    "compute_per_flit",
    "copy_per_flit",
    "unicast_header_bits",
    "io_bus_mb_s",
    "cycle_ps",
    "ni_fpfs",
    "ni_serial",
    "vc_per_step",
    "step_vc_classes",
    "sync_steps",
    "whole_messages",
    "max_packet_flits",
)


def _build(op, algo, t, root, nbytes, packets, params, request):
    """The verified schedule of ``op`` by ``algo`` on network ``t``."""
    return build_schedule(
        op,
        algo,
        t,
        root=root,
        nbytes=nbytes,
        packets=packets,
        params=params or [],
        **(request or {}),
    )


def _pairs(items: list[str]) -> list[tuple[str, str]]:
    out = []
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise NetcollError(f"'{item}': engine parameters are key=value, as t_hs=10")
        out.append((key.strip(), value.strip()))
    return out


def simulate_flit(
    op: str,
    algo: str,
    topo: str,
    root: int = 0,
    nbytes: int = 1024,
    packets: int = 1,
    params: list[str] | None = None,
    sim: list[str] | None = None,
    request: dict | None = None,
    network: Topology | None = None,
    schedule=None,
) -> dict:
    """Execution time in cycles of collective ``op`` by ``algo`` on ``topo``. ``request``
    holds further ``build_schedule`` keywords (``p``, ``placement``, ``targets``,
    ``sources``); ``network``: ``topo`` already built (not built again)."""
    pairs = _pairs(sim or [])
    t = network if network is not None else Topology(topo)
    # The network keys default to the topology's own routing: DOR where it exists.
    grid = t.family["family"] in ("mesh", "torus", "hypercube")
    if not grid and not any(k == "routing_function" for k, _ in pairs):
        pairs.insert(0, ("routing_function", "updown"))
    s = schedule or _build(op, algo, t, root, nbytes, packets, params, request)
    r = simulate_schedule(s, t, pairs)
    # A schedule file fixes its own sizes: --bytes and --packets say nothing about it.
    size = {} if schedule else {"bytes": nbytes, "message_bytes": nbytes}
    return normalise(
        {
            "engine": "flit",
            "op": display_op(op),
            "algo": algo,
            "topo": topo if isinstance(topo, str) else t.name,
            "ranks": s.p,
            **size,
            **({} if schedule else {"message_packets": packets}),
            **r,  # its `packets` counts the packets delivered; `packet_flits` the largest
        }
    )


def simulate_loggops(
    op,
    algo,
    topo,
    root,
    nbytes,
    packets,
    params,
    sim,
    request=None,
    network=None,
    schedule=None,
    schedule_file=None,
) -> dict:
    """LogGOPSim's model (docs/formats.md): a GOAL file as it is, or any schedule written as
    GOAL. ``sim``: L, o, g, G, O, S as KEY=VALUE (LogGOPSim's defaults otherwise), hops=1,
    qstat=1 (queue statistics); times in the parameters' unit. Returns ``time`` (the largest
    finish time), ``rank_times``, ``events`` and ``cpu_seconds`` (this process's CPU time to
    read, build and simulate the schedule)."""
    pairs = [(key, str(value)) for key, value in _pairs(sim or [])]
    cpu0 = time.process_time()
    t = network if network is not None or topo is None else topology(topo)
    if schedule_file is not None:
        data, name = schedule_file
        r = _core.loggops_simulate(data=data, name=name, params=pairs, op=op, root=root, topo=t)
    else:
        if schedule is None:
            if t is None:
                raise NetcollError("--algo builds its schedule on a network: give --topo SPEC")
            schedule = _build(op, algo, t, root, nbytes, packets, params, request)
        r = _core.loggops_simulate(schedule=schedule, params=pairs, topo=t)
    r["cpu_seconds"] = round(time.process_time() - cpu0, 4)
    per_hop = any(k == "hops" and v.strip() == "1" for k, v in pairs)
    return {"engine": "loggops", "latency": "L per hop" if per_hop else "L", **r}


#: Machine keys of the analytic engine (``--sim KEY=VALUE``), as ``analyze --machine``.
def _machine(sim) -> dict[str, float]:
    out = {}
    for key, value in _pairs(sim or []):
        try:
            out[key] = float(value)
        except ValueError:
            raise NetcollError(f"--sim {key}={value}: machine parameters are numbers") from None
    return out


def simulate_analytic(
    op, algo, topo, root, nbytes, packets, params, sim, request=None, network=None, schedule=None
) -> dict:
    """The analytic engine (docs/analytic.md) on the schedule: counts, routed hops, rounds
    and the models' times (``time_s``: Hockney rounds), as ``netcoll analyze --method
    schedule``; a schedule too large to build (over ``_core.SMALL_SCHEDULE`` messages) is
    taken per step from the algorithm's rounds where it has them (``method``: per-step,
    round-rule time only, ``verified`` null), as ``netcoll analyze`` does. ``sim``: machine
    parameters (alpha, beta, gamma, lambda, L, o, g, G, and per link class alpha_local,
    alpha_global, alpha_up, alpha_down, beta_local, ...)."""
    t = network if network is not None else topology(topo)
    machine = _machine(sim)
    if schedule is None:
        fig = _algorithm_figures(op, algo, t, root, nbytes, packets, params, machine, request)
    else:
        fig = _core.analyze_loaded(schedule, t, machine=machine)
    times = fig.get("times")
    if isinstance(times, dict) and "hockney_rounds" in times:
        fig["time_s"] = times["hockney_rounds"]
    fig["step_definition"] = STEP_DEFINITION["schedule"]
    spec = topo if isinstance(topo, str) else t.name
    head = {"engine": "analytic", "op": display_op(op), "algo": algo, "topo": spec}
    return normalise({**head, **fig})


def _algorithm_figures(op, algo, t, root, nbytes, packets, params, machine, request) -> dict:
    """Figures of ``algo``'s schedule: built and analysed by every model while small, else
    per step (no schedule kept); a closed form only when neither serves."""
    kw = dict(root=root, nbytes=nbytes, packets=packets, params=list(params or []))
    kw.update(request or {})

    def by(method):
        return _core.analyze(op, algo, t, machine=machine, method=method, **kw)

    fig = by("auto")  # a closed form, the built schedule when small, else per step
    if fig.get("method") != "closed-form":
        return fig
    if fig.get("messages", 0) <= _core.SMALL_SCHEDULE:
        return by("schedule")
    try:
        return by("per-step")
    except NetcollError:
        return fig


ENGINES = {
    "analytic": simulate_analytic,
    "step": simulate_step,
    "flit": simulate_flit,
    "loggops": simulate_loggops,
}
