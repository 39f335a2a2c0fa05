"""A sweep as a study: the tasks of a BookSim or collective sweep, their rows in a stable order,
a journal to resume from, the CSV and the plot, and :func:`sweep`, the Python entry point that
returns a pandas DataFrame (docs/scale-out.md)."""

from __future__ import annotations

import contextlib
import csv
import json
import math
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ._core import NetcollError
from .sweeps import (
    TRAFFIC_FIGURES,
    Task,
    cross,
    default_workers,
    mean_rows,
    parse_axes,
    point_seed,
    run_tasks,
    split_specs,
    under_mpi_futures,
)

JOURNAL = "sweep.jsonl"


def booksim_tasks(
    config: str | None,
    overrides: list[tuple[str, str]],
    axes: dict[str, list[str]],
    seeds: int = 1,
    saturation: dict[str, Any] | None = None,
) -> list[Task]:
    """The tasks of a BookSim sweep: every point of the axes with ``seeds`` seeds (one seed:
    the configuration's own), and with ``saturation`` one bisection on injection_rate per
    combination of the other axes."""
    if seeds < 1:
        raise NetcollError(f"--seeds {seeds}: give 1 or more")
    settings = {"config": config, "overrides": overrides, "seed": _own_seed(config, overrides)}
    tasks = [Task(i, "booksim", p, _seeds(p, seeds), settings) for i, p in enumerate(cross(axes))]
    if saturation is not None:
        others = {k: v for k, v in axes.items() if k != "injection_rate"}
        rates = [float(r) for r in axes.get("injection_rate", [])]
        lo, hi = (0.0, max(rates)) if rates else (0.0, 1.0)
        sat = {**settings, "lo": lo, "hi": hi, **saturation}
        for p in cross(others):
            tasks.append(Task(len(tasks), "saturation", p, _seeds(p, 1), sat))
    return tasks


def collective_tasks(
    kind: str,
    op: str,
    algos: list[str],
    topos: list[str],
    sizes: list[str],
    axes: dict[str, list[str]] | None = None,
    seeds: int = 1,
    settings: dict[str, Any] | None = None,
) -> list[Task]:
    """The tasks of a collective sweep: algorithms x networks x sizes x parameter axes."""
    grid = {"op": [op], "algo": algos, "topo": topos, "bytes": sizes, **(axes or {})}
    return [
        Task(i, kind, p, _seeds(p, seeds) if seeds > 1 else [None], settings or {})
        for i, p in enumerate(cross(grid))
    ]


def pin_threads(
    config: str | None, overrides: list[tuple[str, str]], axes: dict, workers: int | None
) -> tuple[int, list[tuple[str, str]]]:
    """The workers and the overrides of a BookSim sweep so that W workers of T flit threads
    use at most W*T cores: W defaults to cores / T, and where ``threads`` is left to the
    engine (0: every core from 1,024 routers) several workers pin it to one (the figures are
    the same for every thread count)."""
    pairs = _config_pairs(config)
    given = [v for k, v in [*pairs, *overrides] if k == "threads"][-1:] + axes.get("threads", [])
    counts = [int(v) for v in given if v.strip().isdigit()]
    threads = max(counts) if counts else 0
    w = workers or default_workers(max(threads, 1))
    if threads == 0 and (w > 1 or under_mpi_futures()):
        overrides = [*overrides, ("threads", "1")]
    return w, overrides


def _config_pairs(config: str | None) -> list[tuple[str, str]]:
    """The (key, value) pairs of a BookSim configuration file (none without one)."""
    from ._core import parse_booksim_config

    if not config:
        return []
    try:
        text = Path(config).read_text()
    except OSError as e:
        raise NetcollError(f"{config}: {e.strerror}; give a BookSim configuration file") from None
    return [tuple(p) for p in parse_booksim_config(text, str(config))]


def _own_seed(config: str | None, overrides: list[tuple[str, str]]) -> str:
    """The seed of a run the sweep does not seed: the last ``seed`` of the configuration file
    and the overrides, else the flit engine's default."""
    from ._core import flit_defaults

    seeds = [v for k, v in [*_config_pairs(config), *overrides] if k == "seed"]
    return seeds[-1] if seeds else str(flit_defaults()["seed"])


