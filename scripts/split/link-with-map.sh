#!/bin/sh
# The linker of the npm package's wasm builds (scripts/build.sh): rust-lld, as rustc runs
# it for wasm32, asked (MCP_WASM_LINK_MAP set) for a map of where each static object
# lies, which the split and the dropping of dead panic data read (scripts/split/data.mjs).
# All three builds name this linker, so that they share their dependencies' builds: the
# map is an argument of the last link only, not a rustflag of every crate.
set -e
host=$(rustc -vV | sed -n 's/^host: //p')
lld="$(rustc --print sysroot)/lib/rustlib/$host/bin/rust-lld"
# -O0 after rustc's -O2 keeps each string constant a section of its own instead of
# merging them all into one: the map then names each, and those only the rest reads
# can move there (else the error messages' pieces stay in the primary together), and
# those no code names any more can go. Unmerged, the validator's and OAuth's modules
# also come out 0.6 and 0.8 KB smaller gzipped.
if [ -n "${MCP_WASM_LINK_MAP:-}" ]; then
  exec "$lld" "$@" -O0 "--Map=$MCP_WASM_LINK_MAP"
fi
exec "$lld" "$@"
