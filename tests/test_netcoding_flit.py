"""HNC schedules on the flit engine with seed 000's router (s5), the step keys of the
schedule runner (vc_per_step, sync_steps, whole_messages), and the schedule benchmark."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import cli_json
from netcoll._core import NetcollError, Topology, build_schedule, simulate_schedule
from netcoll.reproduce.netcoding_flit import FREE, MEASURES, OP, PAPER, cycles
from netcoll.reproduce.netcoding_readings import FIG10_READING, READINGS, readings, versus

#: Phase steps with s4.3's rule for the group: the paper's 8x4 does not fit small meshes.
SMALL = ["group=compact", "steps=phase"]


def _run(spec, algo, params=(), extra=()):
    t = Topology(spec)
    s = build_schedule(OP, algo, t, nbytes=16, params=list(params))
    return simulate_schedule(s, t, PAPER + list(extra))


def test_hnc_on_a_4x4_mesh_verifies_and_delivers_every_block_once():
    for extra in ([], FREE):
        r = _run("mesh:4x4", "hnc", ["group=2x2"], extra)
        assert r["verified"] and r["deadlock"] is None
        assert r["packets"] == 16 * 15
    # The barrier's measure is never below the free-running time.
    c = cycles(4, "hnc", ["group=2x2"])
    assert c["cycles"] >= c["free_cycles"] > 0


@settings(max_examples=8, deadline=None)
@given(
    st.sampled_from(["mesh", "torus"]),
    st.sampled_from([(4, 2), (2, 4), (4, 4), (6, 2)]),
    st.sampled_from(["hnc", "tree-multicast", "all-at-once"]),
)
def test_every_method_completes_with_step_vcs_on_meshes_and_tori(family, dims, algo):
    spec = f"{family}:{dims[0]}x{dims[1]}"
    r = _run(spec, algo)
    n = dims[0] * dims[1]
    assert r["verified"] and r["deadlock"] is None and r["packets"] == n * (n - 1)


def test_combining_with_whole_messages_sends_fewer_longer_packets():
    extra = [("vc_buf_size", "32")]
    h = _run("mesh:4x4", "hnc", ["group=2x2"], extra)
    c = _run("mesh:4x4", "hnc", ["group=2x2", "mode=combine"], extra + [("whole_messages", "1")])
    assert c["verified"] and c["deadlock"] is None
    assert c["packets"] < h["packets"]


def test_bad_step_keys_are_one_line_errors():
    with pytest.raises(NetcollError, match="step VC classes") as e:
        _run("torus:4x4", "hnc", extra=[("step_vc_classes", "4")])
    assert "\n" not in str(e.value)
    with pytest.raises(NetcollError, match="0 or 1"):
        _run("mesh:4x4", "hnc", extra=[("sync_steps", "2")])


def test_bench_flit_schedule_prints_its_figures():
    rows = cli_json("bench", "flit-schedule", "--k", "4", "--algo", "hnc")
    assert rows[0]["cycles"] > 0 and rows[0]["cycles_per_s"] > 0 and rows[0]["peak_rss_mb"] > 0


def test_per_step_latencies_read_the_papers_measure_three_ways():
    # HNC with phase steps on the 4x4 mesh (8x4 does not fit: s4.3's rule, compact): four
    # steps (b, d, e, f), each reported with its maximum packet latency (from creation) and
    # network latency (from injection).
    r = _run("mesh:4x4", "hnc", SMALL)
    steps = r["step_latency"]
    assert [s["step"] for s in steps] == [0, 1, 2, 3]
    assert sum(s["packets"] for s in steps) == r["packets"] == 16 * 15
    assert r["sum_step_max_packet_latency"] == sum(s["max_packet_latency"] for s in steps)
    assert r["sum_step_max_network_latency"] == sum(s["max_network_latency"] for s in steps)
    c = cycles(4, "hnc", SMALL)
    assert set(c) == {*MEASURES, "flit_hops"} and c["flit_hops"] > 0
    assert c["max_network"] <= c["max_packet"] <= c["cycles"]


@settings(max_examples=10, deadline=None)
@given(
    st.sampled_from([(4, 2), (2, 4), (4, 4), (6, 2), (8, 4)]),
    st.sampled_from(
        [
            ("tree-multicast", []),
            ("hnc", []),
            ("hnc", SMALL),
            ("hnc", SMALL + ["base=all-at-once"]),
            ("hnc", SMALL + ["mode=combine"]),
            ("hnc", SMALL + ["step_e=scatter-allgather"]),
            ("hnc", ["step_e=pipelined"]),
            ("tree-multicast", ["steps=phase"]),
        ]
    ),
)
def test_step_maxima_never_exceed_the_barrier_time(dims, method):
    algo, params = method
    r = _run(f"mesh:{dims[0]}x{dims[1]}", algo, params)
    assert r["verified"] and r["deadlock"] is None
    assert sum(s["packets"] for s in r["step_latency"]) == r["packets"]
    for s in r["step_latency"]:
        assert s["max_network_latency"] <= s["max_packet_latency"]
        assert s["max_packet_latency"] <= s["last_arrival"] - s["first_created"]
    assert r["sum_step_max_network_latency"] <= r["sum_step_max_packet_latency"] <= r["cycles"]


def test_paper_groups_and_phase_steps():
    f = cli_json(
        "analyze",
        "alltoall-broadcast",
        "--algo",
        "hnc",
        "--topo",
        "mesh:16x16",
        "--set",
        "group=paper",
        "--set",
        "steps=phase",
        "--json",
    )
    assert f["group"] == "8x4" and f["group_size"] == 32 and f["steps"] == 4
    with pytest.raises(NetcollError, match="steps=ring is unknown"):
        _run("mesh:4x4", "hnc", ["steps=ring"])


def test_step_e_variants_run_on_the_flit_engine():
    # The contract command, for every variant: verified (decoding included), no deadlock.
    for e in ("tree", "scatter-allgather", "pipelined"):
        r = cli_json(
            "simulate",
            "allgather",
            "--engine",
            "flit",
            "--algo",
            "hnc",
            "--topo",
            "mesh:8x8",
            "--set",
            "group=paper",
            "--set",
            f"step_e={e}",
            "--bytes",
            "16",
            "--json",
        )
        assert r["verified"] and r["deadlock"] is None and r["packets"] == 64 * 63


def test_every_reading_with_the_same_steps_on_both_sides():
    rows = versus(4)
    assert [r["method"] for r in rows] == ["baseline", "hnc"]
    assert rows[1]["group"] == "4x2"  # compact: 8x4 does not fit the 4x4 mesh
    for r in rows:
        assert set(READINGS) <= set(r) and all(r[k] > 0 for k in READINGS)
    # The tree's messages are one block: counting a message as one flit changes nothing.
    tree = rows[0]
    assert tree["one_packet_free"] == tree["free"]
    # The tree as one phase is one step: its per-step maximum is one packet's latency,
    # below its per-level sum.
    assert tree["network_phase"] <= tree["network_level"]
    # One-flit coded messages can only help HNC.
    hnc = readings(8, "hnc", ["group=paper"], 32)
    assert hnc["one_packet_free"] < hnc["free"]
    assert FIG10_READING in READINGS
