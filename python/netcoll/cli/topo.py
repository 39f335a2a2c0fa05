"""`netcoll topo ...` and `netcoll route`: network metrics, deadlock checks, routes, pictures,
export."""

from __future__ import annotations

import json
import time
from pathlib import Path

import click
from rich.table import Table

from .. import _core
from .. import networks as topo_mod
from .._core import NetcollError
from ..console import stdout_console
from .common import (
    emit_json,
    json_option,
    resolve_topo,
    root_option,
    routing_option,
    topo_input,
    topo_option,
)
from .types import OutputPath, bounded, parse_int, short

# ---------------------------------------------------------------- topo stats


@click.command("stats")
@topo_input
@json_option
@click.option("--all-pairs", is_flag=True, help="Ignore symmetry: one BFS per switch.")
def topo_stats(spec: str, as_json: bool, all_pairs: bool) -> None:
    """Size, degree, radix, diameter, average distance (both conventions), bisection and cost
    (cables by link class) of a network."""
    start = time.perf_counter()
    if all_pairs:
        stats = topo_mod.topology(spec).stats_all_pairs()
    else:
        stats = topo_mod.spec_stats(spec)
    canonical = topo_mod.canonical_spec(spec)
    stats = {"topo": canonical, "spec": canonical, **stats}  # spec: deprecated, use topo
    stats["seconds"] = round(time.perf_counter() - start, 6)
    stats["total_distance"] = int(stats["total_distance"])
    if as_json:
        emit_json(stats)
        return
    table = Table(title=stats["spec"], show_header=False)
    rows = [
        ("endpoints (nodes)", stats["nodes"]),
        ("switches (routers)", stats["switches"]),
        ("links", stats["links"]),
        ("switch degree (min to max)", f"{stats['degree_min']} to {stats['degree_max']}"),
        ("radix (ports per router, max)", stats["radix"]),
        ("diameter (router hops)", stats["diameter"]),
        ("average distance, N^2 pairs incl. self", f"{stats['average_distance']:.6f}"),
        ("average distance, N(N-1) distinct pairs", f"{stats['average_distance_distinct']:.6f}"),
        ("bisection (links cut)", stats["bisection_links"]),
        ("cables by class", ", ".join(f"{k} {v}" for k, v in stats["cables"].items())),
        ("method", stats["method"]),
        ("time", f"{stats['seconds']:.3f} s"),
    ]
    for k, v in rows:
        table.add_row(k, str(v))
    stdout_console().print(table)


# ---------------------------------------------------------------- topo check


