"""The step engine from Python and the CLI: seed 004's broadcasts and the schedule front end."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import netcoll
from conftest import cli_json, run_cli
from netcoll import _core
from netcoll.engines import simulate_step as simulate


def ring(n, k, **kw):
    return simulate("bcast", "line", f"torus:{n}", 0, 1024, k, kw.get("params", []), [])


@settings(max_examples=30, deadline=None)
@given(half=st.integers(1, 40), k=st.integers(1, 64))
def test_formula_4_on_rings(half, k):
    n = 2 * half
    r = ring(n, k, params=["pattern=1"])
    assert r["steps"] == n // 2 + math.ceil(k / 2) - 1
    assert r["steps"] >= r["lower_bound"]


def test_cli_contract_line_with_and_without_pattern():
    r = cli_json(
        "simulate",
        "bcast",
        "--engine",
        "step",
        "--algo",
        "line",
        "--topo",
        "torus:64",
        "--packets",
        "32",
        "--set",
        "pattern=1",
    )
    assert r["steps"] == 47 and r["pattern"] == 1 and r["metric"] == "T_x"
    s = cli_json(
        "simulate",
        "bcast",
        "--engine",
        "step",
        "--algo",
        "line",
        "--topo",
        "ibt:64x64:b=8,24",
        "--packets",
        "32",
        "--root",
        "1",
    )
    assert s["searched"] and s["steps"] == 22 and s["pattern"] in range(8)
    assert min(t["steps"] for t in s["tried"]) == s["steps"]


def test_rect_and_global_are_verified_on_small_networks():
    r = cli_json(
        "simulate",
        "bcast",
        "--engine",
        "step",
        "--algo",
        "rect",
        "--topo",
        "ibt:16x16:b=4",
        "--packets",
        "8",
        "--set",
        "dim=1",
    )
    assert r["verified"] is True and r["metric"] == "T_xy" and sum(r["split"]) == 8
    g = cli_json(
        "simulate",
        "bcast",
        "--engine",
        "step",
        "--algo",
        "global",
        "--topo",
        "ibt:12x12x12:b=6",
        "--packets",
        "6",
        "--set",
        "pattern=3",
    )
    assert g["verified"] is None and g["steps"] >= g["lower_bound"]  # 1,728 nodes: not built
    assert 0 < g["alpha"] < 1


def test_schedule_front_end_runs_any_algorithm():
    r = cli_json(
        "simulate",
        "bcast",
        "--engine",
        "step",
        "--algo",
        "linear",
        "--topo",
        "mesh:4",
        "--sim",
        "routing=dor",
    )
    assert (r["steps"], r["aggregate_hops"], r["front_end"]) == (5, 6, "schedule")
    args = [
        "simulate",
        "bcast",
        "--engine",
        "step",
        "--algo",
        "global",
        "--topo",
        "torus:6x6",
        "--packets",
        "8",
        "--set",
        "pattern=1",
    ]
    all_port, one_port = cli_json(*args), cli_json(*args, "--set", "ports=one")
    assert one_port["steps"] > all_port["steps"] and one_port["verified"] is True


def test_python_api():
    t = netcoll.topology("torus:8x8")
    r = _core.step_broadcast(t, "trees", packets=8, params=["group=all"])
    assert r["steps"] == r["formula"]["steps"] + 1


@pytest.mark.parametrize(
    "args,needle",
    [
        (["--algo", "line", "--topo", "mesh:4x4"], "tori and interlaced bypass tori"),
        (["--algo", "line", "--topo", "torus:8", "--set", "pattern=99"], "0 to 15"),
        (["--algo", "rect", "--topo", "torus:8"], "two dimensions"),
        (["--algo", "linear", "--topo", "mesh:4", "--sim", "speed=9"], "no setting 'speed'"),
        (
            ["--algo", "linear", "--topo", "mesh:4", "--sim", "up_latncy=2"],
            "did you mean up_latency",
        ),
        (["--algo", "linear", "--topo", "mesh:4", "--sim", "local_latency=0"], "from 1 to"),
        (["--algo", "line", "--topo", "torus:8", "--sim", "global_latency=2"], "one-step links"),
    ],
)
def test_bad_input_is_one_line(args, needle):
    p = run_cli("simulate", "bcast", "--engine", "step", *args, check=False)
    assert p.returncode == 2
    assert needle in p.stderr and p.stderr.count("\n") == 1 and "Traceback" not in p.stderr


def test_bench_step_prints_figures():
    rows = cli_json(
        "bench", "step", "--spec", "ibt:16x16:b=4", "--compare", "torus:4x4x4", "--packets", "8"
    )
    # the iBT twice: the protocol's own pattern, then the user's `simulate` command itself
    # (the pattern searched, issue 30's regression case) in a child process
    assert [r["nodes"] for r in rows] == [256, 256, 64]
    for r in rows:
        assert r["steps"] >= r["lower_bound"] > 0 and r["peak_rss_mib"] > 0
    assert 0 < rows[0]["beta"] < 1
    command = rows[1]["command"]
    assert rows[1]["cpu_seconds"] > 0 and rows[1]["seconds_total"] > 0
    assert command == (
        "netcoll simulate bcast --engine step --algo global --topo ibt:16x16:b=4 --packets 8"
    )
    direct = cli_json(*command.split()[1:], "--json")
    assert (rows[1]["steps"], rows[1]["pattern"]) == (direct["steps"], direct["pattern"])
    assert "command" not in rows[0] and "command" not in rows[2]


def test_simulate_takes_ranks_and_placement():
    # Binomial broadcast of 4 ranks on endpoints 15, 0, 3, 12 of a 4x4 mesh, root rank 0:
    # rank 0 -> rank 2 (15 -> 3: 3 hops), then 0 -> 1 (15 -> 0: 6) and 2 -> 3 (3 -> 12: 6).
    r = cli_json(
        "simulate",
        "bcast",
        "-a",
        "binomial",
        "-t",
        "mesh:4x4",
        "--placement",
        "15,0,3,12",
        "--bytes",
        "16",
    )
    assert (r["ranks"], r["messages"], r["aggregate_hops"]) == (4, 3, 15)
    assert r["verified"]


def test_global_latency_slows_a_dragonfly_broadcast():
    """binomial bcast on dragonfly:p=2,a=4,h=2 (docs/step-engine.md "Link classes")."""
    args = ["simulate", "bcast", "--engine", "step", "--algo", "binomial", "--packets", "4"]
    args += ["--topo", "dragonfly:p=2,a=4,h=2"]
    steps = [cli_json(*args, "--sim", f"global_latency={g}")["steps"] for g in (1, 10)]
    assert steps == [32, 68]
