"""Hierarchical network coding (seed 000) from Python and the CLI."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import netcoll
from conftest import cli_json
from netcoll import NetcollError
from netcoll._core import build_schedule
from netcoll.hnc import compare, schedule_hops


def test_paper_figures_pinned():
    out = compare("mesh:32x32")
    assert out["tree"]["aggregate_hops"] == 2_703_360
    assert out["all_at_once"]["messages"] == 1024 * 1023
    assert compare("mesh:16x16")["hnc_tree"]["group_size"] == 32


def test_closed_form_matches_the_built_schedule():
    t = netcoll.topology("mesh:8x4")
    for params in (["group=4x2"], ["group=2x2", "receiver=intermediate"], ["mode=combine"]):
        s = build_schedule("alltoall_broadcast", "hnc", t, params=params)
        assert s.verify()["ok"]
        hops = schedule_hops(s, t)
        figure = compare("mesh:8x4", params)["hnc_tree"]
        assert hops["aggregate_hops"] == figure["aggregate_hops"]
        assert hops["messages"] == figure["messages"]


@settings(max_examples=15, deadline=None)
@given(
    k0=st.sampled_from([2, 4, 6, 8]),
    k1=st.sampled_from([2, 3, 4]),
    torus=st.booleans(),
    base=st.sampled_from(["tree", "all-at-once"]),
)
def test_every_auto_schedule_verifies(k0, k1, torus, base):
    spec = f"{'torus' if torus else 'mesh'}:{k0}x{k1}"
    t = netcoll.topology(spec)
    s = build_schedule("allgather", "hnc", t, params=[f"base={base}"])
    assert s.verify()["ok"]
    figure = compare(spec)[f"hnc_{base.replace('-', '_')}"]
    assert schedule_hops(s, t)["aggregate_hops"] == figure["aggregate_hops"]


def test_bad_group_is_one_line():
    with pytest.raises(NetcollError, match="does not divide"):
        compare("mesh:8x8", ["group=3x8"])


def test_cli_compare(cli):
    out = cli_json("hnc", "compare", "--topo", "mesh:32x32")
    assert out["tree"]["aggregate_hops"] == 2_703_360
    text = cli("hnc", "compare", "--topo", "mesh:16x16").stdout
    assert "HNC, tree base" in text and "16x2" in text
    bad = cli("hnc", "compare", "--topo", "mesh:8x8", "--set", "group=5x8", check=False)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1


def test_groups_lists_every_shape_best_first(cli):
    from netcoll.hnc import figure, groups

    rows = groups("mesh:16x16")
    assert rows[0]["group_size"] == 32
    assert len(rows) == 23  # 5 x 5 shapes minus 1x1 and those of more than 128 nodes
    hops = [r["aggregate_hops"] for r in rows]
    assert hops == sorted(hops)
    assert rows[0]["aggregate_hops"] == figure("mesh:16x16")["aggregate_hops"]
    out = cli_json("hnc", "groups", "--topo", "mesh:8x8", "--set", "base=all-at-once")
    assert (
        out[0]["aggregate_hops"]
        == figure("mesh:8x8", params=["base=all-at-once"])["aggregate_hops"]
    )
    with pytest.raises(NetcollError, match="meshes and tori"):
        groups("hypercube:4")


@pytest.mark.parametrize(
    "op,algo,topo,params",
    [
        ("allgather", "hnc", "mesh:8x8", ["group=4x2"]),
        ("alltoall-broadcast", "hnc", "torus:6x4", ["base=all-at-once", "receiver=intermediate"]),
        ("alltoall-broadcast", "tree-multicast", "mesh:8x4", []),
        ("alltoall-broadcast", "all-at-once", "torus:4x4", []),
    ],
)
def test_schedule_and_analyze_agree(op, algo, topo, params):
    sets = [a for p in params for a in ("--set", p)]
    built = cli_json("schedule", op, "--algo", algo, "--topo", topo, *sets)
    closed = cli_json("analyze", op, "--algo", algo, "--topo", topo, *sets)
    assert built["verified"] and closed["source"] == "closed_form"
    for key in ("messages", "aggregate_hops", "packets", "steps"):
        assert built[key] == closed[key], key


def test_schedule_reports_the_group_auto_chose_as_analyze_does():
    args = ("allgather", "--algo", "hnc", "--topo", "mesh:16x16", "--set", "group=auto")
    built = cli_json("schedule", *args)
    closed = cli_json("analyze", *args)
    assert built["group"] == closed["group"] == "16x2"
    assert built["group_size"] == 32
    assert built["aggregate_hops"] == closed["aggregate_hops"]
