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
    out: Path, quick: bool, progress=None, done=None
) -> list[tuple[Reproduction, Outcome | None]]:
    """Runs every runnable reproduction. ``progress(repro)`` is called before each one and
    ``done(repro, outcome)`` after it. A runner that raises does not stop the others: its
    outcome has status ``error`` (the report shows it; `netcoll reproduce --all` then exits
    with status 1)."""
    results = []
    for repro in registry.REPRODUCTIONS:  # read at call time (tests narrow the list)
        if progress:
            progress(repro)
        outcome = None
        if repro.runner:
            try:
                outcome = run_one(repro, out, quick)
            except Exception as e:  # one broken reproduction must not hide the others
                outcome = failed(repro, e)
        results.append((repro, outcome))
        if done:
            done(repro, outcome)
    return results


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
