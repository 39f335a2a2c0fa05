"""Values written as text, parsed without the command line: integers in a range, key=value
lists, rank lists and multicast destination sets (``--dests``, the MPI runner's
``targets``). The CLI's parameter types (:mod:`netcoll.cli.types`) and the MPI layer both read
them here, so no lower module imports the CLI.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from ._core import NetcollError

U32_MAX = 2**32 - 1
U64_MAX = 2**64 - 1

INTEGER = re.compile(r"[+-]?\d+")


def short(text: str, limit: int = 40) -> str:
    """The user's text, cut so that an error line never echoes megabytes."""
    return text if len(text) <= limit else f"{text[: limit - 3]}... ({len(text)} characters)"


def range_text(lo: int, hi: int) -> str:
    """The one range convention of every message: both ends included, "0 to 15"."""
    return f"{lo} to {hi}"


def parse_int(text: str, what: str, lo: int = 0, hi: int = U64_MAX) -> int:
    """A decimal integer in lo..hi (inclusive), or a NetcollError naming ``what``."""
    text = str(text).strip()
    if not INTEGER.fullmatch(text):
        raise NetcollError(f"{what} '{short(text)}' is not an integer")
    value = int(text)
    if not lo <= value <= hi:
        raise NetcollError(f"{what} {short(text)} is out of range: use {range_text(lo, hi)}")
    return value


def key_values(text: str, what: str, keys: tuple[str, ...]) -> dict[str, str]:
    """``k=v,k=v`` with only ``keys``, each at most once."""
    out: dict[str, str] = {}
    for item in text.split(","):
        if not item.strip():
            continue
        if "=" not in item:
            raise NetcollError(f"{what}: '{short(item)}' is not key=value")
        k, v = (x.strip() for x in item.split("=", 1))
        if k not in keys:
            raise NetcollError(f"{what}: unknown key '{short(k)}': use {', '.join(keys)}")
        if k in out:
            raise NetcollError(f"{what}: key '{k}' is given twice")
        out[k] = v
    return out


def int_list(text: str, what: str, hi: int = U32_MAX) -> list[int]:
    """``3,7,12``: integers from 0 to ``hi``, at least one."""
    items = [x.strip() for x in text.split(",")]
    if not text.strip() or any(x == "" for x in items):
        raise NetcollError(f"{what} '{short(text)}' has an empty item: write 3,7,12")
    return [parse_int(x, what, 0, hi) for x in items]


@dataclass(frozen=True)
class Dests:
    """Multicast targets: a rank list, or random:COUNT[,seed=S]."""

    ranks: tuple[int, ...] = ()
    count: int = 0
    #: None: not given (each command has its default, 0 unless it says otherwise).
    seed: int | None = None

    def resolve(self, ranks: int, root: int) -> list[int]:
        if self.count:
            others = [r for r in range(ranks) if r != root]
            if self.count > len(others):
                raise NetcollError(
                    f"--dests random:{self.count}: choose {range_text(1, len(others))} "
                    f"destinations (the {ranks} ranks other than the root)"
                )
            return sorted(random.Random(self.seed or 0).sample(others, self.count))
        if all(r == root for r in self.ranks):
            raise NetcollError(
                f"--dests {','.join(map(str, self.ranks))}: multicast target {root} is the "
                "root, and no other destination is named; name at least one other rank"
            )
        return list(self.ranks)


def parse_dests_text(text: str) -> Dests:
    text = text.strip()
    if text.startswith("random:"):
        head, _, tail = text[len("random:") :].partition(",")
        count = parse_int(head, "destination count", 1, U32_MAX)
        seed = key_values(tail, "--dests", ("seed",)).get("seed")
        return Dests(count=count, seed=None if seed is None else parse_int(seed, "seed"))
    if not text:
        raise NetcollError("no destinations: give a rank list 1,4,7 or random:COUNT,seed=S")
    return Dests(ranks=tuple(int_list(text, "destination rank")))


def parse_dests(text: str | Dests | None, ranks: int, root: int) -> list[int] | None:
    """LIST of ranks | random:COUNT[,seed=S] (distinct ranks other than the root)."""
    if text is None:
        return None
    if isinstance(text, str):
        text = parse_dests_text(text)
    return text.resolve(ranks, root)
