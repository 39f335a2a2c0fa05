"""Typed command-line values, checked once at the boundary (docs/errors.md).

Every command takes its integers, seeds, output paths, placements and destination lists
through these click parameter types, so a bad value is refused before anything is built, with
one message that names the option, the value and the allowed range. Ranges are written
"0 to 15" (both ends included) everywhere, here and in the Rust core.

The bounds are the core's: ranks and packet counts are 32-bit, byte counts and seeds 64-bit,
so an integer the core cannot hold is an error here, never a conversion there.
"""

from __future__ import annotations

import math
import os
import random
from dataclasses import dataclass
from pathlib import Path

import click

from .._core import NetcollError
from ..textvalues import (  # noqa: F401  (re-exported: the CLI's modules import them here)
    INTEGER,
    U32_MAX,
    U64_MAX,
    Dests,
    int_list,
    key_values,
    parse_dests_text,
    parse_int,
    range_text,
    short,
)

#: Files that commands read (schedules, topologies, tuning tables) are refused above this.
MAX_INPUT_BYTES = 256 * 2**20


class BoundedInt(click.ParamType):
    """An integer from ``lo`` to ``hi`` inclusive; ``hi`` is the core's limit (u32, u64)."""

    name = "integer"

    def __init__(self, lo: int, hi: int, what: str = "integer") -> None:
        self.lo, self.hi, self.what = lo, hi, what

    def convert(self, value, param, ctx):
        if isinstance(value, int) and not isinstance(value, bool):
            text = str(value)
        else:
            text = str(value).strip()
        if not INTEGER.fullmatch(text):
            self.fail(f"'{short(text)}' is not {self.what_article()}", param, ctx)
        number = int(text)
        if not self.lo <= number <= self.hi:
            self.fail(
                f"{short(text)} is out of range: use {range_text(self.lo, self.hi)}", param, ctx
            )
        return number

    def what_article(self) -> str:
        return f"an {self.what}" if self.what[0] in "aeiou" else f"a {self.what}"

    def get_metavar(self, param, ctx=None) -> str:
        return "N"


#: A rank or an endpoint id (ranks are 32-bit in the core).
RANK = BoundedInt(0, U32_MAX, "integer rank")
#: A switch id (up*/down* roots).
SWITCH = BoundedInt(0, U32_MAX, "integer switch id")
#: Counts that may be zero, and counts of at least one (32-bit: packets, ranks, steps).
COUNT = BoundedInt(0, U32_MAX, "integer count")
POSITIVE = BoundedInt(1, U32_MAX, "integer count")
#: Byte counts (64-bit in the core).
BYTES = BoundedInt(1, U64_MAX, "integer number of bytes")
#: Seeds of random choices.
SEED = BoundedInt(0, U64_MAX, "integer seed")


def bounded(lo: int, hi: int, what: str = "integer") -> BoundedInt:
    """An integer option with its own range (for example --vcs 1 to 64)."""
    return BoundedInt(lo, hi, what)


class PositiveFloat(click.ParamType):
    """A finite number > 0 (or >= 0 with ``zero=True``): times, loads, gigabytes."""

    name = "number"

    def __init__(self, zero: bool = False, unit: str = "") -> None:
        self.zero, self.unit = zero, unit

    def convert(self, value, param, ctx):
        try:
            number = float(value)
        except (TypeError, ValueError):
            self.fail(f"'{short(str(value))}' is not a number", param, ctx)
        if not math.isfinite(number) or number < 0 or (number == 0 and not self.zero):
            bound = ">= 0" if self.zero else "> 0"
            self.fail(f"{short(str(value))} must be a finite number {bound}{self.unit}", param, ctx)
        return number


#: Model times and rates (alpha, beta, gamma): finite and not negative.
SECONDS = PositiveFloat(zero=True, unit=" (seconds)")
#: Gigabytes for --max-memory.
GIGABYTES = PositiveFloat(unit=" (gigabytes)")


class OutputPath(click.ParamType):
    """A file to write: its suffix among ``suffixes`` (when given), its folder existing, and
    not a folder itself."""

    name = "path"

    def __init__(self, suffixes: tuple[str, ...] = ()) -> None:
        self.suffixes = suffixes

    def convert(self, value, param, ctx):
        path = Path(value)
        if path.is_dir() or str(value).endswith("/"):
            self.fail(f"{short(str(value))} is a folder: name a file", param, ctx)
        if self.suffixes and path.suffix.lower() not in self.suffixes:
            got = f"'{path.suffix}'" if path.suffix else "no extension"
            self.fail(f"{short(str(value))} has {got}: use {', '.join(self.suffixes)}", param, ctx)
        parent = path.parent
        if str(parent) not in ("", ".") and not parent.is_dir():
            self.fail(f"folder {short(str(parent))} does not exist", param, ctx)
        return path

    def get_metavar(self, param, ctx=None) -> str:
        return "FILE"


