"""The list of reproductions and how to run them."""

from __future__ import annotations

import csv
import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .._core import NetcollError

PAPERS = {
    "netcoding": "Shalaby, Fujiwara, Koibuchi: network coding for collectives (seed 000)",
    "intercom": "van de Geijn et al.: InterCom (seed 001)",
    "multisend": "Buntinas, Panda et al.: NIC-assisted multidestination messages (seed 002)",
    "irregular": "Sivaram, Kesavan, Panda, Stunkel: multicast in irregular networks (seed 003)",
    "ibt": "Zhang, Deng: pipelined broadcast on interlaced bypass tori (seed 004)",
}


@dataclass
class Outcome:
    """What a run produced: the rows behind the figure, the paper-vs-ours comparison, files."""

    status: str
    summary: str
    columns: list[str]
    rows: list[dict[str, Any]]
    comparison: list[dict[str, Any]] = field(default_factory=list)
    plot: Callable[[Path], list[Path]] | None = None
    files: list[str] = field(default_factory=list)


@dataclass
class Reproduction:
    id: str
    figure: str
    engine: str
    status: str
    reason: str
    # "module:function" taking (quick: bool) and returning an Outcome; None when we cannot.
    runner: str | None = None

    @property
    def paper(self) -> str:
        return PAPERS[self.id.split("-")[0]]

    def listing(self) -> dict[str, str]:
        return {
            "id": self.id,
            "paper": self.paper,
            "figure": self.figure,
            "engine": self.engine,
            "status": self.status,
            "reason": self.reason,
        }


def _pending(id: str, figure: str, engine: str, needs: str) -> Reproduction:
    return Reproduction(id, figure, engine, "cannot", f"not implemented yet: needs {needs}")


REPRODUCTIONS: list[Reproduction] = [
    Reproduction(
        "ibt-table1-distances",
        "Table 1 (diameter and average distance columns)",
        "metrics",
        "matches",
        "diameters equal, averages equal to the 3 printed decimals (N^2 convention)",
        "netcoll.reproduce.ibt:table1_distances",
    ),
    Reproduction(
        "ibt-fig3",
        "Fig. 3 (diameter and average distance of 2-D iBT vs N)",
        "metrics",
        "approximates",
        "the figure's data are not printed; compared with the paper's Table 2 fits, which our "
        "exact values follow within the fitted range (2K-65K nodes)",
        "netcoll.reproduce.ibt:fig3",
    ),
    Reproduction(
        "ibt-fig5",
        "Fig. 5 (alpha improvement of diameter and average distance vs N)",
        "metrics",
        "approximates",
        "the figure's data are not printed; exact alpha against Torus(n^d) for d = 2, 3, 4",
        "netcoll.reproduce.ibt:fig5",
    ),
    Reproduction(
        "ibt-fig6",
        "Fig. 6 (beta improvement vs N against Torus(m^(d+1)))",
        "metrics",
        "approximates",
        "exact iBT metrics against a torus of the same size with real radix m = N^(1/(d+1)) "
        "(continuous torus formulas); the paper's 40% (s4.3) and 80% (abstract) disagree; we "
        "compute 71-72% for iBT(1000^2;<8,32>) vs Torus(100^3)",
        "netcoll.reproduce.ibt:fig6",
    ),
    _pending("ibt-table1-broadcast", "Table 1 (T_x, T_xy columns)", "step", "the step engine"),
    *[
        _pending(f"ibt-fig{i}", f"Fig. {i}", "step", "the step engine and iBT broadcasts")
        for i in (1, 2, 4, 7, 8, 9, 10, 11, 12, 13)
    ],
    Reproduction(
        "intercom-table2",
        "Table 2 (hybrid broadcast costs on a 30-node linear array)",
        "analytic",
        "approximates",
        "8 of 9 rows exact; (3x10, SMC) is printed as 16 alpha + 240/30 n beta, which no "
        "hybrid of 30 nodes costs (a misprint, we compute 8 alpha + 160/30 n beta)",
        "netcoll.reproduce.models:intercom_table2",
    ),
    _pending(
        "intercom-fig2",
        "Fig. 2 (hybrid costs vs message length)",
        "analytic",
        "the InterCom algorithms",
    ),
    _pending(
        "intercom-table3",
        "Table 3 analogue (netcoll vs native MPI collectives)",
        "mpi",
        "the MPI executor",
    ),
    Reproduction(
        "multisend-s2",
        "s2 multi-send vs unicast latency (153.2089 vs 333.7294 us)",
        "analytic",
        "matches",
        "the timing model gives the printed latencies to 4 decimals",
        "netcoll.reproduce.models:multisend_s2",
    ),
    *[
        _pending(f"multisend-fig{i}", f"Fig. {i}", "analytic+flit", "the multi-send algorithms")
        for i in range(4, 14)
    ],
    *[
        _pending(f"irregular-fig{i}", f"Fig. {i}", "flit", "the flit engine and worms")
        for i in range(19, 29)
    ],
    Reproduction(
        "netcoding-fig5",
        "Figs. 2 and 5 (aggregate hops, tree-based vs HNC, k-ary 2-meshes)",
        "analytic",
        "approximates",
        "the tree baseline matches exactly (2,703,360 at 32-ary); HNC saves 71.6% (paper 75%) "
        "at 32-ary and 93.5% (paper 94%) at 64-ary; encoded-packet counting is not specified",
        "netcoll.reproduce.netcoding:fig5",
    ),
    Reproduction(
        "netcoding-fig6",
        "Fig. 6 (HNC hops by group size, 16-ary 2-mesh)",
        "analytic",
        "matches",
        "the best group size is 32 nodes, as printed",
        "netcoll.reproduce.netcoding:fig6",
    ),
    Reproduction(
        "netcoding-fig8",
        "Fig. 8 (all-at-once vs HNC hops, k-ary 2-meshes)",
        "analytic",
        "approximates",
        "30.5x fewer hops at 256-ary with 32-node groups (paper: 32x)",
        "netcoll.reproduce.netcoding:fig8",
    ),
    Reproduction(
        "netcoding-fig9",
        "Fig. 9 (all-at-once / HNC hop ratio on k-ary 2-tori)",
        "analytic",
        "approximates",
        "the figure's data are not printed; the ratio grows with k as on meshes",
        "netcoll.reproduce.netcoding:fig9",
    ),
    Reproduction(
        "netcoding-fig10",
        "Fig. 10 (execution time, tree-based vs HNC, k-ary 2-meshes)",
        "flit",
        "differs",
        "the paper's router on the flit engine: our tree-based baseline beats HNC at every "
        "size (paper: HNC 3x faster at 32-ary); HNC's intermediate NI is the bottleneck",
        "netcoll.reproduce.netcoding_flit:fig10",
    ),
    Reproduction(
        "netcoding-fig11",
        "Fig. 11 (execution time by group size, 16-ary 2-mesh)",
        "flit",
        "differs",
        "every group size on the flit engine: the fastest is 4 nodes (4x1), not the "
        "paper's 32; 32-node groups are among the slowest",
        "netcoll.reproduce.netcoding_flit:fig11",
    ),
    Reproduction(
        "netcoding-fig12",
        "Fig. 12 (execution time, all-at-once vs HNC, k-ary 2-meshes)",
        "flit",
        "differs",
        "HNC with an all-at-once base is slower than all-at-once here (paper: 3x faster at 32-ary)",
        "netcoll.reproduce.netcoding_flit:fig12",
    ),
    Reproduction(
        "netcoding-fig13",
        "Fig. 13 (execution time by packet length, 16-ary 2-mesh)",
        "flit",
        "differs",
        "1-16 flit packets; HNC stays behind the tree baseline (paper: up to 53% better)",
        "netcoll.reproduce.netcoding_flit:fig13",
    ),
    Reproduction(
        "netcoding-fig14",
        "Fig. 14 (execution time by XOR overhead, 16-ary 2-mesh)",
        "flit",
        "matches",
        "0-35 cycles per XOR op change the end-to-end time marginally, as printed",
        "netcoll.reproduce.netcoding_flit:fig14",
    ),
    _pending(
        "netcoding-fig18",
        "Fig. 18 (many-to-all)",
        "analytic",
        "many-to-all HNC (a collective where S ranks own data)",
    ),
    _pending(
        "netcoding-fig19",
        "Fig. 19 (recursive HNC)",
        "analytic",
        "a reproduction of recursive HNC (inner=auto exists; figure not wired yet)",
    ),
    Reproduction(
        "netcoding-combining",
        "s6.5 (HNC vs message combining, 16-ary 2-mesh, 32-node groups: 1,276 vs 1,832)",
        "flit",
        "differs",
        "free-running HNC and combining are within a few percent of each other (about "
        "1,500 cycles); with a barrier and a VC per step combining is faster",
        "netcoll.reproduce.netcoding_flit:combining",
    ),
]


