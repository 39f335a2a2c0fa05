"""`netcoll demo`: the main job, end to end."""

from __future__ import annotations

from pathlib import Path

import click

from ..console import stdout_console
from .common import json_option


@click.command("demo")
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path),
    default=Path("out/demo"),
    show_default=True,
    help="Directory for the plots and the report.",
)
@click.option("--quick", is_flag=True, help="Skip the million-node pair and the largest meshes.")
@click.option(
    "--report/--no-report",
    default=True,
    show_default=True,
    help="Also run every reproduction in quick mode and write OUTPUT/report/index.html.",
)
@json_option
def demo(output: Path, quick: bool, report: bool, as_json: bool) -> None:
    """The main job: iBT against tori of the same size and degree, then the headline: HNC
    against tree-based and all-at-once all-to-all broadcast on meshes (hops and cycles),
    tables, plots and the HTML report of every reproduction."""
    from ..demo import run_demo

    run_demo(output, quick=quick, as_json=as_json, console=stdout_console(), report=report)
