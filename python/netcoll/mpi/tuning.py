"""`algo="auto"`: which algorithm to run for a collective, a rank count and a size.

A measured tuning table (written by ``netcoll run --tune``) maps size ranges to algorithms:

    {"format": "netcoll-tuning", "version": 1,
     "tables": {"broadcast": {"8": [{"max_bytes": 65536, "algo": "binomial"},
                                    {"max_bytes": null, "algo": "scatter-allgather"}]}}}

It is read from ``tuning_file``, else ``$NETCOLL_TUNING``, else ``~/.cache/netcoll/tuning.json``.
Without an entry for the collective and rank count (the nearest rank count measured is used),
``auto`` takes the first registered algorithm of :data:`PREFERENCE` that exists in this build,
else the first registered algorithm for the collective.
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


def choose(kind: str, p: int, nbytes: int, path=None) -> str:
    names = registered(kind)
    algo = lookup(load(path), kind, p, nbytes)
    if algo in names:
        return algo
    for name in PREFERENCE.get(kind, []):
        if name in names:
            return name
    if names:
        return names[0]
    raise ValueError(
        f"no {kind} algorithm is registered in this build: "
        "give a schedule (schedule=, --schedule) or another algorithm"
    )


def write(path, tables: dict) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    doc = {"format": FORMAT, "version": 1, "tables": tables}
    path.write_text(json.dumps(doc, indent=2) + "\n")
