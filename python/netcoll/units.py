"""Sizes: ``8``, ``1K``, ``1Ki``, ``1M``, ``16MiB`` (powers of 1024), shared by the Python API
and the command line (``netcoll.cli.sizes`` is its click type).

A suffix is a power of 1024 with or without ``i`` or ``B`` (``K``, ``Ki``, ``KB``, ``KiB`` are
all 1024 bytes), as MPI benchmarks (OSU, IMB) count message sizes; write the number of bytes to
mean a power of ten.
"""

from __future__ import annotations

import re

from ._core import NetcollError

_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
_SIZE = re.compile(r"^\s*(\d+)\s*([kmgt]?)(i?)(b?)\s*$", re.IGNORECASE)


def parse_size(text: str | int) -> int:
    """Bytes of ``text``: ``8``, ``1K``, ``1Ki``, ``1M``, ``16MiB`` (powers of 1024).
    Raises ``NetcollError`` (a ``ValueError``) with the way to mend it."""
    if isinstance(text, int):
        return text
    m = _SIZE.match(str(text))
    if not m or (m.group(3) and not m.group(2)):
        raise NetcollError(f"'{text}' is not a size: use bytes, as 8, 1K, 1Ki, 1M or 16MiB")
    return int(m.group(1)) * _UNITS[m.group(2).lower()]


def format_size(nbytes: int) -> str:
    """The shortest exact form: 1048576 -> '1MiB', 1000 -> '1000B'."""
    for suffix, unit in (("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if nbytes >= unit and nbytes % unit == 0:
            return f"{nbytes // unit}{suffix}"
    return f"{nbytes}B"
