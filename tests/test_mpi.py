"""Real MPI runs (mpiexec from the mpich wheel, 2-5 ranks, oversubscribed) and the pure
Python parts of the executor (plan parsing, block layout, XOR decoding)."""

import json
import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import run_cli
from netcoll import _core
from netcoll.mpi import examples as E
from netcoll.mpi import gf2
from netcoll.mpi.launch import mpiexec
from netcoll.mpi.plan import Layout, ScheduleError, parse

PROGS = Path(__file__).parent / "mpi_progs"


def mpirun(np_: int, prog: str, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        [mpiexec(), "-n", str(np_), sys.executable, str(PROGS / prog), *args],
        capture_output=True, text=True, timeout=timeout,
    )  # fmt: skip


@pytest.fixture
def job_tag(monkeypatch) -> str:
    """A tag in the environment of the jobs this test starts (mpiexec passes it on to every
    rank), so `workers` counts this test's ranks only, not other MPI jobs on the machine."""
    tag = f"{os.getpid()}-{uuid.uuid4().hex}"
    monkeypatch.setenv("NETCOLL_TEST_JOB", tag)
    return tag


def workers(tag: str) -> int:
    """Live ranks (`python -m netcoll.mpi.worker`) whose environment carries `tag`
    (orphans included: a rank reparented to init keeps its environment)."""
    needle = f"NETCOLL_TEST_JOB={tag}".encode()
    count = 0
    for proc in Path("/proc").iterdir():
        try:
            args = (proc / "cmdline").read_bytes()
            env = (proc / "environ").read_bytes()
        except OSError:  # not a process, gone meanwhile, or another user's
            continue
        rank = args.split(b"\0")[1:3] == [b"-m", b"netcoll.mpi.worker"]  # not mpiexec
        count += rank and needle in env.split(b"\0")
    return count


# ------------------------------------------------------------------ without MPI


@pytest.mark.parametrize("name", sorted(E.EXAMPLES))
@pytest.mark.parametrize("p", [2, 3, 4, 5, 8])
def test_example_schedules_pass_the_rust_verifier(name, p):
    if not E.supports(name, p):
        with pytest.raises(ValueError, match="power-of-two"):
            E.build(name, p)
        return
    report = _core.Schedule.from_json(E.build(name, p)).verify()
    assert report["ok"], report["diagnosis"]


def test_chain_broadcast_really_has_packets():
    plan = parse(E.build("chain-bcast", 4, packets=3))
    assert [m.packets for m in plan.messages] == [3, 3, 3]
    assert [op.packets for op in plan.ranks[1] if op.kind == "send"] == [(0, 1), (1, 2), (2, 3)]


def test_linear_bcast_round_trips_through_the_parser():
    topo = __import__("netcoll").topology("mesh:5")
    s = _core.build_schedule("bcast", "linear", topo, p=4, root=2, nbytes=100, packets=2)
    plan = parse(s.to_json())
    assert (plan.kind, plan.p, plan.root, plan.blocks) == ("broadcast", 4, 2, 1)
    assert all(m.src == 2 and m.packets == 2 for m in plan.messages)


def test_parse_refuses_other_formats():
    with pytest.raises(ScheduleError, match="not a netcoll schedule"):
        parse('{"format": "x"}')
    doc = json.loads(E.build("ring-allgather", 3))
    doc["version"] = 2
    with pytest.raises(ScheduleError, match="version 2"):
        parse(doc)


@settings(max_examples=200, deadline=None)
@given(
    kind=st.sampled_from(["broadcast", "scatter", "allgather", "allreduce", "reduce_scatter"]),
    p=st.integers(1, 6),
    per=st.integers(1, 5),
    n=st.integers(1, 50),
)
def test_blocks_tile_the_global_vector(kind, p, per, n):
    blocks = per * p if kind in ("scatter", "reduce_scatter") else per
    doc = {"format": "netcoll-schedule", "version": 1,
           "collective": {"kind": kind, "p": p, "blocks": blocks},
           "placement": list(range(p)), "bytes_per_block": 1, "packet_bytes": 0,
           "messages": [], "ranks": []}  # fmt: skip
    if kind in ("broadcast", "scatter"):
        doc["collective"]["root"] = 0
    plan = parse(doc)
    lay = Layout(plan, n)
    owners = range(p) if kind == "allgather" else [0]
    ranges = sorted(lay.block_range(o, i) for o in owners for i in range(blocks))
    assert ranges[0][0] == 0 and ranges[-1][1] == lay.global_len
    assert all(a[1] == b[0] for a, b in zip(ranges, ranges[1:]))
    assert (
        max(b - a for a, b in ranges) - min(b - a for a, b in ranges)
        <= 1 + (kind in ("scatter", "reduce_scatter")) * n
    )  # chunked kinds cut each rank's chunk, not the whole vector


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 255), min_size=1, max_size=8), st.integers(1, 255))
def test_gf2_solve_finds_combinations_that_xor_to_the_target(keys, target):
    known = {k: None for k in keys}
    combo = gf2.solve(target, known)
    if combo is not None:
        acc = 0
        for k in combo:
            acc ^= k
        assert acc == target
    else:  # brute force: no subset XORs to the target
        uniq = list(known)
        for mask in range(1 << len(uniq)):
            acc = 0
            for i, k in enumerate(uniq):
                if mask >> i & 1:
                    acc ^= k
            assert acc != target


