"""Run under mpiexec by tests/test_mpi_multicast.py: multicast through netcoll.mpi.Comm, every
algorithm registered for it (the generic ones on a mesh, the worm and NI schemes of seed 003
on an irregular switch network), three target sets (one target, all others, a seeded random
set), sizes that do not divide into the packets, two dtypes. Each result is checked twice: by
Comm's own check and here against the root's data rebuilt from its seed (no MPI); a
non-target's buffer must come back untouched and the call must return None there. Bad
arguments must raise the same ArgumentError on every rank. Rank 0 prints 'ok NAME' per case
and 'bad NAME rank R: MESSAGE' per rank and bad case."""

import numpy as np
from mpi4py import MPI

from netcoll import _core, topology
from netcoll.mpi import ArgumentError, Comm
from netcoll.mpi.comm import check_targets

world = MPI.COMM_WORLD
p = world.Get_size()
MESH = {8: "mesh:4x2", 4: "mesh:2x2"}[p]
IRREGULAR = f"irregular:switches={p // 2},ports=8,nodes={p},seed=1"
GENERIC = ("intercom-mst", "kbinomial", "postal", "multisend-flat")
WORMS = ("worm-ssr", "worm-path", "worm-tree", "ni-kbinomial")
ROOT = 1
comms = {MESH: Comm(world, topo=MESH), IRREGULAR: Comm(world, topo=IRREGULAR)}
me = world.Get_rank()


def data(n: int, dtype) -> np.ndarray:
    """The root's vector, known to every rank without communication."""
    return np.random.default_rng(4242 + n).integers(0, 250, n).astype(dtype)


def fail(what: str) -> None:
    print(f"rank {me}: {what}", flush=True)
    world.Abort(5)


def case(c: Comm, algo: str, targets, n: int, dtype, packets: int) -> None:
    tg = check_targets(targets, p, ROOT)
    buf = data(n, dtype) if me == ROOT else np.full(n, 99, dtype)
    given = buf if me == ROOT or me % 2 or me not in tg else None  # some targets pass None
    got = c.multicast(given, targets, root=ROOT, algo=algo, packets=packets)
    if me == ROOT or me in tg:
        want = data(n, dtype)
        if got is None or not np.array_equal(got.view(np.uint8), want.view(np.uint8)):
            fail(f"{algo} targets {tg} n {n} {np.dtype(dtype)}: wrong result")
        if given is not None and not np.shares_memory(got, given):
            fail("multicast did not fill the buffer it was given")
    elif got is not None or not (buf == 99).all():
        fail(f"{algo} targets {tg}: a non-target's buffer was touched or returned")


TARGET_SETS = ([p - 1], [r for r in range(p) if r != ROOT], f"random:{p // 2},seed=2")
for algo in GENERIC + WORMS:
    c = comms[MESH if algo in GENERIC else IRREGULAR]
    for targets in TARGET_SETS:
        for n, dtype, packets in ((1, np.uint8, 1), (7, np.int32, 3), (1001, np.uint8, 3)):
            case(c, algo, targets, n, dtype, packets)
        world.Barrier()
        if me == 0:
            spec = targets if isinstance(targets, str) else ",".join(map(str, targets))
            print("ok", algo, spec, flush=True)

# A schedule text: the targets default to the schedule's own.
c = comms[IRREGULAR]
text = _core.build_schedule("multicast", "worm-tree", topology(IRREGULAR), root=ROOT,
                            nbytes=64, targets=[0, p - 1]).to_json()  # fmt: skip
buf = data(50, np.uint8) if me == ROOT else np.zeros(50, np.uint8)
got = c.multicast(buf, root=ROOT, schedule=text)
if me in (0, ROOT, p - 1) and not np.array_equal(got, data(50, np.uint8)):
    fail("schedule= run gave a wrong result")
world.Barrier()
if me == 0:
    print("ok schedule", flush=True)

c = comms[MESH]
BAD = {
    "not-a-rank": lambda: c.multicast(np.ones(4), [p], root=ROOT),
    "root-target": lambda: c.multicast(np.ones(4), [ROOT], root=ROOT),
    "targets-differ": lambda: c.multicast(np.ones(4), [2 if me else 3], root=ROOT),
    "sizes": lambda: c.multicast(np.ones(5 if me == 2 else 4), [2], root=ROOT),
    "no-targets": lambda: c.multicast(np.ones(4), root=ROOT),
    "empty": lambda: c.multicast(np.ones(4), [], root=ROOT),
    "other-schedule": lambda: c.multicast(np.ones(4), [2], root=ROOT, schedule=text),
}
for name, call in BAD.items():
    try:
        call()
        msg = "no error"
    except ArgumentError as e:
        msg = str(e)
    for r, m in enumerate(world.gather(msg, root=0) or []):
        print(f"bad {name} rank {r}: {m}", flush=True)
    world.Barrier()
