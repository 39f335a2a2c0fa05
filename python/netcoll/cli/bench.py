"""`netcoll bench ...`: benchmarks that print figures (not tests): exact metrics of million-node
networks, the flit engine on BookSim's reference configuration (`flit`), and an all-to-all
broadcast schedule on the flit engine with the network-coding paper's router (`flit-schedule`,
seed 000 s5.1; see reproduce/netcoding_flit.py). The step engine's is in bench_step.py."""

from __future__ import annotations

import json
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from statistics import median

import click

from .._core import (
    NetcollError,
    Topology,
    build_schedule,
    simulate_booksim,
    simulate_schedule,
)
from ..console import stdout_console
from .common import json_option, threads_option
from .types import bounded


def _peak_rss_mib() -> float:
    kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return kib / (1024 * 1024) if sys.platform == "darwin" else kib / 1024


@click.command("metrics")
@json_option
def bench_metrics(as_json: bool) -> None:
    """Exact metrics of million-node networks (iBT(1000^2;b=8,32), Torus(100^3)), timed."""
    from ..demo import bench_metrics as run

    run(as_json=as_json, console=stdout_console())


MESH = (
    "topology = {topology}; k = {k}; n = {n}; routing_function = dim_order; num_vcs = {vcs};\n"
    "vc_buf_size = 8; traffic = uniform; packet_size = {size}; sim_type = latency;\n"
    "injection_rate_uses_flits = 1;\n"
)


def mesh(topology: str = "mesh", k: int = 8, n: int = 2, vcs: int = 4, size: int = 1) -> str:
    """A BookSim file for a k-ary n-mesh (or torus) with `vcs` VCs of 8 flits and uniform
    `size`-flit packets; loads in flits per cycle per node."""
    return MESH.format(topology=topology, k=k, n=n, vcs=vcs, size=size)


ANYNET = (
    "topology = anynet; network_file = anynet16.net; routing_function = min; num_vcs = 4;\n"
    "vc_buf_size = 8; traffic = uniform; packet_size = 1; sim_type = latency;\n"
)
ALLOC = "vc_allocator = {alloc}; sw_allocator = {alloc};\n"
# BookSim's dragonfly and fat-tree examples (examples/dragonflyconfig, fattree_config) as
# shipped but for internal_speedup = 1.0 (the dragonfly's 2.0) and hold_switch_for_packet = 0
# (the fat-tree's 1, the same with its 1-flit packets), the keys netcoll reads.
DRAGONFLY = (
    "topology = dragonflynew; k = 4; n = 1; routing_function = min; num_vcs = 2;\n"
    "vc_buf_size = 256; vc_allocator = separable_input_first;\n"
    "sw_allocator = separable_input_first; credit_delay = 2; routing_delay = 0;\n"
    "traffic = uniform; packet_size = 10;\n"
    "injection_rate_uses_flits = 1; sample_period = 10000; sim_type = latency;\n"
)
FATTREE = (
    "topology = fattree; k = 4; n = 3; routing_function = nca; num_vcs = 4; vc_buf_size = 16;\n"
    "vc_allocator = separable_input_first; sw_allocator = separable_input_first;\n"
    "credit_delay = 2; routing_delay = 0; traffic = uniform; packet_size = 1;\n"
    "injection_rate_uses_flits = 1; sample_period = 10000; sim_type = latency;\n"
)
# (network, BookSim configuration, loads): both simulators read the same file.
# The tuned configuration (4 VCs, 1-flit packets) first, then the general paths beside it:
# 2 and 8 VCs, 20-flit packets (longer than a buffer: credits bind), a 3-D mesh.
BENCH_CASES = [
    ("mesh:8x8", mesh(), (0.05, 0.2, 0.35, 0.4)),
    ("mesh:16x16", mesh(k=16), (0.05, 0.1, 0.18)),
    ("torus:8x8", mesh("torus"), (0.1, 0.3)),
    ("anynet:16x4", ANYNET, (0.05, 0.1)),
    ("mesh:8x8 2 VCs", mesh(vcs=2), (0.05, 0.2, 0.3)),
    ("mesh:8x8 8 VCs", mesh(vcs=8), (0.05, 0.2, 0.35)),
    ("mesh:8x8 20 flits", mesh(size=20), (0.1, 0.2, 0.3)),
    ("mesh:8x8x8", mesh(n=3), (0.05, 0.2)),
    # Allocators off the tuned path: iSLIP with two iterations, and the wavefront allocator
    # on the request matrix (router/alloc/).
    ("mesh:8x8 islip(2)", mesh() + ALLOC.format(alloc="islip(2)"), (0.2, 0.35)),
    ("mesh:8x8 wavefront", mesh() + ALLOC.format(alloc="wavefront"), (0.2, 0.35)),
    ("dragonfly k=4", DRAGONFLY, (0.2,)),
    ("fattree k=4 n=3", FATTREE, (0.3, 0.6)),
]
# BookSim's own files, run as shipped, in their folder (network_file resolves there), found
# from the binary as BookSim 2's source tree has them: src/booksim, src/examples/*,
# runfiles/*. The ten that BookSim itself runs to the end (its dragonfly example does not
# finish in 15 minutes; six other runfiles stop in BookSim's parser): (row name, path from
# the repository's root, the injection rate the file ships with).
SHIPPED = [
    ("examples/torus88", "src/examples/torus88", 0.15),
    ("examples/anynet", "src/examples/anynet/anynet_config", 0.01),
    ("examples/mesh88_lat", "src/examples/mesh88_lat", 0.005),
    ("examples/singleconfig", "src/examples/singleconfig", 1.0),
    ("examples/cmeshconfig", "src/examples/cmeshconfig", 0.1),
    ("examples/fattree_config", "src/examples/fattree_config", 0.6),
    ("examples/flatflyconfig", "src/examples/flatflyconfig", 0.1),
    ("runfiles/ftreeconfig", "runfiles/ftreeconfig", 0.29),
    ("runfiles/meshconfig", "runfiles/meshconfig", 0.2),
    ("runfiles/dragonflyconfig", "runfiles/dragonflyconfig", 0.2),
]
# The large configuration: fixed length, netcoll only (BookSim would take hours).
LARGE = ("mesh:128x128", mesh(k=128), 0.02, 10_000)


