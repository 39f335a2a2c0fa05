"""`netcoll sim --booksim FILE.cfg [key=value ...]`: synthetic traffic on the flit engine.

The flit engine reads BookSim 2's configuration files as they are (the core's parser:
``key = value;`` statements, ``//`` and ``/* */`` comments, numbers, bare or quoted strings
and ``{...}`` lists; BookSim's defaults for unset keys). Every key goes to the Rust engine,
which knows the accepted keys; an unknown or unsupported key is a one-line error naming it.
"""

from __future__ import annotations

import json
import time

import click

from .. import _core
from .._core import NetcollError, parse_booksim_config, simulate_booksim, simulate_traffic
from .common import threads_option


def parse_booksim(text: str, where: str = "config") -> list[tuple[str, str]]:
    """Parses BookSim configuration text into (key, value) pairs in file order (the core's
    parser: BookSim's grammar, errors with line and column)."""
    return [tuple(p) for p in parse_booksim_config(text, where)]


def parse_overrides(items: tuple[str, ...]) -> list[tuple[str, str]]:
    out = []
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise NetcollError(f"'{item}': overrides are key=value, as injection_rate=0.1")
        out.append((key.strip(), value.strip()))
    return out


def run_config(pairs: list[tuple[str, str]]) -> dict:
    return simulate_traffic(pairs)


def summary_text(r: dict) -> str:
    """BookSim's overall statistics, in its wording."""
    lines = ["====== Overall Traffic Statistics ======", "====== Traffic class 0 ======"]
    if r["deadlock"]:
        d = r["deadlock"]
        lines.append(
            f"Deadlock at cycle {d['cycle']}: no flit moved since cycle {d['last_move']}, "
            f"{d['flits_in_flight']} flits in flight"
        )
        for w in d["wait_cycle"]:
            out_vc = "any" if w["out_vc"] is None else w["out_vc"]
            lines.append(
                f"  router {w['router']} input {w['in_port']} vc {w['in_vc']} -> "
                f"output {w['out_port']} vc {out_vc}"
            )
    if r["unstable"] and not r["deadlock"]:
        lines.append(f"Simulation unstable: {r['unstable_reason']}")
    for name, key in (
        ("Packet latency", "packet_latency"),
        ("Network latency", "network_latency"),
        ("Flit latency", "flit_latency"),
    ):
        s = r[key]
        lines.append(f"{name} average = {s['mean']:.6g} ({s['count']} samples)")
        lines.append(f"\tp50 = {s['p50']}  p90 = {s['p90']}  p99 = {s['p99']}  max = {s['max']}")
    lines += [
        f"Injected flit rate average = {r['offered_rate']:.6g}",
        f"Accepted flit rate average = {r['accepted_rate']:.6g}",
        f"Hops average = {r['avg_hops']:.6g}",
        f"Channel utilisation mean = {r['channel_utilisation']['mean']:.6g} "
        f"max = {r['channel_utilisation']['max']:.6g}",
        f"Total run time {r['cycles']} cycles ({r['sample_periods']} sample periods)",
    ]
    for c in r.get("classes", []):
        lines += [
            f"====== Traffic class {c['class']} ======",
            f"Packet latency average = {c['avg_packet_latency']:.6g} "
            f"({c['packets_measured']} samples)",
            f"Network latency average = {c['avg_network_latency']:.6g}",
            f"Accepted flit rate average = {c['accepted_rate']:.6g}",
            f"Hops average = {c['avg_hops']:.6g}",
        ]
    if "wall_seconds" in r:
        lines.append(
            f"Simulated on {r['threads']} thread(s) in {r['wall_seconds']:.3g} s "
            f"({r['cpu_seconds']:.3g} s of CPU)"
        )
    mc = r.get("multicast")
    if mc:
        s = mc["latency"]
        lines += [
            f"Multicast ({mc['dests']}-way, {mc['scheme']}) latency average = "
            f"{s['mean']:.6g} ({s['count']} multicasts; creation to last copy)",
            f"\tp50 = {s['p50']}  p90 = {s['p90']}  p99 = {s['p99']}  max = {s['max']}",
            f"Effective applied load = {mc['effective_load']:.6g} flits/node/cycle "
            f"({mc['multicast_rate']:.6g} multicasts/node/cycle)",
        ]
    return "\n".join(lines)


def json_view(r: dict, full: bool) -> dict:
    if full:
        return r
    r = dict(r)
    r["channel_utilisation"] = {
        k: v for k, v in r["channel_utilisation"].items() if k != "per_channel"
    }
    return r


@click.command("sim")
@click.option(
    "--booksim",
    "cfg_file",
    type=click.Path(dir_okay=False),
    default=None,
    help="A BookSim 2 configuration file.",
)
@click.argument("overrides", nargs=-1, metavar="[KEY=VALUE]...")
@threads_option(
    "Threads for this run (the `threads` key; 0: every core on networks of 1,024 "
    "routers or more, one below). The figures are identical for every thread count."
)
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
@click.option("--channels", is_flag=True, help="With --json: include per-channel utilisation.")
@click.option(
    "--keys",
    is_flag=True,
    is_eager=True,
    expose_value=False,
    callback=lambda ctx, _param, value: _print_keys(ctx) if value else None,
    help="List the accepted keys with their defaults, and exit.",
)
def sim(cfg_file, overrides, threads, as_json, channels):
    """Cycle-accurate flit simulation of synthetic traffic, configured as BookSim 2.

    A file means what it means to BookSim: its grammar, BookSim's defaults for unset keys
    (torus channels of 2 cycles, 16 VCs, ...), anynet networks; a key netcoll does not
    implement is refused by name. `netcoll sim --keys` lists the keys with their defaults
    (docs/flit.md describes them); KEY=VALUE overrides the file (without a file, unset keys
    take netcoll's defaults).
    Example: netcoll sim --booksim mesh88.cfg injection_rate=0.2 --json
    """
    pairs = parse_overrides(overrides)
    if threads is not None:
        pairs.append(("threads", str(threads)))
    # A BookSim file is read by the core: BookSim's grammar and defaults, its size and
    # encoding checked before reading.
    start, cpu0 = time.perf_counter(), time.process_time()
    r = simulate_booksim(cfg_file, pairs) if cfg_file else run_config(pairs)
    # CPU time of the whole process (every simulation thread), and wall-clock time.
    r["cpu_seconds"] = round(time.process_time() - cpu0, 4)
    r["wall_seconds"] = round(time.perf_counter() - start, 4)
    if as_json:
        print(json.dumps(json_view(r, channels), indent=2))
    else:
        click.echo(summary_text(r))


def _print_keys(ctx: click.Context) -> None:
    """`sim --keys`: every network key and its default, one a line."""
    defaults = _core.flit_defaults()
    classes = defaults.get("tc", {})
    for key in _core.flit_keys():
        click.echo(f"{key} = {defaults.get(key, classes.get(key, ''))}")
    ctx.exit(0)
