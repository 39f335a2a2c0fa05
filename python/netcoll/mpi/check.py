"""Result checks that a wrong executor cannot fool.

A :class:`Checker` is built for one call shape *before* the first run: it copies this rank's
input, builds the reference output from the copy (moved by the MPI library's own collectives,
reduced by numpy), so a run that writes into its input buffer cannot drag the reference along.
Before a checked run it fills the output with the bitwise complement of the reference (every
byte differs from the right one, so an element the run never writes cannot pass; a float's
complement has the other sign, or is a NaN, so it is outside any rounding tolerance). After
the run it compares the output with the reference and the input with its copy (where the
collective only reads it), and every rank learns the verdict, so a mismatch raises the same
error everywhere, naming the rank and its first wrong element."""

from __future__ import annotations

import numpy as np
from mpi4py import MPI


class MismatchError(AssertionError):
    """The executed schedule produced a wrong result."""


def expected(kind: str, comm, root: int, targets, sendbuf, n: int, dtype, ufunc, sources=()):
    """This rank's reference output (None where the collective leaves it nothing)."""
    p, me = comm.Get_size(), comm.Get_rank()
    if kind == "many_to_all":
        return many_to_all_reference(comm, sources, sendbuf, n, dtype)
    if kind in ("broadcast", "multicast"):
        ref = np.empty(n, dtype=dtype)
        if me == root:
            ref[:] = sendbuf
        comm.Bcast([ref.view(np.uint8), MPI.BYTE], root=root)
        keep = kind == "broadcast" or me == root or me in targets
        return ref if keep else None
    if kind == "scatter":
        ref = np.empty(n, dtype=dtype)
        src = [sendbuf.view(np.uint8), MPI.BYTE] if me == root else None
        comm.Scatter(src, [ref.view(np.uint8), MPI.BYTE], root)
        return ref
    if kind == "alltoall":  # n per destination: p chunks in, p chunks out
        ref = np.empty(n * p, dtype=dtype)
        comm.Alltoall([sendbuf.view(np.uint8), MPI.BYTE], [ref.view(np.uint8), MPI.BYTE])
        return ref
    if kind in ("gather", "allgather", "alltoall_broadcast"):
        ref = np.empty(n * p, dtype=dtype)
        if kind == "gather":
            comm.Gather([sendbuf.view(np.uint8), MPI.BYTE], [ref.view(np.uint8), MPI.BYTE], root)
            return ref if me == root else None
        comm.Allgather([sendbuf.view(np.uint8), MPI.BYTE], [ref.view(np.uint8), MPI.BYTE])
        return ref
    # Reductions: every contribution, stacked in rank order, reduced by numpy.
    width = len(sendbuf)
    stack = np.empty((p, width), dtype=dtype)
    comm.Allgather([sendbuf.view(np.uint8), MPI.BYTE], [stack.view(np.uint8), MPI.BYTE])
    total = ufunc.reduce(stack, axis=0, dtype=dtype)  # int32 sums stay int32
    if kind == "reduce":
        return total if me == root else None
    if kind == "reduce_scatter":
        return total[me * n : (me + 1) * n]
    return total


def many_to_all_reference(comm, sources, sendbuf, n: int, dtype) -> np.ndarray:
    """MPI_Allgatherv of the sources' inputs: a non-source contributes 0 bytes, and the
    displacements put source `sources[i]` at slot `i` (the list's order, not rank order)."""
    item = np.dtype(dtype).itemsize
    counts, displs = allgatherv_layout(comm.Get_size(), sources, n * item)
    ref = np.empty(n * len(sources), dtype=dtype)
    mine = sendbuf if comm.Get_rank() in sources else np.empty(0, dtype=dtype)
    comm.Allgatherv(
        [mine.view(np.uint8), MPI.BYTE], [ref.view(np.uint8), (counts, displs), MPI.BYTE]
    )
    return ref


def allgatherv_layout(p: int, sources, nbytes: int) -> tuple[list[int], list[int]]:
    """Byte counts and displacements of a many-to-all as an Allgatherv."""
    counts, displs = [0] * p, [0] * p
    for i, s in enumerate(sources):
        counts[s], displs[s] = nbytes, i * nbytes
    return counts, displs