def anynet_listing(routers: int = 16, nodes: int = 4, chords: int = 8, seed: int = 5) -> str:
    """A connected irregular network in BookSim's anynet format: a ring of routers plus
    seeded chords, `nodes` nodes per router."""
    import random

    rng = random.Random(seed)
    links = {(r, (r + 1) % routers) for r in range(routers)}
    while len(links) < routers + chords:
        a, b = rng.sample(range(routers), 2)
        if (b, a) not in links:
            links.add((a, b))
    lines = []
    for r in range(routers):
        attached = " ".join(f"node {nodes * r + i}" for i in range(nodes))
        peers = " ".join(f"router {b}" for a, b in sorted(links) if a == r)
        lines.append(f"router {r} {attached} {peers}".rstrip())
    return "\n".join(lines) + "\n"


def booksim_run(binary: str, cfg: Path, overrides: list[str], repeat: int = 1) -> dict:
    """BookSim 2 on `cfg` (in its folder, where it looks for network_file), `repeat` times:
    simulated cycles per CPU second of its process (the median run), and its packet latency."""
    secs, out = [], ""
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        try:
            out = subprocess.run(
                [str(Path(binary).resolve()), cfg.name, *overrides],
                capture_output=True,
                text=True,
                cwd=cfg.parent,
            ).stdout
        except OSError as e:
            raise NetcollError(f"cannot run BookSim at {binary}: {e.strerror}") from None
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        secs.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    m = re.search(r"Time taken is (\d+) cycles", out)
    if m:
        cycles = int(m.group(1))
    elif "Simulation unstable" in out:
        # An unstable run prints no total: it ran its sample periods (one stats block each).
        cycles = len(re.findall(r"^Class 0:", out, re.M)) * _sample_period(cfg, overrides)
    else:
        raise NetcollError(f"BookSim at {binary} printed no 'Time taken' line: is it BookSim 2?")
    lat = re.findall(r"Packet latency average = ([-0-9.e+]+)", out)
    mid = median(secs)
    return {
        "booksim_cycles": cycles,
        "booksim_cpu_seconds": round(mid, 4),
        "booksim_cycles_per_s": round(cycles / max(mid, 1e-9)),
        "booksim_latency": round(float(lat[-1]), 2) if lat else None,
    }


