"""`netcoll sweep`: load-latency curves and design-space studies in one command (docs/scale-out.md).

netcoll sweep --booksim FILE.cfg --set injection_rate=0.05:0.4:0.05 [--seeds N] [--saturation]
netcoll sweep simulate OP --algo A,B --topo SPEC,SPEC [--engine E] [--bytes LIST]
netcoll sweep analyze OP --algo A,B --topo SPEC,SPEC [--bytes LIST]
"""

from __future__ import annotations

import json
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import click

from .._core import NetcollError
from ..sweep_study import (
    booksim_tasks,
    collective_tasks,
    finish_rows,
    pin_threads,
    plot,
    run_study,
    write_csv,
)
from ..sweeps import default_workers, parse_axes, split_specs
from .common import CONTEXT
from .sim import parse_overrides
from .sizes import Size

set_option = click.option(
    "--set",
    "axes",
    multiple=True,
    metavar="KEY=SPEC",
    help="An axis: KEY=a,b,c or KEY=lo:hi:step (hi included); repeat for a cross product.",
)
seeds_option = click.option(
    "--seeds",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Seeds a point (each derived from the point); rows give mean and 95% CI.",
)
workers_option = click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=None,
    help="Processes (default: cores / the flit engine's threads). Under `python -m "
    "mpi4py.futures` the MPI ranks are the workers.",
)
out_option = click.option(
    "-o",
    "--output",
    "out_dir",
    type=click.Path(file_okay=False),
    default=None,
    help="Write DIR/sweep.csv, DIR/sweep.png and the journal DIR/sweep.jsonl.",
)
resume_option = click.option(
    "--resume", is_flag=True, help="With -o: skip the points already in DIR/sweep.jsonl."
)
json_flag = click.option("--json", "as_json", is_flag=True, help="Print the rows as JSON.")


@click.group("sweep", invoke_without_command=True, context_settings=CONTEXT)
@click.option(
    "--booksim",
    "cfg",
    type=click.Path(dir_okay=False),
    default=None,
    help="A BookSim 2 configuration file (else netcoll's defaults).",
)
@set_option
@seeds_option
@click.option(
    "--saturation", is_flag=True, help="Find the saturation rate by bisection on injection_rate."
)
@click.option(
    "--tolerance",
    type=click.FloatRange(min=1e-6),
    default=0.005,
    show_default=True,
    help="With --saturation: the bisection's resolution (flits/cycle/node).",
)
@click.option(
    "--latency-bound",
    type=click.FloatRange(min=0),
    default=None,
    help="With --saturation: also saturated above this latency (cycles).",
)
@workers_option
@out_option
@resume_option
@json_flag
@click.pass_context
def sweep_group(
    ctx,
    cfg,
    axes,
    seeds,
    saturation,
    tolerance,
    latency_bound,
    workers,
    out_dir,
    resume,
    as_json,
):
    """Sweep the flit engine over BookSim keys: every point of the cross product of the --set
    axes is one simulation of the configuration (an axis of one value sets a key for all).

    Example: netcoll sweep --booksim mesh88.cfg --set injection_rate=0.05:0.4:0.05 --saturation
    """
    if ctx.invoked_subcommand is not None:
        return
    parsed = parse_axes(axes)
    if not parsed and not saturation:
        raise NetcollError("nothing to sweep: give an axis, as --set injection_rate=0.05:0.4:0.05")
    if cfg is not None and not Path(cfg).is_file():
        raise NetcollError(f"{cfg}: no such configuration file")
    _check_keys(list(parsed))
    sat = {"tolerance": tolerance, "latency_bound": latency_bound} if saturation else None
    workers, pairs = pin_threads(cfg, [], parsed, workers)
    tasks = booksim_tasks(cfg, pairs, parsed, seeds, sat)
    _run(tasks, list(parsed), seeds, workers, out_dir, resume, as_json)


def _check_keys(keys: list[str]) -> None:
    """An unknown key fails the whole sweep up front (not once a point), with its name."""
    from .._core import flit_keys, nearest_name

    known = flit_keys()
    for key in keys:
        if key not in known:
            near = nearest_name(key, known)
            hint = f"; did you mean '{near}'?" if near else " (netcoll sim --keys lists them)"
            raise NetcollError(f"unknown key '{key}'{hint}")


