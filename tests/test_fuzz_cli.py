"""A hypothesis fuzz of the CLI with a short fixed budget (issue 15): command lines built from
the grammar with hostile values (negative, huge, fractional, empty, junk, mutated specs).
Every run either succeeds or is refused with exit status 2 and one line on stderr; never a
traceback, an "internal error", a panic or an abort. The memory guard's budget is fixed at
0.5 GB so that no example can exhaust the machine."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from netcoll import _core
from netcoll.cli import main

SPECS = [
    "mesh:4x4",
    "torus:4x4",
    "mesh:3x5",
    "torus:2x3x2",
    "hypercube:4",
    "ibt:8x8:b=4",
    "irregular:switches=4,ports=8,nodes=8,seed=1",
    "irregular:switches=8,ports=8,nodes=32,conn=0.8,seed=3",
]
JUNK = ["", "x", "-", "1.5", "nan", "inf", "1e3", "0x10", " 3", "3 ", ",", "=", "\u00e9", ":"]
INTS = st.one_of(
    st.integers(0, 20),
    st.integers(-(2**70), -1),
    st.integers(2**31, 2**70),
    st.sampled_from([2**32 - 1, 2**32, 2**64 - 1, 2**64]),
)
VALUE = st.one_of(INTS.map(str), st.sampled_from(JUNK), st.text(max_size=6))


@st.composite
def specs(draw) -> str:
    spec = draw(st.sampled_from(SPECS))
    if draw(st.booleans()):
        return spec
    i = draw(st.integers(0, len(spec)))
    how = draw(st.sampled_from(["insert", "delete", "replace", "number"]))
    if how == "number":
        return spec.replace("4", draw(INTS.map(str)), 1)
    piece = draw(st.sampled_from(JUNK + ["x", "9", "0", ",seed=2", "=", "-1"]))
    if how == "insert":
        return spec[:i] + piece + spec[i:]
    if how == "delete":
        return spec[:i] + spec[i + 2 :]
    return spec[:i] + piece + spec[i + len(piece) :]


OPTIONAL = {
    "--root": VALUE,
    "--bytes": VALUE,
    "--packets": VALUE,
    "--ranks": VALUE,
    "--placement": st.one_of(
        st.sampled_from(["identity", "reverse", "random", "random:seed=3", "0,1,2", "3,3"]),
        VALUE,
    ),
    "--dests": st.one_of(st.sampled_from(["1,2", "random:3,seed=1", "random:0", "1,1"]), VALUE),
    "--set": st.sampled_from(["k=2", "k=x", "group=2x2", "k", "k=2", "pattern=99"]),
}


@st.composite
def command_lines(draw) -> list[str]:
    kind = draw(st.sampled_from(["stats", "check", "route", "schedule", "analyze", "simulate"]))
    spec = draw(specs())
    if kind == "stats":
        return ["topo", "stats", "--topo", spec]
    if kind == "check":
        args = [
            "topo",
            "check",
            "--topo",
            spec,
            "-r",
            draw(st.sampled_from(["dor", "shortest", "updown"])),
        ]
        if draw(st.booleans()):
            args += ["--vcs", draw(VALUE)]
        return args
    if kind == "route":
        routing = draw(st.sampled_from(["dor", "shortest", "updown", "x"]))
        return ["route", "--topo", spec, "-r", routing, "--", draw(VALUE), draw(VALUE)]
    op, algo = draw(
        st.sampled_from(
            [
                ("bcast", "binomial"),
                ("multicast", "kbinomial"),
                ("allgather", "ring"),
                ("reduce", "binomial"),
                ("alltoall-broadcast", "hnc"),
                ("bcast", "nonesuch"),
            ]
        )
    )
    args = [kind, op, "-a", algo, "-t", spec]
    if kind == "simulate":
        args += ["--engine", "step"]
    for option in draw(st.lists(st.sampled_from(sorted(OPTIONAL)), max_size=3, unique=True)):
        args += [option, draw(OPTIONAL[option])]
    return args


@pytest.fixture(autouse=True)
def _reset_budget():
    yield
    _core.set_max_memory(None)


@settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(args=command_lines())
def test_the_cli_never_crashes(args, capsys):
    try:
        main(["--max-memory", "0.5", *args])
        code = 0
    except SystemExit as done:
        code = done.code
    out = capsys.readouterr()
    assert code in (0, 2), (args, code, out.err[-500:])
    if code == 2:
        err = out.err.strip()
        assert err.startswith("netcoll: error: ") and "\n" not in err, (args, err)
        assert "internal error" not in err and "Traceback" not in err, (args, err)