def _sample_period(cfg: Path, overrides: list[str]) -> int:
    """The `sample_period` BookSim ran `cfg` with (its default 10,000 unless set)."""
    from .._core import parse_booksim_config

    pairs = parse_booksim_config(cfg.read_text(), str(cfg))
    pairs += [tuple(o.split("=", 1)) for o in overrides]
    values = [v for k, v in pairs if k == "sample_period"]
    return int(values[-1]) if values else 10_000


def timed_row(network: str, load: float, cfg: Path, pairs: list, repeat: int = 1) -> dict:
    """netcoll on the BookSim file `cfg` with `pairs` on top, timed `repeat` times (the
    median run's times; every run gives the same figures)."""
    walls, cpus = [], []
    for _ in range(repeat):
        start, cpu0 = time.perf_counter(), time.process_time()
        r = simulate_booksim(str(cfg), pairs)
        walls.append(time.perf_counter() - start)
        # CPU time: robust to other processes sharing the machine.
        cpus.append(time.process_time() - cpu0)
    wall, secs = median(walls), max(median(cpus), 1e-9)
    return {
        "network": network,
        "load": load,
        "sim_type": r["sim_type"],
        "threads": r["threads"],
        "repeat": repeat,
        "cycles": r["cycles"],
        "cpu_seconds": round(secs, 4),
        "wall_seconds": round(wall, 4),
        "cycles_per_s": round(r["cycles"] / secs),
        "cycles_per_wall_s": round(r["cycles"] / max(wall, 1e-9)),
        # None where no flit crosses a link between routers (BookSim's one-router fly).
        "ns_per_flit_hop": round(secs * 1e9 / r["flit_hops"], 2) if r["flit_hops"] else None,
        "flit_hops": r["flit_hops"],
        "accepted_rate": round(r["accepted_rate"], 4),
        "avg_packet_latency": round(r["avg_packet_latency"], 2),
        "unstable": r["unstable"],
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }


def shipped_rows(booksim: str, quick: bool, mine: list, repeat: int = 1) -> list[dict]:
    """BookSim's shipped files that BookSim runs, as shipped, in both simulators; a file
    netcoll refuses is a row with the refusal (and no timing); files not found beside the
    binary are left out."""
    rows = []
    root = Path(booksim).resolve().parent.parent
    for network, name, load in SHIPPED:
        cfg = root / name
        if not cfg.is_file():
            continue
        over = ["sample_period=200"] if quick else []
        pairs = [tuple(o.split("=", 1)) for o in over]
        try:
            row = timed_row(network, load, cfg, pairs + mine, repeat)
        except NetcollError as e:
            rows.append({"network": network, "file": name, "load": load, "refused": str(e)})
            continue
        rows.append(beside_booksim({**row, "file": name}, booksim, cfg, over, repeat))
    return rows


def beside_booksim(row: dict, booksim: str, cfg: Path, over: list[str], repeat: int) -> dict:
    """netcoll's `row` with BookSim's run of the same file beside it, and the speed ratio."""
    b = booksim_run(booksim, cfg, over, repeat)
    b["ratio"] = round(row["cycles_per_s"] / b["booksim_cycles_per_s"], 1)
    return {**row, **b}


def bench_rows(
    quick: bool, booksim: str | None = None, threads: int | None = None, repeat: int = 1
) -> list[dict]:
    """Each case's file run by netcoll and (with a binary) BookSim, load by load; `--quick`
    shortens the sample periods (both simulators) and the large run; `threads` goes to
    netcoll's runs (None: the automatic choice, one thread below 1,024 routers); every
    case but the large one runs `repeat` times on each side, the median run timed."""
    mine = [] if threads is None else [("threads", str(threads))]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "anynet16.net").write_text(anynet_listing())
        for i, (network, text, loads) in enumerate(BENCH_CASES):
            cfg = folder / f"case{i}.cfg"
            cfg.write_text(text)
            for load in loads:
                over = [f"injection_rate={load}"] + (["sample_period=200"] if quick else [])
                pairs = [tuple(o.split("=", 1)) for o in over]
                row = timed_row(network, load, cfg, pairs + mine, repeat)
                rows.append(beside_booksim(row, booksim, cfg, over, repeat) if booksim else row)
        if booksim:
            rows += shipped_rows(booksim, quick, mine, repeat)
        network, text, load, cycles = LARGE
        cycles = 100 if quick else cycles
        cfg = folder / "large.cfg"
        cfg.write_text(text)
        pairs = [
            ("injection_rate", str(load)),
            ("sim_type", "fixed"),
            ("warmup_cycles", "0"),
            ("sim_cycles", str(cycles)),
        ]
        rows.append(timed_row(network, load, cfg, pairs + mine))
    return rows


