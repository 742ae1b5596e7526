#!/usr/bin/env bash
# Runs every test tier, after set-up. Each tier runs even if an earlier one
# failed (except that nothing after size runs when build left no wasm); the exit
# code is non-zero if any failed.
#   lint        cargo fmt --check; clippy -D warnings on the native and wasm
#               targets (unwrap, expect, panic and indexing denied outside tests),
#               also with --no-default-features and --all-features; examples/rust-worker too (wasm);
#               rustdoc -D warnings for wasm32, the target docs.rs documents
#   native      cargo test: protocol, session, the client against a scripted
#               server on a manual clock, SSE parser, HTTP rules, doctests; the unit tests
#               again with --no-default-features
#   build       scripts/build.sh: the npm package into pkg/ (wasm-pack, wasm-opt -Oz, the core
#               split in two after a profile of first calls against the peers,
#               the .d.ts finished, pkg-template/ on top)
#   size        the gzipped package against bench/size-baseline.json (+5% at most)
#   chromium    wasm-bindgen-test in headless Chromium vs server-everything
#   firefox     in headless Firefox (Debian's firefox-esr, geckodriver): the wasm-bindgen-test
#               suites of the chromium tier, and the browser-oauth, browser-host and
#               browser-modern pages, driven over WebDriver (tests/support/firefox.mjs)
#   rust-api    the Rust API alone (mcp_wasm::web) in headless Chromium vs
#               server-everything: lists, progress, cancel, subscribe, sampling
#   node        node:test on the built npm package vs server-everything
#   browser-oauth  popup and redirect OAuth in headless Chromium vs the oauth peer
#   browser-host   McpHost in headless Chromium over three real servers
#   browser-modern 2026-07-28 peer scenarios in headless Chromium (x-mcp-header on a number,
#               skills, -32022 answered once more, logging a server does not declare)
#   faults      the package through a fault proxy in front of server-everything:
#               cut streams, duplicates, garbage, 5xx, expiry, a dropped GET stream
#   hostile     a hostile MCP server of our own (tests/peers/hostile-mcp.mjs) attacks
#               the package in Node and headless Chromium: schema, pattern and
#               template bombs, oversized bodies and events, retry overflow, a flood
#               of server requests, authorization servers that switch or redirect;
#               each attack settles within 2 s with a typed error, the client goes on
#   types       tsc --strict over tests/types against pkg/*.d.ts
#   pack        the package as users get it: npm pack (contents checked), the tarball
#               installed into a fresh project, imported from Node ESM and bundled by
#               esbuild and Vite into pages that call server-everything in Chromium;
#               cargo package builds the crate for wasm32; versions agree everywhere
#   workerd     the package bundled by wrangler, run in workerd via miniflare
#               (incl. a host suspended to KV in one request, resumed in the next)
#   examples    examples/ as their READMEs run them, on peers of its own: the Node script,
#               the Cloudflare Worker in workerd, the Vite chat page built and driven in Chromium
#   rust-worker an example Worker in Rust (workers-rs, worker-build) in workerd via
#               miniflare: connect, list, echo; suspend, and resume in the next request
#   conformance @modelcontextprotocol/conformance 0.2.0-alpha.12 client scenarios: both
#               requirement sets (2025-11-25, 2026-07-28) and every extension
#   demo        the inspector (www/) end to end in headless Chromium (playwright-core)
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh || exit 1

# A CI run builds everything once, from nothing: incremental caches and full debug info
# would only fill the disk (a clean run took 3.6 GB with them, and one CI run ran out).
if [ -n "${CI:-}" ]; then
  export CARGO_INCREMENTAL=${CARGO_INCREMENTAL:-0}
  export CARGO_PROFILE_DEV_DEBUG=${CARGO_PROFILE_DEV_DEBUG:-line-tables-only}
fi
echo "disk: $(df -h . | awk 'NR==2 {print $4 " free of " $2}')"

# The feature and fault suites hold a browser page for longer than the default 20 s.
export WASM_BINDGEN_TEST_TIMEOUT=${WASM_BINDGEN_TEST_TIMEOUT:-120}
# wasm-bindgen-test-runner takes GECKODRIVER over CHROMEDRIVER when both are set, so each
# browser tier names only its own driver.
CHROMEDRIVER=${CHROMEDRIVER:-/usr/bin/chromedriver}
GECKODRIVER=${GECKODRIVER:-$(command -v geckodriver)}
in_chromium() { env -u GECKODRIVER CHROMEDRIVER="$CHROMEDRIVER" "$@"; }
in_firefox() { env -u CHROMEDRIVER GECKODRIVER="$GECKODRIVER" "$@"; }
# Node 20 for the package's own tests; conformance picks Node 22 itself.
NODE=$(command -v node)

