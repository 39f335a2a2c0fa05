"""The readings of seed 000's execution-time measure, like for like, and the step (e)
variants on the flit engine.

s5.1 defines the measure as "the sum of the maximum latency of all sequential steps" and
says neither which latency (BookSim's packet latency includes the wait in the source queue,
its network latency does not) nor what a step is for the tree baseline. Every reading is
computed here on the paper's router (``netcoding_flit.PAPER``), with the SAME step
definition on both sides of every comparison (``steps=level``: every tree level a step, for
the tree and for HNC; ``steps=phase``: one step per phase, the whole tree exchange being one
phase):

- ``free``: free-running completion (no barrier, any VC): what a real run takes;
- ``network_level`` / ``network_phase``: the sum over steps of the maximum network latency;
- ``packet_level`` / ``packet_phase``: the same with packet latency;
- ``wall_level``: the wall clock with a barrier per (level) step;
- ``one_packet_*``: as above, but every message, a coded one of M-1 blocks included, is one
  1-flit packet (``whole_messages = 1`` and flits as wide as a group's blocks): the reading
  in which coding also shrinks the data, as s6.5's "the size of the combined packet in the
  hierarchical network coding is the same as the size of the incoming packets" suggests.

``python -m netcoll.reproduce.netcoding_readings readings 4 8 16 32`` and
``... step-e 8 16`` print the tables of docs/hnc.md.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path

from .._core import Topology, build_schedule, simulate_schedule
from .netcoding_flit import FREE, OP, PAPER, _progress
from .numbers import compared
from .outcome import Outcome
from .plots import pyplot, save

#: Reading key -> what it is.
READINGS = {
    "free": "free-running completion",
    "wall_level": "wall clock, barrier per level step",
    "network_level": "sum of step max network latency, level steps",
    "network_phase": "sum of step max network latency, phase steps",
    "packet_level": "sum of step max packet latency, level steps",
    "packet_phase": "sum of step max packet latency, phase steps",
    "one_packet_free": "coded message as one 1-flit packet, free-running",
    "one_packet_wall_level": "coded message as one 1-flit packet, wall clock, level steps",
    "one_packet_network_level": "coded message as one 1-flit packet, step max network "
    "latency, level steps",
}
#: The reading that reproduces Fig. 10's ~3x at the 32-ary mesh (docs/hnc.md): tree-based
#: better at 4-ary, HNC 2.6x faster at 16-ary and 3.8x (74% less time) at 32-ary.
FIG10_READING = "one_packet_wall_level"
METHODS = ("baseline", "hnc")


def paper_group(k: int) -> str:
    """The paper's 8x4 groups where they tile the k-ary 2-mesh, else s4.3's rule (compact)."""
    return "group=8x4" if k % 8 == 0 else "group=compact"


def _run(t: Topology, algo: str, params: list[str], keys: list[tuple[str, str]]) -> dict:
    s = build_schedule(OP, algo, t, nbytes=16, params=params)
    r = simulate_schedule(s, t, PAPER + keys)
    if r["deadlock"] or not r["verified"]:
        raise RuntimeError(f"{algo} {params} on {t.name}: deadlock or unverified")
    return r


def readings(k: int, algo: str, params: Iterable[str] = (), group_size: int = 1) -> dict:
    """Every reading of ``READINGS`` for one algorithm on the k-ary 2-mesh."""
    t = Topology(f"mesh:{k}x{k}")
    params = list(params)
    level = _run(t, algo, params + ["steps=level"], [])
    phase = _run(t, algo, params + ["steps=phase"], [])
    free = _run(t, algo, params, FREE)
    out = {
        "free": free["cycles"],
        "wall_level": level["cycles"],
        "network_level": level["sum_step_max_network_latency"],
        "network_phase": phase["sum_step_max_network_latency"],
        "packet_level": level["sum_step_max_packet_latency"],
        "packet_phase": phase["sum_step_max_packet_latency"],
    }
    if group_size > 1:  # every message one flit: flits as wide as a group's blocks
        wide = [("whole_messages", "1"), ("flit_bytes", str(16 * group_size))]
        one_level = _run(t, algo, params + ["steps=level"], wide)
        one_free = _run(t, algo, params, FREE + wide)
        out["one_packet_free"] = one_free["cycles"]
        out["one_packet_wall_level"] = one_level["cycles"]
        out["one_packet_network_level"] = one_level["sum_step_max_network_latency"]
    else:  # the baselines' messages are one block, one flit, already
        out["one_packet_free"] = out["free"]
        out["one_packet_wall_level"] = out["wall_level"]
        out["one_packet_network_level"] = out["network_level"]
    return out


def versus(k: int, base: str = "tree-multicast", extra: Iterable[str] = ()) -> list[dict]:
    """The baseline and HNC in the paper's configuration on the k-ary 2-mesh, every reading."""
    group = paper_group(k)
    from ..hnc import figure

    hnc_params = [group, *extra]
    size = figure(f"mesh:{k}x{k}", "hnc", hnc_params)["group_size"]
    rows = [{"k": k, "method": "baseline", "group": "", **readings(k, base)}]
    hnc = readings(k, "hnc", hnc_params, size)
    shape = figure(f"mesh:{k}x{k}", "hnc", hnc_params)["group"]
    rows.append({"k": k, "method": "hnc", "group": shape, **hnc})
    return rows


