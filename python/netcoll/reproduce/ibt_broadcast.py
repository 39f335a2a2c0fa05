"""Seed 004's 2-D broadcast reproductions on the step engine: Table 1 (T_x, T_xy), Figs. 1, 2
(line broadcast vs bypass scheme and N) and Figs. 9, 10 (rectangular broadcast)."""

from __future__ import annotations

from pathlib import Path

from .ibt_steps import (
    FAVOURABLE,
    FIT_RANGE,
    RECT_RESTRICTED,
    K,
    fit,
    grid_plot,
    ibt_spec,
    run_jobs,
    search_params,
    valid_ibt,
)
from .outcome import Outcome
from .plots import series_panels

# Table 1: b -> (T_x s=0, T_x s=1, T_xy s=0, T_xy s=1).
TABLE_1 = {"6": (23, 23, 28, 28), "14": (24, 23, 27, 27), "4,16": (23, 32, 27, 27)}
TABLE_1["8,24"] = (22, 22, 25, 26)
FORWARDS = ("order", "fifo")
SCHEMES_N = ["8", "16", "24", "8,16", "8,24", "8,32"]  # Figs. 2, 3, 10: <b1>, <8,b1>


def _fwd(forward: str) -> tuple[str, ...]:
    return () if forward == "order" else (f"forward={forward}",)


# ---------------------------------------------------------------- Table 1


def table1_broadcast(quick: bool) -> Outcome:
    jobs, keys = [], []
    for b in TABLE_1:
        for s in (0, 1):
            for fw in FORWARDS:
                rect = search_params("T_xy", 4096, quick, fw)
                jobs += [
                    (ibt_spec(64, 2, b), "line", s, ("patterns=0-7", *_fwd(fw))),
                    (ibt_spec(64, 2, b), "rect", s, rect),
                ]
                keys += [(b, s, fw, "T_x"), (b, s, fw, "T_xy")]
    got = dict(zip(keys, run_jobs(jobs, quick, "Table 1")))
    rows, comparison, exact = [], [], {}
    for b, paper in TABLE_1.items():
        for s in (0, 1):
            row = {"b": f"<{b}>", "s": s, "paper_T_x": paper[s], "paper_T_xy": paper[2 + s]}
            for fw in FORWARDS:
                for metric in ("T_x", "T_xy"):
                    r = got[(b, s, fw, metric)]
                    row[f"{metric}_{fw}"] = r["steps"]
                    row[f"{metric}_{fw}_pattern"] = r["pattern"]
                    want = row[f"paper_{metric}"]
                    exact[(metric, fw)] = exact.get((metric, fw), 0) + (r["steps"] == want)
            row["T_xy_order_split"] = got[(b, s, "order", "T_xy")]["split"]
            row["T_xy_fifo_split"] = got[(b, s, "fifo", "T_xy")]["split"]
            rows.append(row)
            comparison.append(
                {
                    "b": f"<{b}>",
                    "s": s,
                    "paper T_x": paper[s],
                    "T_x order": row["T_x_order"],
                    "T_x fifo": row["T_x_fifo"],
                    "paper T_xy": paper[2 + s],
                    "T_xy fifo": row["T_xy_fifo"],
                    "T_xy order": row["T_xy_order"],
                }
            )
    cells = ", ".join(
        f"{m} `{fw}` {exact[(m, fw)]} of 8" for m in ("T_x", "T_xy") for fw in FORWARDS
    )
    search = (
        f"T_xy searched with the restricted {' '.join(RECT_RESTRICTED)} (quick mode)"
        if quick
        else "T_xy searched over the pattern pairs in {1,3,5,7} and |k1 - k2| <= 4"
    )

    def plot(png: Path):
        labels = [f"{r['b']}\ns={r['s']}" for r in rows]
        panels = []
        for metric in ("T_x", "T_xy"):
            series = [
                (
                    "paper",
                    labels,
                    [r[f"paper_{metric}"] for r in rows],
                    {"marker": "x", "ls": "none", "ms": 11, "color": "black"},
                ),
                ("forward=order", labels, [r[f"{metric}_order"] for r in rows], {"marker": "o"}),
                ("forward=fifo", labels, [r[f"{metric}_fifo"] for r in rows], {"marker": "s"}),
            ]
            panels.append((f"{metric}, k = {K}", "steps", series))
        files = series_panels(
            png, "Table 1: iBT(64^2; b) broadcasts, paper vs netcoll", panels, "b, source", False
        )
        return files

    return Outcome(
        status="approximates",
        summary=f"T_x (line, minimum over Int(pn) 0..7) and T_xy (rectangular; {search}) of "
        f"iBT(64^2; b), k = {K}, sources s = 0 and 1, under both readings of the unstated "
        f"forwarding rule. Exact cells: {cells}. Our minus the paper's steps: "
        f"{_ranges(rows)}. `order` means every link keeps its port's packet-sending order, "
        "`fifo` that only the source follows the pattern (docs/ibt-broadcast.md). The paper's "
        "<4,16> s=1 T_x of 32 stands out of its own row (s=1 is otherwise within one step of "
        "s=0).",
        columns=list(rows[0]),
        rows=rows,
        comparison=comparison,
        plot=plot,
    )


