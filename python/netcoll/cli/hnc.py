"""`netcoll hnc compare`: tree vs all-at-once vs hierarchical network coding (seed 000)."""

from __future__ import annotations

import json

import click
from rich.table import Table

ROWS = (
    ("tree", "tree-based multicast"),
    ("hnc_tree", "HNC, tree base"),
    ("all_at_once", "all-at-once multicast"),
    ("hnc_all_at_once", "HNC, all-at-once base"),
)


@click.command("compare")
@click.option("--topo", "-t", required=True, metavar="SPEC", help="mesh:KxK or torus:KxK.")
@click.option(
    "--set",
    "params",
    multiple=True,
    metavar="KEY=VALUE",
    help="HNC parameter (group=, place=, receiver=, encode=, mode=, inner=).",
)
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
def compare_cmd(topo: str, params: tuple[str, ...], as_json: bool) -> None:
    """Aggregate hop counts (sum of DOR path lengths of the unicasts) of an all-to-all
    broadcast: each baseline against HNC on it, from closed forms."""
    from ..console import stdout_console
    from ..hnc import compare

    console = stdout_console()

    out = compare(topo, params)
    if as_json:
        print(json.dumps({"op": "alltoall-broadcast", "topo": topo, **out}, indent=2))
        return
    table = Table(title=f"all-to-all broadcast on {topo}")
    for col in ("method", "group", "messages", "aggregate hops", "packet hops", "steps"):
        table.add_column(col, justify="left" if col in ("method", "group") else "right")
    for key, label in ROWS:
        f = out[key]
        table.add_row(
            label,
            f.get("group", "-"),
            f"{f['messages']:,}",
            f"{f['aggregate_hops']:,}",
            f"{f['packet_hops']:,}",
            str(f["steps"]),
        )
    console.print(table)
    console.print(
        f"HNC saves {100 * out['reduction_tree']:.1f}% of the tree-based hops and needs "
        f"{out['ratio_all_at_once']:.1f}x fewer hops than all-at-once."
    )


@click.command("groups")
@click.option("--topo", "-t", required=True, metavar="SPEC", help="mesh:KxK or torus:KxK.")
@click.option(
    "--set", "params", multiple=True, metavar="KEY=VALUE", help="HNC parameter (not group=)."
)
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
def groups_cmd(topo: str, params: tuple[str, ...], as_json: bool) -> None:
    """HNC aggregate hops for every group shape, best first (seed 000 s4.3, Fig. 6)."""
    from ..console import stdout_console
    from ..hnc import groups

    console = stdout_console()

    rows = groups(topo, params)
    if as_json:
        print(json.dumps(rows, indent=2))
        return
    table = Table(title=f"HNC group shapes on {topo}")
    for col in ("group", "size", "place", "messages", "aggregate hops", "packet hops"):
        table.add_column(col, justify="left" if col in ("group", "place") else "right")
    for f in rows:
        table.add_row(
            f["group"],
            str(f["group_size"]),
            f["place"],
            f"{f['messages']:,}",
            f"{f['aggregate_hops']:,}",
            f"{f['packet_hops']:,}",
        )
    console.print(table)
