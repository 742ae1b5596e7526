// How small the core module would be if everything a first `tools/call` does
// not reach were split out perfectly: drops every export of the wasm but
// `McpClient.connect`, `callTool` and `close` (and wasm-bindgen's own), lets
// wasm-opt remove what nothing reaches any more, and prints the sizes. The
// data section is kept whole (nothing can tell which of its bytes are read).
// An upper bound: wasm-opt keeps every function the table names, and each async
// method's boxed future is there, so most of what the dropped exports reach stays
// (bench/analysis.md, "Seventh round", has the bound measured at the source).
//   node bench/first-call-only.mjs [pkg/mcp_wasm_bg.wasm] [--keep-names out.wasm]
// With a build that keeps its names (wasm-bindgen --keep-debug, wasm-opt -g),
// --keep-names writes the result for `twiggy top`.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { readU32 as leb, u32 as encode } from "../scripts/wasm-leb.mjs";

const args = process.argv.slice(2);
const named = args.indexOf("--keep-names");
const out = named >= 0 ? args.splice(named, 2)[1] : null;
const input = args[0] ?? "pkg/mcp_wasm_bg.wasm";
const KEEP = new Set(["memory", "setPartLoaders", "mcpclient_connect", "mcpclient_callTool", "mcpclient_close", "__wbg_mcpclient_free"]);
const kept = (name) => KEEP.has(name) || /^(__wbindgen|__externref|wasm_bindgen__convert|__abort|__instance)/.test(name);

// The module with its export section rewritten to the kept exports.
const wasm = readFileSync(input);
const parts = [wasm.subarray(0, 8)];
for (let at = 8; at < wasm.length;) {
  const id = wasm[at];
  const [size, body] = leb(wasm, at + 1);
  if (id === 7) {
    const entries = [];
    let [count, k] = leb(wasm, body);
    for (; count > 0; count--) {
      const start = k;
      const [length, nameAt] = leb(wasm, k);
      const name = wasm.subarray(nameAt, nameAt + length).toString();
      [, k] = leb(wasm, nameAt + length + 1); // kind byte, then the index
      if (kept(name)) entries.push(wasm.subarray(start, k));
    }
    const section = Buffer.concat([encode(entries.length), ...entries]);
    parts.push(Buffer.from([7]), encode(section.length), section);
  } else {
    parts.push(wasm.subarray(at, body + size));
  }
  at = body + size;
}
const dir = mkdtempSync(path.join(os.tmpdir(), "first-call-only-"));
try {
  const trimmed = path.join(dir, "trimmed.wasm");
  const optimized = out ?? path.join(dir, "optimized.wasm");
  writeFileSync(trimmed, Buffer.concat(parts));
  const features = ["--enable-reference-types", "--enable-bulk-memory", "--enable-nontrapping-float-to-int", "--enable-sign-ext", "--enable-mutable-globals", "--enable-multivalue"];
  execFileSync("node_modules/.bin/wasm-opt", [trimmed, "-Oz", "-ocimfs=20", ...(out ? ["-g"] : []), ...features, "-o", optimized]);
  const size = (bytes) => `${bytes.length} B raw, ${gzipSync(bytes, { level: 9 }).length} B gzip`;
  console.log(`${input}: ${size(wasm)}`);
  console.log(`connect, callTool and close alone: ${size(readFileSync(optimized))}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