def _seeds(point: dict[str, str], n: int) -> list[int | None]:
    return [None] if n == 1 else [point_seed(point, i) for i in range(n)]


def _task_key(t: Task) -> str:
    return json.dumps([t.kind, sorted(t.point.items()), t.seeds])


def run_study(
    tasks: list[Task],
    workers: int,
    out_dir: Path | None = None,
    resume: bool = False,
    advance: Callable[[int], None] | None = None,
) -> list[dict[str, Any]]:
    """Runs the tasks (those already in the journal of ``out_dir`` skipped with ``resume``);
    rows in task order, whatever order they finished in. Each finished task is appended to the
    journal at once, so an interrupted sweep loses only the points that were running."""
    done: dict[str, list[dict]] = {}
    journal = None
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
        path = out_dir / JOURNAL
        if resume and path.is_file():
            for line in path.read_text().splitlines():
                entry = json.loads(line)
                done[entry["key"]] = entry["rows"]
        elif path.exists():
            path.unlink()
        journal = path.open("a")
    keys = {id(t): _task_key(t) for t in tasks}  # each task's journal key, made once
    todo = [t for t in tasks if keys[id(t)] not in done]
    if advance:
        advance(len(tasks) - len(todo))
    try:
        for task, rows in run_tasks(todo, workers):
            key = keys[id(task)]  # run_tasks yields the task objects it was given
            done[key] = rows
            if journal:
                journal.write(json.dumps({"key": key, "rows": rows}) + "\n")
                journal.flush()
            if advance:
                advance(1)
    finally:
        if journal:
            journal.close()
    return [r for t in tasks if keys[id(t)] in done for r in done[keys[id(t)]]]


def finish_rows(rows: list[dict], axes: list[str], seeds: int) -> list[dict]:
    """The rows of every run (``stat = "run"``), then with several seeds each point's mean and
    95% confidence half-width, then the saturation rows."""
    rows = [_typed(r, axes) for r in rows]
    runs = [{**r, "stat": "run"} for r in rows if r.get("stat") != "saturation"]
    out = list(runs)
    if seeds > 1:
        figures = tuple(k for k in _figure_keys(runs) if k not in axes)
        out += mean_rows(runs, axes, figures)
    return out + [r for r in rows if r.get("stat") == "saturation"]


def _typed(row: dict, axes: list[str]) -> dict:
    """Axis values as numbers where they are numbers (they travel as text to the engines)."""
    out = dict(row)
    for a in axes:
        v = out.get(a)
        if isinstance(v, str):
            with contextlib.suppress(ValueError):
                out[a] = int(v) if re.fullmatch(r"[-+]?\d+", v) else float(v)
    return out


def _figure_keys(rows: list[dict]) -> list[str]:
    keys: dict[str, None] = {}
    for r in rows:
        for k, v in r.items():
            if isinstance(v, (int, float)) and not isinstance(v, bool) and k != "seed":
                keys[k] = None
    return list(keys)


def write_csv(rows: list[dict], path: Path) -> None:
    """Every row, one column per key that any row has (first appearance order)."""
    columns: dict[str, None] = {}
    for r in rows:
        columns.update(dict.fromkeys(r))
    with path.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(columns))
        w.writeheader()
        w.writerows(rows)


