// A/B of builds in one Chromium page: 64 calls in flight (rounds of 640 `tools/call echo`) and 40
// sequential calls, the builds in turn. Each build is a copy of pkg/ placed under bench/ab/<name>/.
// Prints each build's median time per call in flight (and calls per second) and its sequential p50.
//   PORT=38290 node bench/server.mjs &
//   node bench/ab-chromium.mjs http://127.0.0.1:38290 <name> [<name>…]
import { openBrowser, releaseBrowser } from "../tests/support/browser.mjs";

const [base, ...names] = process.argv.slice(2);
const session = {};
try {
  const ctx = await openBrowser(session, { wwwDir: "bench", profilePrefix: "mcp-wasm-ab-chromium-" });
  const page = await ctx.newPage();
  await page.goto(`${session.origin}/page/blank.html`);
  console.log(await page.evaluate(async ([base, names]) => {
    const clients = {};
    for (const name of names) {
      const { McpClient } = await import(`/ab/${name}/index.js`);
      clients[name] = await McpClient.connect(`${base}/mcp`, { era: "legacy", transport: "streamable-http", timeout: 600_000 });
    }
    const flight = Object.fromEntries(names.map((name) => [name, []]));
    const sequential = Object.fromEntries(names.map((name) => [name, []]));
    const call = (client) => client.callTool({ name: "echo", arguments: { text: "hello" } });
    for (let round = 0; round < 16; round++) {
      for (const name of names) {
        const client = clients[name];
        let start = performance.now();
        await Promise.all(Array.from({ length: 64 }, async () => { for (let i = 0; i < 10; i++) await call(client); }));
        if (round > 0) flight[name].push((performance.now() - start) / 640); // round 0 warms up
        for (let i = 0; i < 40; i++) {
          start = performance.now();
          await call(client);
          if (round > 0) sequential[name].push(performance.now() - start);
        }
      }
    }
    const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
    return names.map((name) => `${name.padEnd(10)} 64 in flight ${median(flight[name]).toFixed(3)} ms a call (${(1000 / median(flight[name])).toFixed(0)}/s); sequential p50 ${median(sequential[name]).toFixed(2)} ms`).join("\n");
  }, [base, names]));
} finally {
  await releaseBrowser(session);
}
