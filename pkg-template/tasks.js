// McpClient's task methods (2025-11-25, experimental): plain JS over McpClient.request, in
// tasks-run.js, which loads the first time a page uses one. Every one returns a Promise, so
// waiting for that module changes nothing for the caller. The types are in index.d.ts.
import { McpClient } from "./mcp_wasm.js";

const run = () => import("./tasks-run.js");
for (const name of ["callToolAsTask", "getTask", "getTaskResult", "cancelTask", "listTasks"]) {
  const method = {
    [name](params, options) {
      return run().then((tasks) => tasks[name](this, params, options));
    },
  }[name];
  Object.defineProperty(McpClient.prototype, name, { value: method, writable: true, configurable: true });
}

