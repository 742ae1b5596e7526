// The client's own CPU per small `tools/call` in Node, for each contender in one process: rounds of
// 640 calls (64 loops of 10 in flight, or one after another with --sequential), the contenders in
// turn, and the process's user+system CPU time (process.cpuUsage) per call. The server runs in
// another process, so what is counted is the client's side: building the request, fetch (undici),
// reading and checking the answer. Prints each contender's median over the rounds.
//   PORT=38290 node bench/server.mjs &
//   node bench/cpu-per-call.mjs http://127.0.0.1:38290 [--sequential] [--only=mcp-wasm,raw fetch]
import * as mcp from "mcp-wasm";
import { Client as Client1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as Transport1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as Client2, StreamableHTTPClientTransport as Transport2 } from "@modelcontextprotocol/client";
import { contenders } from "./contenders.mjs";
import { median } from "./metrics.mjs";

const args = process.argv.slice(2);
const base = args.find((a) => !a.startsWith("--")) ?? "http://127.0.0.1:38290";
const sequential = args.includes("--sequential");
const only = args.find((a) => a.startsWith("--only="))?.slice(7).split(",");
const ROUNDS = 25;
const LOOPS = sequential ? 1 : 64;
const PER_LOOP = sequential ? 200 : 10;

const list = contenders({ McpClient: mcp.McpClient, Sdk1: { Client: Client1, StreamableHTTPClientTransport: Transport1 }, Sdk2: { Client: Client2, StreamableHTTPClientTransport: Transport2 } })
  .filter((c) => !only || only.includes(c.name));
const clients = [];
for (const contender of list) clients.push([contender.name, await contender.connect(`${base}/mcp`)]);
const cpu = Object.fromEntries(clients.map(([name]) => [name, []]));
const wall = Object.fromEntries(clients.map(([name]) => [name, []]));
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 ? [...clients].reverse() : clients;
  for (const [name, client] of order) {
    const before = process.cpuUsage();
    const start = performance.now();
    await Promise.all(Array.from({ length: LOOPS }, async () => {
      for (let i = 0; i < PER_LOOP; i++) await client.call("echo", { text: "hello" });
    }));
    const used = process.cpuUsage(before);
    if (round === 0) continue; // warm-up
    const calls = LOOPS * PER_LOOP;
    cpu[name].push((used.user + used.system) / calls);
    wall[name].push(((performance.now() - start) * 1000) / calls);
  }
}
console.log(`${sequential ? "sequential" : "64 in flight"}, medians of ${ROUNDS - 1} rounds of ${LOOPS * PER_LOOP} calls`);
for (const [name] of clients) {
  console.log(`${name.padEnd(12)} CPU ${median(cpu[name]).toFixed(0).padStart(4)} µs a call, wall ${median(wall[name]).toFixed(0).padStart(4)} µs a call`);
}
for (const [, client] of clients) await client.close();
process.exit(0);
