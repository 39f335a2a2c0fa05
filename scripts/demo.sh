#!/usr/bin/env bash
# The main job: install netcoll into .venv, then compare interlaced bypass tori with tori of
# the same size and degree (table + plot in out/demo/). Extra arguments go to `netcoll demo`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/netcoll demo "$@"
