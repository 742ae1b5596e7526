// The core in two halves (scripts/split, pkg-template/rest-gate.js), in Node against
// server-everything and the 2026-07-28 peer. Each test file runs in a process of its
// own, so the rest is not loaded when this one starts; the tests run in order.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { McpClient, McpClientError } from "mcp-wasm";
import { __oauthReady, __restReady, __setRestLoader } from "mcp-wasm/raw";
import { collectGarbage } from "../support/gc.mjs";
import { REST, assertPrimaryAlone, loadWith, needs } from "../support/primary-alone.mjs";
import { FIRST_CALL_OPTIONS, GATED_ITERATORS, GATED_METHODS } from "../../pkg/rest-gate.js";

const SERVERS = [
  process.env.MCP_TEST_URL ?? "http://127.0.0.1:38011/mcp",
  process.env.MCP_SSE_TEST_URL ?? "http://127.0.0.1:38012/sse",
  process.env.MCP_MODERN_TEST_URL ?? "http://127.0.0.1:38013/mcp",
];
const LIMIT = { timeout: 30_000 };
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

test("a first tool call, over each era and transport, runs in the primary alone", LIMIT, async () => {
  // The second time with credentials, which a request carries following redirects by hand.
  for (const [url, options] of SERVERS.flatMap((url) => [[url], [url, { headers: { authorization: "Bearer split" } }]])) {
    const client = await McpClient.connect(url, options);
    const result = await client.callTool({ name: "echo", arguments: { message: "split" } });
    assert.match(result.content[0].text, /split/);
    assert.equal(typeof client.snapshot(), "object");
    await client.close();
    assertPrimaryAlone(url);
  }
  // Closed as soon as it is connected: close() aborts the listen stream while it may still be opening.
  for (const url of SERVERS) {
    const client = await McpClient.connect(url);
    await client.close();
    await sleep(100);
    assertPrimaryAlone(`${url}, closed at once`);
  }
});

test("a closed client the page lets go of is finalized in the primary", LIMIT, async () => {
  let finalized = 0;
  const watch = new FinalizationRegistry(() => { finalized += 1; });
  const connect = async (url) => {
    const client = await McpClient.connect(url);
    await client.callTool({ name: "echo", arguments: { message: "dropped" } });
    await client.close();
    watch.register(client, url);
  };
  for (const url of SERVERS) await connect(url);
  await sleep(200);
  // The package's finalizers run in the same collections as this one, in tasks of their own.
  await collectGarbage({ rounds: 50, done: () => finalized === SERVERS.length });
  await collectGarbage({ rounds: 1 });
  assert.equal(finalized, SERVERS.length, "the clients were collected");
  assertPrimaryAlone("the finalizers");
});

test("close() does not wait for a load of the rest that stalls, and ends the calls waiting on it", LIMIT, async () => {
  assertPrimaryAlone("what ran before");
  let fail;
  loadWith(() => new Promise((_, reject) => { fail = reject; }));
  const client = await McpClient.connect(SERVERS[0]);
  const other = await McpClient.connect(SERVERS[0]);
  const waiting = [
    client.listTools(),
    client.callTool({ name: "echo", arguments: { message: "queued" } }),
    client.notify("notifications/roots/list_changed"),
    client.iterateTools().next(),
  ].map((call) => call.then(() => "settled", (e) => e));
  const othersCall = other.listTools().then(() => "listed", (e) => e);
  const closing = client.close().then(() => "closed");
  const outcome = await Promise.race([closing, sleep(2_000).then(() => "still waiting")]);
  assert.equal(outcome, "closed", "close() resolves while the load has not settled");
  for (const ended of await Promise.all(waiting)) {
    assert.ok(ended instanceof McpClientError && ended.kind === "closed", String(ended));
  }
  await client.close();
  fail(new Error("stalled"));
  const othersOutcome = await othersCall;
  assert.ok(othersOutcome instanceof McpClientError && /stalled/.test(othersOutcome.message), "another client's call still waited for the load");
  await other.close();
  assertPrimaryAlone("a load that never came");
});

