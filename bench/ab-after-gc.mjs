// A large result right after a full collection: mcp-wasm and the raw-fetch floor in one Node process,
// in turn, each call after `gc()` (or without, to compare). What only a collection slows shows here: the
// twenty-eighth round found the quick check's rules losing V8's optimised code at each one.
//   PORT=38290 node bench/server.mjs &
//   node --expose-gc bench/ab-after-gc.mjs http://127.0.0.1:38290 <pkg dir> [deep|read|list] [gc|nogc]
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Floor } from "./floor.mjs";

const [base, dir, what = "deep", mode = "gc"] = process.argv.slice(2);
if (mode === "gc" && typeof globalThis.gc !== "function") throw new Error("run with node --expose-gc");
const { McpClient } = await import(pathToFileURL(path.resolve(dir, "node.js")).href);
const client = await McpClient.connect(`${base}/mcp`, { era: "legacy" });
await client.listTools(); // so that it knows deep's outputSchema
const floor = await new Floor(`${base}/mcp`).connect();
const calls = {
  deep: [() => client.callTool({ name: "deep", arguments: {} }), () => floor.request("tools/call", { name: "deep", arguments: {} })],
  read: [() => client.readResource({ uri: "bench://big" }), () => floor.request("resources/read", { uri: "bench://big" })],
  list: [() => client.listTools(), () => floor.request("tools/list", {})],
}[what];
const times = [[], []];
for (let i = 0; i < 40; i++) {
  for (const [k, call] of calls.entries()) {
    if (mode === "gc") globalThis.gc();
    const start = performance.now();
    await call();
    times[k].push(performance.now() - start);
  }
}
const median = (list) => [...list].sort((a, b) => a - b)[list.length >> 1].toFixed(2);
console.log(`${what}, ${mode === "gc" ? "after gc()" : "no forced collection"}: mcp-wasm ${median(times[0])} ms, floor ${median(times[1])} ms`);
await client.close();
await floor.close();
