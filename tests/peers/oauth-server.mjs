// OAuth-protected MCP test peer: one process that is both OAuth 2.1 authorization servers and
// the MCP resource server they protect, for the client's OAuth tests (Node and headless Chromium).
//
//   PORT=38060 node tests/peers/oauth-server.mjs        # ACCESS_TTL_S=3600 REFRESH=always by default
//   PORT=0 node tests/peers/oauth-server.mjs            # any free port; the readiness line says which
//
// AS  (issuer http://127.0.0.1:$PORT): /.well-known/oauth-authorization-server (RFC 8414),
//     POST /register (RFC 7591), GET+POST /authorize (consent page), POST /token (DPoP-aware).
// AS2 (issuer http://127.0.0.1:$PORT/as2): the same under /as2, named by the PRM after /__switch-as.
// RS  http://127.0.0.1:$PORT/mcp, PRM at /.well-known/oauth-protected-resource/mcp (RFC 9728), or
//     with PRM_RESOURCE=origin at /.well-known/oauth-protected-resource for the origin as resource.
// Test control: POST /__expire[?refresh=1], POST /__reset, GET /__stats, POST /__switch-as[?to=as1|as2],
//     POST /__dpop-nonce?mode=off|as|rs|both, POST /__consent-coop?policy=same-origin|same-origin-allow-popups|off.
// Exact parameters, errors and a verified transcript are in OAUTH-SERVER.md next to this file.
// Everything lives in memory; restart the process (or POST /__reset) to start clean.
import http from "node:http";
import { McpServer, createMcpHandler } from "@modelcontextprotocol/server";
import { z } from "zod";
import { createAuthorizationServer } from "./oauth/authorization-server.mjs";
import { DpopRefusal, createDpopChecker } from "./oauth/dpop.mjs";
import { CORS, json, log, readBody } from "./oauth/http.mjs";

const PORT = Number(process.env.PORT ?? 38060);
const ACCESS_TTL_S = Number(process.env.ACCESS_TTL_S ?? 3600);
// always: a refresh token with every authorization_code grant (if the client registered the
// refresh_token grant); offline_access: only when the scope also holds offline_access.
const REFRESH = process.env.REFRESH ?? "always";
// AS_CORS=0: the authorization servers' own routes send no CORS headers (the MCP
// endpoint and its resource metadata still do), like many real ones.
const AS_CORS = process.env.AS_CORS !== "0";
// path: the resource is http://127.0.0.1:$PORT/mcp; origin: it is http://127.0.0.1:$PORT, whose
// metadata lives at the root well-known URL, and tokens must be asked for exactly that.
const PRM_RESOURCE = process.env.PRM_RESOURCE ?? "path";
// Which servers refuse a DPoP proof without their nonce: off, as, rs or both.
const DPOP_NONCE = process.env.DPOP_NONCE ?? "off";
if (!["always", "offline_access"].includes(REFRESH) || !(ACCESS_TTL_S > 0) || !["path", "origin"].includes(PRM_RESOURCE) ||
    !["off", "as", "rs", "both"].includes(DPOP_NONCE)) {
  console.error("usage: PORT=<port> [ACCESS_TTL_S=<s>] [REFRESH=always|offline_access] [AS_CORS=0] [PRM_RESOURCE=path|origin] [DPOP_NONCE=off|as|rs|both] node tests/peers/oauth-server.mjs");
  process.exit(2);
}

// Listen first: with PORT=0 the issuer and every URL derive from the port the OS picked.
// Nothing can reach the routes before the readiness line names the port, after they are set up.
const httpServer = http.createServer((req, res) => route(req, res));
const ORIGIN = await new Promise((resolve) => {
  httpServer.listen(PORT, "127.0.0.1", () => resolve(`http://127.0.0.1:${httpServer.address().port}`));
});
const MCP_URL = `${ORIGIN}/mcp`;
const RESOURCE = PRM_RESOURCE === "origin" ? ORIGIN : MCP_URL;
const PRM_PATH = PRM_RESOURCE === "origin" ? "/.well-known/oauth-protected-resource" : "/.well-known/oauth-protected-resource/mcp";
const PRM_URL = `${ORIGIN}${PRM_PATH}`;

const dpop = createDpopChecker({ nonceMode: DPOP_NONCE });
const MACHINE = { client_id: "test-machine", client_secret: "test-secret", client_name: "test-machine",
  token_endpoint_auth_method: "client_secret_basic", grant_types: ["client_credentials"], redirect_uris: [] };
