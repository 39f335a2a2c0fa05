"""One vocabulary (docs/cli.md, "Vocabulary"), checked by walking every command: the network
is -t/--topo, sizes take suffixes, --json outputs use the shared keys and the canonical
collective names."""

import click
import pytest

from conftest import cli_json, run_cli
from netcoll.cli import app
from netcoll.cli.sizes import Size
from netcoll.vocabulary import ALIASES, CANONICAL, LEGACY_KEYS, op_name


def commands(group=app, path=()):
    for name, cmd in sorted(group.commands.items()):
        if isinstance(cmd, click.Group):
            yield from commands(cmd, (*path, name))
        else:
            yield " ".join((*path, name)), cmd


ALL = dict(commands())

# One fast --json invocation per command; slow ones are named with the test that covers them.
EXAMPLES = {
    "topo stats": ["topo", "stats", "-t", "mesh:4x4"],
    "topo check": ["topo", "check", "--topo", "torus:4x4", "-r", "dor"],
    "route": ["route", "--topo", "mesh:4x4", "0", "5"],
    "algos": ["algos", "--op", "broadcast"],
    "schedule": ["schedule", "bcast", "-a", "binomial", "-t", "mesh:4x4", "--bytes", "1M"],
    "analyze": ["analyze", "allreduce", "-a", "ring", "-t", "mesh:4x4", "--bytes", "16KiB"],
    "tune": ["tune", "broadcast", "-t", "mesh:4x4", "--bytes", "1Ki", "--top", "3"],
    "simulate": ["simulate", "bcast", "-e", "flit", "-a", "binomial", "-t", "mesh:4x4"],
    "worms show": ["worms", "show", "--topo", "mesh:4x4", "--dests", "3,5"],
    "hnc compare": ["hnc", "compare", "-t", "mesh:4x4"],
    "hnc groups": ["hnc", "groups", "-t", "mesh:4x4"],
    "sim": ["sim", "k=4", "injection_rate=0.05"],
    "worms trends": ["worms", "trends", "--topos", "1", "--sets", "1"],
    "sweep analyze": ["sweep", "analyze", "bcast", "-a", "binomial", "-t", "mesh:4x4"],
    "sweep simulate": [
        "sweep",
        "simulate",
        "bcast",
        "-a",
        "binomial",
        "-t",
        "mesh:4x4",
        "-e",
        "step",
    ],
}
SLOW = {
    "bench metrics": "tests/test_cli.py (benchmarks)",
    "bench step": "benchmark, minutes",
    "bench flit": "benchmark, minutes",
    "bench flit-schedule": "benchmark, minutes",
    "run": "tests/test_mpi.py (needs MPI processes)",
    "reproduce": "tests/test_reproduce.py",
    "demo": "scripts/demo.sh",
    "bench scale": "tests/test_scale.py (a process per row)",
    "verify": "tests/test_formats.py (reads peer files)",
    "sweep": "tests/test_sweep.py (flit simulations)",
    "bench loggops": "tests/test_loggops.py (benchmark)",
}
# Commands whose output keeps a peer's own key names: `sim` speaks BookSim's (topology=mesh).
PEER_KEYS = {"sim": {"topology"}}


def test_every_command_that_takes_a_network_has_dash_t_topo():
    for name, cmd in ALL.items():
        names = {p.name for p in cmd.params}
        if names & {"topo", "spec"}:
            opts = {o for p in cmd.params for o in p.opts}
            assert {"-t", "--topo"} <= opts, f"netcoll {name} takes a network without -t/--topo"


def test_every_size_option_takes_suffixes():
    for name, cmd in ALL.items():
        for p in cmd.params:
            if "--bytes" in p.opts and name != "run":  # run: size lists, its own parser
                assert isinstance(p.type, Size), f"netcoll {name} --bytes is {p.type.name}"


def test_every_json_command_is_walked():
    with_json = {n for n, c in ALL.items() if any("--json" in p.opts for p in c.params)}
    assert with_json <= set(EXAMPLES) | set(SLOW), with_json - set(EXAMPLES) - set(SLOW)


