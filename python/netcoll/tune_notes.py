"""Why a tuner candidate is far off the best: one short reason from its figures, for the
table of ``netcoll tune`` and the ``note`` of :func:`netcoll.tune`'s candidates."""

from __future__ import annotations

from typing import Any

from .vocabulary import ROOTED

#: A candidate this many times slower than the best gets a reason.
FAR = 2.0


def annotate(cands: list[dict[str, Any]], rank_by: str, op: str) -> None:
    """Sets every candidate's ``ratio`` (its ``rank_by`` figure over the best's) and ``note``
    (empty unless the ratio is at least :data:`FAR`)."""
    if not cands:
        return
    best = cands[0]
    for c in cands:
        base = best[rank_by] or 1
        c["ratio"] = round(c[rank_by] / base, 3) if base else 1.0
        c["note"] = reason(c, best, op) if c["ratio"] >= FAR else ""


def reason(c: dict[str, Any], best: dict[str, Any], op: str) -> str:
    """The first of: serialises at the root, more steps, link contention, more traffic,
    more bytes; else the start-up or bandwidth terms of the model."""
    p = c["ranks"]
    if op in ROOTED and p > 2 and c["steps"] >= p - 1 > best["steps"]:
        return f"serialises at the root ({c['steps']} steps for {p} ranks)"
    if c["steps"] >= FAR * max(best["steps"], 1):
        return f"{c['steps']} steps, the best takes {best['steps']}"
    if c["max_conflict"] >= FAR * max(best["max_conflict"], 1):
        return f"up to {c['max_conflict']} messages share a link (best: {best['max_conflict']})"
    if c["aggregate_hops"] >= FAR * max(best["aggregate_hops"], 1):
        x = c["aggregate_hops"] / max(best["aggregate_hops"], 1)
        return f"{x:.1f}x the link traffic of the best"
    if c["messages"] >= FAR * max(best["messages"], 1):
        return f"{c['messages']} messages, the best sends {best['messages']}"
    return "slower per step: larger messages on the critical path"
