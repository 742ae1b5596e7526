// OAuth discovery against origins that bend the rules (tests/support/odd-oauth-origin.mjs),
// through the built package under Node: what RFC 8414 §3.3, RFC 9728 §3.3 and RFC 6749 §6
// say a client must refuse, discard or drop, and one issuer form real servers use (a
// trailing slash) that it must accept. The flows themselves run against the real peer in
// oauth.test.mjs and oauth-issuer.test.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpClient, McpClientError } from "mcp-wasm";
import { consentingAtOnce, startOddOrigin } from "../support/odd-oauth-origin.mjs";

const LIMIT = { timeout: 30_000 };
const authError = (pattern) => (e) => e instanceof McpClientError && e.kind === "auth" && pattern.test(e.message);
const codeFlow = (user) => ({ auth: { redirectUri: "http://127.0.0.1:1/callback", authorize: user.authorize, storage: "memory" }, timeout: 5_000 });

test("a server without resource metadata that claims a pinned issuer is sent no credential", LIMIT, async () => {
  // Another loopback origin, which nothing here serves: the issuer the client is pinned to.
  const pinned = "http://127.0.0.1:9";
  const odd = await startOddOrigin({
    prm: () => null,
    metadata: (at) => ({
      issuer: pinned, authorization_endpoint: `${at}/authorize`, token_endpoint: `${at}/token`,
      code_challenge_methods_supported: ["S256"], token_endpoint_auth_methods_supported: ["client_secret_post"],
    }),
  });
  try {
    const auth = { grant: "client_credentials", clientId: "pinned-client", clientSecret: "pinned-secret", issuer: pinned, storage: "memory" };
    await assert.rejects(McpClient.connect(`${odd.origin}/mcp`, { auth, timeout: 5_000 }), authError(/issuer/));
    assert.deepEqual(odd.tokenForms(), [], "the token endpoint saw nothing");
    assert.ok(odd.requests.some((r) => r.path === "/.well-known/openid-configuration"), "the next metadata URL was tried before giving up");
  } finally {
    odd.close();
  }
});

test("a server that drops its resource metadata and claims its old issuer is not sent that issuer's refresh token", LIMIT, async () => {
  const issuer = await startOddOrigin({
    token: () => [200, { access_token: "issued-access", token_type: "Bearer", expires_in: 3600, refresh_token: "issued-refresh" }],
  });
  let moved = false;
  const server = await startOddOrigin({
    prm: (at) => (moved ? null : { resource: `${at}/mcp`, authorization_servers: [issuer.origin] }),
    metadata: (at) => (moved ? {
      issuer: issuer.origin, authorization_endpoint: `${at}/authorize`, token_endpoint: `${at}/token`, code_challenge_methods_supported: ["S256"],
    } : null),
    gate: (request) => (!moved && request.headers.authorization === "Bearer issued-access" ? undefined : [401, { "www-authenticate": "Bearer" }]),
    token: () => [400, { error: "invalid_grant" }],
  });
  let client;
  try {
    client = await McpClient.connect(`${server.origin}/mcp`, codeFlow(consentingAtOnce()));
    await client.listTools();
    moved = true;
    await assert.rejects(client.listTools(), authError(/issuer/));
    assert.deepEqual(server.tokenForms().map((form) => form.get("refresh_token")).filter(Boolean), [], "no refresh token went to the server");
    assert.equal(issuer.tokenForms().length, 1, "the code exchange, at the issuer");
  } finally {
    await client?.close();
    server.close();
    issuer.close();
  }
});

