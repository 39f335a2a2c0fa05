"""Run under mpiexec by tests/test_mpi_manytoall.py: executes a schedule file WITHOUT the Rust
verifier (Program directly), so that a wrong schedule reaches the executor. A rank that cannot
carry out an op prints one line and aborts the job; every rank that finishes prints 'done'."""

import sys
from pathlib import Path

import numpy as np
from mpi4py import MPI

from netcoll.mpi.executor import Program
from netcoll.mpi.plan import parse

world = MPI.COMM_WORLD
me = world.Get_rank()
plan = parse(Path(sys.argv[1]).read_text())
n = 10
prog = Program(plan, me, n, np.uint8)
mine = np.full(n, me, np.uint8) if me in plan.sources else None
out = np.zeros(n * len(plan.sources), np.uint8)
try:
    prog.run(world, mine, out)
except Exception as e:  # noqa: BLE001 - reported as one line, then the job ends
    print(f"rank {me}: {type(e).__name__}: {e}", flush=True)
    world.Abort(3)
print("done", flush=True)