def _ranges(rows: list[dict]) -> str:
    parts = []
    for metric in ("T_x", "T_xy"):
        for fw in FORWARDS:
            diffs = [r[f"{metric}_{fw}"] - r[f"paper_{metric}"] for r in rows]
            parts.append(f"{metric} `{fw}` {min(diffs):+d}..{max(diffs):+d}")
    return ", ".join(parts)


# ---------------------------------------------------------------- Fig. 1

FIG1_FAMILIES = {
    "uniform <b1>": [(str(b1), b1) for b1 in range(2, 33, 2)],
    "hybrid <4,b1>": [(f"4,{b1}", b1) for b1 in range(8, 33, 4)],
}


def fig1(quick: bool) -> Outcome:
    # A line search on 64^2 costs milliseconds: quick mode runs the full figure too.
    jobs, keys = [], []
    for family, schemes in FIG1_FAMILIES.items():
        for b, b1 in schemes:
            for s in (0, 1):
                for fw in FORWARDS:
                    jobs.append((ibt_spec(64, 2, b), "line", s, ("patterns=0-7", *_fwd(fw))))
                    keys.append((family, b, b1, s, fw))
    rows = []
    for (family, b, b1, s, fw), r in zip(keys, run_jobs(jobs, quick, "Fig. 1")):
        for patterns, steps in r["tried"]:
            rows.append(
                {
                    "family": family,
                    "b": f"<{b}>",
                    "b1": b1,
                    "s": s,
                    "forward": fw,
                    "pattern": patterns[0],
                    "T_x": steps,
                }
            )
    comparison = _fig1_claims(rows)

    def plot(png: Path):
        panels = []
        for family in FIG1_FAMILIES:
            for s in (0, 1):
                series = []
                for p in range(8):
                    pts = [
                        r
                        for r in rows
                        if r["family"] == family
                        and r["s"] == s
                        and r["forward"] == "order"
                        and r["pattern"] == p
                    ]
                    style = {"marker": "o" if p % 2 else "x", "ms": 4, "ls": "-" if p % 2 else ":"}
                    series.append(
                        (f"Int(pn)={p}", [r["b1"] for r in pts], [r["T_x"] for r in pts], style)
                    )
                panels.append((f"{family}, s = {s}", "T_x (steps)", series))
        return grid_plot(
            png,
            f"Fig. 1: T_x(iBT(64^2; b), s) vs b1, k = {K}, forward=order "
            "(odd patterns solid, even dotted)",
            panels,
            "b1 (longest bypass)",
            logx=False,
        )

    return Outcome(
        status="approximates",
        summary="T_x of iBT(64^2; b) for every Int(pn) in 0..7, uniform <b1> (b1 = 2..32) and "
        "hybrid <4,b1> (b1 = 8..32), sources 0 and 1, both forwarding rules (the plot shows "
        "`order`; the CSV has both). The figure's data are not printed; the comparison checks "
        "its printed statements and Table 1's minima. b1 > 32 is not drawn: a bypass of length "
        "L and one of 64 - L give the same network.",
        columns=["family", "b", "b1", "s", "forward", "pattern", "T_x"],
        rows=rows,
        comparison=comparison,
        plot=plot,
    )


