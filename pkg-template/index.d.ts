// Every entry point (browser, Node, workerd) exports the same API, already initialised.
export * from "./mcp_wasm.js";
export * from "./browser-auth.js";
export * from "./tool-loop.js";
export * from "./bridges.js";
export * from "./host.js";
