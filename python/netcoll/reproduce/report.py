"""One HTML page with every reproduction: status list, figures and comparison tables."""

from __future__ import annotations

import html
from pathlib import Path

from .registry import Outcome, Reproduction


def _table(rows: list[dict]) -> str:
    if not rows:
        return ""
    cols = list(rows[0])
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in cols)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(str(r.get(c, '')))}</td>" for c in cols) + "</tr>"
        for r in rows
    )
    return f"<table><tr>{head}</tr>{body}</table>"


STYLE = """
body { font-family: sans-serif; max-width: 1100px; margin: 2em auto; color: #222; }
table { border-collapse: collapse; margin: 0.8em 0; font-size: 0.9em; }
td, th { border: 1px solid #ccc; padding: 3px 8px; text-align: right; }
th { background: #f2f2f2; }
.matches { color: #1a7f37; font-weight: bold; }
.approximates { color: #9a6700; font-weight: bold; }
.differs { color: #cf222e; font-weight: bold; }
.cannot { color: #a40e26; }
img { max-width: 100%; border: 1px solid #eee; }
section { border-top: 1px solid #ddd; margin-top: 2em; }
"""


def write_report(
    out: Path, results: list[tuple[Reproduction, Outcome | None]], quick: bool
) -> Path:
    status_rows = "".join(
        f"<tr><td style='text-align:left'><a href='#{r.id}'>{r.id}</a></td>"
        f"<td style='text-align:left'>{html.escape(r.figure)}</td><td>{r.engine}</td>"
        f"<td class='{(o.status if o else r.status)}'>{o.status if o else r.status}</td>"
        f"<td style='text-align:left'>{html.escape(r.reason)}</td></tr>"
        for r, o in results
    )
    sections = []
    for r, o in results:
        if o is None:
            continue
        png = f"{r.id}.png"
        sections.append(
            f"<section id='{r.id}'><h2>{r.id}: {html.escape(r.figure)}</h2>"
            f"<p>{html.escape(r.paper)}</p>"
            f"<p><span class='{o.status}'>{o.status}</span>: {html.escape(o.summary)}</p>"
            + (f"<img src='{png}' alt='{r.id}'>" if (out / png).exists() else "")
            + (f"<h3>Paper beside netcoll</h3>{_table(o.comparison)}" if o.comparison else "")
            + f"<p>Data: <a href='{r.id}.csv'>{r.id}.csv</a></p></section>"
        )
    page = (
        "<!doctype html><html><head><meta charset='utf-8'><title>netcoll reproductions</title>"
        f"<style>{STYLE}</style></head><body><h1>netcoll: reproductions of the seed papers</h1>"
        f"<p>{'Quick mode (smaller sizes). ' if quick else ''}Status of every table and figure "
        "that carries data; each section puts the paper's printed numbers beside ours.</p>"
        "<table><tr><th>id</th><th>table / figure</th><th>engine</th><th>status</th>"
        f"<th>reason</th></tr>{status_rows}</table>{''.join(sections)}</body></html>"
    )
    path = out / "index.html"
    path.write_text(page)
    return path