def _fig1_claims(rows: list[dict]) -> list[dict]:
    def best(b, s, fw, parity=None):
        vals = [
            r["T_x"]
            for r in rows
            if r["b"] == b
            and r["s"] == s
            and r["forward"] == fw
            and (parity is None or r["pattern"] % 2 == parity)
        ]
        return min(vals)

    out = []
    for b in ("6", "14", "4,16"):
        paper = TABLE_1[b]
        out.append(
            {
                "statement": f"Table 1: T_x(<{b}>) is Fig. 1's minimum (s=0 / s=1)",
                "paper": f"{paper[0]} / {paper[1]}",
                "netcoll order": f"{best(f'<{b}>', 0, 'order')} / {best(f'<{b}>', 1, 'order')}",
                "netcoll fifo": f"{best(f'<{b}>', 0, 'fifo')} / {best(f'<{b}>', 1, 'fifo')}",
            }
        )
    cases = sorted({(r["b"], r["s"]) for r in rows})
    odd = {fw: sum(best(b, s, fw, 1) <= best(b, s, fw, 0) for b, s in cases) for fw in FORWARDS}
    out.append(
        {
            "statement": "s4.3: Int(pn) in {1,3,5,7} are more favourable",
            "paper": "yes",
            "netcoll order": f"an odd pattern is best in {odd['order']} of {len(cases)} cases",
            "netcoll fifo": f"an odd pattern is best in {odd['fifo']} of {len(cases)} cases",
        }
    )
    bs = sorted({b for b, _ in cases})
    faster = {}
    for fw in FORWARDS:
        lo = sum(best(b, 0, fw) < best(b, 1, fw) for b in bs)
        eq = sum(best(b, 0, fw) == best(b, 1, fw) for b in bs)
        faster[fw] = (
            f"s=0 faster for {lo}, equal for {eq}, slower for {len(bs) - lo - eq} of {len(bs)} b"
        )
    out.append(
        {
            "statement": "s4.3: node 0 finishes sooner than node 1 (its bypass is in the line)",
            "paper": "yes",
            "netcoll order": faster["order"],
            "netcoll fifo": faster["fifo"],
        }
    )
    uni = [(b1, best(f"<{b1}>", 0, "order")) for b1 in range(2, 33, 2)]
    lo = min(t for _, t in uni)
    out.append(
        {
            "statement": "s4.3: too short or too long bypasses broadcast slower (uniform, s=0)",
            "paper": "yes",
            "netcoll order": f"b1=2: {uni[0][1]}, best {lo} at b1 in "
            f"{[b1 for b1, t in uni if t == lo]}, b1=32: {uni[-1][1]}",
            "netcoll fifo": "",
        }
    )
    return out


# ---------------------------------------------------------------- Fig. 2


