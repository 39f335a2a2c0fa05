"""The flit engine from Python and the `netcoll sim --booksim` / `netcoll bench flit` CLI."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import cli_json, run_cli
from netcoll._core import NetcollError, simulate_traffic
from netcoll.cli.sim import parse_booksim

MESH44 = """
// a BookSim-style configuration
topology = mesh;
k = 4;
n = 2;
routing_function = dim_order;
num_vcs = 4;  vc_buf_size = 8;
traffic = uniform;
packet_size = 1;
injection_rate = 0.1;
sim_type = latency;
sample_period = 500;
/* block comment */
seed = 7;
"""


def test_parse_booksim_syntax():
    pairs = dict(parse_booksim(MESH44))
    assert pairs["topology"] == "mesh"
    assert pairs["num_vcs"] == "4" and pairs["vc_buf_size"] == "8"
    assert "block" not in "".join(pairs)
    assert dict(parse_booksim('traffic = hotspot({0,5}); x = "a;b";')) == {
        "traffic": "hotspot({0,5})",
        "x": "a;b",
    }
    with pytest.raises(NetcollError):
        parse_booksim("k 8;")


def test_sim_booksim_json(tmp_path):
    cfg = tmp_path / "mesh44.cfg"
    cfg.write_text(MESH44)
    r = cli_json("sim", "--booksim", str(cfg))
    for key in (
        "avg_packet_latency",
        "accepted_rate",
        "cycles",
        "deadlock",
        "avg_network_latency",
        "avg_flit_latency",
        "avg_hops",
        "unstable",
    ):
        assert key in r
    assert r["deadlock"] is None and not r["unstable"]
    assert abs(r["accepted_rate"] - 0.1) < 0.02
    # Overrides on the command line win over the file; same seed, same answer.
    again = cli_json("sim", "--booksim", str(cfg), "seed=7")
    assert again == r
    text = run_cli("sim", "--booksim", str(cfg)).stdout
    assert "Packet latency average" in text and "Accepted flit rate average" in text


def test_unsupported_key_is_one_line_error(tmp_path):
    cfg = tmp_path / "bad.cfg"
    cfg.write_text("topology = mesh; k = 4; n = 2; use_read_write = 1;")
    proc = run_cli("sim", "--booksim", str(cfg), check=False)
    assert proc.returncode == 2
    assert "unsupported key 'use_read_write'" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    proc = run_cli("sim", "topology=dragonfly", check=False)
    assert proc.returncode == 2 and "topology = dragonfly" in proc.stderr


def test_deadlock_is_reported_not_hung():
    r = simulate_traffic(
        [
            ("topology", "torus"),
            ("k", "4"),
            ("n", "2"),
            ("num_vcs", "1"),
            ("dateline", "0"),
            # Ties always + (netcoll's DOR): on a 4-ring only tie packets span two hops in one
            # direction, so BookSim's random tie-break rarely closes a cycle here.
            ("torus_routing", "dateline"),
            ("seed", "1"),
            ("vc_buf_size", "2"),
            ("packet_size", "8"),
            ("injection_rate", "1"),
            ("sim_type", "batch"),
            ("batch_size", "100"),
            ("deadlock_cycles", "100"),
        ]
    )
    assert r["deadlock"] is not None and r["unstable"]
    assert r["deadlock"]["wait_cycle"]


@settings(max_examples=15, deadline=None)
@given(
    k=st.integers(2, 5),
    size=st.integers(1, 6),
    rate=st.floats(0.05, 0.6),
    torus=st.booleans(),
    seed=st.integers(0, 1000),
)
def test_batch_conservation(k, size, rate, torus, seed):
    r = simulate_traffic(
        [
            ("topology", "torus" if torus else "mesh"),
            ("k", str(k)),
            ("n", "2"),
            ("packet_size", str(size)),
            ("injection_rate", str(rate)),
            ("sim_type", "batch"),
            ("batch_size", "20"),
            ("seed", str(seed)),
        ]
    )
    n = k * k
    assert r["deadlock"] is None
    assert r["packets_generated"] == r["packets_delivered"] == 20 * n
    assert r["misdelivered"] == 0


def test_bench_flit_quick_prints_figures():
    rows = cli_json("bench", "flit", "--quick")
    assert {r["network"] for r in rows} == {"mesh:8x8", "mesh:16x16"}
    assert all(r["cycles_per_s"] > 0 and r["ns_per_flit_hop"] > 0 for r in rows)


def test_bench_flit_with_a_bad_booksim_binary_is_one_line():
    missing = run_cli("bench", "flit", "--quick", "--booksim", "/nonexistent/booksim", check=False)
    assert missing.returncode != 0 and "Traceback" not in missing.stderr
    wrong = run_cli("bench", "flit", "--quick", "--booksim", "/bin/true", check=False)
    assert wrong.returncode != 0 and "Traceback" not in wrong.stderr
    assert "Time taken" in wrong.stderr


def test_simulate_engine_flit_runs_a_schedule():
    r = cli_json("simulate", "bcast", "--engine", "flit", "--algo", "linear", "--topo", "mesh:4x4")
    assert r["verified"] is True
    assert r["cycles"] > 0 and r["avg_packet_latency"] > 0
    assert r["deadlock"] is None
    slower = cli_json(
        "simulate",
        "bcast",
        "--engine",
        "flit",
        "--algo",
        "linear",
        "--topo",
        "mesh:4x4",
        "--sim",
        "t_hs=50",
    )
    assert slower["cycles"] > r["cycles"]
