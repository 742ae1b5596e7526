// Checks that a shipped half of the core has its functions at the indices of the copy kept
// with names (target/split/*-named.wasm), which is what names a stack trace's frames.
// scripts/build.sh optimises the two from the same input, one with `-g`: names kept, binaryen
// leaves each function's locals in their order, and the gzip is 0.3 KB larger per half. The
// passes are otherwise the same, so the two must agree on every function's place and type
// (the type, import, function and element sections, byte for byte); if they ever do not,
// the build fails rather than ship traces that name the wrong functions.
//
// Usage: node scripts/split/same-functions.mjs <named.wasm> <shipped.wasm>
import { readFileSync } from "node:fs";
import { readU32 } from "../wasm-leb.mjs";

const COMPARED = { 1: "type", 2: "import", 3: "function", 9: "element" };

function sections(path) {
  const wasm = readFileSync(path);
  if (wasm.readUInt32LE(0) !== 0x6d736100) throw new Error(`${path}: not a wasm module`);
  const found = new Map();
  let at = 8;
  while (at < wasm.length) {
    const [size, start] = readU32(wasm, at + 1);
    if (COMPARED[wasm[at]]) found.set(wasm[at], wasm.subarray(start, start + size));
    at = start + size;
  }
  return found;
}

const [namedPath, shippedPath] = process.argv.slice(2);
const named = sections(namedPath);
const shipped = sections(shippedPath);
for (const [id, what] of Object.entries(COMPARED)) {
  const a = named.get(Number(id));
  const b = shipped.get(Number(id));
  if ((a === undefined) !== (b === undefined) || (a && !a.equals(b))) {
    console.error(`same-functions: the ${what} sections of ${namedPath} and ${shippedPath} differ: the named copy would name the wrong functions`);
    process.exit(1);
  }
}
