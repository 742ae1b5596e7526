// A/B of builds on small sequential calls, against the raw-fetch floor, in one process: rounds of
// 200 `tools/call echo` per contender, in turn, so that a drift of the machine's speed falls on all
// of them alike. Prints each contender's p50 and its ratio to the floor's.
//   PORT=38290 node bench/ab-seq.mjs
//   node bench/ab-seq.mjs http://127.0.0.1:38290 <pkg dir> [<pkg dir>…]
import { Floor } from "./floor.mjs";

const [base, ...pkgDirs] = process.argv.slice(2);
const url = `${base}/mcp`;
const contenders = [{ name: "floor", client: await new Floor(url).connect() }];
for (const dir of pkgDirs) {
  const { McpClient } = await import(`${dir}/node.js`);
  contenders.push({ name: dir, client: await McpClient.connect(url, { era: "legacy" }) });
}
const call = (client) => client.callTool(client instanceof Floor ? "echo" : { name: "echo", arguments: { text: "x" } }, { text: "x" });
const times = new Map(contenders.map((c) => [c.name, []]));
for (let round = 0; round < 16; round++) {
  for (const { name, client } of contenders) {
    for (let i = 0; i < 200; i++) {
      const t = performance.now();
      await call(client);
      if (round > 0) times.get(name).push(performance.now() - t); // round 0 warms up
    }
  }
}
const p50 = (a) => a.sort((x, y) => x - y)[a.length >> 1];
const floor = p50(times.get("floor"));
for (const [name, list] of times) console.log(name.padEnd(24), "p50", p50(list).toFixed(3), "ms", (p50(list) / floor).toFixed(3), "× floor");
for (const { client } of contenders) if (!(client instanceof Floor)) await client.close();