@dataclass(frozen=True)
class Placement:
    """Where ranks sit: identity | reverse | spread:BLOCKS | random[:seed=S] | an endpoint list."""

    kind: str
    seed: int = 0
    endpoints: tuple[int, ...] = ()

    def resolve(self, ranks: int, endpoints: int) -> list[int] | None:
        """Endpoint of each rank (None: rank i on endpoint i, every endpoint a rank)."""
        if self.kind == "identity" and ranks <= endpoints:
            return None if ranks == endpoints else list(range(ranks))
        if self.kind == "list":
            bad = [e for e in self.endpoints if e >= endpoints]
            if bad:
                raise NetcollError(
                    f"--placement endpoint {bad[0]} is out of range: the network has "
                    f"{endpoints} endpoints, {range_text(0, endpoints - 1)}"
                )
            if len(set(self.endpoints)) != len(self.endpoints):
                raise NetcollError("--placement puts two ranks on one endpoint: list each once")
            return list(self.endpoints)
        if ranks > endpoints:
            raise NetcollError(
                f"--ranks {ranks} does not fit on {endpoints} endpoints: "
                f"use {range_text(1, endpoints)}"
            )
        if self.kind == "reverse":
            return [endpoints - 1 - i for i in range(ranks)]
        if self.kind == "spread":
            return spread(ranks, endpoints, self.seed)
        return random.Random(self.seed).sample(range(endpoints), ranks)


class Parsed(click.ParamType):
    """A value in a small syntax of its own, parsed by ``parse`` into a ``kind`` object (a
    NetcollError from the parser becomes click's message naming the option)."""

    def __init__(self, name: str, kind: type, parse, metavar: str) -> None:
        self.name, self.kind, self.parse, self.metavar = name, kind, parse, metavar

    def convert(self, value, param, ctx):
        if isinstance(value, self.kind):
            return value
        try:
            return self.parse(str(value))
        except NetcollError as e:
            self.fail(str(e), param, ctx)

    def get_metavar(self, param, ctx=None) -> str:
        return self.metavar


def spread(ranks: int, endpoints: int, blocks: int) -> list[int]:
    """Rank r on block r mod B, slot r div B: consecutive ranks in different groups (pods) when
    the B blocks are a dragonfly's groups (a fat-tree's pods), whose endpoints are numbered
    block by block."""
    if blocks < 1 or endpoints % blocks:
        raise NetcollError(
            f"--placement spread:{blocks}: the {endpoints} endpoints do not split into "
            f"{blocks} equal blocks; give the number of groups (pods) of the network"
        )
    size = endpoints // blocks
    return [(r % blocks) * size + r // blocks for r in range(ranks)]


def parse_placement_text(text: str) -> Placement:
    text = text.strip()
    if text == "linear":
        text = "identity"
    if text in ("identity", "reverse"):
        return Placement(text)
    if text.startswith("spread:"):
        return Placement("spread", parse_int(text[len("spread:") :], "spread blocks"))
    if text == "random" or text.startswith("random:"):
        kv = key_values(text[len("random") :].lstrip(":"), "random placement", ("seed",))
        return Placement("random", parse_int(kv.get("seed", "0"), "seed"))
    if text and (text[0].isdigit() or text[0] in "+-"):
        return Placement("list", endpoints=tuple(int_list(text, "endpoint")))
    raise NetcollError(
        f"'{short(text)}' is not a placement: use identity (linear), reverse, spread:BLOCKS, "
        "random[:seed=S] or an endpoint list 0,5,3"
    )


PLACEMENT = Parsed("placement", Placement, parse_placement_text, "P")
DESTS = Parsed("dests", Dests, parse_dests_text, "D")


def read_input(path: str | os.PathLike, what: str, limit: int = MAX_INPUT_BYTES) -> str:
    """The text of a file a command reads, refused by name when it is not a regular file,
    larger than ``limit``, binary or not UTF-8 (before reading it all)."""
    p = Path(path)
    if not p.exists():
        raise NetcollError(f"{what} {short(str(path), 200)} does not exist")
    if not p.is_file():
        raise NetcollError(f"{what} {short(str(path), 200)} is not a regular file")
    size = p.stat().st_size
    if size > limit:
        raise NetcollError(
            f"{what} {short(str(path), 200)} is {size:,} bytes: the limit is {limit:,} bytes"
        )
    with p.open("rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise NetcollError(f"{what} {short(str(path), 200)} exceeds {limit:,} bytes")
    if b"\0" in data:
        raise NetcollError(f"{what} {short(str(path), 200)} is binary (it holds NUL bytes)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise NetcollError(
            f"{what} {short(str(path), 200)} is not UTF-8 text (byte {e.start}, line {line})"
        ) from None
