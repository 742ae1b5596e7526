// The OAuth module, for the browser entry: fetched and instantiated when the
// first client with `auth` connects. Node and workerd load it in their own entries.
import init, { startOAuth } from "./mcp_wasm_oauth.js";

export async function load() {
  await init({ module_or_path: new URL("./mcp_wasm_oauth_bg.wasm", import.meta.url) });
  return { startOAuth };
}
