#!/usr/bin/env bash
# Builds the package, starts the bundled default MCP server
# (@modelcontextprotocol/server-everything, Streamable HTTP on 127.0.0.1:38011)
# and serves the demo page, which connects to it. Ctrl-C stops everything.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
bash scripts/peers.sh start
trap 'bash scripts/peers.sh stop >/dev/null 2>&1' EXIT INT TERM
echo "demo: the page connects to http://127.0.0.1:38011/mcp by default (?server=<url> to change it)"
node scripts/serve.mjs
