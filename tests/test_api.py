"""The public Python API (issue 18): netcoll.schedule / simulate / tune, Schedule's numpy
views and verifier result, and tune -> simulate round trips on the CLI."""

import json

import numpy as np
import pytest

import netcoll
from conftest import cli_json, run_cli
from netcoll import NetcollError


def test_schedule_messages_are_a_structured_array():
    s = netcoll.schedule("allreduce", algo="ring", topo="mesh:4x4")
    assert isinstance(s, netcoll.Schedule)
    m = s.messages
    assert isinstance(m, np.ndarray)
    assert {"src", "dst", "bytes", "step"} <= set(m.dtype.names)
    # Ring allreduce on 16 ranks: 2(p-1) steps, each rank sends to its successor.
    assert len(m) == 2 * 15 * 16 and (m["dst"] == (m["src"] + 1) % 16).all()
    assert m["step"].max() == 2 * 15 - 1 and (m["bytes"] == 1024 // 16).all()
    ops = s.ops
    assert {"rank", "op", "msg", "step"} <= set(ops.dtype.names)
    assert (ops["op"] == "send").sum() == len(m)


def test_verify_result_and_from_json_verifies():
    s = netcoll.schedule("bcast", algo="binomial", topo="mesh:4x4")
    v = s.verify()
    assert v.ok and v.diagnosis is None and bool(v)
    doc = json.loads(s.to_json())
    doc["ranks"][0] = []  # the root sends nothing: the others never receive
    bad = json.dumps(doc)
    with pytest.raises(NetcollError, match="not correct"):
        netcoll.Schedule.from_json(bad)
    loaded = netcoll.Schedule.from_json(bad, verify=False)
    result = loaded.verify()
    assert not result.ok and "never" in result.diagnosis


def test_topology_objects_specs_dicts_and_sizes():
    t = netcoll.Topology("mesh:4x4")
    a = netcoll.schedule("bcast", "kbinomial", t, params={"k": 3}, nbytes="1K")
    b = netcoll.schedule("broadcast", "kbinomial", "mesh:4x4", params=["k=3"], nbytes=1024)
    assert a.to_json() == b.to_json() and a.op == "bcast"
    assert netcoll.topology(t) is t
    with pytest.raises(NetcollError, match="16MiB"):
        netcoll.schedule("bcast", "binomial", t, nbytes="1Q")


def test_to_pandas():
    pd = pytest.importorskip("pandas")
    df = netcoll.schedule("allgather", algo="ring", topo="mesh:2x2").to_pandas()
    assert isinstance(df, pd.DataFrame) and list(df.columns)[:3] == ["msg", "src", "dst"]
    assert df.groupby("step").size().tolist() == [4, 4, 4]


def test_simulate_engines_share_keys():
    step = netcoll.simulate("bcast", "binomial", "mesh:4x4", engine="step")
    flit = netcoll.simulate("bcast", "binomial", netcoll.Topology("mesh:4x4"), sim={"t_hs": 0})
    for key in ("op", "algo", "topo", "ranks"):
        assert step[key] == flit[key]
    assert step["steps"] == 6 and flit["cycles"] > 0


def test_flit_cuts_a_mebibyte_into_packets():
    r = netcoll.simulate("bcast", "binomial", "mesh:2x2", nbytes="1M")
    assert r["message_bytes"] == 1 << 20 and r["packets_per_schedule_packet"] == 2
    assert r["packet_flits"] == 32768 and r["packets"] == 3 * 2
    small = netcoll.simulate(
        "bcast", "binomial", "mesh:2x2", nbytes="1M", sim={"max_packet_flits": 4096}
    )
    assert small["packets_per_schedule_packet"] == 16 and small["packet_flits"] == 4096


def test_tune_defaults_to_the_reference_machine():
    out = netcoll.tune("bcast", "mesh:4x4", nbytes="1M")
    assert out["machine"] == netcoll.REFERENCE_MACHINE and out["rank_by"] == "time_s"
    times = [c["time_s"] for c in out["candidates"]]
    assert times == sorted(times) and len(times) > 10
    far = [c for c in out["candidates"] if c["ratio"] >= 2]
    assert far and all(c["note"] for c in far)
    assert any("serialises at the root" in c["note"] for c in far)
    assert all(c["note"] == "" for c in out["candidates"] if c["ratio"] < 2)


def test_tune_cli_without_alpha_and_with_sizes():
    out = cli_json("tune", "bcast", "-t", "mesh:4x4", "--bytes", "1M")
    assert out["bytes"] == 1 << 20 and out["machine"]["alpha"] == 1e-6
    text = run_cli("tune", "bcast", "-t", "mesh:4x4", "--bytes", "1M", "--top", "30").stdout
    assert "time (us)" in text and "why it is far off" in text and "--set dims=" in text
    assert "serialises at the root" in text


def test_tune_flit_ranks_by_cycles_and_round_trips_into_simulate():
    args = ("tune", "bcast", "--topo", "torus:4x4", "--bytes", "1M", "--engine", "flit")
    out = cli_json(*args, "--top", "3")
    cands = out["candidates"]
    assert out["rank_by"] == "cycles" and len(cands) == 3
    assert [c["cycles"] for c in cands] == sorted(c["cycles"] for c in cands)
    for c in cands:
        sets = [x for kv in c["set"] for x in ("--set", kv)]
        sim = cli_json(
            "simulate", "bcast", "-e", "flit", "-a", c["algo"], "-t", "torus:4x4",
            "--bytes", "1M", *sets,
        )  # fmt: skip
        assert sim["cycles"] == c["cycles"], c


def test_tune_step_reranks_by_link_steps():
    out = netcoll.tune("bcast", "mesh:4x4", engine="step", top=4)
    steps = [c["sim_steps"] for c in out["candidates"]]
    assert out["rank_by"] == "sim_steps" and steps == sorted(steps) and len(steps) == 4
    with pytest.raises(NetcollError, match="analytic, step, flit"):
        netcoll.tune("bcast", "mesh:4x4", engine="booksim")
