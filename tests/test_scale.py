"""Schedules at scale (issue 14): the per-step and closed-form analysis paths give the
schedule's figures, say which path they took, and `bench scale` reports honest rows. Large
sizes live in the benchmark (`netcoll bench scale`, docs/scale.md), not here."""

import pytest

from conftest import cli_json, run_cli

FIGURES = ("messages", "packets", "bytes", "aggregate_hops", "max_hops", "steps", "max_conflict")


@pytest.mark.parametrize(
    "op,algo",
    [("allreduce", "ring"), ("allreduce", "rabenseifner"), ("bcast", "scatter-allgather")],
)
def test_per_step_equals_the_schedule(op, algo):
    args = ["analyze", op, "--algo", algo, "--topo", "mesh:3x5", "--bytes", "999"]
    step = cli_json(*args, "--method", "per-step")
    built = cli_json(*args, "--method", "schedule")
    assert (step["method"], built["method"]) == ("per-step", "schedule")
    assert {k: step[k] for k in FIGURES} == {k: built[k] for k in FIGURES}
    assert step["times"]["hockney_rounds"] == pytest.approx(built["times"]["hockney_rounds"])
    assert step["times"]["hockney"] is None and built["verified"] is True


def test_auto_takes_the_cheapest_path():
    small = cli_json("analyze", "allreduce", "--algo", "ring", "--topo", "mesh:4x4")
    assert small["method"] == "schedule"  # small: every model comes with the schedule
    big = cli_json("analyze", "allgather", "--algo", "all-at-once", "--topo", "mesh:128x128")
    assert big["method"] == "closed-form"
    assert big["messages"] == 16384 * 16383
    large = cli_json("analyze", "allreduce", "--algo", "ring", "--topo", "mesh:32x32")
    assert large["method"] == "per-step" and large["steps"] == 2 * 1023


def test_a_method_the_algorithm_lacks_is_one_line():
    p = run_cli(
        "analyze",
        "bcast",
        "--algo",
        "binomial",
        "--topo",
        "mesh:4x4",
        "--method",
        "per-step",
        check=False,
    )
    assert p.returncode == 2 and "use method auto" in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1


def test_bench_scale_rows():
    rows = cli_json(
        "bench", "scale", "--ranks", "16", "--algo", "allreduce/ring", "--algo", "binomial"
    )
    assert {(r["op"], r["algo"]) for r in rows} >= {
        ("allreduce", "ring"),
        ("broadcast", "binomial"),
    }
    for r in rows:
        assert {"op", "algo", "ranks", "seconds", "peak_bytes", "verified"} <= r.keys()
        assert r["ranks"] == 16 and r["verified"] is True
        assert 1e6 < r["peak_bytes"] < 4e9 and r["seconds"] > 0


def test_bench_scale_refuses_a_size_that_is_no_square():
    p = run_cli("bench", "scale", "--ranks", "15", check=False)
    assert p.returncode == 2 and "--ranks" in p.stderr
