// The client's own CPU time per small call, without the network: each contender calls
// `tools/call` through a custom `fetch` that answers at once, so what is measured is the
// work around the exchange (params, envelope, headers, body, checks, result), not the
// HTTP stack, whose timing on a shared machine moves more than a build changes it. A
// plain-JS client of the same exchange (`fetch`, `json()`) is the floor. Rounds of 300
// calls per contender in turn; the median of the rounds' means, and the fastest round.
//   node bench/ab-overhead.mjs [--sse] <pkg dir> [<pkg dir>…]      (e.g. pkg, /tmp/pkg-a)
// With --sse, each tools/call is answered as one SSE event, as an SDK server answers by default.
import path from "node:path";
import { pathToFileURL } from "node:url";

const args = process.argv.slice(2);
const SSE = args[0] === "--sse";
const dirs = SSE ? args.slice(1) : args;

const ROUNDS = 60;
const CALLS = 300;
const VERSION = "2025-11-25";

// Answers initialize, the initialized notification and any tools/call, as a server would.
function answeringFetch(url, init) {
  const request = JSON.parse(init.body);
  if (request.id === undefined) return Promise.resolve(new Response(null, { status: 202 }));
  const result = request.method === "initialize"
    ? { protocolVersion: VERSION, capabilities: { tools: {} }, serverInfo: { name: "answering", version: "1" } }
    : { content: [{ type: "text", text: "x" }] };
  const body = JSON.stringify({ jsonrpc: "2.0", id: request.id, result });
  if (SSE && request.method !== "initialize") {
    return Promise.resolve(new Response(`event: message\ndata: ${body}\n\n`, { status: 200, headers: { "content-type": "text/event-stream", "mcp-session-id": "s1" } }));
  }
  const headers = { "content-type": "application/json", "content-length": String(body.length), "mcp-session-id": "s1" };
  return Promise.resolve(new Response(body, { status: 200, headers }));
}

const contenders = [{
  name: "plain JS",
  call: async () => {
    const init = { method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "echo", arguments: { text: "x" } } }) };
    const text = await (await answeringFetch("http://127.0.0.1/mcp", init)).text();
    return JSON.parse(SSE ? text.slice(text.indexOf("data: ") + 6) : text).result;
  },
}];
const clients = [];
for (const dir of dirs) {
  const { McpClient } = await import(pathToFileURL(path.resolve(dir, "node.js")).href);
  const client = await McpClient.connect("http://127.0.0.1/mcp", { era: "legacy", fetch: answeringFetch });
  clients.push(client);
  contenders.push({ name: dir, call: () => client.callTool({ name: "echo", arguments: { text: "x" } }) });
}
const times = new Map(contenders.map((c) => [c.name, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const { name, call } of contenders) {
    const start = performance.now();
    for (let i = 0; i < CALLS; i++) await call();
    if (round > 0) times.get(name).push((performance.now() - start) / CALLS); // round 0 warms up
  }
}
const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
for (const [name, list] of times) {
  console.log(name.padEnd(24), (median(list) * 1000).toFixed(1).padStart(6), "µs per call; fastest round", (Math.min(...list) * 1000).toFixed(1));
}
for (const client of clients) await client.close();
