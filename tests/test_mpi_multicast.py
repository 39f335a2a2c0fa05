"""Multicast on real MPI ranks: every algorithm registered for it through `Comm.multicast`
on 4 and 8 ranks (tests/mpi_progs/multicast.py), and `netcoll run multicast` (the CLI
contract against MPI_Bcast on the root+targets sub-communicator, a schedule file, bad
--dests in one line)."""

import json

import pytest
from test_mpi import mpirun

from conftest import run_cli
from netcoll import _core

ALGOS = ("intercom-mst", "kbinomial", "postal", "multisend-flat", "worm-ssr", "worm-path",
         "worm-tree", "ni-kbinomial")  # fmt: skip
IRREGULAR = "irregular:switches=4,ports=8,nodes=8,seed=1"


def test_every_multicast_algorithm_is_registered_here():
    """A new multicast algorithm must join the real-rank test below."""
    assert {a["name"] for a in _core.algorithms() if "multicast" in a["collectives"]} == set(ALGOS)


@pytest.mark.parametrize("np_", [4, 8])
def test_every_algorithm_and_target_set_is_byte_exact(np_):
    """One target, all others, a random set; 1, 7 and 1001 elements in 1-3 packets; a
    non-target's buffer untouched; a schedule text; bad arguments raising the same error on
    every rank."""
    proc = mpirun(np_, "multicast.py")
    assert proc.returncode == 0, proc.stderr[-2000:] + proc.stdout[-2000:]
    oks = {ln[3:] for ln in proc.stdout.splitlines() if ln.startswith("ok ")}
    others = ",".join(str(r) for r in range(np_) if r != 1)
    for algo in ALGOS:
        for t in (str(np_ - 1), others, f"random:{np_ // 2},seed=2"):
            assert f"{algo} {t}" in oks
    assert "schedule" in oks
    bad: dict[str, set[str]] = {}
    for ln in proc.stdout.splitlines():
        if ln.startswith("bad "):
            name, rest = ln[4:].split(" rank ", 1)
            bad.setdefault(name, set()).add(rest.split(": ", 1)[1])
    assert len(bad) == 7
    assert all(len(m) == 1 and "no error" not in m for m in bad.values())  # same everywhere
    assert f"multicast target {np_} is out of range" in bad["not-a-rank"].pop()
    assert "multicast target 1 is the root" in bad["root-target"].pop()
    assert "pass different targets ([3] vs [2])" in bad["targets-differ"].pop()
    assert "root 1 passes 4 x float64, target 2 passes 5 x float64" in bad["sizes"].pop()
    assert "give targets=" in bad["no-targets"].pop()
    assert "at least one target" in bad["empty"].pop()
    assert f"the schedule's targets are [0, {np_ - 1}]" in bad["other-schedule"].pop()


def test_cli_contract_against_native_bcast_on_the_targets():
    proc = run_cli("run", "multicast", "-a", "worm-tree", "--dests", "random:3,seed=5",
                   "--root", "2", "--np", "8", "-t", IRREGULAR, "--bytes", "1,1001",
                   "--compare-native", "--iters", "2", "--warmup", "0", "--json")  # fmt: skip
    doc = json.loads(proc.stdout)
    assert doc["op"] == "multicast" and doc["root"] == 2 and len(doc["targets"]) == 3
    assert 2 not in doc["targets"] and doc["targets"] == sorted(doc["targets"])
    assert doc["native"] == "MPI_Bcast(root+targets)" and doc["verified"] is True
    assert [r["bytes"] for r in doc["results"]] == [1, 1001]
    assert all(r["time"] > 0 and r["native_time"] > 0 for r in doc["results"])


def test_schedule_file_runs_with_its_own_targets(tmp_path):
    path = tmp_path / "ni.json"
    run_cli("schedule", "multicast", "-a", "ni-kbinomial", "-t", IRREGULAR, "--root", "3",
            "--dests", "7,0,5", "--bytes", "100", "-o", str(path))  # fmt: skip
    common = ("run", "multicast", "--schedule", str(path), "--np", "8", "--bytes", "77",
              "--iters", "1", "--warmup", "0", "--root", "3")  # fmt: skip
    doc = json.loads(run_cli(*common, "--json").stdout)
    assert doc["verified"] is True and doc["targets"] == [0, 5, 7]
    bad = run_cli(*common, "--dests", "0,5", check=False)
    assert bad.returncode == 2 and "the schedule's targets are [0, 5, 7]" in bad.stderr


def test_a_wrong_byte_on_a_target_is_caught_by_the_check():
    proc = run_cli("run", "multicast", "-a", "kbinomial", "--dests", "1,6", "--np", "8",
                   "-t", "mesh:4x2", "--bytes", "64", "--iters", "1", "--warmup", "0",
                   "--inject-fault", "6:5", "--json", check=False)  # fmt: skip
    assert proc.returncode == 1
    err = json.loads(proc.stdout)["results"][0]["error"]
    assert "wrong result on rank 6: element 5 is" in err


@pytest.mark.parametrize(
    "args,msg",
    [
        (["--dests", "9"], "--dests 9: multicast target 9 is out of range: ranks are 0 to 7"),
        (["--dests", "2,2"], "multicast target 2 is listed twice"),
        (["--dests", "0"], "multicast target 0 is the root"),
        (["--dests", "random:8"], "choose 1 to 7 destinations"),
        (["--dests", "x"], "destination rank 'x' is not an integer"),
        ([], "multicast needs --dests"),
    ],
)
def test_bad_dests_are_one_line(args, msg):
    proc = run_cli("run", "multicast", "-a", "intercom-mst", "--np", "8", "-t", "mesh:4x2",
                   "--bytes", "8", *args, check=False)  # fmt: skip
    assert proc.returncode == 2
    assert msg in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_dests_only_for_multicast():
    proc = run_cli("run", "bcast", "--dests", "1", "--np", "2", "--bytes", "8", check=False)
    assert proc.returncode == 2 and "--dests applies to multicast only" in proc.stderr
