"""`netcoll worms show SPEC --root R --dests ...`: the multidestination worms of a multicast
(seed 003 s5): each worm's phase, sender, path and header, and the multicast's figures.

`parse_dests` reads the `--dests` syntax shared with `netcoll schedule multicast`:
a list `3,7,12` or `random:COUNT,seed=S` (COUNT distinct ranks other than the root).
"""

from __future__ import annotations

import json
import random
import statistics

import click
from rich.console import Console
from rich.table import Table

from .. import networks as topo_mod
from .._core import NetcollError, build_schedule, multicast_figures, worms_show

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


@click.command("show")
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


@click.command("trends")
@click.option("--dests", type=click.IntRange(1), default=15, show_default=True)
@click.option("--topos", type=click.IntRange(1), default=10, show_default=True)
@click.option("--sets", type=click.IntRange(1), default=10, show_default=True)
@click.option("--phases", type=click.Choice(["greedy", "less-greedy"]), default="less-greedy")
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
def trends_cmd(dests, topos, sets, phases, as_json):
    """Benchmark: worms and phases against system size, switch size and switch count
    (seed 003 s6.4.3-6.4.5), averaged over random networks and destination sets."""
    rows = trends(dests, topos, sets, phases)
    if as_json:
        print(json.dumps(rows, indent=2))
        return
    table = Table()
    for col in (
        "nodes",
        "switches x ports",
        "SSR worms/phases",
        "path worms/phases",
        "tree links",
        "NI k-binomial steps",
    ):
        table.add_column(col)
    for r in rows:
        table.add_row(
            str(r["nodes"]),
            f"{r['switches']}x{r['ports']}",
            f"{r['worm-ssr']['worms']} / {r['worm-ssr']['phases']}",
            f"{r['worm-path']['worms']} / {r['worm-path']['phases']}",
            str(r["worm-tree"]["link_traversals"]),
            str(r["ni-kbinomial"]["phases"]),
        )
    console = Console()
    if not console.is_terminal:
        console = Console(width=120)
    console.print(table)


# (nodes, switches, ports) of seed 003 s6.4.3-6.4.5: system size, switch size, switch count.
TREND_SYSTEMS = (
    (32, 8, 8),
    (64, 16, 8),
    (128, 32, 8),
    (256, 64, 8),
    (32, 4, 16),
    (32, 2, 32),
    (32, 16, 8),
)
TREND_ALGOS = ("worm-ssr", "worm-path", "worm-tree", "ni-kbinomial")


def trends(dests: int = 15, topos: int = 10, sets: int = 10, phases: str = "less-greedy") -> list:
    """Mean figures per algorithm over random networks (80% connectivity) and random
    destination sets, for the systems of seed 003 s6.4.3-6.4.5."""
    rows = []
    for nodes, switches, ports in TREND_SYSTEMS:
        acc: dict = {a: {"worms": [], "phases": [], "link_traversals": []} for a in TREND_ALGOS}
        for s in range(topos):
            spec = (
                f"irregular:switches={switches},ports={ports},nodes={nodes},conn=0.8,seed={s + 1}"
            )
            topo = topo_mod.topology(spec)
            for d in range(sets):
                root = (7 * d + s) % nodes
                targets = parse_dests(
                    f"random:{min(dests, nodes - 1)},seed={100 * s + d}", nodes, root
                )
                for a in TREND_ALGOS:
                    params = [f"phases={phases}"] if a in ("worm-ssr", "worm-path") else []
                    sched = build_schedule(
                        "multicast", a, topo, root=root, targets=targets, params=params, nbytes=128
                    )
                    f = multicast_figures(sched)
                    for key in acc[a]:
                        acc[a][key].append(f[key])
        row = {"nodes": nodes, "switches": switches, "ports": ports, "dests": dests}
        for a in TREND_ALGOS:
            row[a] = {k: round(statistics.mean(v), 2) for k, v in acc[a].items()}
        rows.append(row)
    return rows


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
