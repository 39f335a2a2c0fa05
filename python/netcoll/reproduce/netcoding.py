"""Reproductions of the network-coding paper (seed 000) from HNC's exact closed forms."""

from __future__ import annotations

from pathlib import Path

from ..hnc import compare, groups
from .numbers import compared
from .outcome import Outcome
from .plots import series_panels

# The paper's stated configuration is 32-node groups, 8x4 (s4.3; s5.5, s6.5); `auto`, our
# choice, searches every shape for the fewest hops (larger groups as the mesh grows).
SETTINGS = {"8x4 groups (paper)": ["group=8x4"], "best group (auto)": []}


def _radices(quick: bool) -> list[int]:
    return [8, 16, 32, 64] if quick else [8, 16, 32, 64, 128, 256]


def _sweep(quick: bool, family: str = "mesh") -> list[dict]:
    rows = []
    for k in _radices(quick):
        for label, params in SETTINGS.items():
            c = compare(f"{family}:{k}x{k}", params)
            rows.append(
                {
                    "k": k,
                    "nodes": k * k,
                    "setting": label,
                    "tree": c["tree"]["aggregate_hops"],
                    "hnc_tree": c["hnc_tree"]["aggregate_hops"],
                    "all_at_once": c["all_at_once"]["aggregate_hops"],
                    "hnc_all_at_once": c["hnc_all_at_once"]["aggregate_hops"],
                    "group": c["hnc_tree"].get("group"),
                    "group_all_at_once": c["hnc_all_at_once"].get("group"),
                    "tree_packet_hops": c["tree"]["packet_hops"],
                    "hnc_tree_packet_hops": c["hnc_tree"]["packet_hops"],
                    "reduction_tree": round(c["reduction_tree"], 4),
                    "packet_reduction_tree": round(
                        1 - c["hnc_tree"]["packet_hops"] / c["tree"]["packet_hops"], 4
                    ),
                    "ratio_all_at_once": round(c["ratio_all_at_once"], 2),
                }
            )
    return rows


def _plot(rows, keys, title, ylabel="aggregate hops"):
    def plot(png: Path):
        series = []
        for key, name in keys:
            for label in SETTINGS:
                pts = [r for r in rows if r["setting"] == label]
                if key in ("tree", "all_at_once") and label != next(iter(SETTINGS)):
                    continue  # baselines do not depend on the grouping
                tag = name if key in ("tree", "all_at_once") else f"{name}, {label}"
                series.append(
                    (tag, [r["nodes"] for r in pts], [r[key] for r in pts], {"marker": "o"})
                )
        return series_panels(png, title, [("", ylabel, series)], "nodes (k-ary 2-mesh)", logy=True)

    return plot


def _row(rows, k, setting):
    return next(r for r in rows if r["k"] == k and r["setting"] == setting)


def fig5(quick: bool) -> Outcome:
    rows = _sweep(quick)
    paper, best = "8x4 groups (paper)", "best group (auto)"
    r32p, r32b = _row(rows, 32, paper), _row(rows, 32, best)
    r64p, r64b = _row(rows, 64, paper), _row(rows, 64, best)
    comparison = [
        {
            "figure": "Fig. 2 / s1: tree baseline, 32-ary 2-mesh",
            "paper": "2.7 million",
            "netcoll": f"{r32p['tree']:,}",
        },
        {
            "figure": "Fig. 2 / s1: HNC, 32-ary 2-mesh",
            "paper": "0.67 million (75% fewer)",
            "netcoll": f"{r32p['hnc_tree']:,} with 8x4 ({100 * r32p['reduction_tree']:.1f}% "
            f"fewer); {r32b['hnc_tree']:,} with {r32b['group']} "
            f"({100 * r32b['reduction_tree']:.1f}%)",
        },
        {
            "figure": "Fig. 5: reduction at 4,096 nodes (64-ary)",
            "paper": "94%",
            "netcoll": f"{100 * r64p['reduction_tree']:.1f}% with 8x4; "
            f"{100 * r64b['reduction_tree']:.1f}% with {r64b['group']}",
        },
    ]
    exact = r32p["tree"] == 2_703_360
    big_groups = (
        "our auto shape grows the groups with the mesh (fewer groups, so fewer long step (f) "
        "unicasts); the paper states 32-node groups"
    )
    numbers = [
        compared("tree-based hops, 32-ary (s1: 2.7 million)", 2.7e6, r32p["tree"], "", 5e4),
        compared(
            "HNC hops, 32-ary, 8x4 groups (s1: 0.67 million)",
            6.7e5,
            r32p["hnc_tree"],
            "The paper does not say how it counts a coded message (one unicast per tree edge "
            "here, whatever its M-1 blocks) nor which receiver step (f) uses; with "
            "receiver=intermediate HNC needs fewer hops than printed, with the corresponding "
            "receiver (Fig. 3's example, our default) more.",
            5e3,
        ),
        compared("HNC hops saved, 32-ary, 8x4 groups (s1: 75%)", 0.75, r32p["reduction_tree"]),
        compared(
            f"HNC hops saved, 32-ary, auto shape {r32b['group']} (s1: 75%)",
            0.75,
            r32b["reduction_tree"],
            big_groups + ": we save more than the paper by our choice of shape.",
        ),
        compared(
            "HNC hops saved, 64-ary, 8x4 groups (s1, s4.2: 94%)",
            0.94,
            r64p["reduction_tree"],
            "With 8x4 groups the 64-ary mesh has 128 groups and step (f)'s N(G-1) long "
            "unicasts dominate; the paper's 94% needs larger groups at that size, so it did "
            "not use 8x4 there (it says it uses the best group size, and names 8x4 only for "
            "32 nodes).",
        ),
        compared(
            f"HNC hops saved, 64-ary, auto shape {r64b['group']} (s1, s4.2: 94%)",
            0.94,
            r64b["reduction_tree"],
        ),
    ]
    return Outcome(
        status="approximates",
        summary=(
            "The tree-based baseline matches exactly (2,703,360 hops at 32-ary)"
            if exact
            else "The tree-based baseline does NOT match"
        )
        + "; HNC's savings are within a few points of the paper's 75% and 94% (the paper "
        "does not say how it counts encoded packets or which receiver step (f) uses; "
        "docs/hnc.md).",
        columns=list(rows[0]),
        rows=rows,
        comparison=comparison,
        numbers=numbers,
        plot=_plot(
            rows,
            [("tree", "tree-based"), ("hnc_tree", "HNC")],
            "Figs. 2 and 5: tree-based multicast against HNC",
        ),
    )


