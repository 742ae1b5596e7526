// A/B of two builds on the large results, for a question the full run cannot settle when the
// machine's speed drifts between runs: build each into its own pkg/ and alternate them against
// one bench server.
//   PORT=38290 node bench/server.mjs &
//   node bench/ab-deep.mjs <pkg dir> http://127.0.0.1:38290   # medians of 40 calls each
const [pkgDir, base] = process.argv.slice(2);
const { McpClient } = await import(`${pkgDir}/node.js`);
const client = await McpClient.connect(`${base}/mcp`, { era: "legacy" });
await client.listTools();
const times = { deep: [], list: [], listAll: [], echo: [] };
for (let i = 0; i < 40; i++) {
  let t = performance.now();
  const r = await client.callTool({ name: "deep", arguments: {} });
  times.deep.push(performance.now() - t);
  if (!r.structuredContent) throw new Error("no structured");
  t = performance.now();
  await client.listTools();
  times.list.push(performance.now() - t);
  t = performance.now();
  await client.listAllTools();
  times.listAll.push(performance.now() - t);
  t = performance.now();
  await client.callTool({ name: "echo", arguments: { text: "x" } });
  times.echo.push(performance.now() - t);
}
const med = (a) => a.sort((x, y) => x - y)[a.length >> 1].toFixed(2);
console.log(pkgDir, "deep", med(times.deep), "list", med(times.list), "listAll", med(times.listAll), "echo", med(times.echo));
await client.close();
