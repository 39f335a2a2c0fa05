"""Seed 002 (Buntinas, Panda et al., NIC-assisted multi-send on Myrinet/FM), Figs. 4-13.

Two engines price every point:

* the FM timing model played packet by packet over the tree (:mod:`netcoll.fmtree`: the s2
  intervals ``t_send``, ``t_xmit``, ``t_recv`` from the Rust model, the s4 postal trees, the s6
  lambda search over 1..n and the zero-byte reply to the root);
* the flit engine running netcoll's own schedules (``multisend-flat``, ``postal``) on one
  16-port switch, the paper's cluster, with the FM intervals mapped onto its NI parameters
  (:func:`flit_settings`). Packet-wise pipelined schedules only: a non-pipelined schedule
  sends a whole message as one op, and the flit engine charges its host overhead once per op,
  not once per packet as FM does.
"""

from __future__ import annotations

import math
from functools import lru_cache
from pathlib import Path

from ..engines import simulate_flit as simulate
from . import fmtree
from .fmtree import FMConfig
from .outcome import Outcome
from .plots import pyplot, save

FLIT_BYTES = 16
DESTINATIONS = (1, 2, 4, 8, 15)  # Fig. 4-5 curves
NODES = (4, 8, 16)  # Figs. 6-13 curves (the paper's 16-node cluster)

# Printed factors of improvement: (figure, what, nodes or destinations, bytes, value).
PRINTED = [
    ("5", "multi-send speedup, 15 destinations (s6)", 15, 16384, 3.51),
    ("7", "NA-optimal vs FM-binomial, pipelined (s6)", 4, 16384, 1.86),
    ("7", "NA-optimal vs FM-binomial, pipelined (s6, abstract)", 16, 16384, 1.85),
    ("7", "NA-optimal vs FM-binomial, pipelined (s8 conclusion)", 16, 8192, 1.85),
    ("9", "NA-optimal vs FM-binomial, not pipelined (s6)", 8, 16384, 1.53),
    ("9", "NA-optimal vs FM-binomial, not pipelined (s6)", 16, 16384, 1.30),
]
H_SWEEP = (0.0, 0.25, 0.5, 0.75, 1.0)  # host shares of t_recv shown beside the default


def model_factor(
    n: int,
    m: int,
    pipeline: bool,
    baseline: str = "binomial",
    fm_pipeline: bool | None = None,
    **cfg,
) -> float:
    """The paper's factor of improvement: FM-``baseline`` latency over NA-optimal latency,
    both with the reply to the root (s6). ``fm_pipeline`` (default: as ``pipeline``) reads
    s6 either way: the FM baseline relayed packet by packet too, or never (FM cannot pipeline
    in general, s4). ``cfg``: :class:`FMConfig` fields (``host_recv_share``,
    ``copy_extra_us``, ...)."""
    na, _ = fmtree.optimal_latency(n, m, FMConfig(pipeline=pipeline, **cfg))
    fm_cfg = FMConfig(
        primitive="unicast", pipeline=pipeline if fm_pipeline is None else fm_pipeline, **cfg
    )
    if baseline == "binomial":
        fm = fmtree.tree_latency(fmtree.binomial_tree(n), m, fm_cfg)
    else:
        fm, _ = fmtree.optimal_latency(n, m, fm_cfg)
    return fm / na


def flat_speedup(k: int, m: int, **cfg) -> float:
    """Fig. 5: multiple FM sends over one multi-send to ``k`` destinations."""
    tree = fmtree.flat_tree(k)
    uc = fmtree.tree_latency(tree, m, FMConfig(primitive="unicast", **cfg))
    return uc / fmtree.tree_latency(tree, m, FMConfig(**cfg))


