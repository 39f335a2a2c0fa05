"""Reproductions from the closed-form models: seed 002 s2 and seed 001 Table 2."""

from __future__ import annotations

from pathlib import Path

from .. import models
from .outcome import Outcome
from .plots import pyplot, save

# Seed 002 s2: one 1,536-byte packet to six destinations.
MULTISEND_PRINTED = [(False, 153.2089, 333.7294), (True, 123.2569, 154.0174)]

# Seed 001 Table 2, p = 30: (dims, strategy, printed alpha, printed n-beta numerator over 30).
TABLE_2 = [
    ("2x3x5", "SSMCC", 9, 160),
    ("1x30", "M", 5, 150),
    ("2x15", "SMC", 6, 150),
    ("3x10", "SMC", 16, 240),
    ("5x6", "SSCC", 15, 98),
    ("6x5", "SSCC", 15, 98),
    ("3x10", "SSCC", 17, 94),
    ("10x3", "SSCC", 17, 94),
    ("2x15", "SSCC", 20, 86),
]


def multisend_s2(quick: bool) -> Outcome:
    rows, ok = [], True
    for wc, ms_p, uc_p in MULTISEND_PRINTED:
        ms, uc = models.multisend_time(1536, 6, write_combining=wc)
        same = abs(ms - ms_p) < 5e-5 and abs(uc - uc_p) < 5e-5
        ok &= same
        rows.append(
            {
                "write_combining": wc,
                "paper_multisend_us": ms_p,
                "netcoll_multisend_us": round(ms, 4),
                "paper_unicast_us": uc_p,
                "netcoll_unicast_us": round(uc, 4),
                "ratio": round(uc / ms, 2),
                "match": "yes" if same else "NO",
            }
        )
    sweep = [
        {
            "destinations": k,
            **dict(zip(("multisend_us", "unicast_us"), models.multisend_time(1536, k))),
        }
        for k in range(1, 17)
    ]

    def plot(png: Path):
        plt = pyplot()
        fig, ax = plt.subplots(figsize=(7, 4.5))
        ks = [r["destinations"] for r in sweep]
        ax.plot(ks, [r["multisend_us"] for r in sweep], marker="o", label="multi-send")
        ax.plot(ks, [r["unicast_us"] for r in sweep], marker="o", label="repeated unicast")
        ax.scatter(
            [6, 6],
            [153.2089, 333.7294],
            marker="x",
            s=90,
            color="black",
            label="paper s2 (6 destinations)",
            zorder=3,
        )
        ax.set_xlabel("destinations")
        ax.set_ylabel("latency to the last destination (us)")
        ax.set_title("Seed 002 s2: one 1,536-byte packet, Myrinet/FM timing model")
        ax.grid(alpha=0.3)
        ax.legend()
        return save(fig, png)

    return Outcome(
        status="matches" if ok else "approximates",
        summary="The s2 timing model (t_send, t_xmit, t_recv linear in bytes, the paper's "
        "coefficients) reproduces the printed latencies to the 4th decimal.",
        columns=list(rows[0]),
        rows=rows,
        comparison=rows,
        plot=plot,
    )


def intercom_table2(quick: bool) -> Outcome:
    rows, mismatches = [], []
    for dims, strategy, a_p, b_p in TABLE_2:
        a, b = models.hybrid_broadcast_cost_exact([int(x) for x in dims.split("x")], strategy)
        same = a == a_p and b * 30 == b_p
        if not same:
            mismatches.append(f"({dims}, {strategy})")
        rows.append(
            {
                "mesh": dims,
                "strategy": strategy,
                "paper": f"{a_p} alpha + {b_p}/30 n beta",
                "netcoll": f"{a} alpha + {b * 30}/30 n beta",
                "match": "yes" if same else "no (misprint, see note)",
            }
        )

    def plot(png: Path):
        plt = pyplot()
        fig, ax = plt.subplots(figsize=(8, 4.5))
        ns = [2**i for i in range(6, 25)]
        for dims, strategy, _, _ in TABLE_2:
            a, b = models.hybrid_broadcast_cost([int(x) for x in dims.split("x")], strategy)
            alpha, beta = 1e-4, 1e-8  # Paragon-like (seconds, seconds per byte)
            ax.plot(ns, [a * alpha + b * n * beta for n in ns], label=f"{dims} {strategy}")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("message length n (bytes)")
        ax.set_ylabel("predicted time (s), alpha=1e-4 s, beta=1e-8 s/B")
        ax.set_title("Seed 001 Table 2 hybrids on a 30-node linear array")
        ax.grid(alpha=0.3, which="both")
        ax.legend(fontsize=7)
        return save(fig, png)

    return Outcome(
        status="approximates" if mismatches else "matches",
        summary=f"{len(rows) - len(mismatches)} of {len(rows)} rows exact, from the cost model "
        "and (in the Rust tests) from the built schedules' rounds and busiest-link loads. "
        + (
            f"Not reproduced: {', '.join(mismatches)}: the paper prints 16 alpha + 240/30 n "
            "beta, but scatter over 3, MST over 10 with conflict factor 3, collect over 3 "
            "gives 8 alpha + 160/30 n beta, and no hybrid of 30 has the printed cost: we take "
            "it for a misprint (the same page prints 2x3x5 as 2x3x10)."
            if mismatches
            else ""
        ),
        columns=list(rows[0]),
        rows=rows,
        comparison=rows,
        plot=plot,
    )
