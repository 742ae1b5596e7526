// CI's size guard: fails when either figure of scripts/size.mjs (firstCallGzip,
// what a page fetches before its first tools/call; allGzip, everything the
// package can load) grows more than 5% above the figure recorded in
// bench/size-baseline.json. After a deliberate change, record the new figures
// with `node scripts/size-check.mjs --record` and say why in the commit. It also
// fails when the browser entry's modules take more rounds of fetches than
// recorded (moduleRounds): each round delays the wasm fetch on a fresh page, and when the
// first call passes issue 16's budget of 100 KiB gzip, whatever the baseline says.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";

const BASELINE = new URL("../bench/size-baseline.json", import.meta.url);
const ALLOWED_GROWTH = 0.05;
const MEASURES = ["firstCallGzip", "allGzip"];
const FIRST_CALL_BUDGET = 100 * 1024;
const now = JSON.parse(execFileSync(process.execPath, [new URL("./size.mjs", import.meta.url).pathname, "--json"]).toString());

if (process.argv.includes("--record")) {
  const { firstCallGzip, allGzip, gzip, brotli, raw, moduleRounds } = now;
  writeFileSync(BASELINE, `${JSON.stringify({ firstCallGzip, allGzip, gzip, brotli, raw, moduleRounds }, null, 2)}\n`);
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
if (baseline.moduleRounds !== undefined) {
  if (now.moduleRounds > baseline.moduleRounds) {
    failed = true;
    console.log(`FAIL size-check: the browser entry's modules arrive in ${now.moduleRounds} rounds of fetches, not ${baseline.moduleRounds}`);
  } else {
    console.log(`size-check: the browser entry's modules arrive in ${now.moduleRounds} rounds of fetches (recorded ${baseline.moduleRounds})`);
  }
}
if (now.firstCallGzip > FIRST_CALL_BUDGET) {
  failed = true;
  console.log(`FAIL size-check: the first call is ${now.firstCallGzip} bytes gzip, over the budget of ${FIRST_CALL_BUDGET} (100 KiB)`);
} else {
  console.log(`size-check: the first call is ${FIRST_CALL_BUDGET - now.firstCallGzip} bytes under the budget of ${FIRST_CALL_BUDGET} (100 KiB)`);
}
process.exit(failed ? 1 : 0);
