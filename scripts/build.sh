#!/usr/bin/env bash
# Builds the npm package into pkg/: the core module with wasm-pack (release
# profile), wasm-opt -Oz, the core split in four (scripts/split/: the first call's,
# the rest, OAuth, the validator), then the committed scaffold from
# pkg-template/ on top. Links
# node_modules/mcp-wasm -> pkg so tests import the package by its name, and
# prints the gzipped size of the wasm plus its JS glue.
set -euo pipefail
cd "$(dirname "$0")/.."

# The core module (Cargo feature core-module) is the whole client. The split below
# makes OAuth and the JSON Schema validator (with the skill checks) modules of their
# own that share the core's runtime, which a page fetches the first time a call
# needs one (rest-gate.js, src/js/lazy/): 55 KB gzip less in all for OAuth, and
# for the validator, than builds of their own (bench/analysis.md, "Twenty-sixth
# round", "Twenty-seventh round").
#
# -ocimfs=20: binaryen inlines a function with one caller whatever its size; only
# up to 20 instructions here. The bodies it leaves apart repeat each other's shapes,
# which gzip folds: the core is 13 KB smaller gzipped (276.9 -> 263.8 KB), OAuth
# 4 KB, the validator 1 KB, for 12 KB more raw and no change beyond noise in
# sequential calls or a 5 MiB read (bench/ab-seq.mjs, bench/ab-read.mjs).
#
# --low-memory-unused: no address below 1 KiB is read or written, so binaryen may fold a
# constant added to a pointer into the access's offset. Rust's wasm target puts the 1 MiB
# stack first, growing down towards 0, and the data after it: only a stack within 1 KiB
# of overflowing would reach there, and the client's recursion is bounded far below that.
# 0.2 KB gzip off the first call (bench/analysis.md, "Twenty-second round").
FEATURES=(--enable-reference-types --enable-bulk-memory --enable-nontrapping-float-to-int
  --enable-sign-ext --enable-mutable-globals --enable-multivalue --enable-simd)
OPT_FLAGS=(-Oz -ocimfs=20 --low-memory-unused "${FEATURES[@]}" --strip-producers --strip-debug)
OPT_KEEPING_NAMES=(-Oz -ocimfs=20 --low-memory-unused "${FEATURES[@]}" --strip-producers -g)

# Panic locations name the dependencies' source files, by default under the build
# machine's absolute cargo home (/root/.cargo/registry/src/...): the shipped wasm
# would carry that path, 30 times. They become relative to `cargo/`. Given for the
# target, the flag joins .cargo/config.toml's (SIMD) instead of replacing them.
REMAP=(--config "target.wasm32-unknown-unknown.rustflags=['--remap-path-prefix=${CARGO_HOME:-$HOME/.cargo}/registry/src=cargo']")
# The core alone is compiled with LLVM's hot/cold splitting: a branch that ends in a cold
# call (a panic, an error's constructor: `Error::protocol` and friends in src/error.rs) moves
# to a function of its own, which the split below leaves in the rest when no profile run
# takes it. Up to 16 values in and out, and outlined whenever that is no larger: 1.1 KB gzip
# off the first call, 3.2 KB onto the rest (bench/analysis.md, "Twenty-third round"); the
# validator module, loaded whole, only grows by it. The core has a target
# directory of its own, so that the two sets of flags do not rebuild each other's crates.
# Its function table starts at slot 4097, not 1: the split gives a slot of a moved function
# no stub when no constant of the primary's code holds its number (scripts/split/slots.mjs),
# and small numbers are everywhere in code (lengths, offsets); from 4097 to the table's end,
# no constant the core holds for another reason. 105 stubs fewer: 0.7 KB gzip off the first
# call, for a table of about 7,000 slots instead of 3,000.
# Its stack is 1 MiB, 64 KiB and 64 bytes, not 1 MiB, for the same reason: the data, which
# follows the stack, then starts past 0x110000 (char::MAX + 1, the niche of every Option<char>,
# a constant all over the primary's code) instead of holding it, and the split no longer keeps
# whatever object lies there in the primary for a reference it is not (scripts/split/data.mjs):
# 292 bytes of one of core's tables, 260 B gzip off the first call (bench/analysis.md,
# "Thirty-second round"), for 64 KiB more of stack and of memory at load.
COLD=(--config "target.wasm32-unknown-unknown.rustflags=['--remap-path-prefix=${CARGO_HOME:-$HOME/.cargo}/registry/src=cargo',
  '-Cllvm-args=-hot-cold-split=true','-Cllvm-args=-hotcoldsplit-max-params=16','-Cllvm-args=-hotcoldsplit-threshold=0','-Clink-arg=--table-base=4097','-Clink-arg=-zstack-size=1114176']")
