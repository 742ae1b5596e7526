#!/bin/sh
# The linker of the npm package's wasm builds (scripts/build.sh): rust-lld, as rustc runs
# it for wasm32, and for the core (MCP_WASM_LINK_MAP set) asked for a map of where each
# static object lies, which the split reads (scripts/split/data.mjs). All three builds
# name this linker, so that they share their dependencies' builds: the map is an
# argument of the last link only, not a rustflag of every crate.
set -e
host=$(rustc -vV | sed -n 's/^host: //p')
lld="$(rustc --print sysroot)/lib/rustlib/$host/bin/rust-lld"
if [ -n "${MCP_WASM_LINK_MAP:-}" ]; then
  exec "$lld" "$@" "--Map=$MCP_WASM_LINK_MAP"
fi
exec "$lld" "$@"
