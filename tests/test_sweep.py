"""`netcoll sweep` and `netcoll.sweep` (issue 34): axes, seeds from the point, identical rows
whatever runs them (one process, a pool, MPI ranks), saturation, CSV and plot, bad input."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import run_cli
from netcoll._core import NetcollError
from netcoll.sweeps import _t95, parse_axes, parse_values, point_seed, split_specs

CFG = str(Path(__file__).parent / "data" / "docs" / "mesh88.cfg")
SMALL = ["--set", "k=4", "--set", "sample_period=300", "--set", "max_samples=4"]


def _sweep(*args: str) -> list[dict]:
    return json.loads(run_cli("sweep", "--booksim", CFG, *SMALL, *args, "--json").stdout)


def test_axis_values():
    assert parse_values("r", "0.05:0.2:0.05") == ["0.05", "0.10", "0.15", "0.20"]
    assert parse_values("k", "2:8:2") == ["2", "4", "6", "8"]
    assert parse_values("k", "8:2:-3") == ["8", "5", "2"]
    assert parse_values("t", "uniform,transpose") == ["uniform", "transpose"]
    assert parse_values("h", "{0,1},{2,3}") == ["{0,1}", "{2,3}"]
    assert split_specs("ibt:64x64:b=8,24,mesh:8x8") == ["ibt:64x64:b=8,24", "mesh:8x8"]


@pytest.mark.parametrize(
    ("item", "words"),
    [
        ("r=0.1:0.5:0", "non-zero"),
        ("r=0.5:0.1:0.1", "empty"),
        ("r=", "empty value"),
        ("noequals", "KEY=SPEC"),
    ],
)
def test_bad_axes(item, words):
    with pytest.raises(NetcollError, match=words):
        parse_axes([item])


def test_seed_depends_on_the_point_only():
    a = point_seed({"injection_rate": "0.1", "k": "4"}, 0)
    assert a == point_seed({"k": "4", "injection_rate": "0.1"}, 0)
    assert a != point_seed({"injection_rate": "0.1", "k": "4"}, 1)


@pytest.mark.parametrize(
    ("dof", "t"),
    [(1, 12.706), (11, 2.201), (30, 2.042), (31, 2.040), (40, 2.021), (60, 2.000), (120, 1.980)],
)
def test_confidence_interval_uses_students_t(dof, t):
    # Printed-table values of the 0.975 quantile; beyond 30 the expansion must match them too.
    assert _t95(dof) == pytest.approx(t, abs=1e-3)


def test_a_row_names_the_seed_it_ran_with():
    # Without --seeds a run uses the configuration's seed (the engine's default 0 here), and
    # the row says so rather than null, so that the row alone reproduces the run.
    rows = _sweep("--set", "injection_rate=0.1", "--set", "seed=0,5")
    assert [r["seed"] for r in rows] == [0, 5]
    assert (
        rows[0]["avg_packet_latency"]
        == _sweep("--set", "injection_rate=0.1")[0]["avg_packet_latency"]
    )


def test_rows_identical_for_one_and_two_workers():
    args = ("--set", "injection_rate=0.1:0.3:0.1", "--set", "num_vcs=2,4", "--seeds", "2")
    one = _sweep(*args, "--workers", "1")
    two = _sweep(*args, "--workers", "2")
    assert one == two
    runs = [r for r in one if r["stat"] == "run"]
    assert len(runs) == 12 and len({r["seed"] for r in runs}) == 12
    for r in runs:
        assert {"injection_rate", "num_vcs", "avg_packet_latency", "accepted_rate", "cycles",
                "seed"} <= set(r)  # fmt: skip
    means = [r for r in one if r["stat"] == "mean"]
    assert len(means) == 6 and all("avg_packet_latency_ci95" in r for r in means)


def test_saturation_and_files(tmp_path):
    out = tmp_path / "s"
    short = SMALL[2:]  # the 8x8 mesh of the file: it saturates near 0.44 flits/cycle/node
    proc = run_cli("sweep", "--booksim", CFG, *short, "--set", "injection_rate=0.2:0.8:0.3",
                   "--saturation", "--tolerance", "0.02", "-o", str(out), "--json")  # fmt: skip
    rows = json.loads(proc.stdout)
    sat = [r for r in rows if r["stat"] == "saturation"]
    assert len(sat) == 1 and 0.2 < sat[0]["saturation_rate"] < 0.8 and sat[0]["saturated"]
    # The curve agrees with the verdict: accepted rate keeps up with the offered load below it.
    below = [
        r for r in rows if r["stat"] == "run" and r["injection_rate"] < sat[0]["saturation_rate"]
    ]
    assert below and all(abs(r["accepted_rate"] - r["injection_rate"]) < 0.02 for r in below)
    with (out / "sweep.csv").open() as f:
        assert len(list(csv.DictReader(f))) == len(rows)
    assert (out / "sweep.png").read_bytes().startswith(b"\x89PNG")


def test_resume_skips_finished_points(tmp_path):
    out = tmp_path / "r"
    first = run_cli("sweep", "--booksim", CFG, *SMALL, "--set", "injection_rate=0.1,0.2",
                    "-o", str(out), "--json").stdout  # fmt: skip
    journal = (out / "sweep.jsonl").read_text().splitlines()
    (out / "sweep.jsonl").write_text(journal[0] + "\n")  # as if interrupted after one point
    again = run_cli("sweep", "--booksim", CFG, *SMALL, "--set", "injection_rate=0.1,0.2",
                    "-o", str(out), "--resume", "--json").stdout  # fmt: skip
    assert json.loads(first) == json.loads(again)
    assert len((out / "sweep.jsonl").read_text().splitlines()) == 2


def test_an_invalid_point_is_a_row_and_the_sweep_goes_on():
    rows = _sweep("--set", "num_vcs=0,2", "--set", "injection_rate=0.1")
    bad = [r for r in rows if r.get("error")]
    assert len(bad) == 1 and bad[0]["num_vcs"] == 0 and "num_vcs" in bad[0]["error"]
    assert any(r["num_vcs"] == 2 and r["avg_packet_latency"] for r in rows)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("--set", "injektion_rate=0.1"), "injection_rate"),
        (("--set", "injection_rate=0.1:0.5:0"), "non-zero"),
        (("--set", "injection_rate=0.5:0.1:0.1"), "empty"),
        ((), "nothing to sweep"),
        (("--set", "injection_rate=0.1", "--resume"), "-o DIR"),
    ],
)
def test_bad_input_is_one_line(args, words):
    proc = run_cli("sweep", "--booksim", CFG, *args, check=False)
    assert proc.returncode == 2, proc
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], proc.stderr


def test_collective_sweep_and_the_python_api():
    import netcoll

    df = netcoll.sweep(op="allreduce", algos=["ring", "rabenseifner"], topos="mesh:4x4",
                       sizes="1K,64K", engine="step", workers=1)  # fmt: skip
    assert len(df) == 4 and set(df["algo"]) == {"ring", "rabenseifner"}
    assert (df["steps"] > 0).all() and (df["verified"]).all()
    rows = json.loads(
        run_cli(
            "sweep",
            "analyze",
            "bcast",
            "-a",
            "binomial,linear",
            "-t",
            "mesh:8x8,torus:4x4",
            "--bytes",
            "1K,1M",
            "--json",
        ).stdout
    )
    assert len(rows) == 8 and all(r["time_s"] > 0 for r in rows if "time_s" in r)


def test_api_takes_a_schedule_and_lists_only_the_api():
    import netcoll

    s = netcoll.schedule("bcast", "binomial", "mesh:4x4")
    assert netcoll.simulate(s, engine="step", topo="mesh:4x4")["verified"]
    assert s.simulate(engine="flit", topo="mesh:4x4")["cycles"] > 0
    names = dir(netcoll)
    assert "importlib" not in names and "annotations" not in names
    assert {"sweep", "load_schedule", "analyze", "simulate"} <= set(names)


def test_sweep_under_mpi_futures_gives_the_same_rows():
    mpiexec = Path(sys.executable).with_name("mpiexec")
    if not mpiexec.exists():
        pytest.skip("no mpiexec beside the interpreter (the mpich wheel)")
    args = ["sweep", "--booksim", CFG, *SMALL, "--set", "injection_rate=0.1,0.2", "--seeds", "2",
            "--json"]  # fmt: skip
    proc = subprocess.run(
        [str(mpiexec), "-n", "3", sys.executable, "-m", "mpi4py.futures", "-m", "netcoll", *args],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == _sweep("--set", "injection_rate=0.1,0.2", "--seeds", "2")


def test_mpi_entry_point_for_an_external_launcher():
    mpiexec = Path(sys.executable).with_name("mpiexec")
    if not mpiexec.exists():
        pytest.skip("no mpiexec beside the interpreter (the mpich wheel)")
    proc = subprocess.run(
        [str(mpiexec), "-n", "2", sys.executable, "-m", "netcoll.mpi", "run", "bcast",
         "--algo", "binomial", "--bytes", "1K", "--json"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)  # rank 0 alone prints
    assert doc["np"] == 2 and doc["verified"] is True


def test_reproduce_all_with_two_workers_matches_one(tmp_path, monkeypatch):
    from netcoll.reproduce import registry, runner

    few = [r for r in registry.REPRODUCTIONS if r.id in ("ibt-table1-distances", "ibt-fig1")]
    monkeypatch.setattr(registry, "REPRODUCTIONS", few)
    one = runner.run_all(tmp_path / "one", True)
    two = runner.run_all(tmp_path / "two", True, workers=2)
    assert [r.id for r, _ in one] == [r.id for r, _ in two] == [r.id for r in few]
    for (_, a), (_, b) in zip(one, two):
        assert (a.status, a.rows, a.summary) == (b.status, b.rows, b.summary)


def test_workers_and_flit_threads_do_not_oversubscribe(monkeypatch):
    from netcoll import sweep_study

    monkeypatch.setattr(sweep_study, "default_workers", lambda threads: max(1, 4 // threads))
    # threads left to the engine (0: every core on a large network): several workers pin it.
    assert sweep_study.pin_threads(CFG, [], {}, 2) == (2, [("threads", "1")])
    assert sweep_study.pin_threads(CFG, [], {}, None) == (4, [("threads", "1")])
    assert sweep_study.pin_threads(CFG, [], {}, 1) == (1, [])
    # T threads a run: W defaults to cores / T, and the engine keeps the given count.
    assert sweep_study.pin_threads(CFG, [], {"threads": ["1", "2"]}, None) == (2, [])


def test_python_sweep_of_a_missing_config_is_a_netcoll_error(tmp_path):
    import netcoll

    with pytest.raises(NetcollError, match="No such file"):
        netcoll.sweep(str(tmp_path / "none.cfg"), {"injection_rate": "0.1"}, workers=1)
