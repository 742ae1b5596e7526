// The validator module alone on the deep structuredContent of bench/fixtures.mjs, with no
// server and no core: for comparing builds of the validator (scripts/build.sh) without the
// network's noise.
//   node bench/ab-validator.mjs <pkg dir>          # median of 60 validations
//   node bench/ab-validator.mjs <pkg dir> text     # a build whose validateJson takes strings
import { readFileSync } from "node:fs";
import { fixtures, DEEP_OUTPUT_SCHEMA } from "./fixtures.mjs";
const dir = process.argv[2];
const mod = await import(`${dir}/mcp_wasm_validator.js`);
mod.initSync({ module: readFileSync(`${dir}/mcp_wasm_validator_bg.wasm`) });
const { deepResult } = fixtures();

const enc = new TextEncoder();
const schema = enc.encode(JSON.stringify(DEEP_OUTPUT_SCHEMA));
const inst = enc.encode(JSON.stringify(deepResult));
const asText = process.argv[3] === "text";
const args = asText ? [JSON.stringify(DEEP_OUTPUT_SCHEMA), JSON.stringify(deepResult)] : [schema, inst];
const t = [];
for (let i = 0; i < 60; i++) {
  const s = performance.now();
  const v = mod.validateJson(args[0], args[1], 1e7, 64);
  t.push(performance.now() - s);
  if (v !== null) throw new Error(JSON.stringify(v));
}
t.sort((a, b) => a - b);
console.log(dir, "validate median", t[30].toFixed(2), "p10", t[6].toFixed(2), "bytes", inst.length);
