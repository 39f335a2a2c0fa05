"""The LogGOPS engine's CLI beyond its times (docs/formats.md, "Speed beside LogGOPSim"):
`cpu_seconds`, LogGOPSim's options taken or refused by name, the queue statistics, and
`bench loggops`. Its times against LogGOPSim's are test_formats.py and the Rust tests."""

import json
from pathlib import Path

import pytest

from conftest import run_cli

A2A = str(Path(__file__).parent / "data" / "goal" / "linear_alltoall_p8.goal")


def loggops(*args):
    proc = run_cli(
        "simulate", "alltoall", "--schedule", A2A, "--engine", "loggops", *args, "--json"
    )
    return json.loads(proc.stdout)


def test_result_keeps_its_keys_and_adds_cpu_seconds():
    r = loggops()
    assert r["time"] == 81466 and len(r["rank_times"]) == 8 and r["events"] == 8 * 7 * 3
    assert isinstance(r["cpu_seconds"], float) and r["cpu_seconds"] >= 0
    assert "qstat" not in r


def test_qstat_gives_loggopsims_queue_statistics():
    q = loggops("--sim", "qstat=1")["qstat"]
    assert q["rq_max"] == [7] * 8 and q["uq_max"] == [0] * 8
    assert q["rq_hits"] == [7] * 8 and q["uq_misses"] == [7] * 8


@pytest.mark.parametrize(
    "setting, says",
    [
        ("network-type=simple", "'simple' network"),
        ("network-file=net.dot", "annotated dot"),
        ("noise-trace=noise.txt", "noise"),
        ("save-mem=1", "--max-memory"),
        ("nnics=2", "GOAL file"),
        ("L=fast", "non-negative integers"),
    ],
)
def test_loggopsim_options_are_refused_by_name(setting, says):
    args = ["simulate", "alltoall", "--schedule", A2A, "--engine", "loggops", "--sim", setting]
    proc = run_cli(*args, check=False)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
    assert setting.split("=")[0] in proc.stderr and says in proc.stderr


def test_network_type_loggp_is_loggopsims_default():
    assert loggops("--sim", "network-type=LogGP")["rank_times"] == loggops()["rank_times"]


def test_bench_loggops_prints_a_row_per_file():
    rows = json.loads(run_cli("bench", "loggops", A2A, "--json").stdout)
    assert rows[0]["events"] == 168 and rows[0]["time"] == 81466 and rows[0]["ranks"] == 8
    proc = run_cli("bench", "loggops", A2A, "--loggopsim", A2A, check=False)
    assert proc.returncode == 2 and "txt2bin" in proc.stderr
