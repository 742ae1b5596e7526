// mcp-wasm/validator.js: the JSON Schema validator's module, for `setPartLoaders` (mcp-wasm/raw).
// Initialise it once, then hand the module itself to the core.

/** Fetches and instantiates `mcp_wasm_validator_bg.wasm` (by default from beside this file). */
export default function init(input?: {
  module_or_path?: RequestInfo | URL | Response | BufferSource | WebAssembly.Module | Promise<RequestInfo | URL | Response | BufferSource | WebAssembly.Module>;
}): Promise<unknown>;

/** Instantiates the validator from its module or its bytes, synchronously. */
export function initSync(input: { module: BufferSource | WebAssembly.Module }): unknown;