def _rows(out):
    return out if isinstance(out, list) else [out]


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_json_output_uses_the_shared_keys(name):
    out = cli_json(*EXAMPLES[name])
    allowed = PEER_KEYS.get(name, set())
    for row in _rows(out):
        if not isinstance(row, dict):
            continue
        legacy = (set(row) & set(LEGACY_KEYS)) - allowed - {"hops"}
        assert not legacy, f"netcoll {name}: legacy keys {legacy}"
        if "op" in row:
            assert row["op"] in CANONICAL, f"netcoll {name}: op '{row['op']}'"
        if {"topo", "spec"} & {p.name for p in ALL[name].params} and isinstance(out, dict):
            assert "topo" in row, f"netcoll {name} takes a network but prints no 'topo'"
    if name == "algos":
        assert all(set(a["collectives"]) <= set(CANONICAL) for a in out)


def test_step_and_flit_json_share_op_algo_topo():
    base = ["simulate", "broadcast", "-a", "binomial", "-t", "mesh:4x4", "--bytes", "1K"]
    step = cli_json(*base, "-e", "step")
    flit = cli_json(*base, "-e", "flit")
    for key in ("op", "algo", "topo", "ranks"):
        assert step[key] == flit[key], key
    assert (step["op"], step["algo"], step["topo"]) == ("bcast", "binomial", "mesh:4x4")
    assert "aggregate_hops" in step and "hops" not in step
    assert "link" in step["step_definition"]


def test_steps_say_what_a_step_is():
    sched = cli_json("schedule", "bcast", "-a", "binomial", "-t", "mesh:4x4")
    step = cli_json("simulate", "bcast", "-e", "step", "-a", "binomial", "-t", "mesh:4x4")
    assert (sched["steps"], step["steps"]) == (4, 6)  # rounds vs link steps
    assert sched["step_definition"] != step["step_definition"]


@pytest.mark.parametrize("text,nbytes", [("8", 8), ("1K", 1024), ("1Ki", 1024), ("1M", 1 << 20)])
def test_sizes_with_suffixes(text, nbytes):
    out = cli_json("analyze", "bcast", "-a", "binomial", "-t", "mesh:4x4", "--bytes", text)
    assert out["bytes"] == 15 * nbytes


def test_size_list_and_bad_sizes():
    from netcoll.cli.sizes import SIZES

    assert SIZES.convert("8,1K,16MiB", None, None) == [8, 1024, 16 << 20]
    bad = run_cli(
        "schedule", "bcast", "-a", "binomial", "-t", "mesh:4x4", "--bytes", "1Q", check=False
    )
    assert bad.returncode == 2 and "1K, 1Ki, 1M or 16MiB" in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1


def test_positional_network_is_a_deprecated_alias():
    new = cli_json("topo", "stats", "--topo", "mesh:4x4")
    old = run_cli("topo", "stats", "mesh:4x4", "--json")
    assert "deprecated" in old.stderr and "--topo mesh:4x4" in old.stderr
    assert new["diameter"] == 6 and new["topo"] == "mesh:4x4"
    route = run_cli("route", "mesh:4x4", "0", "5", "--json")
    assert route.returncode == 0 and "deprecated" in route.stderr
    assert cli_json("route", "-t", "mesh:4x4", "0", "5")["hops"] == 2
    worms = run_cli("worms", "show", "--topo", "mesh:4x4", "--dests", "3,5")
    assert worms.returncode == 0
    missing = run_cli("topo", "stats", check=False)
    assert missing.returncode == 2 and "--topo" in missing.stderr


def test_every_alias_names_one_canonical_collective():
    for alias, name in ALIASES.items():
        assert op_name(alias) == name
    for name, registry in CANONICAL.items():
        assert op_name(registry) == name


def test_human_output_rounds_floats():
    text = run_cli("simulate", "bcast", "-e", "flit", "-a", "binomial", "-t", "mesh:4x4").stdout
    for line in text.splitlines():
        value = line.split(":", 1)[-1].strip()
        if value.replace(".", "", 1).isdigit() and "." in value:
            assert len(value.split(".")[1]) <= 6, line


def test_sim_keys_lists_the_keys():
    out = run_cli("sim", "--keys").stdout
    assert "injection_rate = " in out and "routing_function = " in out
    assert "--keys" in run_cli("sim", "--help").stdout
