"""Run under mpiexec by tests/test_mpi_manytoall.py: the many-to-all multicast (seed 000
s6.3) through netcoll.mpi.Comm, every registered algorithm, several source sets (one source,
every rank, an unsorted list, a seeded random set), sizes that do not divide into the packets,
three dtypes. Each result is checked twice: by Comm's own check (an MPI_Allgatherv of the
sources' inputs) and here against a reference computed from the seeds alone (no MPI). Bad
arguments must raise the same ArgumentError on every rank. Rank 0 prints 'ok NAME' per case
and 'bad NAME rank R: MESSAGE' per rank and bad case."""

import numpy as np
from mpi4py import MPI

from netcoll import _core
from netcoll.mpi import ArgumentError, Comm

world = MPI.COMM_WORLD
p = world.Get_size()
TOPO = {8: "mesh:4x2", 4: "mesh:2x2"}[p]
c = Comm(world, topo=TOPO)
me = c.rank


def block(src: int, n: int, dtype) -> np.ndarray:
    """Source `src`'s input, known to every rank without communication."""
    return np.random.default_rng(1000 + src).integers(0, 250, n).astype(dtype)


def spec_of(sources) -> str:
    return sources if isinstance(sources, str) else ",".join(map(str, sources))


def fail(what: str) -> None:
    print(f"rank {me}: {what}", flush=True)
    world.Abort(5)


def case(algo: str, sources, n: int, dtype, packets: int, give_recvbuf: bool) -> None:
    srcs = list(_core.parse_sources(spec_of(sources), p))
    x = block(me, n, dtype) if me in srcs else None
    out = np.full(n * len(srcs), 99, dtype) if give_recvbuf else None
    got = c.manytoall(x, out, sources=sources, algo=algo, packets=packets)
    want = np.concatenate([block(s, n, dtype) for s in srcs])
    if got.dtype != want.dtype or not np.array_equal(got.view(np.uint8), want.view(np.uint8)):
        fail(f"{algo} sources {srcs} n {n} {np.dtype(dtype)}: wrong result")
    if give_recvbuf and not np.shares_memory(got, out):
        fail("manytoall did not fill the recvbuf it was given")


def xor_ops(algo: str, sources) -> int:
    """XOR encodings plus decodings in the compiled plan (all ranks)."""
    prog = next(
        v for k, v in c._programs.items() if k[0] == "many_to_all" and k[1] == algo
        and k[-1] == tuple(_core.parse_sources(spec_of(sources), p))
    )  # fmt: skip
    return sum(op.kind in ("xor_encode", "decode") for ops in prog.plan.ranks for op in ops)


SOURCE_SETS = ([3], "all", [p - 1, 1, 2], "random:3,seed=2")
for algo in ("hnc", "tree-multicast", "all-at-once"):
    for sources in SOURCE_SETS:
        for n, dtype, packets in ((1, np.uint8, 1), (7, np.int32, 3), (1001, np.uint8, 3),
                                  (333, np.float64, 2)):  # fmt: skip
            case(algo, sources, n, dtype, packets, give_recvbuf=me % 2 == 0)
        if algo == "hnc" and sources == "all" and xor_ops(algo, sources) == 0:
            fail("hnc with every rank a source ran no XOR encode/decode")
        world.Barrier()
        if me == 0:
            print("ok", algo, spec_of(sources), flush=True)

# A schedule text: the sources default to the schedule's own.
topo = __import__("netcoll").topology(TOPO)
text = _core.build_schedule("manytoall", "hnc", topo, nbytes=64, sources="0,2").to_json()
got = c.manytoall(block(me, 50, np.uint8) if me in (0, 2) else None, schedule=text)
if not np.array_equal(got, np.concatenate([block(0, 50, np.uint8), block(2, 50, np.uint8)])):
    fail("schedule= run gave a wrong result")
world.Barrier()
if me == 0:
    print("ok schedule", flush=True)

BAD = {
    "nonsource-sendbuf": lambda: c.manytoall(np.ones(4), sources=[0]),
    "sources-differ": lambda: c.manytoall(
        np.ones(4) if me < 2 else None, sources=[0, 1] if me else [1, 0]
    ),
    "bad-sources": lambda: c.manytoall(np.ones(4), sources=[0, p]),
    "sizes": lambda: c.manytoall(np.ones(4 + (me == 1)), sources="all"),
    "no-sources": lambda: c.manytoall(np.ones(4)),
    "recvbuf": lambda: c.manytoall(np.ones(4), np.empty(5), sources="all"),
    "other-schedule": lambda: c.manytoall(
        np.ones(4) if me in (0, 2) else None, sources=[2, 0], schedule=text
    ),
}
for name, call in BAD.items():
    try:
        call()
        msg = "no error"
    except ArgumentError as e:
        msg = str(e)
    for r, m in enumerate(world.gather(msg, root=0) or []):
        print(f"bad {name} rank {r}: {m}", flush=True)
c.free()
