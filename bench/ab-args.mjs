// A/B of builds on large tool arguments, against the raw-fetch floor: 25 `tools/call echo` with
// 2.2 MB of structured arguments (30,000 small objects), or with `string`, one 3 MB string.
//   PORT=38290 node bench/server.mjs &
//   node bench/ab-args.mjs <pkg dir> http://127.0.0.1:38290 [string]
import { Floor } from "./floor.mjs";

const [pkgDir, base, shape] = process.argv.slice(2);
const { McpClient } = await import(`${pkgDir}/node.js`);
const url = `${base}/mcp`;
const client = await McpClient.connect(url, { era: "legacy" });
const floor = await new Floor(url).connect();
const args = shape === "string"
  ? { text: 'The quick brown fox "jumps"\n'.repeat(100_000) }
  : { text: "x".repeat(64), items: Array.from({ length: 30_000 }, (_, i) => ({ id: i, name: `item ${i}`, tags: ["a", "b"], score: i / 7 })) };
const times = { client: [], floor: [] };
for (let i = 0; i < 25; i++) {
  let t = performance.now();
  await client.callTool({ name: "echo", arguments: args });
  times.client.push(performance.now() - t);
  t = performance.now();
  await floor.callTool("echo", args);
  times.floor.push(performance.now() - t);
}
const med = (a) => a.sort((x, y) => x - y)[a.length >> 1].toFixed(2);
console.log(pkgDir, "arguments", JSON.stringify(args).length, "bytes; client", med(times.client), "ms, floor", med(times.floor), "ms");
await client.close();
