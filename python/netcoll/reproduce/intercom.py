"""InterCom (seed 001): Fig. 2 (predicted hybrid broadcasts on a 30-node linear array) and a
Table 3 analogue measured over MPI on this machine."""

from __future__ import annotations

import os
from pathlib import Path

from .. import _core, models
from ..networks import topology
from .models import TABLE_2
from .outcome import Outcome
from .plots import pyplot, save

# Machine parameters "similar to those of the Paragon" (s6, Fig. 2). The paper prints none;
# we take a 100 us start-up and 100 MB/s (1e-8 s per byte), settable through the
# environment for other machines.
ALPHA = float(os.environ.get("NETCOLL_FIG2_ALPHA", "1e-4"))
BETA = float(os.environ.get("NETCOLL_FIG2_BETA", "1e-8"))
P = 30


def _lengths(quick: bool) -> list[int]:
    """Multiples of 30, so that the schedules' 30 blocks are whole bytes and the engine's
    time is exactly the model's (elsewhere it rounds blocks up to whole bytes)."""
    step = 2 if quick else 1
    return [P * 2**i for i in range(1, 18, step)]


def _hybrids() -> list[tuple[str, str]]:
    """Table 2's hybrids (each once) in the table's order."""
    seen, out = set(), []
    for dims, strategy, _, _ in TABLE_2:
        if (dims, strategy) not in seen:
            seen.add((dims, strategy))
            out.append((dims, strategy))
    return out


def _schedule_time(dims: str, strategy: str, n: int) -> float:
    """The analytic engine's Hockney round time of the built, verified schedule."""
    figures, _ = _core.schedule_figures(
        "bcast", "intercom-hybrid", topology(f"mesh:{P}"), nbytes=n,
        params=[f"dims={dims}", f"strategy={strategy}"], machine={"alpha": ALPHA, "beta": BETA},
    )  # fmt: skip
    return figures["times"]["hockney_rounds"]


def _best_hybrid(n: int, options) -> tuple[str, float]:
    best = min(options, key=lambda o: float(o["alpha"]) * ALPHA + float(o["nbeta"]) * n * BETA)
    t = float(best["alpha"]) * ALPHA + float(best["nbeta"]) * n * BETA
    return f"{'x'.join(map(str, best['dims']))} {best['strategy']}", t


def fig2(quick: bool) -> Outcome:
    hybrids, options = _hybrids(), models.hybrid_broadcast_options(P)
    rows, worst = [], 0.0
    check_at = set(_lengths(quick)[:: 4 if quick else 1])
    for n in _lengths(quick):
        row: dict = {"bytes": n}
        for dims, strategy in hybrids:
            a, b = models.hybrid_broadcast_cost(dims, strategy)
            t = a * ALPHA + b * n * BETA
            row[f"{dims} {strategy}"] = t
            if n in check_at:
                s = _schedule_time(dims, strategy, n)
                worst = max(worst, abs(s - t) / t)
        row["best of Table 2"] = min(hybrids, key=lambda h: row[f"{h[0]} {h[1]}"])
        row["best of Table 2"] = " ".join(row["best of Table 2"])
        row["best hybrid of 30 (any)"], row["best time"] = _best_hybrid(n, options)
        rows.append(row)
    winners = []
    for r in rows:
        if not winners or winners[-1][0] != r["best of Table 2"]:
            winners.append((r["best of Table 2"], r["bytes"]))
    comparison = [
        {"message length from": f"{n} B", "fastest Table 2 hybrid": w} for w, n in winners
    ]

    def plot(png: Path):
        plt = pyplot()
        fig, ax = plt.subplots(figsize=(8, 5))
        ns = [r["bytes"] for r in rows]
        for dims, strategy in hybrids:
            key = f"{dims} {strategy}"
            ax.plot(ns, [r[key] * 1e3 for r in rows], marker=".", label=key)
        ax.plot(ns, [r["best time"] * 1e3 for r in rows], "k:", lw=2,
                label="best hybrid of 30 (any shape)")  # fmt: skip
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("message length n (bytes)")
        ax.set_ylabel(f"predicted time (ms), alpha={ALPHA * 1e6:g} us, beta={BETA * 1e9:g} ns/B")
        ax.set_title("Seed 001 Fig. 2: broadcast hybrids on a linear array of 30 nodes")
        ax.grid(alpha=0.3, which="both")
        ax.legend(fontsize=7, title="logical mesh, strategy", title_fontsize=7)
        return save(fig, png)

    for r in rows:
        for k, v in r.items():
            if isinstance(v, float):
                r[k] = float(f"{v:.6g}")
    return Outcome(
        status="approximates",
        summary=(
            "Predicted cost (alpha-beta model with InterCom's conflict factors) of Table 2's "
            f"hybrids against message length, alpha = {ALPHA:g} s, beta = {BETA:g} s/B (the "
            "paper says only 'similar to the Paragon'; the figure's curves are not printed, so "
            "the shape is compared: MST wins short vectors, scatter/collect hybrids long "
            "ones, the others in between). The analytic engine's round time of every built "
            f"schedule agrees with the model within {worst:.1e} (relative) at the checked "
            "lengths. The (3x10, SMC) curve uses our cost 8 alpha + 160/30 n beta, not the "
            "printed 16 alpha + 240/30 n beta (see intercom-table2)."
        ),
        columns=list(rows[0]),
        rows=rows,
        comparison=comparison,
        plot=plot,
    )


# ---------------------------------------------------------------- Table 3 analogue over MPI

