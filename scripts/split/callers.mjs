// Which functions of a module call the functions whose names match a pattern, and how often: why
// a function is in the first call's half (functions-report.mjs finds it).
//   node scripts/split/callers.mjs target/split/primary-named.wasm "join_generic|replace_range"
import { readFileSync } from "node:fs";
import { binaryen as B, definedFunctions, readModule } from "./binaryen.mjs";
import { each } from "./expressions.mjs";

const [input, pattern] = process.argv.slice(2);
if (!pattern) throw new Error("usage: node scripts/split/callers.mjs <named.wasm> <pattern>");
const module = readModule(readFileSync(input));
const target = new RegExp(pattern);
const calls = new Map();
for (const fn of definedFunctions(module)) {
  if (target.test(fn.name)) continue;
  each(fn.body, (expression, id) => {
    if (id !== B.CallId) return;
    const callee = B.getExpressionInfo(expression).target;
    if (!target.test(callee)) return;
    const key = `${fn.name.slice(0, 120)} -> ${callee.slice(0, 90)}`;
    calls.set(key, (calls.get(key) ?? 0) + 1);
  });
}
for (const [key, count] of [...calls].sort()) console.log(count, key);
