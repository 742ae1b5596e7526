// Prints the shipped size of the package: the wasm module plus the JS glue that
// loads it, raw, gzip (level 9) and brotli. Usage: node scripts/size.mjs [--json]
import { readFileSync } from "node:fs";
import { gzipSync, brotliCompressSync, constants } from "node:zlib";

const files = ["pkg/mcp_wasm_bg.wasm", "pkg/mcp_wasm.js", "pkg/browser-auth.js", "pkg/tool-loop.js", "pkg/host.js"];
const bytes = Buffer.concat(files.map((f) => readFileSync(new URL(`../${f}`, import.meta.url))));
const size = {
  raw: bytes.length,
  gzip: files.reduce((n, f) => n + gzipSync(readFileSync(new URL(`../${f}`, import.meta.url)), { level: 9 }).length, 0),
  brotli: files.reduce(
    (n, f) =>
      n +
      brotliCompressSync(readFileSync(new URL(`../${f}`, import.meta.url)), {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11 },
      }).length,
    0,
  ),
};
if (process.argv.includes("--json")) {
  console.log(JSON.stringify(size));
} else {
  const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
  console.log(`size: wasm + JS glue = ${kb(size.raw)} raw, ${kb(size.gzip)} gzip, ${kb(size.brotli)} brotli`);
}
