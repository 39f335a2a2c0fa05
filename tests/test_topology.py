"""Topologies through the Python API: counts, the iBT paper's Table 1, closed forms,
generator determinism, file round trips, networkx export, errors."""

import json

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import netcoll
from netcoll import NetcollError

# Table 1 of Zhang and Deng (seed 004): iBT(64^2; b) diameter and average distance.
TABLE_1 = [("6", 14, 8.096), ("14", 12, 7.482), ("4,16", 10, 6.568), ("8,24", 10, 6.633)]


@pytest.mark.parametrize("b,diameter,average", TABLE_1)
def test_ibt_table_1(b, diameter, average):
    s = netcoll.topology(f"ibt:64x64:b={b}").stats()
    assert s["diameter"] == diameter
    assert s["average_distance"] == pytest.approx(average, abs=1e-3)
    assert s["nodes"] == 4096 and s["degree_min"] == s["degree_max"] == 6


def test_closed_forms_by_hand():
    # Torus(100^3): diameter 3*50; mean ring distance of k=100 is 25 per dimension.
    s = netcoll.spec_stats("torus:100x100x100")
    assert (s["diameter"], s["average_distance"], s["links"]) == (150, 75.0, 3_000_000)
    # Mesh 8x8: (k^2-1)/(3k) = 63/24 per dimension.
    s = netcoll.spec_stats("mesh:8x8")
    assert s["average_distance"] == pytest.approx(2 * 63 / 24)
    assert s["average_distance_distinct"] == pytest.approx(2 * 63 / 24 * 64 / 63)
    s = netcoll.spec_stats("hypercube:6")
    assert (s["diameter"], s["average_distance"], s["links"]) == (6, 3.0, 192)


@settings(max_examples=40, deadline=None)
@given(
    family=st.sampled_from(["mesh", "torus"]),
    dims=st.lists(st.integers(2, 7), min_size=1, max_size=3),
)
def test_closed_forms_equal_bfs(family, dims):
    spec = f"{family}:{'x'.join(map(str, dims))}"
    fast = netcoll.spec_stats(spec)
    slow = netcoll.topology(spec).stats_all_pairs()
    for key in ("diameter", "total_distance", "links", "degree_min", "degree_max"):
        assert fast[key] == slow[key], (spec, key)


@settings(max_examples=25, deadline=None)
@given(
    switches=st.integers(1, 24),
    ports=st.integers(3, 12),
    conn=st.floats(0.5, 1.0),
    seed=st.integers(0, 2**32),
)
def test_irregular_generator_is_deterministic_and_connected(switches, ports, conn, seed):
    nodes = max(1, switches * ports // 3)
    spec = f"irregular:switches={switches},ports={ports},nodes={nodes},conn={conn:.3f},seed={seed}"
    try:
        t = netcoll.topology(spec)
    except NetcollError as e:  # an impossible port budget is reported, not built
        assert "links" in str(e) or "port" in str(e)
        return
    assert t.num_endpoints == nodes and t.num_switches == switches
    assert netcoll.topology(spec).to_json() == t.to_json()
    g = netcoll.to_networkx(t)
    assert nx.is_connected(g)
    for sa, _, sb, _ in t.links():
        assert sa != sb
    s = t.stats()
    assert s["diameter"] < switches


def test_file_round_trip(tmp_path):
    t = netcoll.topology("irregular:switches=8,ports=8,nodes=32,conn=0.8,seed=3")
    path = tmp_path / "net.json"
    path.write_text(t.to_json())
    back = netcoll.topology(f"file:{path}")
    assert back.links() == t.links() and back.endpoints() == t.endpoints()
    assert back.stats()["total_distance"] == t.stats()["total_distance"]
    doc = json.loads(path.read_text())
    assert doc["format"] == "netcoll-topology" and doc["version"] == 1


def test_networkx_export_structure():
    t = netcoll.topology("torus:4x3")
    g = netcoll.to_networkx(t)
    switches = [n for n, d in g.nodes(data=True) if d["kind"] == "switch"]
    endpoints = [n for n, d in g.nodes(data=True) if d["kind"] == "endpoint"]
    assert len(switches) == 12 and len(endpoints) == 12
    assert g.nodes[("switch", 7)]["coords"] == (3, 1)
    links = [e for e in g.edges(data=True) if e[2]["kind"] == "link"]
    assert len(links) == t.num_links == 24


@pytest.mark.parametrize(
    "spec",
    [
        "mesh:0x4",
        "torus:-2x3",
        "cube:3",
        "ibt:64x64:b=7",
        "ibt:10x10:b=4,8",
        "irregular:switches=8,ports=4,nodes=32",
        "irregular:switches=8,ports=8",
        "file:/nonexistent/net.json",
        "hypercube:99",
        "torus",
        "",
    ],
)
def test_bad_specs_raise_one_line(spec):
    with pytest.raises(NetcollError) as info:
        netcoll.topology(spec)
    message = str(info.value)
    assert message and "\n" not in message
    assert isinstance(info.value, ValueError)


def test_bad_json_file(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{ not json")
    with pytest.raises(NetcollError, match="not a valid netcoll-topology document"):
        netcoll.topology(f"file:{bad}")
