"""Prints whether `Comm` judges its node oversubscribed (more ranks than usable cores)."""

from mpi4py import MPI

from netcoll.mpi import Comm

c = Comm(MPI.COMM_WORLD)
if c.rank == 0:
    print("oversubscribed" if c.oversubscribed else "a core per rank")
