"""Seed 002 Figs. 4-13 and seed 001 Fig. 2 / Table 3: the FM tree model, the printed numbers
we pin, the flit engine's agreement with the model, and the files each run writes."""

import csv

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from netcoll import NetcollError, fmtree, models
from netcoll.fmtree import FMConfig
from netcoll.reproduce import find, run_one
from netcoll.reproduce import intercom as ic
from netcoll.reproduce import multisend as ms

# ------------------------------------------------------------------ the FM tree model


def test_one_packet_flat_is_the_s2_formula():
    tree = fmtree.flat_tree(6)
    m = fmtree.tree_latency(tree, 1536, FMConfig(ack=False))
    u = fmtree.tree_latency(tree, 1536, FMConfig(primitive="unicast", ack=False))
    assert (round(m, 4), round(u, 4)) == (153.2089, 333.7294)


@settings(max_examples=60, deadline=None)
@given(m=st.integers(0, 1536), k=st.integers(1, 15), wc=st.booleans())
def test_flat_one_packet_matches_the_rust_model(m, k, wc):
    tree = fmtree.flat_tree(k)
    ours = (
        fmtree.tree_latency(tree, m, FMConfig(ack=False, write_combining=wc)),
        fmtree.tree_latency(tree, m, FMConfig("unicast", ack=False, write_combining=wc)),
    )
    assert ours == pytest.approx(models.multisend_time(m, k, wc), rel=1e-12)


def test_hand_worked_two_packets_relay():
    # 0 -> 1 -> 2, 1,536 + 464 bytes, multi-send, pipelined, no reply.
    s1, x1, r1 = fmtree.intervals(1536)
    s2, x2, r2 = fmtree.intervals(464)
    a1 = s1 + r1  # node 1 holds packet 0
    b1 = max(s1 + s2 + r2, a1 + r2)  # node 1 holds packet 1 (its receive path is serial)
    w1 = a1 + s1  # node 1 wrote packet 0
    w2 = max(w1, b1) + s2
    c = max(w2 + r2, w1 + r1 + r2)
    got = fmtree.tree_latency([[1], [2], []], 2000, FMConfig(ack=False))
    assert got == pytest.approx(c)


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(2, 16),
    lam=st.integers(1, 16),
    m=st.sampled_from([1, 100, 1536, 2000, 5000, 16384]),
    prim=st.sampled_from(["multisend", "unicast"]),
    order=st.sampled_from(["message", "packet"]),
)
def test_pipelining_never_hurts_and_reply_adds_a_constant(n, lam, m, prim, order):
    tree = fmtree.postal_tree(n, lam)
    base = FMConfig(primitive=prim, unicast_order=order)
    pipe = fmtree.tree_latency(tree, m, base)
    whole = fmtree.tree_latency(tree, m, FMConfig(prim, False, order))
    assert pipe <= whole + 1e-9
    s0, _, r0 = fmtree.intervals(0)
    no_ack = fmtree.tree_latency(tree, m, FMConfig(prim, True, order, ack=False))
    assert pipe == pytest.approx(no_ack + s0 + r0)


def test_host_receive_share_slows_pipelined_relays_only():
    tree = fmtree.postal_tree(16, 1)
    fast = fmtree.tree_latency(tree, 16384, FMConfig())
    slow = fmtree.tree_latency(tree, 16384, FMConfig(host_recv_share=1.0))
    assert slow > fast
    na, _ = fmtree.optimal_latency(16, 16384, FMConfig(host_recv_share=1.0))
    fm = fmtree.tree_latency(
        fmtree.binomial_tree(16), 16384, FMConfig("unicast", host_recv_share=1.0)
    )
    assert round(fm / na, 2) == 1.98  # closer to the printed 1.85 than the default's 2.50
    flat = fmtree.flat_tree(15)  # no relays: nothing changes
    assert fmtree.tree_latency(flat, 16384, FMConfig(host_recv_share=1.0)) == pytest.approx(
        fmtree.tree_latency(flat, 16384, FMConfig())
    )


def test_fm_packetisation():
    assert fmtree.packet_sizes(0) == [0]
    assert fmtree.packet_sizes(16384) == [1536] * 10 + [1024]
    assert fmtree.packet_sizes(16384, equal=True) == [1490] * 11


@pytest.mark.parametrize(
    "call, msg",
    [
        (lambda: fmtree.tree_latency([[1], [1]], 8), "two parents"),
        (lambda: fmtree.tree_latency([[1], [], []], 8), "no parent"),
        (lambda: fmtree.tree_latency([[1], []], 8, FMConfig(primitive="x")), "unknown"),
        (lambda: fmtree.tree_latency([[1], []], -1), "size >= 0"),
        (lambda: fmtree.packet_sizes(10, 2000), "1..1536"),
        (lambda: fmtree.tree_latency([[1], []], 8, FMConfig(host_recv_share=2)), "fraction"),
    ],
)
def test_bad_input_is_one_line(call, msg):
    with pytest.raises(NetcollError, match=msg) as e:
        call()
    assert "\n" not in str(e.value)


# ------------------------------------------------------------------ printed numbers


def _factor(n, m, pipeline, baseline="binomial"):
    na, _ = fmtree.optimal_latency(n, m, FMConfig(pipeline=pipeline))
    cfg = FMConfig(primitive="unicast", pipeline=pipeline)
    if baseline == "binomial":
        fm = fmtree.tree_latency(fmtree.binomial_tree(n), m, cfg)
    else:
        fm, _ = fmtree.optimal_latency(n, m, cfg)
    return fm / na


