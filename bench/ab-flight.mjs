// A/B of builds on 64 calls in flight in Node: rounds of 640 `tools/call echo` (64 loops of 10),
// the builds in turn, so that a drift of the machine's speed falls on all of them alike. Prints
// each build's median time per call over the rounds (the full run's "64 in flight" metric), and
// the process's CPU time per call (process.cpuUsage: the client's side only, the server runs apart).
//   PORT=38290 node bench/server.mjs &
//   node bench/ab-flight.mjs http://127.0.0.1:38290 <pkg dir> [<pkg dir>…]
import path from "node:path";
import { pathToFileURL } from "node:url";

const [base, ...dirs] = process.argv.slice(2);
const ROUNDS = 30;
const calls = {};
for (const dir of dirs) {
  const { McpClient } = await import(pathToFileURL(path.resolve(dir, "node.js")).href);
  const client = await McpClient.connect(`${base}/mcp`, { era: "legacy", transport: "streamable-http", timeout: 600_000 });
  calls[dir] = () => client.callTool({ name: "echo", arguments: { text: "hello" } });
}
const times = Object.fromEntries(dirs.map((dir) => [dir, []]));
const cpu = Object.fromEntries(dirs.map((dir) => [dir, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [dir, call] of Object.entries(calls)) {
    const start = performance.now();
    const before = process.cpuUsage();
    await Promise.all(Array.from({ length: 64 }, async () => { for (let i = 0; i < 10; i++) await call(); }));
    const used = process.cpuUsage(before);
    if (round === 0) continue; // warms up
    times[dir].push((performance.now() - start) / 640);
    cpu[dir].push((used.user + used.system) / 640);
  }
}
const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
for (const [dir, list] of Object.entries(times)) {
  console.log(dir.padEnd(24), (median(list) * 1000).toFixed(0).padStart(5), "µs a call,", median(cpu[dir]).toFixed(0).padStart(5), "µs of CPU");
}
process.exit(0);
