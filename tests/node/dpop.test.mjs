// DPoP (auth.dpop) through the built package under Node, against tests/peers/oauth-server.mjs
// started here on a port the OS picks. The peer verifies every proof (typ, alg, public jwk,
// signature, htm, htu, iat, one use per jti, ath, the key the token is bound to, its nonce)
// and records what it accepted; the client's own requests are recorded through `fetch`.
import { after, before, beforeEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import { decodeJwt, decodeProtectedHeader } from "jose";
import { McpClient } from "mcp-wasm";
import { codeFlow, consentingUser } from "../support/consenting-user.mjs";
import { startPeer } from "../support/peer-process.mjs";

const LIMIT = { timeout: 30_000 };
const textOf = (r) => r.content.filter((c) => c.type === "text").map((c) => c.text).join("\n");

/** A `fetch` that keeps what the client sent: method, URL and headers. */
function recordingFetch() {
  const sent = [];
  const recorder = async (input, init = {}) => {
    const request = new Request(input, init);
    sent.push({ method: request.method, url: request.url, headers: Object.fromEntries(request.headers) });
    return fetch(request);
  };
  return { fetch: recorder, sent };
}

describe("DPoP against a server that checks every proof", () => {
  let peer, origin, mcpUrl;
  const post = async (route) => assert.equal((await fetch(`${origin}${route}`, { method: "POST" })).status, 200, route);
  const stats = async () => (await fetch(`${origin}/__stats`)).json();
  before(async () => {
    peer = await startPeer("tests/peers/oauth-server.mjs");
    ({ origin } = peer);
    mcpUrl = `${origin}/mcp`;
  });
  after(() => peer?.child.kill());
  beforeEach(() => post("/__reset"));

  async function connect(record) {
    return McpClient.connect(mcpUrl, { ...codeFlow(consentingUser(), { dpop: true, storage: "memory" }), fetch: record.fetch });
  }

  test("without nonces: DPoP-bound tokens, a fresh proof of one key on every request, Bearer refused", LIMIT, async () => {
    await post("/__dpop-nonce?mode=off");
    const record = recordingFetch();
    const client = await connect(record);
    try {
      assert.match(textOf(await client.callTool({ name: "whoami" })), /^client_id=client-/);
      await post("/__expire");
      assert.match(textOf(await client.callTool({ name: "whoami" })), /^client_id=client-/, "a refresh with a proof of the same key");
    } finally {
      await client.close();
    }
    const s = await stats();
    assert.equal(s.dpopGrants, 2, "the code exchange and the refresh bought DPoP tokens");
    assert.equal(s.refreshes, 1);
    assert.deepEqual(s.dpop.refused, {}, "the peer refused no proof");
    const tokenProofs = s.dpop.proofs.filter((p) => p.at === "as");
    const resourceProofs = s.dpop.proofs.filter((p) => p.at === "rs");
    assert.equal(tokenProofs.length, 2);
    assert.ok(tokenProofs.every((p) => p.htm === "POST" && p.htu === `${origin}/token` && !p.ath), "token proofs: POST, the token endpoint, no ath");
    assert.ok(resourceProofs.length >= 3 && resourceProofs.every((p) => p.htu === mcpUrl && p.ath), "MCP proofs: the MCP URL, with ath");
    assert.equal(new Set(s.dpop.proofs.map((p) => p.jkt)).size, 1, "one key throughout");
    assert.equal(s.mcp.dpop, resourceProofs.length, "every MCP request the peer let through was a DPoP one");

    // What the client sent: after the first 401, every MCP request is Authorization: DPoP with a proof.
    const toMcp = record.sent.filter((r) => r.url === mcpUrl);
    const authorized = toMcp.filter((r) => r.headers.authorization);
    assert.ok(authorized.length >= 3 && authorized.every((r) => /^DPoP \S+$/.test(r.headers.authorization) && r.headers.dpop));
    const proofs = record.sent.filter((r) => r.headers.dpop).map((r) => ({ r, header: decodeProtectedHeader(r.headers.dpop), claims: decodeJwt(r.headers.dpop) }));
    for (const { r, header, claims } of proofs) {
      assert.equal(header.typ, "dpop+jwt");
      assert.equal(header.alg, "ES256");
      assert.deepEqual(Object.keys(header.jwk).sort(), ["crv", "kty", "x", "y"], "the public key only");
      assert.equal(claims.htm, r.method);
      assert.equal(claims.htu, r.url.split(/[?#]/)[0]);
      assert.ok(Math.abs(claims.iat - Date.now() / 1000) < 60, "iat is now");
    }
    assert.equal(new Set(proofs.map((p) => p.claims.jti)).size, proofs.length, "no jti twice");

    // The peer is strict, so the client's success means something: the token alone, or a proof
    // replayed, is refused.
    const last = authorized.at(-1);
    const token = last.headers.authorization.slice("DPoP ".length);
    await post("/__reset"); // drops the token; get a fresh one to replay against
    const again = recordingFetch();
    const second = await connect(again);
    try {
      await second.callTool({ name: "whoami" });
    } finally {
      await second.close();
    }
    const fresh = again.sent.filter((r) => r.url === mcpUrl && r.headers.authorization).at(-1);
    const freshToken = fresh.headers.authorization.slice("DPoP ".length);
    assert.notEqual(freshToken, token);
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
    const base = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" };
    const asBearer = await fetch(mcpUrl, { method: "POST", body, headers: { ...base, authorization: `Bearer ${freshToken}` } });
    assert.equal(asBearer.status, 401, "a DPoP-bound token presented as Bearer is refused");
    assert.match(asBearer.headers.get("www-authenticate"), /^DPoP error="invalid_token"/);
    const replayed = await fetch(mcpUrl, { method: "POST", body, headers: { ...base, authorization: fresh.headers.authorization, dpop: fresh.headers.dpop } });
    assert.equal(replayed.status, 401, "a proof used before is refused");
    assert.match(replayed.headers.get("www-authenticate"), /error="invalid_dpop_proof"/);
  });

  test("with nonces: each use_dpop_nonce refusal is answered once, and later proofs carry the nonce", LIMIT, async () => {
    await post("/__dpop-nonce?mode=both");
    const record = recordingFetch();
    const client = await connect(record);
    try {
      assert.match(textOf(await client.callTool({ name: "whoami" })), /^client_id=client-/);
      let s = await stats();
      assert.equal(s.dpop.nonceChallenges.as, 1, "the first token request was refused for its missing nonce, once");
      assert.equal(s.dpop.nonceChallenges.rs, 0, "the MCP server shares the origin's nonce, so the client already had it");

      // A new nonce: the MCP server refuses the next request once, the client retries with it.
      await post("/__dpop-nonce?mode=both");
      const before = record.sent.length;
      assert.match(textOf(await client.callTool({ name: "whoami" })), /^client_id=client-/);
      s = await stats();
      assert.equal(s.dpop.nonceChallenges.rs, 1);
      const retried = record.sent.slice(before).filter((r) => r.url === mcpUrl);
      assert.equal(retried.length, 2, "the refused call and its one retry");
      assert.notEqual(decodeJwt(retried[0].headers.dpop).jti, decodeJwt(retried[1].headers.dpop).jti, "the retry has a proof of its own");

      // And at the token endpoint: a refresh under yet another nonce.
      await post("/__dpop-nonce?mode=both");
      await post("/__expire");
      assert.match(textOf(await client.callTool({ name: "whoami" })), /^client_id=client-/);
      s = await stats();
      assert.equal(s.dpop.nonceChallenges.as, 2);
      assert.equal(s.refreshes, 1);
      assert.ok(s.dpop.proofs.every((p) => typeof p.nonce === "string"), "every accepted proof carried a nonce");
      assert.deepEqual(s.dpop.refused, {}, "no proof was refused for anything but a nonce");
    } finally {
      await client.close();
    }
  });
});
