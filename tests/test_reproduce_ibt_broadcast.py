"""The seed-004 broadcast reproductions (Table 1's T_x/T_xy, Figs. 1, 2, 4, 7-13): their values
against the Rust step engine and the paper's printed numbers, and their files."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from netcoll import _core
from netcoll.networks import topology
from netcoll.reproduce import find, run_one
from netcoll.reproduce.ibt_broadcast import TABLE_1, table1_broadcast
from netcoll.reproduce.ibt_dims import gain_rows, same_degree_radix
from netcoll.reproduce.ibt_steps import (
    broadcast,
    fit,
    search_params,
    torus_tall,
    torus_tx,
    torus_txy,
    valid_ibt,
)

NEW_IDS = ["ibt-table1-broadcast"] + [f"ibt-fig{i}" for i in (1, 2, 4, 7, 8, 9, 10, 11, 12, 13)]


def engine(spec, algo, root=0, params=()):
    return _core.step_broadcast(topology(spec), algo, root=root, packets=32, params=list(params))


def test_cached_runs_are_the_engine_runs():
    for spec, algo, root, params in [
        ("ibt:64x64:b=14", "line", 1, ("patterns=0-7",)),
        ("ibt:48x48:b=8,32", "rect", 0, ("patterns=1,3", "k1=16")),
        ("ibt:12x12x12:b=6", "global", 0, ("patterns=1,3,5,7",)),
        ("ibt:64x64:b=6", "line", 0, ("patterns=0-7", "forward=fifo")),
    ]:
        ours = broadcast(spec, algo, root, params)
        theirs = engine(spec, algo, root, params)
        assert ours["steps"] == theirs["steps"]
        assert ours["pattern"] == theirs["pattern"]
        assert [t for _, t in ours["tried"]] == [t["steps"] for t in theirs["tried"]]


def test_table1_pinned_cells():
    """T_x with forward=order: the regression values of docs/ibt-broadcast.md, 3 of 8 equal
    to the paper; T_xy with forward=fifo: the paper's <14> row exactly (the quick search)."""
    out = table1_broadcast(quick=True)
    tx = [r["T_x_order"] for r in out.rows]
    assert tx == [22, 24, 21, 23, 23, 23, 21, 22]
    paper_tx = [TABLE_1[b][s] for b in TABLE_1 for s in (0, 1)]
    assert sum(a == b for a, b in zip(tx, paper_tx)) == 3
    fifo = {(r["b"], r["s"]): r["T_xy_fifo"] for r in out.rows}
    assert fifo[("<14>", 0)] == fifo[("<14>", 1)] == 27 == TABLE_1["14"][2]
    for r in out.rows:  # fifo within one step of the paper's T_xy everywhere
        assert abs(r["T_xy_fifo"] - r["paper_T_xy"]) <= 1
    assert "3 of 8" in out.summary


def test_torus_formulas_are_the_engines():
    """Formulas (4), (6), (5) at an integer radix equal what the engine reports for the
    same-dimension torus; (5) at m = 100 in 3-D is the 302 steps of docs/step-engine.md."""
    line = engine("ibt:64x64:b=14", "line", 0, ("pattern=3",))
    assert torus_tx(64) == line["torus"]["same_dimensions"]["steps"] == 47
    assert torus_tx(16) == line["torus"]["same_degree"]["steps"]
    rect = engine("ibt:32x32:b=8", "rect", 0, ("pattern=3", "k1=16"))
    assert torus_txy(32) == rect["torus"]["same_dimensions"]["steps"]
    glob = engine("ibt:24x24:b=8", "global", 0, ("pattern=3",))
    assert torus_tall(24, 2) == glob["torus"]["same_dimensions"]["steps"]
    assert torus_tall(100, 3) == 302
    # The simulated torus baselines: the ring broadcast is formula (4), the trees (5) + 1.
    assert engine("torus:16x16x16", "line", 0, ("pattern=1",))["steps"] == torus_tx(16)
    assert engine("torus:8x8x8", "trees")["steps"] == torus_tall(8, 3) + 1


def test_alpha_and_beta_agree_with_the_engine():
    rows = gain_rows(quick=True)
    assert {r["d"] for r in rows} == {2, 3, 4}
    for r in [r for r in rows if r["N"] <= 20_000]:  # the engine again: the small ones
        spec = f"ibt:{'x'.join([str(r['n'])] * r['d'])}:b={r['b'][1:-1]}"
        for metric, algo in (("T_x", "line"), ("T_all", "global")):
            e = engine(spec, algo, 0, search_params(metric, r["N"], True))
            assert e["steps"] == r[metric]
            assert r[f"alpha_{metric}"] == pytest.approx(e["alpha"], abs=1e-4)
            assert r[f"beta_{metric}"] == pytest.approx(e["beta"], abs=1e-4)


def test_same_degree_radix_and_fits():
    assert same_degree_radix(1000**2, 2) == 100.0
    assert same_degree_radix(64**2, 2) == 16.0
    assert same_degree_radix(32**4, 4) == 16.0
    assert same_degree_radix(48**2, 2) == pytest.approx(48 ** (2 / 3))
    # Printed fits evaluated by hand: Table 2's <8> is n/16 + 21; (7.1) at N = 2^12.
    assert fit("T_x", 2, "8", 256**2) == pytest.approx(256 / 16 + 21)
    assert fit("T_xy", 2, "8,32", 4096) == pytest.approx(1.75 * 4096**0.2 + 16.22)
    assert fit("T_all", 4, "8", 10**4) is None


@settings(max_examples=60, deadline=None)
@given(
    st.integers(2, 40),
    st.integers(2, 3),
    st.lists(st.integers(1, 40), min_size=1, max_size=2),
)
def test_valid_ibt_is_the_topologys_rule(n, d, lengths):
    b = ",".join(map(str, lengths))
    spec = f"ibt:{'x'.join([str(n)] * d)}:b={b}"
    try:
        topology(spec)
        builds = True
    except _core.NetcollError:
        builds = False
    assert valid_ibt(n, d, b) == builds


def test_every_new_reproduction_writes_its_files(tmp_path):
    for ident in NEW_IDS:
        outcome = run_one(find(ident), tmp_path, quick=True)
        assert outcome.status in {"matches", "approximates", "cannot"}
        assert outcome.rows and outcome.comparison
        suffixes = sorted(p.rsplit(".", 1)[1] for p in outcome.files)
        assert suffixes == ["csv", "json", "md", "png", "svg"], ident
        note = (tmp_path / f"{ident}.md").read_text()
        assert "Paper beside netcoll" in note
        for r in outcome.rows:  # no broadcast beats the model's lower bound
            if "lower_bound" in r:
                steps = next(r[m] for m in ("T_x", "T_xy", "T_all") if m in r)
                assert steps >= r["lower_bound"]
    fig1 = (tmp_path / "ibt-fig1.csv").read_text().splitlines()
    assert len(fig1) == 1 + (16 + 7) * 2 * 2 * 8  # schemes x sources x rules x patterns
    assert not math.isnan(float(fig1[1].split(",")[-1]))
