"""The click type of sizes on the command line: ``--bytes 1M``, ``--bytes 1K,64K,1M``
(:mod:`netcoll.units` parses them: powers of 1024, ``8``, ``1K``, ``1Ki``, ``1M``, ``16MiB``)."""

from __future__ import annotations

import click

from ..units import parse_size

#: The core counts bytes in 64 bits.
MAX_BYTES = 2**64 - 1


class Size(click.ParamType):
    """A click type for one size (``multiple=False``) or a comma list of sizes
    (``Size(many=True)``, a list of ints); every size at least ``minimum`` bytes."""

    def __init__(self, many: bool = False, minimum: int = 1) -> None:
        self.many = many
        self.minimum = minimum
        self.name = "sizes" if many else "size"

    def get_metavar(self, param, ctx=None) -> str:  # click 8.1 and 8.2 signatures
        return "SIZES" if self.many else "SIZE"

    def convert(self, value, param, ctx):
        if isinstance(value, list) or (isinstance(value, int) and not self.many):
            return value
        items = str(value).split(",") if self.many else [value]
        out = []
        for item in items:
            try:
                n = parse_size(item)
            except ValueError as e:
                self.fail(str(e), param, ctx)
            if not self.minimum <= n <= MAX_BYTES:
                # the range convention of docs/errors.md: "use LOW to HIGH", both included
                self.fail(f"{item} is out of range: use {self.minimum} to {MAX_BYTES}", param, ctx)
            out.append(n)
        if self.many and not out:
            self.fail("give at least one size, as 1K,1M", param, ctx)
        return out if self.many else out[0]


SIZE = Size()
SIZES = Size(many=True)
