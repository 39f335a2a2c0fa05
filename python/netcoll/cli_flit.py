"""`netcoll sim --booksim FILE.cfg [key=value ...]` and `netcoll bench flit`.

The flit engine reads BookSim 2's configuration files as they are (the core's parser:
``key = value;`` statements, ``//`` and ``/* */`` comments, numbers, bare or quoted strings
and ``{...}`` lists; BookSim's defaults for unset keys). Every key goes to the Rust engine,
which knows the accepted keys; an unknown or unsupported key is a one-line error naming it.
"""

from __future__ import annotations

import json
import re
import resource
import subprocess
import tempfile
import time
from pathlib import Path

import click

from ._core import (
    NetcollError,
    flit_keys,
    parse_booksim_config,
    simulate_booksim,
    simulate_traffic,
)


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


BENCH_CASES = [
    (8, (0.05, 0.2, 0.35), 20000),
    (16, (0.05, 0.1, 0.18), 5000),
]


def booksim_speed(binary: str, k: int, load: float) -> dict:
    """BookSim 2's cycles per CPU second on the bench configuration (its latency mode: it has
    no fixed-length mode), measured as the child process's CPU time."""
    cfg = (
        f"topology = mesh; k = {k}; n = 2; routing_function = dor; num_vcs = 4;\n"
        f"vc_buf_size = 8; traffic = uniform; packet_size = 1; sim_type = latency;\n"
        f"injection_rate = {load};\n"
    )
    with tempfile.NamedTemporaryFile("w", suffix=".cfg", delete=False) as f:
        f.write(cfg)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        out = subprocess.run([binary, f.name], capture_output=True, text=True).stdout
    except OSError as e:
        raise NetcollError(f"cannot run BookSim at {binary}: {e.strerror}") from None
    finally:
        Path(f.name).unlink()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    secs = max(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, 1e-9)
    m = re.search(r"Time taken is (\d+) cycles", out)
    if not m:
        raise NetcollError(f"BookSim at {binary} printed no 'Time taken' line: is it BookSim 2?")
    cycles = int(m.group(1))
    return {"booksim_cycles": cycles, "booksim_cycles_per_s": round(cycles / secs)}


def bench_rows(quick: bool, booksim: str | None = None) -> list[dict]:
    rows = []
    for k, loads, cycles in BENCH_CASES:
        for load in loads:
            n = cycles // 5 if quick else cycles
            pairs = [
                ("topology", "mesh"),
                ("k", str(k)),
                ("n", "2"),
                ("num_vcs", "4"),
                ("vc_buf_size", "8"),
                ("packet_size", "1"),
                ("traffic", "uniform"),
                ("injection_rate", str(load)),
                ("sim_type", "fixed"),
                ("warmup_cycles", str(n // 10)),
                ("sim_cycles", str(n)),
            ]
            start, cpu0 = time.perf_counter(), time.process_time()
            r = simulate_traffic(pairs)
            wall = time.perf_counter() - start
            # CPU time: robust to other processes sharing the machine.
            secs = max(time.process_time() - cpu0, 1e-9)
            rows.append(
                {
                    "network": f"mesh:{k}x{k}",
                    "load": load,
                    "cycles": r["cycles"],
                    "cpu_seconds": round(secs, 4),
                    "wall_seconds": round(wall, 4),
                    "cycles_per_s": round(r["cycles"] / secs),
                    "ns_per_flit_hop": round(secs * 1e9 / max(r["flit_hops"], 1), 2),
                    "flit_hops": r["flit_hops"],
                    "accepted_rate": round(r["accepted_rate"], 4),
                    "avg_packet_latency": round(r["avg_packet_latency"], 2),
                    "peak_rss_mb": round(
                        resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1
                    ),
                }
            )
            if booksim:
                b = booksim_speed(booksim, k, load)
                b["speedup"] = round(rows[-1]["cycles_per_s"] / b["booksim_cycles_per_s"], 1)
                rows[-1].update(b)
    return rows


def register(app: click.Group) -> None:
    @app.command("sim")
    @click.option(
        "--booksim",
        "cfg_file",
        type=click.Path(dir_okay=False),
        default=None,
        help="A BookSim 2 configuration file.",
    )
    @click.argument("overrides", nargs=-1, metavar="[KEY=VALUE]...")
    @click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
    @click.option("--channels", is_flag=True, help="With --json: include per-channel utilisation.")
    def sim(cfg_file, overrides, as_json, channels):
        """Cycle-accurate flit simulation of synthetic traffic, configured as BookSim 2.

        Keys: see `netcoll sim --keys`-style list in docs/flit.md; KEY=VALUE overrides the
        file. Example: netcoll sim --booksim mesh88.cfg injection_rate=0.2 --json
        """
        pairs = parse_overrides(overrides)
        # A BookSim file is read by the core: BookSim's grammar and defaults, size and
        # encoding checked before reading.
        r = simulate_booksim(cfg_file, pairs) if cfg_file else run_config(pairs)
        if as_json:
            print(json.dumps(json_view(r, channels), indent=2))
        else:
            click.echo(summary_text(r))

    bench = app.commands["bench"]

    @bench.command("flit")
    @click.option("--quick", is_flag=True, help="A fifth of the cycles (a smoke run).")
    @click.option(
        "--booksim",
        type=click.Path(dir_okay=False, exists=True),
        default=None,
        help="A BookSim 2 binary: also time it on each configuration and print the ratio.",
    )
    @click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
    def bench_flit(quick, booksim, as_json):
        """Simulated cycles/s and ns per flit-hop (CPU time): 8x8 and 16x16 mesh, uniform,
        1-flit packets, 4 VCs x 8 flits (BookSim's reference configuration). With --booksim,
        BookSim's cycles/s (CPU time of its process, latency mode) and netcoll's speedup."""
        rows = bench_rows(quick, booksim)
        if as_json:
            print(json.dumps(rows, indent=2))
            return
        click.echo(
            f"{'network':<10} {'load':>5} {'cycles':>7} {'cpu s':>8} {'cycles/s':>10} "
            f"{'ns/flit-hop':>11} {'accepted':>8} {'latency':>8} {'rss MB':>7}"
            + (f" {'BookSim c/s':>11} {'speedup':>7}" if booksim else "")
        )
        for r in rows:
            click.echo(
                f"{r['network']:<10} {r['load']:>5} {r['cycles']:>7} {r['cpu_seconds']:>8} "
                f"{r['cycles_per_s']:>10} {r['ns_per_flit_hop']:>11} {r['accepted_rate']:>8} "
                f"{r['avg_packet_latency']:>8} {r['peak_rss_mb']:>7}"
                + (f" {r['booksim_cycles_per_s']:>11} {r['speedup']:>7}" if booksim else "")
            )


__all__ = ["flit_keys", "parse_booksim", "register", "simulate_traffic"]
