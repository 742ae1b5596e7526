// Node entry: Node's fetch cannot read file: URLs, so read the modules from disk, and send
// requests through node-fetch.js (a cheaper request for Node's fetch).
// The core's rest (rest-gate.js), its OAuth module and its validator's are read
// and instantiated the first time a call needs one.
import { readFileSync } from "node:fs";
import { setPartLoaders, __setRestLoader, initSync } from "./mcp_wasm.js";
import "./rest-gate.js";
import "./node-fetch.js";

initSync({ module: readFileSync(new URL("./mcp_wasm_bg.wasm", import.meta.url)) });
__setRestLoader(
  { sync: () => readFileSync(new URL("./mcp_wasm_rest_bg.wasm", import.meta.url)) },
  { sync: () => readFileSync(new URL("./mcp_wasm_oauth_bg.wasm", import.meta.url)) },
  { sync: () => readFileSync(new URL("./mcp_wasm_validator_bg.wasm", import.meta.url)) },
);
setPartLoaders({
  quickCheck: () => import("./quick-check.js"),
  dpop: () => import("./dpop.js"),
});

import "./tasks.js";
import "./dispose.js";

export * from "./mcp_wasm.js";
export * from "./browser-auth.js";
export * from "./tool-loop.js";
export * from "./bridges.js";
export * from "./host.js";
