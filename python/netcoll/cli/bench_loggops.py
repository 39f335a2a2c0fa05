"""`netcoll bench loggops`: the LogGOPS engine's CPU time on GOAL files, beside LogGOPSim's
when a LogGOPSim binary is given (as `bench flit --booksim` does for BookSim)."""

from __future__ import annotations

import json
import re
import resource
import subprocess
import tempfile
from pathlib import Path
from statistics import median

import click

from .._core import NetcollError
from ..engines import simulate_loggops
from .bench import _peak_rss_mib
from .types import bounded
from .verify import read_bytes

#: LogGOPSim's parameter flags for the --sim keys both take.
_FLAGS = ("L", "o", "g", "G", "O", "S")


def netcoll_row(path: str, sim: list[str], repeat: int) -> dict:
    """netcoll's loggops engine on `path`, `repeat` times: the median CPU seconds."""
    data = read_bytes(path)
    runs = [
        simulate_loggops("alltoall", None, None, 0, 0, 1, [], sim, schedule_file=(data, path))
        for _ in range(repeat)
    ]
    r = runs[0]
    return {
        "file": Path(path).name,
        "ranks": len(r["rank_times"]),
        "events": r["events"],
        "time": r["time"],
        "cpu_seconds": median(x["cpu_seconds"] for x in runs),
        "peak_rss_mib": round(_peak_rss_mib(), 1),
    }


def _run(cmd: list[str], what: str) -> str:
    try:
        done = subprocess.run(cmd, capture_output=True, text=True)
    except OSError as e:
        raise NetcollError(f"cannot run {what} at {cmd[0]}: {e.strerror}") from None
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        raise NetcollError(f"{what} failed on {cmd[-1]} (exit {done.returncode}): {tail[0]}")
    return done.stdout


def loggopsim_run(binary: str, txt2bin: str, path: str, sim: list[str], repeat: int) -> dict:
    """LogGOPSim on `path` (converted by its txt2bin), `repeat` times: events, the largest
    finishing time and the median CPU seconds of its process (conversion not counted)."""
    flags = []
    for item in sim:
        key, _, value = item.partition("=")
        if key in _FLAGS:
            flags += [f"-{key}", value]
    with tempfile.TemporaryDirectory() as tmp:
        bin_file = str(Path(tmp) / "schedule.bin")
        _run([str(Path(txt2bin).resolve()), "-i", str(path), "-o", bin_file], "txt2bin")
        secs, out = [], ""
        for _ in range(repeat):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            out = _run([str(Path(binary).resolve()), "-b", *flags, "-f", bin_file], "LogGOPSim")
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            secs.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    events = re.search(r"Events: (\d+)", out)
    finish = re.search(r"Maximum finishing time at host \d+: (\d+)", out)
    if not (events and finish):
        raise NetcollError(f"LogGOPSim at {binary} printed no Events / finishing time lines")
    return {
        "loggopsim_events": int(events.group(1)),
        "loggopsim_time": int(finish.group(1)),
        "loggopsim_cpu_seconds": round(median(secs), 4),
    }


@click.command("loggops")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, exists=True))
@click.option(
    "--loggopsim",
    type=click.Path(dir_okay=False, exists=True),
    default=None,
    help="A LogGOPSim binary: also run it on each file (converted by the txt2bin beside it).",
)
@click.option(
    "--txt2bin",
    type=click.Path(dir_okay=False, exists=True),
    default=None,
    help="LogGOPSim's txt2bin [default: the one beside --loggopsim].",
)
@click.option("--sim", multiple=True, metavar="KEY=VALUE", help="L, o, g, G, O, S for both.")
@click.option(
    "--repeat",
    type=bounded(1, 100, "integer count"),
    default=1,
    show_default=True,
    help="Runs per file on each side, the median timed.",
)
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
def bench_loggops(files, loggopsim, txt2bin, sim, repeat, as_json):
    """CPU seconds of the loggops engine on GOAL FILES (reading and simulating; peak RSS of
    this process so far). With --loggopsim, LogGOPSim runs the same files with the same
    parameters: its events, finishing time, CPU seconds and netcoll's speed-up."""
    if loggopsim and txt2bin is None:
        txt2bin = str(Path(loggopsim).resolve().parent / "txt2bin")
        if not Path(txt2bin).is_file():
            raise NetcollError(f"no txt2bin beside {loggopsim}: give --txt2bin PATH")
    rows = []
    for f in files:
        row = netcoll_row(f, list(sim), repeat)
        if loggopsim:
            row |= loggopsim_run(loggopsim, txt2bin, f, list(sim), repeat)
            row["same_time"] = row["loggopsim_time"] == row["time"]
            row["ratio"] = round(row["loggopsim_cpu_seconds"] / max(row["cpu_seconds"], 1e-9), 1)
        rows.append(row)
    if as_json:
        print(json.dumps(rows, indent=2))
        return
    head = f"{'file':<28} {'ranks':>6} {'events':>10} {'time':>12} {'cpu s':>8} {'rss MiB':>8}"
    click.echo(head + (f" {'LogGOPSim s':>11} {'ratio':>6} {'same':>5}" if loggopsim else ""))
    for r in rows:
        line = (
            f"{r['file']:<28} {r['ranks']:>6} {r['events']:>10} {r['time']:>12} "
            f"{r['cpu_seconds']:>8} {r['peak_rss_mib']:>8}"
        )
        if loggopsim:
            line += f" {r['loggopsim_cpu_seconds']:>11} {r['ratio']:>6} {r['same_time']!s:>5}"
        click.echo(line)
