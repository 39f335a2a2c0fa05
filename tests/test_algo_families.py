"""InterCom, multi-send and k-binomial schedules through the Python bindings."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import netcoll
from netcoll import _core

SIZES = [2, 3, 4, 5, 7, 8, 11, 13, 16, 17, 31, 32]
SEVEN = ["bcast", "reduce", "scatter", "gather", "allgather", "reduce-scatter", "allreduce"]


def build(op, algo, spec, **kw):
    return _core.build_schedule(op, algo, netcoll.topology(spec), **kw)


def test_registered_with_families():
    algos = {(a["name"], a["family"]) for a in _core.algorithms()}
    for name, family in [
        ("intercom-hybrid", "intercom"),
        ("intercom-mst", "intercom"),
        ("intercom-bucket", "intercom"),
        ("intercom-short", "intercom"),
        ("intercom-long", "intercom"),
        ("postal", "multisend"),
        ("multisend-flat", "multisend"),
        ("kbinomial", "kbinomial"),
    ]:
        assert (name, family) in algos


def test_ssmcc_on_thirty():
    s = build("bcast", "intercom-hybrid", "mesh:30", params=["dims=2x3x5", "strategy=SSMCC"])
    report = s.verify()
    assert report["ok"]
    assert report["counts"]["max_step"] == 8  # nine rounds, 0..8


@pytest.mark.parametrize(
    ("params", "want"),
    [
        (["dims=2x3x4"], "product is 30"),
        (["dims=2x3x5", "strategy=SMC"], "does not fit"),
        (["dims=5x6", "strategy=SSMCQ"], "'Q'"),
    ],
)
def test_hybrid_bad_input(params, want):
    with pytest.raises(netcoll.NetcollError) as e:
        build("bcast", "intercom-hybrid", "mesh:30", params=params)
    assert want in str(e.value) and "\n" not in str(e.value)


@settings(max_examples=40, deadline=None)
@given(
    p=st.sampled_from(SIZES),
    op=st.sampled_from(SEVEN),
    algo=st.sampled_from(["intercom-short", "intercom-long"]),
    root=st.integers(min_value=0, max_value=1000),
    shift=st.integers(min_value=0, max_value=63),
)
def test_intercom_verifies_with_any_root_and_placement(p, op, algo, root, shift):
    placement = [(i + shift) % 64 for i in range(p)]
    s = build(op, algo, "torus:8x8", p=p, root=root % p, placement=placement)
    assert s.verify()["ok"]


@settings(max_examples=40, deadline=None)
@given(
    p=st.sampled_from(SIZES),
    algo=st.sampled_from(["kbinomial", "postal", "multisend-flat", "intercom-mst"]),
    data=st.data(),
)
def test_multicasts_verify_for_any_destination_set(p, algo, data):
    root = data.draw(st.integers(min_value=0, max_value=p - 1))
    # at least one destination besides the root (a multicast to nobody is refused)
    others = [r for r in range(p) if r != root]
    targets = data.draw(st.sets(st.sampled_from(others), min_size=1))
    packets = data.draw(st.integers(min_value=1, max_value=4))
    s = build(
        "multicast",
        algo,
        "irregular:switches=8,ports=8,nodes=32,seed=2",
        p=p,
        root=root,
        targets=sorted(targets - {root}),
        packets=packets,
    )
    assert s.verify()["ok"]


def test_kbinomial_printed_steps():
    # seed 003 s4.3: 3 packets to 3 destinations, linear tree 5 steps vs binomial 6.
    lin = build("bcast", "kbinomial", "mesh:4", packets=3, params=["k=1", "order=natural"])
    bin_ = build("bcast", "kbinomial", "mesh:4", packets=3, params=["k=2", "order=natural"])
    assert lin.verify()["counts"]["max_step"] + 1 == 5
    assert bin_.verify()["counts"]["max_step"] + 1 == 6
    nine = build("bcast", "kbinomial", "mesh:8", packets=3, params=["k=3", "order=natural"])
    assert nine.verify()["counts"]["max_step"] + 1 == 9


def test_postal_multisend_counts():
    s = build("bcast", "postal", "mesh:4", params=["lambda=2"])
    c = s.verify()["counts"]
    assert (c["messages"], c["ni_messages"], c["multisends"]) == (3, 1, 1)
