// Where the primary half of the core can still reach for the rest: walks direct calls from the
// primary's functions whose names match <roots> and lists each stub it reaches (a function
// whose body moved to the rest), with the two calls before it. A profile is a sample: this
// names the paths it missed, from a build's primary kept with its names (scripts/build.sh
// writes target/split/primary-named.wasm). Calls through the function table (trait objects,
// closures) are not followed. Panics and other error paths are listed too; what matters is a
// path a working server can drive.
//   node scripts/split/reach.mjs target/split/primary-named.wasm 'take_chunk|on_event|read_with_fetch'
import { readFileSync } from "node:fs";
import { binaryen, readModule } from "./binaryen.mjs";

const [path, roots] = process.argv.slice(2);
if (!roots) throw new Error("usage: node scripts/split/reach.mjs <primary-named.wasm> <roots regex>");
const module = readModule(readFileSync(path));
const CALL = /\(call \$("[^"]*"|[^\s)]+)/g;
// A stub: if the rest is not in, load it; then call its slot (scripts/split/split.mjs).
const isStub = (text) => text.length < 800 && /global\.get \$__split_ready/.test(text);

const functions = new Map();
for (let i = 0; i < module.getNumFunctions(); i++) {
  const info = binaryen.getFunctionInfo(module.getFunctionByIndex(i));
  if (!info.body) continue;
  const text = binaryen.emitText(info.body);
  functions.set(info.name, { calls: [...text.matchAll(CALL)].map((m) => m[1].replace(/^"|"$/g, "")), stub: isStub(text) });
}
const pattern = new RegExp(roots);
const queue = [...functions.keys()].filter((name) => pattern.test(name) && !functions.get(name).stub).map((name) => [name, []]);
if (queue.length === 0) throw new Error(`reach: no function of the primary matches ${roots}`);
const seen = new Set();
const stubs = [];
while (queue.length > 0) {
  const [name, path] = queue.shift();
  if (seen.has(name) || !functions.has(name)) continue;
  seen.add(name);
  const fn = functions.get(name);
  if (fn.stub) stubs.push([name, path]);
  else for (const callee of fn.calls) queue.push([callee, [...path, name]]);
}
console.log(`reach: ${seen.size} functions reached from ${roots}; ${stubs.length} are stubs of the rest`);
for (const [name, path] of stubs) console.log(`${name}\n    <- ${path.slice(-2).reverse().join("\n    <- ")}`);
