"""The many-to-all multicast (seed 000 s6.3) on real MPI ranks: the block layout (pure
Python), every algorithm through `Comm.manytoall` on 4 and 8 ranks, and `netcoll run
manytoall` (the CLI contract, schedule files, a wrong XOR caught, bad --sources)."""

import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_mpi import PROGS, mpirun

from conftest import run_cli
from netcoll.mpi.launch import mpiexec
from netcoll.mpi.plan import Layout, ScheduleError, parse


def m2a_doc(p: int, sources: list[int], blocks: int = 1) -> dict:
    return {"format": "netcoll-schedule", "version": 1,
            "collective": {"kind": "many_to_all", "p": p, "blocks": blocks,
                           "sources": sources},
            "placement": list(range(p)), "bytes_per_block": 1, "packet_bytes": 0,
            "messages": [], "ranks": []}  # fmt: skip


# ------------------------------------------------------------------ without MPI


@settings(max_examples=200, deadline=None)
@given(data=st.data(), p=st.integers(1, 9), blocks=st.integers(1, 4), n=st.integers(1, 40))
def test_sources_blocks_tile_the_output_in_source_list_order(data, p, blocks, n):
    count = data.draw(st.integers(1, p))
    sources = data.draw(st.permutations(range(p)))[:count]  # any subset, in any order
    plan = parse(m2a_doc(p, sources, blocks))
    lay = Layout(plan, n)
    assert lay.global_len == len(sources) * n
    for slot, s in enumerate(sources):
        ranges = [lay.block_range(s, k) for k in range(blocks)]
        assert ranges[0][0] == slot * n and ranges[-1][1] == (slot + 1) * n
        assert all(a[1] == b[0] for a, b in zip(ranges, ranges[1:]))
        assert lay.input_offset(s) == slot * n
        bits = [k.bit_length() - 1 for k in lay.initial_keys(s)]
        assert [plan.block_of(b) for b in bits] == [(s, k) for k in range(blocks)]
    for r in set(range(p)) - set(sources):
        assert lay.input_offset(r) is None and lay.initial_keys(r) == []
        with pytest.raises(ScheduleError, match="is not a source"):
            plan.block_bit(r, 0)
    for r in range(p):
        assert lay.output_window(r) == (0, len(sources) * n)
        assert len(lay.required_keys(r)) == len(sources) * blocks


@pytest.mark.parametrize(
    "sources,msg",
    [([], "needs its collective's \"sources\""), ([0, 4], "source 4 is out of range"),
     ([1, 1], "source 1 is listed twice")],
)  # fmt: skip
def test_parse_refuses_bad_sources(sources, msg):
    with pytest.raises(ScheduleError, match=msg):
        parse(m2a_doc(4, sources))


# ------------------------------------------------------------------ real runs


@pytest.mark.parametrize("np_", [4, 8])
def test_every_algorithm_and_source_set_is_byte_exact(np_):
    """hnc (XOR encode and decode), tree-multicast, all-at-once; one source, all, an unsorted
    list, a random set; 1, 7, 333 and 1001 elements in 1-3 packets; a schedule text; bad
    arguments raising the same error on every rank (tests/mpi_progs/manytoall.py)."""
    proc = mpirun(np_, "manytoall.py")
    assert proc.returncode == 0, proc.stderr[-2000:] + proc.stdout[-2000:]
    oks = {ln[3:] for ln in proc.stdout.splitlines() if ln.startswith("ok ")}
    for algo in ("hnc", "tree-multicast", "all-at-once"):
        for s in ("3", "all", f"{np_ - 1},1,2", "random:3,seed=2"):
            assert f"{algo} {s}" in oks
    assert "schedule" in oks
    bad: dict[str, set[str]] = {}
    for ln in proc.stdout.splitlines():
        if ln.startswith("bad "):
            name, rest = ln[4:].split(" rank ", 1)
            bad.setdefault(name, set()).add(rest.split(": ", 1)[1])
    assert len(bad) == 7
    assert all(len(m) == 1 and "no error" not in m for m in bad.values())  # same everywhere
    assert "rank 1 is not a source: pass sendbuf=None" in bad["nonsource-sendbuf"].pop()
    assert "disagree on the call" in bad["sources-differ"].pop()
    assert f"source {np_} is out of range" in bad["bad-sources"].pop()
    assert "rank 1 passes 5 x float64 per source" in bad["sizes"].pop()
    assert "give sources=" in bad["no-sources"].pop()
    assert f"recvbuf has 5 elements, manytoall needs {4 * np_}" in bad["recvbuf"].pop()
    assert "the schedule's sources are [0, 2]" in bad["other-schedule"].pop()


