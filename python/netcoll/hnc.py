"""Hierarchical network coding (seed 000): aggregate hop counts of an all-to-all broadcast
by the tree-based and all-at-once baselines and by HNC on each, from closed forms (no
schedule is built, so a 256-ary 2-mesh takes well under a second).

>>> from netcoll.hnc import compare
>>> rows = compare("mesh:16x16")
>>> rows["hnc_tree"]["group_size"]
32
"""

from __future__ import annotations

from typing import Any

from . import _core
from ._core import hnc_compare, hnc_figure
from .networks import topology

__all__ = ["compare", "figure", "groups", "schedule_hops"]


def compare(
    spec: str, params: list[str] | tuple[str, ...] = (), nbytes: int = 1024, packets: int = 1
) -> dict[str, Any]:
    """Figures of the four ways (tree, all_at_once, hnc_tree, hnc_all_at_once), each a dict
    with messages, aggregate_hops, packets, packet_hops, steps (HNC also group, place, ...),
    plus the HNC reductions against their base: ``reduction_tree`` (fraction of hops saved)
    and ``ratio_all_at_once`` (how many times fewer hops)."""
    out = hnc_compare(topology(spec), params=list(params), nbytes=nbytes, packets=packets)
    tree, hnc_tree = out["tree"]["aggregate_hops"], out["hnc_tree"]["aggregate_hops"]
    aao, hnc_aao = out["all_at_once"]["aggregate_hops"], out["hnc_all_at_once"]["aggregate_hops"]
    out["reduction_tree"] = 1.0 - hnc_tree / tree if tree else 0.0
    out["ratio_all_at_once"] = aao / hnc_aao if hnc_aao else 0.0
    return out


def figure(
    spec: str,
    algo: str = "hnc",
    params: list[str] | tuple[str, ...] = (),
    nbytes: int = 1024,
    packets: int = 1,
) -> dict[str, Any]:
    """Closed-form figures of one algorithm (hnc, tree-multicast or all-at-once)."""
    return hnc_figure(algo, topology(spec), params=list(params), nbytes=nbytes, packets=packets)


def _divisors(n: int) -> list[int]:
    return [d for d in range(1, n + 1) if n % d == 0]


def groups(spec: str, params: list[str] | tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """HNC figures for every group shape that tiles the network (at least two groups of at
    least two nodes), fewest aggregate hops first: the search behind ``group=auto`` (s4.3,
    Fig. 6)."""
    t = topology(spec)
    dims = t.shape
    if not dims:
        figure(spec, "hnc", params)  # raises the one-line reason
    shapes: list[list[int]] = [[]]
    for k in dims:
        shapes = [s + [d] for s in shapes for d in _divisors(k)]
    n = 1
    for k in dims:
        n *= k
    rows = []
    for shape in shapes:
        m = 1
        for x in shape:
            m *= x
        if m < 2 or 2 * m > n:
            continue
        group = "x".join(map(str, shape))
        f = hnc_figure("hnc", t, params=[*params, f"group={group}"])
        rows.append(f)
    rows.sort(key=lambda f: (f["aggregate_hops"], f["packet_hops"]))
    return rows


def schedule_hops(schedule, topo) -> dict[str, Any]:
    """Counts of a built schedule under DOR: messages, aggregate_hops, packets, packet_hops.
    Takes a :class:`netcoll.Schedule` (from :func:`netcoll.schedule`) or the compiled one,
    and a :class:`netcoll.Topology` or a spec string."""
    return _core.schedule_hops(getattr(schedule, "core", schedule), topology(topo))
