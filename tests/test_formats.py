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


def refused(*args):
    """The one-line error of a command that must exit 2."""
    proc = run_cli(*args, check=False)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
    return proc.stderr


def simulate(*args):
    return json.loads(run_cli("simulate", *args, "--json").stdout)


@pytest.mark.parametrize("engine", ["analytic", "step", "flit"])
def test_goal_and_msccl_files_run_on_every_network_engine(engine):
    ring = str(DATA / "goal" / "allreduce_ring_p8.goal")
    r = simulate("allreduce", "--schedule", ring, "--engine", engine, "--topo", "mesh:4x4")
    assert r["verified"] is True and r["engine"] == engine
    if engine != "flit":
        assert r["messages"] == 112  # 8 ranks x 14 sends, 2048 bytes each
    if engine == "analytic":
        assert r["bytes"] == 112 * 2048 and r["time_s"] > 0
    xml = str(DATA / "msccl" / "allreduce_a100_ring_n8.xml")
    r = simulate("allreduce", "--schedule", xml, "--engine", engine, "--topo", "mesh:4x4")
    assert r["verified"] is True
    # A GOAL file whose information flow fails still runs, and says so.
    diss = str(DATA / "goal" / "dissemination_p8.goal")
    r = simulate("allreduce", "--schedule", diss, "--engine", engine, "--topo", "mesh:4x4")
    assert r["verified"] is False


def test_analyze_takes_a_schedule_file():
    for path in [DATA / "goal" / "scatter_p8.goal", DATA / "msccl" / "allgather_ring_n8.xml"]:
        op = "scatter" if path.suffix == ".goal" else "allgather"
        proc = run_cli("analyze", op, "--schedule", str(path), "--topo", "torus:4x2", "--json")
        r = json.loads(proc.stdout)
        assert r["method"] == "schedule" and r["verified"] is True
        assert {"op", "topo", "messages", "bytes", "steps", "times", "time_s"} <= set(r)
        assert r["op"] == op and r["messages"] > 0
    err = refused("analyze", "bcast", "--algo", "binomial", "--schedule", "x", "--topo", "mesh:2x2")
    assert "exactly one of --algo" in err


def test_loggops_latency_per_hop_of_the_network():
    f = str(DATA / "goal" / "binomialtreebcast_p8.goal")
    flat = simulate("bcast", "--schedule", f, "--engine", "loggops")
    hops = simulate(
        "bcast", "--schedule", f, "--engine", "loggops", "--sim", "hops=1", "--topo", "mesh:4x4"
    )
    assert flat["latency"] == "L" and hops["latency"] == "L per hop"
    assert hops["time"] > flat["time"] == 34914
    # With a topology but hops=0 the model stays LogGOPSim's.
    same = simulate("bcast", "--schedule", f, "--engine", "loggops", "--topo", "mesh:4x4")
    assert same["rank_times"] == flat["rank_times"]
    err = refused("simulate", "bcast", "--schedule", f, "--engine", "loggops", "--sim", "hops=1")
    assert "give --topo SPEC" in err


def test_run_refuses_goal_saying_what_verify_checks():
    f = str(DATA / "goal" / "binomialtreebcast_p8.goal")
    assert "netcoll verify" in refused(
        "run", "bcast", "--schedule", f, "--np", "8", "--bytes", "1K"
    )


def _variant(tmp_path, name, src, old, new):
    text = (DATA / src).read_text() if isinstance(old, str) else None
    f = tmp_path / name
    if old is None:
        f.write_bytes(new)
    elif old == "":
        f.write_text(text[: len(text) // 2])
    else:
        assert old in text
        f.write_text(text.replace(old, new, 1))
    return str(f)


RING_XML = "msccl/allgather_ring_n4.xml"
BCAST_GOAL = "goal/binomialtreebcast_p8.goal"


@pytest.mark.parametrize(
    "name, src, old, new, fragment",
    [
        (
            "step.xml",
            RING_XML,
            'type="rcs"',
            'type="xyz"',
            'line 5: <step>: unknown step type "xyz"',
        ),
        (
            "off.xml",
            RING_XML,
            'srcoff="0"',
            'srcoff="9"',
            "line 4: <step>: source chunks 9 to 9 lie outside",
        ),
        ("tb.xml", RING_XML, 'send="1"', 'send="7"', 'line 3: <tb>: send="7" is not a GPU'),
        ("gpu.xml", RING_XML, '<gpu id="3"', '<gpu id="9"', '<gpu>: id="9" is out of range'),
        ("cut.xml", RING_XML, "", "", "malformed XML"),
        ("tag.xml", RING_XML, '<tb id="0"', '<tb id="0" <', "line 3: malformed XML"),
        ("op.goal", BCAST_GOAL, "l1: send", "l1: bcast", "line 4: unknown operation 'bcast'"),
        ("rank.goal", BCAST_GOAL, "rank 7 {", "rank 9 {", "rank 9 is out of range"),
        ("peer.goal", BCAST_GOAL, "to 1 tag", "to 12 tag", "peer rank 12 is out of range"),
        ("cut.goal", BCAST_GOAL, "", "", "line "),
        ("bin.goal", BCAST_GOAL, None, b"\x01\x02\x00\xff" * 10, "a binary file"),
    ],
)
def test_each_kind_of_bad_file_is_one_line_naming_file_and_line(
    tmp_path, name, src, old, new, fragment
):
    f = _variant(tmp_path, name, src, old, new)
    for cmd in (
        ["verify", f, "--op", "bcast"],
        ["simulate", "bcast", "--schedule", f, "--engine", "loggops"],
    ):
        proc = run_cli(*cmd, check=False)
        assert proc.returncode == 2, (cmd, proc.stderr)
        assert proc.stderr.startswith(f"netcoll: error: {f}: ") and fragment in proc.stderr
        assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr


def test_wrong_well_formed_files_exit_1_with_the_diagnosis(tmp_path):
    cases = [
        (str(DATA / "msccl" / "pipeline_a100_ring_n4.xml"), [], "rank 0 output chunk 0"),
        (str(DATA / "goal" / "dissemination_p8.goal"), ["--op", "barrier"], "rank 3"),
        (
            _variant(
                tmp_path,
                "dup.goal",
                BCAST_GOAL,
                "l1: recv 1024b from 0 tag 0\n}\n\nrank 5",
                "}\n\nrank 5",
            ),
            ["--op", "bcast"],
            "which posts no matching receive",
        ),
    ]
    for f, extra, fragment in cases:
        code, v, _ = verify(f, *extra)
        assert code == 1 and v["verified"] is False and fragment in v["diagnosis"]