test("an issuer that ends in a slash is used as written, in the metadata and the callback", LIMIT, async () => {
  const odd = await startOddOrigin({
    prm: (at) => ({ resource: `${at}/mcp`, authorization_servers: [`${at}/`] }),
    metadata: (at) => ({
      issuer: `${at}/`, authorization_endpoint: `${at}/authorize`, token_endpoint: `${at}/token`, registration_endpoint: `${at}/register`,
      code_challenge_methods_supported: ["S256"], authorization_response_iss_parameter_supported: true,
    }),
  });
  try {
    const user = consentingAtOnce(undefined);
    const callback = user.authorize;
    // The callback's iss (RFC 9207) is the issuer exactly, slash and all.
    user.authorize = async (page) => {
      const url = new URL(await callback(page));
      url.searchParams.set("iss", `${odd.origin}/`);
      return url.toString();
    };
    const client = await McpClient.connect(`${odd.origin}/mcp`, codeFlow(user));
    assert.equal((await client.callTool({ name: "echo" })).content[0].text, "called");
    await client.close();
    assert.equal(user.pages.length, 1);
  } finally {
    odd.close();
  }
});

test("resource metadata that names no resource is not used", LIMIT, async () => {
  const odd = await startOddOrigin({ prm: (at) => ({ authorization_servers: [at] }) });
  try {
    await assert.rejects(McpClient.connect(`${odd.origin}/mcp`, codeFlow(consentingAtOnce())), authError(/names no resource/));
    assert.deepEqual(odd.tokenForms(), []);
  } finally {
    odd.close();
  }
});

test("a metadata document that names another issuer is discarded, and the next URL's is used", LIMIT, async () => {
  const odd = await startOddOrigin({
    metadata: (at, path) => ({
      issuer: path.includes("oauth-authorization-server") ? "http://127.0.0.1:9" : at,
      authorization_endpoint: `${at}/authorize`, token_endpoint: `${at}/token`, registration_endpoint: `${at}/register`,
      code_challenge_methods_supported: ["S256"],
    }),
  });
  try {
    const client = await McpClient.connect(`${odd.origin}/mcp`, codeFlow(consentingAtOnce()));
    await client.close();
    const read = odd.requests.map((r) => r.path).filter((path) => path.startsWith("/.well-known/") && !path.includes("protected-resource"));
    assert.deepEqual(read, ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"]);
  } finally {
    odd.close();
  }
});

test("a new authorization without a refresh token drops the older grant's", LIMIT, async () => {
  const scopes = new Map();
  let grants = 0;
  const odd = await startOddOrigin({
    token: (form) => {
      if (form.get("grant_type") === "refresh_token") {
        scopes.set("refreshed", "read");
        return [200, { access_token: "refreshed", token_type: "Bearer", scope: "read" }];
      }
      grants += 1;
      const scope = form.get("code").replace(/^code:/, "");
      scopes.set(`access-${grants}`, scope);
      // Only the first grant comes with a refresh token: it holds the narrower scope.
      return [200, { access_token: `access-${grants}`, token_type: "Bearer", scope, ...(grants === 1 ? { refresh_token: "narrow-refresh" } : {}) }];
    },
    gate: (request, message, at) => {
      const scope = scopes.get((request.headers.authorization ?? "").replace(/^Bearer /, ""));
      const metadata = `resource_metadata="${at}/.well-known/oauth-protected-resource/mcp"`;
      if (scope === undefined) return [401, { "www-authenticate": `Bearer ${metadata}, scope="read"` }];
      if (message?.method === "tools/call" && !scope.split(" ").includes("write")) {
        return [403, { "www-authenticate": `Bearer error="insufficient_scope", scope="read write", ${metadata}` }];
      }
      return undefined;
    },
  });
  const user = consentingAtOnce();
  let client;
  try {
    client = await McpClient.connect(`${odd.origin}/mcp`, codeFlow(user));
    await client.callTool({ name: "echo" });
    // Every access token expires.
    scopes.clear();
    assert.equal((await client.callTool({ name: "echo" })).content[0].text, "called");
    const refreshes = odd.tokenForms().filter((form) => form.get("grant_type") === "refresh_token");
    assert.deepEqual(refreshes.map((form) => form.get("refresh_token")), [], "the first grant's refresh token was not used after the step-up");
    assert.equal(user.scopes()[1], "read write", "the step-up asked for the whole scope");
  } finally {
    await client?.close();
    odd.close();
  }
});