def test_xor_values_pads_and_cuts():
    a = np.array([1, 2, 3], dtype=np.uint8)
    b = np.array([4, 5], dtype=np.uint8)
    assert list(gf2.xor_values([a, b], 3)) == [5, 7, 3]
    assert list(gf2.xor_values([a, b], 2)) == [5, 7]


# ------------------------------------------------------------------ real runs


@pytest.mark.parametrize(
    "np_,executor", [(2, "native"), (3, "native"), (4, "native"), (3, "python")]
)
def test_every_collective_runs_and_matches_native(np_, executor):
    proc = mpirun(np_, "collectives.py", executor)
    assert proc.returncode == 0, proc.stderr[-2000:]
    done = set(proc.stdout.split("ok ")[1:])
    names = {line.strip() for line in done}
    assert {n for n in E.EXAMPLES if E.supports(n, np_)} <= names
    assert "linear broadcast" in names


def test_bad_arguments_raise_the_same_error_on_every_rank():
    proc = mpirun(3, "bad_args.py")
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = [ln for ln in proc.stdout.splitlines() if ln.strip()]
    by_case: dict[str, set[str]] = {}
    for ln in lines:
        name, rest = ln.split(" rank ", 1)
        by_case.setdefault(name, set()).add(rest.split(": ", 1)[1])
    assert len(by_case) == 8
    for name, msgs in by_case.items():
        assert len(msgs) == 1, (name, msgs)  # every rank the same message
        assert "no error" not in msgs
    assert "rank 1 passes 5 x float64" in by_case["sizes"].pop()
    assert "needs an integer or bool dtype" in by_case["dtype"].pop()
    assert "unknown reduction op 'avg'" in by_case["op"].pop()
    assert "recvbuf has 3 elements, allgather needs 12" in by_case["recvbuf"].pop()
    assert "no broadcast algorithm named 'no-such-algo'" in by_case["algo"].pop()


def test_cli_run_contract_with_native_comparison():
    proc = run_cli("run", "bcast", "--algo", "linear", "--np", "3", "--bytes", "8,1K,5000",
                   "--compare-native", "--iters", "3", "--warmup", "1", "--json")  # fmt: skip
    doc = json.loads(proc.stdout)
    assert doc["verified"] is True
    assert [r["bytes"] for r in doc["results"]] == [8, 1024, 5000]
    for r in doc["results"]:
        assert r["time"] > 0 and r["native_time"] > 0 and r["verified"] is True


@pytest.mark.parametrize("op,native", [("bcast", "MPI_Bcast"), ("m2a", "MPI_Allgatherv"),
                                       ("reduce-scatter", "MPI_Reduce_scatter_block")])  # fmt: skip
def test_cli_run_prints_its_table_for_every_spelling(op, native, monkeypatch):
    # The table (no --json) names the native collective: op is printed as spelled for print
    # (bcast), the native table is keyed by the registry (broadcast).
    more = ["--sources", "all"] if op == "m2a" else []
    monkeypatch.setenv("COLUMNS", "200")  # rich would shorten the native column's name
    proc = run_cli("run", op, "--np", "2", "--bytes", "64", "--iters", "2", "--warmup", "0",
                   "--compare-native", *more)  # fmt: skip
    assert f"{native} median us" in proc.stdout and "netcoll/native" in proc.stdout
    assert "yes (2)" in proc.stdout


