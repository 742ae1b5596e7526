// Browser and bundler entry: instantiate the core module once, with top-level
// await, so that importers can use the API straight away. Bundlers resolve the
// `new URL` form and copy the .wasm files next to the bundle. The core's rest
// (rest-gate.js: the lists, progress, a server's requests…), its OAuth and
// validator modules and the JS parts (the quick JSON Schema check, DPoP keys)
// are separate modules, fetched the first time a call needs one.
import init, { setPartLoaders, __setRestLoader, loadRest } from "./mcp_wasm.js";
import { prefetchAfterFirstCall } from "./rest-gate.js";
import { webRestLoader } from "./rest-web.js";

await init({ module_or_path: new URL("./mcp_wasm_bg.wasm", import.meta.url) });
__setRestLoader(
  webRestLoader(new URL("./mcp_wasm_rest_bg.wasm", import.meta.url)),
  webRestLoader(new URL("./mcp_wasm_oauth_bg.wasm", import.meta.url)),
  webRestLoader(new URL("./mcp_wasm_validator_bg.wasm", import.meta.url)),
);
// Where nothing can fetch synchronously (Deno has no XMLHttpRequest), the rest loads now.
if (typeof XMLHttpRequest === "function") prefetchAfterFirstCall();
else await loadRest();
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
