"""Schedules at scale (issue 14): the per-step and closed-form analysis paths give the
schedule's figures, say which path they took, and `bench scale` reports honest rows. Large
sizes live in the benchmark (`netcoll bench scale`, docs/scale.md), not here."""

import json
import subprocess
import sys
from pathlib import Path

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


@pytest.mark.parametrize(
    "op,algo,params",
    [
        ("bcast", "intercom-long", []),
        ("allreduce", "intercom-long", []),
        ("reduce-scatter", "intercom-bucket", []),
        ("allgather", "intercom-short", []),
        ("allreduce", "intercom-hybrid", ["--set", "dims=3x5", "--set", "strategy=SMC"]),
        ("reduce", "intercom-hybrid", ["--set", "dims=mesh"]),
    ],
)
def test_intercom_per_step_equals_the_schedule(op, algo, params):
    args = ["analyze", op, "--algo", algo, "--topo", "mesh:3x5", "--bytes", "999", *params]
    step = cli_json(*args, "--method", "per-step")
    built = cli_json(*args, "--method", "schedule")
    assert {k: step[k] for k in FIGURES} == {k: built[k] for k in FIGURES}
    assert step["times"]["hockney_rounds"] == pytest.approx(built["times"]["hockney_rounds"])


def test_tune_extends_a_pipelined_postal_tree_to_the_built_figures():
    """The tuner's postal candidate at 150 packets (extended from 32, 48 and 64) equals the
    built schedule's figures (the Rust tests check every model)."""
    size = str(1536 * 150)
    tuned = cli_json("tune", "bcast", "--topo", "mesh:30", "--bytes", size)
    postal = next(c for c in tuned["candidates"] if c["algo"] == "postal")
    built = cli_json(
        "analyze", "bcast", "--algo", "postal", "--topo", "mesh:30", "--bytes", size,
        "--method", "schedule",
    )  # fmt: skip
    for key in ("messages", "steps", "aggregate_hops", "max_conflict"):
        assert postal[key] == built[key], key
    assert postal["bytes_moved"] == built["bytes"]
    assert postal["time_s"] == pytest.approx(built["times"]["hockney_rounds"], rel=1e-9)


def test_bench_scale_analyze_rows_say_their_method(tmp_path):
    saved = tmp_path / "rows.json"
    rows = cli_json(
        "bench", "scale", "--command", "analyze", "--ranks", "16",
        "--algo", "allgather/all-at-once", "--algo", "broadcast/binomial", "--save", str(saved),
    )  # fmt: skip
    assert {r["method"] for r in rows} == {"closed-form", "schedule"}
    assert all(r["ok"] and r["command"] == "analyze" for r in rows)
    assert json.loads(saved.read_text()) == rows


def test_plot_scale_draws_failed_rows(tmp_path):
    rows = [
        {"op": "allreduce", "algo": "ring", "ranks": n, "seconds": n / 64, "peak_bytes": n * 2**16,
         "verified": True}
        for n in (64, 256, 1024)
    ] + [
        {"op": "allreduce", "algo": "ring", "ranks": 4096, "seconds": 60.0, "peak_bytes": 2**32,
         "verified": False, "ok": False, "error": "over the time limit of 60 s"}
    ]  # fmt: skip
    src, out = tmp_path / "rows.json", tmp_path / "scale.png"
    src.write_text(json.dumps(rows))
    root = Path(__file__).resolve().parent.parent
    subprocess.run(
        [sys.executable, str(root / "scripts" / "plot_scale.py"), str(src), str(out)], check=True
    )
    assert out.stat().st_size > 10_000


@pytest.mark.parametrize(
    "op,algo",
    [
        ("allreduce", "ring"),
        ("reduce_scatter", "recursive-halving"),
        ("bcast", "scatter-allgather"),
        ("allreduce", "intercom-long"),
    ],
)
def test_schedule_streamed_equals_the_built_schedule(op, algo):
    args = ["schedule", op, "--algo", algo, "--topo", "mesh:3x5", "--bytes", "999"]
    streamed = cli_json(*args, "--method", "stream")
    built = cli_json(*args, "--method", "schedule")
    auto = cli_json(*args)  # small: built, as before streaming existed
    assert (streamed["method"], built["method"], auto["method"]) == (
        "stream",
        "schedule",
        "schedule",
    )
    assert streamed["verified"] is True and built["verified"] is True
    assert {k: streamed[k] for k in FIGURES} == {k: built[k] for k in FIGURES}
    assert streamed["times"]["hockney_rounds"] == pytest.approx(built["times"]["hockney_rounds"])
    assert streamed["times"]["hockney"] is None
    assert set(built) - set(streamed) == set()


def test_schedule_auto_streams_a_large_round_program():
    big = cli_json("schedule", "allgather", "--algo", "ring", "--topo", "mesh:24x24")
    assert (big["method"], big["verified"], big["messages"]) == ("stream", True, 576 * 575)


def test_schedule_stream_refusals_are_one_line(tmp_path):
    out = run_cli(
        "schedule",
        "allgather",
        "--algo",
        "hnc",
        "--topo",
        "mesh:4x4",
        "--method",
        "stream",
        check=False,
    )
    assert out.returncode == 2 and "use --method schedule" in out.stderr
    out = run_cli(
        "schedule",
        "allgather",
        "--algo",
        "ring",
        "--topo",
        "mesh:4x4",
        "--method",
        "stream",
        "-o",
        str(tmp_path / "x.json"),
        check=False,
    )
    assert out.returncode == 2 and "cannot be written" in out.stderr
