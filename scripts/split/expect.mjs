// Fails the build when a module of the split core lacks a function it must define: a part's
// entries, which binaryen could inline into their callers outside it (scripts/build.sh keeps it
// from doing so), leaving the part's code reachable only from there, and so in the rest.
//   node scripts/split/expect.mjs <named.wasm> <name prefix>...
import { readFileSync } from "node:fs";
import { definedFunctions, readModule } from "./binaryen.mjs";

const [input, ...prefixes] = process.argv.slice(2);
if (!input || !prefixes.length) throw new Error("usage: node scripts/split/expect.mjs <named.wasm> <name prefix>...");
const names = definedFunctions(readModule(readFileSync(input))).map((fn) => fn.name);
const missing = prefixes.filter((prefix) => !names.some((name) => name.startsWith(prefix)));
if (missing.length) throw new Error(`split: ${input} defines no ${missing.join(", no ")}`);
