// Renames a wasm-bindgen module's imports to short names, in the .wasm and in
// its JS glue alike. wasm-bindgen names each import after its JS function and
// a 16-digit hash (`__wbg_setTimeout_7c909c5a9b443d0d`); the core has over a
// hundred, and their hashes, written in both files, are bytes that gzip cannot
// fold. Only the names change: the module names, the import kinds and their
// order stay, so the instance is the same.
//   node scripts/short-imports.mjs pkg/mcp_wasm_bg.wasm pkg/mcp_wasm.js
import { readFileSync, writeFileSync } from "node:fs";
import { readU32, u32 } from "./wasm-leb.mjs";

const [wasmPath, gluePath] = process.argv.slice(2);
const wasm = readFileSync(wasmPath);
let glue = readFileSync(gluePath, "utf8");

const name = (text) => { const bytes = Buffer.from(text, "utf8"); return Buffer.concat([u32(bytes.length), bytes]); };

// The bytes of one import's description (after its two names), by kind.
function descriptionEnd(bytes, at) {
  const kind = bytes[at++];
  const skipLimits = (p) => { const flags = bytes[p++]; [, p] = readU32(bytes, p); if (flags & 1) [, p] = readU32(bytes, p); return p; };
  if (kind === 0) return readU32(bytes, at)[1]; // function: type index
  if (kind === 1) return skipLimits(at + 1); // table: reftype, limits
  if (kind === 2) return skipLimits(at); // memory: limits
  if (kind === 3) return at + 2; // global: valtype, mutability
  throw new Error(`import kind ${kind} is not known to short-imports`);
}

if (wasm.readUInt32LE(0) !== 0x6d736100) throw new Error(`${wasmPath} is not a wasm module`);
const parts = [wasm.subarray(0, 8)];
const renamed = new Map();
let at = 8;
while (at < wasm.length) {
  const id = wasm[at];
  const [size, start] = readU32(wasm, at + 1);
  const end = start + size;
  if (id !== 2) {
    parts.push(wasm.subarray(at, end));
    at = end;
    continue;
  }
  let [count, p] = readU32(wasm, start);
  const body = [u32(count)];
  for (let i = 0; i < count; i++) {
    let length;
    [length, p] = readU32(wasm, p);
    const module = wasm.subarray(p, p + length).toString("utf8");
    p += length;
    [length, p] = readU32(wasm, p);
    const field = wasm.subarray(p, p + length).toString("utf8");
    p += length;
    const descriptionStart = p;
    p = descriptionEnd(wasm, p);
    // Hashed names only: a name without a hash may be read by name elsewhere.
    const short = /_[0-9a-f]{16}$/.test(field) ? `i${renamed.size.toString(36)}` : field;
    if (short !== field) renamed.set(field, short);
    body.push(name(module), name(short), wasm.subarray(descriptionStart, p));
  }
  const section = Buffer.concat(body);
  parts.push(Buffer.from([2]), u32(section.length), section);
  at = end;
}

for (const [field, short] of renamed) {
  const pattern = new RegExp(`\\b${field}\\b`, "g");
  const uses = glue.match(pattern)?.length ?? 0;
  if (uses === 0) throw new Error(`${gluePath} does not name the import ${field}`);
  glue = glue.replace(pattern, short);
}
writeFileSync(wasmPath, Buffer.concat(parts));
writeFileSync(gluePath, glue);
console.log(`short-imports: ${renamed.size} imports renamed in ${wasmPath}`);