def plot(rows: list[dict], axes: list[str], path: Path) -> None:
    """Latency against load (BookSim sweeps) or time against size (collective sweeps), one
    line per combination of the other axes; log-log where the x axis spans decades."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    x_key, y_key = _plot_keys(rows, axes)
    seeds_mean = any(r.get("stat") == "mean" for r in rows)
    shown = [r for r in rows if r.get("stat") == ("mean" if seeds_mean else "run")]
    lines: dict[tuple, list[dict]] = {}
    others = [a for a in axes if a != x_key and len({str(r.get(a)) for r in shown}) > 1]
    for r in shown:
        if isinstance(r.get(y_key), (int, float)) and not r.get("error"):
            lines.setdefault(tuple(r.get(a) for a in others), []).append(r)
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for key, pts in sorted(lines.items(), key=lambda kv: str(kv[0])):
        pts.sort(key=lambda r: float(r[x_key]))
        xs, ys = [float(r[x_key]) for r in pts], [float(r[y_key]) for r in pts]
        err = [r.get(y_key + "_ci95", 0.0) or 0.0 for r in pts]
        label = ", ".join(f"{a}={v}" for a, v in zip(others, key)) or None
        ax.errorbar(xs, ys, yerr=err if any(err) else None, marker="o", ms=3, label=label)
    xs_all = [float(r[x_key]) for pts in lines.values() for r in pts if float(r[x_key]) > 0]
    if xs_all and max(xs_all) / min(xs_all) >= 100:
        ax.set_xscale("log")
        ax.set_yscale("log")
    for r in rows:
        if r.get("stat") == "saturation":
            ax.axvline(r["saturation_rate"], ls=":", color="grey")
    ax.set_xlabel(x_key)
    ax.set_ylabel(y_key)
    if any(k for k in lines if k):
        ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def _plot_keys(rows: list[dict], axes: list[str]) -> tuple[str, str]:
    if "injection_rate" in axes:
        return "injection_rate", "avg_packet_latency"
    if "bytes" in axes:
        figures = _figure_keys(rows)
        y = next((k for k in ("cycles", "time_s", "steps", "sim_steps") if k in figures), None)
        return "message_bytes", y or figures[0]
    numeric = [a for a in axes if _numeric(rows, a)]
    x = numeric[0] if numeric else axes[0]
    return x, "avg_packet_latency" if "avg_packet_latency" in _figure_keys(rows) else "cycles"


def _numeric(rows: list[dict], key: str) -> bool:
    try:
        return all(math.isfinite(float(r[key])) for r in rows if key in r)
    except (TypeError, ValueError):
        return False


def sweep(
    booksim: str | None = None,
    axes: dict[str, Any] | list[str] | None = None,
    *,
    op: str | None = None,
    algos: list[str] | str | None = None,
    topos: list[str] | str | None = None,
    sizes: list[str | int] | str | None = None,
    engine: str = "flit",
    analyze: bool = False,
    overrides: dict[str, Any] | None = None,
    seeds: int = 1,
    saturation: bool = False,
    workers: int | None = None,
    out_dir: str | Path | None = None,
):
    """Runs a sweep and returns its rows as a pandas DataFrame, one row per point (and seed).

    BookSim: ``netcoll.sweep("mesh88.cfg", {"injection_rate": "0.05:0.4:0.05"}, seeds=3)``;
    ``booksim=None`` starts from netcoll's defaults. Collectives:
    ``netcoll.sweep(op="allreduce", algos=["ring", "rabenseifner"], topos="mesh:8x8",
    sizes="1K,64K,1M", engine="step")`` (``analyze=True``: the analytic engine). ``axes``:
    {key: "a,b,c" | "lo:hi:step" | list}. ``workers``: processes (default: one a core)."""
    import pandas as pd

    items = (
        [f"{k}={_spec_text(v)}" for k, v in (axes or {}).items()]
        if isinstance(axes, dict)
        else list(axes or [])
    )
    parsed = parse_axes(items)
    if op is None:
        pairs = [(k, str(v)) for k, v in (overrides or {}).items()]
        sat = {"tolerance": 0.005} if saturation else None
        workers, pairs = pin_threads(booksim, pairs, parsed, workers)
        tasks = booksim_tasks(booksim, pairs, parsed, seeds, sat)
        names = list(parsed)
    else:
        sizes_list = (
            sizes.split(",") if isinstance(sizes, str) else [str(s) for s in sizes or ["1K"]]
        )
        tasks = collective_tasks(
            "analyze" if analyze else "simulate",
            op,
            algos.split(",") if isinstance(algos, str) else list(algos or []),
            split_specs(topos) if isinstance(topos, str) else list(topos or []),
            sizes_list,
            parsed,
            seeds,
            {"engine": engine, "sim": {k: str(v) for k, v in (overrides or {}).items()}},
        )
        names = ["op", "algo", "topo", "bytes", *parsed]
    out = None if out_dir is None else Path(out_dir)
    rows = finish_rows(run_study(tasks, workers or default_workers(), out), names, seeds)
    return pd.DataFrame(rows)


def _spec_text(v: Any) -> str:
    return ",".join(map(str, v)) if isinstance(v, (list, tuple)) else str(v)


__all__ = ["TRAFFIC_FIGURES", "sweep"]
