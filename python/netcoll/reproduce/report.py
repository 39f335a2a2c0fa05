"""One HTML page with every reproduction (`netcoll reproduce --all`): a status summary per
paper, a table of contents, and per reproduction its figures, the paper's printed numbers
beside ours, the data, and the commands that rerun it. Every link is relative, so the
directory can be moved or served as it is."""

from __future__ import annotations

import html
import time
from pathlib import Path

from .numbers import APPROX
from .outcome import PAPERS, Outcome, Reproduction
from .runner import status_counts

STATUSES = ("matches", "approximates", "cannot", "error")
DATA_PREVIEW_ROWS = 40


def _e(text) -> str:
    return html.escape(str(text))


def _cell(value) -> str:
    """Numbers right-aligned (with thousands separators for big integers), text left."""
    if isinstance(value, bool):
        return f"<td>{value}</td>"
    if isinstance(value, int):
        text = f"{value:,}" if abs(value) >= 10_000 else str(value)
        return f"<td class='num'>{text}</td>"
    if isinstance(value, float):
        return f"<td class='num'>{value:.10g}</td>"
    return f"<td>{_e(value)}</td>"


def _table(rows: list[dict], columns: list[str] | None = None, limit: int | None = None) -> str:
    if not rows:
        return ""
    cols = columns or list(rows[0])
    head = "".join(f"<th>{_e(c)}</th>" for c in cols)
    shown = rows if limit is None else rows[:limit]
    body = "".join("<tr>" + "".join(_cell(r.get(c, "")) for c in cols) + "</tr>" for r in shown)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _numbers(o: Outcome) -> str:
    """Per compared number: printed, ours, relative difference, status; then the reason of
    every number that differs, one paragraph each."""
    cols = ["quantity", "printed", "ours", "relative_difference", "status"]
    rows = [n.json() for n in o.numbers]
    why = "".join(
        f"<p><b>{_e(n.quantity)}</b> differs ({n.relative_difference:.1%}): {_e(n.reason)}</p>"
        for n in o.numbers
        if n.status == "differ"
    )
    return f"<h4>Compared numbers (approx: within {APPROX:.0%})</h4>{_table(rows, cols)}{why}"


def _badge(status: str) -> str:
    return f"<span class='badge {_e(status)}'>{_e(status)}</span>"


def _status(r: Reproduction, o: Outcome | None) -> str:
    return o.status if o else r.status


def _summary_table(results) -> str:
    outcomes = {r.id: o for r, o in results}
    counts = status_counts([r for r, _ in results], outcomes)
    shown = [s for s in STATUSES if s != "error" or any(s in c for c in counts.values())]
    head = "<th>paper</th>" + "".join(f"<th>{_badge(s)}</th>" for s in shown) + "<th>total</th>"
    rows = []
    for key, title in PAPERS.items():
        c = counts.get(key, {})
        cells = "".join(f"<td class='num'>{c.get(s, 0) or ''}</td>" for s in shown)
        rows.append(
            f"<tr><td><a href='#paper-{key}'>{_e(title)}</a></td>{cells}"
            f"<td class='num'>{sum(c.values())}</td></tr>"
        )
    totals = [sum(c.get(s, 0) for c in counts.values()) for s in shown]
    rows.append(
        "<tr class='total'><td>all papers</td>"
        + "".join(f"<td class='num'>{t}</td>" for t in totals)
        + f"<td class='num'>{sum(totals)}</td></tr>"
    )
    return f"<table class='summary'><thead><tr>{head}</tr></thead>{''.join(rows)}</table>"


def _toc(results) -> str:
    parts = []
    for key, title in PAPERS.items():
        items = [(r, o) for r, o in results if r.paper_key == key]
        if not items:
            continue
        lis = "".join(
            f"<li>{_badge(_status(r, o))} <a href='#{r.id}'>{r.id}</a> "
            f"<span class='muted'>{_e(r.figure)}</span></li>"
            for r, o in items
        )
        parts.append(f"<li><a href='#paper-{key}'>{_e(title)}</a><ul>{lis}</ul></li>")
    return f"<nav class='toc'><h2>Contents</h2><ul>{''.join(parts)}</ul></nav>"


