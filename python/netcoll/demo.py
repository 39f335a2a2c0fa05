"""The README's main job (`netcoll demo`).

First interlaced bypass tori against tori of the same size and node degree (seed 004, Table 1
exactly). Then, last on the screen, the headline: network-coded all-to-all broadcast (HNC,
seed 000) against the tree-based and all-at-once baselines on k-ary 2-meshes, in aggregate
hops from exact closed forms (equal to the built, verified schedules) and in cycles on the
flit engine for small meshes, then the quick HTML report of every reproduction. Tables on
the terminal, plots and the report in the output directory."""

from __future__ import annotations

import json
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
LABELS = {
    "tree": "tree-based",
    "all_at_once": "all-at-once",
    "hnc_tree": "HNC (tree base)",
    "hnc_all_at_once": "HNC (all-at-once base)",
}
STYLES = {
    "tree": {"color": "#2c3e50"},
    "all_at_once": {"color": "#7f8c8d", "ls": "--"},
    "hnc_tree": {"color": "#c0392b"},
    "hnc_all_at_once": {"color": "#e67e22", "ls": "--"},
}


def measure_hnc(radices: list[int], progress: Progress | None) -> list[dict]:
    """Aggregate hops of the four ways from HNC's closed forms (equal to built schedules)."""
    from .hnc import compare

    rows = []
    task = progress.add_task("hnc", total=len(radices)) if progress else None
    for k in radices:
        if progress:
            progress.update(task, description=f"hops of all-to-all broadcast, {k}x{k} mesh")
        c = compare(f"mesh:{k}x{k}")
        rows.append(
            {
                "mesh": f"{k}x{k}",
                "nodes": k * k,
                "tree": c["tree"]["aggregate_hops"],
                "all_at_once": c["all_at_once"]["aggregate_hops"],
                "hnc_tree": c["hnc_tree"]["aggregate_hops"],
                "hnc_all_at_once": c["hnc_all_at_once"]["aggregate_hops"],
                "group": c["hnc_tree"].get("group"),
                "saved_vs_tree": c["reduction_tree"],
                "times_fewer_vs_all_at_once": c["ratio_all_at_once"],
            }
        )
        if progress:
            progress.advance(task)
    return rows


def measure_cycles(radices: list[int], progress: Progress | None) -> list[dict]:
    """The same four ways on the flit engine with seed 000 s5.1's router (4 VCs, 3-cycle
    hops, 1-flit packets, XOR 1 cycle), HNC set up as the paper does (s4.3's group, one step
    per phase): the free-running time (each op starts when its inputs are there) and the
    paper's measure read as the sum over steps of the maximum network latency."""
    from .reproduce.netcoding_flit import HNC, cycles

    ways = {
        "tree": ("tree-multicast", []),
        "all_at_once": ("all-at-once", []),
        "hnc_tree": ("hnc", HNC),
        "hnc_all_at_once": ("hnc", [*HNC, "base=all-at-once"]),
    }
    rows = []
    task = progress.add_task("flit", total=len(radices) * len(ways)) if progress else None
    for k in radices:
        row: dict = {"mesh": f"{k}x{k}", "nodes": k * k}
        for key, (algo, params) in ways.items():
            if progress:
                progress.update(task, description=f"flit engine: {LABELS[key]} on {k}x{k}")
            start = time.perf_counter()
            r = cycles(k, algo, params)
            row[key] = r["free_cycles"]
            row[f"{key}_paper_measure"] = r["max_network"]
            row[f"{key}_flit_hops"] = r["flit_hops"]
            row[f"{key}_seconds"] = round(time.perf_counter() - start, 3)
            if progress:
                progress.advance(task)
        rows.append(row)
    return rows


def _table(title: str, first: str) -> Table:
    table = Table(title=title, title_justify="left")
    table.add_column(first, no_wrap=True)
    return table


def print_hnc(rows: list[dict], console: Console) -> None:
    table = _table(
        "All-to-all broadcast on k-ary 2-meshes: aggregate hops (unicasts x DOR path length)",
        "mesh",
    )
    for col in ("nodes", "tree", "HNC (tree)", "saved", "all-at-once", "HNC (a-a-o)", "fewer"):
        table.add_column(col, justify="right", no_wrap=True)
    for r in rows:
        table.add_row(
            r["mesh"],
            f"{r['nodes']:,}",
            f"{r['tree']:,}",
            f"[bold]{r['hnc_tree']:,}[/bold]",
            f"[green]{100 * r['saved_vs_tree']:.1f}%[/green]",
            f"{r['all_at_once']:,}",
            f"[bold]{r['hnc_all_at_once']:,}[/bold]",
            f"[green]{r['times_fewer_vs_all_at_once']:.1f}x[/green]",
        )
    console.print(table)


