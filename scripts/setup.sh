#!/usr/bin/env bash
# Creates .venv (CPython >= 3.11) and installs netcoll into it, building the Rust core in
# release mode with maturin. Usage: scripts/setup.sh [extra]   (extra: test)
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
"$PYTHON" - <<'PY' || { echo "netcoll needs CPython >= 3.11 (set PYTHON=...)" >&2; exit 1; }
import sys
sys.exit(sys.version_info < (3, 11))
PY
command -v cargo >/dev/null || { echo "netcoll needs the Rust toolchain (cargo) on PATH" >&2; exit 1; }
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
extra="${1:-}"
target="."
[ -n "$extra" ] && target=".[$extra]"
# The build takes minutes: show cargo's and pip's own progress (-v) instead of silence.
echo "setup: building netcoll (Rust core, release mode) and installing $target into .venv ..."
.venv/bin/python -m pip install -v --editable "$target" 2>&1 |
  { grep --line-buffered -E "Compiling|Finished|Collecting|Installing|Successfully|rror" || true; }