CORE_TARGET="${CARGO_TARGET_DIR:-target}/core"
# The core's link also writes the linker's map, which says where each static object lies:
# the split moves what only the rest of the core reads (scripts/split/data.mjs).
SPLIT=target/split
LINKER=(--config "target.wasm32-unknown-unknown.linker='$PWD/scripts/split/link-with-map.sh'")

# Files of an earlier build (snippets, modules a build no longer makes) would sit beside
# this one's: start clean.
rm -rf pkg
rm -rf "$SPLIT/profile-pkg" && mkdir -p "$SPLIT"
CARGO_TARGET_DIR="$CORE_TARGET" MCP_WASM_LINK_MAP="$PWD/$SPLIT/core.map" wasm-pack build --release --target web --out-dir pkg --out-name mcp_wasm --no-pack -- \
  --no-default-features --features core-module "${COLD[@]}" "${LINKER[@]}" 2>&1 \
  | grep -vE '^\[INFO\]: (Checking|Compiling|Installing|Optimizing)' || true
test -f pkg/mcp_wasm_bg.wasm || { echo "build: wasm-pack produced no pkg/mcp_wasm_bg.wasm" >&2; exit 1; }
# A build cargo found fresh did not link, and kept the map of the link that made it.
test -f "$SPLIT/core.map" || { echo "build: no linker map at $SPLIT/core.map: CARGO_TARGET_DIR=$CORE_TARGET cargo clean -p mcp-wasm --release --target wasm32-unknown-unknown, then build again" >&2; exit 1; }

# -Oz with the features wasm-bindgen's output uses (externref tables and friends);
# the name section and producers metadata are dropped: they only serve debuggers. The
# core keeps its function names until it is split, and the halves are kept with them in
# target/split/ (primary-named.wasm, rest-named.wasm): the wasm functions in a stack
# trace of the shipped halves are named there, at the same index.
# Panics trap at once, as they would after formatting a message no one reads
# (scripts/trap-panics.mjs); the -Oz after it drops what fed them.
node scripts/trap-panics.mjs pkg/mcp_wasm_bg.wasm
# The validator's module is entered only through src/js/lazy/checks.rs: inlined into a caller
# of the rest's, an entry would take what it alone reaches into the rest with it.
node_modules/.bin/wasm-opt pkg/mcp_wasm_bg.wasm -o pkg/mcp_wasm_bg.wasm --no-inline='*js::lazy::checks::*' "${OPT_KEEPING_NAMES[@]}"
# Imports renamed from wasm-bindgen's hashed names to short ones, in the wasm and
# its glue: 3 KB gzip off the first call (bench/analysis.md, "Eighth round").
node scripts/short-imports.mjs pkg/mcp_wasm_bg.wasm pkg/mcp_wasm.js


