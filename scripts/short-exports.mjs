// Renames the exports of the core's primary half that only its JS glue reads to short names,
// in the .wasm and in the glue alike, as short-imports.mjs does for the imports. wasm-bindgen
// names each export after what it binds (`mcpclient_listAllResourceTemplates`, a closure's
// invoker with a 16-digit hash); a page downloads each name twice, in both files. The glue
// reads an export as a member of its instance's exports (`wasm.mcpclient_callTool`, before
// minification), and only such reads are renamed: what the rest of the core imports from the
// primary, a name the glue quotes, and a name it reads off anything else keep their names.
//   node scripts/short-exports.mjs pkg/mcp_wasm_bg.wasm pkg/mcp_wasm.js pkg/mcp_wasm_rest_bg.wasm [more.wasm…]
import { readFileSync, writeFileSync } from "node:fs";
import { readName, readU32, rewriteSection, u32, wasmName } from "./wasm-leb.mjs";

const [wasmPath, gluePath, ...secondaryPaths] = process.argv.slice(2);
if (!secondaryPaths.length) throw new Error("usage: node scripts/short-exports.mjs <primary.wasm> <glue.js> <rest.wasm> [more.wasm…]");
const wasm = readFileSync(wasmPath);
let glue = readFileSync(gluePath, "utf8");
const importedByRest = new Set(
  secondaryPaths.flatMap((path) => WebAssembly.Module.imports(new WebAssembly.Module(readFileSync(path))).map((i) => i.name)),
);

const escape = (text) => text.replace(/[$]/g, "\\$&");
const count = (pattern) => glue.match(pattern)?.length ?? 0;

// Short names that are not already an export's name, nor a word of the glue.
let next = 0;
function shortName(taken) {
  for (;;) {
    const candidate = `x${(next++).toString(36)}`;
    if (!taken.has(candidate) && count(new RegExp(`\\b${candidate}\\b`, "g")) === 0) return candidate;
  }
}

const exports = WebAssembly.Module.exports(new WebAssembly.Module(wasm)).map((e) => e.name);
const taken = new Set(exports);
const renamed = new Map();
for (const field of exports) {
  if (importedByRest.has(field) || field.startsWith("~")) continue;
  const reads = count(new RegExp(`\\bwasm\\.${escape(field)}\\b`, "g"));
  const members = count(new RegExp(`\\.${escape(field)}\\b`, "g"));
  const quoted = count(new RegExp(`["'\`]${escape(field)}["'\`]`, "g"));
  if (reads > 0 && reads === members && quoted === 0) renamed.set(field, shortName(taken));
}

const rewritten = rewriteSection(wasm, 7, (bytes, start) => {
  let [total, p] = readU32(bytes, start);
  const body = [u32(total)];
  while (body.length <= total) {
    const [field, descriptionStart] = readName(bytes, p);
    p = readU32(bytes, descriptionStart + 1)[1]; // the kind, then the index
    body.push(Buffer.concat([wasmName(renamed.get(field) ?? field), bytes.subarray(descriptionStart, p)]));
  }
  return Buffer.concat(body);
});

for (const [field, short] of renamed) glue = glue.replace(new RegExp(`\\bwasm\\.${escape(field)}\\b`, "g"), `wasm.${short}`);
writeFileSync(wasmPath, rewritten);
writeFileSync(gluePath, glue);
console.log(`short-exports: ${renamed.size} of ${exports.length} exports renamed in ${wasmPath}`);
