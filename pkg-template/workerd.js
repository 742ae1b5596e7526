// Cloudflare Workers entry: workerd forbids compiling wasm from bytes at run time,
// so the module is imported (wrangler and workerd hand it over as a
// WebAssembly.Module) and instantiated synchronously.
import wasmModule from "./mcp_wasm_bg.wasm";
import { initSync } from "./mcp_wasm.js";

initSync({ module: wasmModule });

export * from "./mcp_wasm.js";
export * from "./browser-auth.js";
export * from "./tool-loop.js";
export * from "./host.js";
