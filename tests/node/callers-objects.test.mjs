// What the caller hands the client (callbacks, signals, a transport of its own) cannot break it or
// the process: an async callback that rejects is an `error` event, not an unhandled rejection; an
// abort reason or a signal-like object that refuses to be read does not unwind through the wasm; a
// transport whose close() never settles does not hold connect() or close(); and no timer of a
// closed client holds the process. Against server-everything, directly and behind a fault proxy of
// this file's own (its announcements reach every stream open through it).
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpClient } from "mcp-wasm";
import { startPeer } from "../support/peer-process.mjs";

const URL_ = process.env.MCP_TEST_URL ?? "http://127.0.0.1:38011/mcp";
const LIMIT = { timeout: 30_000 };

/** `promise`'s outcome, or "pending" once `ms` have passed: for what must not hang. */
function within(promise, ms) {
  let timer;
  const late = new Promise((resolve) => { timer = setTimeout(() => resolve({ pending: true }), ms); });
  const outcome = promise.then((value) => ({ value }), (error) => ({ error }));
  return Promise.race([outcome, late]).finally(() => clearTimeout(timer));
}

/** The next `error` event of `client`. */
const nextError = (client) => new Promise((resolve) => client.addEventListener("error", (e) => resolve(e.error), { once: true }));

/** Runs `use` with a client of server-everything, closed after it. */
async function withClient(use) {
  const client = await McpClient.connect(URL_);
  try {
    await use(client);
  } finally {
    await client.close();
  }
}

/** Checks that `client` still answers a call after what it was handed. */
async function stillAnswers(client) {
  const echoed = await client.callTool({ name: "echo", arguments: { message: "still here" } });
  assert.match(echoed.content[0].text, /still here/);
}

const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;

test("an async onprogress or listener that rejects is an error event, and the call goes on", LIMIT, () => withClient(async (client) => {
  const errors = [];
  client.addEventListener("error", (e) => errors.push(e.error?.message));
  client.addEventListener("notifications/progress", async () => { throw new Error("the listener failed"); });
  const result = await client.callTool({ name: "trigger-long-running-operation", arguments: { duration: 1, steps: 2 } }, {
    onprogress: async (progress) => { throw new Error(`onprogress failed at ${progress.progress}`); },
  });
  assert.match(result.content[0].text, /completed/i);
  // The rejections are reported once their promises settle: a turn of the event loop.
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.ok(errors.some((m) => /onprogress failed/.test(m)), errors.join());
  assert.ok(errors.some((m) => /the listener failed/.test(m)), errors.join());
}));

test("an abort reason that refuses to be read still rejects the call, and the client stays usable", LIMIT, () => withClient(async (client) => {
  // A "strict" object, as config and enum helpers make: reading a property it lacks throws.
  const strict = new Proxy({ code: "E_STOP" }, {
    get(target, key) {
      if (key in target) return target[key];
      throw new TypeError(`no property ${String(key)}`);
    },
  });
  const controller = new AbortController();
  const call = client.callTool({ name: "trigger-long-running-operation", arguments: { duration: 3, steps: 3 } }, { signal: controller.signal });
  setTimeout(() => controller.abort(strict), 200);
  const outcome = await within(call, 5000);
  assert.ok(outcome.error === strict || outcome.error?.kind === "cancelled", outcome.pending ? "the call still waits" : "the call settled otherwise");
  await stillAnswers(client);
}));

test("a signal-like object without removeEventListener neither throws nor breaks close()", LIMIT, async () => {
  const client = await McpClient.connect(URL_);
  client.addEventListener("notifications/message", () => {}, { signal: { aborted: false, addEventListener() {} } });
  assert.deepEqual(await within(client.close(), 5000), { value: undefined });
});

test("a signal-like object whose aborted getter throws is refused as no signal, not thrown through the wasm", LIMIT, () => withClient(async (client) => {
  const signal = { get aborted() { throw new TypeError("not now"); }, addEventListener() {}, removeEventListener() {} };
  await assert.rejects(client.callTool({ name: "echo", arguments: { message: "x" } }, { signal }), (e) => e.kind === "invalid-argument" && /signal/.test(e.message));
  await stillAnswers(client);
}));

test("notifications() with a signal already aborted rejects its first next() and hears nothing", LIMIT, () => withClient(async (client) => {
  const reason = new Error("the request is gone");
  const iterator = client.notifications({ signal: AbortSignal.abort(reason) });
  await assert.rejects(iterator.next(), (e) => e === reason);
  assert.deepEqual(await iterator.next(), { done: true, value: undefined });
}));

test("a transport whose close() never settles holds neither a failed connect() nor close()", LIMIT, async () => {
  const silent = () => ({
    start() {},
    send() {}, // initialize is never answered
    close: () => new Promise(() => {}), // waits for an acknowledgement that never comes
  });
  const timedOut = await within(McpClient.connect(silent(), { timeout: 300 }), 3000);
  assert.equal(timedOut.error?.kind, "timeout", JSON.stringify(timedOut));
  const controller = new AbortController();
  setTimeout(() => controller.abort(new Error("the user gave up")), 300);
  const aborted = await within(McpClient.connect(silent(), { signal: controller.signal }), 3000);
  assert.match(String(aborted.error?.message), /the user gave up/, JSON.stringify(aborted));
  // One that answers, then never closes: close() resolves once it has waited its 5 s.
  let transport;
  const answering = {
    start() {},
    send(message) {
      if (message.method !== "initialize") return;
      queueMicrotask(() => transport.onmessage?.({ jsonrpc: "2.0", id: message.id, result: {
        protocolVersion: message.params.protocolVersion, capabilities: {}, serverInfo: { name: "answering", version: "1" },
      } }));
    },
    close: () => new Promise(() => {}),
  };
  transport = answering;
  const client = await McpClient.connect(answering);
  assert.deepEqual(await within(client.close(), 8000), { value: undefined });
});

test("a list watcher's wait (debounceMs 20 s) ends with close(), leaving no timer", LIMIT, async () => {
  const proxy = await startPeer("tests/peers/fault-proxy.mjs", { env: { UPSTREAM: new URL(URL_).origin } });
  const PROXY = proxy.origin;
  const before = timers();
  const client = await McpClient.connect(`${PROXY}/announce${new URL(URL_).pathname}`, {
    listChanged: { tools: { debounceMs: 20_000, onChanged: () => {} } },
  });
  try {
    const heard = new Promise((resolve) => client.addEventListener("notifications/tools/list_changed", resolve, { once: true }));
    // The proxy sends what it is given on the client's GET stream, once that is open.
    for (let tries = 0; tries < 50; tries++) {
      const sent = await fetch(`${PROXY}/__announce?method=notifications/tools/list_changed`, { method: "POST" });
      if (sent.ok && (await within(heard, 200)).pending !== true) break;
    }
    assert.equal((await within(heard, 2000)).pending, undefined, "the notification came");
    assert.ok(timers() > before, "the watcher waits out the burst");
  } finally {
    await client.close();
  }
  try {
    // What close() starts (the DELETE) settles within a few turns.
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(timers(), before, "no timer of the closed client is left");
  } finally {
    proxy.child.kill();
  }
});
