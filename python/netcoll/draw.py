"""Pictures of small networks.

- Grids (mesh, torus, iBT up to 3-D): routers at their coordinates (3-D as slices side by
  side); torus wrap-around links as dashed grey arcs, iBT bypass links as arcs coloured by
  bypass length.
- Hypercubes: a Gray-code grid, links coloured by dimension.
- Irregular and file networks: switches by up*/down* level (root on top), every link an arrow
  pointing at its "up" end, BFS-tree links solid and the others dashed, hosts per switch in
  the label.
- Fat-trees, dragonflies, flattened butterflies and HyperX: by their structure
  (`draw_networks`): levels and pods, groups on a circle, rows and columns.
"""

from __future__ import annotations

from pathlib import Path

from ._core import NetcollError, Topology

MAX_DRAWN = 1024


def draw(t: Topology, path: Path, root: int | None = None) -> None:
    if t.num_switches > MAX_DRAWN:
        raise NetcollError(
            f"{t.name} has {t.num_switches} switches: too many to draw readably "
            f"(at most {MAX_DRAWN}); draw a smaller instance of the family"
        )
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    family = t.family["family"]
    if family in ("mesh", "torus", "ibt") and len(t.shape) <= 3:
        fig = _grid(t, plt)
    elif family == "hypercube":
        fig = _hypercube(t, plt)
    elif family in ("fattree", "dragonfly", "flatfly", "hyperx"):
        from .draw_networks import draw_family

        fig = draw_family(t, plt, family)
    else:
        fig = _updown(t, plt, root)
    path = Path(path)
    if path.parent and not path.parent.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=130, bbox_inches="tight")
    plt.close(fig)


def _grid_position(coords: list[int], shape: list[int]) -> tuple[float, float]:
    x = coords[0]
    y = coords[1] if len(coords) > 1 else 0
    if len(coords) > 2:
        x += coords[2] * (shape[0] + 1.5)
    return float(x), float(y)


def _arc(ax, a, b, colour, style="-", rad=0.25, width=1.0, alpha=0.9, arrow="-", shrink=4):
    from matplotlib.patches import FancyArrowPatch

    ax.add_patch(
        FancyArrowPatch(
            a,
            b,
            connectionstyle=f"arc3,rad={rad}",
            arrowstyle=arrow,
            mutation_scale=14,
            color=colour,
            linestyle=style,
            linewidth=width,
            alpha=alpha,
            shrinkA=shrink,
            shrinkB=shrink,
            zorder=2,
        )
    )


def _grid(t: Topology, plt):
    shape = t.shape
    d = len(shape)
    pos = [_grid_position(t.coords(s), shape) for s in range(t.num_switches)]
    width = max(p[0] for p in pos) + 1
    height = max(p[1] for p in pos) + 1
    fig, ax = plt.subplots(figsize=(min(2 + 0.6 * width, 22), min(2 + 0.6 * height, 16)))
    lengths = sorted(set(t.family.get("b", [])))
    cmap = plt.get_cmap("tab10")
    colour_of = {L: cmap(i) for i, L in enumerate(lengths)}
    for sa, pa, sb, _pb in t.links():
        a, b = pos[sa], pos[sb]
        if pa >= 2 * d:  # iBT bypass (port 2d is +L)
            ca, cb = t.coords(sa), t.coords(sb)
            length = max(abs(x - y) for x, y in zip(ca, cb))
            dim = next(i for i, (x, y) in enumerate(zip(ca, cb)) if x != y)
            L = min(length, shape[dim] - length)
            _arc(ax, a, b, colour_of.get(L, "C3"), rad=0.3, width=1.3)
        elif abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1:
            ax.plot([a[0], b[0]], [a[1], b[1]], color="#555555", lw=1.2, zorder=1)
        elif pa // 2 == 2:  # third dimension between slices
            ax.plot([a[0], b[0]], [a[1], b[1]], color="#2980b9", lw=0.6, ls=":", zorder=1)
        else:  # torus wrap-around
            _arc(ax, a, b, "#999999", style="--", rad=0.15, width=0.8, alpha=0.7)
    xs, ys = zip(*pos)
    ax.scatter(
        xs, ys, s=90 if t.num_switches <= 256 else 25, color="white", edgecolor="black", zorder=3
    )
    if t.num_switches <= 144:
        for s, (x, y) in enumerate(pos):
            ax.text(x, y, str(s), ha="center", va="center", fontsize=6, zorder=4)
    handles = [plt.Line2D([], [], color="#555555", label="neighbour link")]
    if t.family["family"] != "mesh":
        handles.append(plt.Line2D([], [], color="#999999", ls="--", label="wrap-around"))
    handles += [plt.Line2D([], [], color=colour_of[L], label=f"bypass L={L}") for L in lengths]
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=8)
    ax.set_title(
        f"{t.name}: {t.num_switches} routers, one endpoint each, {t.num_links} links"
        + ("  (3-D: z-slices left to right)" if d == 3 else "")
    )
    ax.set_aspect("equal")
    ax.axis("off")
    return fig


