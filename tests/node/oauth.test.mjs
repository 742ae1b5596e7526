// OAuth through the built package under Node, against tests/peers/oauth-server.mjs:
// a real authorization server (registration, PKCE, consent page, refresh with
// rotation, step-up) in front of an MCP server built on @modelcontextprotocol/server.
// The "user" is this test: it opens the consent page and submits its form.
import { describe, test, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { McpClient } from "mcp-wasm";
import { codeFlow, consentingUser as user } from "../support/consenting-user.mjs";

const BASE = process.env.MCP_OAUTH_TEST_URL ?? "http://127.0.0.1:38060";
const MCP = `${BASE}/mcp`;
const LIMIT = { timeout: 20_000 };
const stats = async () => (await fetch(`${BASE}/__stats`)).json();
const textOf = (r) => r.content.filter((c) => c.type === "text").map((c) => c.text).join("\n");

describe("OAuth against a real authorization server", () => {
  beforeEach(async () => { await fetch(`${BASE}/__reset`, { method: "POST" }); });

  test("consent, tokens, a silent refresh after expiry, and step-up", LIMIT, async () => {
    const u = user();
    const client = await McpClient.connect(MCP, codeFlow(u));
    try {
      assert.match(textOf(await client.callTool({ name: "whoami" })), /scopes=mcp:read/);
      assert.equal(u.pages.length, 1, "one consent");

      // Every access token dies; the next call refreshes without asking the user.
      await fetch(`${BASE}/__expire`, { method: "POST" });
      assert.match(textOf(await client.callTool({ name: "whoami" })), /client_id=/);
      let s = await stats();
      assert.equal(s.refreshes, 1);
      assert.equal(s.refreshWithoutResource, 0, "the refresh names the resource (RFC 8707)");
      assert.equal(u.pages.length, 1, "no second consent for a refresh");

      // write-note needs mcp:write: a 403 insufficient_scope, then consent for the union of scopes.
      const note = await client.callTool({ name: "write-note", arguments: { text: "hi" } });
      assert.ok(!note.isError, textOf(note));
      assert.equal(u.pages.length, 2);
      // The union of what was held (mcp:read, plus offline_access the server offers) and what is asked.
      const union = u.scopes()[1].split(" ");
      assert.ok(union.includes("mcp:read") && union.includes("mcp:write"), union.join(" "));
      s = await stats();
      assert.equal(s.last.register.application_type, "native", "a loopback redirect makes a native client");
      assert.equal(s.last.token.resource, MCP);
    } finally {
      await client.close();
    }
  });

  test("a user who says no: a typed auth error naming the refusal", LIMIT, async () => {
    await assert.rejects(McpClient.connect(MCP, codeFlow(user("deny"))),
      (e) => e.name === "McpClientError" && e.kind === "auth" && /access_denied/.test(e.message));
  });

  test("a connect given up during consent stops the flow: no code is exchanged afterwards", LIMIT, async () => {
    const u = user();
    const controller = new AbortController();
    // The user consents, but the page gives up on connecting meanwhile.
    const authorize = async (url) => {
      const location = await u.authorize(url);
      controller.abort(new Error("the user closed the dialog"));
      await new Promise((r) => setTimeout(r, 20));
      return location;
    };
    await assert.rejects(McpClient.connect(MCP, { ...codeFlow(u, { authorize }), signal: controller.signal }),
      (e) => e.message === "the user closed the dialog", "connect rejects with the signal's reason");
    await new Promise((r) => setTimeout(r, 500));
    const s = await stats();
    assert.equal(s.approvals, 1, "the user did consent");
    assert.equal(s.grants.authorization_code, 0, "the flow went on in the background and exchanged the code");
  });

  test("a machine client with client credentials", LIMIT, async () => {
    const client = await McpClient.connect(MCP, {
      auth: { grant: "client_credentials", clientId: "test-machine", clientSecret: "test-secret", tokenEndpointAuthMethod: "client_secret_basic" },
      timeout: 10_000,
    });
    try {
      assert.match(textOf(await client.callTool({ name: "whoami" })), /client_id=test-machine/);
    } finally {
      await client.close();
    }
  });

  test("no auth configured: the 401 is an http error with its challenge readable", LIMIT, async () => {
    await assert.rejects(McpClient.connect(MCP, { timeout: 5_000 }), (e) => e.kind === "http" && e.status === 401);
  });
});
