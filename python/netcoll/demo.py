"""The README's main job (`netcoll demo`).

First interlaced bypass tori against tori of the same size and node degree (seed 004, Table 1
exactly). Then, last on the screen, the headline: network-coded all-to-all broadcast (HNC,
seed 000) against the tree-based and all-at-once baselines on k-ary 2-meshes, in aggregate
hops from exact closed forms (equal to the built, verified schedules) and in cycles on the
flit engine for small meshes, then the quick HTML report of every reproduction. Tables on
the terminal, plots and the report in the output directory."""

from __future__ import annotations

import json
import math
import time
from pathlib import Path

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table

from .headline import LABELS, measure_cycles, measure_hnc, print_headline
from .networks import spec_stats

# (label, spec, paper diameter, paper average distance) -- Table 1 of the iBT paper.
NETWORKS_4096 = [
    ("Torus(64^2)", "torus:64x64", None, None),
    ("iBT(64^2;<6>)", "ibt:64x64:b=6", 14, 8.096),
    ("iBT(64^2;<14>)", "ibt:64x64:b=14", 12, 7.482),
    ("iBT(64^2;<4,16>)", "ibt:64x64:b=4,16", 10, 6.568),
    ("iBT(64^2;<8,24>)", "ibt:64x64:b=8,24", 10, 6.633),
    ("Torus(16^3)", "torus:16x16x16", None, None),
    ("Hypercube(12)", "hypercube:12", None, None),
]
# The paper's case study: one million nodes, degree 6 both.
NETWORKS_1M = [
    ("iBT(1000^2;<8,32>)", "ibt:1000x1000:b=8,32", None, None),
    ("Torus(100^3)", "torus:100x100x100", None, None),
]
REFERENCE = {4096: "Torus(16^3)", 1_000_000: "Torus(100^3)"}


def measure(networks, progress: Progress | None) -> list[dict]:
    rows = []
    task = progress.add_task("metrics", total=len(networks)) if progress else None
    for label, spec, paper_d, paper_mu in networks:
        if progress:
            progress.update(task, description=f"metrics of {label}")
        start = time.perf_counter()
        s = spec_stats(spec)
        rows.append(
            {
                "network": label,
                "spec": spec,
                "nodes": s["nodes"],
                "degree": s["degree_max"],
                "diameter": s["diameter"],
                "average_distance": s["average_distance"],
                "average_distance_distinct": s["average_distance_distinct"],
                "paper_diameter": paper_d,
                "paper_average_distance": paper_mu,
                "method": s["method"],
                "seconds": round(time.perf_counter() - start, 4),
            }
        )
        if progress:
            progress.advance(task)
    add_improvements(rows)
    return rows


def add_improvements(rows: list[dict]) -> None:
    """The paper's beta coefficient: 1 - f(network) / f(torus of the same size, degree 6)."""
    by_label = {r["network"]: r for r in rows}
    for r in rows:
        ref = by_label.get(REFERENCE.get(r["nodes"], ""))
        if ref and r["network"].startswith("iBT"):
            r["vs"] = ref["network"]
            r["diameter_gain"] = 1 - r["diameter"] / ref["diameter"]
            r["average_distance_gain"] = 1 - r["average_distance"] / ref["average_distance"]


def print_table(rows: list[dict], console: Console) -> None:
    table = Table(title="iBT against tori of the same size (hops between endpoints)")
    for col in ("network", "nodes", "deg", "diam", "avg N^2", "avg N(N-1)", "paper", "gain"):
        table.add_column(col, justify="left" if col == "network" else "right", no_wrap=True)
    for r in rows:
        paper = (
            f"{r['paper_diameter']}, {r['paper_average_distance']:.3f}"
            if r["paper_diameter"] is not None
            else ""
        )
        gain = (
            f"{100 * r['diameter_gain']:.0f}%, {100 * r['average_distance_gain']:.0f}%"
            if "vs" in r
            else ""
        )
        table.add_row(
            r["network"],
            f"{r['nodes']:,}",
            str(r["degree"]),
            str(r["diameter"]),
            f"{r['average_distance']:.3f}",
            f"{r['average_distance_distinct']:.3f}",
            paper,
            gain,
        )
    console.print(table)
    total = sum(r["seconds"] for r in rows)
    console.print(
        "avg N^2: over all ordered pairs incl. self (the paper's); avg N(N-1): distinct pairs.\n"
        "paper: Table 1 of Zhang & Deng (diameter, average distance).\n"
        "gain: 1 - iBT/Torus for diameter and average distance against the torus of the same "
        f"size and node degree 6 (the paper's beta). Exact metrics, {total:.2f} s in all."
    )


