// OAuth-protected MCP test peer: one process that is both an OAuth 2.1 authorization server and
// the MCP resource server it protects, for the client's OAuth tests (Node and headless Chromium).
//
//   PORT=38060 node tests/peers/oauth-server.mjs        # ACCESS_TTL_S=3600 REFRESH=always by default
//
// AS  (issuer http://127.0.0.1:$PORT): /.well-known/oauth-authorization-server (RFC 8414),
//     POST /register (RFC 7591), GET+POST /authorize (consent page), POST /token.
// RS  http://127.0.0.1:$PORT/mcp, PRM at /.well-known/oauth-protected-resource/mcp (RFC 9728).
// Test control: POST /__expire[?refresh=1], POST /__reset, GET /__stats.
// Exact parameters, errors and a verified transcript are in OAUTH-SERVER.md next to this file.
// Everything lives in memory; restart the process (or POST /__reset) to start clean.
import http from "node:http";
import { createHash, randomBytes } from "node:crypto";
import { McpServer, createMcpHandler } from "@modelcontextprotocol/server";
import { z } from "zod";

const PORT = Number(process.env.PORT ?? 38060);
const ACCESS_TTL_S = Number(process.env.ACCESS_TTL_S ?? 3600);
// always: a refresh token with every authorization_code grant (if the client registered the
// refresh_token grant); offline_access: only when the scope also holds offline_access.
const REFRESH = process.env.REFRESH ?? "always";
// AS_CORS=0: the authorization server's own routes send no CORS headers (the MCP
// endpoint and its resource metadata still do), like many real ones.
const AS_CORS = process.env.AS_CORS !== "0";
if (!["always", "offline_access"].includes(REFRESH) || !(ACCESS_TTL_S > 0)) {
  console.error("usage: PORT=<port> [ACCESS_TTL_S=<s>] [REFRESH=always|offline_access] node tests/peers/oauth-server.mjs");
  process.exit(2);
}
const CODE_TTL_S = 60;
const CONSENT_TTL_S = 600;

const ISSUER = `http://127.0.0.1:${PORT}`;
const MCP_URL = `${ISSUER}/mcp`;
const PRM_URL = `${ISSUER}/.well-known/oauth-protected-resource/mcp`;
const SCOPES = ["mcp:read", "mcp:write", "offline_access"];
const AUTH_METHODS = ["none", "client_secret_post", "client_secret_basic"];

const AS_METADATA = {
  issuer: ISSUER,
  authorization_endpoint: `${ISSUER}/authorize`,
  token_endpoint: `${ISSUER}/token`,
  registration_endpoint: `${ISSUER}/register`,
  response_types_supported: ["code"],
  code_challenge_methods_supported: ["S256"],
  grant_types_supported: ["authorization_code", "refresh_token", "client_credentials"],
  token_endpoint_auth_methods_supported: AUTH_METHODS,
  scopes_supported: SCOPES,
  authorization_response_iss_parameter_supported: true,
};
const PRM = {
  resource: MCP_URL,
  authorization_servers: [ISSUER],
  scopes_supported: ["mcp:read", "mcp:write"],
  bearer_methods_supported: ["header"],
  resource_name: "mcp-wasm OAuth test peer",
};

// ---- state (all of it is wiped by POST /__reset) ----
let clients, consents, codes, accessTokens, refreshTokens, spentRefresh, stats;
function reset() {
  clients = new Map([["test-machine", { client_id: "test-machine", client_secret: "test-secret", client_name: "test-machine",
    token_endpoint_auth_method: "client_secret_basic", grant_types: ["client_credentials"], redirect_uris: [] }]]);
  consents = new Map();      // txn -> validated /authorize parameters, until the consent form is posted
  codes = new Map();         // code -> {client_id, redirect_uri, code_challenge, resource, scope, exp, used, issued}
  accessTokens = new Map();  // token -> {client_id, scope: [], resource, exp}
  refreshTokens = new Map(); // token -> {client_id, scope: [], resource}
  spentRefresh = new Set();  // rotated-out refresh tokens, so a reuse is told apart from garbage
  stats = { registrations: 0, authorizeRequests: 0, authorizeRejected: 0, approvals: 0, denials: 0,
    grants: { authorization_code: 0, refresh_token: 0, client_credentials: 0 }, refreshes: 0, refreshReuse: 0,
    refreshWithoutResource: 0, tokenErrors: {}, mcp: { ok: 0, unauthorized: 0, insufficientScope: 0 }, expires: 0,
    last: {} };
}
reset();

