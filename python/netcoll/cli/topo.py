"""`netcoll topo ...` and `netcoll route`: network metrics, deadlock checks, routes, pictures,
export."""

from __future__ import annotations

import json
import time
from pathlib import Path

import click
from rich.table import Table

from .. import networks as topo_mod
from .._core import NetcollError
from .common import console, emit_json, json_option, root_option, routing_option, spec_argument

# ---------------------------------------------------------------- topo stats


@click.command("stats")
@spec_argument
@json_option
@click.option("--all-pairs", is_flag=True, help="Ignore symmetry: one BFS per switch.")
def topo_stats(spec: str, as_json: bool, all_pairs: bool) -> None:
    """Size, degree, diameter and average distance (both conventions) of a network."""
    start = time.perf_counter()
    if all_pairs:
        stats = topo_mod.topology(spec).stats_all_pairs()
    else:
        stats = topo_mod.spec_stats(spec)
    stats = {"spec": topo_mod.canonical_spec(spec), **stats}
    stats["seconds"] = round(time.perf_counter() - start, 6)
    stats["total_distance"] = int(stats["total_distance"])
    if as_json:
        emit_json(stats)
        return
    table = Table(title=stats["spec"], show_header=False)
    rows = [
        ("endpoints (nodes)", stats["nodes"]),
        ("switches", stats["switches"]),
        ("links", stats["links"]),
        ("switch degree (min..max)", f"{stats['degree_min']}..{stats['degree_max']}"),
        ("diameter (hops)", stats["diameter"]),
        ("average distance, N^2 pairs incl. self", f"{stats['average_distance']:.6f}"),
        ("average distance, N(N-1) distinct pairs", f"{stats['average_distance_distinct']:.6f}"),
        ("method", stats["method"]),
        ("time", f"{stats['seconds']:.3f} s"),
    ]
    for k, v in rows:
        table.add_row(k, str(v))
    console.print(table)


# ---------------------------------------------------------------- topo check


@click.command("check")
@spec_argument
@routing_option
@click.option(
    "--vcs",
    type=click.IntRange(1, 64),
    default=1,
    show_default=True,
    help="Virtual channels per link.",
)
@click.option(
    "--vc-rule",
    default="auto",
    show_default=True,
    help="auto (dateline if the routing has classes, else any) | dateline | any | hop | single",
)
@root_option
@json_option
def topo_check(
    spec: str, routing: str, vcs: int, vc_rule: str, root: int | None, as_json: bool
) -> None:
    """Is ROUTING with VCS virtual channels deadlock-free? (channel-dependency-graph check)"""
    t = topo_mod.topology(spec)
    rep = t.check_deadlock(routing, vcs, vc_rule, root)
    rep = {"spec": t.name, **rep}
    if as_json:
        emit_json(rep)
        return
    verdict = "deadlock-free" if rep["deadlock_free"] else "NOT deadlock-free"
    console.print(
        f"{t.name}: {rep['routing']} routing with {rep['vcs']} VC(s), rule {rep['vc_rule']}: "
        f"[bold]{verdict}[/bold] ({rep['dependencies']} dependencies among "
        f"{rep['channels_used']} channel/VC pairs)"
    )
    if rep["cycle"]:
        console.print(f"dependency cycle of {len(rep['cycle'])} channels:")
        for c in rep["cycle"]:
            console.print(
                f"  switch {c['from']} port {c['port']} -> switch {c['to']}  (vc {c['vc']})"
            )


# ---------------------------------------------------------------- route


def parse_endpoint(t, text: str) -> int:
    """An endpoint id, or coordinates like 3,4 in the coordinate families."""
    text = text.strip().strip("()")
    if "," not in text:
        try:
            return int(text)
        except ValueError:
            raise NetcollError(f"'{text}' is not an endpoint id or coordinates like 3,4") from None
    shape = t.shape
    if not shape:
        raise NetcollError(f"{t.name} has no coordinates: give an endpoint id, not '{text}'")
    try:
        coords = [int(x) for x in text.split(",")]
    except ValueError:
        raise NetcollError(f"'{text}' is not coordinates like 3,4") from None
    if len(coords) != len(shape) or any(not 0 <= c < k for c, k in zip(coords, shape)):
        raise NetcollError(f"coordinates {text} do not fit the shape {'x'.join(map(str, shape))}")
    index = 0
    for c, k in zip(reversed(coords), reversed(shape)):
        index = index * k + c
    return index


@click.command("route")
@spec_argument
@click.argument("src")
@click.argument("dst")
@routing_option
@root_option
@json_option
def route(spec: str, src: str, dst: str, routing: str, root: int | None, as_json: bool) -> None:
    """The route from SRC to DST (endpoint ids, or coordinates like 3,4), hop by hop."""
    t = topo_mod.topology(spec)
    a, b = parse_endpoint(t, src), parse_endpoint(t, dst)
    hops = t.route(a, b, routing, root)
    if as_json:
        emit_json(
            {
                "spec": t.name,
                "routing": routing,
                "src": a,
                "dst": b,
                "hops": len(hops),
                "path": hops,
            }
        )
        return

    def where(s: int) -> str:
        c = t.coords(s)
        return f"{s} {tuple(c)}" if c is not None else str(s)

    table = Table(title=f"{t.name}: {routing} route {a} -> {b}, {len(hops)} hop(s)")
    for col in ("hop", "from switch", "port", "to switch", "vc class", "direction"):
        table.add_column(col)
    for i, h in enumerate(hops, 1):
        direction = ("up" if h["up"] else "down") if routing == "updown" else ""
        table.add_row(
            str(i), where(h["from"]), str(h["port"]), where(h["to"]), str(h["vc_class"]), direction
        )
    console.print(table)


# ---------------------------------------------------------------- draw, export


@click.command("draw")
@spec_argument
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path),
    required=True,
    help="Picture file (.png, .svg, .pdf).",
)
@root_option
def topo_draw(spec: str, output: Path, root: int | None) -> None:
    """Draw a small network: grids with wrap and bypass links, irregular networks by up*/down*
    level with the up direction of every link."""
    from ..draw import draw

    t = topo_mod.topology(spec)
    draw(t, output, root=root)
    console.print(f"wrote {output}")


@click.command("export")
@spec_argument
@click.option("-o", "--output", type=click.Path(path_type=Path), required=True, help="Output file.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["netcoll", "networkx", "graphml"]),
    default="netcoll",
    show_default=True,
    help="netcoll JSON (loadable as file:PATH), networkx node-link JSON, or GraphML.",
)
def topo_export(spec: str, output: Path, fmt: str) -> None:
    """Write a network to a file."""
    t = topo_mod.topology(spec)
    if fmt == "netcoll":
        output.write_text(t.to_json())
    elif fmt in ("networkx", "graphml"):
        import networkx as nx

        g = topo_mod.to_networkx(t)
        if fmt == "networkx":
            output.write_text(json.dumps(nx.node_link_data(g, edges="links"), default=list))
        else:
            h = nx.relabel_nodes(g, lambda n: f"{n[0][0]}{n[1]}")
            for _, d in h.nodes(data=True):
                if "coords" in d:
                    d["coords"] = ",".join(map(str, d["coords"]))
            for _, _, d in h.edges(data=True):
                if "ports" in d:
                    d["ports"] = ",".join(map(str, d["ports"]))
            nx.write_graphml(h, output)
    else:
        raise NetcollError(f"unknown export format '{fmt}': use netcoll, networkx or graphml")
    console.print(f"wrote {output} ({fmt})")
