// What a half of the split core holds, in binaryen expressions (a size that does not depend on
// compression, and names the code): per crate and module, then the largest functions. Read with the
// halves the build keeps with their names, to find what the first call's module carries and why.
//   node scripts/split/functions-report.mjs target/split/primary-named.wasm [rows]
import { readFileSync } from "node:fs";
import { definedFunctions, readModule } from "./binaryen.mjs";
import { each } from "./expressions.mjs";

const [input, rows = "40"] = process.argv.slice(2);
if (!input) throw new Error("usage: node scripts/split/functions-report.mjs <named.wasm> [rows]");
const module = readModule(readFileSync(input));
const functions = definedFunctions(module).map((fn) => {
  let size = 0;
  each(fn.body, () => size++);
  return { size, name: fn.name };
});
// `<a::b as c>::d` counts under a::b, an outlined region (`$coldN`) under its function's module.
const groupOf = (name) => name.replace(/^_?</, "").split("::").slice(0, 2).join("::");
const groups = new Map();
for (const { size, name } of functions) groups.set(groupOf(name), (groups.get(groupOf(name)) ?? 0) + size);
const total = functions.reduce((sum, { size }) => sum + size, 0);
console.log(`${total} expressions in ${functions.length} functions`);
for (const [group, size] of [...groups].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(String(size).padStart(7), group);
console.log("largest functions:");
for (const { size, name } of functions.sort((a, b) => b.size - a.size).slice(0, Number(rows))) console.log(String(size).padStart(7), name.slice(0, 150));
