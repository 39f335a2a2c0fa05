"""Run under mpiexec by tests/test_mpi.py: every collective through netcoll.mpi.Comm with
hand-written schedules and registered algorithms, several dtypes and sizes (including sizes
that do not divide into the blocks), each result checked twice: by Comm's own numpy check
and here against the MPI library's collective. Prints one 'ok NAME' line per case on rank 0."""

import sys

import numpy as np
from mpi4py import MPI

from netcoll.mpi import Comm
from netcoll.mpi import examples as E

world = MPI.COMM_WORLD
c = Comm(world, executor=sys.argv[1] if len(sys.argv) > 1 else "native")
p, me = c.p, c.rank
rng = np.random.default_rng(100 + me)
RED = {"sum": MPI.SUM, "max": MPI.MAX, "bxor": MPI.BXOR, "min": MPI.MIN, "prod": MPI.PROD}


def same(a, b, what):
    if a is None and b is None:
        return
    if a.dtype.kind == "f":
        ok = np.allclose(a, b, rtol=1e-12)
    else:
        ok = np.array_equal(a.view(np.uint8), b.view(np.uint8))
    if not ok:
        print(f"rank {me}: {what} differs from native", file=sys.stderr, flush=True)
        world.Abort(5)


def case(kind, dtype, n, op="sum", root=0, **kw):
    x = rng.integers(1, 20, n * p).astype(dtype)
    if kind == "broadcast":
        buf = x[:n].copy() if me == root else np.zeros(n, dtype)
        ref = buf.copy()
        world.Bcast(ref, root=root)
        c.bcast(buf, root=root, **kw)
        same(buf, ref, kind)
    elif kind == "allgather":
        out = c.allgather(x[:n], **kw)
        ref = np.empty(n * p, dtype)
        world.Allgather(x[:n], ref)
        same(out, ref, kind)
    elif kind == "gather":
        out = c.gather(x[:n], root=root, **kw)
        ref = np.empty(n * p, dtype) if me == root else None
        world.Gather(x[:n], ref, root=root)
        same(out, ref, kind)
    elif kind == "scatter":
        out = c.scatter(x, np.empty(n, dtype), root=root, **kw)
        ref = np.empty(n, dtype)
        world.Scatter(x, ref, root=root)
        same(out, ref, kind)
    elif kind == "reduce":
        out = c.reduce(x[:n], op=op, root=root, **kw)
        ref = np.empty(n, dtype) if me == root else None
        world.Reduce(x[:n], ref, op=RED[op], root=root)
        same(out, ref, kind)
    elif kind == "allreduce":
        out = c.allreduce(x[:n], op=op, **kw)
        ref = np.empty(n, dtype)
        world.Allreduce(x[:n], ref, op=RED[op])
        same(out, ref, kind)
    elif kind == "alltoall":
        out = c.alltoall(x, **kw)
        ref = np.empty(n * p, dtype)
        world.Alltoall(x, ref)
        same(out, ref, kind)
    elif kind == "reduce_scatter":
        out = c.reduce_scatter(x, op=op, **kw)
        ref = np.empty(n, dtype)
        world.Reduce_scatter_block(x, ref, op=RED[op])
        same(out, ref, kind)


def done(name):
    world.Barrier()
    if me == 0:
        print("ok", name, flush=True)


SIZES = (1, 7, 1000)
for name, (kind, _) in E.EXAMPLES.items():
    if not E.supports(name, p):
        continue
    variants = [{}]
    if name == "chain-bcast":
        variants = [{"packets": 1}, {"packets": 2}, {"packets": 5}]
    for extra in variants:
        roots = [0, p - 1] if "root" in E.EXAMPLES[name][1].__code__.co_varnames else [0]
        for root in roots:
            kw = {"root": root} if root else {}
            js = E.build(name, p, **extra, **kw)
            for dtype, op in ((np.float64, "sum"), (np.int32, "max"), (np.uint8, "bxor")):
                for n in SIZES:
                    case(kind, dtype, n, op=op, root=root, schedule=js)
    done(name)

# Every registered algorithm of every collective, through the Rust registry. An algorithm
# whose preconditions this rank count or the default network (mesh:P) does not meet is
# refused by the registry with an ArgumentError on every rank: that is reported, not a failure
# (wrong results and executor errors still fail).
from netcoll import _core  # noqa: E402
from netcoll.mpi import ArgumentError  # noqa: E402

KINDS = ("broadcast", "scatter", "gather", "allgather", "reduce", "allreduce", "reduce_scatter")
UNROOTED = ("allgather", "allreduce", "reduce_scatter")
for a in _core.algorithms():
    for coll in a["collectives"]:
        if coll not in KINDS:
            continue
        try:
            for packets in (1, 3):
                for n in SIZES:
                    root = 0 if coll in UNROOTED else p - 1
                    case(coll, np.float64, n, root=root, algo=a["name"], packets=packets)
        except ArgumentError as e:
            if me == 0:
                print(f"refused {a['name']} {coll}: {e}", flush=True)
            continue
        done(f"{a['name']} {coll}")
c.free()