def _figures(o: Outcome) -> str:
    imgs = []
    for f in o.files:
        name = Path(f).name
        if name.endswith(".png"):
            svg = Path(name).with_suffix(".svg").name
            has_svg = any(Path(g).name == svg for g in o.files)
            link = f" <a href='{_e(svg)}'>SVG</a>" if has_svg else ""
            imgs.append(
                f"<figure><a href='{_e(name)}'><img src='{_e(name)}' alt='{_e(name)}' "
                f"loading='lazy'></a><figcaption>{_e(name)}{link}</figcaption></figure>"
            )
    return "".join(imgs)


def _commands(r: Reproduction, out: Path) -> str:
    return (
        "<div class='cmd'><span class='muted'>rerun:</span> "
        f"<code>{_e(r.command(True, str(out)))}</code> <span class='muted'>(quick)</span>"
        f"<br><span class='muted'>full:</span> <code>{_e(r.command(False, str(out)))}</code>"
        "</div>"
    )


def _section(r: Reproduction, o: Outcome | None, out: Path) -> str:
    head = (
        f"<h3 id='{r.id}'>{_badge(_status(r, o))} {r.id} "
        f"<span class='muted'>{_e(r.figure)}</span></h3>"
    )
    meta = f"<p class='muted'>engine: {_e(r.engine)}"
    if o and o.seconds is not None:
        meta += f" &middot; ran in {o.seconds:.2f} s"
    if o and o.status != r.status:
        meta += f" &middot; <b>listed as {_e(r.status)}, this run says {_e(o.status)}</b>"
    meta += "</p>"
    body = f"<p>{_e(o.summary)}</p><p class='muted'>Registry note: {_e(r.reason)}</p>"
    body += _figures(o)
    if o.comparison:
        body += f"<h4>The paper's printed numbers beside netcoll</h4>{_table(o.comparison)}"
    if o.numbers:
        body += _numbers(o)
    if o.rows:
        n = len(o.rows)
        more = f" (first {DATA_PREVIEW_ROWS} of {n})" if n > DATA_PREVIEW_ROWS else ""
        body += (
            f"<details><summary>data: {n} rows{more}</summary>"
            f"{_table(o.rows, o.columns, DATA_PREVIEW_ROWS)}</details>"
        )
    links = [Path(f).name for f in o.files if not f.endswith(".png")]
    if links:
        body += (
            "<p class='files'>files: "
            + ", ".join(f"<a href='{_e(n)}'>{_e(n)}</a>" for n in links)
            + "</p>"
        )
    body += _commands(r, out)
    return f"<section class='repro'>{head}{meta}{body}</section>"


def _pending(items: list[Reproduction]) -> str:
    """The ones that cannot run, as one compact table with their reasons."""
    if not items:
        return ""
    rows = "".join(
        f"<tr id='{r.id}'><td>{_badge(r.status)}</td><td><code>{r.id}</code></td>"
        f"<td>{_e(r.figure)}</td><td>{_e(r.engine)}</td><td>{_e(r.reason)}</td></tr>"
        for r in items
    )
    return (
        "<h4>Not reproduced</h4><table class='pending'><thead><tr><th>status</th><th>id</th>"
        f"<th>table / figure</th><th>engine</th><th>reason</th></tr></thead>{rows}</table>"
    )


