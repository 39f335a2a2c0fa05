"""Docs that run: every command shown in README.md and docs/*.md is executed, in order, and
must exit 0 (or 2 where the docs show the one-line error), so a renamed option or a stale
example fails here and not for a user.

What counts as a command: a line inside a fenced block (```) or an indented code block that
starts with `netcoll ` or `$ netcoll ` (a prompt followed by the output it prints); lines
ending in a backslash continue. A synopsis is not an example and is not run: a line with a
placeholder in capitals (`OP`, `FILE`, `SPEC`, `N`, ...) or an optional part in brackets.
A block opts out with `<!-- no-run: why -->` on the line before it; single commands that
take minutes or are run by another test are listed in SKIP below, each with its reason.
Commands of one page run in one temporary folder, in page order (an example may read the
file an earlier one wrote), holding the files of tests/data/docs/ (e.g. mesh88.cfg)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
GENERATED = {"cli.md", "reproductions.md"}  # generated references: checked by test_docs.py
NETCOLL = str(Path(sys.executable).with_name("netcoll"))

# Commands the docs show that this test does not run, by their first words: why, and where
# they are run instead.
SKIP = {
    "netcoll reproduce --all --quick": "about a minute: run by tests/test_main_job.py",
    "netcoll demo --quick --no-report": "run by tests/test_main_job.py",
    "netcoll bench flit": "a benchmark (minutes); tests/test_flit.py runs the engine",
    "netcoll bench step": "a million-node benchmark; tests/test_step.py runs the engine",
    "netcoll worms trends": "a benchmark over many networks (minutes)",
    "netcoll simulate bcast --engine step --algo global --topo ibt:1000x1000": (
        "a million-node broadcast (seconds to minutes): `netcoll bench step` times it"
    ),
}
PLACEHOLDER = re.compile(
    r"(^|\s|=|\|)(OP|FILE|SPEC|NAME|N|P|R|SIZES|FILE\.\w+|A,B,\.\.)(\s|$|\||\])"
)
PROMPT = re.compile(r"^\$ (netcoll .*)")


def _commands(page: Path):
    """(line number, command) of every runnable command of a page, in order."""
    lines = page.read_text().splitlines()
    fenced = opted_out = False
    pending: tuple[int, str] | None = None
    for i, line in enumerate(lines, 1):
        if line.strip().startswith("```"):
            fenced = not fenced
            if fenced:
                opted_out = any("<!-- no-run" in p for p in lines[max(0, i - 3) : i - 1])
            continue
        in_block = fenced or (
            line.startswith("    ") and not line.lstrip().startswith(("- ", "* "))
        )
        if not in_block and not pending:
            opted_out = opted_out and fenced
            if not fenced and line.strip() == "":
                opted_out = any("<!-- no-run" in p for p in lines[max(0, i - 2) : i])
            continue
        text = line.strip()
        if pending:
            start, cmd = pending
            cmd = cmd + " " + text.rstrip("\\").strip()
            if text.endswith("\\"):
                pending = (start, cmd)
            else:
                pending = None
                yield start, cmd, opted_out
            continue
        m = PROMPT.match(text)
        cmd = m.group(1) if m else text if text.startswith("netcoll ") else None
        if cmd is None:
            continue
        if cmd.endswith("\\"):
            pending = (i, cmd.rstrip("\\").strip())
            continue
        yield i, cmd, opted_out


def _cases():
    for page in PAGES:
        if page.name in GENERATED:
            continue
        for line, cmd, opted_out in _commands(page):
            shell = cmd.split(" #")[0].strip()
            if opted_out or PLACEHOLDER.search(shell) or re.search(r"\[-", shell):
                continue
            rel = page.relative_to(ROOT).as_posix()
            yield pytest.param(rel, shell, id=f"{rel}:{line}")


CASES = list(_cases())


def test_the_docs_show_commands():
    # The extraction itself can break (a new block style): it must keep finding the examples.
    assert len(CASES) >= 40, len(CASES)
    pages = {c.values[0] for c in CASES}
    assert {"README.md", "docs/getting-started.md"} <= pages


@pytest.fixture(scope="module")
def page_dirs(tmp_path_factory):
    dirs: dict[str, Path] = {}

    def get(page: str) -> Path:
        if page not in dirs:
            d = tmp_path_factory.mktemp(page.replace("/", "_"))
            for f in (ROOT / "tests" / "data" / "docs").iterdir():
                shutil.copy(f, d / f.name)
            dirs[page] = d
        return dirs[page]

    return get


@pytest.mark.parametrize(("page", "command"), CASES)
def test_doc_command_runs(page, command, page_dirs):
    for prefix, why in SKIP.items():
        if command.startswith(prefix):
            pytest.skip(why)
    env = {**os.environ, "PATH": f"{Path(NETCOLL).parent}{os.pathsep}{os.environ['PATH']}"}
    env.pop("NETCOLL_DEBUG", None)
    proc = subprocess.run(
        ["bash", "-c", command],
        cwd=page_dirs(page),
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    # A page may show the one-line error on purpose (`$ netcoll topo stats --topo nosuch:3`).
    shows_error = proc.returncode == 2 and proc.stderr.startswith("netcoll: error:")
    assert proc.returncode == 0 or shows_error, (
        f"{page}: `{command}` exited {proc.returncode}:\n{proc.stderr[-2000:]}"
    )
    assert "internal error" not in proc.stderr and "Traceback" not in proc.stderr


def _python_blocks():
    """Every ```python block of the pages (docs/python-api.md is a doctest: test_docs.py)."""
    for page in PAGES:
        if page.name in GENERATED or page.name == "python-api.md":
            continue
        lines = page.read_text().splitlines()
        start = None
        for i, line in enumerate(lines, 1):
            if start is None and line.strip() == "```python":
                start = i
            elif start is not None and line.strip() == "```":
                opted_out = any("<!-- no-run" in p for p in lines[max(0, start - 3) : start - 1])
                if not opted_out:
                    rel = page.relative_to(ROOT).as_posix()
                    code = "\n".join(lines[start : i - 1])
                    yield pytest.param(rel, code, id=f"{rel}:{start}")
                start = None


@pytest.mark.parametrize(("page", "code"), list(_python_blocks()))
def test_doc_python_block_runs(page, code, page_dirs):
    proc = subprocess.run(
        [sys.executable, "-c", code],
        cwd=page_dirs(page),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, f"{page}: python block failed:\n{proc.stderr[-2000:]}"


# examples/*.py: every script runs (a new example is picked up without editing this file);
# the ones whose output another test checks in detail are run there instead.
CHECKED_ELSEWHERE = {"tutorial.py": "tests/test_api_docs.py checks what it prints and plots"}
EXAMPLES = sorted(p.name for p in (ROOT / "examples").glob("*.py"))


def test_every_example_is_run():
    assert EXAMPLES, "examples/ holds no script"
    assert set(CHECKED_ELSEWHERE) <= set(EXAMPLES), "a stale CHECKED_ELSEWHERE entry"


@pytest.mark.parametrize("script", [s for s in EXAMPLES if s not in CHECKED_ELSEWHERE])
def test_example_runs(script, tmp_path):
    proc = subprocess.run(
        [sys.executable, str(ROOT / "examples" / script), str(tmp_path)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, f"examples/{script} failed:\n{proc.stderr[-2000:]}"