test("a call's timeout ends its wait for a load of the rest that stalls, and the call is not sent after", LIMIT, async () => {
  assertPrimaryAlone("what ran before");
  let fail;
  loadWith(() => new Promise((_, reject) => { fail = reject; }));
  const timedOut = (e) => e instanceof McpClientError && e.kind === "timeout" && /rest of the core/.test(e.message);
  let listed = 0;
  const counting = (input, init) => {
    if (typeof init?.body === "string" && init.body.includes('"tools/list"')) listed += 1;
    return fetch(input, init);
  };
  const client = await McpClient.connect(SERVERS[0], { timeout: 300, fetch: counting });
  const other = await McpClient.connect(SERVERS[0]);
  const started = performance.now();
  const outcomes = await Promise.all([
    client.listTools(undefined, { timeout: 100 }).then(() => "listed", (e) => e),
    // The connection's timeout, for a call without its own.
    client.listTools().then(() => "listed", (e) => e),
    // A call of the primary's queued behind them.
    client.callTool({ name: "echo", arguments: { message: "queued" } }).then(() => "called", (e) => e),
    other.listTools(undefined, { timeout: 150 }).then(() => "listed", (e) => e),
  ]);
  const took = performance.now() - started;
  for (const outcome of outcomes) assert.ok(timedOut(outcome), String(outcome));
  assert.ok(took < 2_000, `the waits ended by their timeouts (${Math.round(took)} ms)`);
  // Without a timeout of its own or its connection's, a call waits the core's default.
  const defaulted = other.listTools().then(() => "listed", (e) => e);
  const early = await Promise.race([defaulted, sleep(500).then(() => "waiting")]);
  assert.equal(early, "waiting");
  fail(new Error("stalled"));
  assert.ok((await defaulted) instanceof McpClientError, "the default wait ended with the load");
  await sleep(100);
  assert.equal(listed, 0, "a call whose wait timed out is not sent once the load settles");
  // The client is as usable as before: a call of the primary's goes through.
  const echoed = await client.callTool({ name: "echo", arguments: { message: "after" } });
  assert.match(echoed.content[0].text, /after/);
  await Promise.all([client.close(), other.close()]);
  assertPrimaryAlone("a load that timed out");
});