const now = () => Math.floor(Date.now() / 1000);
const random = (n = 32) => randomBytes(n).toString("base64url");
const log = (msg) => console.error(`[oauth-server] ${msg}`);
const escapeHtml = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

// ---- HTTP helpers ----
const CORS = { "Access-Control-Allow-Origin": "*", "Access-Control-Allow-Methods": "GET, POST, DELETE, OPTIONS",
  "Access-Control-Expose-Headers": "mcp-session-id, mcp-protocol-version, www-authenticate" };

function json(res, status, body, extra = {}) {
  res.writeHead(status, { "Content-Type": "application/json", "Cache-Control": "no-store", ...extra });
  res.end(JSON.stringify(body));
}
function html(res, status, body) {
  res.writeHead(status, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "X-Frame-Options": "DENY" });
  res.end(`<!doctype html><meta charset="utf-8"><title>Test AS</title>
<style>body{font:16px system-ui,sans-serif;margin:2em}button{font-size:1.3em;padding:.5em 2em;margin-right:1em}</style>${body}`);
}
function redirect(res, target, params) {
  const url = new URL(target);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  res.writeHead(302, { Location: url.href, "Cache-Control": "no-store" });
  res.end();
}
async function readBody(req) {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  return Buffer.concat(chunks);
}
const isForm = (req) => String(req.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded");

// Redirect URIs must be absolute, fragment-free, and https or loopback http.
function badRedirectUri(uri) {
  let u;
  try { u = new URL(uri); } catch { return "not an absolute URL"; }
  if (u.hash) return "has a fragment";
  if (u.protocol === "https:") return null;
  if (u.protocol === "http:" && ["127.0.0.1", "localhost", "[::1]"].includes(u.hostname)) return null;
  return "must be https or http on a loopback host";
}

// ---- POST /register (RFC 7591) ----
function register(res, body) {
  let meta;
  try { meta = JSON.parse(body); } catch { return json(res, 400, { error: "invalid_client_metadata", error_description: "body is not JSON" }); }
  if (!meta || typeof meta !== "object" || Array.isArray(meta)) return json(res, 400, { error: "invalid_client_metadata", error_description: "body is not a JSON object" });
  const uris = meta.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || !uris.every((u) => typeof u === "string")) {
    return json(res, 400, { error: "invalid_redirect_uri", error_description: "redirect_uris must be a non-empty array of strings" });
  }
  for (const u of uris) {
    const why = badRedirectUri(u);
    if (why) return json(res, 400, { error: "invalid_redirect_uri", error_description: `${u}: ${why}` });
  }
  // Deliberate deviation from RFC 7591's default (client_secret_basic): no method asked for = public client.
  const method = meta.token_endpoint_auth_method ?? "none";
  if (!AUTH_METHODS.includes(method)) return json(res, 400, { error: "invalid_client_metadata", error_description: `unsupported token_endpoint_auth_method ${method}` });
  const grants = meta.grant_types ?? ["authorization_code"];
  const allowed = method === "none" ? ["authorization_code", "refresh_token"] : AS_METADATA.grant_types_supported;
  if (!Array.isArray(grants) || !grants.every((g) => allowed.includes(g))) {
    return json(res, 400, { error: "invalid_client_metadata", error_description: `grant_types must be a subset of ${allowed.join(", ")}` });
  }
  const responseTypes = meta.response_types ?? ["code"];
  if (!Array.isArray(responseTypes) || responseTypes.some((t) => t !== "code")) return json(res, 400, { error: "invalid_client_metadata", error_description: 'response_types must be ["code"]' });
  const client = { ...meta, client_id: `client-${random(9)}`, client_id_issued_at: now(), redirect_uris: uris,
    token_endpoint_auth_method: method, grant_types: grants, response_types: responseTypes };
  if (method !== "none") Object.assign(client, { client_secret: random(24), client_secret_expires_at: 0 });
  clients.set(client.client_id, client);
  stats.registrations++;
  stats.last.register = meta;
  json(res, 201, client);
}

