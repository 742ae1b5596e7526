// A/B of builds in one Chromium page on the large results: the 5 MiB resources/read and the deep
// structuredContent with outputSchema, the builds in turn, 9 rounds; prints each build's medians. Each
// build is a copy of pkg/ placed under bench/ab/<name>/ (as for bench/ab-chromium.mjs).
//   PORT=38290 node bench/server.mjs &
//   node bench/ab-chromium-large.mjs http://127.0.0.1:38290 <name> [<name>…]
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
      await clients[name].listTools();
    }
    const t = Object.fromEntries(names.flatMap((n) => [[n + " read", []], [n + " deep", []]]));
    for (let r = 0; r < 9; r++) for (const n of names) {
      let s = performance.now(); await clients[n].readResource({ uri: "bench://big" }); t[n + " read"].push(performance.now() - s);
      s = performance.now(); await clients[n].callTool({ name: "deep", arguments: {} }); t[n + " deep"].push(performance.now() - s);
    }
    const med = (a) => a.sort((x, y) => x - y)[a.length >> 1].toFixed(1);
    return Object.entries(t).map(([k, v]) => `${k} ${med(v)}`).join("\n");
  }, [base, names]));
} finally { await releaseBrowser(session); }
process.exit(0);
