"""Run under mpiexec (2 ranks) by tests/test_mpi_check.py: the data check against stand-in
executors (the MPI library's collectives, or nothing at all), each done wrong in one way the
check must catch. Prints 'NAME passed' or 'NAME caught: MESSAGE' per case on rank 0."""

import numpy as np
from mpi4py import MPI

from netcoll.mpi.check import Checker

world = MPI.COMM_WORLD
p, me = world.Get_size(), world.Get_rank()
rng = np.random.default_rng(7 + me)


def report(name, checker, run):
    checker.prefill()
    run()
    err = checker.check()
    if me == 0:
        print(f"{name} {'passed' if err is None else 'caught: ' + err}", flush=True)


# allgather: right, lazy (writes nothing: the output already held the right answer before
# the pre-fill), and one that scribbles on its input after sending it.
x = rng.integers(0, 50, 16).astype(np.uint8)
out = np.empty(16 * p, np.uint8)
world.Allgather(x, out)  # the right answer is already there
chk = Checker("allgather", world, 0, [], x, x, out, 16, x.dtype, None, "allgather")
report("allgather-right", chk, lambda: world.Allgather(x, out))
report("allgather-lazy", chk, lambda: None)


def scribble():
    world.Allgather(x, out)
    if me == 1:
        x[3] ^= 1


report("allgather-writes-input", chk, scribble)

# broadcast whose root corrupts its buffer before sending: every rank agrees with the root,
# so a reference built after the run would pass it.
buf = rng.integers(0, 50, 32).astype(np.uint8) if me == 0 else np.zeros(32, np.uint8)
chk = Checker("broadcast", world, 0, [], buf, buf if me == 0 else None, buf, 32, buf.dtype,
              None, "broadcast")  # fmt: skip


def corrupt_root():
    if me == 0:
        buf[0] ^= 0xFF
    world.Bcast(buf, root=0)


report("bcast-root-corrupts", chk, corrupt_root)

# allreduce of floats: right, and lazy (the pre-fill's complements are NaN or the wrong sign)
y = rng.integers(0, 50, 8).astype(np.float64)
red = np.empty(8)
world.Allreduce(y, red)
chk = Checker("allreduce", world, 0, [], y, y, red, 8, y.dtype, np.add, "allreduce")
report("allreduce-right", chk, lambda: world.Allreduce(y, red))
report("allreduce-lazy", chk, lambda: None)