def printed_model(fig: str, n: int, m: int, baseline: str = "binomial", **cfg) -> float:
    """The model's value for a printed number of :data:`PRINTED` (``baseline="optimal"``:
    the same point of Figs. 11 and 13, which s6 says equal Figs. 7 and 9 there)."""
    if fig == "5":
        return flat_speedup(n, m, **cfg)
    return model_factor(n, m, pipeline=fig == "7", baseline=baseline, **cfg)


def implied_copy_extra(
    fig: str, n: int, m: int, printed: float, baseline: str = "binomial"
) -> float | None:
    """The NIC time per extra multi-send copy (``copy_extra_us``) at which the model gives
    the printed value, to 0.001 us; ``None`` if the model is already below it at 0, ``inf``
    if 20 us per copy is not enough. The factor falls as the copies get dearer: bisect."""
    lo, hi = 0.0, 20.0

    def at(x: float) -> float:
        return printed_model(fig, n, m, baseline, copy_extra_us=x)

    if at(lo) < printed:
        return None
    if at(hi) > printed:
        return math.inf
    while hi - lo > 1e-3:
        mid = (lo + hi) / 2
        if at(mid) > printed:
            lo = mid
        else:
            hi = mid
    return round((lo + hi) / 2, 3)


def _extra_label(extra: float | None) -> str | float:
    if extra is None:
        return "- (model <= paper at 0)"
    return "> 20" if math.isinf(extra) else extra


def as_printed(ours: float, printed: float) -> str:
    """``yes`` when the model rounds to the print, else the relative gap."""
    if round(ours, 2) == printed:
        return "yes"
    return f"no ({(ours - printed) / printed:+.1%})"


COMPARE_KEYS = (
    "figure",
    "printed for",
    "nodes",
    "bytes",
    "paper",
    "model",
    "as printed",
    "h = 0..1",
    "FM not pipelined",
    "implied copy_extra_us",
    "flit engine",
)


def printed_row(
    fig: str, what: str, n: int, m: int, printed: float, baseline: str = "binomial"
) -> dict:
    """One printed number beside the model: the default, the range over the host's share of
    reception, the FM-never-pipelined reading (Fig. 7) and the per-copy NIC cost it implies.
    Keys: :data:`COMPARE_KEYS` (Fig. 5 says ``destinations`` for ``nodes``)."""
    ours = printed_model(fig, n, m, baseline)
    sweep = [printed_model(fig, n, m, baseline, host_recv_share=h) for h in H_SWEEP]
    fm_whole = model_factor(n, m, True, baseline, fm_pipeline=False) if fig == "7" else None
    extra = implied_copy_extra(fig, n, m, printed, baseline)
    return {
        "figure": fig,
        "printed for": what,
        "nodes" if fig != "5" else "destinations": n,
        "bytes": m,
        "paper": printed,
        "model": round(ours, 3),
        "as printed": as_printed(ours, printed),
        "h = 0..1": f"{min(sweep):.2f}-{max(sweep):.2f}",
        "FM not pipelined": "" if fm_whole is None else round(fm_whole, 3),
        "implied copy_extra_us": _extra_label(extra),
        "flit engine": "",
    }


def sizes(quick: bool) -> list[int]:
    if quick:
        return [4, 64, 1024, 2048, 4096, 8192, 16384]
    return [2**i for i in range(2, 17)]


def _zero_load_cycles(flits: int) -> int:
    """Zero-load latency of a packet through one switch with the flit engine's default
    delays (docs/flit.md: ``5h + 6 + P`` at h = 0)."""
    return flits + 6