def fig2(quick: bool) -> Outcome:
    radices = [48, 64, 96] if quick else [48, 64, 80, 96, 128, 160, 192, 224, 256]
    jobs, keys = [], []
    for b in SCHEMES_N:
        for n in radices:
            if not valid_ibt(n, 2, b):
                continue
            for s in (0, 1):
                for fw in FORWARDS:
                    jobs.append(
                        (ibt_spec(n, 2, b), "line", s, search_params("T_x", n * n, quick, fw))
                    )
                    keys.append((b, n, s, fw))
    got = dict(zip(keys, run_jobs(jobs, quick, "Fig. 2")))
    rows = []
    for (b, n, s, fw), r in got.items():
        if fw == "order":
            rows.append(
                {
                    "b": f"<{b}>",
                    "n": n,
                    "N": n * n,
                    "s": s,
                    "T_x": r["steps"],
                    "pattern": r["pattern"],
                    "T_x_fifo": got[(b, n, s, "fifo")]["steps"],
                    "fit": _round(fit("T_x", 2, b, n * n)),
                }
            )
    comparison = _fit_comparison(rows, "T_x", 2, ("8", "8,32"), extra={"s": 0})
    for n in (radices[0], radices[-1]):
        diffs = [
            got[(b, n, 0, "order")]["steps"] - got[(b, n, 1, "order")]["steps"]
            for b in SCHEMES_N
            if (b, n, 0, "order") in got
        ]
        comparison.append(
            {
                "b": "all six",
                "N": n * n,
                "netcoll": f"T_x(s=0) - T_x(s=1) = {diffs}",
                "paper fit": "s4.3: the s=0 advantage becomes negligible from 2K to 65K",
            }
        )

    def plot(png: Path):
        panels = []
        for s in (0, 1):
            series = _scheme_series(rows, "T_x", SCHEMES_N, lambda r, s=s: r["s"] == s)
            series += _fit_series("T_x", 2, ("8", "8,32"), [n * n for n in radices])
            panels.append((f"({'ab'[s]}) s = {s}", "T_x (steps)", series))
        return grid_plot(
            png,
            f"Fig. 2: T_x(iBT(n^2; b), s) vs N, k = {K}, Int(pn) in {{{FAVOURABLE}}}, "
            "forward=order; Table 2 fits dashed",
            panels,
            "N (nodes, log2)",
        )

    return Outcome(
        status="approximates",
        summary=f"T_x of iBT(n^2; b) for N = {radices[0] ** 2:,}..{radices[-1] ** 2:,}, "
        "sources 0 and 1, the six schemes of Fig. 3, patterns {1,3,5,7}, forward=order "
        "(fifo in the CSV). The figure's data are not printed; compared with Table 2's T_x fits "
        "for <8> and <8,32> (s=0).",
        columns=list(rows[0]),
        rows=rows,
        comparison=comparison,
        plot=plot,
    )


# ---------------------------------------------------------------- Figs. 9, 10

FIG9_FAMILIES = {
    "<b1>": [str(b1) for b1 in range(2, 33, 2)],
    "<4,b1>": [f"4,{b1}" for b1 in range(8, 33, 4)],
    "<8,b1>": [f"8,{b1}" for b1 in range(12, 33, 4)],
    "<16,b1>": [f"16,{b1}" for b1 in range(20, 33, 4)],
}
FIG9_QUICK = {"<b1>": [2, 6, 10, 14, 22, 32], "<4,b1>": [8, 16, 32], "<8,b1>": [16, 24, 32]}
FIG9_QUICK["<16,b1>"] = [24, 32]


