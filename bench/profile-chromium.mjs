// A CPU profile of 64 small calls in flight in one Chromium page (CDP's sampling profiler, 100 µs),
// for a copy of a build placed under bench/ab/<name>/, or for the raw-fetch floor's exchange sent
// as mcp-wasm sends it (a `Headers` and a signal). Prints the time per call, and each function's
// own time, the largest first; writes the profile for DevTools.
//   PORT=38290 node bench/server.mjs &
//   node bench/profile-chromium.mjs http://127.0.0.1:38290 <name>|floor [out.cpuprofile]
import { writeFileSync } from "node:fs";
import { openBrowser, releaseBrowser } from "../tests/support/browser.mjs";

const [base, name, out = "/tmp/chromium.cpuprofile"] = process.argv.slice(2);
if (!base || !name) throw new Error("usage: node bench/profile-chromium.mjs <server origin> <build under bench/ab/>|floor [out]");
const CALLS = 6400;
const session = {};
try {
  const ctx = await openBrowser(session, { wwwDir: "bench", isolate: true, profilePrefix: "mcp-wasm-profile-" });
  const page = await ctx.newPage();
  await page.goto(`${session.origin}/page/blank.html`);
  await page.evaluate(async ([base, name]) => {
    const url = `${base}/mcp`;
    let call;
    if (name === "floor") {
      const V = "2025-11-25";
      const h = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": V };
      const post = (message) => fetch(url, { method: "POST", headers: h, body: JSON.stringify(message) });
      const opened = await post({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: V, capabilities: {}, clientInfo: { name: "floor", version: "1" } } });
      h["mcp-session-id"] = opened.headers.get("mcp-session-id");
      await opened.text();
      await (await post({ jsonrpc: "2.0", method: "notifications/initialized" })).text();
      const controller = new AbortController();
      let id = 10;
      call = async () => {
        const body = JSON.stringify({ jsonrpc: "2.0", id: ++id, method: "tools/call", params: { name: "echo", arguments: { text: "hello" } } });
        return (await fetch(url, { method: "POST", headers: new Headers(h), signal: controller.signal, body })).json();
      };
    } else {
      const { McpClient } = await import(`/ab/${name}/index.js`);
      const client = await McpClient.connect(url, { era: "legacy", transport: "streamable-http", timeout: 600_000 });
      call = () => client.callTool({ name: "echo", arguments: { text: "hello" } });
    }
    window.run = (n) => Promise.all(Array.from({ length: 64 }, async () => {
      for (let i = 0; i < n / 64; i++) await call();
    }));
    await window.run(1280); // warm-up
  }, [base, name]);
  const cdp = await ctx.newCDPSession(page);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
  await cdp.send("Profiler.start");
  const ms = await page.evaluate(async (calls) => {
    const start = performance.now();
    await window.run(calls);
    return performance.now() - start;
  }, CALLS);
  const { profile } = await cdp.send("Profiler.stop");
  writeFileSync(out, JSON.stringify(profile));
  console.log(`${name}: ${((ms * 1000) / CALLS).toFixed(0)} µs a call, 64 in flight, under the profiler; profile in ${out}`);
  const self = new Map();
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id).callFrame;
    const key = `${frame.functionName || "(anonymous)"} ${frame.url.split("/").pop()}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  for (const [key, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
    console.log(`${((us / CALLS)).toFixed(1).padStart(8)} µs a call  ${key}`);
  }
} finally {
  await releaseBrowser(session);
}
