"""The flit engine for `netcoll simulate OP --engine flit`: builds and verifies the
schedule, then runs it cycle by cycle on the network (see docs/flit.md)."""

from __future__ import annotations

from ._core import NetcollError, Topology, build_schedule, simulate_schedule

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
)


def _pairs(items: list[str]) -> list[tuple[str, str]]:
    out = []
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise NetcollError(f"'{item}': engine parameters are key=value, as t_hs=10")
        out.append((key.strip(), value.strip()))
    return out


def simulate(
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
    s = build_schedule(
        op,
        algo,
        t,
        root=root,
        nbytes=nbytes,
        packets=packets,
        params=params or [],
        **(request or {}),
    )
    r = simulate_schedule(s, t, pairs)
    return {
        "engine": "flit",
        "op": op,
        "algo": algo,
        "topo": topo,
        "bytes": nbytes,
        "message_packets": packets,
        **r,  # its `packets` counts the packets delivered
    }
