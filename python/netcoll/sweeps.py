"""Sweeps: the cross product of a few axes, each point a simulation, run on one core, on every
core of a machine (processes) or on a cluster (mpi4py's ``MPIPoolExecutor``), with rows that
do not depend on how they were run (docs/scale-out.md).

Two kinds of point: a BookSim configuration with keys overridden (``kind="booksim"``: the flit
engine's synthetic traffic, one row per point and seed), and a collective (``kind="simulate"``
or ``"analyze"``: an algorithm on a network for a message size). Every random choice of a point
takes a seed derived from the point itself (its axis values and the seed's index), never from
the order in which points run, so ``workers=1`` and ``workers=8`` give the same rows.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import os
import re
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Any

from ._core import NetcollError

# Figures every BookSim row carries (the flit engine's scalars), in this order.
TRAFFIC_FIGURES = (
    "avg_packet_latency",
    "avg_network_latency",
    "accepted_rate",
    "offered_rate",
    "cycles",
    "avg_hops",
    "packets_measured",
    "unstable",
)
#: Saturation: accepted below (1 - this) times the offered rate.
ACCEPTED_SLACK = 0.05
RANGE = re.compile(r"^\s*([-+0-9.eE]+)\s*:\s*([-+0-9.eE]+)\s*:\s*([-+0-9.eE]+)\s*$")


def parse_values(key: str, spec: str) -> list[str]:
    """The values of axis ``key`` from ``spec``: a list ``a,b,c`` (commas inside braces, as in
    BookSim's ``{...}`` values, do not split) or a range ``lo:hi:step`` (hi included)."""
    m = RANGE.match(spec)
    if m:
        return _range_values(key, *m.groups())
    values, depth, cur = [], 0, ""
    for ch in spec:
        depth += (ch == "{") - (ch == "}")
        if ch == "," and depth == 0:
            values.append(cur.strip())
            cur = ""
        else:
            cur += ch
    values.append(cur.strip())
    if not spec.strip() or any(v == "" for v in values):
        raise NetcollError(f"--set {key}={spec}: an empty value; give a list a,b,c or lo:hi:step")
    return values


def _range_values(key: str, lo_s: str, hi_s: str, step_s: str) -> list[str]:
    try:
        lo, hi, step = float(lo_s), float(hi_s), float(step_s)
    except ValueError:
        msg = f"--set {key}={lo_s}:{hi_s}:{step_s}: lo, hi and step must be numbers"
        raise NetcollError(msg) from None
    if step == 0 or not all(map(math.isfinite, (lo, hi, step))):
        raise NetcollError(f"--set {key}: the step of {lo_s}:{hi_s}:{step_s} must be non-zero")
    if (hi - lo) * step < 0:
        raise NetcollError(
            f"--set {key}: {lo_s}:{hi_s}:{step_s} is empty (the step goes away from hi); "
            f"give a step of sign {'+' if hi > lo else '-'}"
        )
    count = int(math.floor((hi - lo) / step + 1e-9)) + 1
    if count > 100_000:
        raise NetcollError(f"--set {key}: {count:,} values; at most 100,000 an axis")
    decimals = max(len(s.partition(".")[2].rstrip("0")) for s in (lo_s, step_s))
    integer = all(re.fullmatch(r"[-+]?\d+", s.strip()) for s in (lo_s, hi_s, step_s))
    out = []
    for i in range(count):
        v = lo + i * step
        out.append(str(int(round(v))) if integer else f"{round(v, decimals + 6):.{decimals}f}")
    return out


def parse_axes(items: tuple[str, ...] | list[str]) -> dict[str, list[str]]:
    """``KEY=SPEC`` items -> {key: values}, in the order given."""
    axes: dict[str, list[str]] = {}
    for item in items:
        key, eq, spec = item.partition("=")
        key = key.strip()
        if not eq or not key:
            raise NetcollError(f"'{item}': an axis is KEY=SPEC, as injection_rate=0.05:0.4:0.05")
        if key in axes:
            raise NetcollError(f"axis '{key}' given twice: give its values in one --set")
        axes[key] = parse_values(key, spec)
    return axes


def split_specs(text: str) -> list[str]:
    """Network specs separated by commas: a comma starts a new spec only where a family name
    and a colon follow (``ibt:64x64:b=8,24,mesh:8x8`` is two specs)."""
    return [s for s in re.split(r",(?=[a-z][a-z0-9_-]*:)", text) if s]


def point_seed(point: dict[str, str], index: int) -> int:
    """A seed that depends on the point's axis values and the seed's index only."""
    text = json.dumps(sorted(point.items())) + f"#{index}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "little") & 0x7FFFFFFF


@dataclass
class Task:
    """One unit of work sent to a worker: a point (one or several seeds), or a saturation
    search over injection_rate for one combination of the other axes."""

    index: int
    kind: str  # booksim | saturation | simulate | analyze
    point: dict[str, str]
    seeds: list[int | None] = field(default_factory=lambda: [None])
    settings: dict[str, Any] = field(default_factory=dict)


def run_task(task: Task) -> list[dict[str, Any]]:
    """Runs one task in a worker; returns its rows (errors become rows, not exceptions)."""
    try:
        if task.kind == "saturation":
            return [_saturation(task)]
        return [_run_one(task, seed) for seed in task.seeds]
    except NetcollError as e:  # a point whose configuration is invalid: the sweep goes on
        return [{**task.point, "seed": s, "error": str(e)} for s in task.seeds]


def _run_one(task: Task, seed: int | None) -> dict[str, Any]:
    if task.kind == "booksim":
        row = _traffic(task, task.point, seed)
        return {**task.point, "seed": _seed_used(task, task.point, seed), **row}
    return {**task.point, "seed": seed, **_collective(task.kind, task.point, task.settings, seed)}


def _traffic(task: Task, point: dict[str, str], seed: int | None) -> dict[str, Any]:
    from ._core import simulate_booksim, simulate_traffic

    pairs = list(task.settings.get("overrides", [])) + list(point.items())
    if seed is not None:
        pairs.append(("seed", str(seed)))
    cfg = task.settings.get("config")
    r = simulate_booksim(cfg, pairs) if cfg else simulate_traffic(pairs)
    row = {k: r.get(k) for k in TRAFFIC_FIGURES}
    if r.get("deadlock"):
        row["error"] = f"deadlock at cycle {r['deadlock']['cycle']}"
    return row


def _seed_used(task: Task, point: dict[str, str], seed: int | None) -> int | str | None:
    """The seed a traffic run used, so that its row reproduces it: the sweep's own, else the
    last ``seed`` among the configuration, the overrides and the point (the engine's default
    when none names one)."""
    if seed is not None:
        return seed
    own = point.get("seed", task.settings.get("seed"))
    return int(own) if isinstance(own, str) and own.strip().isdigit() else own


def _collective(kind: str, point: dict[str, str], settings: dict, seed: int | None) -> dict:
    from . import api

    point = dict(point)
    op, algo, topo = point.pop("op"), point.pop("algo"), point.pop("topo")
    nbytes = point.pop("bytes", settings.get("bytes", "1K"))
    params = {**settings.get("params", {}), **point}
    if kind == "analyze":
        fig = api.analyze(op, algo, topo, nbytes=nbytes, params=params)
    else:
        sim = dict(settings.get("sim", {}))
        if seed is not None and settings.get("engine", "flit") == "flit":
            sim["seed"] = str(seed)
        fig = api.simulate(
            op,
            algo,
            topo,
            engine=settings.get("engine", "flit"),
            nbytes=nbytes,
            params=params,
            sim=sim or None,
        )
    from .units import parse_size

    # The point's own values stay as given; the engine's figures of the same name do not
    # overwrite them (the analytic engine's `bytes` is the total moved, not the size).
    row = _scalars(fig, skip={"op", "algo", "topo", "bytes", *point})
    return {"message_bytes": parse_size(nbytes), **row}


def _scalars(fig: dict[str, Any], skip: set[str]) -> dict[str, Any]:
    """The figures a row holds: scalars, and one level of nested dicts as ``outer_inner``."""
    out = {}
    for k, v in fig.items():
        if k in skip:
            continue
        if isinstance(v, dict):
            out.update({f"{k}_{ik}": iv for ik, iv in v.items() if _is_scalar(iv)})
        elif _is_scalar(v):
            out[k] = v
    return out


def _is_scalar(v: Any) -> bool:
    return v is None or isinstance(v, (bool, int, float, str))


def _saturation(task: Task) -> dict[str, Any]:
    """Bisection on injection_rate for one combination of the other axes: the highest rate
    found stable (no unstable verdict, no deadlock, latency within the bound, accepted within
    5% of offered), to within ``tolerance``."""
    lo, hi = task.settings["lo"], task.settings["hi"]
    tol, bound = task.settings["tolerance"], task.settings.get("latency_bound")
    seed = task.seeds[0]
    runs = 0

    def stable(rate: float) -> bool:
        nonlocal runs
        runs += 1
        r = _traffic(task, {**task.point, "injection_rate": f"{rate:.6g}"}, seed)
        lat = r["avg_packet_latency"]
        over = bound is not None and (lat is None or lat > bound)
        # Accepted traffic that falls short of the offered load is saturation too, even where
        # a short run ends before the engine's own unstable verdict can fire.
        short = (r["accepted_rate"] or 0.0) < (1.0 - ACCEPTED_SLACK) * (r["offered_rate"] or 0.0)
        return not (r["unstable"] or r.get("error") or over or short)

    if stable(hi):
        rate, found = hi, False
    else:
        while hi - lo > tol:
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if stable(mid) else (lo, mid)
        rate, found = lo, True
    return {
        **task.point,
        "seed": _seed_used(task, task.point, seed),
        "stat": "saturation",
        "saturation_rate": round(rate, 6),
        "saturated": found,
        "runs": runs,
    }


def mean_rows(rows: list[dict[str, Any]], axes: list[str], figures: tuple[str, ...]) -> list:
    """Per point over its seeds: the mean of every figure and its 95% confidence half-width
    (Student's t), as rows with ``stat = "mean"``."""
    groups: dict[tuple, list[dict]] = {}
    for r in rows:
        if r.get("stat") in (None, "run") and not r.get("error"):
            groups.setdefault(tuple(r.get(a) for a in axes), []).append(r)
    out = []
    for key, members in groups.items():
        row: dict[str, Any] = {**dict(zip(axes, key)), "seed": None, "stat": "mean"}
        row["seeds"] = len(members)
        for f in figures:
            vals = [float(m[f]) for m in members if isinstance(m.get(f), (int, float))]
            if not vals:
                continue
            mu = sum(vals) / len(vals)
            row[f] = mu
            if len(vals) > 1:
                sd = math.sqrt(sum((v - mu) ** 2 for v in vals) / (len(vals) - 1))
                row[f + "_ci95"] = _t95(len(vals) - 1) * sd / math.sqrt(len(vals))
        out.append(row)
    return out


def _t95(dof: int) -> float:
    """Student's t, two-sided 95% (the 0.975 quantile), for ``dof`` degrees of freedom: the
    printed table to 30, then Abramowitz & Stegun 26.7.5's expansion about the normal
    quantile (its error falls below 1e-4 beyond 30; no scipy dependency for one number)."""
    if dof <= len(_T975):
        return _T975[dof - 1]
    x = 1.959963984540054  # the normal 0.975 quantile
    g = (
        (x**3 + x) / 4,
        (5 * x**5 + 16 * x**3 + 3 * x) / 96,
        (3 * x**7 + 19 * x**5 + 17 * x**3 - 15 * x) / 384,
        (79 * x**9 + 776 * x**7 + 1482 * x**5 - 1920 * x**3 - 945 * x) / 92160,
    )
    return x + sum(gi / dof ** (i + 1) for i, gi in enumerate(g))


# The 0.975 quantile of Student's t for 1..30 degrees of freedom (the standard table).
_T975 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip


def under_mpi_futures() -> bool:
    """True when started by ``mpiexec -n N python -m mpi4py.futures -m netcoll ...`` with
    more than one rank: the points then go to mpi4py's MPIPoolExecutor."""
    if "mpi4py.futures" not in sys.modules:
        return False
    from mpi4py import MPI

    return MPI.COMM_WORLD.Get_size() > 1


def make_executor(workers: int) -> Executor | None:
    """The pool the points run in: none for one worker (in this process), mpi4py's
    MPIPoolExecutor under ``python -m mpi4py.futures``, else a pool of processes."""
    if under_mpi_futures():
        from mpi4py.futures import MPIPoolExecutor

        return MPIPoolExecutor()
    if workers <= 1:
        return None
    # Not fork: a forked child inherits the Rust core's thread pool (rayon) with whatever
    # locks its threads held at that instant, and can hang on its first simulation.
    return ProcessPoolExecutor(max_workers=workers, mp_context=get_context("forkserver"))


def default_workers(threads: int = 1) -> int:
    """One worker a core, divided by the flit engine's threads a worker (W*T <= cores)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, (cores or 1) // max(1, threads))


def run_tasks(
    tasks: list[Task], workers: int, on_rows: Callable[[list[dict]], None] | None = None
) -> Iterator[tuple[Task, list[dict]]]:
    """Runs ``tasks``, yielding (task, rows) as each finishes (any order); the caller sorts
    by ``task.index``."""
    executor = make_executor(workers)
    if executor is None:
        for t in tasks:
            yield t, run_task(t)
        return
    with executor:
        # Longest first: a saturation search is several runs in series, so started last it
        # would run alone at the end while the other workers idle.
        ordered = sorted(tasks, key=lambda t: t.kind != "saturation")
        futures: dict[Future, Task] = {executor.submit(run_task, t): t for t in ordered}
        try:
            for f in as_completed(futures):
                yield futures[f], f.result()
        except BaseException:
            for f in futures:
                f.cancel()
            raise


def cross(axes: dict[str, list[str]]) -> list[dict[str, str]]:
    """Every point of the cross product of the axes, the first axis slowest."""
    keys = list(axes)
    return [dict(zip(keys, combo)) for combo in itertools.product(*axes.values())]
