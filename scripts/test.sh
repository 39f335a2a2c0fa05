#!/usr/bin/env bash
# Every test: install netcoll with its test tools into .venv, then the Rust core's tests
# (unit + property) and the Python tests (API, CLI contract, property).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh test
cargo test --package netcoll-core --no-run   # the build, with cargo's progress
cargo test --package netcoll-core --quiet
.venv/bin/python -m pytest