def first_wrong(got: np.ndarray, ref: np.ndarray, inexact: bool, p: int) -> int | None:
    """Index of the first element that differs (floats of a reduction: beyond rounding)."""
    if inexact and got.dtype.kind in "fc":
        eps = np.finfo(got.dtype).eps
        scale = np.max(np.abs(ref)) if len(ref) else 0.0
        ok = np.isclose(got, ref, rtol=8 * p * eps, atol=8 * p * eps * scale)
        bad = np.flatnonzero(~ok)
    else:  # bytes must match exactly (NaN-safe, any dtype)
        item = got.dtype.itemsize
        g = got.view(np.uint8).reshape(len(got), item)
        r = ref.view(np.uint8).reshape(len(ref), item)
        bad = np.flatnonzero((g != r).any(axis=1))
    return int(bad[0]) if len(bad) else None


class Checker:
    """The reference of one call shape on this rank, and the check of a run against it.

    ``inbuf``: what the collective only reads on this rank (None: nothing; the root's buffer
    of an in-place broadcast counts as input, and the reference there equals it);
    ``outbuf``: what it writes (None: nothing; the same array as ``inbuf`` on an in-place
    root, which is then not pre-filled). ``sendbuf``: the call's send buffer (the input the
    reference is built from; a copy is taken)."""

    def __init__(
        self, kind, comm, root, targets, sendbuf, inbuf, outbuf, n, dtype, ufunc, what,
        sources=(),
    ):  # fmt: skip
        self.kind, self.comm, self.what = kind, comm, what
        self.inbuf, self.outbuf = inbuf, outbuf
        self.input_copy = None if inbuf is None else inbuf.copy()
        send_copy = None if sendbuf is None else sendbuf.copy()
        self.ref = expected(kind, comm, root, targets, send_copy, n, dtype, ufunc, sources)
        self.inexact = kind in ("reduce", "allreduce", "reduce_scatter")
        in_place = outbuf is not None and inbuf is not None and np.shares_memory(outbuf, inbuf)
        self.fill = None
        if self.ref is not None and outbuf is not None and not in_place:
            self.fill = np.bitwise_not(self.ref.view(np.uint8))

    def prefill(self) -> None:
        """Output := complement of the reference (outside the timed region)."""
        if self.fill is not None and len(self.outbuf) == len(self.ref):
            self.outbuf.view(np.uint8)[:] = self.fill

    def finding(self):
        """This rank's first fault: (rank, element, what was found, what was expected,
        where) or None."""
        me, p = self.comm.Get_rank(), self.comm.Get_size()
        if self.input_copy is not None:
            i = first_wrong(self.inbuf, self.input_copy, False, p)
            if i is not None:
                return (me, i, repr(self.inbuf[i].item()), repr(self.input_copy[i].item()),
                        "input")  # fmt: skip
        if self.ref is None:
            return None
        got = self.outbuf
        if got is None or len(got) != len(self.ref):
            return (me, -1, "no output", f"{len(self.ref)} elements", "output")
        i = first_wrong(got, self.ref, self.inexact, p)
        if i is None:
            return None
        return me, i, repr(got[i].item()), repr(self.ref[i].item()), "output"

    def check(self) -> str | None:
        """The agreed verdict of every rank: None, or the one-line diagnosis."""
        findings = [f for f in self.comm.allgather(self.finding()) if f is not None]
        if not findings:
            return None
        # A changed input explains the wrong outputs it leads to: name it first.
        r, i, g, e, where = min(findings, key=lambda f: f[4] != "input")
        ranks = ", ".join(str(f[0]) for f in findings)
        many = "s" if len(findings) > 1 else ""
        if where == "input":
            head = f"the run changed rank {r}'s input buffer: element {i} is {g}, was {e}"
        elif i >= 0:
            head = f"wrong result on rank {r}: element {i} is {g}, expected {e}"
        else:
            head = f"wrong result on rank {r}: {g}, expected {e}"
        return f"{self.what}: {head} (first wrong element; wrong on rank{many} {ranks})"

    def verify(self) -> None:
        """:meth:`check`, raising MismatchError on every rank."""
        err = self.check()
        if err is not None:
            raise MismatchError(err)