test("the browser entry's loader gives up on a fetch of the rest that stalls, and fetches again", LIMIT, async () => {
  const { createServer } = await import("node:http");
  const { webRestLoader } = await import("../../pkg/rest-web.js");
  let requests = 0;
  const server = createServer((request, response) => {
    requests += 1;
    response.writeHead(200, { "content-type": "application/wasm" });
    // The first fetch gets its headers and then nothing; the second the module whole.
    if (requests === 1) response.write(readFileSync(REST).subarray(0, 1_024));
    else response.end(readFileSync(REST));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const loader = webRestLoader(`http://127.0.0.1:${server.address().port}/rest.wasm`, 300);
    const started = performance.now();
    await assert.rejects(loader.load(), (e) => e.name === "TimeoutError" || /timeout|abort/i.test(String(e)));
    assert.ok(performance.now() - started < 2_000, "it gave up at its deadline");
    assert.ok((await loader.load()) instanceof WebAssembly.Module, "the next fetch compiles the module");
    assert.equal(requests, 2);
  } finally {
    server.closeAllConnections();
    server.close();
  }
});

test("a method of the rest fails with the loader's error while the rest cannot load, and loads it once it can", LIMIT, async () => {
  assertPrimaryAlone("what ran before");
  loadWith(() => {
    throw new Error("offline");
  });
  const client = await McpClient.connect(SERVERS[0]);
  assertPrimaryAlone("connecting");
  await assert.rejects(client.listTools(), (e) => e instanceof McpClientError && e.kind === "network" && /offline/.test(e.message));
  const abort = new AbortController();
  const aborted = client.listTools(undefined, { signal: abort.signal });
  abort.abort(new Error("stop waiting"));
  await assert.rejects(aborted, /stop waiting/, "the call's signal aborts its wait for the rest");
  // The task methods pass their options to `request` before a last argument of their own.
  const stop = new AbortController();
  const polled = client.request("tasks/get", { taskId: "split" }, { signal: stop.signal }, true);
  stop.abort(new Error("stop polling"));
  await assert.rejects(polled, /stop polling/, "request's options are its third argument");
  const progress = [];
  const slow = { name: "trigger-long-running-operation", arguments: { duration: 0.2, steps: 2 } };
  await assert.rejects(client.callTool(slow, { onprogress: (update) => progress.push(update) }), /offline/, "a call with onprogress waits for the rest");
  assertPrimaryAlone("a failed load");
  const loader = loadWith(() => readFileSync(REST));
  // A call of the primary's made while another waits for the rest goes after it: as
  // without the split, close() aborts the notification it finds in flight, which fails as
  // closed, as it would have been refused had it gone first.
  const other = await McpClient.connect(SERVERS[0]);
  const notified = other.notify("notifications/roots/list_changed");
  const closed = other.close();
  await assert.rejects(notified, (e) => e instanceof McpClientError && e.kind === "closed");
  await closed;
  const [tools, resources, templates] = await Promise.all([client.listTools(), client.listResources(), client.listResourceTemplates()]);
  assert.ok(tools.tools.some((tool) => tool.name === "echo"));
  assert.ok(Array.isArray(resources.resources) && Array.isArray(templates.resourceTemplates));
  assert.equal(loader.loads, 1, "one load, shared by every call after the loader works");
  assert.equal(needs.length, 0, `the primary needed the rest at\n${needs[0]}`);
  assert.equal(__restReady(), true);
  const names = [];
  for await (const tool of client.iterateTools()) names.push(tool.name);
  assert.ok(names.includes("echo"));
  await client.callTool(slow, { onprogress: (update) => progress.push(update) });
  assert.equal(progress.length, 2, "progress reached the listener");
  await client.close();
});

test("a connection with auth waits for OAuth's module, and its signal aborts the wait", LIMIT, async () => {
  assert.equal(__restReady(), true, "the tests before loaded the rest");
  let settled;
  const failing = new Promise((resolve) => { settled = resolve; });
  __setRestLoader({ sync: () => readFileSync(REST) }, {
    sync: () => { throw new Error("the primary took the synchronous path"); },
    load: async () => {
      await sleep(300);
      settled();
      throw new Error("offline");
    },
  });
  const auth = { clientId: "split", redirectUri: "http://127.0.0.1:1/cb", authorize: () => {} };
  const abort = new AbortController();
  const aborted = McpClient.connect(SERVERS[0], { auth, signal: abort.signal });
  setTimeout(() => abort.abort(new Error("stop waiting")), 50);
  await assert.rejects(aborted, /stop waiting/, "the signal ends the wait for the module");
  await failing;
  await assert.rejects(McpClient.connect(SERVERS[0], { auth }), (e) => e instanceof McpClientError && e.kind === "network" && /OAuth module could not be loaded: offline/.test(e.message));
  assert.equal(__oauthReady(), false);
  __setRestLoader({ sync: () => readFileSync(REST) }, { sync: () => readFileSync(new URL("../../pkg/mcp_wasm_oauth_bg.wasm", import.meta.url)) });
});

test("OAuth's module loads for a connection with auth, and for nothing else", LIMIT, async () => {
  assert.equal(__restReady(), true, "the tests before loaded the rest");
  assert.equal(__oauthReady(), false, "connecting, calling, listing and progress did not load OAuth");
  // server-everything asks for no authorization: auth is configured, its flow made and unused.
  const auth = { clientId: "split", redirectUri: "http://127.0.0.1:1/cb", authorize: () => {} };
  const client = await McpClient.connect(SERVERS[0], { auth });
  try {
    assert.equal(__oauthReady(), true);
    assert.equal((await client.callTool({ name: "echo", arguments: { message: "authorized" } })).content[0].text, "Echo: authorized");
  } finally {
    await client.close();
  }
});

test("every method of McpClient runs in the primary or waits for the rest", () => {
  // What scripts/split/scenarios.js runs, so the primary has it; and the task methods of
  // tasks.js, which send through `request`, and check a task's result with `__checkToolResult`
  // only after such a request has loaded the rest; and `__taskSupport`, which callTool and
  // callToolAsTask ask only once the rest is in and the tools were listed.
  const primary = new Set(["constructor", "callTool", "close", "free", "snapshot", "notifications", "addEventListener",
    "removeEventListener", "__reportError", "__destroy_into_raw", "era", "transport", "serverInfo", "serverCapabilities",
    "protocolVersion", "sessionId", "instructions"]);
  const tasks = new Set(["callToolAsTask", "getTask", "getTaskResult", "cancelTask", "listTasks", "__checkToolResult", "__taskSupport"]);
  const gated = new Set([...GATED_METHODS, ...GATED_ITERATORS]);
  for (const name of Object.getOwnPropertyNames(McpClient.prototype)) {
    assert.ok(primary.has(name) || tasks.has(name) || gated.has(name), `McpClient.prototype.${name} is in neither list`);
  }
  for (const name of gated) assert.equal(typeof McpClient.prototype[name], "function", `${name} exists`);
});

test("every option connect passes without waiting for the rest is one the split's profile connects with", () => {
  const scenarios = readFileSync(new URL("../../scripts/split/scenarios.js", import.meta.url), "utf8");
  for (const option of FIRST_CALL_OPTIONS) assert.match(scenarios, new RegExp(`\\b${option}:`), `scripts/split/scenarios.js passes ${option}`);
});
