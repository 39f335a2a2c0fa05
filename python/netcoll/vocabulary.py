"""One vocabulary for every command and function (docs/cli.md, "Vocabulary").

Collectives have one spelling each (``bcast``, not ``broadcast``), the spelling of
``netcoll algos``; the aliases below are accepted on input. Results use the same keys for the
same things everywhere: ``op``, ``algo``, ``topo``, ``ranks``, ``steps``, ``aggregate_hops``,
``time_s``, ``cycles``, units in key names (``_s``, ``_bytes``, ``_flits``).
"""

from __future__ import annotations

from typing import Any

from ._core import NetcollError

#: Canonical collective names, in the registry's order, with the registry's own name.
CANONICAL = {
    "bcast": "broadcast",
    "multicast": "multicast",
    "scatter": "scatter",
    "gather": "gather",
    "allgather": "allgather",
    "alltoall-broadcast": "alltoall_broadcast",
    "reduce": "reduce",
    "allreduce": "allreduce",
    "reduce-scatter": "reduce_scatter",
    "manytoall": "many_to_all",
    "alltoall": "alltoall",
    "barrier": "barrier",
}

#: Further spellings accepted on input.
ALIASES = {
    "broadcast": "bcast",
    "mcast": "multicast",
    "a2a-broadcast": "alltoall-broadcast",
    "all-to-all-broadcast": "alltoall-broadcast",
    "reducescatter": "reduce-scatter",
    "many-to-all": "manytoall",
    "m2a": "manytoall",
    "all-to-all": "alltoall",
}

_FROM_REGISTRY = {v: k for k, v in CANONICAL.items()}

#: The collectives ``netcoll run`` and the MPI Python API execute, by registry name.
MPI_RUN = (
    "broadcast", "scatter", "gather", "allgather", "alltoall_broadcast", "reduce", "allreduce",
    "reduce_scatter", "many_to_all", "alltoall", "multicast",
)  # fmt: skip

#: Collectives with a root (the others print no root).
ROOTED = ("bcast", "multicast", "scatter", "gather", "reduce")

#: Keys some engines used before the vocabulary, and the shared key that replaces them.
LEGACY_KEYS = {
    "algorithm": "algo",
    "collective": "op",
    "topology": "topo",
    "hops": "aggregate_hops",
}

#: The shared keys (tests/test_vocabulary.py checks every --json output against them).
SHARED_KEYS = ("op", "algo", "topo", "ranks", "steps", "aggregate_hops", "time_s", "cycles")


def op_name(text: str) -> str:
    """The canonical name of collective ``text`` (any accepted spelling); raises
    ``NetcollError`` naming the accepted ones."""
    key = text.strip().lower().replace("_", "-")
    key = ALIASES.get(key, key)
    if key in CANONICAL:
        return key
    if key.replace("-", "_") in _FROM_REGISTRY:
        return _FROM_REGISTRY[key.replace("-", "_")]
    raise NetcollError(f"unknown collective '{text}': use {', '.join(CANONICAL)}")


def registry_name(text: str) -> str:
    """The core registry's name of collective ``text`` (``bcast`` -> ``broadcast``)."""
    return CANONICAL[op_name(text)]


def mpi_kind(text: str) -> str | None:
    """The registry name of collective ``text`` (any accepted spelling, or the registry's
    own name) when MPI runs it (``MPI_RUN``), else None."""
    try:
        name = registry_name(text)
    except NetcollError:
        return None
    return name if name in MPI_RUN else None


def mpi_names() -> str:
    """The collectives MPI runs, canonically spelled, for error messages."""
    return ", ".join(_FROM_REGISTRY[k] for k in MPI_RUN)


def display_op(text: str) -> str:
    """``op_name`` that leaves unknown names as they are (for printing results)."""
    try:
        return op_name(text)
    except NetcollError:
        return text


def normalise(result: dict[str, Any]) -> dict[str, Any]:
    """``result`` with the shared keys: legacy keys renamed, ``op`` spelled canonically."""
    out: dict[str, Any] = {}
    for key, value in result.items():
        key = LEGACY_KEYS.get(key, key)
        if key not in out:  # a shared key already present wins over a renamed legacy one
            out[key] = value
    if isinstance(out.get("op"), str):
        out["op"] = display_op(out["op"])
    return out


def round_floats(value: Any, digits: int = 6) -> Any:
    """``value`` with every float rounded to ``digits`` significant digits (0.5999999999999999
    -> 0.6), in nested dicts and lists too."""
    if isinstance(value, float):
        return float(f"{value:.{digits}g}")
    if isinstance(value, dict):
        return {k: round_floats(v, digits) for k, v in value.items()}
    if isinstance(value, list):
        return [round_floats(v, digits) for v in value]
    return value