@click.command("check")
@topo_input
@routing_option
@click.option(
    "--vcs",
    type=bounded(1, 64, "integer count"),
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
    refuse_root_without_updown(routing, root)
    t = topo_mod.topology(spec)
    rep = t.check_deadlock(routing, vcs, vc_rule, root)
    rep = {"topo": t.name, "spec": t.name, **rep}  # spec: deprecated, use topo
    if as_json:
        emit_json(rep)
        return
    verdict = "deadlock-free" if rep["deadlock_free"] else "NOT deadlock-free"
    stdout_console().print(
        f"{t.name}: {rep['routing']} routing with {rep['vcs']} VC(s), rule {rep['vc_rule']}: "
        f"[bold]{verdict}[/bold] ({rep['dependencies']} dependencies among "
        f"{rep['channels_used']} channel/VC pairs)"
    )
    if rep["cycle"]:
        stdout_console().print(f"dependency cycle of {len(rep['cycle'])} channels:")
        for c in rep["cycle"]:
            stdout_console().print(
                f"  switch {c['from']} port {c['port']} -> switch {c['to']}  (vc {c['vc']})"
            )


# ---------------------------------------------------------------- route


def parse_endpoint(shape: list[int], name: str, endpoints: int, text: str) -> int:
    """An endpoint id, or coordinates like 3,4 in the coordinate families."""
    text = text.strip().strip("()")
    if "," not in text:
        return parse_int(text, f"endpoint of {name}", 0, endpoints - 1)
    if not shape:
        raise NetcollError(f"{name} has no coordinates: give an endpoint id, not '{short(text)}'")
    coords = [parse_int(x, "coordinate", 0, 2**32) for x in text.split(",")]
    if len(coords) != len(shape) or any(not 0 <= c < k for c, k in zip(coords, shape)):
        dims = "x".join(map(str, shape))
        raise NetcollError(f"coordinates {short(text)} do not fit the shape {dims}")
    index = 0
    for c, k in zip(reversed(coords), reversed(shape)):
        index = index * k + c
    return index


def refuse_root_without_updown(routing: str, root: int | None) -> None:
    """--root picks the up*/down* spanning tree; with another routing it would do nothing."""
    if root is not None and routing.lower() not in ("updown", "up*/down*", "up-down"):
        raise NetcollError(
            f"--root picks the up*/down* tree root and does nothing with --routing "
            f"{short(routing)}: "
            "drop it or use --routing updown"
        )


class GridView:
    """What `route` needs of a mesh or torus (name, shape, coordinates) without building it."""

    def __init__(self, name: str, shape: list[int]) -> None:
        self.name, self.shape = name, shape

    def coords(self, switch: int) -> list[int]:
        out = []
        for k in self.shape:
            out.append(switch % k)
            switch //= k
        return out


def _route(spec: str, src: str, dst: str, routing: str, root: int | None):
    """(network view, src, dst, hops): in closed form on a mesh or torus, where a route does
    not need the network (a five-hop route on mesh:4096x4096 must not build 3 GB)."""
    kind = routing.lower()
    refuse_root_without_updown(routing, root)
    parsed = topo_mod.canonical_spec(spec)
    if root is None and kind in ("dor", "shortest", "min", "minimal", "dimension-order"):
        family = parsed.split(":", 1)[0]
        if family in ("mesh", "torus"):
            shape = [int(k) for k in parsed.split(":", 1)[1].split("x")]
            n = 1
            for k in shape:
                n *= k
            a = parse_endpoint(shape, parsed, n, src)
            b = parse_endpoint(shape, parsed, n, dst)
            found = _core.route_of_spec(parsed, a, b, routing)
            return GridView(found["name"], found["shape"]), a, b, found["hops"]
    t = topo_mod.topology(spec)
    a = parse_endpoint(t.shape, t.name, t.num_endpoints, src)
    b = parse_endpoint(t.shape, t.name, t.num_endpoints, dst)
    return t, a, b, t.route(a, b, routing, root)


@click.command("route")
@topo_option
@click.argument("ends", nargs=-1, metavar="SRC DST")
@routing_option
@root_option
@json_option
def route(
    topo: str | None, ends: tuple[str, ...], routing: str, root: int | None, as_json: bool
) -> None:
    """The route from SRC to DST (endpoint ids, or coordinates like 3,4), hop by hop, on the
    network --topo (the older form `route SPEC SRC DST` still works, deprecated)."""
    spec, src, dst = _route_ends(topo, ends)
    t, a, b, hops = _route(spec, src, dst, routing, root)
    if as_json:
        emit_json(
            {
                "topo": t.name,
                "spec": t.name,  # deprecated, use topo
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
        direction = ("up" if h["up"] else "down") if routing.lower() in _UP_DOWN else ""
        table.add_row(
            str(i), where(h["from"]), str(h["port"]), where(h["to"]), str(h["vc_class"]), direction
        )
    stdout_console().print(table)


# Routings whose hops go up or down a tree: up*/down* and the fat-tree's nearest common
# ancestor (its names as netcoll and BookSim spell them).
_UP_DOWN = ("updown", "up*/down*", "up-down", "up_down", "nca", "anca")


def _route_ends(topo: str | None, ends: tuple[str, ...]) -> tuple[str, str, str]:
    """(spec, src, dst) from `--topo SPEC SRC DST` or the deprecated `SPEC SRC DST`."""
    if topo is not None and len(ends) == 2:
        return topo, ends[0], ends[1]
    if topo is None and len(ends) == 3:
        return resolve_topo(None, ends[0]), ends[1], ends[2]
    raise click.UsageError(f"give --topo SPEC SRC DST, not {' '.join(ends) or 'nothing'}")


# ---------------------------------------------------------------- draw, export


@click.command("draw")
@topo_input
@click.option(
    "-o",
    "--output",
    type=OutputPath((".png", ".svg", ".pdf")),
    required=True,
    help="Picture file (.png, .svg, .pdf).",
)
@root_option
def topo_draw(spec: str, output: Path, root: int | None) -> None:
    """Draw a small network: grids with wrap and bypass links, irregular networks by up*/down*
    level with the up direction of every link."""
    from ..draw import MAX_DRAWN, draw

    parsed = topo_mod.canonical_spec(spec)
    family, _, rest = parsed.partition(":")
    if family in ("mesh", "torus", "ibt", "hypercube"):
        if root is not None:
            raise NetcollError(
                f"--root picks the up*/down* root of irregular and file networks; {family} "
                "networks are drawn as grids: drop it"
            )
        dims = [2] * int(rest) if family == "hypercube" else rest.split(":")[0].split("x")
        switches = 1
        for k in dims:
            switches *= int(k)
        if switches > MAX_DRAWN:  # refused before building the network
            raise NetcollError(
                f"{parsed} has {switches} switches: too many to draw readably "
                f"(at most {MAX_DRAWN}); draw a smaller instance of the family"
            )
    t = topo_mod.topology(spec)
    draw(t, output, root=root)
    stdout_console().print(f"wrote {output}")


@click.command("export")
@topo_input
@click.option("-o", "--output", type=OutputPath(), required=True, help="Output file.")
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
    stdout_console().print(f"wrote {output} ({fmt})")
