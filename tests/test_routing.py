"""Routing and the deadlock check through the Python API."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import netcoll
from netcoll import NetcollError


def test_dor_mesh_route_by_hand():
    t = netcoll.topology("mesh:4x4")
    hops = t.route(0, 14, "dor")
    assert [h["to"] for h in hops] == [1, 2, 6, 10, 14]
    assert [h["port"] for h in hops] == [0, 0, 2, 2, 2]


def test_torus_dateline_classes():
    t = netcoll.topology("torus:5x4")
    assert [h["vc_class"] for h in t.route(4, 6, "dor")] == [1, 1, 0]


@pytest.mark.parametrize(
    "spec,routing,vcs,free",
    [
        ("torus:8x8", "dor", 1, False),
        ("torus:8x8", "dor", 2, True),
        ("mesh:8x8", "dor", 1, True),
        ("hypercube:6", "dor", 1, True),
        ("ibt:16x16:b=4", "shortest", 1, False),
        ("irregular:switches=16,ports=8,nodes=64,seed=11", "updown", 1, True),
    ],
)
def test_deadlock_verdicts(spec, routing, vcs, free):
    rep = netcoll.topology(spec).check_deadlock(routing, vcs)
    assert rep["deadlock_free"] is free
    assert (rep["cycle"] == []) is free
    if not free:
        cyc = rep["cycle"]
        for a, b in zip(cyc, cyc[1:] + cyc[:1]):
            assert a["to"] == b["from"]


@settings(max_examples=30, deadline=None)
@given(switches=st.integers(2, 24), seed=st.integers(0, 10**6), root=st.integers(0, 23))
def test_updown_routes_are_legal(switches, seed, root):
    t = netcoll.topology(f"irregular:switches={switches},ports=6,nodes={2 * switches},seed={seed}")
    root = root % switches
    for src in range(0, t.num_endpoints, 3):
        for dst in range(0, t.num_endpoints, 5):
            hops = t.route(src, dst, "updown", root)
            ups = [h["up"] for h in hops]
            assert ups == sorted(ups, reverse=True), "an up hop after a down hop"
    assert t.check_deadlock("updown", 1, "single", root)["deadlock_free"]


def test_routing_errors():
    t = netcoll.topology("ibt:16x16:b=4")
    with pytest.raises(NetcollError, match="use --routing shortest"):
        t.route(0, 1, "dor")
    with pytest.raises(NetcollError, match="unknown routing"):
        t.route(0, 1, "zigzag")
    with pytest.raises(NetcollError, match="out of range"):
        t.route(0, 999, "shortest")
    with pytest.raises(NetcollError, match="root"):
        t.route(0, 1, "updown", 10_000)
