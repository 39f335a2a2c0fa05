"""Schedules in and out (docs/formats.md): `netcoll verify` on msccl-tools' and Schedgen's own
files, schedules written as MSCCL XML and GOAL, the LogGOPS engine against LogGOPSim's times,
and bad input. The exhaustive checks (every file, every algorithm round trip) are Rust tests
in crates/netcoll-core (schedule/formats/tests, algorithms/formats_tests.rs)."""

import json
from pathlib import Path

import pytest

from conftest import run_cli

DATA = Path(__file__).parent / "data"
KEYS = {"verified", "format", "op", "ranks", "messages"}


def verify(*args):
    proc = run_cli("verify", *args, "--json", check=False)
    return proc.returncode, (json.loads(proc.stdout) if proc.stdout.strip() else None), proc


@pytest.mark.parametrize(
    "name",
    [
        "allgather_ring_n8.xml",
        "allreduce_a100_ring_n16.xml",
        "alltoall_allpairs_n4.xml",
        "reduce_scatter_ring_n8.xml",
    ],
)
def test_msccl_tools_files_verify(name):
    code, v, _ = verify(str(DATA / "msccl" / name))
    assert code == 0 and v["verified"] and set(v) >= KEYS and v["format"] == "msccl-xml"
    assert "diagnosis" not in v


def test_schedgen_file_verifies_with_its_root_and_size():
    f = DATA / "goal" / "binomialtreereduce_p13_root7.goal"
    code, v, _ = verify(str(f), "--op", "reduce", "--root", "7", "--bytes", "1024")
    assert (code, v["verified"], v["format"], v["op"], v["ranks"]) == (
        0,
        True,
        "goal",
        "reduce",
        13,
    )
    code, v, _ = verify(str(f), "--op", "reduce", "--root", "0")
    assert code == 1 and "rank 0 (the root) completes without hearing" in v["diagnosis"]


def test_broken_msccl_file_gets_rank_and_chunk(tmp_path):
    text = (DATA / "msccl" / "allgather_ring_n4.xml").read_text()
    bad = text.replace(
        'type="rcs" srcbuf="o" srcoff="0" dstbuf="o" dstoff="0"',
        'type="rcs" srcbuf="o" srcoff="0" dstbuf="o" dstoff="3"',
        1,
    )
    f = tmp_path / "bad.xml"
    f.write_text(bad)
    code, v, _ = verify(str(f))
    assert code == 1 and not v["verified"]
    assert v["diagnosis"].startswith("rank 1 output chunk 0 must end with block (owner 0, idx 0)")


@pytest.mark.parametrize(
    "content, fragment",
    [
        (b"\x00\x01binary", "a binary file"),
        (b'<algo name="x" ngpus="2"><gpu', "malformed XML"),
        (
            b"num_ranks 2\nrank 0 {\nl1: send 8b to 7 tag 0\n}\n",
            "line 3: peer rank 7 is out of range",
        ),
        (b"hello", "not a schedule"),
    ],
)
def test_bad_files_are_one_line_exit_2(tmp_path, content, fragment):
    f = tmp_path / "f"
    f.write_bytes(content)
    code, _, proc = verify(str(f), "--op", "bcast")
    assert code == 2 and fragment in proc.stderr
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr


@pytest.mark.parametrize("fmt", ["msccl-xml", "goal", "json"])
def test_schedule_written_in_every_format_verifies(tmp_path, fmt):
    out = tmp_path / f"s.{fmt}"
    run_cli(
        "schedule",
        "allreduce",
        "--algo",
        "ring",
        "--topo",
        "mesh:4x2",
        "--format",
        fmt,
        "-o",
        str(out),
    )
    code, v, _ = verify(str(out), "--op", "allreduce")
    assert (code, v["format"], v["ranks"], v["op"]) == (0, fmt, 8, "allreduce")


def test_loggops_engine_gives_loggopsim_times():
    want = json.loads((DATA / "goal" / "loggopsim_times.json").read_text())["loggopsim"]
    for name in ["binomialtreebcast_p16_root5.goal", "linear_alltoall_p8_rendezvous.goal"]:
        proc = run_cli(
            "simulate",
            "bcast",
            "--schedule",
            str(DATA / "goal" / name),
            "--engine",
            "loggops",
            "--json",
        )
        r = json.loads(proc.stdout)
        assert r["rank_times"] == want[name]["default"] and r["time"] == max(r["rank_times"])
        alt = [
            "--sim",
            "L=1000",
            "--sim",
            "o=200",
            "--sim",
            "g=300",
            "--sim",
            "G=2",
            "--sim",
            "O=1",
            "--sim",
            "S=4096",
        ]
        proc = run_cli(
            "simulate",
            "bcast",
            "--schedule",
            str(DATA / "goal" / name),
            "--engine",
            "loggops",
            *alt,
            "--json",
        )
        assert json.loads(proc.stdout)["rank_times"] == want[name]["alt"]


def test_msccl_file_runs_on_the_step_and_flit_engines():
    f = str(DATA / "msccl" / "allgather_ring_n8.xml")
    step = json.loads(
        run_cli(
            "simulate",
            "allgather",
            "--schedule",
            f,
            "--engine",
            "step",
            "--topo",
            "mesh:4x2",
            "--json",
        ).stdout
    )
    assert step["messages"] == 56
    flit = json.loads(
        run_cli(
            "simulate",
            "allgather",
            "--schedule",
            f,
            "--engine",
            "flit",
            "--topo",
            "mesh:4x2",
            "--json",
        ).stdout
    )
    assert flit["verified"] and flit["cycles"] > 0