def fig9(quick: bool) -> Outcome:
    families = {
        fam: [b for b in schemes if not quick or int(b.split(",")[-1]) in FIG9_QUICK[fam]]
        for fam, schemes in FIG9_FAMILIES.items()
    }
    jobs, keys = [], []
    for fam, schemes in families.items():
        for b in schemes:
            for fw in FORWARDS:
                jobs.append((ibt_spec(64, 2, b), "rect", 0, search_params("T_xy", 4096, quick, fw)))
                keys.append((fam, b, fw))
    got = dict(zip(keys, run_jobs(jobs, quick, "Fig. 9")))
    rows = [
        {
            "family": fam,
            "b": f"<{b}>",
            "b1": int(b.split(",")[-1]),
            "T_xy": got[(fam, b, "order")]["steps"],
            "T_xy_fifo": got[(fam, b, "fifo")]["steps"],
            "pattern": str(got[(fam, b, "order")]["pattern"]),
            "split": got[(fam, b, "order")]["split"],
        }
        for fam, b, fw in keys
        if fw == "order"
    ]
    comparison = []
    for col, fw in (("T_xy", "order"), ("T_xy_fifo", "fifo")):
        lo = min(r[col] for r in rows)
        six = next(r[col] for r in rows if r["b"] == "<6>")
        fastest = [r["b"] for r in rows if r[col] == lo]
        comparison.append(
            {
                "statement": "s5.3: <6> is one of the fastest 4K-node iBTs, with the shortest "
                "bypass",
                "forward": fw,
                "paper": "T_xy(<6>) = 28 (Table 1)",
                "netcoll": f"<6>: {six}; fastest {lo} at {', '.join(fastest[:6])}"
                + (" ..." if len(fastest) > 6 else ""),
            }
        )

    def plot(png: Path):
        panels = []
        for col, fw in (("T_xy", "order"), ("T_xy_fifo", "fifo")):
            series = []
            for fam in families:
                pts = [r for r in rows if r["family"] == fam]
                series.append((fam, [r["b1"] for r in pts], [r[col] for r in pts], {"marker": "o"}))
            panels.append((f"forward={fw}", "T_xy (steps)", series))
        return grid_plot(
            png,
            f"Fig. 9: T_xy(iBT(64^2; b), 0) vs b1, k = {K}",
            panels,
            "b1 (longest bypass)",
            logx=False,
        )

    return Outcome(
        status="approximates",
        summary=f"Rectangular broadcast time of iBT(64^2; b) from node 0 for uniform <b1> and "
        f"hybrid <b0,b1>, b0 in {{4, 8, 16}}, both forwarding rules ({_search_note(quick)}). "
        "The figure's data are not printed; we check its one statement and Table 1's <6> value.",
        columns=list(rows[0]),
        rows=rows,
        comparison=comparison,
        plot=plot,
    )


FIG10_FIFO = "8,32"


def fig10(quick: bool) -> Outcome:
    radices = [48, 64] if quick else [48, 64, 96, 128, 256]
    jobs, keys = [], []
    for b in SCHEMES_N:
        for n in radices:
            if valid_ibt(n, 2, b):
                jobs.append((ibt_spec(n, 2, b), "rect", 0, search_params("T_xy", n * n, quick)))
                keys.append((b, n))
    # The fitted scheme also under forward=fifo, the reading closer to Table 1's T_xy.
    for n in radices:
        fifo = search_params("T_xy", n * n, quick, "fifo")
        jobs.append((ibt_spec(n, 2, FIG10_FIFO), "rect", 0, fifo))
        keys.append(("fifo", n))
    got = dict(zip(keys, run_jobs(jobs, quick, "Fig. 10")))
    rows = [
        {
            "b": f"<{b}>",
            "n": n,
            "N": n * n,
            "T_xy": r["steps"],
            "pattern": str(r["pattern"]),
            "split": r["split"],
            "T_xy_fifo": got[("fifo", n)]["steps"] if b == FIG10_FIFO else "",
            "fit": _round(fit("T_xy", 2, b, n * n)),
        }
        for (b, n), r in got.items()
        if b != "fifo"
    ]
    comparison = _fit_comparison(rows, "T_xy", 2, ("8,32",))
    for n in radices:
        here = [r for r in rows if r["n"] == n]
        lo = min(r["T_xy"] for r in here)
        comparison.append(
            {
                "b": "fastest",
                "N": n * n,
                "netcoll": f"{lo} at {', '.join(r['b'] for r in here if r['T_xy'] == lo)}; "
                f"<24>: {next(r['T_xy'] for r in here if r['b'] == '<24>')}",
                "paper fit": "s5.2: lowest at <8,32>; <24> inferior",
            }
        )

    def plot(png: Path):
        series = _scheme_series(rows, "T_xy", SCHEMES_N, lambda r: True)
        fifo = [r for r in rows if r["T_xy_fifo"] != ""]
        series.append(
            (
                f"<{FIG10_FIFO}> forward=fifo",
                [r["N"] for r in fifo],
                [r["T_xy_fifo"] for r in fifo],
                {"marker": "s", "ls": ":", "color": "C5"},
            )
        )
        series += _fit_series("T_xy", 2, ("8,32",), [n * n for n in radices])
        return grid_plot(
            png,
            f"Fig. 10: T_xy(iBT(n^2; b), 0) vs N, k = {K}; fit (7.1) dashed",
            [("rectangular broadcast from node 0", "T_xy (steps)", series)],
            "N (nodes, log2)",
            ncols=1,
        )

    return Outcome(
        status="approximates",
        summary=f"T_xy of iBT(n^2; b) from node 0 for N = {radices[0] ** 2:,}..."
        f"{radices[-1] ** 2:,}, forward=order ({_search_note(quick)}); <8,32> also with "
        "forward=fifo. The figure's data are not printed; compared with the paper's fit (7.1) "
        "for <8,32> and its two statements.",
        columns=list(rows[0]),
        rows=rows,
        comparison=comparison,
        plot=plot,
    )


