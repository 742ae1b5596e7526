// Browser and bundler entry: instantiate the module once, with top-level await, so
// that importers can use the API straight away. Bundlers resolve the `new URL`
// form and copy the .wasm file next to the bundle.
import init from "./mcp_wasm.js";

await init({ module_or_path: new URL("./mcp_wasm_bg.wasm", import.meta.url) });

export * from "./mcp_wasm.js";
export * from "./browser-auth.js";
export * from "./tool-loop.js";
export * from "./host.js";
