#!/usr/bin/env bash
# The main job: install netcoll into .venv, then `netcoll demo`: interlaced bypass tori against
# tori of the same size and degree, then the headline, network-coded all-to-all broadcast (HNC)
# against the tree-based and all-at-once baselines on meshes (hops and flit-engine cycles),
# tables on the terminal, plots in out/demo/ and the quick report of every reproduction in
# out/demo/report/index.html. Extra arguments go to `netcoll demo` (--quick, --no-report, -o).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/netcoll demo "$@"