def _collective_command(kind: str):
    @click.command(kind, context_settings=CONTEXT)
    @click.argument("op")
    @click.option(
        "--algo",
        "-a",
        "algos",
        required=True,
        metavar="A[,B...]",
        help="Algorithms, comma-separated.",
    )
    @click.option(
        "--topo",
        "-t",
        "topos",
        required=True,
        multiple=True,
        metavar="SPEC[,SPEC...]",
        help="Networks, comma-separated or repeated.",
    )
    @click.option(
        "--bytes",
        "-b",
        "sizes",
        type=Size(many=True),
        default="1K",
        show_default=True,
        help="Message sizes, as 1K,64K,1M.",
    )
    @set_option
    @seeds_option
    @workers_option
    @out_option
    @resume_option
    @json_flag
    def command(
        op,
        algos,
        topos,
        sizes,
        axes,
        seeds,
        workers,
        out_dir,
        resume,
        as_json,
        engine="analytic",
        sim=(),
    ):
        settings = {"engine": engine, "sim": dict(parse_overrides(sim))}
        specs = [s for t in topos for s in split_specs(t)]
        tasks = collective_tasks(
            kind,
            op,
            algos.split(","),
            specs,
            [str(n) for n in sizes],
            parse_axes(axes),
            seeds,
            settings,
        )
        names = ["op", "algo", "topo", "bytes", *parse_axes(axes)]
        _run(tasks, names, seeds, workers or default_workers(), out_dir, resume, as_json)

    return command


analyze_cmd = _collective_command("analyze")
analyze_cmd.help = """Sweep the analytic engine: every algorithm x network x size (x --set
parameter axes), figures from closed forms or schedules (as `netcoll analyze`)."""
simulate_cmd = _collective_command("simulate")
simulate_cmd.help = """Sweep an engine over collectives: every algorithm x network x size (x
--set parameter axes) simulated (as `netcoll simulate`)."""
simulate_cmd.params.append(
    click.Option(
        ["--engine", "-e"],
        type=click.Choice(["flit", "step", "analytic"]),
        default="flit",
        show_default=True,
        help="The engine.",
    )
)
simulate_cmd.params.append(
    click.Option(
        ["--sim", "sim"], multiple=True, metavar="KEY=VALUE", help="Engine setting (repeatable)."
    )
)
sweep_group.add_command(analyze_cmd)
sweep_group.add_command(simulate_cmd)


def _run(tasks, names, seeds, workers, out_dir, resume, as_json) -> None:
    if resume and out_dir is None:
        raise NetcollError("--resume needs -o DIR: the folder of the interrupted sweep")
    out = None if out_dir is None else Path(out_dir)
    start = time.perf_counter()
    rows: list[dict] = []
    try:
        with _progress(len(tasks), as_json) as advance:
            rows = run_study(tasks, workers, out, resume, advance)
    except KeyboardInterrupt:
        if out is not None:
            _write(out, _journal_rows(out), names, seeds)
            print(
                f"netcoll: interrupted: the finished points are in {out / 'sweep.csv'}; run "
                "the same command with --resume to finish",
                file=sys.stderr,
            )
        else:
            print("netcoll: interrupted (give -o DIR to keep finished points)", file=sys.stderr)
        sys.exit(130)
    rows = finish_rows(rows, names, seeds)
    if out is not None:
        _write(out, rows, names, seeds)
    if as_json:
        print(json.dumps(rows, indent=2, default=str))
    else:
        _table(rows, names)
        seconds = time.perf_counter() - start
        where = f"; wrote {out / 'sweep.csv'} and {out / 'sweep.png'}" if out else ""
        click.echo(f"{len(tasks)} points on {workers} worker(s) in {seconds:.1f} s{where}")


def _journal_rows(out: Path) -> list[dict]:
    path = out / "sweep.jsonl"
    if not path.is_file():
        return []
    return [r for line in path.read_text().splitlines() for r in json.loads(line)["rows"]]


def _write(out: Path, rows: list[dict], names: list[str], seeds: int) -> None:
    rows = rows if any("stat" in r for r in rows) else finish_rows(rows, names, seeds)
    write_csv(rows, out / "sweep.csv")
    if any(not r.get("error") for r in rows):
        plot(rows, names, out / "sweep.png")


@contextmanager
def _progress(total: int, as_json: bool):
    """A bar with an ETA on a terminal; nothing when piped (the rows are the output)."""
    from ..console import stdout_console

    console = stdout_console()
    if as_json or not console.is_terminal:
        yield lambda n=1: None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    with Progress(
        "sweep",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    ) as bar:
        task = bar.add_task("sweep", total=total)
        yield lambda n=1: bar.advance(task, n)


def _table(rows: list[dict], names: list[str]) -> None:
    from rich.table import Table

    from ..console import stdout_console

    figures = [
        "avg_packet_latency",
        "avg_packet_latency_ci95",
        "accepted_rate",
        "cycles",
        "time_s",
        "steps",
        "saturation_rate",
        "error",
    ]
    shown = [f for f in figures if any(f in r for r in rows)]
    table = Table(*names, "seed", "stat", *shown)
    for r in rows:
        cells = [r.get(k) for k in (*names, "seed", "stat", *shown)]
        table.add_row(
            *("" if v is None else f"{v:.4g}" if isinstance(v, float) else str(v) for v in cells)
        )
    stdout_console().print(table)