def print_cycles(rows: list[dict], console: Console) -> None:
    table = _table(
        "The same on the cycle-accurate flit engine (seed 000's router): free-running cycles "
        "| the paper's measure (sum of per-step maximum network latency)",
        "mesh",
    )
    for key in LABELS:
        table.add_column(LABELS[key], justify="right", no_wrap=True)
    for r in rows:
        table.add_row(r["mesh"], *[f"{r[k]:,} | {r[f'{k}_paper_measure']:,}" for k in LABELS])
    console.print(table)


def plot_hnc(hops: list[dict], cycles: list[dict], path: Path) -> list[Path]:
    """Left: aggregate hops against network size (closed forms). Right: cycles on the flit
    engine, one group of bars per small mesh."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 5), gridspec_kw={"width_ratios": [3, 2]})
    xs = [r["nodes"] for r in hops]
    for key, label in LABELS.items():
        left.plot(xs, [r[key] for r in hops], marker="o", label=label, **STYLES[key])
    left.set_xscale("log")
    left.set_yscale("log")
    left.set_xlabel("nodes (k-ary 2-mesh, k = 8 ... 256)")
    left.set_ylabel("aggregate hops")
    left.set_title("Hops (exact closed forms)")
    left.grid(alpha=0.3, which="both")
    left.legend()
    width = 0.8 / len(LABELS)
    for i, key in enumerate(LABELS):
        pos = [j + (i - (len(LABELS) - 1) / 2) * width for j in range(len(cycles))]
        colour = STYLES[key]["color"]
        hatch = "//" if STYLES[key].get("ls") else None
        bars = right.bar(pos, [r[key] for r in cycles], width, color=colour, hatch=hatch)
        right.bar_label(bars, fmt="%d", padding=2, fontsize=7, rotation=90)
        right.plot(
            pos,
            [r[f"{key}_paper_measure"] for r in cycles],
            "kD",
            ms=4,
            label="paper's measure (network latency reading)" if i == 0 else None,
        )
    right.set_xticks(range(len(cycles)), [r["mesh"] for r in cycles])
    right.set_yscale("log")
    right.margins(y=0.15)
    right.set_xlabel("mesh (colours as on the left)")
    right.set_ylabel("cycles (flit engine)")
    right.set_title("Execution time: free-running (bars), paper's measure (diamonds)")
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


def print_headline(hops, cycles, png: Path, page: Path | None, console: Console) -> None:
    """The headline, last on the screen: hops, cycles, what they mean, where to look next."""
    console.rule("[bold]Headline: network-coded all-to-all broadcast (seed 000)")
    print_hnc(hops, console)
    print_cycles(cycles, console)
    at32 = next((r for r in hops if r["nodes"] == 1024), None)
    if at32:
        from .hnc import compare

        paper = compare("mesh:32x32", ["group=8x4"])["reduction_tree"]
        console.print(
            f"Hops: HNC (hierarchical network coding: XOR-coded relays within groups) needs "
            f"{100 * at32['saved_vs_tree']:.1f}% fewer hops than the tree-based all-to-all "
            f"broadcast at 32x32 with its best group shape ({at32['group']}), "
            f"{100 * paper:.1f}% with the paper's 8x4 groups (paper: 75%), and "
            f"{at32['times_fewer_vs_all_at_once']:.0f}x fewer than all-at-once; the tree "
            "baseline equals the paper's 2,703,360 hops exactly."
        )
    big = cycles[-1]
    console.print(
        "Cycles: every schedule is built, verified and run flit by flit on the paper's router "
        "(DOR, 4 VCs, 3-cycle hops, 1-flit packets, XOR 1 cycle). Free-running, HNC finishes "
        f"later than the tree ({big['hnc_tree']:,} vs {big['tree']:,} cycles at {big['mesh']}): "
        "each group's intermediate node injects the encoded packets of all other groups "
        "through one NI. The paper sums each step's maximum latency; read as network latency "
        "(injection to arrival, without that source queueing) HNC wins "
        f"({big['hnc_tree_paper_measure']:,} vs {big['tree_paper_measure']:,}), as the paper "
        "reports; read as packet latency it does not. Figs. 10-13 in the report show all "
        "readings (docs/hnc.md)."
    )
    console.print(f"plot: [bold]{png}[/bold]")
    if page:
        console.print(f"report of every reproduction (quick sizes): [bold]{page}[/bold]")
    console.print(
        "full sizes: netcoll reproduce --all -o out/reproduce   (status: docs/reproductions.md)"
    )


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
