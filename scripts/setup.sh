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
.venv/bin/python -m pip install --quiet --editable "$target"