def flit_settings(nbytes: int) -> tuple[int, list[str], float]:
    """``(packets, engine settings, microseconds per cycle)`` for an ``nbytes`` message.

    The mapping of the FM intervals onto the flit engine's NI parameters: a message is cut
    into equal packets of at most 1,536 bytes, and a packet into flits of 16 bytes (fewer for
    packets under 128 bytes: at least 8 flits per packet); a cycle is the NIC's time per flit
    at that packet size, ``t_xmit / flits`` (so a copy leaves the NI in exactly ``t_xmit``);
    ``t_hs`` is ``t_send`` (the host writes each packet; the schedules chain a node's sends,
    so the host is serial and overlaps the NIC as in Fig. 2); ``t_hr`` is what ``t_recv`` has
    beyond the packet's zero-load trip through the switch, so a copy is received ``t_recv``
    after its transmission starts, as in s2. ``t_ns = t_nr = 0``.
    """
    packets = max(1, math.ceil(nbytes / fmtree.FM_PACKET_BYTES))
    per = max(1, math.ceil(nbytes / packets))
    send, xmit, recv = fmtree.intervals(per)
    # Small packets get smaller flits, so that a packet has enough cycles for the rounding
    # to stay small and its trip through the switch to fit inside t_recv.
    flit_bytes = min(FLIT_BYTES, max(1, per // 8))
    flits = math.ceil(per / flit_bytes)
    cycle = xmit / flits
    t_hr = max(0, round(recv / cycle) - _zero_load_cycles(flits))
    sim = [f"flit_bytes={flit_bytes}", f"t_hs={round(send / cycle)}", f"t_hr={t_hr}"]
    return packets, sim, cycle


@lru_cache(maxsize=4096)
def flit_latency(n: int, nbytes: int, algo: str, params: tuple[str, ...] = ()) -> float:
    """Microseconds, reply to the root included, of a broadcast to ``n`` nodes (root
    included) on one 16-port switch, run by the flit engine."""
    packets, sim, cycle = flit_settings(nbytes)
    topo = f"irregular:switches=1,ports=16,nodes={n}"
    r = simulate("bcast", algo, topo, nbytes=nbytes, packets=packets, params=list(params), sim=sim)
    s0, _, r0 = fmtree.intervals(0)
    return r["cycles"] * cycle + s0 + r0


def flit_optimal(n: int, nbytes: int, primitive: str) -> tuple[float, int]:
    """The flit engine's best pipelined postal tree over integer lambda 1..n."""
    best = (math.inf, 0)
    for lam in range(1, n + 1):
        params = (f"lambda={lam}", f"primitive={primitive}", "pipeline=true")
        t = flit_latency(n, nbytes, "postal", params)
        if t < best[0] - 1e-9:
            best = (t, lam)
    return best


# ---------------------------------------------------------------- Figs. 4 and 5: flat


@lru_cache(maxsize=4)
def _flat_rows(quick: bool) -> tuple[dict, ...]:
    rows = []
    flit_sizes = {1024, 16384} if quick else set(sizes(False))
    for k in DESTINATIONS:
        for m in sizes(quick):
            tree = fmtree.flat_tree(k)
            ms = fmtree.tree_latency(tree, m, FMConfig())
            uc = fmtree.tree_latency(tree, m, FMConfig(primitive="unicast"))
            row = {
                "destinations": k,
                "bytes": m,
                "multisend_us": round(ms, 3),
                "fm_sends_us": round(uc, 3),
                "speedup": round(uc / ms, 4),
                "flit_multisend_us": "",
                "flit_fm_sends_us": "",
                "flit_speedup": "",
            }
            if k == 15 and m in flit_sizes:
                fms = flit_latency(k + 1, m, "multisend-flat")
                fuc = flit_latency(k + 1, m, "postal", (f"lambda={k + 1}", "primitive=unicast"))
                row.update(
                    flit_multisend_us=round(fms, 3),
                    flit_fm_sends_us=round(fuc, 3),
                    flit_speedup=round(fuc / fms, 4),
                )
            rows.append(row)
    return tuple(rows)


def _find(rows, key: str, k: int, m: int) -> dict:
    return next(r for r in rows if r[key] == k and r["bytes"] == m)


def _flat_plot(rows, speedup: bool):
    def plot(png: Path):
        plt = pyplot()
        fig, ax = plt.subplots(figsize=(7.5, 4.8))
        for k in DESTINATIONS:
            rs = [r for r in rows if r["destinations"] == k]
            xs = [r["bytes"] for r in rs]
            if speedup:
                ax.plot(xs, [r["speedup"] for r in rs], marker="o", label=f"{k} dest.")
            else:
                (line,) = ax.plot(
                    xs, [r["multisend_us"] for r in rs], marker="o", label=f"multi-send, {k}"
                )
                ax.plot(
                    xs,
                    [r["fm_sends_us"] for r in rs],
                    ls="--",
                    color=line.get_color(),
                    label=f"FM sends, {k}",
                )
        flit = [r for r in rows if r["flit_speedup"] != ""]
        if speedup:
            ax.plot(
                [r["bytes"] for r in flit],
                [r["flit_speedup"] for r in flit],
                "k^",
                ms=7,
                label="flit engine, 15 dest.",
            )
            ax.plot([16384], [3.51], "kx", ms=11, mew=2, label="paper: 3.51 (16K, 15 dest.)")
            ax.set_ylabel("speedup (FM sends / multi-send)")
        else:
            ax.plot(
                [r["bytes"] for r in flit],
                [r["flit_multisend_us"] for r in flit],
                "k^",
                ms=7,
                label="flit engine, multi-send, 15",
            )
            ax.plot(
                [r["bytes"] for r in flit],
                [r["flit_fm_sends_us"] for r in flit],
                "kv",
                ms=7,
                label="flit engine, FM sends, 15",
            )
            ax.set_yscale("log")
            ax.set_ylabel("latency incl. reply to root (us)")
        ax.set_xscale("log", base=2)
        ax.set_xlabel("message size (bytes)")
        fig_no = 5 if speedup else 4
        ax.set_title(f"Seed 002 Fig. {fig_no}: multi-send vs multiple FM sends (FM model)")
        ax.grid(alpha=0.3, which="both")
        ax.legend(fontsize=7, ncol=2)
        return save(fig, png)

    return plot


def _flat_comparison(rows) -> list[dict]:
    row = printed_row(*[(f, w, n, m, v) for f, w, n, m, v in PRINTED if f == "5"][0])
    r = _find(rows, "destinations", 15, 16384)
    row["flit engine"] = "" if r["flit_speedup"] == "" else round(r["flit_speedup"], 2)
    return [row]


_FLAT_SUMMARY = (
    "FM timing model (seed 002 s2 intervals, packet by packet, reply to the root included) "
    "and the flit engine with the FM intervals mapped onto its NI. The model gives a speedup "
    "of {s:.2f} for a 16K message to 15 destinations (paper, measured: 3.51, {off:+.1%}): the "
    "root's NIC is the bottleneck (15 copies of 12.9 us per 1,536-byte packet against one "
    "49.0 us host write), and no share of reception on the host changes a flat tree. An extra "
    "NIC cost of {x} us per multi-send copy after the first would give 3.51; s5 says the "
    "header updates overlap the DMA, so the model charges none (copy_extra_us = 0). The "
    "shape matches: multi-send gains with size and destinations. Not modelled: the <0.5 us "
    "per packet that the paper's FM additions cost, which makes multi-send slightly slower "
    "than FM sends below 32 bytes in the paper; in the model it never loses."
)


def fig4(quick: bool) -> Outcome:
    rows = list(_flat_rows(quick))
    s = _find(rows, "destinations", 15, 16384)["speedup"]
    return Outcome(
        status="approximates",
        summary=_FLAT_SUMMARY.format(
            s=s, off=(s - 3.51) / 3.51, x=implied_copy_extra("5", 15, 16384, 3.51)
        ),
        columns=list(rows[0]),
        rows=rows,
        comparison=_flat_comparison(rows),
        plot=_flat_plot(rows, speedup=False),
    )


def fig5(quick: bool) -> Outcome:
    out = fig4(quick)
    out.plot = _flat_plot(out.rows, speedup=True)
    return out


# ---------------------------------------------------------------- Figs. 6-13: trees


@lru_cache(maxsize=16)
def _tree_rows(quick: bool, baseline: str, pipeline: bool) -> tuple[dict, ...]:
    rows = []
    flit_sizes = {64, 2048, 16384} if quick else set(sizes(False))
    for n in NODES:
        for m in sizes(quick):
            na, na_lam = fmtree.optimal_latency(n, m, FMConfig(pipeline=pipeline))
            fm_cfg = FMConfig(primitive="unicast", pipeline=pipeline)
            if baseline == "binomial":
                fm, fm_lam = fmtree.tree_latency(fmtree.binomial_tree(n), m, fm_cfg), 1
            else:
                fm, fm_lam = fmtree.optimal_latency(n, m, fm_cfg)
            row = {
                "nodes": n,
                "bytes": m,
                "packets": len(fmtree.packet_sizes(m)),
                "na_optimal_us": round(na, 3),
                "na_lambda": na_lam,
                f"fm_{baseline}_us": round(fm, 3),
                "fm_lambda": fm_lam,
                "factor": round(fm / na, 4),
                "flit_na_us": "",
                "flit_fm_us": "",
                "flit_factor": "",
                "model_as_flit_factor": "",
            }
            if pipeline and m in flit_sizes:
                fna, _ = flit_optimal(n, m, "multisend")
                if baseline == "binomial":
                    params = ("lambda=1", "primitive=unicast", "pipeline=true")
                    ffm = flit_latency(n, m, "postal", params)
                else:
                    ffm, _ = flit_optimal(n, m, "unicast")
                row.update(
                    flit_na_us=round(fna, 3),
                    flit_fm_us=round(ffm, 3),
                    flit_factor=round(ffm / fna, 4),
                    model_as_flit_factor=round(_as_flit_factor(n, m, baseline), 4),
                )
            rows.append(row)
    return tuple(rows)


def _as_flit_factor(n: int, m: int, baseline: str) -> float:
    """The model's factor for exactly what the flit engine runs: equal packets, reception
    off the host and, for unicast, packet after packet to every child (netcoll's postal
    schedules)."""
    # The engine's hosts never spend time receiving (t_hr is a delay): share 0.
    na, _ = fmtree.optimal_latency(n, m, FMConfig(equal_packets=True, host_recv_share=0.0))
    cfg = FMConfig("unicast", unicast_order="packet", equal_packets=True, host_recv_share=0.0)
    if baseline == "binomial":
        fm = fmtree.tree_latency(fmtree.binomial_tree(n), m, cfg)
    else:
        fm, _ = fmtree.optimal_latency(n, m, cfg)
    return fm / na


def _tree_plot(rows, fig_no: int, baseline: str, pipeline: bool, factor: bool):
    mode = "with" if pipeline else "without"
    printed = [p for p in PRINTED if p[0] == str(fig_no)]

    def plot(png: Path):
        plt = pyplot()
        fig, ax = plt.subplots(figsize=(7.5, 4.8))
        for n in NODES:
            rs = [r for r in rows if r["nodes"] == n]
            xs = [r["bytes"] for r in rs]
            if factor:
                (line,) = ax.plot(xs, [r["factor"] for r in rs], marker="o", label=f"{n} nodes")
            else:
                (line,) = ax.plot(
                    xs, [r["na_optimal_us"] for r in rs], marker="o", label=f"NA-optimal, {n}"
                )
                ax.plot(
                    xs,
                    [r[f"fm_{baseline}_us"] for r in rs],
                    ls="--",
                    color=line.get_color(),
                    label=f"FM-{baseline}, {n}",
                )
            flit = [r for r in rs if r["flit_factor"] != ""]
            marks = [("flit_factor", "^", "flit engine")] if factor else [
                ("flit_na_us", "^", "flit engine NA-optimal"),
                ("flit_fm_us", "v", f"flit engine FM-{baseline}"),
            ]  # fmt: skip
            for key, mk, what in marks if flit else []:
                ax.plot([r["bytes"] for r in flit], [r[key] for r in flit], mk,
                        color=line.get_color(), ms=7, label=f"{what}, {n}")  # fmt: skip
        if factor:
            for (_, what, n, m, v), mk in zip(printed, "xP*"):
                where = what.split("(")[1][:-1]
                label = f"paper {v}: {n} nodes, {m // 1024}K ({where})"
                ax.plot([m], [v], mk, color="black", ms=10, mew=2, label=label)
            ax.axhline(1.0, color="grey", lw=0.8)
            ax.set_ylabel(f"factor of improvement (FM-{baseline} / NA-optimal)")
            kind = "factor of improvement"
        else:
            ax.set_yscale("log")
            ax.set_ylabel("multicast latency incl. reply (us)")
            kind = "latency"
        ax.set_xscale("log", base=2)
        ax.set_xlabel("message size (bytes)")
        ax.set_title(
            f"Seed 002 Fig. {fig_no}: {kind}, NA-optimal vs FM-{baseline}, {mode} pipelining",
            fontsize=10,
        )
        ax.grid(alpha=0.3, which="both")
        ax.legend(fontsize=7, ncol=2)
        return save(fig, png)

    return plot


def _tree_comparison(rows, fig_no: int, baseline: str, pipeline: bool) -> list[dict]:
    out = []
    factor_fig = fig_no if fig_no % 2 else fig_no + 1
    for fig, what, n, m, v in PRINTED:
        # Figs. 10-13 equal Figs. 6-9 for multi-packet messages (the FM-optimal tree is
        # binomial there, s6), so the printed factors apply to them too.
        if fig != str(factor_fig - 4 if baseline == "optimal" else factor_fig):
            continue
        row = printed_row(fig, what, n, m, v, baseline)
        r = _find(rows, "nodes", n, m)
        assert round(r["factor"], 3) == row["model"]  # the figure's rows and the table agree
        row["flit engine"] = "" if r["flit_factor"] == "" else round(r["flit_factor"], 2)
        out.append(row)
    out += _claims(rows, baseline, pipeline)
    return out


def _claim(fig: str, what: str, model: str, ok: bool | str) -> dict:
    row = dict.fromkeys(COMPARE_KEYS, "")
    ok = ("yes" if ok else "no") if isinstance(ok, bool) else ok
    row.update({"figure": fig, "printed for": what, "model": model, "as printed": ok})
    return row


def _claims(rows, baseline: str, pipeline: bool) -> list[dict]:
    """The paper's qualitative statements about these figures, checked on our rows."""
    four = [r for r in rows if r["nodes"] == 4]
    flat = all(fmtree.postal_tree(4, r["na_lambda"]) == fmtree.flat_tree(3) for r in four)
    lams = sorted({r["na_lambda"] for r in four})
    what = "4 nodes: the optimal NA tree is flat (lambda = 2)"
    model = f"flat at every size (lambda {lams})" if flat else "not always flat"
    out = [_claim("s6", what, model, flat)]
    if pipeline and baseline == "binomial":
        f = {r["bytes"]: r["factor"] for r in rows if r["nodes"] == 16}
        low = min((1024, 2048, 4096, 8192), key=f.__getitem__)
        what = "16 nodes: a dip at 2,048 bytes (packetisation)"
        model = ", ".join(f"{f[m]:.2f} at {m // 1024}K" for m in (1024, 2048, 4096, 8192))
        ok = "yes" if low == 2048 else f"partly (lowest at {low // 1024}K)"
        out.append(_claim("7", what, model, ok if low != 1024 else False))
    if baseline == "optimal":
        multi = [r for r in rows if r["packets"] > 1]
        bino = [r for r in multi if r["fm_lambda"] == 1]
        what = "FM-optimal tree is binomial (lambda 1) for multi-packet messages"
        model = f"{len(bino)} of {len(multi)} points"
        out.append(_claim("s6", what, model, len(bino) == len(multi)))
    return out


def _tree_summary(rows, baseline: str, pipeline: bool) -> str:
    best = max(rows, key=lambda r: r["factor"])
    flit = [r for r in rows if r["flit_factor"] != ""]
    gap = max((abs(r["flit_factor"] - r["factor"]) / r["factor"] for r in flit), default=None)
    same = max(
        (abs(r["flit_factor"] - r["model_as_flit_factor"]) / r["flit_factor"] for r in flit),
        default=None,
    )
    return (
        "FM timing model over postal trees (lambda searched over 1..n as in s6; FM-"
        f"{baseline}: {'binomial tree' if baseline == 'binomial' else 'best postal tree'} of "
        f"FM unicast sends, whole message per child{', relayed packet by packet' if pipeline else ''}). "  # noqa: E501
        f"Largest factor {best['factor']:.2f} ({best['nodes']} nodes, {best['bytes']} bytes). "
        + (
            f"Flit engine (netcoll's postal schedules, FM intervals on its NI, one 16-port "
            f"switch): within {gap:.0%} of the model's factor where run, and within {same:.1%} "
            "of the model run on the same packets and send order (column "
            "model_as_flit_factor): the schedules cut messages into equal packets and send "
            "unicasts packet by packet to every child, and the engine's hosts spend no time "
            "receiving (t_hr is a delay); FM sends 1,536-byte packets and a whole message per "
            "child, and its hosts copy what they receive. "
            if gap is not None
            else "Flit engine not run: the non-pipelined schedules charge the host once per "
            "message, FM once per packet. "
        )
        + "The printed factors are in the table beside the model (default: half of t_recv "
        "is the receiving host's copy, host_recv_share = 0.5), their range over that share "
        "(0 to 1) and the extra NIC time per multi-send copy that would give them. "
        + (
            "The 16-node 16K factor printed in s6 (1.85) is below the model for every share: "
            "FM-binomial must write 44 packets at the root (4 x 523.8 us), and some NA tree "
            "finishes within 1,079 us even if relays do all of t_recv on the host; s8 prints "
            "the same 1.85 for 8K, which the model matches (docs/multisend.md). "
            if pipeline
            else "Without pipelining the host's share of reception changes nothing "
            "(relays hold the whole message before sending); the gap to 1.53 and 1.30 is "
            "what about 0.66 and 1.0 us more NIC time per multi-send copy would close, and "
            "Fig. 5's 3.51 asks for 0.65 us: one unmodelled NIC cost would explain both, "
            "but s5 says the header updates overlap the DMA, so the model charges none. "
        )
        + "Not modelled: FM credit flow control and FM's per-packet overhead."
    )


def _tree_fig(fig_no: int, baseline: str, pipeline: bool, factor: bool):
    def run(quick: bool) -> Outcome:
        rows = list(_tree_rows(quick, baseline, pipeline))
        return Outcome(
            status="approximates",
            summary=_tree_summary(rows, baseline, pipeline),
            columns=list(rows[0]),
            rows=rows,
            comparison=_tree_comparison(rows, fig_no, baseline, pipeline),
            plot=_tree_plot(rows, fig_no, baseline, pipeline, factor),
        )

    run.__name__ = f"fig{fig_no}"
    return run


fig6 = _tree_fig(6, "binomial", True, False)
fig7 = _tree_fig(7, "binomial", True, True)
fig8 = _tree_fig(8, "binomial", False, False)
fig9 = _tree_fig(9, "binomial", False, True)
fig10 = _tree_fig(10, "optimal", True, False)
fig11 = _tree_fig(11, "optimal", True, True)
fig12 = _tree_fig(12, "optimal", False, False)
fig13 = _tree_fig(13, "optimal", False, True)
