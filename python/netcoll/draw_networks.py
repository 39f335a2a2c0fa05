"""Pictures of the network families by their structure.

- Fat-tree: one row per level (top level on top), routers coloured by pod (the routers whose
  positions share a block of k^(levels-2), the subtrees below the top level), endpoints
  counted under the leaves.
- Dragonfly: the groups on a circle, each group's routers on a short arc; local links thin
  grey, global links coloured by the group they leave from.
- Flattened butterfly and HyperX: routers at their first two coordinates (further
  dimensions as panels side by side); the links of one line of a dimension drawn as arcs.
"""

from __future__ import annotations

import math

from ._core import Topology


def draw_family(t: Topology, plt, family: str):
    if family == "fattree":
        return _fattree(t, plt)
    if family == "dragonfly":
        return _dragonfly(t, plt)
    return _hamming(t, plt)


def _palette(n: int):
    import matplotlib

    cmap = matplotlib.colormaps["tab10" if n <= 10 else "tab20"]
    return [cmap(i % cmap.N) for i in range(max(n, 1))]


def _hosts(t: Topology) -> list[int]:
    hosts = [0] * t.num_switches
    for s, _ in t.endpoints():
        hosts[s] += 1
    return hosts


def _fattree(t: Topology, plt):
    p = t.family
    k, levels = p["k"], p["levels"]
    per = k ** (levels - 1)
    pod = max(per // k, 1)  # routers of a pod per level: the leaves one level-1 router spans
    colours = _palette(per // pod)
    fig, ax = plt.subplots(figsize=(2 + 0.45 * per, 1.5 + 1.3 * levels))
    pos = {s: ((s % per) - (per - 1) / 2, -(s // per) * 1.3) for s in range(t.num_switches)}
    for sa, _, sb, _ in t.links():
        (xa, ya), (xb, yb) = pos[sa], pos[sb]
        ax.plot([xa, xb], [ya, yb], color="#999999", lw=0.6, zorder=1)
    hosts = _hosts(t)
    for s, (x, y) in pos.items():
        ax.scatter([x], [y], s=160, color=colours[(s % per) // pod], edgecolor="black", zorder=3)
        if hosts[s]:
            ax.text(x, y - 0.42, f"{hosts[s]}h", ha="center", fontsize=6)
    for lv in range(levels):
        ax.text(-(per + 1) / 2 - 0.6, -lv * 1.3, f"level {lv}", va="center", fontsize=8)
    ax.set_title(
        f"{t.name}: {t.num_switches} routers in {levels} levels (top first), "
        f"{t.num_endpoints} endpoints, pods coloured",
        fontsize=9,
    )
    ax.axis("off")
    return fig


def _dragonfly(t: Topology, plt):
    p = t.family
    a, g = p["a"], p["g"]
    colours = _palette(g)
    fig, ax = plt.subplots(figsize=(7, 7))
    radius, arc = 4.0, min(2 * math.pi / g * 0.6, 0.9)
    pos = {}
    for s in range(t.num_switches):
        grp, r = divmod(s, a)
        angle = 2 * math.pi * grp / g + (r - (a - 1) / 2) * arc / max(a - 1, 1)
        pos[s] = (radius * math.cos(angle), radius * math.sin(angle))
    for (sa, _, sb, _), cls in zip(t.links(), t.link_classes()):
        (xa, ya), (xb, yb) = pos[sa], pos[sb]
        if cls == "global":
            ax.plot([xa, xb], [ya, yb], color=colours[sa // a], lw=0.7, alpha=0.8, zorder=1)
        else:
            mx, my = (xa + xb) / 2 * 1.12, (ya + yb) / 2 * 1.12
            ax.plot([xa, mx, xb], [ya, my, yb], color="#555555", lw=0.5, zorder=2)
    for s, (x, y) in pos.items():
        ax.scatter([x], [y], s=40, color=colours[s // a], edgecolor="black", zorder=3)
    for grp in range(g):
        angle = 2 * math.pi * grp / g
        ax.text(4.7 * math.cos(angle), 4.7 * math.sin(angle), f"G{grp}", ha="center", fontsize=8)
    ax.set_title(
        f"{t.name} ({p['arrangement']} arrangement): {g} groups of {a} routers, "
        f"{t.num_endpoints} endpoints; global links coloured by group, local grey",
        fontsize=9,
    )
    ax.set_aspect("equal")
    ax.axis("off")
    return fig


def _hamming(t: Topology, plt):
    shape = t.shape
    sx = shape[0]
    sy = shape[1] if len(shape) > 1 else 1
    panels = t.num_switches // (sx * sy)
    colours = _palette(len(shape))
    fig, ax = plt.subplots(figsize=(2 + 1.6 * sx * panels, 2 + 1.4 * sy))

    def where(s: int) -> tuple[float, float]:
        c = t.coords(s)
        panel = s // (sx * sy)
        return c[0] + panel * (sx + 1.5), (c[1] if len(c) > 1 else 0)

    drawn = set()
    for sa, _, sb, _ in t.links():
        if (sa, sb) in drawn:
            continue  # trunked links drawn once
        drawn.add((sa, sb))
        ca, cb = t.coords(sa), t.coords(sb)
        d = next(i for i in range(len(ca)) if ca[i] != cb[i])
        (xa, ya), (xb, yb) = where(sa), where(sb)
        gap = abs(ca[d] - cb[d])
        rad = 0.0 if gap == 1 else 0.25
        from matplotlib.patches import FancyArrowPatch

        ax.add_patch(
            FancyArrowPatch(
                (xa, ya),
                (xb, yb),
                connectionstyle=f"arc3,rad={rad}",
                color=colours[d],
                lw=0.8,
                arrowstyle="-",
                zorder=1,
            )
        )
    hosts = _hosts(t)
    for s in range(t.num_switches):
        x, y = where(s)
        ax.scatter([x], [y], s=220, color="white", edgecolor="black", zorder=3)
        ax.text(x, y, f"{s}\n{hosts[s]}h", ha="center", va="center", fontsize=6, zorder=4)
    ax.set_title(
        f"{t.name}: {t.num_switches} routers, each linked to every router in its row and "
        f"column (colour = dimension), {t.num_endpoints} endpoints",
        fontsize=9,
    )
    ax.set_aspect("equal")
    ax.axis("off")
    ax.margins(0.1)
    return fig