def find(id: str) -> Reproduction:
    for r in REPRODUCTIONS:
        if r.id == id:
            return r
    raise NetcollError(f"no reproduction '{id}': see `netcoll reproduce --list`")


def write_csv(path: Path, columns: list[str], rows: list[dict[str, Any]]) -> None:
    with path.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=columns, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)


def markdown_table(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return ""
    cols = list(rows[0])
    out = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    out += ["| " + " | ".join(str(r.get(c, "")) for c in cols) + " |" for r in rows]
    return "\n".join(out)


def run_one(repro: Reproduction, out: Path, quick: bool) -> Outcome:
    """Runs a reproduction, writing DIR/ID.csv, ID.png, ID.svg and ID.md."""
    if repro.runner is None:
        raise NetcollError(f"reproduction {repro.id} cannot run: {repro.reason}")
    module, func = repro.runner.split(":")
    outcome: Outcome = getattr(importlib.import_module(module), func)(quick)
    out.mkdir(parents=True, exist_ok=True)
    data = out / f"{repro.id}.csv"
    write_csv(data, outcome.columns, outcome.rows)
    files = [data]
    if outcome.plot is not None:
        files += outcome.plot(out / f"{repro.id}.png")
    note = out / f"{repro.id}.md"
    note.write_text(
        f"# {repro.id}: {repro.figure}\n\n{repro.paper}\n\n"
        f"**Status: {outcome.status}.** {outcome.summary}\n\n"
        + (
            f"## Paper beside netcoll\n\n{markdown_table(outcome.comparison)}\n\n"
            if outcome.comparison
            else ""
        )
        + f"Data: `{data.name}`"
        + (" (quick mode: smaller sizes)" if quick else "")
        + "\n"
    )
    files.append(note)
    outcome.files = [str(f) for f in files]
    return outcome


def run_all(out: Path, quick: bool, progress=None) -> list[tuple[Reproduction, Outcome | None]]:
    results = []
    for repro in REPRODUCTIONS:
        if progress:
            progress(repro)
        outcome = run_one(repro, out, quick) if repro.runner else None
        results.append((repro, outcome))
    return results
