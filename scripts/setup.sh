#!/usr/bin/env bash
# Creates a venv (CPython >= 3.11; .venv unless NETCOLL_VENV says otherwise) and installs
# netcoll into it, building the Rust core in release mode with maturin, with exactly the
# versions the tests passed with (requirements/constraints.txt, pip's constraints file).
# Usage: scripts/setup.sh [extra]   (extra: test)
# NETCOLL_LATEST=1 installs the newest releases instead (scripts/check_latest.sh does that).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
VENV="${NETCOLL_VENV:-.venv}"
fail() { echo "setup: error: $*" >&2; exit 1; }

command -v "$PYTHON" >/dev/null 2>&1 ||
  fail "no Python found ('$PYTHON'): install CPython >= 3.11 (python.org, or your package manager) or set PYTHON=/path/to/python3"
"$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null ||
  fail "netcoll needs CPython >= 3.11; '$PYTHON' is $("$PYTHON" -c 'import sys; print(sys.version.split()[0])' 2>/dev/null || echo 'not a working Python'): install a newer one or set PYTHON=/path/to/python3.11"
command -v cargo >/dev/null 2>&1 ||
  fail "netcoll needs the Rust toolchain (cargo) on PATH to build its core: install it with rustup (https://rustup.rs), then open a new shell"

[ -x "$VENV/bin/python" ] || "$PYTHON" -m venv "$VENV" ||
  fail "could not create the venv $VENV with '$PYTHON -m venv' (on Debian/Ubuntu: apt-get install python3-venv)"

extra="${1:-}"
target="."
[ -n "$extra" ] && target=".[$extra]"
constraints=(-c requirements/constraints.txt)
upgrade=()
if [ -n "${NETCOLL_LATEST:-}" ]; then
  constraints=()
  upgrade=(--upgrade --upgrade-strategy eager)
else
  # The isolated build environment (maturin) takes the same pins.
  export PIP_CONSTRAINT="$PWD/requirements/constraints.txt"
fi
log="$VENV/setup.log"
# pip's own failure text is long and, offline, misleading ("conflicting dependencies"): when
# pip fails, ask the index directly, and say in one line whether the network is the cause.
index_reachable() {
  "$VENV/bin/python" - "${PIP_INDEX_URL:-https://pypi.org/simple/}" <<'PY' >/dev/null 2>&1
import sys, urllib.request
urllib.request.urlopen(sys.argv[1].rstrip("/") + "/pip/", timeout=15)
PY
}
pip_failed() {
  index_reachable ||
    fail "pip could not reach the package index ${PIP_INDEX_URL:-https://pypi.org/simple/} (no network?): connect, or point PIP_INDEX_URL at a reachable mirror. Details: $log"
  fail "pip install failed: see $log"
}
"$VENV/bin/python" -m pip install --upgrade "${constraints[@]}" pip >"$log" 2>&1 || pip_failed
# The build takes minutes: show cargo's and pip's own progress (-v) instead of silence.
echo "setup: building netcoll (Rust core, release mode) and installing $target into $VENV ..."
"$VENV/bin/python" -m pip install -v "${upgrade[@]}" "${constraints[@]}" --editable "$target" 2>&1 |
  tee -a "$log" |
  { grep --line-buffered -E "Compiling|Finished|Collecting|Installing|Successfully|rror" || true; } ||
  pip_failed