const shared = { resource: RESOURCE, accessTtlS: ACCESS_TTL_S, refreshPolicy: REFRESH, dpop };
const authorizationServers = {
  as1: createAuthorizationServer({ issuer: ORIGIN, prefix: "", preRegistered: [MACHINE], ...shared }),
  as2: createAuthorizationServer({ issuer: `${ORIGIN}/as2`, prefix: "/as2", ...shared }),
};

// ---- the resource server's state (POST /__reset wipes it with both authorization servers') ----
let active, rsStats;
// The Cross-Origin-Opener-Policy the consent pages are sent with (null: none), as Microsoft's,
// Stripe's or Cognito's sign-in pages are: a popup that reaches one is cut off from its opener.
let consentCoop = null;
function reset() {
  consentCoop = null;
  for (const as of Object.values(authorizationServers)) as.reset();
  dpop.reset();
  active = "as1";
  rsStats = { mcp: { ok: 0, unauthorized: 0, insufficientScope: 0, dpop: 0, dpopRefused: 0 }, expires: 0, prmReads: 0 };
}
reset();

const prm = () => ({
  resource: RESOURCE,
  authorization_servers: [authorizationServers[active].issuer],
  scopes_supported: ["mcp:read", "mcp:write"],
  bearer_methods_supported: ["header"],
  resource_name: "mcp-wasm OAuth test peer",
  dpop_signing_alg_values_supported: ["ES256"],
});

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

function challenge(res, status, params, body, scheme = "Bearer", extra = {}) {
  const header = `${scheme} ` + Object.entries(params).map(([k, v]) => `${k}="${v}"`).join(", ");
  json(res, status, body, { "WWW-Authenticate": header, ...extra });
}

/**
 * The DPoP side of a request that presented token `t` (record of the active authorization
 * server) with `scheme`: undefined if it may go on, else the refusal to answer with.
 */
async function dpopRefusal(req, url, scheme, token, t) {
  if (t.jkt && scheme !== "dpop") return { error: "invalid_token", description: "this token is bound to a DPoP key: present it with the DPoP scheme and a proof" };
  if (!t.jkt && scheme === "dpop") return { error: "invalid_token", description: "this token is not bound to a key: present it as Bearer" };
  if (!t.jkt) return undefined;
  try {
    const jkt = await dpop.verify(req.headers.dpop, { who: "rs", htm: req.method, htu: `${ORIGIN}${url.pathname}`, accessToken: token });
    if (jkt !== t.jkt) return { error: "invalid_dpop_proof", description: "the proof is signed by another key than the one the token is bound to" };
  } catch (e) {
    if (!(e instanceof DpopRefusal)) throw e;
    return { error: e.error, description: e.message };
  }
  return undefined;
}