@pytest.mark.parametrize(
    "op,example", [("allreduce", "ring-allreduce"), ("reduce-scatter", "ring-reduce-scatter"),
                   ("allgather", "xor-allgather"), ("bcast", "chain-bcast")]
)  # fmt: skip
def test_cli_runs_hand_written_schedules(op, example, tmp_path):
    path = tmp_path / "s.json"
    path.write_text(E.build(example, 5))
    proc = run_cli("run", op, "--schedule", str(path), "--np", "5", "--bytes", "40,4000",
                   "--iters", "2", "--warmup", "0", "--json")  # fmt: skip
    doc = json.loads(proc.stdout)
    assert doc["verified"] is True and len(doc["results"]) == 2


def test_corrupted_result_is_detected_with_rank_and_element():
    args = ["--bytes", "64", "--iters", "1", "--inject-fault", "2:70", "--json"]
    proc = run_cli("run", "allgather", "--example", "ring-allgather", "--np", "3", *args,
                   check=False)  # fmt: skip
    assert proc.returncode == 1
    doc = json.loads(proc.stdout)
    assert doc["verified"] is False
    assert "wrong result on rank 2: element 70 is" in proc.stderr
    assert "wrong result on rank 2: element 70" in doc["results"][0]["error"]


def test_timeout_stops_every_rank(job_tag):
    proc = run_cli("run", "bcast", "--algo", "linear", "--np", "3", "--bytes", "64K",
                   "--iters", "10000000", "--timeout", "4", check=False)  # fmt: skip
    assert proc.returncode == 2
    assert "exceeded --timeout 4 s" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    assert workers(job_tag) == 0


def test_a_dying_rank_ends_the_job(job_tag):
    proc = run_cli("run", "bcast", "--algo", "linear", "--np", "3", "--bytes", "64",
                   "--inject-crash", "1", "--timeout", "60", check=False)  # fmt: skip
    assert proc.returncode == 2
    assert "rank exited abruptly" in proc.stderr
    assert workers(job_tag) == 0


@pytest.mark.parametrize(
    "args,msg",
    [
        (["run", "bcasts", "--np", "2", "--bytes", "8"], "unknown collective 'bcasts'"),
        (["run", "bcast", "--np", "2", "--bytes", "8Q"], "bad size '8Q'"),
        (["run", "allreduce", "--np", "2", "--bytes", "4", "--example", "ring-allreduce"],
         "less than one element"),
        (["run", "bcast", "--np", "2", "--bytes", "8", "--dtype", "U3"], "not supported"),
        (["run", "bcast", "--np", "2", "--bytes", "8", "--algo", "nope"], "no broadcast algo"),
    ],
)  # fmt: skip
def test_cli_bad_input_is_one_line(args, msg):
    proc = run_cli(*args, check=False)
    assert proc.returncode == 2
    assert msg in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_worm_runs_as_its_unicast_equivalent(tmp_path):
    doc = json.loads(E.build("xor-allgather", 4))
    multi = [m for m in doc["messages"] if len(m["dst"]) > 1]
    for m in multi:
        m["worm"] = {"dests": m["dst"], "route": [0, 1]}
    text = json.dumps(doc)
    assert _core.Schedule.from_json(text).verify()["ok"]
    assert all(m.worm for m in parse(text).messages if len(m.dst) > 1)
    path = tmp_path / "worm.json"
    path.write_text(text)
    proc = run_cli("run", "allgather", "--schedule", str(path), "--np", "4", "--bytes", "33",
                   "--iters", "1", "--warmup", "0", "--json")  # fmt: skip
    assert json.loads(proc.stdout)["verified"] is True


def test_eight_ranks_and_one_rank():
    for np_, op, ex in (
        (8, "allreduce", "rabenseifner-allreduce"),
        (1, "allgather", "ring-allgather"),
    ):
        proc = run_cli("run", op, "--example", ex, "--np", str(np_), "--bytes", "8000",
                       "--iters", "1", "--warmup", "0", "--json")  # fmt: skip
        assert json.loads(proc.stdout)["verified"] is True


def test_topology_placement_reaches_the_schedule():
    ok = run_cli("run", "bcast", "--algo", "linear", "--np", "3", "--topo", "mesh:2x3",
                 "--placement", "5,3,1", "--bytes", "100", "--iters", "1", "--json")  # fmt: skip
    assert json.loads(ok.stdout)["verified"] is True
    bad = run_cli("run", "bcast", "--algo", "linear", "--np", "3", "--topo", "mesh:2x3",
                  "--placement", "5,3,9", "--bytes", "100", check=False)  # fmt: skip
    assert bad.returncode == 2 and "rank 2 is placed on endpoint 9" in bad.stderr


