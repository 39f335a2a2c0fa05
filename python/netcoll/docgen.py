"""Generated documentation: docs/cli.md from the click commands' help, docs/reproductions.md
from the reproduction registry. Both files are committed and a test checks they are current;
regenerate both with one command:

    .venv/bin/python -m netcoll.docgen          # or: bash scripts/gen_docs.sh
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

# Help is rendered at a fixed width so that the output does not depend on the terminal.
WIDTH = 100
REGENERATE = "`.venv/bin/python -m netcoll.docgen` (or `bash scripts/gen_docs.sh`)"


def _walk(cmd: click.Command, path: list[str]):
    """Yields (command path, command) depth first, subcommands in alphabetical order."""
    yield path, cmd
    if isinstance(cmd, click.Group):
        for name in sorted(cmd.commands):
            yield from _walk(cmd.commands[name], [*path, name])


def _help(cmd: click.Command, path: list[str]) -> str:
    parent = None
    for i in range(1, len(path)):
        parent = click.Context(click.Command(path[i - 1]), info_name=path[i - 1], parent=parent)
    ctx = click.Context(
        cmd, info_name=path[-1], parent=parent, terminal_width=WIDTH, max_content_width=WIDTH
    )
    ctx.help_option_names = ["-h", "--help"]
    return cmd.get_help(ctx)


def cli_markdown() -> str:
    """Every command and option of `netcoll`, from click's own help text."""
    from .cli import app

    entries = list(_walk(app, ["netcoll"]))
    out = [
        "# Command-line reference",
        "",
        "<!-- Generated from the commands' --help by netcoll.docgen; do not edit by hand. "
        f"Regenerate with {REGENERATE}. tests/test_docs.py fails when it is stale. -->",
        "",
        "Every command takes `-h`/`--help`; every command that reports figures takes `--json`. "
        "Bad input ends with one line on stderr (`netcoll: error: ...`) and exit status 2. "
        "See [getting-started.md](getting-started.md) for a tour with real output.",
        "",
        *vocabulary_markdown(),
        "",
        "## Commands",
        "",
    ]
    for path, cmd in entries:
        name = " ".join(path)
        summary = " ".join((cmd.help or "").split("\n\n")[0].split())
        out.append(f"- [`{name}`](#{_anchor(name)}): {summary}")
    for path, cmd in entries:
        name = " ".join(path)
        out += ["", f"## {name}", "", "```text", _help(cmd, path).rstrip(), "```"]
    return "\n".join(out) + "\n"


def vocabulary_markdown() -> list[str]:
    """The shared vocabulary (netcoll.vocabulary), which tests/test_vocabulary.py enforces."""
    from .api import REFERENCE_MACHINE
    from .vocabulary import ALIASES, CANONICAL, LEGACY_KEYS

    aliases = ", ".join(f"`{a}` -> `{c}`" for a, c in ALIASES.items())
    legacy = ", ".join(f"`{old}` (now `{new}`)" for old, new in LEGACY_KEYS.items())
    machine = ", ".join(f"{k} = {v:g}" for k, v in REFERENCE_MACHINE.items())
    return [
        "## Vocabulary",
        "",
        "Every command speaks the same language; `tests/test_vocabulary.py` walks every command "
        "and fails when one does not.",
        "",
        "- **Network**: always `-t/--topo SPEC` (`mesh:8x8`, `torus:16x16`, `hypercube:6`, "
        "`ibt:64x64:b=8,24`, `irregular:...`, `file:PATH`). The positional SPEC of `topo stats|"
        "check|draw|export`, `route` and `worms show` still works for one release, with a "
        "deprecation warning on stderr.",
        "- **Collectives**: one spelling each, the one `netcoll algos` prints: "
        + ", ".join(f"`{c}`" for c in CANONICAL)
        + f". Accepted on input too: {aliases}, and `_` for `-`.",
        "- **Sizes**: `--bytes` takes `8`, `1K`, `1Ki`, `1M`, `16MiB` (powers of 1024; `K`, "
        "`Ki`, `KB`, `KiB` are all 1024) and, where a list makes sense (`run --bytes`), "
        "comma lists `1K,64K,1M`.",
        "- **JSON keys**: the same key for the same thing in every `--json` output: `op` "
        "(canonical name), `algo`, `topo` (the spec), `ranks`, `steps`, `aggregate_hops` (sum of "
        "the hops of every message; the analytic engine splits it by link class in "
        "`hops_by_class`: `local`, `global`, `up`, `down`), `time_s` (model time, seconds), "
        "`cycles` (flit engine); units are in key names (`_s`, `_bytes`, `_flits`). Outputs with "
        "`steps` say what a step is in `step_definition`: the schedule's rounds (`schedule`, "
        "`analyze`) or the step engine's link steps (`simulate --engine step`: one packet per "
        "link per step, so a binomial broadcast on mesh:4x4 is 4 rounds but 6 link steps). "
        f"Deprecated keys, kept for one release: `spec` beside `topo`; gone: {legacy}. `sim` keeps"
        " BookSim's own key names (`topology=mesh`).",
        f"- **Reference machine** (analytic engine, `tune`, `netcoll.tune`): {machine} "
        "(1 us start-up, 1 GB/s, 0.1 ns/B to combine); override with `--alpha/--beta/--gamma` "
        "or `--machine K=V`.",
        "- **tune -> simulate**: every candidate of `tune` carries `set`, its parameters as "
        "`KEY=VALUE` strings; pass each as `--set KEY=VALUE` to `simulate` to run it. "
        "`tune --engine step|flit` re-ranks the model's best `--top` (8) by simulation "
        "(`sim_steps`, `cycles`).",
    ]


