"""One rank of ``netcoll run``: ``python -m netcoll.mpi.worker CONFIG.json OUT.json``.

For every size and every candidate (an algorithm or a schedule file): build and compile the
schedule, build the data check from copies of the inputs, then time it as the OSU and Intel
MPI benchmarks do: ``warmup`` untimed runs, then ``iters`` runs each preceded by a barrier,
per iteration the maximum over ranks; median, min, max and mean. The first and the last timed
run are checked (every one with ``check_mode`` "all"), outside the timed region. With
``native`` the MPI library's own collective is timed the same way, taking turns with netcoll
iteration by iteration. Rank 0 writes the results
to OUT.json.

Errors every rank agrees on (bad arguments, a wrong result) are reported in OUT.json; an error
on one rank only prints ``netcoll-rank R: message`` and aborts the whole job, so no rank is
left waiting.
"""

from __future__ import annotations

import json
import sys
import traceback

import numpy as np
from mpi4py import MPI

from .check import allgatherv_layout
from .comm import MPI_OPS, ArgumentError, Comm
from .plan import ScheduleError

REDUCTIONS = ("reduce", "allreduce", "reduce_scatter")


def buffers(
    kind: str, nbytes: int, dtype: np.dtype, p: int, me: int, root: int, seed: int, sources=()
):
    """Seeded inputs and garbage-filled outputs for `nbytes` (see docs/mpi.md for what the
    size counts), or an error message. A many-to-all's non-source has no input (None)."""
    item = dtype.itemsize
    count = nbytes // item
    chunked = kind in ("scatter", "reduce_scatter")
    n = count // p if chunked else count  # alltoall: `nbytes` per destination, as OSU
    if n < 1:
        unit = f"{p} x {item}" if chunked else f"{item}"
        per = "per destination" if kind == "alltoall" else "per rank"
        return None, f"{nbytes} bytes is less than one element {per} ({unit} bytes)"
    rng = np.random.default_rng(seed * 1_000_003 + me)
    total = n * p if chunked or kind == "alltoall" else n
    send = page_aligned(rng.integers(0, 50, total).astype(dtype))
    if kind in ("broadcast", "multicast") and me != root:
        send[:] = 0  # garbage: the broadcast must overwrite it (a non-target's stays 0)
    if kind == "many_to_all":
        recv = page_aligned(np.full(n * len(sources), 77, dtype))
        return (send if me in sources else None, recv), None
    out = {
        "broadcast": None,
        "multicast": None,
        "scatter": n,
        "gather": n * p if me == root else None,
        "allgather": n * p,
        "alltoall_broadcast": n * p,
        "alltoall": n * p,
        "reduce": n if me == root else None,
        "allreduce": n,
        "reduce_scatter": n,
    }[kind]
    recv = None if out is None else page_aligned(np.full(out, 77, dtype=dtype))
    return (send, recv), None


def page_aligned(a: np.ndarray) -> np.ndarray:
    """A copy of `a` that starts on a page boundary, as the OSU benchmarks allocate their
    buffers (posix_memalign to the page size). Alignment is not a detail here: numpy puts a
    large array 16 bytes past a page, and on this machine (AMD EPYC, glibc 2.36) a copy from
    a 32-byte aligned source to a destination 16 bytes off one takes 11x as long at 256 KiB
    (glibc's `rep movsb` path; the kernel's copy for MPICH's single-copy CMA transfers
    likewise), so netcoll and native must see the same alignment (docs/mpi.md)."""
    raw = np.empty(a.nbytes + PAGE, dtype=np.uint8)
    skip = -raw.ctypes.data % PAGE
    out = raw[skip : skip + a.nbytes].view(a.dtype)
    out[...] = a
    return out


PAGE = 4096


