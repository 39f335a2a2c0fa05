"""netcoll.models: the papers' printed numbers and the model identities."""

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import netcoll
from netcoll import models


def test_multisend_vs_unicast_seed002_s2():
    ms, uc = models.multisend_time(1536, 6)
    assert round(ms, 4) == 153.2089
    assert round(uc, 4) == 333.7294
    assert f"{uc / ms:.2f}" == "2.18"
    ms, uc = models.multisend_time(1536, 6, write_combining=True)
    assert round(ms, 4) == 123.2569
    assert round(uc, 4) == 154.0174


def test_multisend_bad_input_is_one_line():
    with pytest.raises(netcoll.NetcollError) as e:
        models.multisend_time(1536, 0)
    assert "\n" not in str(e.value)
    with pytest.raises(netcoll.NetcollError):
        models.multisend_time(10**6, 2)


def test_kbinomial_seed003_s43():
    # 3 packets to 3 destinations: linear tree 5 steps, binomial 6.
    assert models.kbinomial_steps(4, 3, 1) == 5
    assert models.kbinomial_steps(4, 3, 2) == 6
    assert models.kbinomial_optimal(4, 3) == (1, 5)
    # 3 packets over the binomial tree to 7 destinations: 9 steps.
    assert models.kbinomial_steps(8, 3, 3) == 9
    assert models.fpfs_steps(models.kbinomial_tree(8, 3), 3) == 9
    assert models.kbinomial_optimal(8, 3) == (2, 8)


def test_kbinomial_reach_lemma4():
    assert [models.kbinomial_reach(s, 2) for s in range(6)] == [1, 2, 4, 7, 12, 20]
    assert models.kbinomial_reach(4, 9) == 16
    assert models.kbinomial_reach(5, 1) == 6


TABLE2 = [
    ("2x3x5", "SSMCC", 9, Fraction(160, 30)),
    ("1x30", "M", 5, Fraction(150, 30)),
    ("2x15", "SMC", 6, Fraction(150, 30)),
    ("5x6", "SSCC", 15, Fraction(98, 30)),
    ("6x5", "SSCC", 15, Fraction(98, 30)),
    ("3x10", "SSCC", 17, Fraction(94, 30)),
    ("10x3", "SSCC", 17, Fraction(94, 30)),
    ("2x15", "SSCC", 20, Fraction(86, 30)),
]


@pytest.mark.parametrize(("dims", "strategy", "alpha", "nbeta"), TABLE2)
def test_table2_rows(dims, strategy, alpha, nbeta):
    assert models.hybrid_broadcast_cost_exact(dims, strategy) == (alpha, nbeta)
    a, b = models.hybrid_broadcast_cost(dims, strategy)
    assert a == alpha and math.isclose(b, float(nbeta))


def test_table2_row_3x10_smc_differs_from_print():
    # Printed 16 alpha + 240/30 n beta; the conflict model gives 8 + 160/30 (docs/models.md).
    assert models.hybrid_broadcast_cost_exact([3, 10], "SMC") == (8, Fraction(160, 30))


def test_hybrid_bad_input():
    for dims, strategy in [("2x3x5", "SMC"), ("2xfoo", "SSMCC"), ("2x3", "SXC")]:
        with pytest.raises(netcoll.NetcollError) as e:
            models.hybrid_broadcast_cost(dims, strategy)
        assert "\n" not in str(e.value)


def test_hybrid_options_include_table2():
    opts = models.hybrid_broadcast_options(30, 3)
    assert any(o["dims"] == [2, 3, 5] and o["strategy"] == "SSMCC" for o in opts)
    best = min(opts, key=lambda o: o["alpha"] + 1000 * o["nbeta"])
    assert best["nbeta"] <= Fraction(86, 30)


def test_postal_small():
    # lambda = 2: F(t) = F(t-1) + F(t-2), Fibonacci
    assert [models.postal_reach(2, t) for t in range(7)] == [1, 1, 2, 3, 5, 8, 13]
    tree, done = models.postal_tree(4, 2)
    assert done == 4
    assert tree["children"][0] == [1, 2, 3]  # flat tree for four nodes at lambda = 2


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(min_value=1, max_value=400),
    lam=st.sampled_from([1.0, 1.5, 2.0, 2.25, 3.0, 4.0, 7.5]),
)
def test_greedy_completion_is_postal_optimum(n, lam):
    tree, done = models.postal_tree(n, lam)
    assert models.postal_reach(lam, done) >= n
    # Every earlier candidate time (completion times are a + b*lambda) reaches fewer.
    candidates = sorted(
        {a + b * lam for a in range(int(done) + 1) for b in range(int(done / lam) + 1)}
    )
    earlier = [t for t in candidates if t < done]
    if earlier:
        assert models.postal_reach(lam, earlier[-1]) < n
    assert len(tree["parent"]) == n
    assert tree["completion"] == done
