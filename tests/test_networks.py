"""The network families (issue 33): the contract specs in every --topo command, their
metrics, routings, deadlock checks, collectives on every engine, and bad parameters."""

import pytest

from conftest import cli_json, run_cli

CONTRACT = [
    "fattree:k=4,levels=3",
    "dragonfly:p=2,a=4,h=2",
    "flatfly:k=4,n=2,c=4",
    "hyperx:4x4,t=1",
]


@pytest.mark.parametrize(
    "spec,nodes,routers,diameter,bisection",
    [
        ("fattree:k=4,levels=3", 64, 48, 4, 32),
        ("dragonfly:p=2,a=4,h=2", 72, 36, 3, 20),
        ("flatfly:k=4,n=2,c=4", 64, 16, 2, 16),
        ("hyperx:4x4,t=1", 16, 16, 2, 16),
    ],
)
def test_topo_stats_contract(spec, nodes, routers, diameter, bisection):
    s = cli_json("topo", "stats", "--topo", spec)
    assert (s["nodes"], s["routers"], s["diameter"], s["bisection_links"]) == (
        nodes,
        routers,
        diameter,
        bisection,
    )
    assert s["radix"] > 0 and sum(s["cables"].values()) == s["links"]


def test_large_dragonfly_stats_answer_without_all_pairs_tables():
    s = cli_json("topo", "stats", "--topo", "dragonfly:p=8,a=16,h=8")
    assert (s["nodes"], s["routers"], s["diameter"]) == (16512, 2064, 3)
    assert s["cables"] == {"global": 2064 * 8 // 2, "local": 129 * 16 * 15 // 2}


@pytest.mark.parametrize(
    "spec,routing,vcs,free",
    [
        ("dragonfly:p=2,a=4,h=2", "ugal", 4, True),
        ("dragonfly:p=2,a=4,h=2", "ugal", 2, False),
        ("dragonfly:p=2,a=4,h=2", "min", 2, True),
        ("dragonfly:p=2,a=4,h=2", "valiant", 4, True),
        ("flatfly:k=4,n=2,c=4", "ugal", 2, True),
        ("hyperx:4x4,t=1", "ugal-g", 2, True),
        ("fattree:k=4,levels=3", "nca", 1, True),
    ],
)
def test_topo_check_covers_the_routings(spec, routing, vcs, free):
    rep = cli_json("topo", "check", "--topo", spec, "--routing", routing, "--vcs", str(vcs))
    assert rep["deadlock_free"] is free
    assert bool(rep["cycle"]) is not free


@pytest.mark.parametrize("spec", CONTRACT)
def test_route_and_draw(spec, tmp_path):
    routing = "nca" if spec.startswith("fattree") else "valiant"
    r = cli_json("route", "--topo", spec, "0", "15", "--routing", routing)
    assert r["hops"]
    out = tmp_path / "net.png"
    run_cli("topo", "draw", "--topo", spec, "-o", str(out))
    assert out.stat().st_size > 1000


@pytest.mark.parametrize("spec", CONTRACT)
@pytest.mark.parametrize("engine", ["analytic", "step", "flit"])
def test_collectives_run_on_every_engine(spec, engine):
    for op, algo in [("allreduce", "ring"), ("bcast", "binomial"), ("allgather", "bruck")]:
        d = cli_json("simulate", op, "--engine", engine, "--algo", algo, "--topo", spec)
        assert d["verified"] is True, (op, algo)
        if engine == "flit":
            assert d["cycles"] > 0


def test_tuner_ranks_algorithms_on_a_dragonfly():
    run_cli("tune", "allreduce", "--topo", "dragonfly:p=2,a=4,h=2")


@pytest.mark.parametrize(
    "spec,rule",
    [
        ("dragonfly:p=2,a=4,h=2,g=10", "g <= a*h+1"),
        ("dragonfly:p=2,a=4,h=2,g=4", "(g-1) divides a*h"),
        ("fattree:k=1,levels=2", "k >= 2"),
        ("hyperx:4x4,t=0", "at least one endpoint"),
        ("dragonfly:p=2,a=4,h=2,arrangement=spiral", "absolute"),
    ],
)
def test_bad_parameters_name_the_rule(spec, rule):
    proc = run_cli("topo", "stats", "--topo", spec, check=False)
    assert proc.returncode == 2
    assert rule in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_adaptive_routings_refused_by_the_step_engine():
    proc = run_cli(
        "simulate",
        "bcast",
        "--engine",
        "step",
        "--algo",
        "binomial",
        "--topo",
        "dragonfly:p=2,a=4,h=2",
        "--sim",
        "routing=ugal",
        check=False,
    )
    assert proc.returncode == 2 and "analytic" in proc.stderr


def test_nca_route_names_up_and_down():
    proc = run_cli("route", "--topo", "fattree:k=2,levels=3", "0", "7", "--routing", "nca")
    rows = [line for line in proc.stdout.splitlines() if line.startswith("│")]
    assert len(rows) == 4
    assert [r.split("│")[-2].strip() for r in rows] == ["up", "up", "down", "down"]


@pytest.mark.parametrize(
    "keys",
    [
        ["topology=dragonflynew", "k=2", "n=1", "num_vcs=3", "routing_function=ugal"],
        ["topology=dragonflynew", "k=2", "n=1", "num_vcs=3", "routing_function=valiant"],
        ["topology=flatfly", "k=4", "n=2", "c=4", "x=4", "y=4", "xr=2", "yr=2", "num_vcs=8"]
        + ["routing_function=ugal"],
        ["topology=fattree", "k=4", "n=3", "routing_function=anca"],
    ],
)
def test_booksim_adaptive_routings_run_in_the_flit_engine(keys):
    d = cli_json("sim", *keys, "vc_buf_size=256", "injection_rate=0.05", "sample_period=500")
    assert d["unstable"] is False and d["misdelivered"] == 0
    assert d["packets_delivered"] > 0
