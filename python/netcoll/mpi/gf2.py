"""XOR decoding on real bytes: express a wanted GF(2) combination of blocks as the XOR of
values a rank holds, by Gaussian elimination over bit masks, then XOR the byte arrays.

Values of different lengths combine zero-padded (a combination is as long as its longest
block), so the result is cut to the wanted length at the end.
"""

from __future__ import annotations

import numpy as np


def solve(target: int, known: dict[int, np.ndarray]) -> list[int] | None:
    """Keys of `known` whose XOR is `target`, or None if `target` is not in their span."""
    basis: dict[int, tuple[int, int]] = {}  # pivot bit -> (reduced mask, combination of keys)
    index = {k: i for i, k in enumerate(known)}
    keys = list(known)
    for k in keys:
        mask, combo = _reduce(k, 1 << index[k], basis)
        if mask:
            basis[mask.bit_length() - 1] = (mask, combo)
    mask, combo = _reduce(target, 0, basis)
    if mask:
        return None
    return [keys[i] for i in range(len(keys)) if combo >> i & 1]


def _reduce(mask: int, combo: int, basis: dict[int, tuple[int, int]]) -> tuple[int, int]:
    """Eliminates leading bits while they are pivots. Basis vectors have distinct leading
    bits, so a combination's leading bit is its highest pivot: once the leading bit is not a
    pivot, nothing can cancel it (the remainder is then new, or `mask` is outside the span)."""
    while mask:
        top = mask.bit_length() - 1
        if top not in basis:
            break
        bmask, bcombo = basis[top]
        mask ^= bmask
        combo ^= bcombo
    return mask, combo


def xor_values(values: list[np.ndarray], length: int, out: np.ndarray | None = None) -> np.ndarray:
    """XOR of uint8 arrays (zero-padded), cut to `length` bytes."""
    width = max([length] + [len(v) for v in values])
    acc = np.zeros(width, dtype=np.uint8)
    for v in values:
        np.bitwise_xor(acc[: len(v)], v, out=acc[: len(v)])
    if out is not None:
        out[:] = acc[:length]
        return out
    return acc[:length]