#: Why a reading does not give the paper's ratio (one paragraph per reading).
WHY = {
    "free": "A real run waits for the source queues. HNC saves hops, not injections, and "
    "piles them on the intermediates: under the paper's step (e) each one sends the other "
    "groups' (G-1)(M-1) coded blocks down a binomial tree, every block once per tree level "
    "(1,085 packets at 16-ary with 8x4 groups, against 255 per node for the whole tree "
    "exchange), so HNC finishes later than the tree at every size.",
    "wall_level": "With a barrier per step the intermediates' queues still set the time of "
    "every phase of HNC; the tree's levels are short and evenly loaded.",
    "network_level": "Network latency leaves the source queues out, and with a step per "
    "tree level on both sides HNC's many levels (b, d, e each run a tree) add up too: HNC "
    "wins, by less than 3x.",
    "network_phase": "With one step per phase on both sides the tree exchange is a single "
    "step whose maximum network latency is that of its most congested packet; HNC has four "
    "such steps. HNC wins by less than the paper's 3x.",
    "packet_level": "Packet latency includes the source queue: the intermediates' queues "
    "of step (e) dominate, as for the wall clock.",
    "packet_phase": "Packet latency includes the source queue: the intermediates' queues "
    "of step (e) dominate, as for the wall clock.",
    "one_packet_free": "Counting a coded message as one 1-flit packet removes the "
    "intermediates' queues, and free-running HNC then wins by more than the paper's 3x at "
    "32-ary (less at 16-ary): this reading gives HNC more than the paper's measure.",
    "one_packet_wall_level": "The reading named as the one that reproduces Fig. 10 (tree "
    "better at 4-ary, HNC ahead from 8-ary, 2.6x at 16-ary): the paper's 'three times' is a "
    "round figure, and its own conclusion says 'up to 70%' less time at 32-ary, which this "
    "reading gives within 10% (74%).",
    "one_packet_network_level": "Counting a coded message as one 1-flit packet and network "
    "latency per level step: HNC wins, by less than 3x.",
}


def _ratio_numbers(rows: list[dict], what: str, why: str | None = None) -> list:
    """Per reading, at the largest size: baseline / HNC beside the printed 3x (s5.2, s5.4),
    and HNC's time saved beside s7's "up to 70%"."""
    k = max(r["k"] for r in rows)
    b = next(r for r in rows if r["k"] == k and r["method"] == "baseline")
    h = next(r for r in rows if r["k"] == k and r["method"] == "hnc")
    out = []
    for key, label in READINGS.items():
        name = f"{what} / HNC ({h['group']}), {k}-ary 2-mesh, {label}"
        reason = why or WHY[key]
        out.append(compared(name + ": times faster", 3, round(b[key] / h[key], 3), reason))
        saved = round(1 - h[key] / b[key], 3)
        out.append(compared(name + ": time saved", 0.7, saved, reason))
    return out


def _plot(rows: list[dict], title: str, base: str):
    def plot(png: Path):
        plt = pyplot()
        fig, axes = plt.subplots(3, 3, figsize=(15, 12))
        for ax, (key, label) in zip(axes.flat, READINGS.items()):
            for m, name in (("baseline", base), ("hnc", "HNC (paper's groups)")):
                pts = [r for r in rows if r["method"] == m]
                ax.plot([r["k"] ** 2 for r in pts], [r[key] for r in pts], marker="o", label=name)
            ax.set_xscale("log")
            mark = " (reproduces Fig. 10)" if key == FIG10_READING else ""
            ax.set(title=label + mark, xlabel="nodes", ylabel="cycles")
            ax.title.set_fontsize(9)
            ax.grid(alpha=0.3)
            ax.legend(fontsize=8)
        fig.suptitle(title)
        fig.tight_layout()
        return save(fig, png)

    return plot


