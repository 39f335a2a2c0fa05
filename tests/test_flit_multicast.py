"""`netcoll sim traffic=multicast`: the multicast figures, determinism, bad input."""

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import cli_json, run_cli
from netcoll._core import simulate_traffic

NET = [
    ("traffic", "multicast"),
    ("topology", "netcoll"),
    ("routing_function", "updown"),
    ("packet_size", "4"),
]


def _run(scheme, m, seed, extra=()):
    spec = f"irregular:switches=8,ports=8,nodes=32,seed={seed}"
    pairs = NET + [
        ("netcoll_topology", spec),
        ("multicast_scheme", scheme),
        ("multicast_dests", str(m)),
        ("injection_rate", "0.1"),
        ("injection_rate_uses_flits", "1"),
        ("sim_type", "batch"),
        ("batch_size", "3"),
        ("seed", str(seed)),
        *extra,
    ]
    return simulate_traffic(pairs)


def test_cli_reports_multicast_latency():
    r = cli_json(
        "sim",
        "traffic=multicast",
        "multicast_dests=3",
        "k=4",
        "injection_rate=0.05",
        "sim_type=batch",
        "batch_size=5",
    )
    mc = r["multicast"]
    assert mc["dests"] == 3 and mc["scheme"] == "tree"
    assert mc["completed"] == 16 * 5 and mc["duplicate_copies"] == 0
    # The last copy arrives no earlier than any copy: the multicast latency bounds the
    # packet latency from above on average.
    assert mc["latency"]["mean"] >= r["packet_latency"]["mean"]
    text = run_cli("sim", "traffic=multicast", "k=4", "injection_rate=0.05").stdout
    assert "Multicast (3-way, tree) latency average" in text


def test_unicast_traffic_has_no_multicast_figures():
    assert cli_json("sim", "k=4", "injection_rate=0.05")["multicast"] is None


@settings(max_examples=10, deadline=None)
@given(st.integers(1, 31), st.sampled_from(["tree", "unicast"]), st.integers(0, 50))
def test_every_copy_once_and_deterministic(m, scheme, seed):
    a = _run(scheme, m, seed)
    assert a == _run(scheme, m, seed)
    mc = a["multicast"]
    assert mc["completed"] == mc["created"] == 32 * 3
    assert mc["copies_delivered"] == 32 * 3 * m and mc["duplicate_copies"] == 0


def test_bad_multicast_input_is_one_line():
    for args, words in (
        (("multicast_dests=64",), "use 1 to 63"),
        (("multicast_scheme=path",), "use unicast or tree"),
        (("topology=torus", "k=4"), "one VC class"),
    ):
        p = run_cli("sim", "traffic=multicast", *args, check=False)
        assert p.returncode != 0
        err = p.stderr.strip()
        assert words in err and "Traceback" not in err and len(err.splitlines()) == 1, err
