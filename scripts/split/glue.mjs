// Joins the rest loader (scripts/split/rest-loader.js) to the core's wasm-bindgen glue:
// the instance gets the `__split` imports and the module exports `loadRest`,
// `__setRestLoader`, `initRest` and `initRestSync`.
//   node scripts/split/glue.mjs <glue.js> split     the shipped glue, for a split core
//   node scripts/split/glue.mjs <glue.js> profile   the glue of an instrumented core
//                                                   (scripts/split/instrument.mjs), which
//                                                   reports what it runs and the static
//                                                   data it touches (profile-hooks.js)
import { readFileSync, writeFileSync } from "node:fs";
import { gluePathIn } from "../glue-path.mjs";

const [gluePath, mode] = process.argv.slice(2);
if (mode !== "split" && mode !== "profile") throw new Error("usage: node scripts/split/glue.mjs <glue.js> split|profile");
let glue = readFileSync(gluePath, "utf8");
const loader = readFileSync(new URL("./rest-loader.js", import.meta.url), "utf8");

// Each edit must apply exactly once: a new wasm-bindgen that writes its glue otherwise
// fails the build here instead of shipping a core whose halves never meet.
function edit(pattern, replace) {
  const found = glue.match(new RegExp(pattern.source, "g"))?.length ?? 0;
  if (found !== 1) throw new Error(`split/glue: ${pattern} matched ${found} times in ${gluePath}`);
  glue = glue.replace(pattern, replace);
}
edit(/("\.\/mcp_wasm_bg\.js": import0,)/, '$1\n        "__split": __split,');
// The loader sets the gates that have long bodies wait for the rest and the core's checks for
// the validator's module (src/glue.js's `setRestGate`, `setPartGate`).
const snippet = gluePathIn(glue);
if (!snippet) throw new Error(`split/glue: no import of src/glue.js in ${gluePath}`);
glue = glue.replace(/^(\/\* @ts-self-types="[^"]+" \*\/\n)?/, (first) => `${first}import { setPartGate as __setPartGate, setRestGate as __setRestGate } from "${snippet}";\n`);
glue += loader.replace("__SPLIT__", mode === "split" ? "true" : "false");
if (mode === "profile") glue += readFileSync(new URL("./profile-hooks.js", import.meta.url), "utf8");
writeFileSync(gluePath, glue);
