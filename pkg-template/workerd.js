// Cloudflare Workers entry: workerd forbids compiling wasm from bytes at run time,
// so the modules are imported (wrangler and workerd hand them over as
// WebAssembly.Module) and instantiated synchronously; the core's rest
// (rest-gate.js), its OAuth module and the validator's only the first time a call needs them.
import wasmModule from "./mcp_wasm_bg.wasm";
import restModule from "./mcp_wasm_rest_bg.wasm";
import oauthModule from "./mcp_wasm_oauth_bg.wasm";
import validatorModule from "./mcp_wasm_validator_bg.wasm";
import { setPartLoaders, __setRestLoader, initSync } from "./mcp_wasm.js";
import * as quickCheck from "./quick-check.js";
import * as dpop from "./dpop.js";
import "./rest-gate.js";

initSync({ module: wasmModule });
__setRestLoader({ sync: () => restModule }, { sync: () => oauthModule }, { sync: () => validatorModule });
setPartLoaders({
  quickCheck: async () => quickCheck,
  dpop: async () => dpop,
});

import "./tasks.js";
import "./dispose.js";

export * from "./mcp_wasm.js";
export * from "./browser-auth.js";
export * from "./tool-loop.js";
export * from "./bridges.js";
export * from "./host.js";