async function mcp(req, res, url) {
  // 1. A valid, unexpired token of the authorization server the PRM names, for this resource.
  const m = /^(bearer|dpop) +(\S+)$/i.exec(req.headers.authorization ?? "");
  const t = m && authorizationServers[active].accessToken(m[2]);
  if (!t || t.resource !== RESOURCE) {
    rsStats.mcp.unauthorized++;
    // No credentials: no error code (RFC 6750 §3.1); a rejected token: invalid_token.
    const err = m ? { error: "invalid_token", error_description: "unknown or expired access token" } : {};
    return challenge(res, 401, { ...err, resource_metadata: PRM_URL, scope: "mcp:read" }, m ? err : { error: "unauthorized", error_description: "bearer token required" });
  }
  // 2. A DPoP-bound token only with the DPoP scheme and a valid proof of its key (RFC 9449 §7).
  const refused = await dpopRefusal(req, url, m[1].toLowerCase(), m[2], t);
  if (refused) {
    rsStats.mcp.dpopRefused++;
    log(`/mcp DPoP ${refused.error}: ${refused.description}`);
    const nonce = refused.error === "use_dpop_nonce" ? { "DPoP-Nonce": dpop.nonce } : {};
    return challenge(res, 401, { error: refused.error, error_description: refused.description, algs: "ES256", resource_metadata: PRM_URL },
      { error: refused.error, error_description: refused.description }, "DPoP", nonce);
  }
  if (t.jkt) rsStats.mcp.dpop++;
  // 3. Scope: every call needs mcp:read; tools/call write-note also needs mcp:write.
  const body = await readBody(req);
  let messages = [];
  try { messages = [JSON.parse(body.toString("utf8"))].flat(); } catch { /* the MCP handler reports the parse error */ }
  const needs = ["mcp:read"];
  if (messages.some((msg) => msg?.method === "tools/call" && msg.params?.name === "write-note")) needs.push("mcp:write");
  if (needs.some((s) => !t.scope.includes(s))) {
    rsStats.mcp.insufficientScope++;
    const err = { error: "insufficient_scope", error_description: `requires ${needs.join(" ")}` };
    return challenge(res, 403, { error: "insufficient_scope", scope: needs.join(" "), resource_metadata: PRM_URL }, err);
  }
  rsStats.mcp.ok++;
  // 4. The SDK handler (node:http <-> fetch glue as in fetch-handler-server.mjs).
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
  const abort = new AbortController();
  res.on("close", () => abort.abort());
  const request = new Request(url, { method: req.method, headers, signal: abort.signal,
    body: req.method === "GET" || req.method === "HEAD" ? undefined : body });
  const authInfo = { token: m[2], clientId: t.client_id, scopes: t.scope, expiresAt: t.exp, resource: new URL(t.resource) };
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

// ---- test control ----
const controls = {
  "POST /__expire": (url) => {
    const refresh = url.searchParams.get("refresh") === "1";
    const outcomes = Object.values(authorizationServers).map((as) => as.expire({ refresh }));
    rsStats.expires++;
    return { expired: outcomes.reduce((n, o) => n + o.expired, 0), refreshRevoked: outcomes.reduce((n, o) => n + o.refreshRevoked, 0) };
  },
  "POST /__reset": () => { reset(); return { reset: true }; },
  // The server moves to another authorization server: the PRM names it, and tokens of the
  // one before are refused from now on.
  "POST /__switch-as": (url) => {
    const to = url.searchParams.get("to") ?? "as2";
    if (!(to in authorizationServers)) return undefined;
    active = to;
    return { authorizationServer: authorizationServers[active].issuer };
  },
  "POST /__consent-coop": (url) => {
    const policy = url.searchParams.get("policy") ?? "same-origin";
    if (!["same-origin", "same-origin-allow-popups", "off"].includes(policy)) return undefined;
    consentCoop = policy === "off" ? null : policy;
    return { consentCoop };
  },
  "POST /__dpop-nonce": (url) => {
    try { dpop.setNonceMode(url.searchParams.get("mode") ?? "both"); } catch { return undefined; }
    return { mode: dpop.nonceMode };
  },
  "GET /__stats": () => ({ ...authorizationServers.as1.stats(), ...rsStats, authorizationServer: authorizationServers[active].issuer,
    as2: authorizationServers.as2.stats(), dpop: { nonceMode: dpop.nonceMode, ...dpop.stats() } }),
};

// ---- routing ----
async function route(req, res) {
  const url = new URL(req.url, ORIGIN);
  const name = `${req.method} ${url.pathname}`;
  const servers = Object.values(authorizationServers);
  // A consent page is a top-level navigation: no CORS. Everything else is fetched cross-origin by
  // browser clients (unless AS_CORS=0 takes it away from the authorization servers' routes).
  const consentPage = url.pathname.endsWith("/authorize") && servers.some((as) => as.serves(url.pathname));
  const resourceRoute = url.pathname === "/mcp" || url.pathname.startsWith("/.well-known/oauth-protected-resource") || url.pathname.startsWith("/__");
  if (!consentPage && (AS_CORS || resourceRoute)) {
    for (const [k, v] of Object.entries(CORS)) res.setHeader(k, v);
    if (req.method === "OPTIONS") {
      res.writeHead(204, { "Access-Control-Allow-Headers": req.headers["access-control-request-headers"] ?? "*", "Access-Control-Max-Age": "600" });
      return res.end();
    }
  }
  if (consentPage && consentCoop) res.setHeader("Cross-Origin-Opener-Policy", consentCoop);
  try {
    if (url.pathname === "/mcp") return await mcp(req, res, url);
    if (name === `GET ${PRM_PATH}`) {
      rsStats.prmReads++;
      return json(res, 200, prm());
    }
    for (const as of servers) if (await as.route(req, res, url)) return;
    if (controls[name]) {
      const answer = controls[name](url);
      return answer ? json(res, 200, answer) : json(res, 400, { error: "invalid_request", error_description: `bad parameters for ${url.pathname}` });
    }
    const known = [PRM_PATH, ...Object.keys(controls).map((c) => c.split(" ")[1])];
    if (known.includes(url.pathname) || servers.some((as) => as.serves(url.pathname))) return json(res, 405, { error: "method_not_allowed" });
    res.writeHead(404).end();
  } catch (e) {
    log(`${name}: ${e.stack}`);
    if (!res.headersSent) json(res, 500, { error: "server_error" });
    else res.end();
  }
}

console.error(`oauth-server listening on ${ORIGIN} (MCP ${MCP_URL}, ACCESS_TTL_S=${ACCESS_TTL_S}, REFRESH=${REFRESH}, PRM_RESOURCE=${PRM_RESOURCE}, DPOP_NONCE=${DPOP_NONCE})`);
