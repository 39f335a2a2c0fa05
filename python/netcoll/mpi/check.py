"""Result checks: every rank compares its output with a numpy reference built from the real
inputs (moved to it by the MPI library's own collectives), and every rank learns the verdict,
so a mismatch raises the same error everywhere, naming the rank and its first wrong element."""

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


def verify(
    kind, comm, root, targets, sendbuf, recvbuf, n, dtype, ufunc, what: str, sources=()
) -> None:
    """Checks this rank's output, agrees with the others, raises MismatchError everywhere."""
    ref = expected(kind, comm, root, targets, sendbuf, n, dtype, ufunc, sources)
    finding = None
    if ref is not None:
        got = recvbuf
        if got is None or len(got) != len(ref):
            finding = (comm.Get_rank(), -1, "no output", f"{len(ref)} elements")
        else:
            i = first_wrong(
                got, ref, kind in ("reduce", "allreduce", "reduce_scatter"), comm.Get_size()
            )
            if i is not None:
                finding = (comm.Get_rank(), i, repr(got[i].item()), repr(ref[i].item()))
    findings = [f for f in comm.allgather(finding) if f is not None]
    if findings:
        r, i, g, e = findings[0]
        ranks = ", ".join(str(f[0]) for f in findings)
        where = f"element {i} is {g}, expected {e}" if i >= 0 else f"{g}, expected {e}"
        raise MismatchError(
            f"{what}: wrong result on rank {r}: {where} (first wrong element; "
            f"wrong on rank{'s' if len(findings) > 1 else ''} {ranks})"
        )
