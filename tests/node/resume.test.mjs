// McpClient.snapshot / suspend / resume against the real servers: a legacy
// session taken over without initialize, an expired one renewed, the modern
// era without server/discover, HTTP+SSE connected anew.
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpClient } from "mcp-wasm";

const HTTP = process.env.MCP_TEST_URL ?? "http://127.0.0.1:38011/mcp";
const SSE = process.env.MCP_SSE_TEST_URL ?? "http://127.0.0.1:38012/sse";
const MODERN = process.env.MCP_MODERN_TEST_URL ?? "http://127.0.0.1:38013/mcp";
const LIMIT = { timeout: 30_000 };

function recorder() {
  const methods = [];
  const fetchFn = (input, init) => {
    if (typeof init?.body === "string") methods.push(JSON.parse(init.body).method);
    return fetch(input, init);
  };
  return { methods, fetch: fetchFn };
}
const text = (r) => r.content.map((c) => c.text).join("");

test("a suspended legacy session resumes without initialize", LIMIT, async () => {
  const client = await McpClient.connect(HTTP);
  const { sessionId, protocolVersion } = client;
  const snapshot = await client.suspend();
  assert.equal(snapshot.format, 1);
  assert.equal(snapshot.era, "legacy");
  assert.equal(snapshot.transport, "streamable-http");
  assert.equal(snapshot.protocolVersion, protocolVersion);
  assert.equal(snapshot.sessionId, sessionId);
  assert.ok(snapshot.serverCapabilities.tools);
  await assert.rejects(client.listTools(), (e) => e.kind === "closed");
  const rec = recorder();
  const resumed = await McpClient.resume(JSON.parse(JSON.stringify(snapshot)), { fetch: rec.fetch });
  assert.equal(resumed.sessionId, snapshot.sessionId);
  assert.equal(resumed.protocolVersion, snapshot.protocolVersion);
  assert.deepEqual(resumed.serverCapabilities, snapshot.serverCapabilities);
  assert.equal(text(await resumed.callTool({ name: "get-sum", arguments: { a: 4, b: 5 } })), "The sum of 4 and 5 is 9.");
  assert.ok(!rec.methods.includes("initialize"), rec.methods.join());
  await resumed.close();
});

test("a resumed session never answers a call with the result of one the suspended client left running", LIMIT, async () => {
  // A Worker invocation suspends while its call runs on; the next resumes the session. Ids may
  // not repeat in a session: with ids counted from 1 again, the server answered the new call with
  // the old one's result.
  const ids = [];
  const trace = (event) => { if (event.direction === "out" && event.id !== undefined) ids.push(event.id); };
  const first = await McpClient.connect(HTTP, { era: "legacy", trace });
  const left = first.callTool({ name: "trigger-long-running-operation", arguments: { duration: 1, steps: 1 } }).catch(() => {});
  await new Promise((resolve) => setTimeout(resolve, 200));
  const snapshot = await first.suspend();
  await left;
  const resumed = await McpClient.resume(snapshot, { trace });
  try {
    await resumed.ping();
    const result = await resumed.callTool({ name: "trigger-long-running-operation", arguments: { duration: 2, steps: 2 } });
    assert.match(text(result), /Duration: 2 seconds/);
    assert.equal(new Set(ids).size, ids.length, `ids repeat: ${ids}`);
    assert.ok(ids.every(Number.isSafeInteger), `${ids}`);
  } finally {
    await resumed.close();
  }
});

