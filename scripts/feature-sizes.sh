#!/usr/bin/env bash
# Prints what each Cargo feature costs in the shipped wasm: the module built
# much as scripts/build.sh builds it (release profile, wasm-bindgen, wasm-opt -Oz,
# names stripped; without -ocimfs=20, short import names or the validator's speed
# profile, so the npm rows are larger than the shipped files), gzip level 9, with the default features, with the defaults
# minus each feature, and with none. Leaves pkg/ alone; works in
# target/feature-sizes/. Usage: bash scripts/feature-sizes.sh
set -euo pipefail
cd "$(dirname "$0")/.."

features=$(sed -n 's/^default = \[\(.*\)\]$/\1/p' Cargo.toml | tr -d '"' | tr -d ' ' | tr ',' ' ')
out=target/feature-sizes
mkdir -p "$out"

# Builds with the features in $1 (comma-separated, may be empty) and prints the wasm's gzipped bytes.
measure() {
  cargo build --quiet --release --target wasm32-unknown-unknown --lib --no-default-features ${1:+--features "$1"}
  wasm-bindgen target/wasm32-unknown-unknown/release/mcp_wasm.wasm --out-dir "$out" --out-name mcp_wasm --target web
  node_modules/.bin/wasm-opt "$out/mcp_wasm_bg.wasm" -o "$out/mcp_wasm_bg.wasm" -Oz \
    --enable-reference-types --enable-bulk-memory --enable-nontrapping-float-to-int \
    --enable-sign-ext --enable-mutable-globals --enable-multivalue --enable-simd --strip-debug --strip-producers
  node -e 'const z = require("node:zlib"); const b = require("node:fs").readFileSync(process.argv[1]); console.log(z.gzipSync(b, { level: 9 }).length)' \
    "$out/mcp_wasm_bg.wasm"
}

all=$(echo "$features" | tr ' ' ',')
full=$(measure "$all")
# A difference of a few bytes either way prints as 0.0, not -0.0.
kib() { awk -v n="$1" 'BEGIN { v = n / 1024; if (v > -0.05 && v < 0.05) v = 0; printf "%.1f KiB", v }'; }
echo "| build | wasm gzip | saved against the defaults |"
echo "|---|---:|---:|"
echo "| default features | $(kib "$full") | |"
# Without `js` nothing is exported and the linker keeps next to nothing: every
# build below keeps it, and "`js` alone" is the binding over the bare core.
for f in $features; do
  [ "$f" = js ] && continue
  rest=$(echo "$features" | tr ' ' '\n' | grep -vx "$f" | paste -sd, -)
  n=$(measure "$rest")
  echo "| defaults without \`$f\` | $(kib "$n") | $(kib $((full - n))) |"
done
n=$(measure js)
echo "| \`js\` alone | $(kib "$n") | $(kib $((full - n))) |"
# The npm package's build (scripts/build.sh), before its split into four modules.
n=$(measure core-module)
echo "| npm: \`core-module\` | $(kib "$n") | |"
