"""Multidestination worms (seed 003 s5) through the Python API and `netcoll worms show`."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import netcoll
from netcoll._core import NetcollError, build_schedule, multicast_figures, worms_show
from netcoll.cli.worms import parse_dests

SPEC = "irregular:switches=8,ports=8,nodes=32,seed=3"


def test_parse_dests():
    assert parse_dests("3,7,12", 32, 0) == [3, 7, 12]
    a = parse_dests("random:15,seed=2", 32, 0)
    assert a == parse_dests("random:15,seed=2", 32, 0)
    assert len(a) == 15 and 0 not in a and len(set(a)) == 15
    for bad in ("random:x", "random:40", "random:3,colour=red", "1,x", "99"):
        with pytest.raises(NetcollError):
            parse_dests(bad, 32, 0)


def test_show_json(cli):
    from conftest import cli_json

    out = cli_json(
        "worms",
        "show",
        SPEC,
        "--root",
        "0",
        "--dests",
        "random:15,seed=2",
        "--set",
        "phases=greedy",
    )
    assert out["algo"] == "worm-path"
    covered = sorted(d for w in out["worms"] for d in w["dests"])
    assert covered == parse_dests("random:15,seed=2", 32, 0)
    assert out["figures"]["worms"] == len(out["worms"])
    assert out["figures"]["phases"] == 1 + max(w["phase"] for w in out["worms"])
    for w in out["worms"]:
        assert w["header"].startswith("1 | s")
        assert w["link_traversals"] == len(w["route"]) - 1
    tree = cli_json("worms", "show", SPEC, "--algo", "worm-tree", "--dests", "1,5,9,30")
    assert tree["figures"]["phases"] == 1 and len(tree["worms"]) == 1
    assert tree["worms"][0]["header_bits"] == 33


def test_show_errors_are_one_line(cli):
    for args in (
        ("--dests", "1,99"),
        ("--dests", "random:x"),
        ("--dests", "1", "--algo", "ni-kbinomial"),
        ("--dests", "1", "--set", "phases=fast"),
    ):
        proc = cli("worms", "show", SPEC, *args, check=False)
        assert proc.returncode == 2, proc.stderr
        assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    count=st.integers(0, 31),
    algo=st.sampled_from(["worm-ssr", "worm-path", "worm-tree", "ni-kbinomial"]),
    phases=st.sampled_from(["greedy", "less-greedy"]),
)
def test_every_multicast_verifies(seed, count, algo, phases):
    topo = netcoll.topology(f"irregular:switches=8,ports=8,nodes=32,seed={seed % 50}")
    targets = parse_dests(f"random:{count},seed={seed}", 32, seed % 32)
    params = [f"phases={phases}"] if algo in ("worm-ssr", "worm-path") else []
    s = build_schedule("multicast", algo, topo, root=seed % 32, targets=targets, params=params)
    assert s.verify()["ok"]
    f = multicast_figures(s)
    routed = multicast_figures(s, topo)
    if algo == "ni-kbinomial":
        assert f["worms"] == 0 and f["unicasts"] == count
        assert routed["link_traversals"] >= f["link_traversals"] == 0
    else:
        assert routed == f
        assert f["unicasts"] == 0
        assert (f["worms"] == 0) == (count == 0)
    if algo != "ni-kbinomial" and count:
        shown = worms_show(topo, algo, root=seed % 32, targets=targets, params=params)
        assert shown["figures"] == f


def test_routed_figures_need_the_right_topology():
    topo = netcoll.topology(SPEC)
    s = build_schedule("multicast", "ni-kbinomial", topo, root=0, targets=[5, 20, 31])
    assert multicast_figures(s, topo)["link_traversals"] > 0
    with pytest.raises(NetcollError, match="not placed on an endpoint"):
        multicast_figures(s, netcoll.topology("mesh:2x2"))


def test_trends_benchmark_shape():
    from netcoll.cli.worms import trends

    rows = trends(dests=7, topos=2, sets=2)
    assert [r["nodes"] for r in rows] == [32, 64, 128, 256, 32, 32, 32]
    for r in rows:
        assert r["worm-path"]["worms"] <= r["worm-ssr"]["worms"]
        assert r["worm-tree"]["phases"] == 1
    # Two 32-port switches: one path worm, one phase (seed 003 s6.4.4).
    assert rows[5]["worm-path"] == {**rows[5]["worm-path"], "worms": 1, "phases": 1}
