"""The personalized all-to-all over MPI (issue 30, "a gap between commands"): the block layout
of MPI_Alltoall (pure Python), then real runs with mpiexec from the mpich wheel: msccl-tools'
alltoall programs and netcoll's hand-written ones, checked bit for bit against MPI_Alltoall
and timed beside it; the all-to-all broadcast beside MPI_Allgather."""

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import run_cli
from netcoll import _core
from netcoll.mpi import examples as E
from netcoll.mpi.plan import Layout, parse
from netcoll.vocabulary import CANONICAL, MPI_RUN

MSCCL = Path(__file__).parent / "data" / "msccl"


def _alltoall_plan(p: int, per: int):
    doc = {"format": "netcoll-schedule", "version": 1,
           "collective": {"kind": "alltoall", "p": p, "blocks": per * p},
           "placement": list(range(p)), "bytes_per_block": 1, "packet_bytes": 0,
           "messages": [], "ranks": []}  # fmt: skip
    return parse(doc)


@settings(max_examples=150, deadline=None)
@given(p=st.integers(1, 6), per=st.integers(1, 4), n=st.integers(1, 40))
def test_alltoall_blocks_sit_where_mpi_alltoall_puts_them(p, per, n):
    # Rank o's send buffer: p chunks of n, chunk j for rank j. Rank j's receive buffer: p
    # chunks of n, chunk o from rank o. Each chunk is cut into its `per` blocks near-equally.
    plan = _alltoall_plan(p, per)
    lay = Layout(plan, n)
    for o in range(p):
        off = lay.input_offset(o)
        sent = sorted(
            (a - off, b - off) for a, b in (lay.key_range(k) for k in lay.initial_keys(o))
        )
        assert sent[0][0] == 0 and sent[-1][1] == p * n  # the whole send buffer, once
        assert all(x[1] == y[0] for x, y in zip(sent, sent[1:]))
    for j in range(p):
        required = lay.required_keys(j)
        homes = [lay.home_range(j, k) for k in required]
        assert homes[0][0] == 0 and homes[-1][1] == p * n  # in receive-buffer order
        assert all(x[1] == y[0] for x, y in zip(homes, homes[1:]))
        for key, (ha, hb) in zip(required, homes):
            owner, idx = plan.block_of(key.bit_length() - 1)
            assert idx // per == j  # chunk j of every owner, nothing else
            a, b = lay.key_range(key)
            src = a - lay.input_offset(owner)
            # the same share of the chunk: j's chunk in the sender, owner's in the receiver
            assert (src - j * n, b - a) == (ha - owner * n, hb - ha)


def test_every_collective_the_verifier_proves_runs_over_mpi_but_the_barrier():
    # The barrier moves no data (tokens only): run names it (see docs/mpi.md).
    assert set(CANONICAL.values()) - set(MPI_RUN) == {"barrier"}
    proc = run_cli("run", "barrier", "--np", "2", "--bytes", "8", check=False)
    assert proc.returncode == 2 and "barrier" in proc.stderr and "netcoll verify" in proc.stderr


@pytest.mark.parametrize("name", ["alltoall_a100_two_step_2x4", "alltoall_a100_three_step_2x4"])
def test_msccl_alltoall_runs_beside_mpi_alltoall(name):
    xml = MSCCL / f"{name}.xml"
    proc = run_cli("run", "alltoall", "--schedule", str(xml), "--np", "8", "--bytes",
                   "1,24,4K", "--iters", "2", "--warmup", "0", "--compare-native",
                   "--json")  # fmt: skip
    doc = json.loads(proc.stdout)
    assert doc["op"] == "alltoall" and doc["native"] == "MPI_Alltoall"
    assert doc["verified"] is True and [r["bytes"] for r in doc["results"]] == [1, 24, 4096]
    for r in doc["results"]:
        assert r["checked"] == 2 and r["native_time"] > 0 and r["executor"] == "native"


@pytest.mark.parametrize("executor", ["python", "native"])
def test_allpairs_alltoall_under_both_executors_with_int32(executor):
    proc = run_cli("run", "all-to-all", "--schedule", str(MSCCL / "alltoall_allpairs_n4.xml"),
                   "--np", "4", "--bytes", "4,28,4000", "--dtype", "int32", "--iters", "2",
                   "--warmup", "0", "--check", "all", "--executor", executor,
                   "--json")  # fmt: skip
    doc = json.loads(proc.stdout)
    assert doc["verified"] is True
    assert all(r["executor"].startswith(executor) for r in doc["results"])


@pytest.mark.parametrize("example", ["pairwise-alltoall", "bruck-alltoall"])
def test_hand_written_alltoalls_verify_and_run(example):
    for p in (1, 2, 3, 5, 8):
        assert _core.Schedule.from_json(E.build(example, p)).verify()["ok"], (example, p)
    proc = run_cli("run", "alltoall", "--example", example, "--np", "5", "--bytes", "3,700",
                   "--iters", "2", "--warmup", "0", "--json")  # fmt: skip
    assert json.loads(proc.stdout)["verified"] is True


def test_a_wrong_alltoall_result_is_caught_with_rank_and_element():
    proc = run_cli("run", "alltoall", "--example", "bruck-alltoall", "--np", "4", "--bytes",
                   "16", "--iters", "1", "--warmup", "0", "--inject-fault", "3:9",
                   check=False)  # fmt: skip
    assert proc.returncode == 1
    assert "alltoall of 16 bytes on 4 ranks: wrong result on rank 3: element 9" in proc.stderr


def test_alltoall_without_a_schedule_names_the_ways_to_give_one():
    proc = run_cli("run", "alltoall", "--np", "2", "--bytes", "8", check=False)
    assert proc.returncode == 2
    assert "no alltoall algorithm is registered" in proc.stderr
    assert "--example pairwise-alltoall" in proc.stderr


def test_a_schedule_of_another_collective_is_refused():
    xml = MSCCL / "allgather_ring_n8.xml"
    proc = run_cli("run", "alltoall", "--schedule", str(xml), "--np", "8", "--bytes", "8",
                   check=False)  # fmt: skip
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1


def test_alltoall_broadcast_runs_beside_mpi_allgather():
    proc = run_cli("run", "alltoall-broadcast", "-a", "ring", "--np", "3", "--bytes", "5,800",
                   "--iters", "2", "--warmup", "0", "--compare-native", "--json")  # fmt: skip
    doc = json.loads(proc.stdout)
    assert doc["verified"] is True and doc["native"] == "MPI_Allgather"
