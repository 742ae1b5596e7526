// A/B of builds on the progress stream, for a question the full run cannot settle when the
// machine's speed drifts: each build calls the bench server's `progress` tool (10,000 progress
// notifications over one SSE answer) in turn, the order reversed every round. Prints each
// build's median of six timed calls, and the calls.
//   PORT=38290 node bench/server.mjs &
//   node bench/ab-progress.mjs http://127.0.0.1:38290 <pkg dir> [<pkg dir>…]
const [base, ...dirs] = process.argv.slice(2);
const url = `${base}/mcp-stream`;
const COUNT = 10_000;
const builds = [];
for (const dir of dirs) {
  const { McpClient } = await import(`${dir}/node.js`);
  builds.push({ dir, client: await McpClient.connect(url, { era: "legacy", transport: "streamable-http", timeout: 600_000 }), times: [] });
}
for (let round = 0; round < 7; round++) {
  for (const build of round % 2 ? [...builds].reverse() : builds) {
    let seen = 0;
    const started = performance.now();
    await build.client.callTool({ name: "progress", arguments: { count: COUNT } }, { onprogress: () => { seen += 1; }, resetTimeoutOnProgress: true });
    if (round > 0) build.times.push(performance.now() - started); // round 0 warms up
    if (seen !== COUNT) throw new Error(`${build.dir}: ${seen} of ${COUNT} progress notifications`);
  }
}
const median = (list) => [...list].sort((a, b) => a - b)[list.length >> 1];
for (const { dir, client, times } of builds) {
  console.log(dir.padEnd(32), "median", median(times).toFixed(1), "ms;", times.map((t) => t.toFixed(0)).join(" "));
  await client.close();
}
