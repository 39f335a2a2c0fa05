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
    timing = ("cpu_seconds", "wall_seconds")
    assert all(k in r for k in timing)
    assert {k: v for k, v in again.items() if k not in timing} == {
        k: v for k, v in r.items() if k not in timing
    }
    text = run_cli("sim", "--booksim", str(cfg)).stdout
    assert "Packet latency average" in text and "Accepted flit rate average" in text


def test_unsupported_key_is_one_line_error(tmp_path):
    cfg = tmp_path / "bad.cfg"
    cfg.write_text("topology = mesh; k = 4; n = 2; routing_function = dor; priority = local_age;")
    proc = run_cli("sim", "--booksim", str(cfg), check=False)
    assert proc.returncode == 2
    assert "priority = local_age" in proc.stderr
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
            ("use_noc_latency", "0"),
            ("seed", "1"),
            ("vc_buf_size", "2"),
            ("packet_size", "8"),
            ("injection_rate", "1"),
            ("sim_type", "batch"),
            # 300 packets a node: every seed 1-5 closes a cycle (100 did for seed 1 only
            # while credits counted a cycle early; BookSim's timing leaves it to chance).
            ("batch_size", "300"),
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
    assert {r["network"] for r in rows} == {
        "mesh:8x8",
        "mesh:16x16",
        "torus:8x8",
        "anynet:16x4",
        "mesh:8x8 2 VCs",
        "mesh:8x8 8 VCs",
        "mesh:8x8 20 flits",
        "mesh:8x8x8",
        "mesh:8x8 islip(2)",
        "mesh:8x8 wavefront",
        "dragonfly k=4",
        "fattree k=4 n=3",
        "mesh:128x128",
    }
    assert all(r["cycles_per_s"] > 0 and r["ns_per_flit_hop"] > 0 for r in rows)
    assert all(r["cycles_per_wall_s"] > 0 and not r["unstable"] for r in rows)
    # Automatic threads: one below 1,024 routers, every core on the 128x128 mesh.
    assert all(r["threads"] == 1 for r in rows if r["network"] != "mesh:128x128")
    two = cli_json("bench", "flit", "--quick", "--threads", "2", "--repeat", "2")
    # The fat-tree's nca draws an up port per packet and the dragonfly's routings pin a VC
    # per phase (adaptive.rs): one thread whatever asked.
    one = ("fattree", "dragonfly")
    assert [r["threads"] for r in two] == [
        1 if any(f in r["network"] for f in one) else 2 for r in rows
    ]
    # --repeat times every case but the large one that many times (the median reported).
    assert [r["repeat"] for r in two] == [2] * (len(rows) - 1) + [1]
    same = ("network", "load", "cycles", "avg_packet_latency", "accepted_rate", "flit_hops")
    assert [{k: r[k] for k in same} for r in two] == [{k: r[k] for k in same} for r in rows]


def test_sim_threads_give_identical_figures_and_report_times(tmp_path):
    cfg = tmp_path / "mesh.cfg"
    cfg.write_text(MESH44)
    runs = [
        cli_json("sim", "--booksim", str(cfg), "--threads", t, "injection_rate=0.3")
        for t in ("1", "2", "3")
    ]
    assert [r["threads"] for r in runs] == [1, 2, 3]
    for key in ("avg_packet_latency", "accepted_rate", "cycles", "packet_latency"):
        assert runs[0][key] == runs[1][key] == runs[2][key], key
    assert all(r["cpu_seconds"] >= 0 and r["wall_seconds"] > 0 for r in runs)
    # The config key is the same thing; the option wins over it.
    keyed = cli_json("sim", "--booksim", str(cfg), "threads=2", "injection_rate=0.3")
    assert keyed["threads"] == 2 and keyed["avg_packet_latency"] == runs[0]["avg_packet_latency"]
    bad = run_cli("sim", "--booksim", str(cfg), "threads=5000", check=False)
    assert bad.returncode == 2 and "threads = 5000" in bad.stderr
    assert "Traceback" not in bad.stderr
    text = run_cli("sim", "--booksim", str(cfg), "--threads", "2").stdout
    assert "Simulated on 2 thread(s)" in text


def test_simulate_flit_takes_threads():
    args = ("simulate", "bcast", "--engine", "flit", "--algo", "linear", "--topo", "mesh:4x4")
    one = cli_json(*args)
    two = cli_json(*args, "--threads", "2")
    assert two["cycles"] == one["cycles"]
    step = run_cli(
        "simulate", "bcast", "--algo", "linear", "--topo", "mesh:4x4", "--threads", "2", check=False
    )
    assert step.returncode == 2 and "--threads" in step.stderr


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


# BookSim 2's shipped runfile src/examples/torus88, as shipped (comments dropped); BookSim 2
# (github.com/booksim/booksim2 28f4329, `booksim torus88`, seed 0) prints a packet latency
# average of 33.66 cycles: its defaults make torus channels 2 cycles long (use_noc_latency).
TORUS88 = """topology = torus;
k = 8;
n = 2;
routing_function = dim_order;
num_vcs = 2;
traffic = uniform;
injection_rate = 0.15;
"""


