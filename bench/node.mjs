// The benchmarks under Node (run with --expose-gc): the package as Node loads
// it, the two official SDK clients from node_modules, and the raw-fetch floor.
//   node --expose-gc bench/node.mjs <http://127.0.0.1:38090>  > results-node.json
import * as mcp from "mcp-wasm";
import { initSync } from "mcp-wasm/raw";
import { Client as Client1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as Transport1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as Client2, StreamableHTTPClientTransport as Transport2 } from "@modelcontextprotocol/client";
import { contenders } from "./contenders.mjs";
import { runMetrics } from "./metrics.mjs";

const base = process.argv[2] ?? "http://127.0.0.1:38090";
const wasm = initSync(); // already instantiated by the package: this hands back its exports
const results = await runMetrics({
  contenders: contenders({ McpClient: mcp.McpClient, Sdk1: { Client: Client1, StreamableHTTPClientTransport: Transport1 }, Sdk2: { Client: Client2, StreamableHTTPClientTransport: Transport2 } }),
  url: `${base}/mcp`,
  streamUrl: `${base}/mcp-stream`,
  scale: Number(process.env.BENCH_SCALE ?? 1),
  hooks: {
    gc: () => globalThis.gc?.(),
    heap: () => process.memoryUsage().heapUsed,
    wasmMemory: () => wasm.memory.buffer.byteLength,
  },
  log: (step) => console.error(`node: ${step}`),
});
results.environment = { runtime: `Node ${process.version}` };
console.log(JSON.stringify(results));
