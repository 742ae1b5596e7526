// The validator module alone on the deep structuredContent of bench/fixtures.mjs, with no
// server and no core: for comparing builds of the validator (scripts/build.sh) without the
// network's noise. Then the build's quick-check.js on the object JSON.parse built, and ajv's
// compiled validator (as sdk 1.x checks) on the same, each parse left out of the time.
//   node bench/ab-validator.mjs <pkg dir>          # medians of 60 validations
//   node bench/ab-validator.mjs <pkg dir> text     # a build whose validateJson takes strings
import { readFileSync } from "node:fs";
import Ajv from "ajv";
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

const { surelyValid } = await import(`${dir}/quick-check.js`);
const compiled = new Ajv({ strict: false }).compile(DEEP_OUTPUT_SCHEMA);
const [schemaText, instanceText] = [JSON.stringify(DEEP_OUTPUT_SCHEMA), JSON.stringify(deepResult)];
const times = { quick: [], ajv: [] };
for (let i = 0; i < 60; i++) {
  const [a, b, s] = [JSON.parse(instanceText), JSON.parse(instanceText), JSON.parse(schemaText)];
  let start = performance.now();
  if (!surelyValid(s, a, 100_000)) throw new Error("quick-check.js could not tell");
  times.quick.push(performance.now() - start);
  start = performance.now();
  if (!compiled(b)) throw new Error(JSON.stringify(compiled.errors));
  times.ajv.push(performance.now() - start);
}
const median = (list) => list.sort((x, y) => x - y)[30].toFixed(2);
console.log(dir, "quick-check.js median", median(times.quick), "ajv median", median(times.ajv));
