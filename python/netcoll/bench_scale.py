"""Scale benchmark: build and verify the schedule of every (collective, algorithm) pair that
``netcoll algos`` lists for meshes and tori, on square meshes of 64 ... 4,096 ranks.

Each row runs in a fresh child process (``python -m netcoll schedule OP --algo A --topo SPEC
--json``), so its wall time and its peak memory (the child's own ``ru_maxrss`` from
``os.wait4``, Python and the extension included, about 25 MB of it) belong to that row alone.
A row that fails (a precondition, the time limit, the memory limit) is reported with
``verified: false`` and its error, never dropped.

Which pairs: every algorithm of ``_core.algorithms()`` for every collective it lists, except
those made for other networks (the iBT broadcasts run on tori of the same size, the worms on
switch networks are skipped: they need switches that replicate, which meshes here do not
model). Multicast goes to a quarter of the ranks (``--dests random:P/4,seed=1``), many-to-all
from a quarter (``--sources random:P/4,seed=1``).
"""

from __future__ import annotations

import json
import math
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from . import _core

SIZES = (64, 256, 1024, 4096)
QUICK_SIZES = (16, 64)
# Families whose algorithms need another kind of network than a mesh.
TORUS_FAMILIES = {"ibt"}
SKIPPED_FAMILIES = {"worms"}
CLI_NAMES = {"broadcast": "bcast", "alltoall_broadcast": "alltoall-broadcast"}


def mesh_spec(ranks: int, torus: bool = False) -> str:
    """The square mesh (or torus) with `ranks` nodes: 64 -> mesh:8x8."""
    k = math.isqrt(ranks)
    if k * k != ranks:
        raise ValueError(f"{ranks} ranks is not a square: use 16, 64, 256, 1024, 4096, ...")
    return f"{'torus' if torus else 'mesh'}:{k}x{k}"


def pairs() -> Iterator[tuple[str, str, str]]:
    """(collective, algorithm, family) for every pair listed for meshes and tori."""
    for a in _core.algorithms():
        if a["family"] in SKIPPED_FAMILIES:
            continue
        for op in a["collectives"]:
            yield op, a["name"], a["family"]


def command(op: str, algo: str, family: str, ranks: int, what: str = "schedule") -> list[str]:
    """The child's command line: ``netcoll schedule`` (build + verify) or ``netcoll analyze``
    (the cheapest analysis path, ``--method auto``)."""
    spec = mesh_spec(ranks, torus=family in TORUS_FAMILIES)
    cmd = [sys.executable, "-m", "netcoll", what, CLI_NAMES.get(op, op)]
    cmd += ["--algo", algo, "--topo", spec, "--json"]
    quarter = max(ranks // 4, 2)
    if op == "multicast":
        cmd += ["--dests", f"random:{quarter},seed=1"]
    if op == "many_to_all":
        cmd += ["--sources", f"random:{quarter},seed=1"]
    return cmd


def _limit_memory(limit_bytes: int):
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit_bytes, limit_bytes))

    return apply


def run_row(
    op: str, algo: str, family: str, ranks: int, timeout: float, mem: int, what: str = "schedule"
) -> dict:
    """One pair at one size in a fresh process: seconds, peak bytes (that child's own
    ``ru_maxrss``, from ``os.wait4``), verdict."""
    cmd = command(op, algo, family, ranks, what)
    row = {"op": op, "algo": algo, "ranks": ranks, "topo": cmd[cmd.index("--topo") + 1]}
    row["command"] = what
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        child = subprocess.Popen(cmd, stdout=out, stderr=err, preexec_fn=_limit_memory(mem))
        timer = threading.Timer(timeout, child.kill)
        timer.start()
        _, status, usage = os.wait4(child.pid, 0)
        timer.cancel()
        child.returncode = os.waitstatus_to_exitcode(status)
        row["seconds"] = round(time.perf_counter() - start, 3)
        kib = usage.ru_maxrss
        row["peak_bytes"] = kib if sys.platform == "darwin" else kib * 1024
        out.seek(0)
        err.seek(0)
        timed_out = row["seconds"] >= timeout and child.returncode < 0
        row.update(_verdict(out.read(), err.read(), child.returncode, timed_out, timeout))
    return row


def _verdict(out: bytes, err: bytes, rc: int, timed_out: bool, timeout: float) -> dict:
    if timed_out:
        return {"ok": False, "verified": False, "error": f"over the time limit of {timeout:g} s"}
    if rc != 0:
        lines = err.decode(errors="replace").strip().splitlines() or ["no message"]
        if rc < 0:
            lines.append(f"killed by signal {-rc} (the memory limit?)")
        return {"ok": False, "verified": False, "error": f"exit {rc}: {lines[-1][:300]}"}
    fig = json.loads(out)
    row = {
        # `ok`: the command succeeded; `verified`: a schedule was built and proven (analyze
        # rows by a closed form or per step prove none: `verified` is false, `ok` true).
        "ok": True,
        "verified": bool(fig.get("verified")),
        "messages": fig.get("messages"),
        "aggregate_hops": fig.get("aggregate_hops"),
    }
    if "method" in fig:
        row["method"] = fig["method"]
    return row


def succeeded(row: dict) -> bool:
    """Whether a row ran to the end (rows written before `ok` existed: `verified`)."""
    return bool(row.get("ok", row.get("verified")))


def run(
    sizes: tuple[int, ...],
    only: tuple[str, ...] = (),
    timeout: float = 120.0,
    mem_gib: float = 8.0,
    progress=None,
    what: str = "schedule",
    save: Path | None = None,
) -> list[dict]:
    """Every pair (or those whose `op/algo` or `algo` is in `only`) at every size; with
    `save`, the rows so far are written there after every row (a long run that is stopped
    keeps what it measured)."""
    todo = [
        (op, algo, fam, n)
        for n in sizes
        for op, algo, fam in pairs()
        if not only or algo in only or f"{op}/{algo}" in only
    ]
    rows = []
    for op, algo, fam, n in todo:
        row = run_row(op, algo, fam, n, timeout, int(mem_gib * 2**30), what)
        rows.append(row)
        if save is not None:
            save_rows(rows, save)
        if progress:
            progress(row, len(rows), len(todo))
    return rows


def table(rows: list[dict]) -> str:
    """The rows as a markdown table: one line per (op, algo), one column per size."""
    sizes = sorted({r["ranks"] for r in rows})
    head = "| op | algo | " + " | ".join(f"{n:,} ranks" for n in sizes) + " |"
    lines = [head, "|---|---|" + "---|" * len(sizes)]
    by = {(r["op"], r["algo"], r["ranks"]): r for r in rows}
    for op, algo in dict.fromkeys((r["op"], r["algo"]) for r in rows):
        cells = []
        for n in sizes:
            r = by.get((op, algo, n))
            if r is None:
                cells.append("")
            elif succeeded(r):
                how = f" ({r['method']})" if "method" in r else ""
                cells.append(f"{r['seconds']:.2f} s, {r['peak_bytes'] / 2**20:,.0f} MiB{how}")
            else:
                cells.append("fails: " + r.get("error", "not verified")[:60].replace("|", "/"))
        lines.append(f"| {op} | {algo} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def save_rows(rows: list[dict], path: Path) -> None:
    path.write_text(json.dumps(rows, indent=1) + "\n")
