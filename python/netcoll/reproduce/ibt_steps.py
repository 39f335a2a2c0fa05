"""Shared pieces of the seed-004 broadcast reproductions: step-engine runs (cached), the torus
closed forms (4)-(6) at a real radix, the paper's fitted curves and a grid plot."""

from __future__ import annotations

import math
import time
from functools import cache, lru_cache
from pathlib import Path

from .. import _core
from ..networks import topology
from .plots import pyplot, save
from .progress import progress_bar

K = 32  # the paper's message: 32 packets (s4.1)
FAVOURABLE = "1,3,5,7"  # the odd patterns the paper keeps after Fig. 1 (s4.3, s5.1)
# A cheaper rectangular search: patterns {1,3} for each colour and an even split. Used in
# quick mode and above RECT_FULL_SEARCH_MAX nodes (the full search is 16 pattern pairs x 5
# splits = 80 runs: 8 min at 10^6 nodes). At 64^2 it is within one step of the full search.
RECT_RESTRICTED = ("patterns=1,3", "k1=16")
RECT_FULL_SEARCH_MAX = 70_000

# Fitted curves printed by the paper: (coefficient, exponent, constant) of c N^e + a.
TX_FITS = {  # Table 2
    (2, "8"): (0.0625, 0.5, 21.0),
    (2, "8,32"): (2.15, 0.17, 12.51),
    (3, "6"): (2.79, 0.16, 0.0),
    (4, "8"): (4.01, 0.1, 0.0),
}
TXY_FITS = {  # (7.1)-(7.3)
    (2, "8,32"): (1.75, 0.2, 16.22),
    (3, "6"): (0.54, 0.27, 14.97),
    (4, "8"): (1.09, 0.16, 14.15),
}
TALL_FITS = {  # (8.1) is printed identical to (7.1), labelled n^2 although s6.2 is about d = 3, 4
    (2, "8,32"): (1.75, 0.2, 16.22),
    (3, "6"): (0.54, 0.28, 14.71),
}
FIT_NAMES = {"T_x": "Table 2", "T_xy": "(7.x)", "T_all": "(8.x)"}
FITS = {"T_x": TX_FITS, "T_xy": TXY_FITS, "T_all": TALL_FITS}
# The fits are to "middle-sized" networks (s7); s4.2 gives 2K-65K nodes for the 2-D ones.
FIT_RANGE = (2_000, 70_000)


def fit(metric: str, d: int, b: str, n_nodes: float) -> float | None:
    c = FITS[metric].get((d, b))
    return None if c is None else c[0] * n_nodes ** c[1] + c[2]


def ibt_spec(n: int, d: int, b: str) -> str:
    return f"ibt:{'x'.join([str(n)] * d)}:b={b}"


def valid_ibt(n: int, d: int, b: str) -> bool:
    """The construction's conditions (docs/topology.md): d*k divides n and every bypass
    length, and every bypass is shorter than n."""
    lengths = [int(x) for x in b.split(",")]
    m = d * len(lengths)
    return n % m == 0 and all(length % m == 0 and 2 <= length < n for length in lengths)


# Torus closed forms at a real radix m (the same-degree torus Torus(m^(d+1)), m = N^(1/(d+1)),
# is rarely an integer; the paper's beta uses m = n^(d/(d+1)) as a real number).
def torus_tx(m: float) -> float:
    return m / 2 + math.ceil(K / 2) - 1  # (4)


def torus_txy(m: float) -> float:
    return 2 * m + math.ceil(K / 4) - 3  # (6)


def torus_tall(m: float, dims: int) -> float:
    return dims * (m - 1) + math.ceil(K / (2 * dims)) - 1  # (5)


def torus_formula(metric: str, m: float, dims: int) -> float:
    if metric == "T_x":
        return torus_tx(m)
    if metric == "T_xy":
        return torus_txy(m)
    return torus_tall(m, dims)


ALGO = {"T_x": "line", "T_xy": "rect", "T_all": "global"}


@lru_cache(maxsize=2)
def _network(spec: str):
    return topology(spec)


@cache
def broadcast(spec: str, algo: str, root: int = 0, params: tuple[str, ...] = ()) -> dict:
    """One protocol run (or pattern search) on the step engine, k = 32; cached so that figures
    sharing a network (e.g. Fig. 10 and Figs. 7, 8) run it once per process."""
    start = time.perf_counter()
    r = _core.step_broadcast(_network(spec), algo, root=root, packets=K, params=list(params))
    return {
        "steps": r["steps"],
        "pattern": r["pattern"],
        "split": "/".join(str(s) for s in r["split"]),
        "lower_bound": r["lower_bound"],
        "tried": [(tuple(t["patterns"]), t["steps"]) for t in r["tried"]],
        "seconds": round(time.perf_counter() - start, 3),
    }


def search_params(metric: str, n_nodes: int, quick: bool, forward: str = "order") -> tuple:
    """The pattern search of each metric (s4.2-s6.1: Int(pn) in {1,3,5,7}); the rectangular
    one also searches |k1 - k2| <= 4 unless restricted (quick, or above 70K nodes)."""
    extra = () if forward == "order" else (f"forward={forward}",)
    if metric == "T_xy":
        restricted = quick or n_nodes > RECT_FULL_SEARCH_MAX
        return (RECT_RESTRICTED if restricted else ()) + extra
    return (f"patterns={FAVOURABLE}",) + extra


def run_jobs(jobs: list[tuple], quick: bool, label: str) -> list[dict]:
    """jobs: (spec, algo, root, params) tuples; a progress bar in full mode."""
    out = []
    with progress_bar(label, len(jobs), enabled=not quick) as advance:
        for spec, algo, root, params in jobs:
            out.append(broadcast(spec, algo, root, tuple(params)))
            advance(spec)
    return out


def grid_plot(png: Path, title: str, panels, xlabel: str, logx: bool = True, ncols: int = 2):
    """panels: [(title, ylabel, [(label, xs, ys, style), ...]), ...] on a grid, legends outside
    the data when a panel has many series."""
    plt = pyplot()
    nrows = math.ceil(len(panels) / ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(6.5 * ncols, 4.6 * nrows), squeeze=False)
    flat = [ax for row in axes for ax in row]
    for ax, (ptitle, ylabel, series) in zip(flat, panels):
        for label, xs, ys, style in series:
            ax.plot(xs, ys, label=label, **style)
        ax.set_title(ptitle, fontsize=10)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        if logx:
            ax.set_xscale("log", base=2)
        ax.grid(alpha=0.3)
        if len(series) > 6:  # many curves: the legend beside the panel, not over the data
            ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
        else:
            ax.legend(fontsize=7)
    for ax in flat[len(panels) :]:
        ax.set_visible(False)
    fig.suptitle(title)
    fig.tight_layout()
    return save(fig, png)