# Every part runs even if an earlier one failed.
firefox_tier() {
  local ok=0
  in_firefox cargo test --no-fail-fast --target wasm32-unknown-unknown --test 'browser*' || ok=1
  in_firefox "$NODE" tests/browser-oauth/run.mjs firefox || ok=1
  in_firefox "$NODE" tests/host/run-chromium.mjs firefox || ok=1
  in_firefox "$NODE" tests/modern-peer/run-chromium.mjs firefox || ok=1
  return $ok
}

passed=0; failed=0; failures=()
tier() {
  local name=$1; shift
  printf '\n=== %s ===\n' "$name"
  local start=$SECONDS
  if "$@"; then
    passed=$((passed + 1)); printf '=== %s: ok (%ss) ===\n' "$name" $((SECONDS - start))
  else
    failed=$((failed + 1)); failures+=("$name"); printf '=== %s: FAILED (%ss) ===\n' "$name" $((SECONDS - start))
  fi
}

lint() {
  cargo fmt --check &&
    cargo clippy --quiet --all-targets -- -D warnings &&
    cargo clippy --quiet --all-targets --target wasm32-unknown-unknown -- -D warnings &&
    # The Cargo features' two ends; each feature alone is left to a local run.
    cargo clippy --quiet --no-default-features --all-targets -- -D warnings &&
    cargo clippy --quiet --no-default-features --target wasm32-unknown-unknown -- -D warnings &&
    cargo clippy --quiet --all-features --target wasm32-unknown-unknown -- -D warnings &&
    # The npm package's build (scripts/build.sh).
    cargo clippy --quiet --no-default-features --features core-module --target wasm32-unknown-unknown --lib -- -D warnings &&
    RUSTDOCFLAGS="-D warnings" cargo doc --quiet --no-deps --lib --target wasm32-unknown-unknown &&
    cargo fmt --check --manifest-path examples/rust-worker/Cargo.toml &&
    cargo clippy --quiet --manifest-path examples/rust-worker/Cargo.toml --target wasm32-unknown-unknown -- -D warnings
}
tier lint lint
# The tests also run with every optional part left out: each test of one carries its gate.
native() { cargo test --quiet && cargo test --quiet --no-default-features --lib; }
tier native native
tier build bash scripts/build.sh
tier size node scripts/size-check.mjs
if [ ! -f pkg/mcp_wasm_bg.wasm ]; then
  echo "the package did not build; skipping the tiers that need it"
  printf '\ntiers: %s passed, %s failed\n' "$passed" "$((failed + 1))"
  exit 1
fi

bash scripts/peers.sh start || exit 1
trap 'bash scripts/peers.sh stop >/dev/null 2>&1' EXIT
# Where the peers listen (ports the OS picked), unless the caller named other servers.
while read -r _ assignment; do
  name=${assignment%%=*}
  [ -n "${!name:-}" ] || export "$assignment"
done < <(bash scripts/peers.sh env)

tier chromium in_chromium cargo test --no-fail-fast --target wasm32-unknown-unknown --test 'browser*'
tier firefox firefox_tier
tier rust-api in_chromium cargo test --target wasm32-unknown-unknown --test rust_api
tier node "$NODE" --test tests/node/
tier browser-oauth "$NODE" tests/browser-oauth/run.mjs
tier browser-host "$NODE" tests/host/run-chromium.mjs
tier browser-modern "$NODE" tests/modern-peer/run-chromium.mjs
tier faults "$NODE" tests/faults/run.mjs
tier hostile "$NODE" tests/hostile/run.mjs
tier types bash -c "node tests/types/extract-readme.mjs && node_modules/.bin/tsc -p tests/types"
tier pack "$NODE" tests/pack/run.mjs
tier workerd "$NODE" tests/workerd/run.mjs
tier examples "$NODE" tests/examples/run.mjs
tier rust-worker "$NODE" tests/rust-worker/run.mjs
tier conformance "$NODE" tests/conformance/run.mjs
tier demo "$NODE" tests/demo/e2e.mjs

[ "$failed" = 0 ] || printf '\nfailed tiers: %s\n' "${failures[*]}"
printf '\ntiers: %s passed, %s failed\n' "$passed" "$failed"
[ "$failed" = 0 ]
