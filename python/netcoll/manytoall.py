"""Many-to-all multicast from S sources (seed 000 s6.3, Fig. 18): only the S source ranks own
a block and every rank ends with all S blocks. Algorithms ``hnc`` (hierarchical network
coding over the sources), ``tree-multicast`` and ``all-at-once`` (every source multicasts);
figures come from exact counts (no schedule is built), schedules are built and verified.

Sources are a rank list, ``"all"`` or ``"random:COUNT,seed=S"`` (seeded, the same ranks as
the CLI's ``--sources``).

>>> from netcoll.manytoall import figure, pick_sources
>>> pick_sources("random:3,seed=1", 16) == pick_sources("random:3,seed=1", 16)
True
>>> figure("mesh:4x4", "hnc", [0, 1], ["group=2x2", "place=0x0", "base=all-at-once"])[
...     "aggregate_hops"]
64
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ._core import analyze, build_schedule
from ._core import parse_sources as _parse
from .networks import topology

__all__ = ["ALGORITHMS", "compare", "figure", "pick_sources", "schedule"]

ALGORITHMS = ("hnc", "tree-multicast", "all-at-once")
Sources = str | Sequence[int]


def _spec(sources: Sources) -> str:
    if isinstance(sources, str):
        return sources
    return ",".join(str(int(s)) for s in sources)


def pick_sources(sources: Sources, p: int) -> list[int]:
    """The source ranks among ``p`` ranks (checked: at least one, in range, none twice)."""
    return list(_parse(_spec(sources), p))


def _params(algo: str, params: Sequence[str]) -> list[str]:
    # The baselines take no parameters; HNC settings passed along with them are dropped.
    return list(params) if algo == "hnc" else []


def figure(
    spec: str,
    algo: str,
    sources: Sources,
    params: Sequence[str] = (),
    nbytes: int = 1024,
    packets: int = 1,
) -> dict[str, Any]:
    """Exact counts of one algorithm: messages, aggregate_hops (DOR), packets, packet_hops,
    steps; HNC also group, place, groups_with_sources and per-phase figures."""
    return analyze(
        "many_to_all",
        algo,
        topology(spec),
        params=_params(algo, params),
        nbytes=nbytes,
        packets=packets,
        sources=_spec(sources),
    )


def compare(spec: str, sources: Sources, params: Sequence[str] = ()) -> dict[str, Any]:
    """The four ways (tree, all_at_once, hnc_tree, hnc_all_at_once) and HNC's hop ratios
    to its base: ``ratio_all_at_once`` = HNC(all-at-once) / all-at-once (Fig. 18's measure)
    and ``ratio_tree`` = HNC(tree) / tree."""
    plain = [x for x in params if not x.startswith("base=")]
    out = {
        "tree": figure(spec, "tree-multicast", sources),
        "all_at_once": figure(spec, "all-at-once", sources),
        "hnc_tree": figure(spec, "hnc", sources, [*plain, "base=tree"]),
        "hnc_all_at_once": figure(spec, "hnc", sources, [*plain, "base=all-at-once"]),
    }

    def ratio(a: str, b: str) -> float:
        den = out[b]["aggregate_hops"]
        return out[a]["aggregate_hops"] / den if den else 1.0

    out["ratio_all_at_once"] = ratio("hnc_all_at_once", "all_at_once")
    out["ratio_tree"] = ratio("hnc_tree", "tree")
    return out


def schedule(
    spec: str,
    algo: str,
    sources: Sources,
    params: Sequence[str] = (),
    nbytes: int = 1024,
    packets: int = 1,
):
    """Builds and verifies the schedule (a ``netcoll._core.Schedule``)."""
    return build_schedule(
        "many_to_all",
        algo,
        topology(spec),
        params=_params(algo, params),
        nbytes=nbytes,
        packets=packets,
        sources=_spec(sources),
    )
