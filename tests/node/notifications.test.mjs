// notifications(): the async iterator that a listener of the client's events feeds
// (notificationStream in src/glue.js), against the 2026-07-28 peer, whose `add-tool` announces
// each tool it adds with notifications/tools/list_changed.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { McpClient, McpClientError } from "mcp-wasm";
import { startPeer } from "../support/peer-process.mjs";

const METHOD = "notifications/tools/list_changed";
const within = (promise, ms = 5_000) =>
  Promise.race([promise, new Promise((_, reject) => setTimeout(() => reject(new Error(`nothing within ${ms} ms`)), ms))]);
const settledSoon = (promise) => Promise.race([promise.then(() => true, () => true), new Promise((resolve) => setTimeout(() => resolve(false), 300))]);

describe("notifications()", () => {
  let peer, url;
  let added = 0;
  // One notification from the server per call.
  const announce = (client) => client.callTool({ name: "add-tool", arguments: { name: `n-${process.pid}-${added++}` } });
  // connect() resolves once the server acknowledged the listen stream: a change after it is heard.
  const connected = () => McpClient.connect(url);
  before(async () => {
    peer = await startPeer("tests/peers/modern-server.mjs", { args: ["modern"] });
    url = `${peer.origin}/mcp`;
  });
  after(() => peer?.child.kill());

  test("two next() calls at once each get a notification, in order, and a listener gets its own object", { timeout: 20_000 }, async () => {
    const client = await connected();
    const heard = [];
    client.addEventListener(METHOD, (event) => heard.push(event.notification));
    const iterator = client.notifications({ method: METHOD });
    const first = iterator.next();
    const second = iterator.next();
    await announce(client);
    await announce(client);
    const [a, b] = await within(Promise.all([first, second]));
    assert.equal(a.done, false);
    assert.equal(b.done, false);
    assert.equal(a.value.method, METHOD);
    assert.equal(b.value.method, METHOD);
    assert.equal(heard.length, 2);
    assert.notEqual(a.value, heard[0], "the iterator's notification is not the event's object");
    await client.close();
    assert.deepEqual(await iterator.next(), { done: true, value: undefined });
  });

  test("past bufferSize it ends with lagged, after what it kept", { timeout: 20_000 }, async () => {
    const client = await connected();
    const iterator = client.notifications({ method: METHOD, bufferSize: 1 });
    let heard = 0;
    const both = new Promise((resolve) => client.addEventListener(METHOD, () => ++heard === 2 && resolve()));
    await announce(client);
    await announce(client);
    // Nothing is read until both have come: the second finds the buffer full.
    await within(both);
    const kept = await within(iterator.next());
    assert.equal(kept.value.method, METHOD);
    await assert.rejects(iterator.next(), (error) => error instanceof McpClientError && error.kind === "lagged"
      && error.message === "the notification subscriber lagged more than 1 notifications behind");
    assert.equal((await iterator.next()).done, true);
    await client.close();
  });

  test("a reader that falls thousands behind a large bufferSize gets every one, in order", { timeout: 30_000 }, async () => {
    const client = await connected();
    const iterator = client.notifications({ method: METHOD, bufferSize: 100_000 });
    const heard = [];
    client.addEventListener(METHOD, (event) => heard.push(event.notification));
    // Three bursts of 1,000 from the server, none read until all have come.
    await client.callTool({ name: "list-changed-storm", arguments: { intervalMs: 50, durationMs: 175, burst: 1000 } });
    for (let last = -1; heard.length !== last;) {
      last = heard.length;
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    assert.ok(heard.length >= 2000, `${heard.length} notifications`);
    // Past 1,024 taken, the kept ones move to the front of a new array: nothing is lost or repeated.
    for (let i = 0; i < heard.length; i++) {
      const { done, value } = await iterator.next();
      assert.equal(done, false, `notification ${i}`);
      assert.deepEqual(value, heard[i]);
    }
    const more = iterator.next();
    assert.equal(await settledSoon(more), false, "nothing more was kept");
    await client.close();
    assert.deepEqual(await more, { done: true, value: undefined });
  });

  test("a listChanged watcher refreshes during a storm that never pauses, one refresh at a time", { timeout: 20_000 }, async () => {
    // The server announces a change every 20 ms for 3 s: never the watcher's 100 ms of quiet.
    const refreshed = [];
    const client = await McpClient.connect(url, {
      listChanged: { tools: { debounceMs: 100, onChanged: (error, items) => refreshed.push(error ?? items.length) } },
    });
    let notified = 0;
    client.addEventListener(METHOD, () => notified++);
    await client.callTool({ name: "list-changed-storm", arguments: { intervalMs: 20, durationMs: 3000 } });
    await within(new Promise((resolve) => {
      const poll = setInterval(() => refreshed.length >= 2 && (clearInterval(poll), resolve()), 20);
    }));
    assert.ok(refreshed.every((n) => typeof n === "number" && n > 0), JSON.stringify(refreshed));
    assert.ok(notified > refreshed.length * 5, `${notified} notifications for ${refreshed.length} refreshes`);
    await client.close();
    await new Promise((resolve) => setTimeout(resolve, 3_200)); // the storm ends before the next test listens
  });

  test("a wall clock set back an hour during a storm still refreshes within the burst's bound", { timeout: 20_000 }, async () => {
    // The client's clock counts a step back of Date.now as no time: the watcher's bound of four
    // periods holds. Were it read as the wall clock, the burst's first notification would lie an
    // hour ahead, and no refresh would come until the storm ends.
    const realNow = Date.now;
    const refreshed = [];
    const client = await McpClient.connect(url, {
      listChanged: { tools: { debounceMs: 100, onChanged: (error, items) => refreshed.push(error ?? items.length) } },
    });
    client.addEventListener(METHOD, () => {
      if (Date.now === realNow) Date.now = () => realNow() - 3_600_000;
    }, { once: true });
    try {
      const storm = client.callTool({ name: "list-changed-storm", arguments: { intervalMs: 20, durationMs: 3000 } });
      const started = realNow();
      await storm;
      await within(new Promise((resolve) => {
        const poll = setInterval(() => refreshed.length >= 2 && (clearInterval(poll), resolve()), 20);
      }), 2_000);
      assert.ok(Date.now !== realNow, "the clock was set back");
      assert.ok(realNow() - started < 3_000, `two refreshes during the storm, not after it: ${realNow() - started} ms`);
      assert.ok(refreshed.every((n) => typeof n === "number" && n > 0), JSON.stringify(refreshed));
    } finally {
      Date.now = realNow;
      await client.close();
    }
    await new Promise((resolve) => setTimeout(resolve, 3_200)); // the storm ends before the next test listens
  });

  test("close ends it after what it kept; return() and the signal end it at once", { timeout: 20_000 }, async () => {
    const client = await connected();
    const kept = client.notifications({ method: METHOD });
    const returned = client.notifications({ method: METHOD });
    const controller = new AbortController();
    const aborted = client.notifications({ method: METHOD, signal: controller.signal });
    const arrived = new Promise((resolve) => client.addEventListener(METHOD, resolve, { once: true }));
    await announce(client);
    await within(arrived);

    // Each iterator holds the notification above: its first next() takes it at once.
    assert.equal((await returned.next()).value.method, METHOD);
    const waiting = returned.next();
    assert.equal(await settledSoon(waiting), false, "nothing more has come");
    assert.deepEqual(await returned.return(), { done: true, value: undefined });
    assert.deepEqual(await waiting, { done: true, value: undefined });

    assert.equal((await aborted.next()).value.method, METHOD);
    const reason = new Error("stop listening");
    const abortedNext = aborted.next();
    controller.abort(reason);
    await assert.rejects(abortedNext, (error) => error === reason);
    assert.equal((await aborted.next()).done, true);

    await client.close();
    assert.equal((await kept.next()).value.method, METHOD, "what was kept before close is still read");
    assert.equal((await kept.next()).done, true);
    await assert.rejects(async () => client.notifications(), (error) => error.kind === "closed");
  });

  test("connect() resolves once the server acknowledged the listen stream: the first change after it is heard", { timeout: 30_000 }, async () => {
    // Before, connect() resolved while the stream was still opening, and a change the server made at
    // once was announced to no one (7 fresh clients in 20 against this peer, on this machine).
    for (let round = 0; round < 8; round++) {
      const client = await McpClient.connect(url);
      const heard = new Promise((resolve) => client.addEventListener(METHOD, resolve, { once: true }));
      await announce(client);
      assert.equal((await within(heard)).notification.method, METHOD, `round ${round}`);
      await client.close();
    }
  });

  test("a client let go of without close ends a pending next()", { timeout: 20_000 }, async () => {
    const client = await McpClient.connect(url);
    const iterator = client.notifications();
    const pending = iterator.next();
    client.free();
    assert.deepEqual(await within(pending), { done: true, value: undefined });
  });

  test("an already aborted signal: the first next() rejects with its reason, then done", { timeout: 20_000 }, async () => {
    const client = await McpClient.connect(url);
    const reason = new Error("aborted before");
    const iterator = client.notifications({ signal: AbortSignal.abort(reason) });
    await assert.rejects(iterator.next(), (error) => error === reason);
    assert.equal((await iterator.next()).done, true);
    await client.close();
  });
});
