"""`netcoll worms show SPEC --root R --dests ...`: the multidestination worms of a multicast
(seed 003 s5): each worm's phase, sender, path and header, and the multicast's figures.

`parse_dests` reads the `--dests` syntax shared with `netcoll schedule multicast`:
a list `3,7,12` or `random:COUNT,seed=S` (COUNT distinct ranks other than the root).
"""

from __future__ import annotations

import json
import random

import click
from rich.console import Console
from rich.table import Table

from . import networks as topo_mod
from ._core import NetcollError, worms_show

WORM_ALGOS = ("worm-ssr", "worm-path", "worm-tree")


def parse_dests(text: str, p: int, root: int) -> list[int]:
    """Destination ranks from `3,7,12` or `random:COUNT,seed=S` (seed defaults to 1)."""
    text = text.strip()
    if text.startswith("random:"):
        fields = text[len("random:") :].split(",")
        try:
            count = int(fields[0])
            opts = dict(f.split("=", 1) for f in fields[1:])
            seed = int(opts.pop("seed", "1"))
        except ValueError:
            raise NetcollError(
                f"--dests {text!r} is not random:COUNT,seed=S (e.g. random:15,seed=3)"
            ) from None
        if opts:
            raise NetcollError(f"--dests {text!r} has an unknown option; only seed=S")
        others = [r for r in range(p) if r != root]
        if not 0 <= count <= len(others):
            raise NetcollError(
                f"--dests {text!r}: COUNT must be 0..{len(others)} (ranks other than the root)"
            )
        return sorted(random.Random(seed).sample(others, count))
    if not text:
        return []
    try:
        dests = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise NetcollError(
            f"--dests {text!r}: give ranks like 3,7,12 or random:COUNT,seed=S"
        ) from None
    bad = [d for d in dests if not 0 <= d < p]
    if bad:
        raise NetcollError(f"--dests: rank {bad[0]} is out of range: ranks are 0..{p - 1}")
    return dests


def register(app: click.Group) -> None:
    @app.group("worms")
    def worms_app() -> None:
        """Multidestination worms on switch networks (seed 003 s5)."""

    @worms_app.command("show")
    @click.argument("spec", metavar="SPEC")
    @click.option("--algo", "-a", default="worm-path", show_default=True, help="|".join(WORM_ALGOS))
    @click.option("--root", type=int, default=0, show_default=True, help="Source rank.")
    @click.option("--dests", required=True, metavar="LIST", help="3,7,12 or random:COUNT,seed=S")
    @click.option(
        "--set",
        "params",
        multiple=True,
        metavar="KEY=VALUE",
        help="phases=greedy|less-greedy, ud-root=SWITCH.",
    )
    @click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
    def show(spec, algo, root, dests, params, as_json):
        """Each worm of a multicast on SPEC: phase, sender, path and header."""
        topo = topo_mod.topology(spec)
        targets = parse_dests(dests, topo.num_endpoints, root)
        shown = worms_show(topo, algo, root=root, targets=targets, params=list(params))
        if as_json:
            print(json.dumps(shown, indent=2))
            return
        print_show(shown)


def print_show(shown: dict) -> None:
    console = Console()
    if not console.is_terminal:
        console = Console(width=160)
    pocs = "  ".join("<" + ",".join(map(str, c)) + ">" for c in shown["pocs"])
    console.print(f"{shown['algo']} from rank {shown['root']}; POCs: {pocs}", highlight=False)
    table = Table(show_lines=False)
    for col in ("phase", "sender", "drops at", "route", "links", "bits", "header"):
        table.add_column(col)
    for w in shown["worms"]:
        table.add_row(
            str(w["phase"]),
            str(w["sender"]),
            ",".join(map(str, w["drop_switches"])),
            "-".join(map(str, w["route"])),
            str(w["link_traversals"]),
            str(w["header_bits"]),
            w["header"],
        )
    console.print(table)
    f = shown["figures"]
    console.print(
        f"worms {f['worms']}  phases {f['phases']}  header bits {f['header_bits']}  "
        f"link traversals {f['link_traversals']}  estimate {f['estimate_cycles']} cycles",
        highlight=False,
    )
