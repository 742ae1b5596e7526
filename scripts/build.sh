#!/usr/bin/env bash
# Builds the npm package into pkg/: wasm-pack (release profile), wasm-opt -Oz,
# then the committed scaffold from pkg-template/ on top. Links
# node_modules/mcp-wasm -> pkg so tests import the package by its name, and
# prints the gzipped size of the wasm plus its JS glue.
set -euo pipefail
cd "$(dirname "$0")/.."

# Snippets of an earlier build would ship with this one: start clean.
rm -rf pkg/snippets
wasm-pack build --release --target web --out-dir pkg --out-name mcp_wasm --no-pack 2>&1 \
  | grep -vE '^\[INFO\]: (Checking|Compiling|Installing|Optimizing)' || true
test -f pkg/mcp_wasm_bg.wasm || { echo "build: wasm-pack produced no pkg/mcp_wasm_bg.wasm" >&2; exit 1; }

# -Oz with the features wasm-bindgen's output uses (externref tables and friends);
# the name section and producers metadata are dropped: they only serve debuggers.
node_modules/.bin/wasm-opt pkg/mcp_wasm_bg.wasm -o pkg/mcp_wasm_bg.wasm -Oz \
  --enable-reference-types --enable-bulk-memory --enable-nontrapping-float-to-int \
  --enable-sign-ext --enable-mutable-globals --enable-multivalue --strip-debug --strip-producers

node scripts/finish-dts.mjs
cp pkg-template/* pkg/
cp README.md CHANGELOG.md LICENSE-MIT LICENSE-APACHE pkg/
rm -f pkg/.gitignore
mkdir -p node_modules
ln -sfn ../pkg node_modules/mcp-wasm

node scripts/size.mjs
