// Loading in a fresh page (a new browser profile per load: no HTTP or compiled-code
// cache), as bench/run.mjs measures it, for the built package and copies of other
// builds side by side: the time to `import()` each entry, median of 9 loads each,
// the order alternating. A copy must lie under bench/ to be served, e.g.
//   rm -rf bench/ab/a && cp -r pkg bench/ab/a   (bench/ab/ is not tracked)
//   node bench/ab-load.mjs ab/a                  # /pkg/index.js, bench/ab/a/index.js, the SDK bundles
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freshImport } from "./fresh-import.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const TRIALS = 9;
const specifiers = ["/pkg/index.js", ...process.argv.slice(2).map((dir) => `/${dir.replace(/^\/+|\/+$/g, "")}/index.js`)];
for (const bundle of ["sdk1.js", "sdk2.js"]) {
  if (existsSync(path.join(here, "page/dist", bundle))) specifiers.push(`/page/dist/${bundle}`); // bench/bundle.mjs writes them
}
const times = Object.fromEntries(specifiers.map((s) => [s, []]));
for (let trial = 0; trial < TRIALS; trial++) {
  for (const specifier of trial % 2 ? [...specifiers].reverse() : specifiers) {
    times[specifier].push((await freshImport(specifier, { profilePrefix: "mcp-wasm-ab-load-" })).ms);
  }
}
const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
for (const [specifier, list] of Object.entries(times)) {
  console.log(specifier.padEnd(24), "median", median(list).toFixed(1).padStart(6), "ms; each:", list.map((t) => t.toFixed(0)).join(" "));
}
