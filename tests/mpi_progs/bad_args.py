"""Run under mpiexec by tests/test_mpi.py: bad arguments raise the same clear error on every
rank before anything is sent; rank 0 prints 'NAME rank R: <error>' for every rank and case."""

import numpy as np
from mpi4py import MPI

from netcoll.mpi import ArgumentError, Comm

c = Comm(MPI.COMM_WORLD)
me, p = c.rank, c.p
cases = {
    "sizes": lambda: c.allreduce(np.ones(4 if me != 1 else 5)),
    "dtype": lambda: c.allreduce(np.ones(4), op="bxor"),
    "op": lambda: c.allreduce(np.ones(4), op="avg"),
    "recvbuf": lambda: c.allgather(np.ones(4), np.empty(3)),
    "root": lambda: c.bcast(np.ones(4), root=p, algo="linear"),
    "algo": lambda: c.bcast(np.ones(4), algo="no-such-algo"),
    "object": lambda: c.bcast(np.array(["a", "b"], dtype=object), algo="linear"),
    "mixed": lambda: c.allgather(np.ones(2, dtype=np.float32 if me == 0 else np.float64)),
}
for name, call in cases.items():
    try:
        call()
        msg = "no error"
    except ArgumentError as e:
        msg = str(e)
    # Rank 0 prints every rank's message (ranks writing at once would interleave lines).
    for r, m in enumerate(MPI.COMM_WORLD.gather(msg, root=0) or []):
        print(f"{name} rank {r}: {m}", flush=True)
