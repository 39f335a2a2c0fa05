"""The ``netcoll`` command line (click + rich). Every command that reports figures takes
``--json``; bad input ends in one line on stderr and exit status 2."""

from __future__ import annotations

import importlib
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from . import _core
from . import networks as topo_mod
from ._core import NetcollError
from .cli_types import GIGABYTES, SWITCH, OutputPath, bounded, parse_int, short

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
    "--root", type=SWITCH, default=None, help="up*/down* spanning-tree root switch (default 0)."
)


def set_max_memory(ctx, param, value: float | None) -> float | None:
    _core.set_max_memory(value)
    return value


@click.group(context_settings=CONTEXT)
@click.version_option(package_name="netcoll")
@click.option(
    "--max-memory",
    type=GIGABYTES,
    default=None,
    expose_value=False,
    is_eager=True,
    callback=set_max_memory,
    metavar="GB",
    help="Memory budget of the memory guard, in gigabytes (default: what is free; also "
    "NETCOLL_MAX_MEMORY). Builders that would need more refuse before allocating.",
)
def app() -> None:
    """Design, prove, simulate and run collective communication on interconnection networks.

    SPEC is a network: mesh:8x8 | torus:8x8x8 | hypercube:6 | ibt:64x64:b=8,24 |
    irregular:switches=8,ports=8,nodes=32,conn=0.8,seed=3 | file:PATH
    """


@app.group("topo", context_settings=CONTEXT)
def topo_app() -> None:
    """Networks: metrics, deadlock checks, pictures, export."""


@app.group("bench", context_settings=CONTEXT)
def bench_app() -> None:
    """Benchmarks that print figures (not tests)."""


def emit_json(obj: Any) -> None:
    print(json.dumps(obj, indent=2))


# ---------------------------------------------------------------- topo stats


@topo_app.command("stats")
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


@topo_app.command("check")
@spec_argument
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


@app.command("route")
@spec_argument
@click.argument("src")
@click.argument("dst")
@routing_option
@root_option
@json_option
def route(spec: str, src: str, dst: str, routing: str, root: int | None, as_json: bool) -> None:
    """The route from SRC to DST (endpoint ids, or coordinates like 3,4), hop by hop."""
    t, a, b, hops = _route(spec, src, dst, routing, root)
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


@topo_app.command("draw")
@spec_argument
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
    from .draw import draw

    t = topo_mod.topology(spec)
    draw(t, output, root=root)
    console.print(f"wrote {output}")


@topo_app.command("export")
@spec_argument
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
    console.print(f"wrote {output} ({fmt})")


# ---------------------------------------------------------------- demo, bench


@app.command("demo")
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
    from .demo import run_demo

    run_demo(output, quick=quick, as_json=as_json, console=console, report=report)


@bench_app.command("metrics")
@json_option
def bench_metrics(as_json: bool) -> None:
    """Exact metrics of million-node networks (iBT(1000^2;b=8,32), Torus(100^3)), timed."""
    from .demo import bench_metrics as run

    run(as_json=as_json, console=console)


# ---------------------------------------------------------------- other areas

# Each area keeps its commands in its own module with `register(app)`; add new ones here.
COMMAND_MODULES: tuple[str, ...] = (
    "cli_simulate",
    "cli_reproduce",
    "cli_algos",
    "cli_hnc",
    "cli_mpi",
    "cli_step",
    "cli_worms",
    "cli_flit",
    "cli_flit_schedule",
)


def _register_command_modules() -> None:
    for name in COMMAND_MODULES:
        importlib.import_module(f"netcoll.{name}").register(app)


_register_command_modules()


# ---------------------------------------------------------------- entry point


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


def main(argv: list[str] | None = None) -> None:
    """Run the CLI; bad input ends in one line on stderr and exit status 2."""
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
