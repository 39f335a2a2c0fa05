"""`netcoll.mpi.Comm`: netcoll's collectives for mpi4py programs.

Each call checks its arguments on every rank and agrees on them (one small allgather), so bad
arguments raise the same clear error everywhere before any data moves; then it builds the
schedule once (rank 0, through the Rust registry, which verifies it) and broadcasts its JSON,
compiles it per rank (cached per call shape), runs it, and checks the result against a numpy
reference unless ``check=False``.

Buffer conventions are MPI's: ``bcast`` is in place; ``scatter``/``gather``/``allgather``/
``reduce_scatter`` move ``n`` elements per rank (``reduce_scatter`` is MPI_Reduce_scatter_block);
``reduce``/``allreduce`` reduce a vector element-wise; ``alltoall`` is MPI_Alltoall (``n``
elements from every rank to every rank); ``manytoall`` is an Allgatherv in which
only the sources contribute (``n`` elements each) and every rank receives the sources' blocks
in the order of the ``sources`` list; ``multicast`` is a broadcast to the ``targets`` only (in
place: the root's ``buf`` reaches every target's, a non-target's is never touched). Buffers
are contiguous numpy arrays of one numeric dtype (bool, int, uint, float, complex); they are
used flat. The argument checks and the ranks' agreement on them are in args.py.
"""

from __future__ import annotations

import os

from mpi4py import MPI

from ..vocabulary import mpi_kind
from . import tuning
from .args import M2A, MC, OPS, ArgumentError, Arguments, check_targets
from .check import Checker
from .executor import Program
from .plan import ROOTED, parse

__all__ = ["MPI_OPS", "OPS", "ArgumentError", "Comm", "check_targets"]

MPI_OPS = {
    "sum": MPI.SUM,
    "prod": MPI.PROD,
    "min": MPI.MIN,
    "max": MPI.MAX,
    "band": MPI.BAND,
    "bor": MPI.BOR,
    "bxor": MPI.BXOR,
}