def native(kind, comm, send, recv, root, op, sources=(), sub=None):
    """The MPI library's own collective on the same buffers (a many-to-all: MPI_Allgatherv,
    the non-sources contributing 0 bytes; a multicast: MPI_Bcast on `sub`, the
    sub-communicator of the root and the targets, see `multicast_comm`)."""
    if kind == "multicast":
        if sub is not None:  # a non-target takes no part
            sub[0].Bcast(send, root=sub[1])
    elif kind == "many_to_all":
        per = recv.nbytes // len(sources)  # a non-source's send is empty: count from recv
        counts, displs = allgatherv_layout(comm.Get_size(), sources, per)
        comm.Allgatherv(
            [send.view(np.uint8), MPI.BYTE], [recv.view(np.uint8), (counts, displs), MPI.BYTE]
        )
    elif kind == "broadcast":
        comm.Bcast(send, root=root)
    elif kind == "scatter":
        comm.Scatter(send, recv, root=root)
    elif kind == "gather":
        comm.Gather(send, recv, root=root)
    elif kind in ("allgather", "alltoall_broadcast"):
        comm.Allgather(send, recv)
    elif kind == "alltoall":
        comm.Alltoall(send, recv)
    elif kind == "reduce":
        comm.Reduce(send, recv, op=MPI_OPS[op], root=root)
    elif kind == "allreduce":
        comm.Allreduce(send, recv, op=MPI_OPS[op])
    else:
        comm.Reduce_scatter_block(send, recv, op=MPI_OPS[op])


def multicast_comm(comm, root: int, targets):
    """The sub-communicator of the root and the targets and the root's rank in it (members
    keep their order), or None on the other ranks."""
    members = sorted({root, *targets})
    me = comm.Get_rank()
    sub = comm.Split(0 if me in members else MPI.UNDEFINED, me)
    if sub == MPI.COMM_NULL:
        return None
    return sub, members.index(root)


def timed(comm, fns, warmup: int, iters: int, between=None) -> list[np.ndarray]:
    """Per-iteration times of each of `fns`, the maximum over ranks (as the OSU and Intel
    MPI benchmarks report a collective): `warmup` untimed rounds, then `iters` rounds; each
    run is preceded by a barrier. Several functions (netcoll and the native collective)
    take turns within each round, so both see the same machine (a shared machine's load
    drifts over seconds). `between(i, before)`, if given, runs around the first function's
    iteration i, outside the timed region: the data check."""
    for _ in range(warmup):
        for fn in fns:
            comm.Barrier()
            fn()
    times = np.empty((len(fns), iters))
    for i in range(iters):
        for k, fn in enumerate(fns):
            if between is not None and k == 0:
                between(i, before=True)
            comm.Barrier()
            t0 = MPI.Wtime()
            fn()
            times[k, i] = MPI.Wtime() - t0
            if between is not None and k == 0:
                between(i, before=False)
    comm.Allreduce(MPI.IN_PLACE, times, op=MPI.MAX)
    return list(times)


def stats(times: np.ndarray, prefix: str = "") -> dict:
    """Median, min, max and mean of per-iteration times, in microseconds."""
    us = times * 1e6
    return {f"{prefix}median_us": float(np.median(us)), f"{prefix}min_us": float(us.min()),
            f"{prefix}max_us": float(us.max()), f"{prefix}mean_us": float(us.mean())}  # fmt: skip


def inject_crash(cfg: dict, me: int) -> None:
    """Self-test of the launcher: one rank dies abruptly, as a crashed process would."""
    if cfg.get("crash") == me:
        import os

        os._exit(9)


def inject_fault(cfg: dict, me: int, recv) -> None:
    """Self-test of the checker: flip the bits of one output element on one rank."""
    fault = cfg.get("fault")
    if fault and fault[0] == me and recv is not None and fault[1] < len(recv):
        recv.view(np.uint8)[fault[1] * recv.dtype.itemsize] ^= 0xFF


