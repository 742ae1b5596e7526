#!/usr/bin/env bash
# The benchmark harness, one command on a fresh machine: set-up, a release build,
# then bench/run.mjs (server, SDK bundles, Node and Chromium runs, the report).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
node bench/run.mjs