# The core in two halves that share one memory and one function table (scripts/split/):
# the primary, with every function that connecting and a first tool call ran in a
# profile (scripts/split/scenarios.js, in Node and Chromium, against server-everything
# and the 2026-07-28 peers), and the rest, which a page fetches when it first needs it
# (pkg-template/rest-gate.js). The profile runs an instrumented copy of the package.
mkdir -p "$SPLIT/profile-pkg"
cp pkg/mcp_wasm_bg.wasm "$SPLIT/core.wasm"
cp -r pkg/. pkg-template/. "$SPLIT/profile-pkg/"
node scripts/fold-glue.mjs "$SPLIT/profile-pkg"
node scripts/split/instrument.mjs pkg/mcp_wasm_bg.wasm "$SPLIT/profile-pkg/mcp_wasm_bg.wasm"
# The profile also reports which `if` arms and block tails run (cover.mjs). What the functions
# it entered hold that it never ran moves into functions of their own (outline.mjs), which the
# split then leaves in the rest: 4.5 KB gzip off the first call (bench/analysis.md,
# "Twenty-fourth round"). scripts/split/cold-report.mjs reports what is left.
node scripts/split/cover.mjs "$SPLIT/profile-pkg/mcp_wasm_bg.wasm" "$SPLIT/profile-pkg/mcp_wasm_bg.wasm" "$SPLIT/regions.json"
node scripts/split/glue.mjs "$SPLIT/profile-pkg/mcp_wasm.js" profile
node scripts/split/profile.mjs "$SPLIT/profile-pkg" "$SPLIT/profile.json"
node scripts/split/outline.mjs "$SPLIT/core.wasm" "$SPLIT/regions.json" "$SPLIT/profile.json" "$SPLIT/core-outlined.wasm"
# OAuth's code goes into a third module, which loads after the rest and only for a connection
# with `auth` (rest-gate.js): what only OAuth's own functions reach (scripts/split/parts.mjs),
# and the two functions that read `auth` and set the flow up, which only such a connection
# calls. The validator and the skill checks go into a fourth, which the core awaits before
# it runs a check (src/js/lazy/): what only their own functions reach, and the functions the
# core calls them by, once it has waited.
node scripts/split/split.mjs "$SPLIT/core-outlined.wasm" "$SPLIT/profile.json" pkg/mcp_wasm_bg.wasm pkg/mcp_wasm_rest_bg.wasm "$SPLIT/core.map" \
  --part oauth '(^|<)mcp_wasm::(transport::oauth|protocol::oauth|js::auth_options|web::oauth_flow)::' \
  '^mcp_wasm::(js::auth_options::read_auth|web::oauth_flow)::' pkg/mcp_wasm_oauth_bg.wasm \
  --part validator '(^|<)(mcp_wasm::(protocol::schema|protocol::skills|js::lazy::checks)|regex_lite)::' \
  '^mcp_wasm::js::lazy::checks::' pkg/mcp_wasm_validator_bg.wasm
# Each half is optimised twice from the same input: with its names, for target/split/, and
# without, to ship. Without names binaryen also reorders each function's locals, 0.3 KB gzip
# less per half (bench/analysis.md, "Twenty-second round"); same-functions.mjs checks that
# every function kept its index, so the named copy still names a shipped trace's frames.
for half in primary:mcp_wasm_bg rest:mcp_wasm_rest_bg oauth:mcp_wasm_oauth_bg validator:mcp_wasm_validator_bg; do
  named="$SPLIT/${half%%:*}-named.wasm" shipped="pkg/${half#*:}.wasm"
  node_modules/.bin/wasm-opt "$shipped" -o "$named" "${OPT_KEEPING_NAMES[@]}"
  node_modules/.bin/wasm-opt "$shipped" -o "$shipped" "${OPT_FLAGS[@]}"
  node scripts/split/same-functions.mjs "$named" "$shipped"
done
# Texts that the optimised primary does not reach (panics' messages, once panics only trap) move
# into the rest, though no code names them exactly (late-text.mjs): 0.6 KB gzip off the first call.
node scripts/split/late-text.mjs "$SPLIT/primary-named.wasm" pkg/mcp_wasm_bg.wasm "$SPLIT/rest-named.wasm" pkg/mcp_wasm_rest_bg.wasm \
  "$SPLIT/core.map" "$SPLIT/profile.json"
