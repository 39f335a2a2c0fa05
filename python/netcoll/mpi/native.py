"""The native executor: a :class:`~netcoll.mpi.executor.Program` lowered once
(:mod:`netcoll.mpi.lower`) and run by Rust (``crates/netcoll-mpi``) through the MPI library
mpi4py loaded, on the same communicator.

Per buffer set (input, output: the arrays a call passes) the program is *bound* once: every
MPI message becomes a persistent request over its spans, multi-piece messages an MPI derived
datatype; the binding is kept while the same buffers come back (a benchmark's timed loop) and
rebuilt when they change. This module keeps the bound arrays referenced, so their memory
stays valid and in place for the binding's lifetime.

Where the native executor cannot run (an MPI library other than MPICH's ABI, a reduction
dtype it does not implement: complex or float16), :func:`unavailable` says why and the
caller runs the Python executor instead.
"""

from __future__ import annotations

import functools
import json
import os

import numpy as np
from mpi4py import MPI

from .. import _core
from .lower import lower


@functools.cache
def library() -> str | None:
    """Path of the MPI shared library loaded in this process (the one mpi4py uses)."""
    try:
        with open("/proc/self/maps") as f:
            for line in f:
                path = line.split()[-1]
                if "/libmpi" in path and ".so" in path:
                    return path
    except OSError:
        return None
    return None


@functools.cache
def _library_problem() -> str | None:
    if not MPI.Get_library_version().startswith("MPICH"):
        return "the MPI library is not MPICH (the native executor uses MPICH's ABI)"
    if MPI._sizeof(MPI.Comm) != 4 or MPI._sizeof(MPI.Request) != 4:
        return "MPI handles are not C ints (not MPICH's ABI)"
    if library() is None:
        return "the loaded MPI library was not found in /proc/self/maps"
    return None


def attach(prog, op: str | None) -> None:
    """Makes ``prog`` run natively from now on where the native executor can (else says why
    in ``prog.executor``). Here, not a method of Program: the executor module stays below
    this one (executor <- lower <- native), with no import circle."""
    why = unavailable(prog)
    if why is None:
        prog.native, prog.executor = Native(prog, op), "native"
    else:
        prog.executor = f"python ({why})"


def unavailable(prog) -> str | None:
    """Why `prog` cannot run natively, or None."""
    problem = _library_problem()
    if problem:
        return problem
    if prog.plan.is_reduction and prog.dtype.str[1:] not in _REDUCIBLE:
        return f"the native executor does not reduce {prog.dtype}"
    return None


_REDUCIBLE = {"b1", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f4", "f8"}


def polling(oversubscribed: bool) -> tuple[int, int, int] | None:
    """How a rank waits: None for a blocking MPI_Waitsome, or (Testsome polls, polls with a
    sched_yield between them, the longest nap between later polls in us).

    As the issue asks: with a core per rank the wait blocks (MPICH polls inside
    MPI_Waitsome, the fastest way to see data arrive); with more ranks than cores a bounded
    spin, then the core is given up between polls. It is given up by napping, not by
    sched_yield: a yielding rank stays runnable and keeps taking turns from the rank that
    holds its data (measured: 9.5 ms against MPICH's 2.4 ms for an 8-rank allreduce of 8 B
    with yields only), while a napping rank leaves the run queue. ``$NETCOLL_POLLING``
    "S,Y,N" or "block" overrides either default: on a machine busy with other work, two
    ranks that block can land on one core, and a rank that never gives its core up then
    costs the other a scheduler period per message (measured: 12 ms per 8-byte allgather
    in that state, 3 us otherwise); "4096,0,50" bounds the spin there."""
    env = os.environ.get("NETCOLL_POLLING")
    if env == "block":
        return None
    if env:
        try:
            spin, yields, nap = (int(x) for x in env.split(","))
            if min(spin, yields, nap) < 0:
                raise ValueError
        except ValueError:
            raise ValueError(
                f"NETCOLL_POLLING={env!r}: give 'block' or SPIN,YIELDS,MAX_NAP_US "
                "(three integers >= 0, e.g. 16,0,200)"
            ) from None
        return spin, yields, nap
    return OVERSUBSCRIBED if oversubscribed else None


OVERSUBSCRIBED = (16, 0, 200)


def _handle(obj) -> int:
    """An MPICH handle (a C int) as its 32 bits (mpi4py shows it sign-extended to 64)."""
    return MPI._handleof(obj) & 0xFFFFFFFF


def _span(buf: np.ndarray | None) -> tuple[int, int]:
    if buf is None or buf.nbytes == 0:
        return 0, 0
    return buf.__array_interface__["data"][0], buf.nbytes


class Native:
    """A program's native form and its current binding."""

    def __init__(self, prog, op: str | None):
        self.prog = prog
        red = (prog.dtype.str, op) if prog.plan.is_reduction else (None, None)
        lowered = lower(prog)
        self.program = _core.mpi_program(json.dumps(lowered, separators=(",", ":")), *red)
        self.scratch_bytes = lowered["scratch"]
        self._key = None
        self._keep: tuple = ()
        self._binding = None

    def run(self, comm, inbuf, outbuf) -> None:
        keep = self._keep
        if not (keep and comm is keep[0] and inbuf is keep[1] and outbuf is keep[2]):
            key = (_handle(comm), _span(inbuf), _span(outbuf))
            if key != self._key:
                self._bind(comm, inbuf, outbuf, key)
            else:  # the same memory in new array objects: keep the new ones referenced
                self._keep = (comm, inbuf, outbuf, keep[3])
        self._binding.run(self.prog.corrupt_xor, self.prog.corrupt_input)

    def _bind(self, comm, inbuf, outbuf, key) -> None:
        self._binding = None  # free the old requests first
        scratch = np.empty(self.scratch_bytes, dtype=np.uint8)
        self._binding = _core.mpi_bind(
            library(), self.program, [key[1], key[2], _span(scratch)], key[0],
            _handle(MPI.BYTE), _handle(MPI.REQUEST_NULL),
            polling(self.prog.oversubscribed),
        )  # fmt: skip
        self._key, self._keep = key, (comm, inbuf, outbuf, scratch)
