"""The generated docs are current, the docs' links resolve, and errors print user text as
typed (no rich emoji or markup)."""

import re
from pathlib import Path

import pytest

from conftest import run_cli
from netcoll import docgen

ROOT = Path(__file__).resolve().parents[1]
STALE = "is stale: regenerate with `.venv/bin/python -m netcoll.docgen` and commit it"


@pytest.mark.parametrize("name", sorted(docgen.GENERATED))
def test_generated_docs_are_current(name):
    committed = (ROOT / "docs" / name).read_text()
    assert committed == docgen.GENERATED[name](), f"docs/{name} {STALE}"


def test_list_markdown_is_the_status_page():
    out = run_cli("reproduce", "--list", "--markdown").stdout
    assert out == (ROOT / "docs" / "reproductions.md").read_text()


def test_cli_reference_has_every_command_and_option():
    from netcoll.cli import app

    page = (ROOT / "docs" / "cli.md").read_text()
    for path, cmd in docgen._walk(app, ["netcoll"]):
        assert f"## {' '.join(path)}\n" in page
        for param in (p for p in cmd.params if not getattr(p, "hidden", False)):
            for opt in param.opts:
                if opt.startswith("-"):
                    assert opt in page, f"{' '.join(path)} {opt} missing from docs/cli.md"


def test_reproductions_page_counts_every_entry():
    from netcoll.reproduce import REPRODUCTIONS

    page = (ROOT / "docs" / "reproductions.md").read_text()
    for r in REPRODUCTIONS:
        assert f"| `{r.id}` |" in page
    total = re.search(r"\| \*\*all\*\* \|.*\| (\d+) \|", page)
    assert total and int(total.group(1)) == len(REPRODUCTIONS)


def _links(md: Path):
    for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", md.read_text()):
        if "://" not in target and not target.startswith("mailto:"):
            yield target


def test_relative_links_in_readme_and_docs_resolve():
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    broken = [
        f"{p.relative_to(ROOT)} -> {t}"
        for p in pages
        for t in _links(p)
        if not (p.parent / t).exists()
    ]
    assert not broken, broken


def test_user_docs_are_linked_from_readme_and_concepts():
    readme = (ROOT / "README.md").read_text()
    concepts = (ROOT / "docs" / "concepts.md").read_text()
    for page in ("getting-started", "cli", "python-api", "validation", "reproductions"):
        assert f"docs/{page}.md" in readme, page
        assert f"({page}.md)" in concepts, page


def test_error_messages_print_user_text_as_typed():
    proc = run_cli("topo", "stats", "--topo", "x:y:[bold]z[/bold]", check=False)
    assert proc.returncode == 2
    assert "'x:y:[bold]z[/bold]'" in proc.stderr
    proc = run_cli("reproduce", ":smile:[b]", check=False)
    assert proc.returncode == 2 and "':smile:[b]'" in proc.stderr
    assert proc.stderr.count("\n") == 1


def test_python_api_examples_run_as_shown():
    import doctest

    result = doctest.testfile(str(ROOT / "docs" / "python-api.md"), module_relative=False)
    assert result.attempted > 40 and result.failed == 0


def test_validation_page_cites_tests_that_exist():
    """Every test named in docs/validation.md exists, so the page cannot cite a renamed one."""
    page = (ROOT / "docs" / "validation.md").read_text()
    sources = "\n".join(
        p.read_text() for pattern in ("crates/**/*.rs", "tests/*.py") for p in ROOT.glob(pattern)
    )
    names = set()
    for token in re.findall(r"`([^`\s]+)`", page):
        name = token.rsplit("::", 1)[-1]
        if re.fullmatch(r"[a-z][a-z0-9]*(_[a-z0-9]+)+", name):
            names.add(name)
        if token.startswith("tests/"):
            assert (ROOT / token.split("::")[0]).exists(), token
    assert len(names) > 25
    # A cited name is a test (fn/def), a key the engines read (a quoted string in the
    # sources, such as "wait_for_tail_credit"), a JSON key of a result (a `pub` field) or a
    # source file (an example such as flit_fingerprint).
    stems = {p.stem for p in ROOT.glob("crates/**/*.rs")}
    missing = [
        n
        for n in sorted(names)
        if not re.search(rf"\b(fn|def) {n}\b", sources)
        and f'"{n}"' not in sources
        and not re.search(rf"\bpub {n}:", sources)
        and n not in stems
    ]
    assert not missing, missing