def test_printed_factors_we_match_within_two_percent():
    # s6: 1.86 for 16K to four nodes; s8: 1.85 for 8K and 16 nodes (pipelined, vs binomial).
    assert _factor(4, 16384, True) == pytest.approx(1.86, rel=0.02)
    assert _factor(16, 8192, True) == pytest.approx(1.85, rel=0.02)


def test_printed_factors_we_do_not_match_are_pinned_as_computed():
    # Fig. 5: 3.51 printed, 3.68 modelled; Fig. 9: 1.53 and 1.30 printed; Fig. 7 at 16K and
    # 16 nodes: 1.85 printed (s6), 2.50 modelled (the conclusion's 8K value matches).
    flat = fmtree.flat_tree(15)
    speed = fmtree.tree_latency(flat, 16384, FMConfig("unicast")) / fmtree.tree_latency(
        flat, 16384, FMConfig()
    )
    assert round(speed, 2) == 3.68
    assert round(_factor(8, 16384, False), 2) == 1.61
    assert round(_factor(16, 16384, False), 2) == 1.39
    assert round(_factor(16, 16384, True), 2) == 2.50


def test_qualitative_claims_of_section_6():
    for m in (4, 1024, 2048, 16384):  # four nodes: the optimal NA tree is flat (lambda 2)
        _, lam = fmtree.optimal_latency(4, m, FMConfig())
        assert lam == 2 and fmtree.postal_tree(4, lam) == fmtree.flat_tree(3)
    for n in (8, 16):  # multi-packet messages: the FM-optimal tree is binomial
        for m in (4096, 16384):
            _, lam = fmtree.optimal_latency(n, m, FMConfig("unicast"))
            assert lam == 1
            assert _factor(n, m, True, "optimal") == pytest.approx(_factor(n, m, True))
    assert _factor(16, 2048, True) < _factor(16, 1024, True)  # the dip at 2,048 bytes
    for m in (1536, 16384):  # one-packet messages and four nodes: pipelining changes nothing
        a, _ = fmtree.optimal_latency(4, m, FMConfig())
        b, _ = fmtree.optimal_latency(4, m, FMConfig(pipeline=False))
        assert a == pytest.approx(b)


# ------------------------------------------------------------------ flit engine vs model


@pytest.mark.parametrize(
    "n, m, algo, params, cfg, tree",
    [
        (16, 16384, "postal", ("lambda=1",), FMConfig(equal_packets=True), 1),
        (16, 16384, "postal", ("lambda=3",), FMConfig(equal_packets=True), 3),
        (8, 2048, "postal", ("lambda=2",), FMConfig(equal_packets=True), 2),
        (16, 64, "postal", ("lambda=5",), FMConfig(equal_packets=True), 5),
        (
            16,
            16384,
            "postal",
            ("lambda=1", "primitive=unicast"),
            FMConfig("unicast", unicast_order="packet", equal_packets=True),
            1,
        ),
    ],
)
def test_flit_engine_agrees_with_the_model_on_the_same_run(n, m, algo, params, cfg, tree):
    flit = ms.flit_latency(n, m, algo, params)
    model = fmtree.tree_latency(fmtree.postal_tree(n, tree), m, cfg)
    assert flit == pytest.approx(model, rel=0.015)


def test_flit_flat_multisend_speedup_is_the_model_s():
    fms = ms.flit_latency(16, 16384, "multisend-flat")
    fuc = ms.flit_latency(16, 16384, "postal", ("lambda=16", "primitive=unicast"))
    assert fuc / fms == pytest.approx(3.68, rel=0.02)


# ------------------------------------------------------------------ InterCom


def test_fig2_schedules_equal_the_model_and_the_crossovers():
    for dims, strategy in ic._hybrids():
        a, b = models.hybrid_broadcast_cost(dims, strategy)
        for n in (60, 61440, 30 * 2**15):
            t = a * ic.ALPHA + b * n * ic.BETA
            assert ic._schedule_time(dims, strategy, n) == pytest.approx(t, rel=1e-12)
    rows = ic.fig2(True).rows
    assert rows[0]["best of Table 2"] == "1x30 M"  # MST for short vectors
    assert rows[-1]["best of Table 2"].endswith("SSCC")  # scatter/collect for long ones


def test_table3_says_cleanly_when_mpi_is_missing(monkeypatch, tmp_path):
    monkeypatch.setattr(ic, "_mpi_missing", lambda: "no mpiexec found: install mpich")
    out = run_one(find("intercom-table3"), tmp_path, quick=True)
    assert out.status == "cannot" and "no mpiexec" in out.summary
    assert (tmp_path / "intercom-table3.png").exists()


# ------------------------------------------------------------------ files


@pytest.mark.parametrize("ident", ["multisend-fig4", "multisend-fig7", "multisend-fig13"])
def test_runs_write_their_files(tmp_path, ident):
    out = run_one(find(ident), tmp_path, quick=True)
    assert out.status == "approximates"
    for suffix in ("csv", "png", "svg", "md"):
        assert (tmp_path / f"{ident}.{suffix}").exists()
    with (tmp_path / f"{ident}.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert rows and {"bytes"} <= set(rows[0])
    note = (tmp_path / f"{ident}.md").read_text()
    assert "Paper beside netcoll" in note
