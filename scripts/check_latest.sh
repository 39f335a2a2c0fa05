#!/usr/bin/env bash
# Drift check: installs the NEWEST releases of netcoll's dependencies (ignoring
# requirements/constraints.txt) into .venv-latest, then runs the quick demo and the fast tests,
# so that a new release that breaks netcoll is seen the day it appears.
# With --update, and if everything passed, writes those versions to requirements/constraints.txt
# (review the diff and commit it: docs/development.md).
set -euo pipefail
cd "$(dirname "$0")/.."
export NETCOLL_VENV=.venv-latest NETCOLL_LATEST=1
bash scripts/setup.sh test
.venv-latest/bin/netcoll demo --quick --no-report -o "$(mktemp -d)" >/dev/null
.venv-latest/bin/python -m pytest -q -x tests/test_cli.py tests/test_api.py tests/test_docs.py \
  tests/test_docs_run.py tests/test_topology.py tests/test_models.py
echo "check_latest: the newest releases pass the quick demo and the fast tests:"
.venv-latest/bin/python -m pip freeze --exclude-editable | grep -v '^netcoll' | sed 's/^/  /'
if [ "${1:-}" = "--update" ]; then
  {
    sed -n '/^#/p' requirements/constraints.txt | sed "s/^# Tested on .*/# Tested on $(.venv-latest/bin/python -c 'import platform; print("CPython", platform.python_version())'), $(uname -s) $(uname -m), $(date -u +%F)./"
    echo "maturin==$(.venv-latest/bin/python -m pip index versions maturin 2>/dev/null | sed -n 's/^maturin (\(.*\))/\1/p')"
    echo "pip==$(.venv-latest/bin/python -m pip --version | cut -d' ' -f2)"
    .venv-latest/bin/python -m pip freeze --exclude-editable | grep -v '^netcoll'
  } >requirements/constraints.new
  mv requirements/constraints.new requirements/constraints.txt
  echo "check_latest: wrote requirements/constraints.txt: review 'git diff' and commit it"
fi