def test_booksim_runfile_means_what_it_means_to_booksim(tmp_path):
    cfg = tmp_path / "torus88"
    cfg.write_text(TORUS88)
    r = cli_json("sim", "--booksim", str(cfg))
    assert abs(r["avg_packet_latency"] - 33.66) / 33.66 < 0.03
    assert abs(r["accepted_rate"] - 0.15) / 0.15 < 0.02
    # Read with 1-cycle channels, the same file is a different network.
    flat = cli_json("sim", "--booksim", str(cfg), "use_noc_latency=0")
    assert flat["avg_packet_latency"] < 0.9 * r["avg_packet_latency"]


def test_anynet_network_file_beside_the_config(tmp_path):
    (tmp_path / "net").write_text(
        "router 0 node 0 node 1 node 2 router 1\nrouter 1 node 3 node 4 node 5\n"
        "router 2 node 6 node 7 node 8 router 1 router 0\n"
    )
    cfg = tmp_path / "any.cfg"
    cfg.write_text("topology = anynet; network_file = net; routing_function = min;\n")
    r = cli_json("sim", "--booksim", str(cfg), "injection_rate=0.05")
    assert r["nodes"] == 9 and not r["unstable"]
    (tmp_path / "net").write_text("router 0 node 0 router 1 7\nrouter 1 node 1\n")
    proc = run_cli("sim", "--booksim", str(cfg), check=False)
    assert proc.returncode == 2 and "net:1: link latency 7" in proc.stderr


@pytest.mark.parametrize(
    "content, why",
    [
        (b"topology = mesh;\0\0\0", "is binary"),
        (b"topology = mesh; // caf\xe9\n", "not UTF-8"),
        (b"topology = mesh;\n/* never closed\n", ":2:1: unterminated /* comment"),
        (b'topology = "mesh;\n', "unterminated quote"),
        (b"traffic = hotspot({0,5};\n", "1:18: unterminated '('"),
        (b"topology = mesh; routing_function = dor; max_cycles = 0;", "max_cycles = 0"),
        (b"topology = mesh; routing_function = dor; latency_thres = nan;", "latency_thres = nan"),
        (b"topology = mesh;", "routing_function is not set"),
        (b"routing_function = dor; netcoll_topology = mesh:4x4;", "needs topology = netcoll"),
        (b"routing_function = dor; alloc_iters = 0;", "alloc_iters = 0 is out of range: "),
        (b"routing_function = dor; alloc_iters = -3;", "1 to 1024 iterations"),
        (b"routing_function = dor; vc_allocator = wavefrnt;", "did you mean wavefront?"),
        (b"routing_function = dor; sw_allocator = maxsize;", "did you mean max_size?"),
        (b"routing_function = dor; wait_for_tail_credit = 2;", "expected 0 or 1"),
    ],
)
def test_bad_booksim_files_are_one_line_errors(tmp_path, content, why):
    cfg = tmp_path / "x.cfg"
    cfg.write_bytes(content)
    proc = run_cli("sim", "--booksim", str(cfg), check=False)
    assert proc.returncode == 2
    assert why in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    assert "Traceback" not in proc.stderr


def test_bench_flit_runs_booksims_shipped_files_and_lists_refusals(tmp_path):
    """`bench flit --booksim` finds BookSim's shipped files beside the binary (src/booksim,
    src/examples/, runfiles/); a file netcoll refuses is a row with the reason, not a crash."""
    from netcoll.cli.bench import shipped_rows

    (tmp_path / "src" / "examples").mkdir(parents=True)
    (tmp_path / "runfiles").mkdir()
    fake = tmp_path / "src" / "booksim"
    fake.write_text(
        "#!/bin/sh\necho 'Packet latency average = 33.5'\necho 'Time taken is 6000 cycles'\n"
    )
    fake.chmod(0o755)
    (tmp_path / "src" / "examples" / "torus88").write_text(TORUS88)
    (tmp_path / "runfiles" / "meshconfig").write_text("topology = mesh; colour = red;\n")
    rows = shipped_rows(str(fake), quick=True, mine=[])
    assert [r["file"] for r in rows] == ["src/examples/torus88", "runfiles/meshconfig"]
    torus, mesh = rows
    assert torus["booksim_cycles"] == 6000 and torus["booksim_latency"] == 33.5
    assert "ratio" in torus and torus["cycles_per_s"] > 0
    assert "colour" in mesh["refused"] and "cycles_per_s" not in mesh


def test_booksim_run_counts_an_unstable_runs_sample_periods(tmp_path):
    """BookSim prints no 'Time taken' when it gives up: its cycles are its periods' sum."""
    from netcoll.cli.bench import booksim_run

    fake = tmp_path / "booksim"
    fake.write_text(
        "#!/bin/sh\nprintf 'Class 0:\\nPacket latency average = 900\\n"
        "Class 0:\\nPacket latency average = 950\\nSimulation unstable, ending ...\\n'\n"
    )
    fake.chmod(0o755)
    cfg = tmp_path / "single"
    cfg.write_text("topology = mesh; sample_period = 500;\n")
    r = booksim_run(str(fake), cfg, [])
    assert r["booksim_cycles"] == 1000 and r["booksim_latency"] == 950.0
    assert booksim_run(str(fake), cfg, ["sample_period=200"])["booksim_cycles"] == 400