def measure(c: Comm, cfg: dict, cand: dict, nbytes: int) -> dict:
    kind, root, op = cfg["kind"], cfg["root"], cfg.get("op")
    dtype = np.dtype(cfg["dtype"])
    sources = cfg.get("sources") or []
    bufs, err = buffers(kind, nbytes, dtype, c.p, c.rank, root, cfg.get("seed", 1), sources)
    if err:
        raise ArgumentError(err)
    send, recv = bufs
    out = send if kind in ("broadcast", "multicast") else recv
    kw = {"packets": cfg.get("packets", 1), "params": cfg.get("params", [])}
    if cand.get("schedule"):
        kw["schedule"] = cand["schedule"]
    if kind == "many_to_all":
        kw["sources"] = sources
    if kind == "multicast":
        kw["targets"] = cfg["targets"]
    prog, send, out = c.prepare(kind, send, out, root, op, cand.get("algo", "auto"), **kw)
    has_in = prog.layout.input_offset(c.rank) is not None
    inp = send if has_in else None

    def run():
        prog.run(c.comm, inp, out)

    inject_crash(cfg, c.rank)
    row: dict = {"bytes": nbytes, "verified": None, "checked": 0, "executor": prog.executor}
    iters, warmup = cfg.get("iters", 10), cfg.get("warmup", 2)
    between = None
    if cfg.get("check", True):
        between = _checks(c, cfg, prog, kind, root, op, send, out, nbytes, iters, row)
    fns, sub = [run], None
    if cfg.get("native"):
        nrecv = None if recv is None else page_aligned(recv)
        sub = multicast_comm(c.comm, root, cfg["targets"]) if kind == "multicast" else None
        fns.append(lambda: native(kind, c.comm, send, nrecv, root, op, sources, sub))
    times = timed(c.comm, fns, warmup, iters, between)
    prog.corrupt_xor = prog.corrupt_input = False
    if sub is not None:
        sub[0].Free()
    row["time"] = float(np.median(times[0]))
    row.update(stats(times[0]))
    if cfg.get("native"):
        row["native_time"] = float(np.median(times[1]))
        row.update(stats(times[1], "native_"))
        row["ratio"] = row["median_us"] / row["native_median_us"]
    return row


def _checks(c: Comm, cfg, prog, kind, root, op, send, out, nbytes, iters, row):
    """The data check of the timed iterations (the first and the last, or every one with
    check "all"): the output pre-filled before the run, compared after it; the self-tests
    inject their faults into the first checked run. Fills `row`'s verified, checked, error."""
    fault = cfg.get("input_fault")
    if fault is not None and (not 0 <= fault < c.p or prog.layout.input_offset(fault) is None):
        raise ArgumentError(
            f"--inject-input-fault {fault}: rank {fault} has no input buffer in this {kind}; "
            "name a rank that contributes data"
        )
    checker = c.checker(prog, kind, root, send, out, op)
    every = cfg.get("check_mode", "first") == "all"
    what = f"{kind} of {nbytes} bytes on {c.p} ranks"
    checker.what = what

    def between(i: int, before: bool) -> None:
        if not (every or i in (0, iters - 1)):
            return
        if before:
            checker.prefill()
            prog.corrupt_xor = i == 0 and cfg.get("xor_fault") == c.rank
            prog.corrupt_input = i == 0 and cfg.get("input_fault") == c.rank
            return
        prog.corrupt_xor = prog.corrupt_input = False
        if i == 0:
            inject_fault(cfg, c.rank, out)
        err = checker.check()
        row["checked"] += 1
        if err is None:
            row["verified"] = row["verified"] is not False
        elif row["verified"] is not False:
            row["verified"], row["error"] = False, err

    return between


def main(argv: list[str]) -> int:
    with open(argv[0]) as f:
        cfg = json.load(f)
    world = MPI.COMM_WORLD
    me = world.Get_rank()
    report: dict = {"results": {}}
    try:
        c = Comm(world, topo=cfg.get("topo"), placement=cfg.get("placement"),
                 executor=cfg.get("executor", "native"))  # fmt: skip
        for cand in cfg["candidates"]:
            name = cand.get("name") or cand.get("algo")
            try:
                rows = [measure(c, cfg, cand, nbytes) for nbytes in cfg["sizes"]]
            except ArgumentError as e:
                if not cfg.get("tune"):
                    raise
                # Tuning: a candidate whose preconditions this run does not meet drops out.
                report.setdefault("refused", {})[name] = str(e)
                continue
            report["results"][name] = rows
    except (ArgumentError, ScheduleError) as e:
        report = {"error": str(e)}
    except Exception as e:  # noqa: BLE001 - one rank failed alone: stop the whole job
        where = traceback.extract_tb(e.__traceback__)[-1]
        msg = f"{type(e).__name__}: {e} (at {where.filename.split('/')[-1]}:{where.lineno})"
        print(f"netcoll-rank {me}: {msg}", file=sys.stderr, flush=True)
        world.Abort(3)
    if me == 0:
        with open(argv[1], "w") as f:
            json.dump(report, f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
