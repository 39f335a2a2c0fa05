#!/usr/bin/env bash
# Regenerates the generated docs: docs/cli.md (from every command's --help) and
# docs/reproductions.md (from the reproduction registry). Run it after adding or changing a
# command or a reproduction; tests/test_docs.py fails while either file is stale.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || bash scripts/setup.sh
.venv/bin/python -m netcoll.docgen
