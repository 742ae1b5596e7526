// Where a small sequential call's time goes in Chromium, against the benchmark server:
// marks around `fetch` (the clients are given a `fetch` that wraps the global one) split
// each call into the time before `fetch` is called, `fetch` to the response headers, and
// the headers to the result. For mcp-wasm (/pkg), mcp-wasm without its GET stream (its
// `fetch` answers GET with 405, so the client does not listen), the raw-fetch floor,
// and the floor with a `Headers` object and an `AbortSignal` as mcp-wasm sends them.
// Means over rounds of 60 calls each, in turn.
//   PORT=38290 node bench/server.mjs &  node bench/split-chromium.mjs http://127.0.0.1:38290
import { openBrowser, releaseBrowser } from "../tests/support/browser.mjs";

const base = process.argv[2] ?? "http://127.0.0.1:38290";
const session = {};
try {
  const ctx = await openBrowser(session, { wwwDir: "bench", isolate: true, profilePrefix: "mcp-wasm-split-" });
  const page = await ctx.newPage();
  await page.goto(`${session.origin}/page/blank.html`);
  console.log(await page.evaluate(async (base) => {
    const url = `${base}/mcp`;
    const VERSION = "2025-11-25";
    let marks = {};
    const marked = (input, init) => {
      marks.called = performance.now();
      const response = fetch(input, init);
      response.then(() => { marks.headers = performance.now(); }, () => {});
      return response;
    };
    const { McpClient } = await import("/pkg/index.js");
    const listening = await McpClient.connect(url, { era: "legacy", fetch: marked });
    const quiet = await McpClient.connect(url, { era: "legacy", fetch: (input, init) => (init.method === "GET" ? Promise.resolve(new Response(null, { status: 405 })) : marked(input, init)) });
    let session = null;
    let id = 0;
    const headers = () => ({ "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": VERSION, ...(session ? { "mcp-session-id": session } : {}) });
    const initialize = await fetch(url, { method: "POST", headers: headers(), body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method: "initialize", params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: "floor", version: "1" } } }) });
    session = initialize.headers.get("mcp-session-id");
    await initialize.text();
    await (await fetch(url, { method: "POST", headers: headers(), body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) })).text();
    const body = () => JSON.stringify({ jsonrpc: "2.0", id: ++id, method: "tools/call", params: { name: "echo", arguments: { text: "x" } } });
    const contenders = {
      "mcp-wasm": () => listening.callTool({ name: "echo", arguments: { text: "x" } }),
      "mcp-wasm, no GET stream": () => quiet.callTool({ name: "echo", arguments: { text: "x" } }),
      "floor": async () => (await marked(url, { method: "POST", headers: headers(), body: body() })).json(),
      "floor, Headers + signal": async () => (await marked(url, { method: "POST", headers: new Headers(headers()), body: body(), signal: new AbortController().signal })).json(),
    };
    const sums = Object.fromEntries(Object.keys(contenders).map((name) => [name, { before: 0, fetch: 0, after: 0, n: 0 }]));
    for (let round = 0; round < 25; round++) {
      for (const [name, call] of Object.entries(contenders)) {
        for (let i = 0; i < 60; i++) {
          marks = {};
          const start = performance.now();
          await call();
          const end = performance.now();
          if (round === 0) continue; // warm-up
          const s = sums[name];
          s.before += marks.called - start;
          s.fetch += marks.headers - marks.called;
          s.after += end - marks.headers;
          s.n += 1;
        }
      }
    }
    const ms = (x, n) => (x / n).toFixed(3);
    return Object.entries(sums).map(([name, s]) =>
      `${name.padEnd(24)} before fetch ${ms(s.before, s.n)}  fetch to headers ${ms(s.fetch, s.n)}  headers to result ${ms(s.after, s.n)}  total ${ms(s.before + s.fetch + s.after, s.n)} ms`).join("\n");
  }, base));
} finally {
  await releaseBrowser(session);
}
