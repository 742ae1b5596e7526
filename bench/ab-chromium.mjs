// A/B of builds in one Chromium page, the builds in turn. Each build is a copy of pkg/ placed under
// bench/ab/<name>/. By default: 64 calls in flight (rounds of 640 `tools/call echo`) and 40 sequential
// calls, each build's median time per call in flight (and calls per second) and its sequential p50.
// With --large: the 5 MiB resources/read and the deep structuredContent with outputSchema, 9 rounds,
// each build's medians.
//   PORT=38290 node bench/server.mjs &
//   node bench/ab-chromium.mjs http://127.0.0.1:38290 [--large] <name> [<name>…]
import { openBrowser, releaseBrowser } from "../tests/support/browser.mjs";

const args = process.argv.slice(2);
const large = args.includes("--large");
const [base, ...names] = args.filter((a) => a !== "--large");
const session = {};
try {
  const ctx = await openBrowser(session, { wwwDir: "bench", isolate: true, profilePrefix: "mcp-wasm-ab-chromium-" });
  const page = await ctx.newPage();
  await page.goto(`${session.origin}/page/blank.html`);
  console.log(await page.evaluate(async ([base, names, large]) => {
    const clients = {};
    for (const name of names) {
      const { McpClient } = await import(`/ab/${name}/index.js`);
      clients[name] = await McpClient.connect(`${base}/mcp`, { era: "legacy", transport: "streamable-http", timeout: 600_000 });
      if (large) await clients[name].listTools(); // so that each knows deep's outputSchema
    }
    const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
    const timed = async (run) => {
      const start = performance.now();
      await run();
      return performance.now() - start;
    };
    if (large) {
      const read = Object.fromEntries(names.map((name) => [name, []]));
      const deep = Object.fromEntries(names.map((name) => [name, []]));
      for (let round = 0; round < 9; round++) {
        for (const name of names) {
          read[name].push(await timed(() => clients[name].readResource({ uri: "bench://big" })));
          deep[name].push(await timed(() => clients[name].callTool({ name: "deep", arguments: {} })));
        }
      }
      return names.map((name) => `${name.padEnd(10)} 5 MiB read ${median(read[name]).toFixed(1)} ms; deep result ${median(deep[name]).toFixed(1)} ms`).join("\n");
    }
    const flight = Object.fromEntries(names.map((name) => [name, []]));
    const sequential = Object.fromEntries(names.map((name) => [name, []]));
    const call = (client) => client.callTool({ name: "echo", arguments: { text: "hello" } });
    for (let round = 0; round < 16; round++) {
      for (const name of names) {
        const client = clients[name];
        const inFlight = await timed(() => Promise.all(Array.from({ length: 64 }, async () => { for (let i = 0; i < 10; i++) await call(client); })));
        if (round > 0) flight[name].push(inFlight / 640); // round 0 warms up
        for (let i = 0; i < 40; i++) {
          const one = await timed(() => call(client));
          if (round > 0) sequential[name].push(one);
        }
      }
    }
    return names.map((name) => `${name.padEnd(10)} 64 in flight ${median(flight[name]).toFixed(3)} ms a call (${(1000 / median(flight[name])).toFixed(0)}/s); sequential p50 ${median(sequential[name]).toFixed(2)} ms`).join("\n");
  }, [base, names, large]));
} finally {
  await releaseBrowser(session);
}
