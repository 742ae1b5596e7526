// CI's size guard: fails when the shipped size (wasm + JS glue, gzip level 9,
// as scripts/size.mjs counts it) grows more than 5% above the figure recorded
// in bench/size-baseline.json. After a deliberate change, record the new
// figure with `node scripts/size-check.mjs --record` and say why in the commit.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";

const BASELINE = new URL("../bench/size-baseline.json", import.meta.url);
const ALLOWED_GROWTH = 0.05;
const now = JSON.parse(execFileSync(process.execPath, [new URL("./size.mjs", import.meta.url).pathname, "--json"]).toString());

if (process.argv.includes("--record")) {
  writeFileSync(BASELINE, `${JSON.stringify({ gzip: now.gzip, brotli: now.brotli, raw: now.raw }, null, 2)}\n`);
  console.log(`size-check: recorded ${now.gzip} bytes gzip`);
  process.exit(0);
}
const baseline = JSON.parse(readFileSync(BASELINE, "utf8"));
const limit = Math.floor(baseline.gzip * (1 + ALLOWED_GROWTH));
const change = ((now.gzip / baseline.gzip - 1) * 100).toFixed(1);
if (now.gzip > limit) {
  console.log(`FAIL size-check: ${now.gzip} bytes gzip, ${change}% above the recorded ${baseline.gzip} (limit ${limit})`);
  process.exit(1);
}
console.log(`size-check: ${now.gzip} bytes gzip, ${change}% against the recorded ${baseline.gzip} (limit +${ALLOWED_GROWTH * 100}%)`);
