"""`netcoll worms show SPEC --root R --dests ...`: the multidestination worms of a multicast
(seed 003 s5): each worm's phase, sender, path and header, and the multicast's figures.

`parse_dests` reads the `--dests` syntax shared with `netcoll schedule multicast`:
a list `3,7,12` or `random:COUNT,seed=S` (COUNT distinct ranks other than the root).
"""

from __future__ import annotations

import json
import statistics

import click
from rich.console import Console
from rich.table import Table

from .. import networks as topo_mod
from .._core import NetcollError, build_schedule, multicast_figures, worms_show
from .common import topo_input
from .types import DESTS, POSITIVE, RANK, Dests, parse_dests_text

WORM_ALGOS = ("worm-ssr", "worm-path", "worm-tree")


def parse_dests(text: str | Dests, p: int, root: int) -> list[int]:
    """Destination ranks from `3,7,12` or `random:COUNT,seed=S` (seed defaults to 1 here),
    each a rank other than the root."""
    dests = parse_dests_text(text) if isinstance(text, str) else text
    if dests.count and dests.seed is None:
        dests = Dests(count=dests.count, seed=1)
    out = dests.resolve(p, root)
    bad = [d for d in out if d >= p]
    if bad:
        raise NetcollError(f"--dests: rank {bad[0]} is out of range: {p} ranks, 0 to {p - 1}")
    return out


@click.command("show")
@topo_input
@click.option("--algo", "-a", default="worm-path", show_default=True, help="|".join(WORM_ALGOS))
@click.option("--root", type=RANK, default=0, show_default=True, help="Source rank.")
@click.option("--dests", type=DESTS, required=True, help="3,7,12 or random:COUNT,seed=S")
@click.option(
    "--set",
    "params",
    multiple=True,
    metavar="KEY=VALUE",
    help="phases=greedy|less-greedy, ud-root=SWITCH.",
)
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
def show(spec, algo, root, dests, params, as_json):
    """Each worm of a multicast on the network --topo: phase, sender, path and header."""
    topo = topo_mod.topology(spec)
    targets = parse_dests(dests, topo.num_endpoints, root)
    shown = worms_show(topo, algo, root=root, targets=targets, params=list(params))
    if as_json:
        print(json.dumps({"op": "multicast", "topo": spec, **shown}, indent=2))
        return
    print_show(shown)


@click.command("trends")
@click.option("--dests", type=POSITIVE, default=15, show_default=True)
@click.option("--topos", type=POSITIVE, default=10, show_default=True)
@click.option("--sets", type=POSITIVE, default=10, show_default=True)
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
    destination sets, for the systems of seed 003 s6.4.3-6.4.5. Every system draws ``dests``
    destinations, so a count the smallest system cannot hold is refused (never clamped)."""
    most = min(nodes for nodes, _, _ in TREND_SYSTEMS) - 1
    if not 1 <= dests <= most:
        raise NetcollError(
            f"--dests {dests}: the trend systems have {most + 1} to "
            f"{max(n for n, _, _ in TREND_SYSTEMS)} nodes; use 1 to {most} destinations"
        )
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
                targets = parse_dests(f"random:{dests},seed={100 * s + d}", nodes, root)
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
