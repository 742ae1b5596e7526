// OAuth bound to the resource and to the issuer, through the built package under Node,
// against tests/peers/oauth-server.mjs started here on ports the OS picks:
// - a protected resource whose metadata names the origin alone as the resource: tokens are
//   asked for exactly that, at /authorize, at /token and on refresh;
// - a server that moves to another authorization server (the peer's /as2): the client reads
//   the metadata again after the refusal, registers anew there, and never shows the new
//   server a client id, secret or refresh token of the old one; a pre-registered client
//   pinned to the old issuer fails instead, before any credential is sent.
import { after, before, beforeEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import { McpClient } from "mcp-wasm";
import { codeFlow, consentingUser } from "../support/consenting-user.mjs";
import { startPeer } from "../support/peer-process.mjs";

const LIMIT = { timeout: 30_000 };
const textOf = (r) => r.content.filter((c) => c.type === "text").map((c) => c.text).join("\n");
const clientIdOf = async (client) => (await client.callTool({ name: "whoami" })).structuredContent.clientId;

function control(origin) {
  const post = async (route) => {
    const answer = await fetch(`${origin}${route}`, { method: "POST" });
    assert.equal(answer.status, 200, `${route}: ${await answer.clone().text()}`);
    return answer.json();
  };
  return { post, stats: async () => (await fetch(`${origin}/__stats`)).json() };
}

/** Which of `shown`'s credentials were handed out by `issued`: none, if the client keeps them apart. */
function leaked(shown, issued) {
  return ["clientIds", "secrets", "refreshTokens"].flatMap((kind) => shown[kind].filter((value) => issued[kind].includes(value)));
}

describe("a resource that names its origin as the resource", () => {
  let peer;
  before(async () => { peer = await startPeer("tests/peers/oauth-server.mjs", { env: { PRM_RESOURCE: "origin" } }); });
  after(() => peer?.child.kill());

  test("the metadata at the root is found, and every token request names exactly the origin", LIMIT, async () => {
    const { origin } = peer;
    const { post, stats } = control(origin);
    const prm = await (await fetch(`${origin}/.well-known/oauth-protected-resource`)).json();
    assert.equal(prm.resource, origin, "the peer's metadata names the bare origin");
    assert.equal((await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`)).status, 404, "and only at the root");

    const user = consentingUser();
    const client = await McpClient.connect(`${origin}/mcp`, codeFlow(user));
    try {
      assert.match(textOf(await client.callTool({ name: "whoami" })), /^client_id=client-/);
      await post("/__expire");
      assert.match(textOf(await client.callTool({ name: "whoami" })), /^client_id=client-/, "refreshed after expiry");
    } finally {
      await client.close();
    }
    assert.equal(new URL(user.pages[0]).searchParams.get("resource"), origin, "the consent URL names the origin");
    const s = await stats();
    assert.deepEqual(s.resources.authorize, [origin], "one authorization request, for exactly the origin");
    assert.deepEqual(s.resources.token, [origin, origin], "the code exchange and the refresh, for exactly the origin");
    assert.equal(s.refreshWithoutResource, 0);
    assert.equal(s.grants.authorization_code, 1);
    assert.equal(s.refreshes, 1);
    assert.ok(s.prmReads >= 1, "the metadata was read from the root well-known URL");
  });
});

describe("a server that moves to another authorization server", () => {
  let peer, post, stats;
  before(async () => {
    peer = await startPeer("tests/peers/oauth-server.mjs");
    ({ post, stats } = control(peer.origin));
  });
  after(() => peer?.child.kill());
  beforeEach(() => post("/__reset"));

  test("authorization code: the client registers at the new server and shows it nothing of the old one", LIMIT, async () => {
    const user = consentingUser();
    const client = await McpClient.connect(`${peer.origin}/mcp`, codeFlow(user));
    try {
      const before = await clientIdOf(client);
      const atFirst = await stats();
      assert.ok(atFirst.issued.clientIds.includes(before) && atFirst.issued.refreshTokens.length === 1,
        "the first authorization server registered the client and issued a refresh token");
      const prmReads = atFirst.prmReads;

      await post("/__switch-as");
      const after = await clientIdOf(client);
      const s = await stats();
      assert.ok(s.prmReads > prmReads, "the refusal made the client read the resource metadata again");
      assert.ok(s.as2.issued.clientIds.includes(after), "the call now runs on a token of the second server's own client");
      assert.equal(s.as2.registrations, 1);
      assert.equal(s.as2.grants.authorization_code, 1);
      assert.equal(user.pages.length, 2, "a consent at each server");
      assert.equal(new URL(user.pages[1]).pathname, "/as2/authorize");
      assert.ok(s.as2.seen.clientIds.length > 0, "the second server saw the client (so the next check has something to look at)");
      assert.deepEqual(leaked(s.as2.seen, s.issued), [], "no client id, secret or refresh token of the first server reached the second");
      assert.equal(s.refreshes, 0, "the first server's refresh token was not tried against the second");
    } finally {
      await client.close();
    }
  });

  test("client credentials without auth.issuer: the pre-registered secret stays with the first server", LIMIT, async () => {
    const client = await McpClient.connect(`${peer.origin}/mcp`, {
      auth: { grant: "client_credentials", clientId: "test-machine", clientSecret: "test-secret", tokenEndpointAuthMethod: "client_secret_basic" },
      timeout: 10_000,
    });
    try {
      assert.equal(await clientIdOf(client), "test-machine");
      await post("/__switch-as");
      const after = await clientIdOf(client);
      const s = await stats();
      assert.ok(s.as2.issued.clientIds.includes(after), `a registration of its own at the second server (${after})`);
      assert.ok(s.as2.last.register.grant_types.includes("client_credentials"));
      assert.ok(!s.as2.seen.clientIds.includes("test-machine") && !s.as2.seen.secrets.includes("test-secret"),
        `the second server never saw test-machine or its secret: ${JSON.stringify(s.as2.seen)}`);
      assert.ok(s.as2.seen.secrets.length > 0, "it saw the secret it issued itself");
    } finally {
      await client.close();
    }
  });

  test("auth.issuer pins the pre-registered client: the moved server fails with kind auth and sees no secret", LIMIT, async () => {
    const client = await McpClient.connect(`${peer.origin}/mcp`, {
      auth: { grant: "client_credentials", clientId: "test-machine", clientSecret: "test-secret", issuer: peer.origin,
        tokenEndpointAuthMethod: "client_secret_basic" },
      timeout: 10_000,
    });
    try {
      assert.equal(await clientIdOf(client), "test-machine", "the pinned issuer is the first server: it works");
      await post("/__switch-as");
      await assert.rejects(client.callTool({ name: "whoami" }),
        (e) => e.name === "McpClientError" && e.kind === "auth" && e.message.includes(`${peer.origin}/as2`), "a typed auth error naming the new server");
      const s = await stats();
      assert.deepEqual(s.as2.seen, { clientIds: [], secrets: [], refreshTokens: [] }, "no credential reached the second server");
      assert.equal(s.as2.registrations, 0, "and no registration was attempted there");
    } finally {
      await client.close();
    }
  });
});
