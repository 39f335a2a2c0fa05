"""A collective's arguments: each rank checks its own (buffers, dtypes, root, op, targets,
sources), then the ranks agree on them in one small allgather, so that bad or mismatched
arguments raise the same :class:`ArgumentError` on every rank before any data moves. Used by
:class:`netcoll.mpi.Comm` (comm.py)."""

from __future__ import annotations

import numpy as np

from ..vocabulary import MPI_RUN
from .plan import ROOTED, parse

OPS = {
    "sum": np.add,
    "prod": np.multiply,
    "min": np.minimum,
    "max": np.maximum,
    "band": np.bitwise_and,
    "bor": np.bitwise_or,
    "bxor": np.bitwise_xor,
}
M2A = "many_to_all"
MC = "multicast"


class ArgumentError(ValueError):
    """Bad arguments to a collective (raised on every rank, before anything is sent)."""


class _Bad(ValueError):
    """One rank's own finding about its arguments, before the ranks agree on them."""


def _flat_or_bad(buf, name: str):
    out, err = flat(buf, name)
    if err:
        raise _Bad(err)
    return out


def check_dtype(dtype: np.dtype, op: str | None) -> str | None:
    if dtype.kind not in "biufc":
        return f"dtype {dtype} is not supported: use a bool, integer, float or complex dtype"
    if op is None:
        return None
    if op not in OPS:
        return f"unknown reduction op '{op}': use {', '.join(OPS)}"
    if op.startswith("b") and dtype.kind not in "biu":
        return f"op '{op}' needs an integer or bool dtype, not {dtype}"
    if op in ("min", "max") and dtype.kind == "c":
        return f"op '{op}' is not defined for complex dtype {dtype}"
    return None


def flat(buf, name: str):
    """A 1-D view of a contiguous numpy array, or an error message."""
    if not isinstance(buf, np.ndarray):
        return None, f"{name} must be a numpy array, not {type(buf).__name__}"
    if not buf.flags.c_contiguous:
        return None, f"{name} must be C-contiguous (use np.ascontiguousarray)"
    return buf.reshape(-1), None


