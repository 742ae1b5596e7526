// CI's size guard: fails when either figure of scripts/size.mjs (firstCallGzip,
// what a page fetches before its first tools/call; allGzip, everything the
// package can load) grows more than 5% above the figure recorded in
// bench/size-baseline.json. After a deliberate change, record the new figures
// with `node scripts/size-check.mjs --record` and say why in the commit.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";

const BASELINE = new URL("../bench/size-baseline.json", import.meta.url);
const ALLOWED_GROWTH = 0.05;
const MEASURES = ["firstCallGzip", "allGzip"];
const now = JSON.parse(execFileSync(process.execPath, [new URL("./size.mjs", import.meta.url).pathname, "--json"]).toString());

if (process.argv.includes("--record")) {
  const { firstCallGzip, allGzip, gzip, brotli, raw } = now;
  writeFileSync(BASELINE, `${JSON.stringify({ firstCallGzip, allGzip, gzip, brotli, raw }, null, 2)}\n`);
  console.log(`size-check: recorded ${firstCallGzip} bytes gzip for the first call, ${allGzip} for everything`);
  process.exit(0);
}
const baseline = JSON.parse(readFileSync(BASELINE, "utf8"));
let failed = false;
for (const measure of MEASURES) {
  // A baseline from before the split holds one figure, the whole package's.
  const recorded = baseline[measure] ?? baseline.gzip;
  const limit = Math.floor(recorded * (1 + ALLOWED_GROWTH));
  const change = ((now[measure] / recorded - 1) * 100).toFixed(1);
  if (now[measure] > limit) {
    failed = true;
    console.log(`FAIL size-check: ${measure} ${now[measure]} bytes, ${change}% above the recorded ${recorded} (limit ${limit})`);
  } else {
    console.log(`size-check: ${measure} ${now[measure]} bytes, ${change}% against the recorded ${recorded} (limit +${ALLOWED_GROWTH * 100}%)`);
  }
}
process.exit(failed ? 1 : 0);
