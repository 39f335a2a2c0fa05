#!/usr/bin/env bash
# Builds the API reference from the docstrings with pdoc (HTML, a few seconds) into
# build/api (or $1). tests/test_api_docs.py builds it too, so it never goes stale.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || bash scripts/setup.sh test
.venv/bin/python -m netcoll.apidoc "${1:-build/api}"
