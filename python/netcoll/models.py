"""Closed-form models of the seed papers, as plain functions.

- multi-send timing (seed 002 s2) and its postal lambda (s4);
- the postal model: ``F_lambda(t)`` and the two-queue greedy optimal tree (seed 002 s4);
- k-binomial trees for pipelined FPFS multicast: Lemma 4 and Theorem 3 (seed 003 s4.3);
- InterCom hybrid broadcasts on a linear array (seed 001 s6, Table 2).

Bad input raises :class:`netcoll.NetcollError` with a one-line message.

>>> from netcoll import models
>>> ms, uni = models.multisend_time(1536, 6)
>>> round(ms, 4), round(uni, 4)
(153.2089, 333.7294)
>>> models.kbinomial_optimal(4, 3)
(1, 5)
>>> models.hybrid_broadcast_cost("2x3x5", "SSMCC")
(9.0, 5.333333333333333)
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from . import _core

_m = _core.models

__all__ = [
    "fpfs_steps",
    "hybrid_broadcast_cost",
    "hybrid_broadcast_cost_exact",
    "hybrid_broadcast_options",
    "kbinomial_optimal",
    "kbinomial_reach",
    "kbinomial_steps",
    "kbinomial_tree",
    "multisend_lambda",
    "multisend_time",
    "postal_reach",
    "postal_tree",
    "unicast_lambda",
]


def multisend_time(nbytes: int, ndest: int, write_combining: bool = False) -> tuple[float, float]:
    """``(multi-send us, repeated-unicast us)`` until ``ndest`` destinations hold one
    ``nbytes`` packet, with the coefficients measured in seed 002 s2."""
    return _m.multisend_time(nbytes, ndest, write_combining)


def multisend_lambda(nbytes: int, write_combining: bool = False) -> float:
    """Postal lambda of a multi-send tree for ``nbytes`` packets (seed 002 s4)."""
    return _m.multisend_lambda(nbytes, write_combining)


def unicast_lambda(nbytes: int, write_combining: bool = False) -> float:
    """Postal lambda of a host-based unicast tree for ``nbytes`` packets."""
    return _m.unicast_lambda(nbytes, write_combining)


def postal_reach(lam: float, t: float) -> int:
    """``F_lambda(t)``: nodes (the source included) that can hold a packet by time ``t``."""
    return _m.postal_reach(lam, t)


def postal_tree(n: int, lam: float) -> tuple[dict, float]:
    """The greedy latency-optimal postal tree on ``n`` nodes (node 0 the root) and its
    completion time, which equals ``min{t : F_lambda(t) >= n}``.

    The tree is a dict with ``parent``, ``children`` (in send order), ``send_time``,
    ``recv_time``, ``completion`` and ``lam``.
    """
    return _m.postal_tree(n, lam)


def kbinomial_reach(s: int, k: int) -> int:
    """``N(s, k)``: nodes a k-binomial tree covers in ``s`` steps (seed 003 Lemma 4)."""
    return _m.kbinomial_reach(s, k)


def kbinomial_steps(n: int, m: int, k: int) -> int:
    """Steps of a pipelined FPFS multicast of ``m`` packets to ``n`` nodes (source included)
    over a k-binomial tree: ``L1 + (m-1) k``."""
    return _m.kbinomial_steps(n, m, k)


def kbinomial_optimal(n: int, m: int) -> tuple[int, int]:
    """``(k, steps)`` of the optimal k-binomial tree (seed 003 Theorem 3) for ``n``
    participating nodes including the source and ``m`` packets."""
    return _m.kbinomial_optimal(n, m)


def kbinomial_tree(n: int, k: int) -> list[list[int]]:
    """Children (in send order) of each position of the contention-free k-binomial tree on
    the chain ``0..n`` (seed 003 Fig. 10)."""
    return _m.kbinomial_tree(n, k)


def fpfs_steps(children: Sequence[Sequence[int]], m: int) -> int:
    """Steps until every node of the tree (root 0) holds all ``m`` packets with FPFS."""
    return _m.fpfs_steps([list(c) for c in children], m)


def _mesh(dims: str | Sequence[int]) -> str:
    if isinstance(dims, str):
        return dims
    return "x".join(str(int(d)) for d in dims)


def hybrid_broadcast_cost_exact(
    dims: str | Sequence[int], strategy: str
) -> tuple[Fraction, Fraction]:
    """Exact ``(coefficient of alpha, coefficient of n*beta)`` of a hybrid broadcast on a
    linear array viewed as the logical mesh ``dims`` (``"2x3x5"`` or ``[2, 3, 5]``) with
    ``strategy`` such as ``"SSMCC"`` (seed 001 Table 2)."""
    (an, ad), (bn, bd) = _m.hybrid_broadcast_cost(_mesh(dims), strategy)
    return Fraction(an, ad), Fraction(bn, bd)


def hybrid_broadcast_cost(dims: str | Sequence[int], strategy: str) -> tuple[float, float]:
    """``(coefficient of alpha, coefficient of n*beta)`` as floats; see
    :func:`hybrid_broadcast_cost_exact` for the fractions."""
    a, b = hybrid_broadcast_cost_exact(dims, strategy)
    return float(a), float(b)


def hybrid_broadcast_options(p: int, max_dims: int = 4) -> list[dict]:
    """Every hybrid broadcast on ``p`` nodes (each ordered factorisation into at most
    ``max_dims`` factors, both strategy shapes, and the plain MST), with exact costs."""
    out = []
    for dims, strategy, (an, ad), (bn, bd) in _m.hybrid_broadcast_options(p, max_dims):
        out.append(
            {
                "dims": list(dims),
                "strategy": strategy,
                "alpha": Fraction(an, ad),
                "nbeta": Fraction(bn, bd),
            }
        )
    return out
