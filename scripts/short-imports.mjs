// Renames a wasm-bindgen module's imports to short names, in the .wasm and in
// its JS glue alike. wasm-bindgen names each import after its JS function and
// a 16-digit hash (`__wbg_setTimeout_7c909c5a9b443d0d`); the core has over a
// hundred, and their hashes, written in both files, are bytes that gzip cannot
// fold. The module of src/glue.js, which wasm-bindgen names by its hashed path
// (`./snippets/mcp-wasm-<hash>/src/glue.js`, once per import in both files),
// becomes `g`. Only the names change: the import kinds and their order stay,
// so the instance is the same.
//   node scripts/short-imports.mjs pkg/mcp_wasm_bg.wasm pkg/mcp_wasm.js
import { readFileSync, writeFileSync } from "node:fs";
import { readName, readU32, rewriteSection, u32, wasmName } from "./wasm-leb.mjs";

const [wasmPath, gluePath] = process.argv.slice(2);
const wasm = readFileSync(wasmPath);
let glue = readFileSync(gluePath, "utf8");


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

const SNIPPET_MODULE = "g";
const renamed = new Map();
const snippetModules = new Set();
const rewritten = rewriteSection(wasm, 2, (bytes, start) => {
  let [count, p] = readU32(bytes, start);
  const body = [u32(count)];
  for (let i = 0; i < count; i++) {
    let module, field;
    [module, p] = readName(bytes, p);
    [field, p] = readName(bytes, p);
    const descriptionStart = p;
    p = descriptionEnd(bytes, p);
    // Hashed names only: a name without a hash may be read by name elsewhere.
    const short = /_[0-9a-f]{16}$/.test(field) ? `i${renamed.size.toString(36)}` : field;
    if (short !== field) renamed.set(field, short);
    const snippet = module.startsWith("./snippets/");
    if (snippet) snippetModules.add(module);
    body.push(wasmName(snippet ? SNIPPET_MODULE : module), wasmName(short), bytes.subarray(descriptionStart, p));
  }
  return Buffer.concat(body);
});

for (const [field, short] of renamed) {
  const pattern = new RegExp(`\\b${field}\\b`, "g");
  const uses = glue.match(pattern)?.length ?? 0;
  if (uses === 0) throw new Error(`${gluePath} does not name the import ${field}`);
  glue = glue.replace(pattern, short);
}
if (snippetModules.size > 1) throw new Error(`short-imports: one snippet module expected, found ${[...snippetModules].join(", ")}`);
for (const module of snippetModules) {
  // The import object's keys only (`"<module>": importN`), not the `import … from` that loads it.
  const key = new RegExp(`"${module.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}"(?=:)`, "g");
  if (!key.test(glue)) throw new Error(`${gluePath} does not key its imports by ${module}`);
  glue = glue.replace(key, JSON.stringify(SNIPPET_MODULE));
}
// wasm-bindgen imports the snippet once per Rust block that binds it (`import1`, `import2`, …),
// each the same module: the object literal keeps the last of the repeated keys, so one will do.
let keptKey = false;
glue = glue.replace(new RegExp(`\\s*"${SNIPPET_MODULE}": import\\d+,?`, "g"), (entry) => {
  if (keptKey) return "";
  keptKey = true;
  return entry.endsWith(",") ? entry : `${entry},`;
});
writeFileSync(wasmPath, rewritten);
writeFileSync(gluePath, glue);
console.log(`short-imports: ${renamed.size} imports renamed in ${wasmPath}, ${snippetModules.size} snippet module`);