node scripts/split/expect.mjs "$SPLIT/oauth-named.wasm" mcp_wasm::js::auth_options::read_auth:: mcp_wasm::web::oauth_flow::
node scripts/split/expect.mjs "$SPLIT/validator-named.wasm" mcp_wasm::js::lazy::checks::check:: mcp_wasm::js::lazy::checks::check_text:: \
  mcp_wasm::js::lazy::checks::check_skill:: mcp_wasm::js::lazy::checks::check_file:: mcp_wasm::js::lazy::checks::verdict:: \
  mcp_wasm::protocol::schema::keywords:: mcp_wasm::protocol::skills::check_skill:: regex_lite::
node scripts/split/glue.mjs pkg/mcp_wasm.js split
# The primary's exports that only the glue reads get short names, in both files, as its
# imports did: 0.8 KB gzip off the first call (bench/analysis.md, "Nineteenth round").
node scripts/short-exports.mjs pkg/mcp_wasm_bg.wasm pkg/mcp_wasm.js pkg/mcp_wasm_rest_bg.wasm pkg/mcp_wasm_oauth_bg.wasm pkg/mcp_wasm_validator_bg.wasm

node scripts/finish-dts.mjs
cp pkg-template/* pkg/
# The glue's module goes into mcp_wasm.js, which re-exports it as `__glue` for the Node sender and
# the tests: the two are fetched together, and together they gzip 0.3 KB smaller.
node scripts/fold-glue.mjs pkg --inline
# DPoP's key storage, which the npm core loads as a part (src/transport/oauth/dpop.rs).
cp src/dpop.js pkg/dpop.js
# The browser entry is one file with the plain-JS helpers it imports statically (host,
# bridges, naming, browser-auth, the task and tool-loop stubs) bundled in: a module's imports are found only
# once it has arrived, and a fresh page fetched six of them with the glue and its snippet, eight
# files a round after index.js, and naming.js a round after those, before the wasm could start
# (six connections to an HTTP/1.1 origin). The wasm-bindgen glue (shared with `mcp-wasm/raw` and
# the lazy parts, which must see its classes; its snippet is folded into it above, so a page no
# longer fetches that a round after the glue) and every module loaded on first use (any
# `import()`) stay files of their own. Node and workerd read their entries from disk and keep
# the separate files.
node -e '
  const { build } = require("esbuild");
  const separate = {
    name: "separate-modules",
    setup(build) {
      build.onResolve({ filter: /^\.\// }, (args) =>
        args.kind === "dynamic-import" || args.path === "./mcp_wasm.js"
          ? { path: args.path, external: true }
          : undefined);
    },
  };
  build({ entryPoints: ["pkg/index.js"], outfile: "pkg/index.js", allowOverwrite: true, bundle: true, format: "esm", sourcemap: true,
    plugins: [separate], legalComments: "none", logLevel: "warning" }).catch(() => process.exit(1));
'
# What a page downloads is the JS as shipped: terser drops comments and spaces and shortens
# local names (class names stay), with a source map beside each file for stack traces and
# debuggers (wasm-bindgen also writes every export's doc comment into the glue, where
# nothing reads it: editors and TypeScript read the .d.ts). First call: 256.1 -> 246.5 KiB
# gzip without comments and spaces (bench/analysis.md, "Seventh round"), and 2.9 KB less
# with the short names ("Nineteenth round").
node scripts/minify.mjs pkg
cp README.md CHANGELOG.md LICENSE-MIT LICENSE-APACHE pkg/
rm -f pkg/.gitignore
mkdir -p node_modules
ln -sfn ../pkg node_modules/mcp-wasm

node scripts/size.mjs