// ---- GET /authorize: validate, then show the consent page ----
function authorize(res, q) {
  stats.authorizeRequests++;
  const p = Object.fromEntries(q);
  stats.last.authorize = p;
  const client = clients.get(p.client_id);
  // Without a trustworthy redirect_uri the error is shown here, never redirected (RFC 6749 §4.1.2.1).
  const refuse = (msg) => { stats.authorizeRejected++; log(`/authorize refused: ${msg}`); html(res, 400, `<h1>Authorization error</h1><p id="error">${escapeHtml(msg)}</p>`); };
  if (!client) return refuse(`unknown client_id ${p.client_id ?? "(missing)"}`);
  if (!p.redirect_uri || !client.redirect_uris.includes(p.redirect_uri)) return refuse(`redirect_uri ${p.redirect_uri ?? "(missing)"} is not registered for this client`);
  const fail = (error, description) => {
    stats.authorizeRejected++;
    log(`/authorize ${error}: ${description}`);
    redirect(res, p.redirect_uri, { error, error_description: description, state: p.state, iss: ISSUER });
  };
  if (p.response_type !== "code") return fail("unsupported_response_type", "response_type must be code");
  if (!client.grant_types.includes("authorization_code")) return fail("unauthorized_client", "client is not registered for authorization_code");
  if (!p.code_challenge) return fail("invalid_request", "code_challenge is required (PKCE)");
  if (p.code_challenge_method !== "S256") return fail("invalid_request", "code_challenge_method must be S256");
  if (!/^[A-Za-z0-9_-]{43}$/.test(p.code_challenge)) return fail("invalid_request", "code_challenge is not a base64url SHA-256 digest");
  if (!p.state) return fail("invalid_request", "state is required");
  if (p.resource !== MCP_URL) return fail("invalid_target", `resource must be ${MCP_URL}`);
  const scope = p.scope ? p.scope.split(" ").filter(Boolean) : ["mcp:read"];
  const unknown = scope.filter((s) => !SCOPES.includes(s));
  if (unknown.length) return fail("invalid_scope", `unknown scope ${unknown.join(" ")}`);

  const txn = random(16);
  consents.set(txn, { client_id: client.client_id, redirect_uri: p.redirect_uri, code_challenge: p.code_challenge,
    state: p.state, resource: p.resource, scope, exp: now() + CONSENT_TTL_S });
  html(res, 200, `<h1>Authorize ${escapeHtml(client.client_name ?? client.client_id)}</h1>
<p>Client <code id="client">${escapeHtml(client.client_id)}</code> asks for <code id="scope">${escapeHtml(scope.join(" "))}</code>
on <code id="resource">${escapeHtml(p.resource)}</code>.</p>
<form method="post" action="/authorize">
<input type="hidden" name="txn" value="${txn}">
<button type="submit" name="decision" value="allow" id="allow" data-testid="allow" autofocus>Allow</button>
<button type="submit" name="decision" value="deny" id="deny" data-testid="deny">Deny</button>
</form>`);
}

// ---- POST /authorize: the consent form's answer ----
function consent(res, body) {
  const form = new URLSearchParams(body);
  const c = consents.get(form.get("txn"));
  consents.delete(form.get("txn"));
  if (!c || c.exp < now()) return html(res, 400, '<h1>Authorization error</h1><p id="error">unknown or expired authorization request</p>');
  if (form.get("decision") !== "allow") {
    stats.denials++;
    return redirect(res, c.redirect_uri, { error: "access_denied", error_description: "the user denied the request", state: c.state, iss: ISSUER });
  }
  stats.approvals++;
  const code = random();
  codes.set(code, { ...c, exp: now() + CODE_TTL_S, used: false, issued: [] });
  redirect(res, c.redirect_uri, { code, state: c.state, iss: ISSUER });
}

