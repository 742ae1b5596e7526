// The JSON Schema validator module, for the browser entry: fetched and
// instantiated the first time a tool's structuredContent or an elicitation
// answer needs checking. Node and workerd load it in their own entries.
import init, { validateJson } from "./mcp_wasm_validator.js";

export async function load() {
  await init({ module_or_path: new URL("./mcp_wasm_validator_bg.wasm", import.meta.url) });
  return { validateJson };
}
