// Prints the shipped size of the package in pkg/, each file compressed on its
// own as a browser fetches it (gzip level 9, brotli quality 11).
//   firstCallGzip  what a page fetches before it can connect and make a first
//                  tools/call: the browser entry (index.js), every module it
//                  imports statically, and the wasm modules those refer to;
//   allGzip        everything the package can load: the above plus what is
//                  reachable through dynamic import().
//   moduleRounds   how many rounds of JS module fetches the first set takes: a
//                  browser finds a module's imports only once it has the module,
//                  and the wasm fetch starts after the last round;
// raw, gzip and brotli describe the second set (gzip equals allGzip).
// The rest of the core and its OAuth and validator modules (scripts/split) are named by the entry and the
// glue with `new URL`, because a bundler must see them and a page may need them
// synchronously, but they are fetched when a method first needs them (the rest also after
// the first tool call has settled): they count as lazy. The pack tier holds this to what Chromium fetches (tests/pack/run.mjs, its page
// tests/pack/app/page/unbundled.html).
// The sets come from the import statements themselves, so a module made lazy
// (import()) leaves the first set without this script changing. A wasm file
// named by `new URL(..., import.meta.url)` counts where the module naming it
// counts: conservative when an eager module fetches it late.
// Usage: node scripts/size.mjs [--json]   (SIZE_PKG=<dir> measures another copy of pkg/)
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const pkg = process.env.SIZE_PKG ?? path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "pkg");
const ENTRY = "index.js";

// A statement starts a file or follows `;`, `}` or a space: esbuild's bundle puts an inlined
// helper's imports straight after the `}` that ends the helper before it.
const STATIC_IMPORT = /(?:^|[;}\s])(?:import|export)\s*(?:[\w*{}\s,$]+?\s*from\s*)?["']([^"']+)["']/g;
const DYNAMIC_IMPORT = /\bimport\(\s*["']([^"']+)["']\s*\)/g;
const ASSET_URL = /new\s+URL\(\s*["']([^"']+\.wasm)["']\s*,\s*import\.meta\.url\s*\)/g;
const FETCHED_ON_DEMAND = new Set(["mcp_wasm_rest_bg.wasm", "mcp_wasm_oauth_bg.wasm", "mcp_wasm_validator_bg.wasm"]);

// Each file's references, read once: the walk and the rounds both ask.
const read = new Map();
function references(file) {
  if (!read.has(file)) read.set(file, readReferences(file));
  return read.get(file);
}

function readReferences(file) {
  const text = readFileSync(path.join(pkg, file), "utf8");
  const dir = path.dirname(file);
  const resolve = (spec) => path.normalize(path.join(dir, spec));
  const local = (spec) => spec.startsWith("./") || spec.startsWith("../") || (!spec.includes("/") && spec.endsWith(".wasm"));
  const pick = (re) => [...text.matchAll(re)].map((m) => m[1]).filter(local).map(resolve);
  const assets = pick(ASSET_URL);
  const onDemand = (file) => FETCHED_ON_DEMAND.has(file);
  return {
    eager: [...pick(STATIC_IMPORT), ...assets.filter((f) => !onDemand(f))],
    lazy: [...pick(DYNAMIC_IMPORT), ...assets.filter(onDemand)],
  };
}

// Walks the module graph from the entry; a file reached eagerly is never counted as lazy.
function walk() {
  const eager = new Set();
  const lazy = new Set();
  const visit = (file, isEager) => {
    if (isEager ? eager.has(file) : eager.has(file) || lazy.has(file)) return;
    if (!existsSync(path.join(pkg, file))) throw new Error(`size: ${file} is imported but not in pkg/`);
    (isEager ? eager : lazy).add(file);
    if (isEager) lazy.delete(file);
    if (!file.endsWith(".js")) return;
    const refs = references(file);
    for (const f of refs.eager) visit(f, isEager);
    for (const f of refs.lazy) visit(f, false);
  };
  visit(ENTRY, true);
  return { eager: [...eager].sort(), lazy: [...lazy].sort() };
}

// The round in which a browser first learns of each eagerly imported module: the entry is round 1.
function moduleRounds() {
  const round = new Map([[ENTRY, 1]]);
  const queue = [ENTRY];
  while (queue.length > 0) {
    const file = queue.shift();
    for (const next of references(file).eager) {
      if (!next.endsWith(".js") || round.has(next)) continue;
      round.set(next, round.get(file) + 1);
      queue.push(next);
    }
  }
  return Math.max(...round.values());
}

const gzip = (file) => gzipSync(readFileSync(path.join(pkg, file)), { level: 9 }).length;
const brotli = (file) =>
  brotliCompressSync(readFileSync(path.join(pkg, file)), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
const sum = (files, measure) => files.reduce((n, f) => n + measure(f), 0);

const sets = walk();
const all = [...sets.eager, ...sets.lazy];
const size = {
  firstCallGzip: sum(sets.eager, gzip),
  allGzip: sum(all, gzip),
  raw: sum(all, (f) => readFileSync(path.join(pkg, f)).length),
  gzip: sum(all, gzip),
  brotli: sum(all, brotli),
  moduleRounds: moduleRounds(),
  firstCall: sets.eager,
  lazy: sets.lazy,
};
if (process.argv.includes("--json")) {
  console.log(JSON.stringify(size));
} else {
  const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
  console.log(`size: first call ${kb(size.firstCallGzip)} gzip (${sets.eager.length} files, ${size.moduleRounds} rounds of modules); everything ${kb(size.allGzip)} gzip, ${kb(size.raw)} raw, ${kb(size.brotli)} brotli`);
}
