"""Many-to-all multicast (seed 000 s6.3): schedules, exact counts, CLI and bad input."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import cli_json, run_cli
from netcoll import _core
from netcoll.hnc import figure as a2a_figure
from netcoll.hnc import schedule_hops
from netcoll.manytoall import compare, figure, pick_sources, schedule
from netcoll.networks import topology

HAND = ["group=2x2", "place=0x0", "base=all-at-once"]


def test_two_sources_on_a_4x4_mesh_by_hand():
    # Worked in many_tests.rs: (b) 8, (d) 8, (e) 12, (f) 36 hops; 30 unicasts, 4 steps.
    f = figure("mesh:4x4", "hnc", [0, 1], HAND)
    assert (f["messages"], f["aggregate_hops"], f["steps"]) == (30, 64, 4)
    assert {p: v["aggregate_hops"] for p, v in f["phases"].items()} == {
        "b": 8,
        "d": 8,
        "e": 12,
        "f": 36,
    }
    assert figure("mesh:4x4", "all-at-once", [0, 1])["aggregate_hops"] == 48 + 40
    assert figure("mesh:4x4", "tree-multicast", "0,1")["aggregate_hops"] == 40


def test_every_rank_a_source_equals_the_all_to_all_hnc():
    for spec in ["mesh:8x8", "torus:8x4"]:
        m = figure(spec, "hnc", "all", ["base=all-at-once"])
        a = a2a_figure(spec, "hnc", ["base=all-at-once"])
        assert (m["aggregate_hops"], m["messages"], m["group"]) == (
            a["aggregate_hops"],
            a["messages"],
            a["group"],
        )


@settings(max_examples=25, deadline=None)
@given(
    k0=st.integers(2, 6),
    k1=st.integers(2, 6),
    torus=st.booleans(),
    frac=st.integers(1, 100),
    seed=st.integers(0, 10_000),
    algo=st.sampled_from(["hnc", "tree-multicast", "all-at-once"]),
    setting=st.sampled_from(
        [[], ["base=all-at-once"], ["receiver=intermediate"], ["place=corner"]]
    ),
)
def test_schedules_verify_and_match_the_count(k0, k1, torus, frac, seed, algo, setting):
    spec = f"{'torus' if torus else 'mesh'}:{k0}x{k1}"
    p = k0 * k1
    count = max(1, p * frac // 100)
    src = f"random:{count},seed={seed}"
    s = schedule(spec, algo, src, setting)
    assert s.kind == "many_to_all" and s.verify()["ok"]
    h = schedule_hops(s, topology(spec))
    f = figure(spec, algo, src, setting)
    assert (h["messages"], h["aggregate_hops"]) == (f["messages"], f["aggregate_hops"])
    again = _core.Schedule.from_json(s.to_json())
    assert again.to_json() == s.to_json() and again.verify()["ok"]


@settings(max_examples=30, deadline=None)
@given(p=st.integers(1, 300), count=st.integers(1, 300), seed=st.integers(0, 2**32))
def test_random_sources_are_seeded_distinct_and_sorted(p, count, seed):
    spec = f"random:{count},seed={seed}"
    if count > p:
        with pytest.raises(_core.NetcollError, match="choose a COUNT from 1"):
            pick_sources(spec, p)
        return
    got = pick_sources(spec, p)
    assert got == sorted(set(got)) and len(got) == count and got[-1] < p
    assert got == pick_sources(spec, p)


def test_hnc_saves_more_with_more_sources():
    ratios = [
        sum(compare("mesh:16x16", f"random:{s},seed={i}")["ratio_all_at_once"] for i in range(8))
        / 8
        for s in (4, 32, 256)
    ]
    assert ratios[0] > ratios[1] > ratios[2]


def test_cli_schedule_and_analyze():
    out = cli_json(
        "schedule", "manytoall", "--algo", "hnc", "--topo", "mesh:4x4", "--sources", "0,1",
        *[x for kv in HAND for x in ("--set", kv)],
    )  # fmt: skip
    assert out["verified"] and out["aggregate_hops"] == 64 and out["op"] == "manytoall"
    big = cli_json(
        "analyze", "manytoall", "--algo", "hnc", "--topo", "mesh:64x64",
        "--sources", "random:64,seed=5", "--set", "base=all-at-once",
    )  # fmt: skip
    assert big["source"] == "closed_form" and big["sources"] == 64
    aao = cli_json(
        "analyze", "m2a", "--algo", "all-at-once", "--topo", "mesh:64x64",
        "--sources", "random:64,seed=5",
    )  # fmt: skip
    assert big["aggregate_hops"] < aao["aggregate_hops"]


@pytest.mark.parametrize(
    "sources, message",
    [
        ("0,0", "source 0 is listed twice"),
        ("16", "source 16 is out of range"),
        ("random:17,seed=1", "choose a COUNT from 1 to 16"),
        ("0,x", "is not a rank list"),
        ("random:2,sd=1", "malformed"),
    ],
)
def test_bad_sources_are_one_line(sources, message):
    proc = run_cli(
        "analyze", "manytoall", "--algo", "hnc", "--topo", "mesh:4x4", "--sources", sources,
        check=False,
    )  # fmt: skip
    assert proc.returncode == 2
    assert message in proc.stderr and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_missing_sources_and_wrong_collective():
    proc = run_cli("analyze", "manytoall", "--algo", "hnc", "--topo", "mesh:4x4", check=False)
    assert proc.returncode == 2 and "at least one source" in proc.stderr
    proc = run_cli(
        "analyze", "allgather", "--algo", "hnc", "--topo", "mesh:4x4", "--sources", "1",
        check=False,
    )  # fmt: skip
    assert proc.returncode == 2 and "manytoall only" in proc.stderr
    with pytest.raises(_core.NetcollError, match="meshes and tori"):
        figure("hypercube:4", "hnc", [1])


def test_json_files_keep_the_sources(tmp_path):
    path = tmp_path / "m2a.json"
    run_cli(
        "schedule", "manytoall", "--algo", "tree-multicast", "--topo", "torus:4x4",
        "--sources", "9,2,5", "-o", str(path),
    )  # fmt: skip
    doc = json.loads(path.read_text())
    assert doc["collective"]["kind"] == "many_to_all"
    assert doc["collective"]["sources"] == [9, 2, 5]
    assert _core.Schedule.from_json(path.read_text()).verify()["ok"]


@pytest.mark.parametrize("engine,key", [("step", "aggregate_hops"), ("flit", "flit_hops")])
def test_simulate_takes_sources_on_both_engines(engine, key):
    # The hand-worked 4x4 case above: 64 hops in 30 one-flit unicasts.
    args = ["-a", "hnc", "-t", "mesh:4x4", "--sources", "0,1", "--bytes", "16"]
    for p in HAND:
        args += ["--set", p]
    r = cli_json("simulate", "manytoall", "-e", engine, *args)
    assert r["verified"] and r[key] == 64
    if engine == "flit":
        assert r["packets"] == 30 and r["message_packets"] == 1


def test_tune_takes_sources():
    r = cli_json(
        "tune",
        "manytoall",
        "--alpha",
        "1e-6",
        "--beta",
        "1e-9",
        "-t",
        "mesh:8x8",
        "--sources",
        "random:4,seed=1",
    )
    algos = {c["algo"] for c in r["candidates"]}
    assert {"hnc", "tree-multicast", "all-at-once"} <= algos
    bad = run_cli(
        "tune",
        "manytoall",
        "--alpha",
        "1",
        "--beta",
        "1",
        "-t",
        "mesh:4x4",
        "--sources",
        "99",
        check=False,
    )
    assert bad.returncode != 0 and "source 99 is out of range" in bad.stderr
    assert "Traceback" not in bad.stderr
