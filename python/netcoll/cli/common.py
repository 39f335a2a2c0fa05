"""What every command shares: the console, the common options, JSON output, and the one-line
error with exit status 2 that bad input ends in."""

from __future__ import annotations

import functools
import json
import os
import sys
from typing import Any

import click

from .._core import NetcollError
from .types import SWITCH

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}

spec_argument = click.argument("spec", metavar="SPEC")
topo_option = click.option("--topo", "-t", "topo", metavar="SPEC", help="Network spec.")


def resolve_topo(topo: str | None, positional: str | None) -> str:
    """The network of a command: ``-t/--topo SPEC``, or the deprecated positional SPEC (kept
    for a release, with a warning on stderr)."""
    if topo is not None and positional is not None and topo != positional:
        raise click.UsageError(f"two networks given, --topo {topo} and {positional}: give one")
    if topo is not None:
        return topo
    if positional is None:
        raise click.UsageError("Missing option '-t' / '--topo' (a network spec, as mesh:4x4)")
    warn(f"the positional SPEC is deprecated: write --topo {positional}")
    return positional


def topo_input(f):
    """Gives a command ``-t/--topo SPEC`` and passes it as ``spec``; the positional SPEC of
    older releases still works, with a deprecation warning."""

    @functools.wraps(f)
    def wrapper(*args, spec=None, topo=None, **kw):
        return f(*args, spec=resolve_topo(topo, spec), **kw)

    wrapper = click.argument("spec", metavar="[SPEC]", required=False)(wrapper)
    return topo_option(wrapper)


def warn(message: str) -> None:
    """One line on stderr that does not stop the command."""
    print(f"netcoll: warning: {message}", file=sys.stderr, flush=True)


json_option = click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
# An algorithm's parameters, as schedule, analyze and simulate take them.
params_option = click.option(
    "--set", "params", multiple=True, metavar="KEY=VALUE", help="Algorithm parameter (repeatable)."
)


def threads_option(help_text: str):
    """The flit engine's `--threads N` (its `threads` key; 0: automatic)."""
    return click.option("--threads", type=click.IntRange(0, 1024), default=None, help=help_text)


def schedule_file_option(verb: str):
    """``--schedule FILE`` in place of ``--algo`` (analyze, simulate): any format."""
    return click.option(
        "--schedule",
        "schedule_path",
        type=click.Path(dir_okay=False),
        default=None,
        help=f"{verb} this schedule file (netcoll JSON, MSCCL XML or GOAL; docs/formats.md) "
        "instead of --algo.",
    )


routing_option = click.option(
    "--routing",
    "-r",
    default="shortest",
    show_default=True,
    metavar="R",
    help="dor | shortest | updown",
)
root_option = click.option(
    "--root", type=SWITCH, default=None, help="up*/down* spanning-tree root switch (default 0)."
)


def emit_json(obj: Any) -> None:
    print(json.dumps(obj, indent=2))


#: An error line longer than this is cut in the middle: it never echoes megabytes of input.
MAX_ERROR_CHARS = 1000


def fail(message: str) -> None:
    # Plain text, not rich: the message quotes user input, where ':x:' would become an emoji
    # and '[b]' markup; one line, never wrapped.
    message = " ".join(message.split("\n"))
    if len(message) > MAX_ERROR_CHARS:
        half = MAX_ERROR_CHARS // 2
        message = (
            f"{message[:half]} [... {len(message) - 2 * half} characters ...] {message[-half:]}"
        )
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
        message = e.format_message()
        if isinstance(e, click.NoSuchOption) and e.option_name[1:2].isdigit():
            message += f" ({e.option_name} reads as an option; no value here may be negative)"
        fail(f"{message} (see '{where} --help')")
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
