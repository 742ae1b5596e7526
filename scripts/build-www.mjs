// Turns the inspector into a static folder that any static host can serve
// (GitHub Pages, a bucket, `python3 -m http.server`), at any path:
//
//   node scripts/build-www.mjs out/        # after scripts/build.sh
//
// It copies www/ and the files of the built package (pkg/) that the page
// loads, found by following the imports from pkg/index.js, into out/ and
// out/pkg/. The import maps then point at ./pkg/index.js instead of the dev
// server's /pkg/, and each page's Content-Security-Policy gets the hash of its
// new import map. The host must serve .wasm as application/wasm for streaming
// compilation (the package falls back to a slower path otherwise).
// An existing out/ is replaced only if an earlier run made it.
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const WWW = path.join(repo, "www");
const PKG = path.join(repo, "pkg");
const MARKER = ".mcp-wasm-inspector";
const IMPORT_MAP = /<script type="importmap">([^<]*)<\/script>/;

function fail(message) {
  console.error(`build-www: ${message}`);
  process.exit(1);
}

const target = process.argv[2];
if (!target || process.argv.length > 3) fail("usage: node scripts/build-www.mjs <output folder>");
const out = path.resolve(target);
if (!existsSync(path.join(PKG, "index.js"))) fail("pkg/index.js is missing: run scripts/build.sh first");
if (out === repo || repo.startsWith(out + path.sep) || out.startsWith(WWW) || out.startsWith(PKG)) fail(`refusing to write to ${out}`);
if (existsSync(out) && readdirSync(out).length > 0) {
  if (!existsSync(path.join(out, MARKER))) fail(`${out} is not empty and was not made by this script`);
  rmSync(out, { recursive: true, force: true });
}

// The package files the page can load: pkg/index.js and what it imports,
// statically or dynamically (minified: `import"./x.js"`, with no space), and the
// .wasm it fetches by URL.
function packageFiles() {
  const seen = new Set();
  const queue = ["index.js"];
  const reference = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s*|new URL\(\s*)["'](\.\/[^"']+)["']/g;
  while (queue.length) {
    const file = queue.shift();
    if (seen.has(file)) continue;
    const full = path.join(PKG, file);
    if (!existsSync(full)) fail(`pkg/${file} is imported but missing`);
    seen.add(file);
    if (!file.endsWith(".js")) continue;
    for (const [, spec] of readFileSync(full, "utf8").matchAll(reference)) {
      queue.push(path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)));
    }
  }
  return [...seen].sort();
}

// A page's import map pointed at the copied package, and its CSP hash to match.
function rewritePage(file) {
  const html = readFileSync(file, "utf8");
  const match = html.match(IMPORT_MAP);
  if (!match) return;
  const hash = (text) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
  const map = JSON.parse(match[1]);
  map.imports["mcp-wasm"] = "./pkg/index.js";
  const text = JSON.stringify(map);
  const oldHash = hash(match[1]);
  if (!html.includes(oldHash)) fail(`${path.relative(out, file)}: its CSP does not allow its import map by hash`);
  writeFileSync(file, html.replace(match[0], `<script type="importmap">${text}</script>`).replaceAll(oldHash, hash(text)));
}

mkdirSync(out, { recursive: true });
cpSync(WWW, out, { recursive: true });
const files = packageFiles();
for (const file of files) {
  mkdirSync(path.dirname(path.join(out, "pkg", file)), { recursive: true });
  cpSync(path.join(PKG, file), path.join(out, "pkg", file));
}
for (const page of readdirSync(out).filter((f) => f.endsWith(".html"))) rewritePage(path.join(out, page));
writeFileSync(path.join(out, MARKER), "Made by scripts/build-www.mjs; replaced by its next run.\n");

const bytes = (dir) => readdirSync(dir, { recursive: true }).map((f) => path.join(dir, f)).filter((f) => statSync(f).isFile())
  .reduce((sum, f) => sum + statSync(f).size, 0);
console.log(`build-www: ${out}: www/ and ${files.length} package files (${files.join(", ")}), ${(bytes(out) / 1024).toFixed(0)} KiB`);