STYLE = """
:root { --ok: #1a7f37; --approx: #9a6700; --no: #8c959f; --err: #cf222e; }
body { font-family: system-ui, -apple-system, 'Segoe UI', sans-serif; max-width: 1150px;
  margin: 1.5em auto; padding: 0 1em; color: #1f2328; line-height: 1.45; }
h1 { margin-bottom: 0.2em; } h2 { border-bottom: 2px solid #d0d7de; padding-bottom: 0.2em;
  margin-top: 2em; } h3 { margin: 0.2em 0; } h4 { margin: 1em 0 0.3em; }
.muted { color: #656d76; font-weight: normal; font-size: 0.92em; }
table { border-collapse: collapse; margin: 0.6em 0; font-size: 0.88em; }
td, th { border: 1px solid #d0d7de; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #f6f8fa; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.total td { font-weight: bold; background: #f6f8fa; }
table.summary td, table.summary th { padding: 5px 12px; }
.badge { display: inline-block; border-radius: 1em; padding: 0 0.6em; font-size: 0.8em;
  font-weight: 600; color: white; vertical-align: middle; }
.badge.matches { background: var(--ok); } .badge.approximates { background: var(--approx); }
.badge.cannot { background: var(--no); } .badge.error { background: var(--err); }
.toc ul { list-style: none; padding-left: 1em; margin: 0.2em 0; }
.toc > ul { columns: 2; column-gap: 2em; padding-left: 0; }
.toc > ul > li { break-inside: avoid; margin-bottom: 0.8em; font-weight: 600; }
.toc li li { font-weight: normal; font-size: 0.9em; }
section.repro { border: 1px solid #d0d7de; border-radius: 6px; padding: 0.6em 1em;
  margin: 1em 0; }
table.pending { width: 100%; }
figure { margin: 0.6em 0; } figcaption { font-size: 0.8em; color: #656d76; }
img { max-width: 100%; border: 1px solid #eaeef2; }
.cmd { background: #f6f8fa; border-radius: 4px; padding: 0.4em 0.8em; margin: 0.6em 0;
  font-size: 0.9em; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 0.92em; }
details summary { cursor: pointer; color: #0969da; }
"""


def write_report(
    out: Path, results: list[tuple[Reproduction, Outcome | None]], quick: bool
) -> Path:
    """Writes OUT/index.html for the results of run_all and returns its path."""
    out.mkdir(parents=True, exist_ok=True)
    ran = sum(1 for _, o in results if o)
    seconds = sum(o.seconds or 0 for _, o in results if o)
    mode = (
        "Quick mode: smaller sizes, each reproduction in seconds; rerun without "
        "<code>--quick</code> for the papers' full sizes."
        if quick
        else "Full mode: the papers' sizes."
    )
    rerun = f"netcoll reproduce --all{' --quick' if quick else ''} -o {out}"
    sections = []
    for key, title in PAPERS.items():
        items = [(r, o) for r, o in results if r.paper_key == key]
        if not items:
            continue
        runnable = "".join(_section(r, o, out) for r, o in items if o)
        pending = _pending([r for r, o in items if not o])
        sections.append(f"<h2 id='paper-{key}'>{_e(title)}</h2>{runnable}{pending}")
    page = (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>netcoll reproductions</title><style>{STYLE}</style></head><body>"
        "<h1>netcoll: reproductions of the seed papers</h1>"
        f"<p class='muted'>Generated {time.strftime('%Y-%m-%d %H:%M')} by <code>{_e(rerun)}"
        f"</code>: {ran} of {len(results)} reproductions ran in {seconds:.1f} s. {mode}</p>"
        "<p>Every table and figure of the five papers that carries data, with an honest "
        "status: <b>matches</b> (our numbers equal the printed ones), <b>approximates</b> (same "
        "shape, numbers close but not equal, or compared against fitted curves), <b>cannot</b> "
        "(with the reason). Each section shows our figure, the paper's printed numbers beside "
        "ours, the data (CSV) and the command that reruns it.</p>"
        f"<h2>Status</h2>{_summary_table(results)}{_toc(results)}{''.join(sections)}"
        "</body></html>"
    )
    path = out / "index.html"
    path.write_text(page)
    return path