class Comm:
    """Wraps an mpi4py communicator (duplicated, so netcoll's messages never meet yours).

    ``topo``: a network spec (``"mesh:4x4"``) or :class:`netcoll.Topology` the ranks are placed
    on (default: a linear array ``mesh:P``, as InterCom treats an unstructured group);
    ``placement[i]``: the endpoint of rank ``i``. ``check``: verify every result (default).
    ``executor``: ``"native"`` (schedules compiled to Rust, netcoll.mpi.native; the
    default) or ``"python"`` (the reference interpreter, netcoll.mpi.executor)."""

    def __init__(
        self, comm=None, topo=None, placement=None, check: bool = True, tuning_file=None,
        executor: str = "native",
    ):  # fmt: skip
        self.comm = (comm if comm is not None else MPI.COMM_WORLD).Dup()
        self.p, self.rank = self.comm.Get_size(), self.comm.Get_rank()
        self._args = Arguments(self.comm, self.p, self.rank)
        self.topo_spec = topo if topo is not None else f"mesh:{self.p}"
        self.placement = list(placement) if placement is not None else None
        self.check = check
        self.tuning_file = tuning_file
        if executor not in ("native", "python"):
            raise ArgumentError(f"executor '{executor}' is not native or python")
        self.executor = executor
        self._programs: dict = {}
        self._topo = None
        self.oversubscribed = _oversubscribed(self.comm)

    def free(self) -> None:
        self.comm.Free()

    # ------------------------------------------------------------------ collectives

    def bcast(self, buf, root=0, algo="auto", **kw):
        return self._run("broadcast", buf, buf, root, None, algo, **kw)

    def scatter(self, sendbuf, recvbuf=None, root=0, algo="auto", **kw):
        return self._run("scatter", sendbuf, recvbuf, root, None, algo, **kw)

    def gather(self, sendbuf, recvbuf=None, root=0, algo="auto", **kw):
        return self._run("gather", sendbuf, recvbuf, root, None, algo, **kw)

    def allgather(self, sendbuf, recvbuf=None, algo="auto", **kw):
        return self._run("allgather", sendbuf, recvbuf, 0, None, algo, **kw)

    def reduce(self, sendbuf, recvbuf=None, op="sum", root=0, algo="auto", **kw):
        return self._run("reduce", sendbuf, recvbuf, root, op, algo, **kw)

    def allreduce(self, sendbuf, recvbuf=None, op="sum", algo="auto", **kw):
        return self._run("allreduce", sendbuf, recvbuf, 0, op, algo, **kw)

    def reduce_scatter(self, sendbuf, recvbuf=None, op="sum", algo="auto", **kw):
        return self._run("reduce_scatter", sendbuf, recvbuf, 0, op, algo, **kw)

    def alltoall(self, sendbuf, recvbuf=None, algo="auto", **kw):
        """Personalized all-to-all, as MPI_Alltoall: `sendbuf` holds `p` chunks of `n`
        elements, chunk `j` for rank `j`; `recvbuf` (allocated if missing) gets `p` chunks
        of `n`, chunk `i` from rank `i`. netcoll registers no alltoall algorithm: pass
        ``schedule=`` (a netcoll JSON schedule, e.g. an MSCCL program loaded by
        ``netcoll.load_schedule``)."""
        return self._run("alltoall", sendbuf, recvbuf, 0, None, algo, **kw)

    def manytoall(self, sendbuf, recvbuf=None, sources=None, algo="auto", **kw):
        """Many-to-all multicast (seed 000 s6.3): every source contributes its `n`-element
        `sendbuf`; a non-source passes ``None`` (it contributes nothing). Every rank's
        `recvbuf` (allocated if missing: `len(sources) * n` elements of the sources' dtype)
        gets the sources' blocks in the order of `sources`: a rank list, ``"all"`` or
        ``"random:COUNT,seed=S"`` (as ``netcoll schedule manytoall --sources``); with
        ``schedule=`` it defaults to the schedule's own sources."""
        return self._run(M2A, sendbuf, recvbuf, 0, None, algo, sources=sources, **kw)

    def multicast(self, buf, targets=None, root=0, algo="auto", **kw):
        """Multicast: the root's `buf` goes to every rank of `targets` (in place, as
        :meth:`bcast`); a non-target gets nothing: it may pass ``None``, and a buffer it
        passes is left untouched. `targets`: a rank list or ``"random:COUNT,seed=S"`` (as
        ``netcoll schedule multicast --dests``); with ``schedule=`` it defaults to the
        schedule's own targets. A target may pass ``None`` to get a new buffer. Returns the
        buffer on the root and the targets, ``None`` elsewhere."""
        return self._run(MC, buf, buf, root, None, algo, targets=targets, **kw)

    # ------------------------------------------------------------------ machinery

    def prepare(
        self, kind, sendbuf, recvbuf, root, op, algo, packets=1, params=(), schedule=None,
        sources=None, targets=None,
    ):  # fmt: skip
        """Checks and agrees on the arguments, allocates a missing output, and returns
        ``(program, sendbuf, recvbuf)`` ready for :meth:`Program.run` (used by benchmarks
        to time the run alone)."""
        kind = mpi_kind(kind) or kind
        call = (algo, packets, tuple(params), schedule is None)
        if kind == M2A:
            args = (sendbuf, recvbuf, sources, schedule, call)
            sendbuf, recvbuf, n, sources = self._args.manytoall(*args)
        elif kind == MC:
            sendbuf, n, targets = self._args.multicast(sendbuf, targets, root, schedule, call)
            recvbuf = sendbuf if self.rank in targets or self.rank == root else None
        else:
            err, sig, sendbuf, recvbuf, n = self._args.local(kind, sendbuf, recvbuf, root, op)
            self._args.agree(kind, err, (sig, *call))
        if algo == "auto" and schedule is None:
            try:
                algo = tuning.choose(kind, self.p, n * sendbuf.dtype.itemsize, self.tuning_file)
            except ValueError as e:  # no algorithm, or an unreadable table: same on all ranks
                raise ArgumentError(str(e)) from None
        key = (kind, algo, root, n, sendbuf.dtype.str, op, packets, tuple(params), schedule,
               tuple(targets or ()), tuple(sources or ()))  # fmt: skip
        prog = self._programs.get(key)
        if prog is None:
            text = schedule
            if text is not None:
                self._verify(text)
            else:
                nbytes = n * sendbuf.dtype.itemsize
                text = self._schedule(kind, algo, root, nbytes, packets, params, sources, targets)
            plan = parse(text)
            want_root = root if kind in ROOTED else 0
            if plan.p != self.p or plan.kind != kind or plan.root != want_root:
                raise ArgumentError(
                    f"the schedule is {_call(plan.kind, plan.p, plan.root)}; "
                    f"this call is {_call(kind, self.p, root)}"
                )
            if kind == M2A and plan.sources != sources:
                raise ArgumentError(
                    f"the schedule's sources are {plan.sources}; this call's are {sources}"
                )
            if kind == MC and sorted(plan.targets) != sorted(targets):
                raise ArgumentError(
                    f"the schedule's targets are {sorted(plan.targets)}; this call's are "
                    f"{sorted(targets)}"
                )
            prog = Program(plan, self.rank, n, sendbuf.dtype, OPS.get(op))
            prog.oversubscribed = self.oversubscribed
            if self.executor == "native":
                from . import native

                native.attach(prog, op)
            self._programs[key] = prog
        return prog, sendbuf, recvbuf

    def _run(self, kind, sendbuf, recvbuf, root, op, algo, check=None, **kw):
        prog, sendbuf, recvbuf = self.prepare(kind, sendbuf, recvbuf, root, op, algo, **kw)
        inbuf = sendbuf if prog.layout.input_offset(self.rank) is not None else None
        checker = None
        if self.check if check is None else check:
            checker = self.checker(prog, kind, root, sendbuf, recvbuf, op)
            checker.prefill()
        prog.run(self.comm, inbuf, recvbuf)
        if checker is not None:
            checker.verify()
        return recvbuf

    def checker(self, prog, kind, root, sendbuf, recvbuf, op) -> Checker:
        """The check of a prepared call, built from copies of the inputs before any run
        (check.Checker). `kind` as `prepare` takes it."""
        kind = mpi_kind(kind) or kind
        me = self.rank
        has_in = prog.layout.input_offset(me) is not None
        # An in-place broadcast's non-root buffer is output only; everywhere else the send
        # buffer is input the collective must leave as it was.
        inbuf = sendbuf if has_in or kind not in ("broadcast", MC) else None
        what = f"{kind} ({prog.plan.p} ranks, {prog.n} x {prog.dtype})"
        return Checker(
            kind, self.comm, root, prog.plan.targets, sendbuf, inbuf, recvbuf, prog.n,
            prog.dtype, OPS.get(op), what, prog.plan.sources,
        )  # fmt: skip

    def _verify(self, text: str) -> None:
        """A schedule from outside is proved by the Rust verifier (on rank 0) before it
        runs: a wrong one would hang or compute garbage. Every rank gets the verdict."""
        err = None
        if self.rank == 0:
            try:
                from .. import _core

                report = _core.Schedule.from_json(text).verify()
                if not report["ok"]:
                    err = f"the schedule is wrong: {report['diagnosis']}"
            except Exception as e:  # noqa: BLE001 - forwarded to every rank as one line
                err = f"the schedule cannot be read: {e}"
        err = self.comm.bcast(err, root=0)
        if err is not None:
            raise ArgumentError(err)

    def _schedule(
        self, kind, algo, root, nbytes, packets, params, sources=None, targets=None
    ) -> str:
        """Rank 0 builds (and the registry verifies) the schedule; every rank gets its JSON
        or the same error."""
        text, err = None, None
        if self.rank == 0:
            try:
                from .. import _core, networks

                if self._topo is None:
                    spec = self.topo_spec
                    self._topo = networks.topology(spec) if isinstance(spec, str) else spec
                s = _core.build_schedule(
                    kind,
                    algo,
                    self._topo,
                    p=self.p,
                    root=root,
                    nbytes=max(nbytes, 1),
                    packets=packets,
                    params=list(params),
                    placement=self.placement,
                    sources=None if sources is None else ",".join(map(str, sources)),
                    targets=targets,
                )
                text = s.to_json()
            except Exception as e:  # noqa: BLE001 - forwarded to every rank as one line
                err = str(e)
        text, err = self.comm.bcast((text, err), root=0)
        if err is not None:
            raise ArgumentError(err)
        return text


def _oversubscribed(comm) -> bool:
    env = os.environ.get("NETCOLL_OVERSUBSCRIBED")
    if env is not None:
        return env not in ("", "0")
    try:  # the cores this rank may run on (taskset, a batch system's cpuset)
        mine = sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        mine = list(range(os.cpu_count() or 1))
    node = comm.Split_type(MPI.COMM_TYPE_SHARED)
    # The node's ranks may use the union of their masks: ranks bound one per core each see
    # one core, ranks pinned together all see the same one.
    cores = len(set().union(*node.allgather(mine)))
    local = node.Get_size()
    node.Free()
    return local > cores


def _call(kind: str, p: int, root: int) -> str:
    """'a broadcast on 4 ranks with root 0', 'an allreduce on 4 ranks' (no root unrooted)."""
    article = "an" if kind[:1] in "aeiou" else "a"
    return f"{article} {kind} on {p} ranks" + (f" with root {root}" if kind in ROOTED else "")
