// The time a person spends on the consent page is not the server's delay: connect's `timeout`
// gives that time back to the request that waits on `authorize`, and holds for the rest.
// A notification that meets a new consent (the tokens revoked) waits for it in the same way.
// Through the built package under Node, against tests/peers/oauth-server.mjs started here on a
// port the OS picks; the "user" reads the real consent page and presses Allow, taking its time.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { McpClient } from "mcp-wasm";
import { codeFlow, consentingUser } from "../support/consenting-user.mjs";
import { startPeer } from "../support/peer-process.mjs";

const TIMEOUT_MS = 500;

describe("a slow consent and connect's timeout", () => {
  let peer;
  before(async () => { peer = await startPeer("tests/peers/oauth-server.mjs"); });
  after(() => peer?.child.kill());

  test("a user who takes four timeouts to consent still connects", { timeout: 30_000 }, async () => {
    const user = consentingUser();
    let waited = 0;
    const authorize = async (url, context) => {
      const start = performance.now();
      await new Promise((resolve) => setTimeout(resolve, 4 * TIMEOUT_MS));
      waited = performance.now() - start;
      assert.equal(context.signal.aborted, false, "nobody gave up on the answer");
      return user.authorize(url);
    };
    const client = await McpClient.connect(`${peer.origin}/mcp`, { ...codeFlow(user, { authorize }), timeout: TIMEOUT_MS });
    try {
      assert.ok(waited >= 4 * TIMEOUT_MS - 5, `the consent took ${waited} ms`);
      assert.equal(user.pages.length, 1);
      assert.match((await client.callTool({ name: "whoami" })).structuredContent.clientId, /^client-/);
    } finally {
      await client.close();
    }
  });

  test("a notification that meets a new consent waits for it, past its timeout", { timeout: 30_000 }, async () => {
    const user = consentingUser();
    let consents = 0;
    let signalled = false;
    const authorize = async (url, context) => {
      consents += 1;
      if (consents > 1) {
        context.signal.addEventListener("abort", () => { signalled = true; }, { once: true });
        await new Promise((resolve) => setTimeout(resolve, 4 * TIMEOUT_MS));
      }
      return user.authorize(url);
    };
    const client = await McpClient.connect(`${peer.origin}/mcp`, { ...codeFlow(user, { authorize }), timeout: TIMEOUT_MS });
    try {
      // Neither the access token nor the refresh token works any more: the next message needs a consent.
      const expired = await (await fetch(`${peer.origin}/__expire?refresh=1`, { method: "POST" })).json();
      assert.ok(expired.refreshRevoked >= 1, JSON.stringify(expired));
      const start = performance.now();
      await client.notify("notifications/roots/list_changed");
      const took = performance.now() - start;
      assert.equal(consents, 2);
      assert.ok(took >= 4 * TIMEOUT_MS - 5, `the notification waited ${took} ms`);
      assert.equal(signalled, false, "nobody gave up on the answer");
      assert.match((await client.callTool({ name: "whoami" })).structuredContent.clientId, /^client-/);
    } finally {
      await client.close();
    }
  });

  // Tokens and refresh token revoked at the peer, so that the client's next message needs a new consent.
  async function revokeEverything() {
    const expired = await (await fetch(`${peer.origin}/__expire?refresh=1`, { method: "POST" })).json();
    assert.ok(expired.refreshRevoked >= 1, JSON.stringify(expired));
  }

  // An `authorize` that answers the first consent at once and holds every later one for `holdMs`
  // (for ever without it); `aborted` says whether the client told it that nobody waits any more.
  function heldConsents(holdMs) {
    const user = consentingUser();
    const seen = { consents: 0, aborted: false };
    const authorize = async (url, context) => {
      seen.consents += 1;
      if (seen.consents > 1) {
        await new Promise((resolve, reject) => {
          context.signal.addEventListener("abort", () => { seen.aborted = true; reject(context.signal.reason); }, { once: true });
          if (holdMs !== undefined) setTimeout(resolve, holdMs);
        });
      }
      return user.authorize(url);
    };
    return { seen, options: codeFlow(user, { authorize }) };
  }

  test("maxTotalTimeout counts the time on a consent page", { timeout: 30_000 }, async () => {
    const { seen, options } = heldConsents(6 * TIMEOUT_MS);
    const client = await McpClient.connect(`${peer.origin}/mcp`, { ...options, timeout: TIMEOUT_MS });
    try {
      await revokeEverything();
      const start = performance.now();
      const outcome = await client.listAllTools({ maxTotalTimeout: 2 * TIMEOUT_MS }).then(() => "listed", (e) => e);
      const took = performance.now() - start;
      assert.equal(outcome?.kind, "timeout", String(outcome));
      assert.ok(took >= 2 * TIMEOUT_MS - 5 && took < 4 * TIMEOUT_MS, `ended after ${took} ms`);
      assert.equal(seen.consents, 2);
      assert.equal(seen.aborted, true, "authorize was told that nobody waits any more");
    } finally {
      await client.close();
    }
  });

  test("close() ends a notification that waits on a consent, and the consent with it", { timeout: 30_000 }, async () => {
    const { seen, options } = heldConsents();
    // A timeout far longer than the test waits: only close() can end the notification in time.
    const client = await McpClient.connect(`${peer.origin}/mcp`, { ...options, timeout: 20 * TIMEOUT_MS });
    await revokeEverything();
    const notified = client.notify("notifications/roots/list_changed").then(() => "sent", (e) => e);
    while (seen.consents < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    const start = performance.now();
    await client.close();
    const outcome = await notified;
    const took = performance.now() - start;
    assert.equal(outcome?.kind, "closed", String(outcome));
    assert.ok(took < TIMEOUT_MS, `settled ${took} ms after close()`);
    assert.equal(seen.aborted, true, "authorize was told that nobody waits any more");
  });

  test("a consent nobody answers still ends with connect's signal", { timeout: 30_000 }, async () => {
    const stop = new AbortController();
    let signalled;
    const authorize = (url, context) => new Promise((_, reject) => {
      context.signal.addEventListener("abort", () => { signalled = true; reject(context.signal.reason); }, { once: true });
      setTimeout(() => stop.abort(new Error("the app gave up")), 3 * TIMEOUT_MS);
    });
    const start = performance.now();
    const outcome = await McpClient.connect(`${peer.origin}/mcp`, { ...codeFlow(consentingUser(), { authorize }), timeout: TIMEOUT_MS, signal: stop.signal })
      .then(() => "connected", (e) => e);
    const took = performance.now() - start;
    // Not the request's timeout, which would have ended it after TIMEOUT_MS: the app's signal.
    assert.ok(took >= 3 * TIMEOUT_MS - 5, `ended after ${took} ms`);
    // connect() rejects with its signal's reason, as fetch does.
    assert.equal(outcome?.message, "the app gave up", String(outcome));
    assert.equal(signalled, true, "authorize was told that nobody waits any more");
  });
});
