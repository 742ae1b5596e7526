// The soak under Node (run with --expose-gc): the package as Node loads it.
//   node --expose-gc bench/soak/node.mjs <proxy origin>  > soak-node.json
import { McpClient } from "mcp-wasm";
import { initSync } from "mcp-wasm/raw";
import { runSoak } from "./drive.mjs";
import { soakOptions } from "./options.mjs";

if (typeof globalThis.gc !== "function") throw new Error("run with node --expose-gc: the samples are taken after a forced GC");
// The glue keeps the instance it made on import; initSync hands back its exports,
// whose `memory` is the module's linear memory.
const wasm = initSync();
const results = await runSoak({
  McpClient,
  proxy: process.argv[2],
  ...soakOptions(process.env),
  hooks: {
    gc: () => globalThis.gc(),
    heap: () => process.memoryUsage().heapUsed,
    wasmMemory: () => wasm.memory.buffer.byteLength,
  },
  log: (line) => console.error(`node: ${line}`),
});
results.runtime = `Node ${process.version}`;
console.log(JSON.stringify(results));