// ---- POST /token ----
// Client authentication must use exactly the method the client registered.
function authenticateClient(req, form) {
  const header = req.headers.authorization ?? "";
  let presented = "none", id = form.get("client_id"), secret = form.get("client_secret");
  if (/^basic /i.test(header)) {
    const decoded = Buffer.from(header.slice(6).trim(), "base64").toString("utf8");
    const i = decoded.indexOf(":");
    const dec = (s) => decodeURIComponent(s.replace(/\+/g, " "));
    if (i < 0) return { error: "invalid_client", description: "malformed Basic credentials", basic: true };
    if (secret !== null) return { error: "invalid_request", description: "more than one client authentication method" };
    if (id !== null && id !== dec(decoded.slice(0, i))) return { error: "invalid_request", description: "client_id differs from the Basic credentials" };
    presented = "client_secret_basic"; id = dec(decoded.slice(0, i)); secret = dec(decoded.slice(i + 1));
  } else if (secret !== null) presented = "client_secret_post";
  const basic = presented === "client_secret_basic";
  const client = clients.get(id);
  if (!client) return { error: "invalid_client", description: `unknown client_id ${id ?? "(missing)"}`, basic };
  if (presented !== client.token_endpoint_auth_method) {
    return { error: "invalid_client", description: `client is registered for ${client.token_endpoint_auth_method}, request used ${presented}`, basic };
  }
  if (presented !== "none" && secret !== client.client_secret) return { error: "invalid_client", description: "wrong client_secret", basic };
  return { client, presented };
}

function issue(client_id, scope, resource, withRefresh) {
  const access_token = random();
  accessTokens.set(access_token, { client_id, scope, resource, exp: now() + ACCESS_TTL_S });
  const out = { access_token, token_type: "Bearer", expires_in: ACCESS_TTL_S, scope: scope.join(" ") };
  if (withRefresh) {
    out.refresh_token = random();
    refreshTokens.set(out.refresh_token, { client_id, scope, resource });
  }
  return out;
}

function token(req, res, body) {
  const fail = (status, error, description, extra = {}) => {
    stats.tokenErrors[error] = (stats.tokenErrors[error] ?? 0) + 1;
    log(`/token ${error}: ${description}`);
    json(res, status, { error, error_description: description }, { Pragma: "no-cache", ...extra });
  };
  if (!isForm(req)) return fail(400, "invalid_request", "Content-Type must be application/x-www-form-urlencoded");
  const form = new URLSearchParams(body.toString("utf8"));
  const grant = form.get("grant_type");
  const resource = form.get("resource");
  stats.last.token = { grant_type: grant, scope: form.get("scope"), resource, client_id: form.get("client_id"),
    redirect_uri: form.get("redirect_uri"), client_auth: /^basic /i.test(req.headers.authorization ?? "") ? "client_secret_basic" : form.has("client_secret") ? "client_secret_post" : "none" };
  if (!AS_METADATA.grant_types_supported.includes(grant)) return fail(400, "unsupported_grant_type", `grant_type ${grant ?? "(missing)"} is not supported`);
  const auth = authenticateClient(req, form);
  if (auth.error) {
    const status = auth.error === "invalid_client" ? 401 : 400;
    return fail(status, auth.error, auth.description, auth.basic ? { "WWW-Authenticate": 'Basic realm="oauth-test-peer"' } : {});
  }
  const { client } = auth;
  if (!client.grant_types.includes(grant)) return fail(400, "unauthorized_client", `client is not registered for ${grant}`);
  const pass = (out) => { stats.grants[grant]++; json(res, 200, out, { Pragma: "no-cache" }); };

  if (grant === "authorization_code") {
    const c = codes.get(form.get("code"));
    if (!c) return fail(400, "invalid_grant", "unknown code");
    if (c.used) {
      // A replayed code revokes whatever it already bought (OAuth 2.1 §4.1.3).
      for (const t of c.issued) { accessTokens.delete(t); refreshTokens.delete(t); }
      return fail(400, "invalid_grant", "code already used; tokens issued with it are revoked");
    }
    if (c.exp < now()) return fail(400, "invalid_grant", "code expired");
    if (c.client_id !== client.client_id) return fail(400, "invalid_grant", "code was issued to another client");
    if (form.get("redirect_uri") !== c.redirect_uri) return fail(400, "invalid_grant", "redirect_uri does not match the authorization request");
    const verifier = form.get("code_verifier");
    if (!verifier || !/^[A-Za-z0-9._~-]{43,128}$/.test(verifier)) return fail(400, "invalid_grant", "code_verifier missing or malformed");
    if (createHash("sha256").update(verifier).digest("base64url") !== c.code_challenge) return fail(400, "invalid_grant", "PKCE verification failed");
    if (resource !== c.resource) return fail(400, "invalid_target", `resource must be ${c.resource}, as in the authorization request`);
    c.used = true;
    const withRefresh = client.grant_types.includes("refresh_token") && (REFRESH === "always" || c.scope.includes("offline_access"));
    const out = issue(client.client_id, c.scope, c.resource, withRefresh);
    c.issued.push(out.access_token, out.refresh_token);
    return pass(out);
  }

  if (grant === "refresh_token") {
    const rt = form.get("refresh_token");
    const r = refreshTokens.get(rt);
    if (!r) {
      if (spentRefresh.has(rt)) { stats.refreshReuse++; return fail(400, "invalid_grant", "refresh token already rotated"); }
      return fail(400, "invalid_grant", "unknown refresh token");
    }
    if (r.client_id !== client.client_id) return fail(400, "invalid_grant", "refresh token was issued to another client");
    if (resource === null) stats.refreshWithoutResource++;
    else if (resource !== r.resource) return fail(400, "invalid_target", `resource must be ${r.resource}`);
    let scope = r.scope;
    if (form.get("scope")) {
      scope = form.get("scope").split(" ").filter(Boolean);
      if (scope.some((s) => !r.scope.includes(s))) return fail(400, "invalid_scope", `scope may only narrow ${r.scope.join(" ")}`);
    }
    refreshTokens.delete(rt); // rotation: the old refresh token is dead from now on
    spentRefresh.add(rt);
    stats.refreshes++;
    return pass(issue(client.client_id, scope, r.resource, true));
  }

  // client_credentials (confidential clients only; test-machine is pre-registered)
  const scope = form.get("scope") ? form.get("scope").split(" ").filter(Boolean) : ["mcp:read"];
  if (scope.some((s) => s === "offline_access" || !SCOPES.includes(s))) return fail(400, "invalid_scope", "scope must be from mcp:read mcp:write");
  if (resource !== null && resource !== MCP_URL) return fail(400, "invalid_target", `resource must be ${MCP_URL}`);
  return pass(issue(client.client_id, scope, MCP_URL, false));
}

