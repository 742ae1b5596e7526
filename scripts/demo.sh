#!/usr/bin/env bash
# Builds the package, starts the bundled MCP servers (scripts/peers.sh, on ports the
# OS picks) and serves the demo page on 127.0.0.1:38031 (PORT= to change it); the
# plain address leads to server-everything (?server=). Ctrl-C stops everything.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
bash scripts/peers.sh start
trap 'bash scripts/peers.sh stop >/dev/null 2>&1' EXIT INT TERM
eval "$(bash scripts/peers.sh env)"
PORT=${PORT:-38031}
echo "demo: open http://127.0.0.1:$PORT/ (it leads to server-everything at $MCP_TEST_URL; ?server= repeats for more)"
DEMO_SERVER=$MCP_TEST_URL PORT=$PORT node scripts/serve.mjs
