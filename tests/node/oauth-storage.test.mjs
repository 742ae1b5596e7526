// Tokens kept in auth.storage outlive the client that got them, as they outlive a page load in a
// browser: through the built package under Node, against tests/peers/oauth-server.mjs started here
// on a port the OS picks. A second client on the same storage uses the tokens without a consent,
// and when they expire it refreshes them with the kept refresh token and registration.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { McpClient } from "mcp-wasm";
import { codeFlow, consentingUser } from "../support/consenting-user.mjs";
import { startPeer } from "../support/peer-process.mjs";

/** The Web Storage shape over a Map, as sessionStorage would hold it across page loads. */
function mapStorage() {
  const items = new Map();
  return { items, getItem: (k) => items.get(k) ?? null, setItem: (k, v) => void items.set(k, v), removeItem: (k) => void items.delete(k) };
}

describe("tokens in auth.storage outlive the client", () => {
  let peer;
  before(async () => { peer = await startPeer("tests/peers/oauth-server.mjs"); });
  after(() => peer?.child.kill());

  test("a new client on the same storage uses them, and refreshes them silently", { timeout: 30_000 }, async () => {
    const stats = async () => (await fetch(`${peer.origin}/__stats`)).json();
    const storage = mapStorage();
    const user = consentingUser();
    const first = await McpClient.connect(`${peer.origin}/mcp`, codeFlow(user, { storage }));
    const clientId = (await first.callTool({ name: "whoami" })).structuredContent.clientId;
    await first.close();
    assert.ok([...storage.items.keys()].some((k) => k.endsWith(":client")) && [...storage.items.keys()].some((k) => k.endsWith(":tokens")),
      "the registration and the tokens were kept");

    const second = await McpClient.connect(`${peer.origin}/mcp`, codeFlow(user, { storage }));
    try {
      assert.equal((await second.callTool({ name: "whoami" })).structuredContent.clientId, clientId);
      assert.equal(user.pages.length, 1, "the kept tokens were enough");

      await fetch(`${peer.origin}/__expire`, { method: "POST" });
      assert.equal((await second.callTool({ name: "whoami" })).structuredContent.clientId, clientId);
      const s = await stats();
      assert.deepEqual({ consents: user.pages.length, refreshes: s.refreshes, codeGrants: s.grants.authorization_code },
        { consents: 1, refreshes: 1, codeGrants: 1 }, "refreshed with the kept refresh token, without asking the user again");
    } finally {
      await second.close();
    }
  });
});
