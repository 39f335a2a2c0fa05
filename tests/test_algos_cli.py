"""CLI contract of `netcoll algos | schedule | analyze | tune` (docs/algorithms.md)."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import cli_json, run_cli
from netcoll import _core
from netcoll.networks import topology

REQUIRED = {
    "bcast": ["binomial", "scatter-allgather", "linear"],
    "allgather": ["ring", "recursive-doubling", "bruck", "all-at-once"],
    "allreduce": ["rabenseifner", "ring", "recursive-doubling"],
    "reduce-scatter": ["ring", "recursive-halving"],
    "scatter": ["binomial", "linear"],
    "gather": ["binomial", "linear"],
    "reduce": ["binomial", "linear"],
}


def test_algos_lists_the_classic_algorithms_with_preconditions():
    rows = cli_json("algos")
    for kind, names in REQUIRED.items():
        have = {a["name"] for a in rows if kind in a["collectives"]}
        assert set(names) <= have, kind
    for a in rows:
        for key in ("name", "collectives", "params", "preconditions", "source", "family"):
            assert key in a
    only = cli_json("algos", "--op", "reduce-scatter")
    assert {a["name"] for a in only} >= {"ring", "recursive-halving"}
    assert all("reduce-scatter" in a["collectives"] for a in only)
    assert "binomial" in run_cli("algos").stdout


def test_schedule_json_contract_binomial_bcast_on_a_4x4_mesh(tmp_path):
    out = tmp_path / "s.json"
    s = cli_json("schedule", "bcast", "--algo", "binomial", "--topo", "mesh:4x4", "-o", str(out))
    assert s["verified"] is True
    # Hand-worked: 15 messages, 4 rounds, 20 hops (docs/analytic.md).
    assert (s["ranks"], s["messages"], s["steps"], s["aggregate_hops"]) == (16, 15, 4, 20)
    for key in ("packets", "ni_messages", "times"):
        assert key in s
    assert set(s["times"]) >= {"hockney_rounds", "hockney", "postal", "multisend_us", "loggp"}
    written = json.loads(out.read_text())
    assert written["format"] == "netcoll-schedule" and len(written["messages"]) == 15
    # The file reads back as a schedule that verifies.
    assert _core.Schedule.from_json(out.read_text()).verify()["ok"]


@pytest.mark.parametrize(
    "op,algo,p,messages,steps",
    [
        ("allgather", "ring", 5, 20, 4),
        ("allreduce", "rabenseifner", 8, 48, 6),
        ("reduce-scatter", "ring", 6, 30, 5),
        ("scatter", "binomial", 7, 6, 3),
        ("gather", "binomial", 9, 8, 4),
        ("reduce", "binomial", 13, 12, 4),
        ("allgather", "bruck", 6, 18, 3),
    ],
)
def test_schedule_counts_by_hand(op, algo, p, messages, steps):
    s = cli_json("schedule", op, "--algo", algo, "--topo", "mesh:4x4", "--ranks", str(p))
    assert (s["verified"], s["ranks"], s["messages"], s["steps"]) == (True, p, messages, steps)


def test_root_placement_and_routing_options():
    s = cli_json(
        "schedule",
        "bcast",
        "--algo",
        "scatter-allgather",
        "--topo",
        "torus:4x4",
        "--root",
        "5",
        "--placement",
        "random:seed=3",
        "--routing",
        "shortest",
        "--bytes",
        "4096",
        "--packets",
        "4",
    )
    assert s["verified"] and s["messages"] == 15 + 16 * 15
    # Binomial bcast on a row of 8: 0-4 (4 hops), 0-2 and 4-6 (2 each), four neighbours: 12,
    # and the same with the ranks placed in reverse.
    for placement in ("identity", "reverse"):
        a = cli_json(
            "schedule", "bcast", "--algo", "binomial", "--topo", "mesh:8", "--placement", placement
        )
        assert a["aggregate_hops"] == 12


def test_analyze_matches_schedule():
    args = ("allreduce", "--algo", "ring", "--topo", "mesh:3x3", "--bytes", "9000")
    a = cli_json("analyze", *args)
    s = cli_json("schedule", *args)
    for key in ("messages", "aggregate_hops", "steps"):
        assert a[key] == s[key]
    assert a["source"] == "schedule"


def test_tune_contract_best_first():
    t = cli_json(
        "tune",
        "allreduce",
        "--topo",
        "mesh:4x4",
        "--bytes",
        "8",
        "--alpha",
        "1e-5",
        "--beta",
        "1e-9",
    )
    c = t["candidates"]
    assert {x["algo"] for x in c} >= {"rabenseifner", "ring", "recursive-doubling"}
    assert all("params" in x and x["time_s"] > 0 for x in c)
    assert [x["time_s"] for x in c] == sorted(x["time_s"] for x in c)
    # Among the classic algorithms (other families may join the ranking):
    classic = [x["algo"] for x in c if x["family"] == "classic"]
    assert classic[0] == "recursive-doubling" and classic[-1] == "ring"
    big = cli_json(
        "tune",
        "allreduce",
        "--topo",
        "mesh:4x4",
        "--bytes",
        "16777216",
        "--alpha",
        "1e-9",
        "--beta",
        "1e-9",
    )
    classic = [x["algo"] for x in big["candidates"] if x["family"] == "classic"]
    assert classic[-1] == "recursive-doubling"
    assert (
        "1."
        in run_cli(
            "tune",
            "bcast",
            "--topo",
            "mesh:3x3",
            "--bytes",
            "64",
            "--alpha",
            "1e-6",
            "--beta",
            "1e-9",
        ).stdout
    )


@pytest.mark.parametrize(
    "args,needle",
    [
        (("schedule", "bcast", "--algo", "teleport", "--topo", "mesh:4x4"), "choose one of"),
        (
            ("schedule", "bcast", "--algo", "binomial", "--topo", "mesh:4x4", "--root", "16"),
            "root 16",
        ),
        (
            ("schedule", "allgather", "--algo", "ring", "--topo", "mesh:4x4", "--set", "k=2"),
            "takes no parameters",
        ),
        (("schedule", "frobnicate", "--algo", "ring", "--topo", "mesh:4x4"), "unknown collective"),
        (("tune", "bcast", "--topo", "mesh:4x4", "--alpha", "-1", "--beta", "1e-9"), "alpha"),
        (("schedule", "bcast", "--algo", "ring", "--topo", "mesh:4x4"), "choose one of"),
    ],
)
def test_bad_input_is_one_line(args, needle):
    p = run_cli(*args, check=False)
    assert p.returncode != 0
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], p.stderr


@settings(max_examples=30, deadline=None)
@given(
    p=st.integers(1, 40),
    root=st.integers(0, 39),
    seed=st.integers(0, 1000),
    pick=st.integers(0, 10_000),
)
def test_every_classic_schedule_verifies(p, root, seed, pick):
    t = topology("mesh:8x5")
    rows = [
        (kind, a["name"])
        for a in _core.algorithms()
        if a["family"] == "classic"
        for kind in a["collectives"]
    ]
    kind, name = rows[pick % len(rows)]
    import random

    placement = random.Random(seed).sample(range(40), p)
    s = _core.build_schedule(kind, name, t, p=p, root=root % p, placement=placement)
    assert s.verify()["ok"]


def test_multicast_schedule_reports_worms_and_phases():
    d = cli_json(
        "schedule",
        "multicast",
        "--algo",
        "worm-path",
        "--topo",
        "irregular:switches=16,ports=8,nodes=64",
        "--dests",
        "random:12,seed=1",
    )
    assert d["verified"] is True
    assert 1 <= d["phases"] <= d["worms"] <= 12
    assert d["header_bits"] > 0