# ---------------------------------------------------------------- helpers shared with ibt_dims


def _search_note(quick: bool) -> str:
    if quick:
        return "quick mode: patterns {1,3} per colour and k1 = k2 = 16"
    return "patterns {1,3,5,7} per colour and |k1 - k2| <= 4 searched up to 70K nodes"


def _round(x):
    return "" if x is None else round(x, 2)


#: Per scheme a marker of its own, largest first: schemes that take the same number of steps
#: at the same N (common on iBT) stay visible as nested markers instead of hiding each other.
SCHEME_MARKERS = (("o", 10), ("s", 7), ("^", 5), ("D", 4), ("v", 4), ("P", 4))


def _scheme_series(rows, col, schemes, keep):
    series = []
    for i, b in enumerate(schemes):
        pts = [r for r in rows if r["b"] == f"<{b}>" and keep(r)]
        marker, size = SCHEME_MARKERS[i % len(SCHEME_MARKERS)]
        style = {"marker": marker, "ms": size, "mfc": "none", "mew": 1.5}
        if pts:
            series.append((f"<{b}>", [r["N"] for r in pts], [r[col] for r in pts], style))
    return series


def _fit_series(metric, d, schemes, xs):
    styles = ({"ls": "--", "color": "black"}, {"ls": "-.", "color": "grey"})
    return [
        (f"fit <{b}>", xs, [fit(metric, d, b, x) for x in xs], {**styles[i % 2], "lw": 1})
        for i, b in enumerate(schemes)
    ]


def _fit_comparison(rows, metric, d, schemes, extra=None) -> list[dict]:
    """Our value beside the paper's fit at every N of the fitted range (2K-70K nodes)."""
    out = []
    for b in schemes:
        for r in rows:
            if r["b"] != f"<{b}>" or not FIT_RANGE[0] <= r["N"] <= FIT_RANGE[1]:
                continue
            if r.get("d", 2) != d or (extra and any(r.get(k) != v for k, v in extra.items())):
                continue
            f = fit(metric, d, b, r["N"])
            if f is None:
                continue
            row = {
                "b": f"<{b}>",
                "N": r["N"],
                "paper fit": f"{f:.1f}",
                "netcoll": f"{r[metric]} ({100 * (r[metric] - f) / f:+.0f}%)",
            }
            fifo = r.get(f"{metric}_fifo", "")
            if fifo != "":
                row["netcoll fifo"] = f"{fifo} ({100 * (fifo - f) / f:+.0f}%)"
            out.append(row)
    return out
