#!/usr/bin/env bash
# Builds netcoll's wheel (abi3: one wheel for every CPython >= 3.11 on this platform) and its
# sdist into dist/, with maturin from a small build venv (.venv-wheel), at the pinned version.
# Install the wheel anywhere with: pip install dist/netcoll-*.whl  (no Rust toolchain needed).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
command -v cargo >/dev/null 2>&1 ||
  { echo "wheel: error: building the wheel needs the Rust toolchain (cargo): install it with rustup (https://rustup.rs)" >&2; exit 1; }
[ -x .venv-wheel/bin/maturin ] || {
  "$PYTHON" -m venv .venv-wheel
  .venv-wheel/bin/python -m pip install --quiet -c requirements/constraints.txt maturin
}
rm -f dist/netcoll-*.whl dist/netcoll-*.tar.gz
.venv-wheel/bin/maturin build --release --out dist 2>&1 | grep -E "Built|Finished|rror|warning: unused" || true
.venv-wheel/bin/maturin sdist --out dist 2>&1 | grep -E "Built|rror" || true
ls dist/netcoll-*.whl dist/netcoll-*.tar.gz