class Arguments:
    """The checks of one communicator's calls: `comm` (an mpi4py communicator) of `p` ranks,
    this rank `rank`."""

    def __init__(self, comm, p: int, rank: int):
        self.comm, self.p, self.rank = comm, p, rank

    def manytoall(self, sendbuf, recvbuf, sources, schedule, call):
        """A many-to-all's buffers: a source's `sendbuf` sets `n` and the dtype; a
        non-source passes None and learns them from the sources (one allgather), unless its
        `recvbuf` already says. Returns (sendbuf, recvbuf, n, sources) or raises
        ArgumentError on every rank."""
        try:
            srcs = self._m2a_sources(sources, schedule)
            sb, rb, n, dtype = self._m2a_local(sendbuf, recvbuf, srcs)
            err = None
        except _Bad as e:
            err, srcs, sb, rb, n, dtype = str(e), None, None, None, None, None
        views = self.comm.allgather((err, srcs, n, None if dtype is None else dtype.str, call))
        for r, (e, *_rest) in enumerate(views):
            if e is not None:
                raise ArgumentError(f"manytoall: rank {r}: {e}")
        n, dtype = _m2a_agree(views)
        if sb is None:  # a non-source: nothing to send
            sb = np.empty(0, dtype=dtype)
        if rb is None:
            rb = np.empty(n * len(srcs), dtype=dtype)
        return sb, rb, n, srcs

    def multicast(self, buf, targets, root, schedule, call):
        """A multicast's buffer: the root's sets `n` and the dtype, a target's must match
        (or is allocated if None), a non-target's is ignored. Returns (buf, n, targets) or
        raises the same ArgumentError on every rank."""
        try:
            if not (isinstance(root, int) and 0 <= root < self.p):
                raise _Bad(f"root {root} is out of range: ranks are 0 to {self.p - 1}")
            tg = self._mc_targets(targets, root, schedule)
            buf, n, dtype = self._mc_local(buf, tg, root)
            err = None
        except _Bad as e:
            err, tg, n, dtype = str(e), None, None, None
        views = self.comm.allgather((err, tg, n, None if dtype is None else dtype.str, call))
        for r, (e, *_rest) in enumerate(views):
            if e is not None:
                raise ArgumentError(f"multicast: rank {r}: {e}")
        n, dtype = _mc_agree(views, root)
        if buf is None and self.rank in tg:
            buf = np.empty(n, dtype=dtype)
        elif buf is None or self.rank not in tg and self.rank != root:
            buf = np.empty(0, dtype=dtype)  # a non-target's buffer is never touched
        return buf, n, tg

    def _mc_targets(self, targets, root, schedule) -> list[int]:
        """The targets: given (a list or the text of --dests) or the schedule's."""
        if targets is None and schedule is not None:
            try:
                return sorted(parse(schedule).targets)
            except ValueError as e:
                raise _Bad(f"the schedule cannot be read: {e}") from None
        if targets is None:
            raise _Bad("give targets= (a rank list or 'random:COUNT,seed=S')")
        try:
            return check_targets(targets, self.p, root)
        except ValueError as e:
            raise _Bad(str(e)) from None

    def _mc_local(self, buf, targets, root):
        """This rank's (buf, n, dtype); n and dtype None where it cannot tell (a target or
        non-target without a buffer). Raises _Bad for bad arguments."""
        me = self.rank
        if me != root and me not in targets:
            return None, None, None  # a non-target: whatever it passes stays untouched
        if buf is None and me != root:
            return None, None, None  # a target learns the size from the root
        b = _flat_or_bad(buf, "buf")
        if len(b) == 0:
            raise _Bad("buf is empty: a multicast moves at least one element")
        err = check_dtype(b.dtype, None)
        if err:
            raise _Bad(err)
        return b, len(b), b.dtype

    def _m2a_sources(self, sources, schedule) -> list[int]:
        """The source list: given (a list or the text of --sources) or the schedule's."""
        if sources is None and schedule is not None:
            try:
                return parse(schedule).sources
            except ValueError as e:
                raise _Bad(f"the schedule cannot be read: {e}") from None
        if sources is None:
            raise _Bad("give sources= (a rank list, 'all' or 'random:COUNT,seed=S')")
        spec = sources if isinstance(sources, str) else ",".join(str(s) for s in sources)
        try:
            from .. import _core

            return list(_core.parse_sources(spec, self.p))
        except Exception as e:  # noqa: BLE001 - NetcollError or a bad type: one line
            raise _Bad(str(e)) from None

    def _m2a_local(self, sendbuf, recvbuf, srcs):
        """This rank's (sendbuf, recvbuf, n, dtype); n and dtype None if it cannot tell (a
        non-source without a recvbuf). Raises _Bad for bad arguments."""
        me, S = self.rank, len(srcs)
        sb = n = dtype = None
        if me in srcs:
            sb = _flat_or_bad(sendbuf, "sendbuf")
            if len(sb) == 0:
                raise _Bad("sendbuf is empty: a source contributes at least one element")
            n, dtype = len(sb), sb.dtype
        elif sendbuf is not None and not (isinstance(sendbuf, np.ndarray) and sendbuf.size == 0):
            raise _Bad(f"rank {me} is not a source: pass sendbuf=None (it contributes nothing)")
        rb = None if recvbuf is None else _flat_or_bad(recvbuf, "recvbuf")
        if rb is not None and dtype is not None:
            if rb.dtype != dtype:
                raise _Bad(f"recvbuf dtype {rb.dtype} differs from sendbuf dtype {dtype}")
            if len(rb) != n * S:
                raise _Bad(
                    f"recvbuf has {len(rb)} elements, manytoall needs {n * S} ({S} sources x {n})"
                )
        elif rb is not None:  # a non-source's recvbuf tells n and the dtype
            if len(rb) == 0 or len(rb) % S:
                raise _Bad(f"recvbuf has {len(rb)} elements: manytoall needs {S} sources x n")
            n, dtype = len(rb) // S, rb.dtype
        err = None if dtype is None else check_dtype(dtype, None)
        if err:
            raise _Bad(err)
        return sb, rb, n, dtype

    def local(self, kind, sendbuf, recvbuf, root, op):
        """This rank's view of the call: an error or None, and a signature all must share."""
        p, me = self.p, self.rank
        rooted = kind in ROOTED
        if kind not in MPI_RUN:
            return f"unknown collective '{kind}'", None, sendbuf, recvbuf, 0
        if rooted and not (isinstance(root, int) and 0 <= root < p):
            return f"root {root} is out of range: ranks are 0 to {p - 1}", None, sendbuf, recvbuf, 0
        needs_send = kind not in ("scatter",) or me == root
        sb, err = flat(sendbuf, "sendbuf")
        if err and needs_send:
            return err, None, sendbuf, recvbuf, 0
        if sb is None:  # scatter non-root: only the dtype of recvbuf matters
            rb, err = flat(recvbuf, "recvbuf")
            if err:
                return err, None, sendbuf, recvbuf, 0
            sb = np.empty(0, dtype=rb.dtype)
        reduction = kind in ("reduce", "allreduce", "reduce_scatter")
        err = check_dtype(sb.dtype, op if reduction else None)
        if err:
            return err, None, sb, recvbuf, 0
        n, out_len = self._shape(kind, sb, recvbuf, root)
        if kind == "broadcast":
            rb = sb
        elif out_len is None:
            rb = None if recvbuf is None else flat(recvbuf, "recvbuf")[0]
        elif recvbuf is None:
            rb = np.empty(out_len, dtype=sb.dtype)
        else:
            rb, err = flat(recvbuf, "recvbuf")
            if err:
                return err, None, sb, recvbuf, n
            if rb.dtype != sb.dtype:
                err = f"recvbuf dtype {rb.dtype} differs from sendbuf dtype {sb.dtype}"
                return err, None, sb, rb, n
            if len(rb) != out_len:
                return (f"recvbuf has {len(rb)} elements, {kind} needs {out_len}", None, sb, rb, n)
        if n is None:
            return (
                f"sendbuf has {len(sb)} elements: {kind} needs a multiple of p = {p}",
                None,
                sb,
                rb,
                0,
            )
        sig = (kind, root if rooted else 0, n, sb.dtype.str, op)
        return None, sig, sb, rb, n

    def _shape(self, kind, sb, recvbuf, root):
        """Per-call count n (see plan.Layout) and this rank's output length (None: none)."""
        p, me = self.p, self.rank
        if kind == "broadcast":
            return len(sb), len(sb)
        if kind == "scatter":
            if me == root:
                return (len(sb) // p if len(sb) % p == 0 else None), len(sb) // p
            rb = flat(recvbuf, "recvbuf")[0]
            return len(rb), len(rb)
        if kind == "gather":
            return len(sb), (len(sb) * p if me == root else None)
        if kind in ("allgather", "alltoall_broadcast"):
            return len(sb), len(sb) * p
        if kind == "alltoall":  # p chunks of n out, p chunks of n in (MPI_Alltoall)
            return (len(sb) // p if len(sb) % p == 0 else None), len(sb)
        if kind == "reduce":
            return len(sb), (len(sb) if me == root else None)
        if kind == "allreduce":
            return len(sb), len(sb)
        return (len(sb) // p if len(sb) % p == 0 else None), len(sb) // p

    def agree(self, kind, err, sig) -> None:
        views = self.comm.allgather((err, sig))
        for r, (e, _) in enumerate(views):
            if e is not None:
                raise ArgumentError(f"{kind}: rank {r}: {e}")
        first = views[0][1]
        for r, (_, s) in enumerate(views):
            if s != first:
                raise ArgumentError(
                    f"{kind}: ranks disagree on the call: rank 0 passes {_describe(first)}, "
                    f"rank {r} passes {_describe(s)}"
                )


def _agree_on_call(views, op: str, ranks_name: str) -> None:
    """Every rank's view names the same ranks (`ranks_name`: the sources or the targets) and
    the same call as rank 0's; else the same ArgumentError on every rank."""
    first, call = views[0][1], views[0][4]
    for r, (_, x, _, _, c) in enumerate(views):
        if x != first or c != call:
            what = ranks_name if x != first else "algorithm, packets, params or schedule"
            raise ArgumentError(
                f"{op}: ranks disagree on the call: rank 0 and rank {r} pass different "
                f"{what} ({first if x != first else call} vs {x if x != first else c})"
            )


def _m2a_agree(views) -> tuple[int, np.dtype]:
    """The count and dtype every rank must share (a rank that does not know them yet takes
    the sources'); the same ArgumentError on every rank if they differ."""
    _agree_on_call(views, "manytoall", "sources")
    known = [(r, n, dt) for r, (_, _, n, dt, _) in enumerate(views) if n is not None]
    if not known:
        raise ArgumentError("manytoall: no rank knows the size: a source passes its sendbuf")
    r0, n0, dt0 = known[0]
    for r, n, dt in known:
        if (n, dt) != (n0, dt0):
            raise ArgumentError(
                f"manytoall: ranks disagree on the call: rank {r0} passes {n0} x "
                f"{np.dtype(dt0)}, rank {r} passes {n} x {np.dtype(dt)} per source"
            )
    return n0, np.dtype(dt0)


def check_targets(targets, p: int, root: int) -> list[int]:
    """A multicast's targets, sorted: a rank list (or its text) or 'random:COUNT,seed=S'
    (drawn as `netcoll schedule multicast --dests` draws them). ValueError, one line, if
    a target is not a rank, is listed twice or is the root, or if there is none."""
    if isinstance(targets, str):
        from .._core import NetcollError
        from ..textvalues import parse_dests

        try:
            targets = parse_dests(targets.strip(), p, root)
        except NetcollError as e:
            raise ValueError(str(e).replace("--dests ", "targets ")) from None
    try:
        tg = [int(t) for t in targets]
    except (TypeError, ValueError):
        raise ValueError(f"targets {targets!r} is not a list of ranks") from None
    if not tg:
        raise ValueError("a multicast needs at least one target")
    seen: set[int] = set()
    for t in tg:
        if not 0 <= t < p:
            raise ValueError(f"multicast target {t} is out of range: ranks are 0 to {p - 1}")
        if t == root:
            raise ValueError(f"multicast target {t} is the root: it holds the data already")
        if t in seen:
            raise ValueError(f"multicast target {t} is listed twice")
        seen.add(t)
    return sorted(tg)


def _mc_agree(views, root: int) -> tuple[int, np.dtype]:
    """The root's count and dtype; a target that passed a buffer must match them."""
    _agree_on_call(views, "multicast", "targets")
    n0, dt0 = views[root][2], views[root][3]
    for r, (_, _, n, dt, _) in enumerate(views):
        if n is not None and (n, dt) != (n0, dt0):
            raise ArgumentError(
                f"multicast: ranks disagree on the call: root {root} passes {n0} x "
                f"{np.dtype(dt0)}, target {r} passes {n} x {np.dtype(dt)}"
            )
    return n0, np.dtype(dt0)


def _describe(sig) -> str:
    (kind, root, n, dtype, op), algo, packets, params, _ = sig
    where = f"root {root}, " if kind in ROOTED else ""
    extra = f", op {op}" if op else ""
    return f"{where}{n} x {np.dtype(dtype)}{extra}, algo {algo}, packets {packets}"