# Seed 001 Table 3 (16 x 32 Paragon, seconds): the OCR of the table keeps these rows; the
# assignment of rows to operations is not certain in the text we have, so we show them only.
TABLE_3_PRINTED = [
    ("8", 0.27, 0.0035, 77.1),
    ("64K", 0.32, 0.013, 24.6),
    ("1M", 0.94, 0.075, 12.5),
    ("8", 0.0036, 0.0041, 0.88),
    ("64K", 0.031, 0.012, 2.58),
    ("1M", 0.51, 0.10, 5.10),
    ("64K", 0.17, 0.024, 7.10),
    ("1M", 2.72, 0.17, 16.0),
]
RANKS = 4
OPS = [("broadcast", "bcast"), ("allgather", "collect"), ("allreduce", "global sum")]
ALGOS = ("intercom-short", "intercom-long")


def _mpi_missing() -> str | None:
    try:
        import mpi4py  # noqa: F401

        from ..mpi.launch import RunError, mpiexec

        try:
            mpiexec()
        except RunError as e:
            return str(e)
    except ImportError as e:
        return f"mpi4py is not installed ({e}): pip install mpi4py mpich"
    return None


def _measure(kind: str, sizes: list[int], iters: int) -> dict:
    from ..mpi.launch import launch

    reduction = kind == "allreduce"
    cfg = {
        "kind": kind, "root": 0, "op": "sum" if reduction else None,
        "dtype": "float64" if reduction else "uint8", "sizes": sizes, "packets": 1,
        "params": [], "topo": None, "iters": iters, "warmup": 1, "native": True,
        "check": True, "seed": 1, "placement": None,
        "candidates": [{"name": a, "algo": a} for a in ALGOS],
    }  # fmt: skip
    report = launch(RANKS, cfg, timeout=120)
    if "error" in report:
        raise _core.NetcollError(report["error"])
    return report["results"]


def _cannot(why: str) -> Outcome:
    """No measurement: the note and a figure say why, so the report stays uniform."""

    def plot(png: Path):
        plt = pyplot()
        fig, ax = plt.subplots(figsize=(7, 1.6))
        ax.axis("off")
        ax.text(0.5, 0.5, f"Table 3 analogue not measured:\n{why}", ha="center", va="center",
                wrap=True, fontsize=9)  # fmt: skip
        return save(fig, png)

    return Outcome(status="cannot", summary=why, columns=["operation", "bytes"], rows=[],
                   plot=plot)  # fmt: skip


def table3(quick: bool) -> Outcome:
    missing = _mpi_missing()
    if missing:
        return _cannot(f"MPI is not available in this environment: {missing}")
    from ..mpi.launch import RunError

    sizes = [8, 65536] if quick else [8, 65536, 1 << 20]
    ops = OPS[:1] if quick else OPS  # one launch (about 3 s) in quick mode
    rows = []
    for kind, label in ops:
        try:
            results = _measure(kind, sizes, 5 if quick else 30)
        except RunError as e:
            return _cannot(f"the MPI run failed: {e}")
        for i, n in enumerate(sizes):
            per = {a: results[a][i] for a in ALGOS if a in results}
            native = min(r["native_time"] for r in per.values())
            best = min(per, key=lambda a: per[a]["time"])
            rows.append(
                {
                    "operation": f"{kind} ({label})",
                    "bytes": n,
                    "mpich_native_s": float(f"{native:.4g}"),
                    **{f"{a}_s": float(f"{per[a]['time']:.4g}") for a in per},
                    "netcoll_best": best,
                    "ratio_native_over_netcoll": round(native / per[best]["time"], 3),
                    "verified": all(r["verified"] for r in per.values()),
                }
            )
    comparison = [
        {"paper length": ln, "NX (s)": nx, "InterCom (s)": ic, "ratio NX/InterCom": ratio}
        for ln, nx, ic, ratio in TABLE_3_PRINTED
    ]

    def plot(png: Path):
        plt = pyplot()
        fig, ax = plt.subplots(figsize=(8, 4.5))
        labels = [f"{r['operation'].split()[0]}\n{r['bytes']} B" for r in rows]
        xs = range(len(rows))
        w = 0.27
        ax.bar([x - w for x in xs], [r["mpich_native_s"] for r in rows], w, label="MPICH native")
        for k, a in enumerate(ALGOS):
            ax.bar([x + k * w for x in xs], [r.get(f"{a}_s", 0) for r in rows], w,
                   label=f"netcoll {a}")  # fmt: skip
        ax.set_xticks(list(xs), labels, fontsize=7)
        ax.set_yscale("log")
        ax.set_ylabel("time (s), median of the per-iteration max over ranks")
        ax.set_title(
            f"Seed 001 Table 3 analogue: {RANKS} MPI ranks on this machine (not a Paragon)"
        )
        ax.grid(alpha=0.3, axis="y", which="both")
        ax.legend(fontsize=8)
        return save(fig, png)

    wins = sum(r["ratio_native_over_netcoll"] > 1 for r in rows)
    return Outcome(
        status="approximates",
        summary=(
            f"An analogue, not the Paragon: {RANKS} MPICH ranks on this {os.cpu_count()}-core "
            "machine (oversubscribed when ranks exceed cores), netcoll's InterCom schedules "
            "(short- and long-vector) run by netcoll's MPI executor against MPICH's own "
            f"collectives, every result checked. netcoll is faster in {wins} of {len(rows)} "
            "cases. The paper's 10-80x gains came from NX's naive collectives on a 512-node "
            "mesh; MPICH's collectives are themselves tuned, and netcoll's executor is "
            "Python, so the printed ratios are not expected here. The paper's rows are listed "
            "for reference only (the OCR of Table 3 loses which operation each row belongs to)."
        ),
        columns=list(rows[0]),
        rows=rows,
        comparison=comparison,
        plot=plot,
    )