def test_tuner_writes_a_table_that_auto_reads(tmp_path):
    from netcoll.mpi import tuning

    out = tmp_path / "tuning.json"
    run_cli("run", "bcast", "--tune", "--algo", "linear", "--np", "2", "--bytes", "1K,64K",
            "--iters", "2", "--warmup", "0", "--tune-out", str(out))  # fmt: skip
    tables = tuning.load(out)
    assert tables["broadcast"]["2"][-1]["max_bytes"] is None
    assert tuning.choose("broadcast", 2, 10**9, out) in tuning.registered("broadcast")


def test_tuning_lookup_by_size_range_and_nearest_rank_count():
    tables = {"allreduce": {"4": [{"max_bytes": 1024, "algo": "a"},
                                  {"max_bytes": None, "algo": "b"}],
                            "16": [{"max_bytes": None, "algo": "c"}]}}  # fmt: skip
    from netcoll.mpi.tuning import lookup

    assert lookup(tables, "allreduce", 4, 1000) == "a"
    assert lookup(tables, "allreduce", 5, 1025) == "b"
    assert lookup(tables, "allreduce", 13, 1) == "c"
    assert lookup(tables, "bcast", 4, 1) is None


def test_a_wrong_schedule_is_refused_before_it_runs(tmp_path):
    doc = json.loads(E.build("ring-allgather", 3))
    doc["ranks"][1].pop()  # rank 1 never takes its last message: it would hang
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    proc = run_cli("run", "allgather", "--schedule", str(path), "--np", "3", "--bytes", "8",
                   "--timeout", "60", check=False)  # fmt: skip
    assert proc.returncode == 2
    assert "the schedule is wrong: rank 1 never receives message" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_receives_that_wait_for_sends_do_not_deadlock_on_large_messages(tmp_path):
    """Two ranks each send 1 MiB, then receive after their own send (a one-port schedule).
    MPI completes a large send only once its receive is posted, so an executor that posted
    receives in dependency order would deadlock here; ours posts them first."""
    doc = {
        "format": "netcoll-schedule", "version": 1,
        "collective": {"kind": "allgather", "p": 2, "blocks": 1},
        "placement": [0, 1], "bytes_per_block": 8, "packet_bytes": 0,
        "messages": [{"src": 0, "dst": [1], "payload": [{"block": [0, 0]}]},
                     {"src": 1, "dst": [0], "payload": [{"block": [1, 0]}]}],
        "ranks": [[{"op": "send", "msg": 0}, {"op": "recv", "msg": 1, "deps": [[0, 0]]}],
                  [{"op": "send", "msg": 1}, {"op": "recv", "msg": 0, "deps": [[1, 0]]}]],
    }  # fmt: skip
    path = tmp_path / "swap.json"
    path.write_text(json.dumps(doc))
    proc = run_cli("run", "allgather", "--schedule", str(path), "--np", "2", "--bytes", "1M",
                   "--iters", "2", "--warmup", "0", "--timeout", "60", "--json")  # fmt: skip
    assert json.loads(proc.stdout)["verified"] is True


def test_terminating_the_launcher_takes_the_ranks_along(job_tag):
    import signal
    import time

    cmd = [sys.executable, "-m", "netcoll", "run", "bcast", "--algo", "linear", "--np", "3",
           "--bytes", "64K", "--iters", "100000000", "--timeout", "600"]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.time() + 60
    while workers(job_tag) < 3 and time.time() < deadline:
        time.sleep(0.2)
    assert workers(job_tag) == 3  # the count sees this test's ranks, and only those
    proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=30)
    time.sleep(1)
    assert workers(job_tag) == 0


@pytest.mark.skipif(shutil.which("taskset") is None, reason="needs taskset (util-linux)")
def test_ranks_pinned_to_one_core_count_as_oversubscribed(monkeypatch):
    """Cores are the ones the ranks may run on (their affinity), not the machine's: two ranks
    pinned to one core must nap, not block (docs/mpi.md, Waiting)."""
    monkeypatch.delenv("NETCOLL_OVERSUBSCRIBED", raising=False)
    cmd = ["taskset", "-c", str(min(os.sched_getaffinity(0))), mpiexec(), "-n", "2",
           sys.executable, str(PROGS / "oversubscribed.py")]  # fmt: skip
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "oversubscribed"
    alone = mpirun(1, "oversubscribed.py")
    assert alone.stdout.strip() == "a core per rank"
