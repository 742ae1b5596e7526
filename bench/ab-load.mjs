// Loading in a fresh page (a new browser profile per load: no HTTP or compiled-code
// cache), as bench/run.mjs measures it, for the built package and copies of other
// builds side by side: the time to `import()` each entry, median of 9 loads each,
// the order alternating. A copy must lie under bench/ to be served, e.g.
//   rm -rf bench/ab/a && cp -r pkg bench/ab/a   (bench/ab/ is not tracked)
//   node bench/ab-load.mjs ab/a                  # /pkg/index.js, bench/ab/a/index.js, the SDK bundles
//   node bench/ab-load.mjs --slow-network ab/a   # the same over DevTools' "Slow 4G" (fresh-import.mjs)
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { SLOW_NETWORK, freshImport } from "./fresh-import.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const TRIALS = 9;
const args = process.argv.slice(2);
const network = args.includes("--slow-network") ? SLOW_NETWORK : undefined;
const specifiers = ["/pkg/index.js", ...args.filter((a) => !a.startsWith("--")).map((dir) => `/${dir.replace(/^\/+|\/+$/g, "")}/index.js`)];
for (const bundle of ["sdk1.js", "sdk2.js"]) {
  if (existsSync(path.join(here, "page/dist", bundle))) specifiers.push(`/page/dist/${bundle}`); // bench/bundle.mjs writes them
}
const times = Object.fromEntries(specifiers.map((s) => [s, []]));
for (let trial = 0; trial < TRIALS; trial++) {
  for (const specifier of trial % 2 ? [...specifiers].reverse() : specifiers) {
    times[specifier].push((await freshImport(specifier, { profilePrefix: "mcp-wasm-ab-load-", network })).ms);
  }
}
const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
for (const [specifier, list] of Object.entries(times)) {
  console.log(specifier.padEnd(24), "median", median(list).toFixed(1).padStart(6), "ms; each:", list.map((t) => t.toFixed(0)).join(" "));
}
