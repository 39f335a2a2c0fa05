"""The API reference: HTML from the docstrings of the public modules, built with pdoc
(``bash scripts/api_docs.sh`` or ``python -m netcoll.apidoc OUTPUT_DIR``)."""

from __future__ import annotations

import sys
from pathlib import Path

#: The public API, in reading order; the CLI, the reproductions and the MPI executor have
#: their own docs (docs/cli.md, docs/reproductions.md, docs/mpi.md).
MODULES = (
    "netcoll",
    "netcoll.api",
    "netcoll.schedules",
    "netcoll.engines",
    "netcoll.networks",
    "netcoll.units",
    "netcoll.vocabulary",
    "netcoll.models",
    "netcoll.hnc",
)


def build(output: Path) -> list[Path]:
    """Writes the reference to ``output``; returns the pages written."""
    import pdoc  # a test dependency: pip install "netcoll[test]"

    pdoc.render.configure(docformat="restructuredtext", search=False)
    pdoc.pdoc(*MODULES, output_directory=output)
    return sorted(output.rglob("*.html"))


if __name__ == "__main__":
    pages = build(Path(sys.argv[1] if len(sys.argv) > 1 else "build/api"))
    print(f"wrote {len(pages)} pages to {pages[0].parent if pages else '?'}")
