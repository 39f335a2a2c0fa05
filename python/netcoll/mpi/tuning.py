"""`algo="auto"`: which algorithm to run for a collective, a rank count and a size.

A measured tuning table (written by ``netcoll run --tune``) maps size ranges to algorithms:

    {"format": "netcoll-tuning", "version": 1,
     "tables": {"broadcast": {"8": [{"max_bytes": 65536, "algo": "binomial"},
                                    {"max_bytes": null, "algo": "scatter-allgather"}]}}}

It is read from ``tuning_file``, else ``$NETCOLL_TUNING``, else ``~/.cache/netcoll/tuning.json``.
Without an entry for the collective and rank count (the nearest rank count measured is used),
``auto`` takes the first registered algorithm of :func:`by_size` (size-dependent rules for
bcast, allgather and allreduce: MPICH's own), else of :data:`PREFERENCE`, else the first
registered algorithm for the collective.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

FORMAT = "netcoll-tuning"

# Long-vector algorithms first: the measured table overrides this for short vectors.
PREFERENCE = {
    "broadcast": ["scatter-allgather", "binomial", "linear"],
    "scatter": ["binomial", "linear"],
    "gather": ["binomial", "linear"],
    "allgather": ["ring", "recursive-doubling", "bruck"],
    "reduce": ["rabenseifner", "binomial"],
    "allreduce": ["rabenseifner", "ring", "recursive-doubling"],
    "reduce_scatter": ["ring", "recursive-halving"],
    # hnc has the strictest preconditions (>= 2 groups of >= 2 nodes): the tree first.
    "many_to_all": ["tree-multicast", "hnc", "all-at-once"],
    # intercom-mst runs on any network; the worm and NI schemes need irregular switches.
    "multicast": ["intercom-mst", "kbinomial", "postal"],
}


def default_path() -> Path:
    env = os.environ.get("NETCOLL_TUNING")
    return Path(env) if env else Path.home() / ".cache" / "netcoll" / "tuning.json"


def registered(kind: str) -> list[str]:
    from .. import _core

    return [a["name"] for a in _core.algorithms() if kind in a["collectives"]]


def load(path=None) -> dict:
    path = Path(path) if path else default_path()
    if not path.exists():
        return {}
    doc = json.loads(path.read_text())
    if doc.get("format") != FORMAT or doc.get("version") != 1:
        raise ValueError(f"{path} is not a netcoll tuning table (format {FORMAT}, version 1)")
    return doc.get("tables", {})


def lookup(tables: dict, kind: str, p: int, nbytes: int) -> str | None:
    by_p = tables.get(kind)
    if not by_p:
        return None
    nearest = min(by_p, key=lambda k: abs(int(k) - p))
    for row in by_p[nearest]:
        if row["max_bytes"] is None or nbytes <= row["max_bytes"]:
            return row["algo"]
    return None


def by_size(kind: str, p: int, nbytes: int) -> list[str]:
    """The algorithms to prefer without a measured table, by size (as `AlgoRequest::bytes`
    counts it) and rank count: MPICH's own rules (its `MPIR_*_intra_auto` selections, with
    the thresholds the `mpich` wheel reports through `mpivars`), so that `auto` never runs a
    short-vector algorithm on a long vector or the reverse. The benchmark of docs/mpi.md
    shows where this machine disagrees (`auto` column)."""
    pof2 = p & (p - 1) == 0
    if kind == "broadcast":
        # MPIR_CVAR_BCAST_SHORT_MSG_SIZE = 12288, MPIR_CVAR_BCAST_MIN_PROCS = 8: below
        # either a binomial tree; above, scatter then allgather (van de Geijn).
        short = nbytes < 12288 or p < 8
        return ["binomial"] if short else ["scatter-allgather", "binomial"]
    if kind == "allgather":
        # On the total, nbytes * p: MPIR_CVAR_ALLGATHER_SHORT_MSG_SIZE = 81920 (recursive
        # doubling, p a power of two), MPIR_CVAR_ALLGATHER_LONG_MSG_SIZE = 524288 (Bruck
        # below, ring from there).
        total = nbytes * p
        if total < 81920 and pof2:
            return ["recursive-doubling", "bruck", "ring"]
        return ["bruck", "ring"] if total < 524288 else ["ring"]
    if kind == "allreduce":
        # MPIR_CVAR_ALLREDUCE_SHORT_MSG_SIZE = 2048: recursive doubling up to it,
        # Rabenseifner's reduce-scatter + allgather above (ring where p is not a power of
        # two: our Rabenseifner needs one).
        if nbytes <= 2048:
            return ["recursive-doubling", "ring"]
        return ["rabenseifner", "ring"] if pof2 else ["ring", "recursive-doubling"]
    return []


def choose(kind: str, p: int, nbytes: int, path=None) -> str:
    names = registered(kind)
    algo = lookup(load(path), kind, p, nbytes)
    if algo in names:
        return algo
    for name in [*by_size(kind, p, nbytes), *PREFERENCE.get(kind, [])]:
        if name in names:
            return name
    if names:
        return names[0]
    from .examples import EXAMPLES

    shown = [name for name, (k, _) in EXAMPLES.items() if k == kind]
    hint = f"; hand-written: --example {' or '.join(shown)}" if shown else ""
    raise ValueError(
        f"no {kind} algorithm is registered in this build: "
        f"give a schedule (schedule=, --schedule{hint}) or another algorithm"
    )


def write(path, tables: dict) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    doc = {"format": FORMAT, "version": 1, "tables": tables}
    path.write_text(json.dumps(doc, indent=2) + "\n")