def _anchor(title: str) -> str:
    """GitHub's heading anchor: lower case, spaces to dashes, punctuation dropped."""
    keep = [c for c in title.lower() if c.isalnum() or c in " -_"]
    return "".join(keep).replace(" ", "-")


def reproductions_markdown() -> str:
    """The status table of every reproduction, straight from the registry."""
    from .reproduce.numbers import APPROX
    from .reproduce.registry import PAPERS, REPRODUCTIONS
    from .reproduce.runner import status_counts

    statuses = ["matches", "approximates", "cannot"]
    counts = status_counts(REPRODUCTIONS)
    out = [
        "# Reproduction status",
        "",
        "<!-- Generated from python/netcoll/reproduce/registry.py by netcoll.docgen; do not "
        f"edit by hand. Regenerate with {REGENERATE}. tests/test_docs.py fails when it is "
        "stale. -->",
        "",
        "Every table and figure of the five seed papers that carries data, with an honest "
        "status: **matches** (our numbers equal the printed ones), **approximates** (same "
        "shape, numbers close but not equal, or compared against fitted curves) or **cannot** "
        "(with the reason). `netcoll reproduce ID` runs one (CSV, PNG/SVG, a markdown note "
        "with the paper's numbers beside ours); `netcoll reproduce --all [--quick] -o DIR` runs "
        "them all and writes `DIR/index.html`. How the numbers are checked: "
        "[validation.md](validation.md).",
        "",
        "Every number a reproduction compares with the paper is recorded with the printed "
        "value, ours, their relative difference |ours - printed| / |printed| and a status: "
        "**match** (equal to the printed precision: within one unit of the last printed "
        "decimal, as papers round or truncate, or half a unit for an integer), **approx** "
        "(relative difference at most "
        f"{APPROX:.0%}), **differ** (more; each such number carries a one-paragraph reason, "
        "shown in the HTML report and the note). They are in `DIR/ID.json` and in "
        "`netcoll reproduce ID --json` (`numbers`: `quantity`, `printed`, `ours`, "
        "`relative_difference`, `status`, `reason`). The status of a reproduction (below) "
        "judges the figure as a whole.",
        "",
        "## Summary",
        "",
        "| paper | " + " | ".join(statuses) + " | total |",
        "|---|" + "---:|" * (len(statuses) + 1),
    ]
    for key, title in PAPERS.items():
        c = counts.get(key, {})
        cells = [str(c.get(s, 0)) for s in statuses]
        out.append(f"| {title} | " + " | ".join(cells) + f" | {sum(c.values())} |")
    total = [sum(c.get(s, 0) for c in counts.values()) for s in statuses]
    out.append("| **all** | " + " | ".join(map(str, total)) + f" | {sum(total)} |")
    for key, title in PAPERS.items():
        items = [r for r in REPRODUCTIONS if r.id.split("-")[0] == key]
        if not items:
            continue
        out += [
            "",
            f"## {title}",
            "",
            "| id | table / figure | engine | status | reason | rerun |",
            "|---|---|---|---|---|---|",
        ]
        for r in items:
            rerun = f"`netcoll reproduce {r.id}`" if r.runner else ""
            cells = [f"`{r.id}`", r.figure, r.engine, f"**{r.status}**", r.reason, rerun]
            out.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    return "\n".join(out) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def docs_dir() -> Path:
    return Path(__file__).resolve().parents[2] / "docs"


GENERATED = {"cli.md": cli_markdown, "reproductions.md": reproductions_markdown}


def main(argv: list[str] | None = None) -> int:
    """Writes docs/cli.md and docs/reproductions.md (or DIR/... given as the argument)."""
    argv = sys.argv[1:] if argv is None else argv
    target = Path(argv[0]) if argv else docs_dir()
    for name, make in GENERATED.items():
        path = target / name
        path.write_text(make())
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
