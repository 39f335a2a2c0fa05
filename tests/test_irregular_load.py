"""Multicast load with software overheads (`multicast_scheme = ni-kbinomial | worm-path |
worm-tree`; seed 003 s6.5): the single-multicast plans under load, from Python and the CLI."""

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import cli_json, run_cli
from netcoll._core import Topology, build_schedule, simulate_schedule, simulate_traffic
from netcoll.reproduce import irregular, irregular_load

SPEC = "irregular:switches=8,ports=8,nodes=32,conn=0.8,seed=1"
OVER = [("t_hs", "1000"), ("t_ns", "500"), ("t_hr", "1000"), ("t_nr", "500")]


def _load(scheme, m, load, seed=1, extra=()):
    pairs = (
        irregular_load.NETWORK
        + OVER
        + [
            ("netcoll_topology", SPEC),
            ("multicast_scheme", scheme),
            ("multicast_dests", str(m)),
            ("injection_rate", str(load)),
            ("warmup_cycles", "2000"),
            ("sim_cycles", "20000"),
            ("seed", str(seed)),
            *extra,
        ]
    )
    return simulate_traffic(pairs)


def test_zero_load_latency_is_at_least_the_single_multicast_floor():
    # At a tiny load a multicast rarely meets another: the mean latency is close to the
    # single-multicast runs' (irregular.py), never below the overheads' floor.
    topo = Topology(SPEC)
    for _, algo in irregular_load.SCHEMES:
        r = _load(algo, 3, 0.002, extra=[("sim_cycles", "200000")])
        mc = r["multicast"]
        assert mc["scheme"] == algo and mc["duplicate_copies"] == 0
        assert mc["latency"]["count"] > 5
        s = build_schedule(
            "multicast", algo, topo, root=0, nbytes=128, packets=1, targets=[5, 9, 20]
        )
        fpfs = [("ni_fpfs", "1" if algo == "ni-kbinomial" else "0")]
        single = simulate_schedule(s, topo, irregular.NETWORK + OVER + fpfs)["cycles"]
        assert 0.7 * single < mc["latency"]["mean"] < 1.5 * single, (algo, single, mc)


@settings(max_examples=6, deadline=None)
@given(
    scheme=st.sampled_from(["ni-kbinomial", "worm-path", "worm-tree"]),
    m=st.integers(1, 15),
    seed=st.integers(1, 50),
)
def test_load_runs_are_deterministic_and_deliver_once(scheme, m, seed):
    a = _load(scheme, m, 0.05, seed)
    assert a == _load(scheme, m, 0.05, seed)
    mc = a["multicast"]
    assert mc["duplicate_copies"] == 0 and a["misdelivered"] == 0
    assert mc["completed"] <= mc["created"]
    assert mc["copies_delivered"] <= mc["created"] * m


def test_cli_runs_the_schemes_with_overheads():
    args = [f"{k}={v}" for k, v in irregular_load.NETWORK + OVER]
    r = cli_json(
        "sim",
        *args,
        f"netcoll_topology={SPEC}",
        "multicast_scheme=worm-tree",
        "multicast_dests=15",
        "injection_rate=0.03",
        "warmup_cycles=1000",
        "sim_cycles=20000",
    )
    mc = r["multicast"]
    assert mc["scheme"] == "worm-tree" and mc["latency"]["count"] > 0
    # A tree multicast pays t_hs + t_ns at the source and t_nr + t_hr at a destination.
    assert mc["latency"]["p50"] >= 1000 + 500 + 500 + 1000
    assert abs(mc["effective_load"] - 0.03) < 1e-9


def test_bad_overhead_input_is_one_line():
    for args, words in (
        (("multicast_scheme=tree", "t_hs=100"), "apply to traffic only"),
        (("multicast_scheme=worm-path", "ni_fpfs=1"), "receive at the host"),
        (("multicast_scheme=unicast", "multicast_packets=2"), "multicast_packets = 2"),
        (("multicast_scheme=ni-kbinomial", "t_ns=-3"), "t_ns = -3"),
    ):
        p = run_cli(
            "sim",
            "traffic=multicast",
            "topology=netcoll",
            f"netcoll_topology={SPEC}",
            "routing_function=updown",
            *args,
            check=False,
        )
        assert p.returncode != 0
        err = p.stderr.strip()
        assert words in err and "Traceback" not in err and len(err.splitlines()) == 1, err
