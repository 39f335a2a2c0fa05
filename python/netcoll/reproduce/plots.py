"""Shared plotting for reproductions: PNG and SVG side by side."""

from __future__ import annotations

from pathlib import Path


def pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save(fig, png: Path) -> list[Path]:
    files = [png, png.with_suffix(".svg")]
    for f in files:
        fig.savefig(f, dpi=120, bbox_inches="tight")
    pyplot().close(fig)
    return files


def series_panels(
    png: Path, title: str, panels, xlabel: str, logx: bool = True, logy: bool = False
) -> list[Path]:
    """panels: [(panel title, ylabel, [(label, xs, ys, style_dict), ...]), ...]"""
    plt = pyplot()
    fig, axes = plt.subplots(1, len(panels), figsize=(6 * len(panels), 4.5), squeeze=False)
    for ax, (ptitle, ylabel, series) in zip(axes[0], panels):
        for label, xs, ys, style in series:
            ax.plot(xs, ys, label=label, **style)
        ax.set_title(ptitle)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        if logx:
            ax.set_xscale("log")
        if logy:
            ax.set_yscale("log")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle(title)
    fig.tight_layout()
    return save(fig, png)
