"""Runs the bad-input catalogue (tests/bad_inputs.py): every case exits with status 2 and
one line on stderr, `netcoll: error: ...`, that contains its fragment; never a traceback,
an "internal error" or an abort. In-process for speed; the memory-guard cases fix the budget
with --max-memory so they refuse on any machine."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from bad_inputs import CASES

from netcoll import _core
from netcoll.cli import main

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def _from_the_repository(monkeypatch):
    monkeypatch.chdir(ROOT)  # the catalogue names files under tests/data/bad
    monkeypatch.delenv("NETCOLL_DEBUG", raising=False)
    yield
    _core.set_max_memory(None)  # --max-memory sets a process-wide budget


def refusal(args: tuple[str, ...], capsys) -> str:
    if args[0] == "--max-memory":  # the memory guard's cases: a failure must not abort pytest
        proc = subprocess.run(
            [sys.executable, "-m", "netcoll", *args], capture_output=True, text=True, timeout=120
        )
        code, err = proc.returncode, proc.stderr.strip()
    else:
        with pytest.raises(SystemExit) as done:
            main(list(args))
        code, err = done.value.code, capsys.readouterr().err.strip()
    assert code == 2, f"exit {code}: {err[-2000:]}"
    assert err.startswith("netcoll: error: "), err
    assert "\n" not in err and "Traceback" not in err, err
    assert "internal error" not in err, err
    return err


def test_the_catalogue_is_large_and_has_no_repeats():
    assert len(CASES) >= 120
    assert len({args for args, _ in CASES}) == len(CASES)


@pytest.mark.parametrize(("args", "fragment"), CASES, ids=[" ".join(a)[:80] for a, _ in CASES])
def test_bad_input_is_refused_in_one_line(args, fragment, capsys):
    err = refusal(args, capsys)
    assert fragment in err, err


def test_long_input_is_not_echoed_whole(capsys):
    err = refusal(("topo", "stats", "--topo", "mesh:" + "x".join(["4"] * 30000)), capsys)
    assert len(err) < 1200, len(err)


def test_the_guard_refuses_before_allocating_under_an_address_space_limit():
    """Under `ulimit -v` (4 GB) the guard sees the limit and refuses; no abort, no
    "memory allocation failed" on stderr."""
    script = (
        "import resource, sys; resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30)); "
        "from netcoll.cli import main; main(sys.argv[1:])"
    )
    for args in (
        ["topo", "check", "--topo", "hypercube:24"],
        ["topo", "export", "--topo", "mesh:4096x4096", "-o", "/tmp/netcoll-never.json"],
    ):
        proc = subprocess.run(
            [sys.executable, "-c", script, *args], capture_output=True, text=True, timeout=120
        )
        assert proc.returncode == 2, proc.stderr
        assert "needs about" in proc.stderr and "free" in proc.stderr, proc.stderr
        assert proc.stderr.count("\n") == 1, proc.stderr


def test_route_on_a_huge_mesh_does_not_build_it(capsys):
    """A budget of 0.2 GB refuses the 5 GB network, so a route that works never built it."""
    main(["--max-memory", "0.2", "route", "--topo", "mesh:4096x4096", "0", "5,1", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert out["hops"] == 6 and out["path"][-1]["to"] == 4096 + 5
    main(
        [
            "--max-memory",
            "0.2",
            "route",
            "--topo",
            "torus:4096x4096",
            "0",
            "4095",
            "-r",
            "dor",
            "--json",
        ]
    )
    out = json.loads(capsys.readouterr().out)
    assert out["hops"] == 1 and out["path"][0]["vc_class"] == 1  # over the dateline


def test_huge_messages_are_analysed_in_closed_form(capsys):
    """10^12 bytes are 6.5e8 packets of the multi-send model: analysed in closed form, not
    packet by packet (this took minutes)."""
    main(["schedule", "reduce-scatter", "-a", "ring", "-t", "mesh:4x4", "--bytes", str(10**12)])
    assert "messages" in capsys.readouterr().out


def test_a_bad_netcoll_max_memory_is_refused_like_the_option(monkeypatch, capsys):
    monkeypatch.setenv("NETCOLL_MAX_MEMORY", "-5")
    err = refusal(("topo", "stats", "--topo", "mesh:4x4"), capsys)
    assert "NETCOLL_MAX_MEMORY='-5'" in err, err


def test_a_goal_file_with_a_byte_order_mark_and_crlf_verifies(tmp_path):
    goal = (ROOT / "tests/data/goal/binarytreebcast_p13.goal").read_text()
    path = tmp_path / "bom.goal"
    path.write_bytes(b"\xef\xbb\xbf" + goal.replace("\n", "\r\n").encode())
    proc = subprocess.run(
        [sys.executable, "-m", "netcoll", "verify", str(path), "--op", "bcast"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
