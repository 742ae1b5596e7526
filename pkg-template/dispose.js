// `await using client = await McpClient.connect(…)` ends the session as `close()` does: the server is
// asked to forget it and whatever is pending is rejected. wasm-bindgen gives the class
// `Symbol.dispose` alone, as `free`, which `await using` would fall back to: the object freed, the
// session left open on the server. McpHost does the same (host.js).
import { McpClient } from "./mcp_wasm.js";

if (typeof Symbol.asyncDispose === "symbol") {
  Object.defineProperty(McpClient.prototype, Symbol.asyncDispose, {
    value() {
      return this.close();
    },
    writable: true,
    configurable: true,
  });
}
