"""Running reproductions: each writes its CSV data, figures, a markdown note beside the
paper's numbers and a JSON record."""

from __future__ import annotations

import csv
import importlib
import json
import time
from pathlib import Path
from typing import Any

from .._core import NetcollError
from . import registry
from .outcome import Outcome, Reproduction


def write_csv(path: Path, columns: list[str], rows: list[dict[str, Any]]) -> None:
    with path.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=columns, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)


def markdown_table(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return ""
    cols = list(rows[0])

    def cell(value: Any) -> str:
        return str(value).replace("|", "\\|")  # a bare pipe would split the cell

    out = ["| " + " | ".join(cell(c) for c in cols) + " |", "|" + "---|" * len(cols)]
    out += ["| " + " | ".join(cell(r.get(c, "")) for c in cols) + " |" for r in rows]
    return "\n".join(out)


def run_one(repro: Reproduction, out: Path, quick: bool) -> Outcome:
    """Runs a reproduction, writing DIR/ID.csv, ID.png, ID.svg and ID.md."""
    if repro.runner is None:
        raise NetcollError(f"reproduction {repro.id} cannot run: {repro.reason}")
    start = time.perf_counter()
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
        + (
            f"## Compared numbers\n\n{markdown_table([n.json() for n in outcome.numbers])}\n\n"
            if outcome.numbers
            else ""
        )
        + f"Data: `{data.name}`"
        + (" (quick mode: smaller sizes)" if quick else "")
        + "\n"
    )
    files.append(note)
    record = out / f"{repro.id}.json"
    files.append(record)
    outcome.files = [str(f) for f in files]
    outcome.seconds = round(time.perf_counter() - start, 3)
    record.write_text(json.dumps(outcome.json(repro.id), indent=2) + "\n")
    return outcome


def failed(repro: Reproduction, error: BaseException) -> Outcome:
    """The outcome of a runner that raised: status ``error`` with the one-line reason."""
    return Outcome(
        status="error",
        summary=f"{repro.id} failed: {type(error).__name__}: {error}",
        columns=[],
        rows=[],
    )


def run_all(
    out: Path, quick: bool, progress=None, done=None, workers: int = 1
) -> list[tuple[Reproduction, Outcome | None]]:
    """Runs every runnable reproduction. ``progress(repro)`` is called before each one and
    ``done(repro, outcome)`` after it. A runner that raises does not stop the others: its
    outcome has status ``error`` (the report shows it; `netcoll reproduce --all` then exits
    with status 1). ``workers`` > 1 runs them in processes (or on MPI ranks under
    ``python -m mpi4py.futures``), the executor of `netcoll sweep`; results in registry order."""
    repros = list(registry.REPRODUCTIONS)  # read at call time (tests narrow the list)
    if workers > 1:
        return _run_parallel(repros, out, quick, progress, done, workers)
    results = []
    for repro in repros:
        if progress:
            progress(repro)
        outcome = _guarded(repro, out, quick)
        results.append((repro, outcome))
        if done:
            done(repro, outcome)
    return results


def _guarded(repro: Reproduction, out: Path, quick: bool) -> Outcome | None:
    if not repro.runner:
        return None
    try:
        return run_one(repro, out, quick)
    except Exception as e:  # one broken reproduction must not hide the others
        return failed(repro, e)


def _run_by_id(ident: str, out: Path, quick: bool) -> Outcome | None:
    """In a worker process: one reproduction by id; the outcome travels back without its plot
    function (the plot is already written)."""
    outcome = _guarded(registry.find(ident), out, quick)
    if outcome is not None:
        outcome.plot = None
    return outcome


def _run_parallel(repros, out, quick, progress, done, workers):
    from concurrent.futures import as_completed

    from ..sweeps import make_executor

    by_id = {r.id: r for r in repros}
    outcomes: dict[str, Outcome | None] = {}
    with make_executor(workers) as pool:
        futures = {pool.submit(_run_by_id, r.id, out, quick): r for r in repros if r.runner}
        for r in repros:
            if progress:
                progress(r)
        for f in as_completed(futures):
            r = futures[f]
            outcomes[r.id] = f.result()
            if done:
                done(r, outcomes[r.id])
    for r in repros:
        if not r.runner and done:
            done(r, None)
    return [(by_id[r.id], outcomes.get(r.id)) for r in repros]


def status_counts(
    reproductions: list[Reproduction], outcomes: dict[str, Outcome | None] | None = None
) -> dict[str, dict[str, int]]:
    """Paper key -> status -> count; a run's outcome status wins over the listed one."""
    counts: dict[str, dict[str, int]] = {}
    for r in reproductions:
        o = (outcomes or {}).get(r.id)
        status = o.status if o else r.status
        per = counts.setdefault(r.paper_key, {})
        per[status] = per.get(status, 0) + 1
    return counts
