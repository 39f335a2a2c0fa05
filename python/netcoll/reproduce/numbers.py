"""The numbers a reproduction compares with the paper: per number the printed value, ours,
their relative difference and a status with a stated threshold (docs/reproductions.md):

- ``match``: equal to the printed precision (``resolution``: within one unit of the last
  printed decimal, since papers round or truncate, or half a unit for an integer, unless
  given);
- ``approx``: relative difference at most ``APPROX`` (10%);
- ``differ``: more than that; such a number carries a one-paragraph ``reason``.

Runners may fill ``Outcome.numbers`` themselves with :func:`compared`; otherwise the numbers
are read from their comparison rows wherever a row holds a printed value and ours as numbers
(keys ``paper``/``netcoll``, ``paper X``/``netcoll X`` or ``printed``/``ours``)."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import Any

#: The largest relative difference called ``approx``.
APPROX = 0.10
NUMBER_STATUSES = ("match", "approx", "differ")

# A number, with an optional unit (% or x) and an optional parenthetical ("22 (-8%)").
_NUMBER = re.compile(r"^\s*([-+]?\d[\d,]*(?:\.\d+)?)\s*(%|x)?\s*(\(.*\))?\s*$")


@dataclass
class Compared:
    """One number of the paper beside ours."""

    quantity: str
    printed: float
    ours: float
    relative_difference: float
    status: str
    reason: str = ""

    def json(self) -> dict[str, Any]:
        return asdict(self)


def _resolution(printed: float) -> float:
    """How far a value may be from a printed one and still be it: half a unit for an
    integer (1,276 -> 0.5), one unit of the last decimal otherwise, since papers round or
    truncate (6.633 -> 0.001; 6.633789 truncates to it)."""
    text = repr(float(printed))
    if "e" in text or float(printed).is_integer():
        return 0.5
    decimals = len(text.split(".")[1])
    return 10.0**-decimals * (1 + 1e-9)


def compared(
    quantity: str,
    printed: float,
    ours: float,
    reason: str = "",
    resolution: float | None = None,
) -> Compared:
    """The record of one compared number; ``reason`` is required when it differs."""
    printed, ours = float(printed), float(ours)
    diff = abs(ours - printed)
    rel = diff / abs(printed) if printed else (0.0 if diff == 0 else float("inf"))
    if diff <= (_resolution(printed) if resolution is None else resolution):
        status = "match"
    elif rel <= APPROX:
        status = "approx"
    else:
        status = "differ"
    if status == "differ" and not reason.strip():
        raise ValueError(f"{quantity}: differs from the paper and needs a reason")
    return Compared(
        quantity, printed, ours, round(rel, 6), status, reason if status != "match" else ""
    )


def as_number(value: Any) -> float | None:
    """A number, or a string that is one ("2,703,360", "75%", "30.5x"); else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        m = _NUMBER.match(value)
        if m:
            return float(m.group(1).replace(",", ""))
    return None


#: Keys of printed values, and keys of ours.
_PRINTED = ("paper", "printed", "fit")
_OURS = ("netcoll", "ours", "model", "flit engine")


def _label(row: dict[str, Any]) -> str:
    for key in ("quantity", "figure", "statement", "measure", "claim"):
        if key in row:
            return str(row[key])
    plain = [
        f"{k}={v}"
        for k, v in row.items()
        if (not k.startswith(_PRINTED + _OURS) and as_number(v) is None or k in ("b", "N", "s"))
        and k not in ("match", "agrees")
    ]
    return ", ".join(plain[:3])


def _ours_keys(row: dict[str, Any], suffix: str) -> list[str]:
    """The keys holding our value of a printed value whose key ends in ``suffix``: ``netcoll``
    + suffix, else (suffix empty or " fit") every ``netcoll``-like key, else every key that
    starts with the suffix's name (``T_x order``, ``T_x fifo`` for ``paper T_x``)."""
    same = [r + suffix for r in _OURS if r + suffix in row]
    if same:
        return same
    if suffix in ("", " fit"):
        return [k for k in row if k in _OURS or k.startswith(tuple(r + " " for r in _OURS))]
    name = suffix.strip(" _")
    return [k for k in row if k.startswith(name + " ")]


def from_comparison(rows: list[dict[str, Any]], reason: str) -> list[Compared]:
    """Every (printed, ours) pair of numbers in a runner's comparison rows."""
    out = []
    for row in rows:
        label = _label(row)
        why = str(row.get("reason") or row.get("note") or reason)
        for key, value in row.items():
            left = next(
                (p for p in _PRINTED if key == p or key.startswith((p + " ", p + "_"))), None
            )
            printed = as_number(value)
            if left is None or printed is None:
                continue
            suffix = key[len(left) :]
            for ours_key in _ours_keys(row, suffix):
                ours = as_number(row[ours_key])
                if ours is not None:
                    name = f"{label}: {key} / {ours_key}" if label else f"{key} / {ours_key}"
                    out.append(compared(name, printed, ours, why))
    return out
