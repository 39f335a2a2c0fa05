"""`netcoll verify FILE`: prove a schedule written by anyone (MSCCL XML from msccl-tools, GOAL
from Schedgen, netcoll JSON). The format is detected from the content (docs/formats.md).
Exit status 0: verified; 1: a well-formed schedule that is wrong (the diagnosis says where);
2: a file that cannot be read."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from .. import _core
from .common import CONTEXT, fail
from .sizes import Size


def read_bytes(path: str) -> bytes:
    """The file's bytes, or the one-line error (exit 2) when it cannot be opened."""
    try:
        return Path(path).read_bytes()
    except OSError as e:
        fail(f"{path}: cannot read: {e.strerror or e}")
        raise  # unreachable: fail exits


@click.command("verify", context_settings=CONTEXT)
@click.argument("file", type=click.Path(dir_okay=False))
@click.option(
    "--op",
    default=None,
    help="The collective (required for GOAL, which does not name it; overrides MSCCL's coll).",
)
@click.option(
    "--root", type=click.IntRange(0), default=0, show_default=True, help="Root rank (rooted ops)."
)
@click.option(
    "--bytes",
    "nbytes",
    type=Size(minimum=0),
    default=None,
    help="GOAL: the collective's size (Schedgen's --datasize); every rank must receive at "
    "least what the collective needs.",
)
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
def verify(file, op, root, nbytes, as_json):
    """Prove the schedule in FILE (MSCCL XML, GOAL or netcoll JSON)."""
    data = read_bytes(file)
    verdict = _core.verify_file(data, file, op=op, root=root, nbytes=nbytes)
    if as_json:
        print(json.dumps(verdict, indent=2))
    else:
        state = "verified" if verdict["verified"] else "WRONG"
        click.echo(
            f"{file}: {state} ({verdict['format']}, {verdict['op']}, {verdict['ranks']} ranks, "
            f"{verdict['messages']} messages)"
        )
        if verdict.get("diagnosis"):
            click.echo(f"  {verdict['diagnosis']}")
    sys.exit(0 if verdict["verified"] else 1)