// ---- the MCP resource server ----
const text = (t) => ({ content: [{ type: "text", text: t }] });
const notes = [];
function buildServer({ authInfo }) {
  const server = new McpServer({ name: "mcp-wasm-oauth-peer", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.registerTool("whoami", {
    description: "The client_id and scopes of the access token used for this call",
    outputSchema: z.object({ clientId: z.string(), scopes: z.array(z.string()) }),
  }, () => ({ ...text(`client_id=${authInfo.clientId} scopes=${authInfo.scopes.join(" ")}`),
    structuredContent: { clientId: authInfo.clientId, scopes: authInfo.scopes } }));
  server.registerTool("write-note", {
    description: "Store a note (needs scope mcp:write)",
    inputSchema: z.object({ text: z.string() }),
  }, ({ text: note }) => {
    if (!authInfo.scopes.includes("mcp:write")) return { ...text("mcp:write required"), isError: true }; // unreachable: the HTTP gate answers 403 first
    notes.push(note);
    return text(`note ${notes.length} saved by ${authInfo.clientId}`);
  });
  return server;
}
const handler = createMcpHandler(buildServer, { legacy: "stateless", onerror: (e) => log(`mcp: ${e.message}`) });

function challenge(res, status, params, body) {
  const header = "Bearer " + Object.entries(params).map(([k, v]) => `${k}="${v}"`).join(", ");
  json(res, status, body, { "WWW-Authenticate": header });
}

async function mcp(req, res, url) {
  // 1. A valid, unexpired bearer token for this resource.
  const m = /^bearer +(\S+)$/i.exec(req.headers.authorization ?? "");
  const t = m && accessTokens.get(m[1]);
  if (!t || t.exp <= now() || t.resource !== MCP_URL) {
    stats.mcp.unauthorized++;
    // No credentials: no error code (RFC 6750 §3.1); a rejected token: invalid_token.
    const err = m ? { error: "invalid_token", error_description: "unknown or expired access token" } : {};
    return challenge(res, 401, { ...err, resource_metadata: PRM_URL, scope: "mcp:read" }, m ? err : { error: "unauthorized", error_description: "bearer token required" });
  }
  // 2. Scope: every call needs mcp:read; tools/call write-note also needs mcp:write.
  const body = await readBody(req);
  let messages = [];
  try { messages = [JSON.parse(body.toString("utf8"))].flat(); } catch { /* the MCP handler reports the parse error */ }
  const needs = ["mcp:read"];
  if (messages.some((msg) => msg?.method === "tools/call" && msg.params?.name === "write-note")) needs.push("mcp:write");
  if (needs.some((s) => !t.scope.includes(s))) {
    stats.mcp.insufficientScope++;
    const err = { error: "insufficient_scope", error_description: `requires ${needs.join(" ")}` };
    return challenge(res, 403, { error: "insufficient_scope", scope: needs.join(" "), resource_metadata: PRM_URL }, err);
  }
  stats.mcp.ok++;
  // 3. The SDK handler (node:http <-> fetch glue as in modern-server.mjs).
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
  const abort = new AbortController();
  res.on("close", () => abort.abort());
  const request = new Request(url, { method: req.method, headers, signal: abort.signal,
    body: req.method === "GET" || req.method === "HEAD" ? undefined : body });
  const authInfo = { token: m[1], clientId: t.client_id, scopes: t.scope, expiresAt: t.exp, resource: new URL(t.resource) };
  const response = await handler.fetch(request, { authInfo });
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) return res.end();
  res.flushHeaders();
  const reader = response.body.getReader();
  res.on("close", () => reader.cancel().catch(() => {}));
  try {
    for (let r = await reader.read(); !r.done; r = await reader.read()) res.write(r.value);
  } catch { /* client went away */ }
  res.end();
}

// ---- routing ----
http.createServer(async (req, res) => {
  const url = new URL(req.url, ISSUER);
  const route = `${req.method} ${url.pathname}`;
  // /authorize is a top-level navigation: no CORS. Everything else is fetched cross-origin by browser clients
// (unless AS_CORS=0 takes it away from the authorization server's routes).
  const resourceRoute = url.pathname === "/mcp" || url.pathname.startsWith("/.well-known/oauth-protected-resource") || url.pathname.startsWith("/__");
  if (url.pathname !== "/authorize" && (AS_CORS || resourceRoute)) {
    for (const [k, v] of Object.entries(CORS)) res.setHeader(k, v);
    if (req.method === "OPTIONS") {
      res.writeHead(204, { "Access-Control-Allow-Headers": req.headers["access-control-request-headers"] ?? "*", "Access-Control-Max-Age": "600" });
      return res.end();
    }
  }
  try {
    if (url.pathname === "/mcp") return await mcp(req, res, url);
    switch (route) {
      case "GET /.well-known/oauth-authorization-server": return json(res, 200, AS_METADATA);
      case "GET /.well-known/oauth-protected-resource/mcp": return json(res, 200, PRM);
      case "POST /register": return register(res, (await readBody(req)).toString("utf8"));
      case "GET /authorize": return authorize(res, url.searchParams);
      case "POST /authorize": return consent(res, (await readBody(req)).toString("utf8"));
      case "POST /token": return token(req, res, await readBody(req));
      case "POST /__expire": {
        const expired = accessTokens.size, refreshRevoked = url.searchParams.get("refresh") === "1" ? refreshTokens.size : 0;
        accessTokens.clear();
        if (refreshRevoked) refreshTokens.clear();
        stats.expires++;
        return json(res, 200, { expired, refreshRevoked });
      }
      case "POST /__reset": reset(); return json(res, 200, { reset: true });
      case "GET /__stats": return json(res, 200, { ...stats, activeAccessTokens: accessTokens.size, activeRefreshTokens: refreshTokens.size });
    }
    const known = ["/.well-known/oauth-authorization-server", "/.well-known/oauth-protected-resource/mcp", "/register", "/authorize", "/token", "/__expire", "/__reset", "/__stats"];
    if (known.includes(url.pathname)) return json(res, 405, { error: "method_not_allowed" });
    res.writeHead(404).end();
  } catch (e) {
    log(`${route}: ${e.stack}`);
    if (!res.headersSent) json(res, 500, { error: "server_error" });
    else res.end();
  }
}).listen(PORT, "127.0.0.1", () => console.error(`oauth-server listening on ${ISSUER} (MCP ${MCP_URL}, ACCESS_TTL_S=${ACCESS_TTL_S}, REFRESH=${REFRESH})`));