def _hypercube(t: Topology, plt):
    n = len(t.shape)
    low = (n + 1) // 2

    def gray(v: int) -> int:
        return v ^ (v >> 1)

    inverse_gray = {gray(i): i for i in range(1 << n)}
    pos = [
        (inverse_gray[s & ((1 << low) - 1)] * 1.0, inverse_gray[s >> low] * 1.0)
        for s in range(t.num_switches)
    ]
    fig, ax = plt.subplots(figsize=(2 + 0.9 * (1 << low), 2 + 0.9 * (1 << (n - low))))
    cmap = plt.get_cmap("tab10")
    for sa, pa, sb, _ in t.links():
        (x0, y0), (x1, y1) = pos[sa], pos[sb]
        near = abs(x0 - x1) + abs(y0 - y1) == 1
        if near:
            ax.plot([x0, x1], [y0, y1], color=cmap(pa % 10), lw=1.2, zorder=1)
        else:
            _arc(ax, pos[sa], pos[sb], cmap(pa % 10), rad=0.25, width=0.8)
    xs, ys = zip(*pos)
    ax.scatter(xs, ys, s=160, color="white", edgecolor="black", zorder=3)
    for s, (x, y) in enumerate(pos):
        ax.text(x, y, format(s, f"0{n}b"), ha="center", va="center", fontsize=5, zorder=4)
    handles = [plt.Line2D([], [], color=cmap(i % 10), label=f"dimension {i}") for i in range(n)]
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=8)
    ax.set_title(f"{t.name}: Gray-code layout, links coloured by dimension")
    ax.set_aspect("equal")
    ax.axis("off")
    return fig


def _updown(t: Topology, plt, root: int | None):
    ud = t.updown(root)
    levels = ud["levels"]
    by_level: dict[int, list[int]] = {}
    for s, lv in enumerate(levels):
        by_level.setdefault(lv, []).append(s)
    pos: dict[int, tuple[float, float]] = {}
    widest = max(len(v) for v in by_level.values())
    for lv, members in sorted(by_level.items()):
        members.sort()
        for i, s in enumerate(members):
            pos[s] = ((i - (len(members) - 1) / 2) * 1.6, -1.5 * lv)
    # BFS tree: each switch hangs on its lowest-id neighbour one level nearer the root.
    parent = {}
    for s in range(t.num_switches):
        ups = [nb for nb, _, _ in t.neighbours(s) if levels[nb] == levels[s] - 1]
        if ups:
            parent[s] = min(ups)
    hosts = [0] * t.num_switches
    for s, _ in t.endpoints():
        hosts[s] += 1
    fig, ax = plt.subplots(figsize=(3 + 1.3 * widest, 2.5 + 1.4 * len(by_level)))
    seen_pairs: dict[tuple[int, int], int] = {}
    for (sa, _pa, sb, _pb), a_up in zip(t.links(), ud["a_to_b_is_up"]):
        lo, hi = (sa, sb) if a_up else (sb, sa)  # arrow from the down end to the up end
        pair = (min(sa, sb), max(sa, sb))
        k = seen_pairs.get(pair, 0)
        seen_pairs[pair] = k + 1
        tree = parent.get(lo) == hi and k == 0
        rad = 0.0 if k == 0 else 0.18 * ((k + 1) // 2) * (1 if k % 2 else -1)
        if levels[sa] == levels[sb]:
            rad = rad or 0.3
        _arc(
            ax,
            pos[lo],
            pos[hi],
            "#1f4e79" if tree else "#888888",
            style="-" if tree else "--",
            rad=rad,
            width=1.6 if tree else 1.0,
            arrow="-|>",
            shrink=15,
        )
    for s, (x, y) in pos.items():
        is_root = s == ud["root"]
        ax.scatter(
            [x], [y], s=520, color="#f6d55c" if is_root else "white", edgecolor="black", zorder=3
        )
        ax.text(x, y, f"{s}\n{hosts[s]}h", ha="center", va="center", fontsize=7, zorder=4)
    for lv in by_level:
        ax.text(
            -widest * 0.8 - 1.2, -1.5 * lv, f"level {lv}", va="center", fontsize=8, color="#555555"
        )
    handles = [
        plt.Line2D([], [], color="#1f4e79", lw=1.6, label="BFS spanning-tree link"),
        plt.Line2D([], [], color="#888888", ls="--", label="other link"),
    ]
    ax.legend(
        handles=handles,
        loc="upper left",
        bbox_to_anchor=(1.01, 1),
        fontsize=8,
        title="arrows point to the up end",
        title_fontsize=8,
    )
    ax.set_title(
        f"{t.name}\nup*/down* from root {ud['root']}: {t.num_switches} switches, "
        f"{t.num_endpoints} hosts (Nh = hosts on the switch), {t.num_links} links",
        fontsize=9,
    )
    ax.axis("off")
    ax.margins(0.12)
    return fig
