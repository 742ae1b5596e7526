// addEventListener's DOM semantics (`Listeners` in src/glue.js): the same listener once per type,
// `once`, `signal`, `handleEvent` objects, removeEventListener, and a listener that throws, against
// the 2026-07-28 peer, whose `add-tool` announces each tool it adds with
// notifications/tools/list_changed.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { McpClient } from "mcp-wasm";
import { startPeer } from "../support/peer-process.mjs";
import { countingSignal } from "../support/counting-signal.mjs";

const METHOD = "notifications/tools/list_changed";
let peer, url;
let added = 0;
before(async () => {
  peer = await startPeer("tests/peers/modern-server.mjs", { args: ["modern"] });
  url = `${peer.origin}/mcp`;
});
after(() => peer?.child.kill());

const addTool = (client) => client.callTool({ name: "add-tool", arguments: { name: `l-${process.pid}-${added++}` } });
// connect() resolves once the server acknowledged the listen stream: a change after it is heard.
const connected = () => McpClient.connect(url);

/** Calls add-tool and waits until a listener added last has heard its notification. */
async function announce(client) {
  const heard = new Promise((resolve) => client.addEventListener(METHOD, resolve, { once: true }));
  await addTool(client);
  const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error("no notification within 5 s")), 5_000));
  await Promise.race([heard, timeout]);
}

test("listeners follow the DOM: once per type, once, signal, handleEvent, removal", { timeout: 30_000 }, async () => {
  const client = await connected();
  const calls = { plain: 0, once: 0, signalled: 0, lateSignal: 0, removed: 0, all: 0 };
  const plain = () => calls.plain++;
  client.addEventListener(METHOD, plain);
  client.addEventListener(METHOD, plain);
  client.addEventListener(METHOD, () => calls.once++, { once: true });
  const controller = new AbortController();
  client.addEventListener(METHOD, () => calls.signalled++, { signal: controller.signal });
  client.addEventListener(METHOD, () => calls.lateSignal++, { signal: AbortSignal.abort() });
  const removed = () => calls.removed++;
  client.addEventListener(METHOD, removed);
  client.removeEventListener(METHOD, removed);
  // The catch-all also hears the 2026-07-28 era's notifications/subscriptions/acknowledged.
  const handler = { seen: 0, handleEvent(event) { if (event.notification.method === METHOD) this.seen++; } };
  client.addEventListener("notification", handler);
  client.addEventListener("notification", (event) => event.notification.method === METHOD && calls.all++);

  await announce(client);
  assert.deepEqual(calls, { plain: 1, once: 1, signalled: 1, lateSignal: 0, removed: 0, all: 1 });
  assert.equal(handler.seen, 1, "handleEvent is called on its object");

  controller.abort();
  await announce(client);
  assert.deepEqual(calls, { plain: 2, once: 1, signalled: 1, lateSignal: 0, removed: 0, all: 2 });

  const closed = new Promise((resolve) => client.addEventListener("close", (event) => resolve(event.type)));
  await client.close();
  assert.equal(await closed, "close");
});

test("a listener removed while the event is dispatched is not called, as on an EventTarget", { timeout: 30_000 }, async () => {
  const client = await connected();
  const ran = [];
  const controller = new AbortController();
  const removed = () => ran.push("removed");
  client.addEventListener(METHOD, () => {
    ran.push("first");
    client.removeEventListener(METHOD, removed);
    controller.abort();
    client.addEventListener(METHOD, () => ran.push("added"), { once: true });
  });
  client.addEventListener(METHOD, removed);
  client.addEventListener(METHOD, () => ran.push("aborted"), { signal: controller.signal });
  try {
    await announce(client);
    assert.deepEqual(ran, ["first"], "listeners removed by the first are skipped, the one it added waits");
  } finally {
    await client.close();
  }
});

test("a listener that throws becomes an error event, and dispatch goes on", { timeout: 30_000 }, async () => {
  const client = await connected();
  const thrown = new Error("listener bug");
  const errors = [];
  let after = 0;
  client.addEventListener(METHOD, () => { throw thrown; });
  client.addEventListener(METHOD, () => after++);
  client.addEventListener("error", (event) => errors.push(event.error));
  // An error listener that throws is not reported again.
  client.addEventListener("error", () => { throw new Error("error listener bug"); });
  await announce(client);
  assert.equal(after, 1);
  assert.deepEqual(errors, [thrown]);
  await client.close();
});

test("close lets go of the signals that listeners and iterators were given", { timeout: 30_000 }, async () => {
  const client = await connected();
  const { signal, held } = countingSignal();
  client.addEventListener(METHOD, () => {}, { signal });
  const iterator = client.notifications({ method: METHOD, signal });
  await announce(client);
  assert.equal(held.size, 2);
  await client.close();
  assert.equal((await iterator.next()).done, false, "what was kept is still read");
  assert.equal((await iterator.next()).done, true);
  assert.equal(held.size, 0, "no listener is left on the signal");
  for (let i = 0; i < 20; i++) client.addEventListener(METHOD, () => {}, { signal });
  assert.equal(held.size, 0, "a closed client takes no more listeners, nor holds their signal");
});
