"""`netcoll run OP ...`: execute a collective's schedule on real MPI ranks, check every
byte, time it OSU-style and race the MPI library's own collective (docs/mpi.md)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import click

from .._core import NetcollError
from ..vocabulary import display_op, mpi_kind, mpi_names, registry_name
from .schedule import sources_option
from .types import COUNT, POSITIVE, RANK, OutputPath, PositiveFloat, bounded, int_list, read_input

# The MPI library's collective that --compare-native races (same buffers).
NATIVE = {
    "broadcast": "MPI_Bcast",
    "scatter": "MPI_Scatter",
    "gather": "MPI_Gather",
    "allgather": "MPI_Allgather",
    "alltoall_broadcast": "MPI_Allgather",  # the all-to-all broadcast is an allgather
    "alltoall": "MPI_Alltoall",
    "reduce": "MPI_Reduce",
    "allreduce": "MPI_Allreduce",
    "reduce_scatter": "MPI_Reduce_scatter_block",
    "many_to_all": "MPI_Allgatherv",  # the non-sources contribute 0 bytes
    # MPI has no multicast: a broadcast on a sub-communicator of the root and the targets
    # (made once, outside the timed loop); the non-targets take no part.
    "multicast": "MPI_Bcast(root+targets)",
}
UNITS = {"": 1, "B": 1, "K": 1 << 10, "KB": 1 << 10, "KIB": 1 << 10, "M": 1 << 20,
         "MB": 1 << 20, "MIB": 1 << 20, "G": 1 << 30, "GIB": 1 << 30}  # fmt: skip


def parse_size(text: str) -> int:
    m = re.fullmatch(r"\s*(\d+)\s*([A-Za-z]*)\s*", text)
    if not m or m.group(2).upper() not in UNITS:
        raise NetcollError(f"bad size '{text}': write bytes like 4096, 64K or 16M")
    return int(m.group(1)) * UNITS[m.group(2).upper()]


def parse_sizes(text: str) -> list[int]:
    """`8,1K,1M` or a doubling range `8..16M` (OSU style)."""
    sizes: list[int] = []
    for part in text.split(","):
        if ".." in part:
            lo, hi = (parse_size(x) for x in part.split("..", 1))
            if lo < 1 or hi < lo:
                raise NetcollError(f"bad size range '{part}': write LO..HI with 1 <= LO <= HI")
            while lo <= hi:
                sizes.append(lo)
                lo *= 2
        else:
            sizes.append(parse_size(part))
    if any(s < 1 for s in sizes):
        raise NetcollError("sizes must be at least 1 byte")
    return sizes


def human(n: int) -> str:
    for unit, size in (("M", 1 << 20), ("K", 1 << 10)):
        if n >= size and n % size == 0:
            return f"{n // size}{unit}"
    return str(n)


def candidates(kind, algo, schedule, example, np_, root=0, packets=1):
    if schedule:
        text = read_input(schedule, "schedule file")
        if not text.lstrip().startswith(("{", "<")) and "num_ranks" in text:
            raise NetcollError(
                f"{schedule}: a GOAL file carries sizes but no data, so run has no output to "
                "check (docs/formats.md): `netcoll verify FILE --op OP` proves its matching, "
                "deadlock freedom and information flow for every execution; `netcoll simulate` "
                "times it"
            )
        if not text.lstrip().startswith("{"):
            # MSCCL XML (docs/formats.md): lowered onto the IR, then run like our JSON
            from .. import _core

            text = _core.load_schedule(text.encode(), schedule, op=kind, root=root).to_json()
        return [{"name": Path(schedule).stem, "schedule": text}]
    if example:
        from ..mpi import examples

        if example not in examples.EXAMPLES:
            raise NetcollError(f"unknown example '{example}': use {', '.join(examples.EXAMPLES)}")
        if examples.EXAMPLES[example][0] != kind:
            raise NetcollError(
                f"example '{example}' is a {examples.EXAMPLES[example][0]}, not a {kind}"
            )
        takes = examples.EXAMPLES[example][1].__code__.co_varnames
        kw = {"root": root} if "root" in takes else {}
        if "packets" in takes and packets > 1:
            kw["packets"] = packets
        return [{"name": example, "schedule": examples.build(example, np_, **kw)}]
    return [{"name": algo or "auto", "algo": algo or "auto"}]


@click.command("run")
@click.argument("op")
@click.option("--algo", "-a", default=None, help="Registered algorithm, or auto (default).")
@click.option(
    "--schedule",
    type=click.Path(exists=True, dir_okay=False),
    help="Run a schedule file (netcoll JSON or MSCCL XML, docs/formats.md; not GOAL, which "
    "carries no data to check) instead of --algo.",
)
@click.option("--example", help="Run a hand-written example schedule (netcoll.mpi.examples).")
@click.option(
    "--np",
    "np_",
    type=bounded(1, 4096, "integer count"),
    required=True,
    help="Number of MPI ranks.",
)
@click.option(
    "--topo",
    "-t",
    default=None,
    metavar="SPEC",
    help="Network the ranks are placed on (default mesh:NP, a linear array).",
)
@click.option("--placement", default=None, help="Endpoint of each rank, comma-separated.")
@click.option("--root", type=RANK, default=0, show_default=True)
@sources_option
@click.option(
    "--dests",
    default=None,
    metavar="D",
    help="multicast targets: rank list 1,4,7 | random:COUNT,seed=S.",
)
@click.option("--set", "params", multiple=True, metavar="K=V", help="Algorithm parameter.")
@click.option(
    "--packets",
    type=POSITIVE,
    default=1,
    show_default=True,
    help="Packets per message (pipelined algorithms).",
)
@click.option("--bytes", "sizes", required=True, help="Sizes: 8,1K,1M or a doubling range 8..16M.")
@click.option("--dtype", default=None, help="Element type (default uint8; float64 for reductions).")
@click.option(
    "--op",
    "red_op",
    default="sum",
    show_default=True,
    help="Reduction: sum, prod, min, max, band, bor, bxor.",
)
@click.option("--compare-native", is_flag=True, help="Time the MPI library's collective too.")
@click.option("--iters", type=POSITIVE, default=20, show_default=True)
@click.option("--warmup", type=COUNT, default=3, show_default=True)
@click.option("--timeout", type=PositiveFloat(), default=300, show_default=True, help="Seconds.")
@click.option("--no-check", is_flag=True, help="Skip the result check.")
@click.option(
    "--check",
    "check_mode",
    type=click.Choice(["first", "all"]),
    default="first",
    show_default=True,
    help="Check the first and the last timed iteration, or every one.",
)
@click.option(
    "--executor",
    type=click.Choice(["native", "python"]),
    default="native",
    show_default=True,
    help="Run schedules compiled in Rust (native) or interpreted in Python (reference).",
)
@click.option(
    "--tune",
    is_flag=True,
    help="Time every registered algorithm (or those of --algo A,B); write a table.",
)
@click.option(
    "--tune-out",
    type=click.Path(dir_okay=False),
    default=None,
    help="Tuning table to update (default $NETCOLL_TUNING or ~/.cache/netcoll).",
)
@click.option(
    "--plot",
    type=OutputPath((".png",)),
    default=None,
    help="Write a time-vs-size plot (PNG).",
)
@click.option(
    "--inject-fault",
    default=None,
    hidden=True,
    metavar="RANK:ELEM",
    help="Self-test: corrupt one output element before the check.",
)
@click.option(
    "--inject-crash",
    type=RANK,
    default=None,
    hidden=True,
    metavar="RANK",
    help="Self-test: this rank exits abruptly.",
)
@click.option(
    "--inject-xor-fault",
    type=RANK,
    default=None,
    hidden=True,
    metavar="RANK",
    help="Self-test: this rank's XOR encodings have their first byte flipped.",
)
@click.option(
    "--inject-input-fault",
    type=int,
    default=None,
    hidden=True,
    metavar="RANK",
    help="Self-test: the run flips the first byte of this rank's input buffer.",
)
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
def run_cmd(op, algo, schedule, example, np_, topo, placement, root, sources, dests, params,
            packets, sizes, dtype, red_op, compare_native, iters, warmup, timeout, no_check,
            check_mode, executor, tune, tune_out, plot, inject_fault, inject_crash,
            inject_xor_fault, inject_input_fault, as_json):  # fmt: skip
    """Execute OP (bcast, scatter, gather, allgather, alltoall-broadcast, reduce, allreduce,
    reduce-scatter, manytoall, alltoall, multicast) on NP real MPI ranks: build the schedule, run it
    with real buffers, check every byte (the first and the last timed iteration, or all with --check
    all), and time it as OSU does (warm-up excluded, barrier-separated iterations, per iteration the
    maximum over ranks; the median is reported, netcoll and native taking turns). SIZE counts the
    root's vector (bcast, scatter, reduce; multicast, whose --dests are a rank list or
    random:COUNT,seed=S), each rank's contribution (gather, allgather, alltoall-broadcast), what
    each rank sends to each rank (alltoall, as OSU's osu_alltoall), each source's contribution
    (manytoall, whose --sources are a rank list, all or random:COUNT,seed=S) or the whole vector
    (allreduce, reduce-scatter)."""
    from ..mpi.launch import RunError, launch

    kind = mpi_kind(op)
    if kind is None and _is_barrier(op):
        raise NetcollError(
            "run does not execute a barrier: it moves no data to check against MPI_Barrier; "
            "`netcoll verify FILE --op barrier` proves one (every rank hears from every rank) "
            "and `netcoll simulate` times it"
        )
    if kind is None:
        raise NetcollError(f"unknown collective '{op}' for run: use {mpi_names()}")
    if np_ < 1:
        raise NetcollError(f"--np {np_}: a run needs at least one rank")
    if iters < 1 or warmup < 0:
        raise NetcollError("--iters must be at least 1 and --warmup at least 0")
    reduction = kind in ("reduce", "allreduce", "reduce_scatter")
    cfg = {
        "kind": kind, "root": root, "op": red_op if reduction else None,
        "dtype": dtype or ("float64" if reduction else "uint8"),
        "sizes": parse_sizes(sizes), "packets": packets, "params": list(params),
        "topo": topo, "iters": iters, "warmup": warmup, "native": compare_native or tune,
        "check": not no_check, "check_mode": check_mode, "executor": executor, "seed": 1,
        "placement": int_list(placement, "--placement endpoint") if placement else None,
    }  # fmt: skip
    _check_dtype(cfg["dtype"])
    # Each rank holds a send and a receive buffer (and a check copy) of the largest size.
    from .. import _core

    largest = max(cfg["sizes"])
    per_rank = largest * np_ if kind == "alltoall" else largest  # a chunk per destination
    _core.check_memory(f"--bytes {largest} on {np_} ranks", 3.0 * per_rank * np_)
    cfg["sources"] = _sources(kind, sources, schedule, np_)
    cfg["targets"] = _targets(kind, dests, schedule, np_, root)
    if inject_fault:
        r, _, e = inject_fault.partition(":")
        cfg["fault"] = [int(r), int(e or 0)]
    if inject_crash is not None:
        cfg["crash"] = inject_crash
    if inject_xor_fault is not None:
        cfg["xor_fault"] = inject_xor_fault
    if inject_input_fault is not None:
        cfg["input_fault"] = inject_input_fault
    if tune:
        cfg["candidates"] = _tune_candidates(kind, algo)
        cfg["tune"] = True
    else:
        cfg["candidates"] = candidates(kind, algo, schedule, example, np_, root, packets)
    try:
        report = launch(np_, cfg, timeout)
    except RunError as e:
        raise NetcollError(str(e)) from None
    if "error" in report:
        raise NetcollError(report["error"])
    if tune:
        return _finish_tune(kind, np_, cfg, report, tune_out, as_json, plot)
    name, rows = next(iter(report["results"].items()))
    for r in rows:  # the shared key (docs/cli.md, "Vocabulary"); "time" stays for old readers
        r["time_s"] = r["time"]
    verified = all(r["verified"] is True for r in rows) if cfg["check"] else None
    doc = {"op": display_op(kind), "algo": name, "np": np_, "dtype": cfg["dtype"],
           "executor": executor, "check": None if no_check else check_mode, "iters": iters,
           "warmup": warmup, "verified": verified, "results": rows}  # fmt: skip
    if cfg["sources"]:
        doc["sources"] = cfg["sources"]
    if cfg["targets"]:
        doc["root"], doc["targets"] = root, cfg["targets"]
    if compare_native:
        doc["native"] = NATIVE[kind]
    if plot:
        _plot(plot, kind, np_, {name: rows}, compare_native)
    if as_json:
        print(json.dumps(doc, indent=2))
    else:
        _table(doc, compare_native)
    bad = [r for r in rows if r["verified"] is False]
    if bad:
        print(f"netcoll: error: {bad[0]['error']}", file=sys.stderr)
        sys.exit(1)


def _is_barrier(op: str) -> bool:
    try:
        return registry_name(op) == "barrier"
    except NetcollError:
        return False


def _sources(kind: str, spec: str | None, schedule: str | None, np_: int) -> list[int] | None:
    """The many-to-all sources: parsed as `netcoll schedule --sources` parses them (the
    core's parse_sources), or read from the schedule file (which must then agree)."""
    if kind != "many_to_all":
        if spec is not None:
            raise NetcollError(f"--sources applies to manytoall only, not {kind}: drop it")
        return None
    from .. import _core
    from ..mpi.plan import ScheduleError, parse

    given = None if spec is None else list(_core.parse_sources(spec, np_))
    if schedule:
        try:
            plan = parse(read_input(schedule, "schedule file"))
        except (ScheduleError, ValueError) as e:
            raise NetcollError(f"{schedule}: {e}") from None
        if plan.kind != "many_to_all":
            raise NetcollError(f"{schedule} is a {plan.kind} schedule, not a many_to_all")
        if given is not None and given != plan.sources:
            raise NetcollError(
                f"--sources {spec} names {given}, but the schedule's sources are "
                f"{plan.sources}: drop --sources or give the same list"
            )
        return plan.sources
    if given is None:
        raise NetcollError(
            "manytoall needs --sources: a rank list 0,5,9, all, or random:COUNT,seed=S"
        )
    return given


def _targets(kind: str, spec: str | None, schedule: str | None, np_: int, root: int):
    """The multicast targets: parsed as `netcoll schedule multicast --dests` parses them
    (textvalues.parse_dests, then checked: ranks, no repeats, not the root), or read from the
    schedule file (which must then agree)."""
    if kind != "multicast":
        if spec is not None:
            raise NetcollError(f"--dests applies to multicast only, not {kind}: drop it")
        return None
    from ..mpi.comm import check_targets
    from ..mpi.plan import ScheduleError, parse

    given = None
    if spec is not None:
        try:
            given = check_targets(spec, np_, root)
        except ValueError as e:
            raise NetcollError(f"--dests {spec}: {e}") from None
    if schedule:
        try:
            plan = parse(read_input(schedule, "schedule file"))
        except (ScheduleError, ValueError) as e:
            raise NetcollError(f"{schedule}: {e}") from None
        if plan.kind != "multicast":
            raise NetcollError(f"{schedule} is a {plan.kind} schedule, not a multicast")
        if given is not None and given != sorted(plan.targets):
            raise NetcollError(
                f"--dests {spec} names {given}, but the schedule's targets are "
                f"{sorted(plan.targets)}: drop --dests or give the same ranks"
            )
        return sorted(plan.targets)
    if given is None:
        raise NetcollError("multicast needs --dests: a rank list 1,4,7 or random:COUNT,seed=S")
    return given


def _check_dtype(name: str) -> None:
    import numpy as np

    try:
        dt = np.dtype(name)
    except TypeError:
        raise NetcollError(f"unknown dtype '{name}': use e.g. uint8, int32, float64") from None
    if dt.kind not in "biufc":
        raise NetcollError(f"dtype {dt} is not supported: use a bool, int, float or complex type")


def _tune_candidates(kind: str, algos: str | None) -> list[dict]:
    """Every registered algorithm of the collective, or those of `--algo A,B,...`."""
    from ..mpi import tuning

    names = tuning.registered(kind)
    if algos:
        wanted = [a.strip() for a in algos.split(",") if a.strip()]
        unknown = [a for a in wanted if a not in names]
        if unknown:
            raise NetcollError(
                f"no {kind} algorithm named '{unknown[0]}': choose among {', '.join(names)}"
            )
        names = wanted
    if not names:
        raise NetcollError(f"no {kind} algorithm is registered in this build: nothing to tune")
    return [{"name": n, "algo": n} for n in names]


def _finish_tune(kind, np_, cfg, report, tune_out, as_json, plot):
    from ..mpi import tuning

    results = report["results"]
    if not results:
        raise NetcollError(f"every candidate was refused: {report.get('refused')}")
    sizes = cfg["sizes"]
    best = []
    for i, size in enumerate(sizes):
        ok = {a: rows[i]["time"] for a, rows in results.items() if rows[i]["verified"] is not False}
        best.append((size, min(ok, key=ok.get)))
    rows = []
    for i, (size, algo) in enumerate(best):
        last = i == len(best) - 1
        if rows and rows[-1]["algo"] == algo:
            rows[-1]["max_bytes"] = None if last else size
        else:
            rows.append({"max_bytes": None if last else size, "algo": algo})
    path = Path(tune_out) if tune_out else tuning.default_path()
    tables = tuning.load(path) if path.exists() else {}
    tables.setdefault(kind, {})[str(np_)] = rows
    tuning.write(path, tables)
    doc = {"op": display_op(kind), "np": np_, "table": rows, "file": str(path), "results": results}
    if plot:
        _plot(plot, kind, np_, results, True)
    if as_json:
        print(json.dumps(doc, indent=2))
    else:
        for name, rs in results.items():
            _table({"op": doc["op"], "algo": name, "np": np_, "results": rs}, True)
        ranges = ", ".join(
            f"{r['algo']} up to {human(r['max_bytes'])}" if r["max_bytes"] is not None
            else f"{r['algo']} above" if len(rows) > 1 else f"{r['algo']} at every size"
            for r in rows
        )  # fmt: skip
        print(f"tuning table for {doc['op']} on {np_} ranks written to {path}: {ranges}")


def _table(doc: dict, native: bool) -> None:
    from rich.console import Console
    from rich.table import Table

    title = f"{doc['op']} by {doc['algo']} on {doc['np']} ranks"
    if doc.get("sources"):
        title += f", sources {','.join(map(str, doc['sources']))}"
    if doc.get("targets"):
        title += f", root {doc['root']} to {','.join(map(str, doc['targets']))}"
    t = Table(title=title)
    # doc["op"] is spelled for print (bcast), NATIVE by the registry (broadcast).
    ncol = f"{NATIVE[registry_name(doc['op'])]} median us"
    for col in ("bytes", "median us", "min", "max", *((ncol, "netcoll/native") if native else ()),
                "verified"):  # fmt: skip
        t.add_column(col, justify="right")
    for r in doc["results"]:
        cells = [human(r["bytes"]), f"{r['median_us']:.1f}", f"{r['min_us']:.1f}",
                 f"{r['max_us']:.1f}"]  # fmt: skip
        if native:
            cells += [f"{r['native_median_us']:.1f}", f"{r['ratio']:.2f}"]
        mark = {True: "yes", False: "NO", None: "-"}[r["verified"]]
        cells.append(f"{mark} ({r['checked']})" if r["verified"] is not None else mark)
        t.add_row(*cells)
    Console().print(t)


def _plot(path: str, kind: str, np_: int, series: dict, native: bool) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for name, rows in series.items():
        ax.plot([r["bytes"] for r in rows], [r["time"] * 1e6 for r in rows], "o-", label=name)
    if native:
        rows = next(iter(series.values()))
        ax.plot([r["bytes"] for r in rows], [r["native_time"] * 1e6 for r in rows], "k--",
                label=f"native ({NATIVE[kind]})")  # fmt: skip
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("bytes")
    ax.set_ylabel("time (us, median of the per-iteration max over ranks)")
    ax.set_title(f"{kind} on {np_} ranks")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