#: Why Fig. 12's all-at-once comparison gives the paper's 3x under no reading.
WHY_FIG12 = (
    "All-at-once sends every block from its source in one step; HNC with an all-at-once base "
    "replaces most of those unicasts by coded messages, but its intermediates unicast the "
    "(G-1)(M-1) coded blocks to each of their M-1 members. Under the readings that count "
    "source queues (free-running, wall clock, packet latency) HNC is slower; under network "
    "latency (3.8x at 32-ary) or with a coded message as one packet (10x) it wins by more "
    "than the paper's 3x. No reading gives 3x within 10%."
)


def _figure(
    quick: bool, base: str, base_name: str, extra: list[str], fig: str, why: str | None = None
) -> Outcome:
    ks = [4, 8] if quick else [4, 8, 16, 32]
    rows = []
    with _progress(len(ks), quick, fig) as tick:
        for k in ks:
            rows += versus(k, base, extra)
            tick()
    big = max(ks)
    b, h = (
        next(r for r in rows if r["k"] == big and r["method"] == m) for m in ("baseline", "hnc")
    )
    ratio = b[FIG10_READING] / h[FIG10_READING]
    numbers = _ratio_numbers(rows, base_name, why) if big == 32 else []
    small = next(r for r in rows if r["k"] == 4 and r["method"] == "hnc")
    small_b = next(r for r in rows if r["k"] == 4 and r["method"] == "baseline")
    trend = ratio > 1 and ratio > small_b[FIG10_READING] / small[FIG10_READING]
    status = "approximates" if trend and (quick or 2 <= ratio <= 4.5) else "differs"
    cells = "; ".join(
        f"{label}: {b[key]:,} / {h[key]:,} ({b[key] / h[key]:.2f}x)"
        for key, label in READINGS.items()
    )
    return Outcome(
        status=status,
        summary=f"{fig}: {base_name} against HNC in the paper's configuration (8x4 groups of "
        "32 nodes where they tile the mesh, s4.3's rule on the 4-ary), every reading of the "
        "paper's measure with the same step definition on both sides. The reading that "
        f"reproduces the paper's ~3x is '{READINGS[FIG10_READING]}': {ratio:.2f}x at "
        f"{big}-ary. Under the others: {cells}. Quick mode stops at 8-ary and does not judge "
        "the 32-ary ratio.",
        columns=list(rows[0]),
        rows=rows,
        comparison=[
            {
                "quantity": f"{base_name} / HNC at {big}-ary, every reading",
                "paper": "3x at 32-ary (s5.2, s5.4)",
                "netcoll": cells,
            }
        ],
        numbers=numbers,
        plot=_plot(rows, f"{fig}: {base_name} vs HNC (paper's groups), k-ary 2-mesh", base_name),
    )


def fig10(quick: bool) -> Outcome:
    return _figure(quick, "tree-multicast", "tree-based", [], "Fig. 10")


def fig12(quick: bool) -> Outcome:
    return _figure(quick, "all-at-once", "all-at-once", ["base=all-at-once"], "Fig. 12", WHY_FIG12)


#: The step (e) variants and the settings they are measured with.
STEP_E = ("tree", "scatter-allgather", "pipelined")


def step_e_table(ks: Iterable[int], groups: Iterable[str] = ("8x4", "auto")) -> list[dict]:
    """Every step (e) variant of HNC on the k-ary 2-meshes beside the tree baseline:
    free-running cycles, wall clock and step max network latency (level steps)."""
    rows = []
    for k in ks:
        t = Topology(f"mesh:{k}x{k}")
        tree_level = _run(t, "tree-multicast", [], [])
        tree_free = _run(t, "tree-multicast", [], FREE)
        rows.append(_e_row(k, "tree-based", "", tree_level, tree_free))
        for g in groups:
            for e in STEP_E:
                params = [f"group={g}", f"step_e={e}"]
                rows.append(
                    _e_row(k, g, e, _run(t, "hnc", params, []), _run(t, "hnc", params, FREE))
                )
    return rows


def _e_row(k, group, step_e, level, free) -> dict:
    return {
        "k": k,
        "group": group,
        "step_e": step_e,
        "free": free["cycles"],
        "wall_level": level["cycles"],
        "network_level": level["sum_step_max_network_latency"],
        "flit_hops": free["flit_hops"],
    }


def _print(rows: list[dict]) -> None:
    cols = list(rows[0])
    print("| " + " | ".join(cols) + " |")
    print("|" + "---|" * len(cols))
    for r in rows:
        cells = (f"{v:,}" if isinstance(v, int) else str(v) for v in r.values())
        print("| " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":  # python -m netcoll.reproduce.netcoding_readings readings 4 8 16 32
    what, ks = sys.argv[1], [int(a) for a in sys.argv[2:]]
    if what == "readings":
        _print([r for k in ks for r in versus(k)])
    else:
        _print(step_e_table(ks))