def fig6(quick: bool) -> Outcome:
    all_shapes = groups("mesh:16x16")
    best_per_size: dict[int, dict] = {}
    for f in all_shapes:
        size = f["group_size"]
        if size not in best_per_size or f["aggregate_hops"] < best_per_size[size]["aggregate_hops"]:
            best_per_size[size] = f
    rows = [
        {"group_size": s, "group": f["group"], "aggregate_hops": f["aggregate_hops"]}
        for s, f in sorted(best_per_size.items())
    ]
    best = min(rows, key=lambda r: r["aggregate_hops"])

    def plot(png: Path):
        return series_panels(
            png,
            "Fig. 6: HNC hops by group size, 16-ary 2-mesh (best shape per size)",
            [
                (
                    "",
                    "aggregate hops",
                    [
                        (
                            "HNC (tree base)",
                            [r["group_size"] for r in rows],
                            [r["aggregate_hops"] for r in rows],
                            {"marker": "o"},
                        )
                    ],
                )
            ],
            "group size (nodes)",
        )

    return Outcome(
        status="matches" if best["group_size"] == 32 else "approximates",
        summary=f"The best group size is {best['group_size']} nodes (shape {best['group']}), "
        "as the paper finds (32). The paper recommends 8x4 among 32-node shapes by the longest "
        "intra-group path; by aggregate hops 16x2 is lower.",
        columns=list(rows[0]),
        rows=rows,
        comparison=[
            {
                "quantity": "best group size, 16-ary 2-mesh",
                "paper": 32,
                "netcoll": best["group_size"],
            }
        ],
        plot=plot,
    )


def fig8(quick: bool) -> Outcome:
    rows = _sweep(quick)
    last = max(r["k"] for r in rows)
    rp, rb = _row(rows, last, "8x4 groups (paper)"), _row(rows, last, "best group (auto)")
    numbers = (
        [
            compared(
                "all-at-once / HNC hops, 256-ary, 8x4 groups (s4.4: 32x)",
                32,
                rp["ratio_all_at_once"],
            ),
            compared(
                f"all-at-once / HNC hops, 256-ary, auto shape {rb['group_all_at_once']} "
                "(s4.4: 32x)",
                32,
                rb["ratio_all_at_once"],
                "Our auto shape (larger groups, fewer groups) saves far more than the paper's "
                "32-node groups: our choice of shape, not the paper's configuration.",
            ),
        ]
        if last == 256
        else []
    )
    return Outcome(
        status="approximates",
        summary="All-at-once multicast against HNC with an all-at-once base. The paper: 32x "
        "fewer hops at the 256-ary 2-mesh; netcoll: about 30x with its 32-node groups, "
        "hundreds of times with the best group (quick mode stops at 64-ary).",
        columns=list(rows[0]),
        rows=rows,
        numbers=numbers,
        comparison=[
            {
                "quantity": f"all-at-once / HNC at {last}-ary",
                "paper": "32x (256-ary)",
                "netcoll": f"{rp['ratio_all_at_once']}x (8x4), "
                f"{rb['ratio_all_at_once']}x ({rb['group']})",
            }
        ],
        plot=_plot(
            rows,
            [("all_at_once", "all-at-once"), ("hnc_all_at_once", "HNC")],
            "Fig. 8: all-at-once multicast against HNC",
        ),
    )


def fig9(quick: bool) -> Outcome:
    rows = _sweep(quick, "torus")

    def plot(png: Path):
        series = []
        for label in SETTINGS:
            pts = [r for r in rows if r["setting"] == label]
            series.append(
                (
                    label,
                    [r["nodes"] for r in pts],
                    [r["ratio_all_at_once"] for r in pts],
                    {"marker": "o"},
                )
            )
        return series_panels(
            png,
            "Fig. 9: all-at-once / HNC hop ratio on k-ary 2-tori",
            [("", "hop ratio", series)],
            "nodes (k-ary 2-torus)",
        )

    return Outcome(
        status="approximates",
        summary="Hop ratios of all-at-once multicast to HNC (all-at-once base) on 2-tori; the "
        "figure's data are not printed, the paper says the gain is like that on meshes, which "
        "holds (compare netcoding-fig8).",
        columns=list(rows[0]),
        rows=rows,
        plot=plot,
    )
