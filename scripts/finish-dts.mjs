// Finishes pkg/mcp_wasm.d.ts after wasm-bindgen:
// 1. wasm-bindgen declares each re-exported JS class as `export let X: unknown;`;
//    src/ts/api.d.ts declares those classes precisely, so drop those lines.
// 2. The `InitOutput` interface lists the raw wasm exports with `any`; they are
//    internal, but the public surface must hold no `any`, so they become `unknown`.
// 3. Declare the rest loader's exports (scripts/split/rest-loader.d.ts).
// 4. Fail if an `any` type is left anywhere outside comments.
import { readFileSync, writeFileSync } from "node:fs";

const path = new URL("../pkg/mcp_wasm.d.ts", import.meta.url);
let dts = readFileSync(path, "utf8");

for (const name of ["McpError", "McpClientError", "McpNotificationEvent", "McpErrorEvent", "McpConnectionEvent"]) {
  const line = `export let ${name}: unknown;\n`;
  if (!dts.includes(line)) throw new Error(`finish-dts: expected wasm-bindgen to emit ${JSON.stringify(line)}`);
  dts = dts.replace(line, "");
}

dts = dts.replace(/export interface InitOutput \{[\s\S]*?\n\}/, (block) => block.replace(/\bany\b/g, "unknown"));

// The rest of the core (scripts/split/rest-loader.js, joined to the glue by the build).
const INIT_SYNC = "export function initSync(module: { module: SyncInitInput } | SyncInitInput): InitOutput;\n";
if (!dts.includes(INIT_SYNC)) throw new Error("finish-dts: expected wasm-bindgen to declare initSync");
dts = dts.replace(INIT_SYNC, INIT_SYNC + readFileSync(new URL("./split/rest-loader.d.ts", import.meta.url), "utf8"));

const code = dts.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
const leftover = code.split("\n").filter((line) => /(^|[^\w$.])any([^\w$]|$)/.test(line));
if (leftover.length) throw new Error(`finish-dts: \`any\` in the public types:\n${leftover.join("\n")}`);

writeFileSync(path, dts);
