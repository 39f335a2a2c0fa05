"""Seed 003 on the flit engine: worms replicated by the switches, the NI model."""

import pytest

from netcoll._core import NetcollError, Topology, build_schedule, simulate_schedule
from netcoll.reproduce import irregular


def test_a_tree_worm_is_one_replicated_message():
    t = Topology("irregular:switches=8,ports=8,nodes=32,seed=3")
    s = build_schedule("multicast", "worm-tree", t, root=0, nbytes=128, targets=[3, 9, 17, 30])
    r = simulate_schedule(s, t, irregular.NETWORK + [("t_hs", "1000"), ("t_ns", "1000")])
    assert r["worm_messages"] == 1
    assert r["packets"] == 4  # one copy ejected per destination
    assert r["deadlock"] is None


def test_worms_must_fit_the_input_buffer():
    t = Topology("irregular:switches=8,ports=8,nodes=32,seed=3")
    s = build_schedule("multicast", "worm-path", t, root=0, nbytes=128, targets=[3, 9, 17])
    with pytest.raises(NetcollError, match="vc_buf_size"):
        simulate_schedule(s, t, [("routing_function", "updown"), ("flit_bytes", "1")])


def test_single_multicast_ordering_follows_the_paper_at_large_r():
    c = dict(irregular.DEFAULT, R=5)
    lat = irregular.multicast_latency(c, 15, nets=2, sets=2)
    assert lat["tree-based"] < lat["NI-based"] < lat["path-based"]
    c = dict(irregular.DEFAULT, R=0.5)
    lat = irregular.multicast_latency(c, 15, nets=2, sets=2)
    assert lat["tree-based"] < lat["path-based"] < lat["NI-based"]


def test_bad_ni_keys_are_one_line_errors():
    t = Topology("mesh:2x2")
    s = build_schedule("bcast", "linear", t, root=0, nbytes=16)
    with pytest.raises(NetcollError) as e:
        simulate_schedule(s, t, [("ni_fpfs", "2")])
    assert "\n" not in str(e.value)