def plot(rows: list[dict], path: Path) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = [r["network"] for r in rows]
    colours = ["#c0392b" if r["network"].startswith("iBT") else "#7f8c8d" for r in rows]
    fig, axes = plt.subplots(1, 2, figsize=(12, 0.45 * len(rows) + 1.6), sharey=True)
    for ax, key, title in (
        (axes[0], "diameter", "diameter (hops)"),
        (axes[1], "average_distance", "average distance (hops, N^2 pairs)"),
    ):
        values = [r[key] for r in rows]
        bars = ax.barh(labels, values, color=colours)
        ax.bar_label(bars, fmt="%.3g", padding=3, fontsize=8)
        ax.set_title(title)
        ax.grid(axis="x", alpha=0.3)
        if len(rows) > len(NETWORKS_4096):  # separate the million-node pair
            ax.axhline(len(NETWORKS_4096) - 0.5, color="black", lw=0.8, ls=":")
    axes[0].invert_yaxis()  # shared y axis: invert once, first network on top
    fig.suptitle(
        "Interlaced bypass tori (red) against tori and a hypercube (grey): 4,096 nodes, "
        "then one million"
    )
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    written = [path, path.with_suffix(".svg")]
    for p in written:
        fig.savefig(p, dpi=120)
    plt.close(fig)
    return written


HNC_RADICES = [8, 16, 32, 64, 128, 256]
# Small meshes for the flit engine: the three together take a few seconds.
FLIT_RADICES = [4, 8, 16]
STYLES = {
    "tree": {"color": "#2c3e50"},
    "all_at_once": {"color": "#7f8c8d", "ls": "--"},
    "hnc_tree": {"color": "#c0392b"},
    "hnc_all_at_once": {"color": "#e67e22", "ls": "--"},
    "hnc_tree_paper": {"color": "#c0392b", "ls": ":"},
    "hnc_tree_scatter_allgather": {"color": "#8e44ad"},
}


