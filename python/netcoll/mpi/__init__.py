"""Real runs: netcoll schedules executed over MPI (mpi4py on MPICH), with every result
checked. See docs/mpi.md.

Names load lazily, so that importing ``netcoll.mpi.plan`` or the launcher (as ``netcoll
run`` does) never initialises MPI in a process that is not a rank.
"""

from __future__ import annotations

import importlib

_WHERE = {
    "ArgumentError": "comm",
    "Comm": "comm",
    "MismatchError": "check",
    "ExecutionError": "executor",
    "Program": "executor",
    "Layout": "plan",
    "Plan": "plan",
    "ScheduleError": "plan",
    "parse": "plan",
}

__all__ = sorted(_WHERE)


def __getattr__(name: str):
    if name in _WHERE:
        return getattr(importlib.import_module(f".{_WHERE[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
