// The validator alone on the deep structuredContent of bench/fixtures.mjs, with no server and no
// client: for comparing builds of the validator (scripts/build.sh) without the network's noise.
// A build of the split core runs it in its validator's module (`__validateJson` of
// mcp-wasm/raw, the instance as text); an older build had a module of its own
// (mcp_wasm_validator.js, `validateJson` on bytes). Then the build's quick-check.js on the object
// JSON.parse built, and ajv's compiled validator (as sdk 1.x checks) on the same, each parse
// left out of the time.
//   node bench/ab-validator.mjs <pkg dir>          # medians of 60 validations
import { existsSync, readFileSync } from "node:fs";
import Ajv from "ajv";
import { fixtures, DEEP_OUTPUT_SCHEMA } from "./fixtures.mjs";
const dir = process.argv[2];
const { deepResult } = fixtures();
const file = (name) => readFileSync(`${dir}/${name}`);
let validate;
if (existsSync(`${dir}/mcp_wasm_validator.js`)) {
  const mod = await import(`${dir}/mcp_wasm_validator.js`);
  mod.initSync({ module: file("mcp_wasm_validator_bg.wasm") });
  const enc = new TextEncoder();
  const [schema, inst] = [enc.encode(JSON.stringify(DEEP_OUTPUT_SCHEMA)), enc.encode(JSON.stringify(deepResult))];
  validate = () => mod.validateJson(schema, inst, 1e7, 64);
} else {
  const core = await import(`${dir}/mcp_wasm.js`);
  core.initSync({ module: file("mcp_wasm_bg.wasm") });
  core.initRestSync({ module: file("mcp_wasm_rest_bg.wasm"), validator: file("mcp_wasm_validator_bg.wasm") });
  const [schema, inst] = [JSON.stringify(DEEP_OUTPUT_SCHEMA), JSON.stringify(deepResult)];
  await core.__validateJson("{}", "0", 1, 1); // the validator's module in, before the clock starts
  validate = () => core.__validateJson(schema, inst, 1e7, 64);
}
const inst = JSON.stringify(deepResult);
const t = [];
for (let i = 0; i < 60; i++) {
  const s = performance.now();
  const v = await validate();
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
  const [a, b] = [JSON.parse(instanceText), JSON.parse(instanceText)];
  let start = performance.now();
  if (!surelyValid(schemaText, a, 100_000)) throw new Error("quick-check.js could not tell");
  times.quick.push(performance.now() - start);
  start = performance.now();
  if (!compiled(b)) throw new Error(JSON.stringify(compiled.errors));
  times.ajv.push(performance.now() - start);
}
const median = (list) => list.sort((x, y) => x - y)[30].toFixed(2);
console.log(dir, "quick-check.js median", median(times.quick), "ajv median", median(times.ajv));
