"""Link classes in the analytic engine (issue 33): per-class alpha (per hop) and beta (per
byte, the route's slowest link) through the CLI and the Python API, the defaults leaving
every figure as it was, bad keys refused in one line, and a 16k-endpoint dragonfly."""

import pytest

import netcoll
from conftest import cli_json, run_cli

# fattree:k=2,levels=2: ranks 0, 1 on one leaf, 2, 3 on the other. A binomial bcast sends
# 0 -> 2 (one up hop, one down hop), then 0 -> 1 and 2 -> 3 (on their leaf, no hops).
HAND = ["--bytes", "1000", "--sim", "alpha=1", "--sim", "beta=0.001", "--sim", "gamma=0"]
TREE = ["bcast", "--engine", "analytic", "--algo", "binomial", "--topo", "fattree:k=2,levels=2"]


def test_a_hand_worked_fat_tree_broadcast():
    classes = ["alpha_up=0.5", "alpha_down=0.25", "beta_down=0.004"]
    sim = [x for kv in classes for x in ("--sim", kv)]
    d = cli_json("simulate", *TREE, *HAND, *sim)
    # Round 0: 1 + 0.5 + 0.25 + 1000 x max(0.001, 0.004) = 5.75; round 1: 1 + 1000 x 0.001.
    assert d["time_s"] == pytest.approx(7.75, rel=1e-12)
    assert d["times"]["hockney"] == pytest.approx(7.75, rel=1e-12)
    plain = cli_json("simulate", *TREE, *HAND)
    assert plain["time_s"] == pytest.approx(4.0, rel=1e-12)


def test_classes_equal_to_the_defaults_change_nothing():
    spec = "dragonfly:p=2,a=4,h=2"
    args = ["allreduce", "--algo", "recursive-doubling", "--topo", spec, "--bytes", "64K"]
    same = ["alpha_global=0", "alpha_local=0", "beta_global=1e-9", "beta_local=1e-9"]
    plain = cli_json("analyze", *args)
    given = cli_json("analyze", *args, *[x for kv in same for x in ("--machine", kv)])
    assert given == plain


def test_the_python_api_takes_the_classes():
    spec = "dragonfly:p=2,a=4,h=2"
    plain = netcoll.analyze("allreduce", "ring", spec, nbytes=8)
    slow = netcoll.analyze("allreduce", "ring", spec, nbytes=8, machine={"alpha_global": 1e-6})
    # Every ring round has a route over one global link (the ranks at group boundaries).
    extra = slow["times"]["hockney_rounds"] - plain["times"]["hockney_rounds"]
    assert extra == pytest.approx(plain["steps"] * 1e-6, rel=1e-9)
    sim = netcoll.simulate(
        "allreduce", "ring", spec, engine="analytic", nbytes=8, sim={"alpha_global": 1e-6}
    )
    assert sim["time_s"] == slow["times"]["hockney_rounds"]


@pytest.mark.parametrize(
    "kv,message",
    [
        ("alpha_globl=1e-6", "did you mean 'alpha_global'?"),
        ("alpha_global=-1", "alpha_global = -1 must be a finite number >= 0"),
        ("beta_up=nan", "beta_up = NaN must be a finite number >= 0"),
    ],
)
def test_bad_class_values_are_one_line_errors(kv, message):
    proc = run_cli("simulate", *TREE, "--sim", kv, check=False)
    assert proc.returncode == 2
    assert message in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_a_16k_endpoint_dragonfly_is_analysed_per_step():
    # Ring allreduce on 16,512 ranks is 545 million messages: too many to build, so the
    # engine takes it per step from the algorithm's rounds (no schedule kept).
    spec = "dragonfly:p=8,a=16,h=8"
    args = ["allreduce", "--engine", "analytic", "--algo", "ring", "--topo", spec]
    d = cli_json("simulate", *args, "--sim", "alpha_global=1e-7")
    assert (d["method"], d["ranks"], d["messages"]) == ("per-step", 16512, 545259264)
    assert d["verified"] is None and d["time_s"] > 0
