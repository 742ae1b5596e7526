// Bundles each official SDK client as a browser app would ship it (esbuild,
// minified, ESM, platform browser): the Client with the Streamable HTTP and SSE
// transports. The bundles feed the size comparison and the browser benchmark.
// Prints the sizes (gzip level 9, brotli quality 11) as JSON.
import { build } from "esbuild";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync, brotliCompressSync, constants } from "node:zlib";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "..");
const out = path.join(here, "page/dist");
mkdirSync(out, { recursive: true });

const ENTRIES = {
  sdk1: `export { Client } from "@modelcontextprotocol/sdk/client/index.js";
export { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
export { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";`,
  sdk2: `export { Client, StreamableHTTPClientTransport, SSEClientTransport } from "@modelcontextprotocol/client";`,
};

export function sizes(files) {
  const bytes = files.map((f) => readFileSync(f));
  return {
    raw: bytes.reduce((n, b) => n + b.length, 0),
    gzip: bytes.reduce((n, b) => n + gzipSync(b, { level: 9 }).length, 0),
    brotli: bytes.reduce((n, b) => n + brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length, 0),
  };
}

export async function bundleAll() {
  const result = {};
  for (const [name, contents] of Object.entries(ENTRIES)) {
    const file = path.join(out, `${name}.js`);
    await build({ stdin: { contents, resolveDir: repo, loader: "js" }, bundle: true, minify: true, format: "esm", platform: "browser", target: "es2022", outfile: file, logLevel: "error" });
    result[name] = sizes([file]);
  }
  // The same file sets as the CI size tier (scripts/size.mjs walks the package's imports):
  // what a page fetches before its first call, and everything the package can load.
  const sets = JSON.parse(execFileSync(process.execPath, [path.join(repo, "scripts/size.mjs"), "--json"]).toString());
  const inPkg = (files) => files.map((f) => path.join(repo, "pkg", f));
  result["mcp-wasm"] = sizes(inPkg(sets.firstCall));
  result["mcp-wasm (everything)"] = sizes(inPkg([...sets.firstCall, ...sets.lazy]));
  return result;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await bundleAll();
  writeFileSync(path.join(out, "sizes.json"), JSON.stringify(result, null, 2));
  console.log(JSON.stringify(result, null, 2));
}
