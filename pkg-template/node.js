// Node entry: Node's fetch cannot read file: URLs, so read the module from disk.
import { readFileSync } from "node:fs";
import { initSync } from "./mcp_wasm.js";

initSync({ module: readFileSync(new URL("./mcp_wasm_bg.wasm", import.meta.url)) });

export * from "./mcp_wasm.js";
export * from "./browser-auth.js";
export * from "./tool-loop.js";
export * from "./host.js";