@click.command("flit")
@click.option("--quick", is_flag=True, help="Short sample periods and large run (a smoke run).")
@click.option(
    "--booksim",
    type=click.Path(dir_okay=False, exists=True),
    default=None,
    help="A BookSim 2 binary: also run it on each configuration file; its speed and latency.",
)
@threads_option(
    "Threads for netcoll's runs [default: automatic: one below 1,024 routers, every core above]."
)
@click.option(
    "--repeat",
    type=bounded(1, 100, "integer count"),
    default=1,
    show_default=True,
    help="Runs per case on each side, the median timed (runs of 10-100 ms are noisy); "
    "the 128x128 run once.",
)
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
def bench_flit(quick, booksim, threads, repeat, as_json):
    """Simulated cycles per CPU second (all threads counted) and per wall second: BookSim
    configuration files (mesh 8x8 and 16x16, torus 8x8, a 16-router anynet; uniform, 1-flit
    packets, 4 VCs x 8 flits, latency mode; then the 8x8 mesh with 2 and 8 VCs and with
    20-flit packets, an 8x8x8 mesh, the 8x8 mesh with islip(2) and wavefront allocators,
    BookSim's dragonfly and fat-tree examples at internal_speedup 1; loads in flits per
    cycle per node; one thread
    unless --threads) and a 128x128 mesh
    at 0.02 (10,000 fixed cycles). With --booksim, BookSim runs the same files: its cycles
    per CPU second, netcoll's ratio, and BookSim's packet latency beside netcoll's, and it
    also runs the ten files BookSim ships and runs itself (src/examples/ and runfiles/ found
    beside the binary), as shipped; a file netcoll refuses is listed with the reason."""
    rows = bench_rows(quick, booksim, threads, repeat)
    if as_json:
        print(json.dumps(rows, indent=2))
        return
    click.echo(
        f"{'network':<24} {'load':>5} {'thr':>3} {'cycles':>7} {'cpu s':>8} {'cycles/s':>10} "
        f"{'ns/flit-hop':>11} {'accepted':>8} {'latency':>8} {'rss MB':>7}"
        + (f" {'BookSim c/s':>11} {'ratio':>6} {'BookSim lat':>11}" if booksim else "")
    )
    for r in rows:
        if "refused" in r:
            click.echo(f"{r['network']:<24} {r['load']:>5} refused: {r['refused']}")
            continue
        theirs = ""
        if "booksim_cycles_per_s" in r:
            theirs = (
                f" {r['booksim_cycles_per_s']:>11} {r['ratio']:>6} {r['booksim_latency']!s:>11}"
            )
        click.echo(
            f"{r['network']:<24} {r['load']:>5} {r['threads']:>3} {r['cycles']:>7} "
            f"{r['cpu_seconds']:>8} "
            f"{r['cycles_per_s']:>10} {r['ns_per_flit_hop'] or '-':>11} {r['accepted_rate']:>8} "
            f"{r['avg_packet_latency']:>8} {r['peak_rss_mb']:>7}" + theirs
        )


def bench_schedule(k: int, algo: str, params: list[str], paper: bool) -> dict:
    """Builds and runs one all-to-all broadcast; CPU seconds of each part, peak RSS."""
    from ..reproduce.netcoding_flit import FREE, OP, PAPER

    t = Topology(f"mesh:{k}x{k}")
    c0 = time.process_time()
    s = build_schedule(OP, algo, t, nbytes=16, params=params)
    c1, w1 = time.process_time(), time.perf_counter()
    r = simulate_schedule(s, t, PAPER if paper else PAPER + FREE)
    c2, w2 = time.process_time(), time.perf_counter()
    run = max(c2 - c1, 1e-9)
    return {
        "network": f"mesh:{k}x{k}",
        "algo": algo,
        "params": params,
        "measure": "paper (sync_steps, vc_per_step)" if paper else "free-running",
        "cycles": r["cycles"],
        "packets": r["packets"],
        "flit_hops": r["flit_hops"],
        "build_cpu_seconds": round(c1 - c0, 3),
        "run_cpu_seconds": round(run, 3),
        "run_wall_seconds": round(w2 - w1, 3),
        "cycles_per_s": round(r["cycles"] / run),
        "ns_per_flit_hop": round(run * 1e9 / max(r["flit_hops"], 1), 1),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }


