#!/usr/bin/env bash
# Installs everything the demo and the tests need, and nothing twice: safe to
# run on a fresh machine and on one already set up.
#   - Debian: chromium and chromium-driver, firefox-esr (headless browser tests)
#   - rustup: the rustfmt and clippy components, the wasm32-unknown-unknown target
#   - cargo: wasm-bindgen-cli at exactly the crate's wasm-bindgen version, wasm-pack,
#     worker-build (examples/rust-worker, the rust-worker tier),
#     geckodriver (Firefox's WebDriver server; Debian does not package it)
#   - npm: dev dependencies from the committed lock file (peers, conformance,
#     workerd/miniflare/wrangler, playwright-core, typescript, binaryen's wasm-opt)
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf 'setup: %s\n' "$*"; }

if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  say "installing chromium and chromium-driver from Debian"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium chromium-driver >/dev/null
fi

if ! command -v firefox-esr >/dev/null; then
  say "installing firefox-esr from Debian"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq firefox-esr >/dev/null
fi

for component in rustfmt clippy; do
  if ! rustup component list --installed | grep -q "^$component"; then
    say "adding the $component component"
    rustup component add "$component"
  fi
done

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

# The CLI and the test runner refuse a module built by another wasm-bindgen version.
WB_VERSION=$(sed -n 's/^wasm-bindgen = "=\([0-9.]*\)".*/\1/p' Cargo.toml)
[ -n "$WB_VERSION" ] || { echo "setup: cannot read the pinned wasm-bindgen version from Cargo.toml" >&2; exit 1; }
if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$WB_VERSION" ]; then
  say "installing wasm-bindgen-cli $WB_VERSION"
  cargo install wasm-bindgen-cli --version "$WB_VERSION" --force
fi

WASM_PACK_VERSION=0.15.1
if [ "$(wasm-pack --version 2>/dev/null | awk '{print $2}')" != "$WASM_PACK_VERSION" ]; then
  say "installing wasm-pack $WASM_PACK_VERSION"
  cargo install wasm-pack --version "$WASM_PACK_VERSION" --force
fi

# The Rust Worker example's build tool; its 0.8 line goes with the `worker` crate's 0.8.
WORKER_BUILD_VERSION=0.8.7
if [ "$(worker-build --version 2>/dev/null)" != "$WORKER_BUILD_VERSION" ]; then
  say "installing worker-build $WORKER_BUILD_VERSION"
  cargo install worker-build --version "$WORKER_BUILD_VERSION" --locked --force
fi

GECKODRIVER_VERSION=0.37.1
if [ "$(geckodriver --version 2>/dev/null | awk 'NR == 1 {print $2}')" != "$GECKODRIVER_VERSION" ]; then
  say "installing geckodriver $GECKODRIVER_VERSION"
  # Several checkouts may build on one machine; a cargo install among their builds is one at a time.
  flock /tmp/cargo.lock cargo install geckodriver --version "$GECKODRIVER_VERSION" --locked --force
fi

# npm ci only when the lock file changed since the last install.
LOCK_SUM=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ "$(cat node_modules/.setup-lock-sum 2>/dev/null)" != "$LOCK_SUM" ]; then
  say "installing npm dev dependencies from package-lock.json"
  npm ci --no-audit --no-fund --loglevel=error
  echo "$LOCK_SUM" > node_modules/.setup-lock-sum
fi
say "ready"
