"""The rich console that commands and long runs print on.

It is made, and rich imported, on the first call to :func:`stdout_console`, so that a command
that prints only JSON never pays for rich. It is a real ``rich.console.Console`` (not a proxy):
``Progress``, ``Live``, ``Status``, ``with console:`` and ``isinstance`` checks all accept it.
It lives here, below the CLI, so that library code (the reproductions' progress bars) can share
it without importing the CLI."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console


@functools.cache
def stdout_console() -> Console:
    """The one console on standard output; piped or captured output gets 120 columns instead
    of rich's 80, so that tables are not squeezed."""
    from rich.console import Console

    real = Console(emoji=False)  # user text such as ":x:" stays as typed
    if not real.is_terminal:
        real = Console(width=120, emoji=False)
    return real