def plot_hnc(hops: list[dict], cycles: list[dict], path: Path) -> list[Path]:
    """Left: aggregate hops against network size (closed forms). Right: cycles on the flit
    engine, one group of bars per small mesh."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 5), gridspec_kw={"width_ratios": [3, 2]})
    xs = [r["nodes"] for r in hops]
    for key, label in {**LABELS, "hnc_tree_paper": "HNC (tree base), paper's 8x4"}.items():
        name = label if key == "hnc_tree_paper" or not key.startswith("hnc") else label + ", auto"
        left.plot(xs, [r[key] for r in hops], marker="o", label=name, **STYLES[key])
    left.set_xscale("log")
    left.set_yscale("log")
    # The radices are the rows' own (the quick demo stops at 64x64): label and data agree.
    ks = [math.isqrt(n) for n in xs]
    left.set_xlabel(f"nodes (k-ary 2-mesh, k = {min(ks)} ... {max(ks)})")
    left.set_ylabel("aggregate hops")
    left.set_title("Message hops (exact closed forms)")
    left.grid(alpha=0.3, which="both")
    left.legend()
    ways = [*LABELS, "hnc_tree_scatter_allgather"]
    width = 0.8 / len(ways)
    for i, key in enumerate(ways):
        pos = [j + (i - (len(ways) - 1) / 2) * width for j in range(len(cycles))]
        colour = STYLES[key]["color"]
        hatch = "//" if STYLES[key].get("ls") else None
        name = "HNC, scatter-allgather step (e)" if key not in LABELS else None
        bars = right.bar(
            pos, [r[key] for r in cycles], width, color=colour, hatch=hatch, label=name
        )
        right.bar_label(bars, fmt="%d", padding=2, fontsize=7, rotation=90)
    right.set_xticks(range(len(cycles)), [f"{r['mesh']} (HNC {r['hnc_group']})" for r in cycles])
    right.set_yscale("log")
    right.margins(y=0.15)
    right.set_xlabel("mesh (colours as on the left)")
    right.set_ylabel("cycles (flit engine)")
    right.set_title("Free-running cycles, HNC with the paper's groups")
    right.legend(fontsize=8, loc="upper left")
    right.grid(axis="y", alpha=0.3, which="both")
    fig.suptitle("All-to-all broadcast: hierarchical network coding (HNC) against the baselines")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    files = [path, path.with_suffix(".svg")]
    for f in files:
        fig.savefig(f, dpi=120, bbox_inches="tight")
    plt.close(fig)
    return files


def quick_report(output: Path, console: Console, as_json: bool) -> Path:
    """Every reproduction in quick mode and the HTML report, under a progress bar."""
    from . import reproduce as rep
    from .reproduce.report import write_report

    with Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        disable=as_json,
    ) as progress:
        task = progress.add_task("reproductions", total=len(rep.REPRODUCTIONS))
        results = rep.run_all(
            output,
            True,
            lambda r: progress.update(task, description=f"report: {r.id}"),
            lambda r, o: progress.advance(task),
        )
    return write_report(output, results, True)


def run_demo(
    output: Path, quick: bool, as_json: bool, console: Console, report: bool = True
) -> None:
    networks = NETWORKS_4096 + ([] if quick else NETWORKS_1M)
    radices = HNC_RADICES[:4] if quick else HNC_RADICES
    flit_radices = FLIT_RADICES[:2] if quick else FLIT_RADICES
    with Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        disable=as_json,
    ) as progress:
        rows = measure(networks, progress)
        hnc_rows = measure_hnc(radices, progress)
        cycle_rows = measure_cycles(flit_radices, progress)
    files = plot(rows, output / "networks.png")
    files += plot_hnc(hnc_rows, cycle_rows, output / "alltoall.png")
    page = quick_report(output / "report", console, as_json) if report else None
    if as_json:
        print(
            json.dumps(
                {
                    "networks": rows,
                    "alltoall": hnc_rows,
                    "alltoall_cycles": cycle_rows,
                    "files": [str(f) for f in files],
                    "report": str(page) if page else None,
                },
                indent=2,
            )
        )
        return
    print_table(rows, console)
    console.print(f"plot: {files[0]}\n")
    print_headline(hnc_rows, cycle_rows, files[2], page, console)


def bench_metrics(as_json: bool, console: Console) -> None:
    """Exact metrics at a million nodes, and the symmetry shortcut against plain BFS."""
    from .networks import topology

    rows = measure(NETWORKS_1M, None)
    small = "ibt:128x128:b=8,32"
    t = topology(small)
    start = time.perf_counter()
    fast = t.stats()
    t_fast = time.perf_counter() - start
    start = time.perf_counter()
    slow = t.stats_all_pairs()
    t_slow = time.perf_counter() - start
    same = fast["total_distance"] == slow["total_distance"] and fast["diameter"] == slow["diameter"]
    result = {
        "million_node": rows,
        "symmetry_vs_all_pairs": {
            "spec": small,
            "symmetry_seconds": t_fast,
            "all_pairs_seconds": t_slow,
            "speedup": t_slow / t_fast,
            "identical": same,
        },
    }
    if as_json:
        print(json.dumps(result, indent=2))
        return
    print_table(rows, console)
    console.print(
        f"{small}: symmetry {t_fast:.3f} s vs all-pairs BFS {t_slow:.3f} s "
        f"({t_slow / t_fast:.0f}x), identical results: {same}"
    )
