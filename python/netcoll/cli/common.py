"""What every command shares: the console, the common options, JSON output, and the one-line
error with exit status 2 that bad input ends in."""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import click
from rich.console import Console

from .._core import NetcollError

console = Console(emoji=False)  # user text such as ":x:" stays as typed
if not console.is_terminal:  # piped or captured: do not squeeze tables into 80 columns
    console = Console(width=120, emoji=False)
CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}

spec_argument = click.argument("spec", metavar="SPEC")
json_option = click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
routing_option = click.option(
    "--routing",
    "-r",
    default="shortest",
    show_default=True,
    metavar="R",
    help="dor | shortest | updown",
)
root_option = click.option(
    "--root", type=int, default=None, help="up*/down* spanning-tree root switch (default 0)."
)


def emit_json(obj: Any) -> None:
    print(json.dumps(obj, indent=2))


def fail(message: str) -> None:
    # Plain text, not rich: the message quotes user input, where ':x:' would become an emoji
    # and '[b]' markup; one line, never wrapped.
    print(f"netcoll: error: {message}", file=sys.stderr, flush=True)
    sys.exit(2)


def run_cli(app: click.Group, argv: list[str] | None = None) -> None:
    """Run ``app``; bad input ends in one line on stderr and exit status 2."""
    try:
        code = app.main(args=argv, prog_name="netcoll", standalone_mode=False)
    except NetcollError as e:
        fail(str(e))
    except click.UsageError as e:
        if isinstance(e, getattr(click.exceptions, "NoArgsIsHelpError", ())):
            print(e.ctx.get_help())
            sys.exit(0)
        where = e.ctx.command_path if e.ctx else "netcoll"
        fail(f"{e.format_message()} (see '{where} --help')")
    except click.exceptions.Abort:
        fail("aborted")
    except OSError as e:
        fail(f"{e.strerror or e}: {e.filename}" if e.filename else str(e))
    except KeyboardInterrupt:
        fail("interrupted")
    except Exception as e:  # a bug: still one line, with the traceback on request
        if os.environ.get("NETCOLL_DEBUG"):
            raise
        fail(
            f"internal error {type(e).__name__}: {e} (rerun with NETCOLL_DEBUG=1 for the "
            "traceback, and please report it)"
        )
    if isinstance(code, int) and code:
        sys.exit(code)
