"""`netcoll reproduce`: the papers' tables and figures, one command each or all at once."""

from __future__ import annotations

import json
from pathlib import Path

import click
from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from ._core import NetcollError


def register(app: click.Group) -> None:
    @app.command("reproduce")
    @click.argument("ident", required=False, metavar="ID")
    @click.option("--list", "list_", is_flag=True, help="List every reproduction and its status.")
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
    @click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
    def reproduce(ident, list_, all_, quick, output, as_json):
        """Reproduce a table or figure of the seed papers (CSV, PNG/SVG, markdown note)."""
        from . import reproduce as rep
        from .cli import console as stdout_console
        from .reproduce.report import write_report

        console = Console(stderr=True) if as_json else stdout_console
        if list_:
            items = [r.listing() for r in rep.REPRODUCTIONS]
            if as_json:
                print(json.dumps(items, indent=2))
                return
            table = Table(title="reproductions")
            for col in ("id", "figure", "engine", "status", "reason"):
                table.add_column(col)
            for i in items:
                table.add_row(i["id"], i["figure"], i["engine"], i["status"], i["reason"])
            console.print(table)
            return
        if all_:
            with Progress(
                SpinnerColumn(),
                TextColumn("{task.description}"),
                TimeElapsedColumn(),
                console=console,
                transient=True,
            ) as progress:
                task = progress.add_task("reproducing", total=len(rep.REPRODUCTIONS))

                def step(r):
                    progress.update(task, description=f"reproducing {r.id}", advance=1)

                results = rep.run_all(output, quick, step)
            page = write_report(output, results, quick)
            summary = {
                "report": str(page),
                "reproductions": [
                    {
                        "id": r.id,
                        "status": o.status if o else r.status,
                        "files": o.files if o else [],
                    }
                    for r, o in results
                ],
            }
            if as_json:
                print(json.dumps(summary, indent=2))
            else:
                ran = sum(1 for _, o in results if o)
                console.print(f"{ran} of {len(results)} reproductions ran; report: {page}")
            return
        if not ident:
            raise NetcollError("give a reproduction ID, --list or --all")
        repro = rep.find(ident)
        with console.status(f"reproducing {ident}"):
            outcome = rep.run_one(repro, output, quick)
        if as_json:
            print(
                json.dumps(
                    {"id": ident, "status": outcome.status, "files": outcome.files}, indent=2
                )
            )
        else:
            console.print(f"{ident}: {outcome.status}. {outcome.summary}")
            for f in outcome.files:
                console.print(f"  wrote {f}")
