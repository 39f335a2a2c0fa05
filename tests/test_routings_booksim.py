"""Issue 32's concentration and mesh/torus/cmesh/fly routings through the CLI: topo check of
every routing, the shipped cmesh and single-crossbar files, and the one-line refusals."""

import pytest

from conftest import cli_json, run_cli

CHECKS = [
    ("mesh:8x8", "xy_yx", 2),
    ("mesh:8x8", "adaptive_xy_yx", 2),
    ("mesh:8x8", "romm", 2),
    ("mesh:8x8", "valiant", 2),
    ("torus:8x8", "valiant", 4),
    ("mesh:8x8", "min_adapt", 2),
    ("torus:8x8", "min_adapt", 4),
    ("mesh:8x8", "planar_adapt", 3),
    ("cmesh:k=4", "dor", 1),
    ("cmesh:k=4", "dor_no_express", 1),
    ("cmesh:k=4", "xy_yx", 2),
    ("cmesh:k=4", "xy_yx_no_express", 2),
    ("fly:k=10,n=1", "dest_tag", 1),
    ("mesh:4x4,c=4", "dor", 1),
]


@pytest.mark.parametrize(("spec", "routing", "vcs"), CHECKS)
def test_every_new_routing_is_deadlock_free_with_its_vcs(spec, routing, vcs):
    r = cli_json("topo", "check", "--topo", spec, "--routing", routing, "--vcs", str(vcs))
    assert r["deadlock_free"] is True and r["cycle"] == [] and r["routing"] == routing


def test_two_orders_on_one_vc_close_a_cycle():
    r = cli_json("topo", "check", "--topo", "mesh:4x4", "--routing", "xy_yx", "--vcs", "1")
    assert r["deadlock_free"] is False and len(r["cycle"]) >= 2


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("topo", "check", "--topo", "torus:4x4", "--routing", "romm", "--vcs", "2"), "mesh"),
        (("topo", "check", "--topo", "mesh:4x4", "--routing", "dor_no_express"), "cmesh"),
        (("topo", "check", "--topo", "cmesh:k=8", "--routing", "xy_yx"), "k > 4"),
        (("topo", "check", "--topo", "fattree:k=2,levels=2", "--routing", "dest_tag"), "fly"),
        (("topo", "stats", "--topo", "mesh:4x4,c=0"), "c = 0"),
        (("topo", "stats", "--topo", "cmesh:k=3"), "even"),
        (("topo", "stats", "--topo", "fly:k=4,n=2"), "n = 1"),
    ],
)
def test_refusals_are_one_line_with_what_applies(args, says):
    r = run_cli(*args, check=False)
    assert r.returncode == 2, r.stderr
    assert says in r.stderr and len(r.stderr.strip().splitlines()) == 1


CMESH = """topology = cmesh; k = 4; n = 2; c = 4; xr = 2; yr = 2; x = 4; y = 4;
routing_function = dor_no_express; traffic = bitcomp; use_read_write = 0; batch_size = 2000;
"""

SINGLE = """topology = fly; k = 10; n = 1; num_vcs = 8; vc_buf_size = 8;
vc_allocator = separable_input_first; sw_allocator = separable_input_first;
routing_function = dest_tag; traffic = uniform; use_read_write = 0; injection_rate = 1.0;
sample_period = 100000; routing_delay = 0; vc_alloc_delay = 1; sw_alloc_delay = 1;
st_final_delay = 1;
"""


def test_booksim_cmesh_and_single_crossbar_files_run_as_booksim_ships_them(tmp_path):
    cmesh = tmp_path / "cmeshconfig"
    cmesh.write_text(CMESH)
    r = cli_json("sim", "--booksim", str(cmesh))
    # BookSim 2 (28f4329): 36.075 cycles, 0.0999 packets per node per cycle.
    assert abs(r["avg_packet_latency"] / 36.075 - 1) < 0.03
    assert abs(r["accepted_rate"] / 0.0999 - 1) < 0.05 and r["unstable"] is False
    single = tmp_path / "singleconfig"
    single.write_text(SINGLE)
    r = cli_json("sim", "--booksim", str(single))
    assert r["unstable"] is True  # as BookSim reports it at injection_rate 1.0
    assert r["topology"] == "fly:k=10,n=1"


def test_concentrated_mesh_spec_counts_its_nodes():
    s = cli_json("topo", "stats", "--topo", "mesh:4x4,c=4")
    assert s["nodes"] == 64 and s["switches"] == 16