test("the resumed GET stream goes on after the snapshot's last event id", LIMIT, async () => {
  const client = await McpClient.connect(HTTP);
  // server-everything's simulated logging sends events with ids on the GET stream.
  await client.setLoggingLevel("debug");
  await client.callTool({ name: "toggle-simulated-logging", arguments: {} });
  for (let i = 0; i < 100 && !client.snapshot().lastEventId; i++) await new Promise((r) => setTimeout(r, 50));
  await client.callTool({ name: "toggle-simulated-logging", arguments: {} });
  const snapshot = await client.suspend();
  assert.equal(typeof snapshot.lastEventId, "string");
  const gets = [];
  const resumed = await McpClient.resume(snapshot, {
    fetch: (input, init) => {
      if (init?.method === "GET") gets.push(new Headers(init.headers).get("last-event-id"));
      return fetch(input, init);
    },
  });
  for (let i = 0; i < 60 && gets.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(gets.slice(0, 1), [snapshot.lastEventId]);
  await resumed.close();
});

test("resuming a session the server ended falls back to a fresh initialize", LIMIT, async () => {
  const client = await McpClient.connect(HTTP);
  const snapshot = client.snapshot();
  await client.close(); // DELETE: the server forgets the session
  const rec = recorder();
  const resumed = await McpClient.resume(snapshot, { fetch: rec.fetch });
  const renewed = new Promise((resolve) => resumed.addEventListener("sessionrenewed", resolve, { once: true }));
  assert.equal(text(await resumed.callTool({ name: "get-sum", arguments: { a: 1, b: 1 } })), "The sum of 1 and 1 is 2.");
  const event = await renewed;
  assert.equal(event.previousSessionId, snapshot.sessionId);
  assert.notEqual(resumed.sessionId, snapshot.sessionId);
  assert.ok(rec.methods.includes("initialize"), rec.methods.join());
  await resumed.close();
});

test("a resumed client keeps its logging level and subscriptions for a renewed session (server-everything)", LIMIT, async () => {
  const client = await McpClient.connect(HTTP, { era: "legacy" });
  const uri = (await client.listResources()).resources[0].uri;
  await client.subscribeResource({ uri });
  await client.setLoggingLevel("error");
  const snapshot = client.snapshot();
  assert.equal(snapshot.logLevel, "error");
  assert.deepEqual(snapshot.subscriptions, [uri]);
  await client.close(); // DELETE: the server forgets the session, and with it what it was told
  const out = [];
  const trace = (entry) => { if (entry.direction === "out" && entry.method) out.push({ method: entry.method, params: JSON.parse(entry.json).params }); };
  const resumed = await McpClient.resume(JSON.parse(JSON.stringify(snapshot)), { trace });
  try {
    const renewed = new Promise((resolve) => resumed.addEventListener("sessionrenewed", resolve, { once: true }));
    assert.equal(text(await resumed.callTool({ name: "get-sum", arguments: { a: 1, b: 1 } })), "The sum of 1 and 1 is 2.");
    await renewed;
    const sent = (method) => out.filter((m) => m.method === method).map((m) => m.params);
    for (let i = 0; i < 50 && sent("resources/subscribe").length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(sent("logging/setLevel").map((p) => p.level), ["error"]);
    assert.deepEqual(sent("resources/subscribe").map((p) => p.uri), [uri]);
    assert.deepEqual(resumed.snapshot().subscriptions, [uri]);
  } finally {
    await resumed.close();
  }
});

test("a resumed modern client listens for its subscriptions and logs at its level", LIMIT, async () => {
  const client = await McpClient.connect(MODERN);
  const uri = "demo://static/readme";
  await client.subscribeResource({ uri });
  await client.setLoggingLevel("info");
  const snapshot = await client.suspend();
  const resumed = await McpClient.resume(snapshot);
  try {
    const updated = new Promise((resolve) => resumed.addEventListener("notifications/resources/updated", (e) => resolve(e.params.uri), { once: true }));
    const logs = [];
    resumed.addEventListener("notifications/message", (e) => logs.push(e.params.data));
    // The listen stream of a resumed client opens without waiting for its acknowledgement:
    // touch until the update arrives, so that a touch before the stream is up does not count.
    let heard;
    for (let i = 0; i < 20 && !heard; i++) {
      await resumed.callTool({ name: "touch", arguments: { uri } });
      heard = await Promise.race([updated, new Promise((r) => setTimeout(r, 200))]);
    }
    assert.equal(heard, uri);
    await resumed.callTool({ name: "slow", arguments: { steps: 1 } });
    assert.deepEqual(logs, ["step 1/1"]);
  } finally {
    await resumed.close();
  }
});

test("the modern era resumes its discovery without server/discover", LIMIT, async () => {
  const client = await McpClient.connect(MODERN);
  const snapshot = await client.suspend();
  assert.equal(snapshot.era, "modern");
  assert.equal(snapshot.protocolVersion, "2026-07-28");
  assert.equal(snapshot.sessionId, undefined);
  const rec = recorder();
  const resumed = await McpClient.resume(snapshot, { fetch: rec.fetch });
  assert.equal(resumed.era, "modern");
  assert.equal(resumed.serverInfo.name, "mcp-wasm-modern-peer");
  assert.equal((await resumed.callTool({ name: "add", arguments: { a: 2, b: 2 } })).structuredContent.sum, 4);
  assert.ok(!rec.methods.includes("server/discover") && !rec.methods.includes("initialize"), rec.methods.join());
  await resumed.close();
});

test("an HTTP+SSE snapshot connects anew (its session ended with its stream)", LIMIT, async () => {
  const client = await McpClient.connect(SSE);
  const snapshot = await client.suspend();
  assert.equal(snapshot.transport, "sse");
  const resumed = await McpClient.resume(snapshot);
  assert.equal(resumed.transport, "sse");
  assert.equal(text(await resumed.callTool({ name: "echo", arguments: { message: "again" } })), "Echo: again");
  await resumed.close();
});

test("snapshots refuse what they cannot carry", LIMIT, async () => {
  const client = await McpClient.connect(HTTP);
  await client.close();
  assert.throws(() => client.snapshot(), (e) => e.kind === "closed");
  await assert.rejects(McpClient.resume("nope"), (e) => e.kind === "invalid-argument");
  await assert.rejects(McpClient.resume({ format: 1, url: HTTP, era: "modern", transport: "streamable-http", protocolVersion: "2026-07-28",
    sessionId: "x", serverCapabilities: {}, serverInfo: { name: "n", version: "1" } }), (e) => e.kind === "invalid-argument" && /no sessions/.test(e.message));
});

test("a snapshot whose session id could not go out in a header is refused", LIMIT, async () => {
  const client = await McpClient.connect(HTTP);
  const snapshot = await client.suspend();
  for (const sessionId of ["abc\r\nX-Injected: 1", "s".repeat(8_193), ""]) {
    await assert.rejects(McpClient.resume({ ...snapshot, sessionId }), (e) => e.kind === "invalid-argument" && /snapshot\.sessionId/.test(e.message), JSON.stringify(sessionId.slice(0, 20)));
  }
  const resumed = await McpClient.resume(snapshot);
  assert.equal(text(await resumed.callTool({ name: "get-sum", arguments: { a: 1, b: 2 } })), "The sum of 1 and 2 is 3.");
  await resumed.close();
});