def test_cli_contract_against_native_allgatherv():
    proc = run_cli("run", "manytoall", "-a", "hnc", "--sources", "5,1,6", "--np", "8",
                   "-t", "mesh:4x2", "--bytes", "1,1001", "--compare-native", "--iters", "2",
                   "--warmup", "0", "--json")  # fmt: skip
    doc = json.loads(proc.stdout)
    assert doc["op"] == "manytoall" and doc["sources"] == [5, 1, 6]
    assert doc["native"] == "MPI_Allgatherv" and doc["verified"] is True
    assert [r["bytes"] for r in doc["results"]] == [1, 1001]
    assert all(r["time"] > 0 and r["native_time"] > 0 for r in doc["results"])
    assert all(r["time_s"] == r["time"] for r in doc["results"])


@pytest.fixture(scope="module")
def hnc_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("m2a") / "hnc.json"
    run_cli("schedule", "manytoall", "-a", "hnc", "-t", "mesh:4x2", "--sources", "5,1,6",
            "--bytes", "100", "-o", str(path))  # fmt: skip
    return path


def run_file(path, *extra, check=True):
    return run_cli("run", "manytoall", "--schedule", str(path), "--np", "8", "--bytes", "77",
                   "--iters", "1", "--warmup", "0", "--timeout", "120", *extra,
                   check=check)  # fmt: skip


def test_schedule_file_runs_with_its_own_sources(hnc_file):
    doc = json.loads(run_file(hnc_file, "--json").stdout)
    assert doc["verified"] is True and doc["sources"] == [5, 1, 6]
    bad = run_file(hnc_file, "--sources", "1,5,6", check=False)
    assert bad.returncode == 2 and "the schedule's sources are [5, 1, 6]" in bad.stderr


def test_a_wrong_xor_in_the_file_is_refused_before_it_runs(hnc_file, tmp_path):
    doc = json.loads(hnc_file.read_text())
    coded = [m for m in doc["messages"] if any("xor" in x for x in m["payload"])]
    coded[0]["payload"] = [{"xor": [[5, 0], [6, 0]]}]  # should be 5 ^ 1
    path = tmp_path / "wrong.json"
    path.write_text(json.dumps(doc))
    proc = run_file(path, check=False)
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1
    assert f"rank {coded[0]['src']} op" in proc.stderr
    assert "sends xor (5,0)^(6,0) before it holds it" in proc.stderr


def test_a_wrong_decode_run_unverified_stops_naming_the_rank(hnc_file, tmp_path):
    """Past the verifier (Program run directly), a decode that claims a block its inputs do
    not give stops the job with one line naming the rank and the block."""
    doc = json.loads(hnc_file.read_text())
    r, i = next((r, i) for r, ops in enumerate(doc["ranks"]) for i, o in enumerate(ops)
                if o["op"] == "decode" and o["output"] == [{"block": [5, 0]}])  # fmt: skip
    doc["ranks"][r][i]["output"] = [{"block": [6, 0]}]
    path = tmp_path / "wrong-decode.json"
    path.write_text(json.dumps(doc))
    proc = subprocess.run([mpiexec(), "-n", "8", sys.executable, str(PROGS / "unverified.py"),
                           str(path)], capture_output=True, text=True, timeout=120)  # fmt: skip
    assert proc.returncode != 0
    assert (f"rank {r}: ExecutionError: rank {r}: decode output block (owner 6, idx 0) does "
            "not follow from its inputs") in proc.stdout  # fmt: skip


def test_a_wrong_xor_in_flight_is_caught_by_the_check_with_rank_and_element(hnc_file):
    """Rank 0 encodes 5 ^ 1 with one byte flipped: every rank that decodes from it ends with
    a wrong block, and the check names the first such rank and element."""
    proc = run_file(hnc_file, "--inject-xor-fault", "0", "--json", check=False)
    assert proc.returncode == 1
    err = json.loads(proc.stdout)["results"][0]["error"]
    # Block 5 sits first in the output (sources 5,1,6); ranks 2, 3 decode it, 6, 7 block 1.
    assert "wrong result on rank 2: element 0 is" in err
    assert "wrong on ranks 2, 3, 6, 7" in err and err in proc.stderr


@pytest.mark.parametrize(
    "args,msg",
    [
        (["--sources", "9"], "source 9 is out of range"),
        (["--sources", "1,1"], "source 1 is listed twice"),
        (["--sources", "random:0"], "choose a COUNT from 1 to 8"),
        (["--sources", "x"], "is not a rank list"),
        ([], "manytoall needs --sources"),
    ],
)
def test_bad_sources_are_one_line(args, msg):
    proc = run_cli("run", "manytoall", "-a", "hnc", "--np", "8", "-t", "mesh:4x2", "--bytes",
                   "8", *args, check=False)  # fmt: skip
    assert proc.returncode == 2
    assert msg in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_sources_only_for_manytoall():
    proc = run_cli("run", "bcast", "--sources", "1", "--np", "2", "--bytes", "8", check=False)
    assert proc.returncode == 2 and "--sources applies to manytoall only" in proc.stderr
