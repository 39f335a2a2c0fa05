"""The step engine behind ``netcoll simulate OP --engine step``.

Synchronous steps, one packet per directed link per step (docs/step-engine.md). The iBT and
torus broadcast protocols of seed 004 (``line``, ``rect``, ``global``, ``trees``) run directly on
flat arrays, at a million nodes; with no ``pattern`` the best packet-sending pattern is searched
and reported. Any other registered algorithm is built, verified and replayed packet by packet
over the topology's routing.
"""

from __future__ import annotations

from . import _core
from .networks import topology

PROTOCOLS = ("line", "rect", "global", "trees")
BROADCAST_NAMES = ("bcast", "broadcast")
# Largest network whose protocol run is also built as a schedule and verified.
VERIFY_MAX_NODES = 1024


def simulate(
    op, algo, topo, root, nbytes, packets, params, sim, request=None, network=None
) -> dict:
    """Run collective ``op`` by ``algo`` on network spec ``topo``; returns the figures.
    ``request`` holds further ``build_schedule`` keywords (``p``, ``placement``,
    ``targets``, ``sources``); the broadcast protocols run on every node from ``root``.
    ``network``: ``topo`` already built (not built again)."""
    t = network if network is not None else topology(topo)
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
        return result
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
    result = {"algorithm": algo, **_core.step_run(schedule, t, list(sim))}
    result["engine"] = "step"
    result["front_end"] = "schedule"
    return result


def _verified(op, algo, t, root, nbytes, packets, params):
    """Small networks: the same protocol run as a schedule, proved by the verifier. Larger
    ones are not built (None)."""
    if t.num_switches > VERIFY_MAX_NODES:
        return None
    schedule = _core.build_schedule(
        op, algo, t, root=root, nbytes=nbytes, packets=packets, params=list(params)
    )
    return bool(schedule.verify()["ok"])
