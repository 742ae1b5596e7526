// A/B of two builds on the 5 MiB resources/read: the median time of 25 reads, and the wasm
// linear memory they leave behind (it never shrinks, so it shows the peak a large result
// caused). Build each into its own pkg/ and alternate them against one bench server:
//   PORT=38290 node bench/server.mjs &
//   node bench/ab-read.mjs <pkg dir> http://127.0.0.1:38290 [/mcp-stream]
// The third argument reads through the server's endpoint that answers as an SSE stream (the
// SDK server's default) instead of one JSON body with a Content-Length.
const [pkgDir, base, path = "/mcp"] = process.argv.slice(2);
const { McpClient } = await import(`${pkgDir}/node.js`);
const { initSync } = await import(`${pkgDir}/mcp_wasm.js`);
const client = await McpClient.connect(`${base}${path}`, { era: "legacy" });
const times = [];
for (let i = 0; i < 25; i++) {
  const start = performance.now();
  const result = await client.readResource({ uri: "bench://big" });
  times.push(performance.now() - start);
  if (!result.contents[0].text) throw new Error("the read came back without its text");
}
const median = times.sort((a, b) => a - b)[times.length >> 1];
const memory = initSync().memory.buffer.byteLength; // already instantiated: hands back its exports
console.log(pkgDir, path, "read", median.toFixed(2), "ms; wasm memory", (memory / 2 ** 20).toFixed(1), "MiB");
await client.close();