@click.command("flit-schedule")
@click.option(
    "--k",
    type=bounded(2, 4096, "integer radix"),
    default=32,
    show_default=True,
    help="Radix of the k-ary 2-mesh.",
)
@click.option(
    "--algo",
    "algos",
    multiple=True,
    default=("tree-multicast", "hnc", "all-at-once"),
    show_default=True,
    help="Algorithms (repeatable).",
)
@click.option("--set", "params", multiple=True, help="Algorithm parameter key=value.")
@click.option("--free", is_flag=True, help="Free-running (no barrier, any VC).")
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
def bench_flit_schedule(k, algos, params, free, as_json):
    """All-to-all broadcast on a k-ary 2-mesh on the flit engine: cycles, CPU seconds,
    simulated cycles/s, ns per flit-hop, peak RSS (the process's, Python included)."""
    rows = []
    for algo in algos:
        rows.append(bench_schedule(k, algo, list(params), not free))
        if not as_json:
            r = rows[-1]
            click.echo(
                f"{r['network']} {algo:<15} cycles {r['cycles']:>7} build "
                f"{r['build_cpu_seconds']:>6}s run {r['run_cpu_seconds']:>7}s CPU "
                f"({r['run_wall_seconds']}s wall) {r['cycles_per_s']:>8} cycles/s "
                f"{r['ns_per_flit_hop']:>7} ns/flit-hop peak RSS {r['peak_rss_mb']} MB"
            )
    if as_json:
        print(json.dumps(rows, indent=2))


@click.command("scale")
@click.option(
    "--ranks",
    "sizes",
    type=click.IntRange(4),
    multiple=True,
    help="Ranks (square meshes: 64, 256, 1024, 4096; repeatable). Default 64 ... 4,096.",
)
@click.option("--quick", is_flag=True, help="Small sizes only (16 and 64 ranks): a smoke run.")
@click.option("--algo", "only", multiple=True, help="Only this algorithm or OP/ALGO (repeatable).")
@click.option(
    "--timeout", type=click.FloatRange(1), default=120.0, show_default=True, help="Seconds a row."
)
@click.option(
    "--mem", type=click.FloatRange(0.5), default=8.0, show_default=True, help="GiB a row."
)
@click.option(
    "--command",
    "what",
    type=click.Choice(["schedule", "analyze"]),
    default="schedule",
    show_default=True,
    help="What each row runs: schedule (build + verify) or analyze (the cheapest analysis "
    "path, --method auto; rows carry its `method`).",
)
@click.option(
    "--save",
    type=click.Path(dir_okay=False, writable=True, path_type=Path),
    default=None,
    help="Write the rows so far to this JSON file after every row (keeps a long run's rows).",
)
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
def bench_scale(sizes, quick, only, timeout, mem, what, save, as_json):
    """Build and verify every (collective, algorithm) pair listed for meshes and tori at
    64 ... 4,096 ranks, each row in a fresh process: seconds, peak memory, verdict."""
    from .. import bench_scale as scale

    try:
        for n in sizes:
            scale.mesh_spec(n)
    except ValueError as e:
        raise NetcollError(f"--ranks: {e}") from None
    chosen = tuple(sizes) or (scale.QUICK_SIZES if quick else scale.SIZES)

    def progress(row: dict, done: int, total: int) -> None:
        if not as_json:
            verdict = row.get("method", "ok") if scale.succeeded(row) else row.get("error")
            stdout_console().print(
                f"[{done}/{total}] {row['op']:<18} {row['algo']:<20} {row['ranks']:>6} ranks "
                f"{row['seconds']:>8.2f} s {row['peak_bytes'] / 2**20:>8.0f} MiB  {verdict}"
            )

    rows = scale.run(chosen, only, timeout, mem, progress, what, save)
    if as_json:
        print(json.dumps(rows, indent=2))
