"""Real runs: netcoll schedules executed over MPI (mpi4py on MPICH), with every result
checked. See docs/mpi.md."""

from .check import MismatchError
from .comm import ArgumentError, Comm
from .executor import ExecutionError, Program
from .plan import Layout, Plan, ScheduleError, parse

__all__ = [
    "ArgumentError",
    "Comm",
    "ExecutionError",
    "Layout",
    "MismatchError",
    "Plan",
    "Program",
    "ScheduleError",
    "parse",
]
