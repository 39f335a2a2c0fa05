"""The data check cannot be fooled: references from copies of the inputs taken before the
run, inputs verified unchanged, outputs pre-filled with the reference's complement, the first
and last timed iteration checked (every one with --check all), and both fault injections
caught by both executors."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import run_cli
from netcoll.mpi.launch import mpiexec

PROGS = Path(__file__).parent / "mpi_progs"
EXECUTORS = ["python", "native"]


def test_stand_in_executors_done_wrong_are_caught():
    proc = subprocess.run([mpiexec(), "-n", "2", sys.executable, str(PROGS / "checker.py")],
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
    got = dict(line.split(" ", 1) for line in proc.stdout.splitlines())
    assert got["allgather-right"] == "passed"
    assert got["allreduce-right"] == "passed"
    assert got["allgather-lazy"].startswith("caught: allgather: wrong result on rank 0")
    assert got["allreduce-lazy"].startswith("caught: allreduce: wrong result on rank 0")
    assert "the run changed rank 1's input buffer: element 3" in got["allgather-writes-input"]
    # The root corrupted its buffer before sending: its input check names it, and the
    # receivers' outputs, which agree with the root, disagree with the reference.
    msg = got["bcast-root-corrupts"]
    assert "changed rank 0's input buffer: element 0" in msg and "wrong on ranks 0, 1" in msg


def run(*args, check=True):
    return run_cli("run", *args, "--json", check=check)


@pytest.mark.parametrize("executor", EXECUTORS)
def test_output_fault_is_caught(executor):
    proc = run("allgather", "--example", "ring-allgather", "--np", "3", "--bytes", "64",
               "--iters", "3", "--inject-fault", "2:70", "--executor", executor,
               check=False)  # fmt: skip
    assert proc.returncode == 1
    doc = json.loads(proc.stdout)
    assert doc["verified"] is False and doc["results"][0]["checked"] == 2
    assert "wrong result on rank 2: element 70 is" in proc.stderr


@pytest.mark.parametrize("executor", EXECUTORS)
@pytest.mark.parametrize(
    "op,algo,rank",
    [("bcast", "linear", "0"), ("allgather", "ring-allgather", "1"),
     ("allreduce", "ring-allreduce", "1")],
)  # fmt: skip
def test_input_fault_is_caught(executor, op, algo, rank):
    how = ["--algo", algo] if algo == "linear" else ["--example", algo]
    proc = run(op, *how, "--np", "2", "--bytes", "64", "--iters", "2",
               "--inject-input-fault", rank, "--executor", executor, check=False)  # fmt: skip
    assert proc.returncode == 1, proc.stderr
    assert f"the run changed rank {rank}'s input buffer: element 0" in proc.stderr
    assert json.loads(proc.stdout)["verified"] is False


def test_input_fault_on_a_rank_without_input_is_refused():
    proc = run("bcast", "--algo", "linear", "--np", "2", "--bytes", "64",
               "--inject-input-fault", "1", check=False)  # fmt: skip
    assert proc.returncode == 2
    assert "rank 1 has no input buffer in this broadcast" in proc.stderr


@pytest.mark.parametrize("mode,checked", [("first", 2), ("all", 5)])
def test_first_and_last_or_every_iteration_is_checked(mode, checked):
    doc = json.loads(run("allreduce", "--example", "ring-allreduce", "--np", "2", "--bytes",
                         "8,4K", "--iters", "5", "--warmup", "1", "--check", mode,
                         "--compare-native").stdout)  # fmt: skip
    for r in doc["results"]:
        assert r["verified"] is True and r["checked"] == checked
        for key in ("median_us", "native_median_us", "ratio", "min_us", "max_us", "mean_us"):
            assert r[key] > 0
        assert r["min_us"] <= r["median_us"] <= r["max_us"]
        assert r["ratio"] == pytest.approx(r["median_us"] / r["native_median_us"])
