"""`netcoll reproduce`: the papers' tables and figures, one command each or all at once."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table
from rich.text import Text

from .._core import NetcollError


@click.command("reproduce")
@click.argument("ident", required=False, metavar="[ID]")
@click.option("--list", "list_", is_flag=True, help="List every reproduction and its status.")
@click.option(
    "--markdown",
    is_flag=True,
    help="With --list: print the status table as markdown (docs/reproductions.md).",
)
@click.option("--all", "all_", is_flag=True, help="Run all that can run, plus an HTML report.")
@click.option("--quick", is_flag=True, help="Smaller sizes: each finishes in seconds.")
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path),
    default=Path("out/reproduce"),
    show_default=True,
    help="Output directory.",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="With --all: processes (the executor of `netcoll sweep`; MPI ranks under "
    "`python -m mpi4py.futures`).",
)
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
def reproduce(ident, list_, markdown, all_, quick, output, workers, as_json):
    """Reproduce a table or figure of the seed papers (CSV, PNG/SVG, markdown note)."""
    from .. import reproduce as rep
    from ..console import stdout_console
    from ..reproduce.report import write_report

    console = Console(stderr=True, emoji=False) if as_json else stdout_console()
    if markdown and not list_:
        raise NetcollError("--markdown goes with --list: netcoll reproduce --list --markdown")
    if list_:
        items = [r.listing() for r in rep.REPRODUCTIONS]
        if markdown:
            from ..docgen import reproductions_markdown

            print(reproductions_markdown(), end="")
            return
        if as_json:
            print(json.dumps(items, indent=2))
            return
        table = Table(title="reproductions")
        for col in ("id", "figure", "engine", "status", "reason"):
            table.add_column(col)
        for i in items:
            # Text, not markup: a reason may hold brackets such as [0, 1).
            table.add_row(*(Text(i[c]) for c in ("id", "figure", "engine", "status", "reason")))
        console.print(table)
        return
    if all_:
        results = _run_all(rep, output, quick, console, workers)
        page = write_report(output, results, quick)
        errors = [o for _, o in results if o and o.status == "error"]
        summary = {
            "report": str(page),
            "reproductions": [
                {
                    "id": r.id,
                    "status": o.status if o else r.status,
                    "files": o.files if o else [],
                    "seconds": o.seconds if o else None,
                    "numbers": [n.json() for n in o.numbers] if o else [],
                }
                for r, o in results
            ],
            "errors": [o.summary for o in errors],
        }
        if as_json:
            print(json.dumps(summary, indent=2))
        else:
            _print_summary(results, page, console)
        if errors:
            for o in errors:
                print(f"netcoll: error: {o.summary}", file=sys.stderr)
            sys.exit(1)
        return
    if not ident:
        raise NetcollError("give a reproduction ID, --list or --all")
    repro = rep.find(ident)
    with console.status(f"reproducing {ident}"):
        outcome = rep.run_one(repro, output, quick)
    if as_json:
        print(json.dumps(outcome.json(ident), indent=2))
    else:
        console.print(f"{ident}: {outcome.status}. {outcome.summary}", markup=False)
        for f in outcome.files:
            console.print(f"  wrote {f}", markup=False, highlight=False)


def _run_all(rep, output: Path, quick: bool, console: Console, workers: int = 1):
    """run_all under a progress bar: one step per reproduction, the current one named."""
    with Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    ) as progress:
        task = progress.add_task("reproducing", total=len(rep.REPRODUCTIONS))

        def start(r):
            progress.update(task, description=f"reproducing {r.id}")

        def done(r, o):
            progress.advance(task)

        return rep.run_all(output, quick, start, done, workers)


def _print_summary(results, page: Path, console: Console) -> None:
    """Counts per status and paper, then where the report is."""
    from ..reproduce.registry import PAPERS
    from ..reproduce.runner import status_counts

    counts = status_counts([r for r, _ in results], {r.id: o for r, o in results})
    statuses = ["matches", "approximates", "cannot"]
    if any("error" in c for c in counts.values()):
        statuses.append("error")
    table = Table(title="reproductions")
    table.add_column("paper")
    for s in statuses:
        table.add_column(s, justify="right")
    for key, title in PAPERS.items():
        c = counts.get(key, {})
        table.add_row(title.split(":")[0] + f" ({key})", *[str(c.get(s, 0)) for s in statuses])
    console.print(table)
    ran = sum(1 for _, o in results if o)
    seconds = sum(o.seconds or 0 for _, o in results if o)
    console.print(f"{ran} of {len(results)} reproductions ran ({seconds:.1f} s); report: {page}")
