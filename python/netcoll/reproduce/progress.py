"""A progress bar for long reproduction runs (full mode, on a terminal only)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager


@contextmanager
def progress_bar(description: str, total: int, enabled: bool = True) -> Iterator[Callable]:
    """Yields ``advance(label)``; draws a transient rich bar when ``enabled`` and the CLI's
    console is a terminal. It shares that console so that it nests inside the spinner of
    ``netcoll reproduce --all`` (rich stacks live displays on one console); piped output,
    tests and ``--quick`` runs draw nothing."""
    if not enabled:
        yield lambda label=None: None
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from ..console import stdout_console

    console = stdout_console()

    if not console.is_terminal:
        yield lambda label=None: None
        return
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    ) as bar:
        task = bar.add_task(description, total=total)

        def advance(label: str | None = None) -> None:
            text = f"{description}: {label}" if label else description
            bar.update(task, advance=1, description=text)

        yield advance
