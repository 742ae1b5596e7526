// One OAuth 2.1 authorization server of the OAuth peer: RFC 8414 metadata, RFC 7591 dynamic
// registration, the consent page, and the token endpoint (authorization_code with PKCE,
// rotating refresh tokens, client_credentials), with DPoP-bound tokens (RFC 9449) for a client
// that sends a proof. The peer runs two of them (issuers `origin` and `origin/as2`), so each
// records the client ids, secrets and refresh tokens it issued and those it was shown: a
// client bound to its issuer never shows one server what another handed out.
import { createHash } from "node:crypto";
import { DpopRefusal } from "./dpop.mjs";
import { escapeHtml, html, isForm, json, log, now, random, readBody, redirect } from "./http.mjs";

const CODE_TTL_S = 60;
const CONSENT_TTL_S = 600;
const RECORD_LIMIT = 100;
export const SCOPES = ["mcp:read", "mcp:write", "offline_access"];
const AUTH_METHODS = ["none", "client_secret_post", "client_secret_basic"];
const GRANTS = ["authorization_code", "refresh_token", "client_credentials"];

/** Redirect URIs must be absolute, fragment-free, and https or loopback http. */
function badRedirectUri(uri) {
  let u;
  try { u = new URL(uri); } catch { return "not an absolute URL"; }
  if (u.hash) return "has a fragment";
  if (u.protocol === "https:") return null;
  if (u.protocol === "http:" && ["127.0.0.1", "localhost", "[::1]"].includes(u.hostname)) return null;
  return "must be https or http on a loopback host";
}

const record = (list, value) => { if (value && !list.includes(value) && list.length < RECORD_LIMIT) list.push(value); };
const credentials = () => ({ clientIds: [], secrets: [], refreshTokens: [] });

/**
 * `issuer` is this server's issuer URL and `prefix` its path on the peer's origin ("" or
 * "/as2"); tokens are only issued for `resource`, exactly. `dpop` is the peer's DPoP checker.
 */
export function createAuthorizationServer({ issuer, prefix, resource, accessTtlS, refreshPolicy, preRegistered = [], dpop }) {
  const metadataPath = `/.well-known/oauth-authorization-server${prefix}`;
  const metadata = {
    issuer,
    authorization_endpoint: `${issuer}/authorize`,
    token_endpoint: `${issuer}/token`,
    registration_endpoint: `${issuer}/register`,
    response_types_supported: ["code"],
    code_challenge_methods_supported: ["S256"],
    grant_types_supported: GRANTS,
    token_endpoint_auth_methods_supported: AUTH_METHODS,
    scopes_supported: SCOPES,
    authorization_response_iss_parameter_supported: true,
    dpop_signing_alg_values_supported: ["ES256"],
  };

  // ---- state (all of it is wiped by reset()) ----
  let clients, consents, codes, accessTokens, refreshTokens, spentRefresh, stats;
  function reset() {
    clients = new Map(preRegistered.map((c) => [c.client_id, { ...c }]));
    consents = new Map();      // txn -> validated /authorize parameters, until the consent form is posted
    codes = new Map();         // code -> {client_id, redirect_uri, code_challenge, resource, scope, exp, used, issued}
    accessTokens = new Map();  // token -> {client_id, scope: [], resource, exp, jkt?}
    refreshTokens = new Map(); // token -> {client_id, scope: [], resource, jkt?}
    spentRefresh = new Set();  // rotated-out refresh tokens, so a reuse is told apart from garbage
    stats = { registrations: 0, authorizeRequests: 0, authorizeRejected: 0, approvals: 0, denials: 0,
      grants: { authorization_code: 0, refresh_token: 0, client_credentials: 0 }, refreshes: 0, refreshReuse: 0,
      refreshWithoutResource: 0, dpopGrants: 0, tokenErrors: {}, last: {},
      resources: { authorize: [], token: [] }, issued: credentials(), seen: credentials() };
  }
  reset();

  // ---- POST /register (RFC 7591) ----
  function register(res, body) {
    let meta;
    try { meta = JSON.parse(body); } catch { return json(res, 400, { error: "invalid_client_metadata", error_description: "body is not JSON" }); }
    if (!meta || typeof meta !== "object" || Array.isArray(meta)) return json(res, 400, { error: "invalid_client_metadata", error_description: "body is not a JSON object" });
    record(stats.seen.clientIds, meta.client_id);
    record(stats.seen.secrets, meta.client_secret);
    const uris = meta.redirect_uris;
    if (!Array.isArray(uris) || !uris.every((u) => typeof u === "string")) {
      return json(res, 400, { error: "invalid_redirect_uri", error_description: "redirect_uris must be a non-empty array of strings" });
    }
    // Only a client that sends users here needs somewhere to send them back to.
    const grants = meta.grant_types ?? ["authorization_code"];
    if (uris.length === 0 && (!Array.isArray(grants) || grants.includes("authorization_code"))) {
      return json(res, 400, { error: "invalid_redirect_uri", error_description: "redirect_uris must be a non-empty array of strings" });
    }
    for (const u of uris) {
      const why = badRedirectUri(u);
      if (why) return json(res, 400, { error: "invalid_redirect_uri", error_description: `${u}: ${why}` });
    }
    // Deliberate deviation from RFC 7591's default (client_secret_basic): no method asked for = public client.
    const method = meta.token_endpoint_auth_method ?? "none";
    if (!AUTH_METHODS.includes(method)) return json(res, 400, { error: "invalid_client_metadata", error_description: `unsupported token_endpoint_auth_method ${method}` });
    const allowed = method === "none" ? ["authorization_code", "refresh_token"] : GRANTS;
    if (!Array.isArray(grants) || !grants.every((g) => allowed.includes(g))) {
      return json(res, 400, { error: "invalid_client_metadata", error_description: `grant_types must be a subset of ${allowed.join(", ")}` });
    }
    const responseTypes = meta.response_types ?? ["code"];
    if (!Array.isArray(responseTypes) || responseTypes.some((t) => t !== "code")) return json(res, 400, { error: "invalid_client_metadata", error_description: 'response_types must be ["code"]' });
    const client = { ...meta, client_id: `client-${random(9)}`, client_id_issued_at: now(), redirect_uris: uris,
      token_endpoint_auth_method: method, grant_types: grants, response_types: responseTypes };
    if (method !== "none") Object.assign(client, { client_secret: random(24), client_secret_expires_at: 0 });
    clients.set(client.client_id, client);
    record(stats.issued.clientIds, client.client_id);
    record(stats.issued.secrets, client.client_secret);
    stats.registrations++;
    stats.last.register = meta;
    json(res, 201, client);
  }

  // ---- GET /authorize: validate, then show the consent page ----
  function authorize(res, q) {
    stats.authorizeRequests++;
    const p = Object.fromEntries(q);
    stats.last.authorize = p;
    record(stats.seen.clientIds, p.client_id);
    if ("resource" in p) stats.resources.authorize.push(p.resource);
    const client = clients.get(p.client_id);
    // Without a trustworthy redirect_uri the error is shown here, never redirected (RFC 6749 §4.1.2.1).
    const refuse = (msg) => { stats.authorizeRejected++; log(`${prefix}/authorize refused: ${msg}`); html(res, 400, `<h1>Authorization error</h1><p id="error">${escapeHtml(msg)}</p>`); };
    if (!client) return refuse(`unknown client_id ${p.client_id ?? "(missing)"}`);
    if (!p.redirect_uri || !client.redirect_uris.includes(p.redirect_uri)) return refuse(`redirect_uri ${p.redirect_uri ?? "(missing)"} is not registered for this client`);
    const fail = (error, description) => {
      stats.authorizeRejected++;
      log(`${prefix}/authorize ${error}: ${description}`);
      redirect(res, p.redirect_uri, { error, error_description: description, state: p.state, iss: issuer });
    };
    if (p.response_type !== "code") return fail("unsupported_response_type", "response_type must be code");
    if (!client.grant_types.includes("authorization_code")) return fail("unauthorized_client", "client is not registered for authorization_code");
    if (!p.code_challenge) return fail("invalid_request", "code_challenge is required (PKCE)");
    if (p.code_challenge_method !== "S256") return fail("invalid_request", "code_challenge_method must be S256");
    if (!/^[A-Za-z0-9_-]{43}$/.test(p.code_challenge)) return fail("invalid_request", "code_challenge is not a base64url SHA-256 digest");
    if (!p.state) return fail("invalid_request", "state is required");
    if (p.resource !== resource) return fail("invalid_target", `resource must be ${resource}`);
    const scope = p.scope ? p.scope.split(" ").filter(Boolean) : ["mcp:read"];
    const unknown = scope.filter((s) => !SCOPES.includes(s));
    if (unknown.length) return fail("invalid_scope", `unknown scope ${unknown.join(" ")}`);

    const txn = random(16);
    consents.set(txn, { client_id: client.client_id, redirect_uri: p.redirect_uri, code_challenge: p.code_challenge,
      state: p.state, resource: p.resource, scope, exp: now() + CONSENT_TTL_S });
    html(res, 200, `<h1>Authorize ${escapeHtml(client.client_name ?? client.client_id)}</h1>
<p>Client <code id="client">${escapeHtml(client.client_id)}</code> asks for <code id="scope">${escapeHtml(scope.join(" "))}</code>
on <code id="resource">${escapeHtml(p.resource)}</code> at <code id="issuer">${escapeHtml(issuer)}</code>.</p>
<form method="post" action="${prefix}/authorize">
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
      return redirect(res, c.redirect_uri, { error: "access_denied", error_description: "the user denied the request", state: c.state, iss: issuer });
    }
    stats.approvals++;
    const code = random();
    codes.set(code, { ...c, exp: now() + CODE_TTL_S, used: false, issued: [] });
    redirect(res, c.redirect_uri, { code, state: c.state, iss: issuer });
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
      record(stats.seen.clientIds, dec(decoded.slice(0, i)));
      record(stats.seen.secrets, dec(decoded.slice(i + 1)));
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

  function issue(client_id, scope, tokenResource, withRefresh, jkt) {
    const access_token = random();
    accessTokens.set(access_token, { client_id, scope, resource: tokenResource, exp: now() + accessTtlS, jkt });
    const out = { access_token, token_type: jkt ? "DPoP" : "Bearer", expires_in: accessTtlS, scope: scope.join(" ") };
    if (withRefresh) {
      out.refresh_token = random();
      // A refresh token bought with a proof is bound to the same key (RFC 9449 §5).
      refreshTokens.set(out.refresh_token, { client_id, scope, resource: tokenResource, jkt });
      record(stats.issued.refreshTokens, out.refresh_token);
    }
    if (jkt) stats.dpopGrants++;
    return out;
  }

  async function token(req, res, body) {
    const fail = (status, error, description, extra = {}) => {
      stats.tokenErrors[error] = (stats.tokenErrors[error] ?? 0) + 1;
      log(`${prefix}/token ${error}: ${description}`);
      json(res, status, { error, error_description: description }, { Pragma: "no-cache", ...extra });
    };
    if (!isForm(req)) return fail(400, "invalid_request", "Content-Type must be application/x-www-form-urlencoded");
    const form = new URLSearchParams(body.toString("utf8"));
    const grant = form.get("grant_type");
    const tokenResource = form.get("resource");
    record(stats.seen.clientIds, form.get("client_id"));
    record(stats.seen.secrets, form.get("client_secret"));
    record(stats.seen.refreshTokens, form.get("refresh_token"));
    if (tokenResource !== null) stats.resources.token.push(tokenResource);
    stats.last.token = { grant_type: grant, scope: form.get("scope"), resource: tokenResource, client_id: form.get("client_id"),
      redirect_uri: form.get("redirect_uri"), client_auth: /^basic /i.test(req.headers.authorization ?? "") ? "client_secret_basic" : form.has("client_secret") ? "client_secret_post" : "none",
      dpop: req.headers.dpop !== undefined };
    if (!GRANTS.includes(grant)) return fail(400, "unsupported_grant_type", `grant_type ${grant ?? "(missing)"} is not supported`);
    const auth = authenticateClient(req, form);
    if (auth.error) {
      const status = auth.error === "invalid_client" ? 401 : 400;
      return fail(status, auth.error, auth.description, auth.basic ? { "WWW-Authenticate": 'Basic realm="oauth-test-peer"' } : {});
    }
    const { client } = auth;
    if (!client.grant_types.includes(grant)) return fail(400, "unauthorized_client", `client is not registered for ${grant}`);
    // A proof, when there is one, binds what this request buys to its key.
    let jkt;
    if (req.headers.dpop !== undefined) {
      try {
        jkt = await dpop.verify(req.headers.dpop, { who: "as", htm: "POST", htu: metadata.token_endpoint });
      } catch (e) {
        if (!(e instanceof DpopRefusal)) throw e;
        return fail(400, e.error, e.message, e.error === "use_dpop_nonce" ? { "DPoP-Nonce": dpop.nonce } : {});
      }
    }
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
      if (tokenResource !== c.resource) return fail(400, "invalid_target", `resource must be ${c.resource}, as in the authorization request`);
      c.used = true;
      const withRefresh = client.grant_types.includes("refresh_token") && (refreshPolicy === "always" || c.scope.includes("offline_access"));
      const out = issue(client.client_id, c.scope, c.resource, withRefresh, jkt);
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
      if (r.jkt && r.jkt !== jkt) return fail(400, "invalid_grant", "refresh token is bound to another DPoP key");
      if (tokenResource === null) stats.refreshWithoutResource++;
      else if (tokenResource !== r.resource) return fail(400, "invalid_target", `resource must be ${r.resource}`);
      let scope = r.scope;
      if (form.get("scope")) {
        scope = form.get("scope").split(" ").filter(Boolean);
        if (scope.some((s) => !r.scope.includes(s))) return fail(400, "invalid_scope", `scope may only narrow ${r.scope.join(" ")}`);
      }
      refreshTokens.delete(rt); // rotation: the old refresh token is dead from now on
      spentRefresh.add(rt);
      stats.refreshes++;
      return pass(issue(client.client_id, scope, r.resource, true, jkt));
    }

    // client_credentials (confidential clients only: test-machine, or one registered with a secret)
    const scope = form.get("scope") ? form.get("scope").split(" ").filter(Boolean) : ["mcp:read"];
    if (scope.some((s) => s === "offline_access" || !SCOPES.includes(s))) return fail(400, "invalid_scope", "scope must be from mcp:read mcp:write");
    if (tokenResource !== null && tokenResource !== resource) return fail(400, "invalid_target", `resource must be ${resource}`);
    return pass(issue(client.client_id, scope, resource, false, jkt));
  }

  const routes = {
    [`GET ${metadataPath}`]: (req, res) => json(res, 200, metadata),
    [`POST ${prefix}/register`]: async (req, res) => register(res, (await readBody(req)).toString("utf8")),
    [`GET ${prefix}/authorize`]: (req, res, url) => authorize(res, url.searchParams),
    [`POST ${prefix}/authorize`]: async (req, res) => consent(res, (await readBody(req)).toString("utf8")),
    [`POST ${prefix}/token`]: async (req, res) => token(req, res, await readBody(req)),
  };
  const paths = new Set(Object.keys(routes).map((route) => route.split(" ")[1]));

  return {
    issuer,
    metadata,
    /** Whether `pathname` is one of this server's routes (any method). */
    serves: (pathname) => paths.has(pathname),
    /** Answers the request if this server has a route for it; whether it did. */
    async route(req, res, url) {
      const handler = routes[`${req.method} ${url.pathname}`];
      if (!handler) return false;
      await handler(req, res, url);
      return true;
    },
    /** A live access token this server issued, or undefined. */
    accessToken(value) {
      const t = accessTokens.get(value);
      return t && t.exp > now() ? t : undefined;
    },
    expire({ refresh }) {
      const expired = accessTokens.size, refreshRevoked = refresh ? refreshTokens.size : 0;
      accessTokens.clear();
      if (refresh) refreshTokens.clear();
      return { expired, refreshRevoked };
    },
    reset,
    stats: () => ({ ...stats, activeAccessTokens: accessTokens.size, activeRefreshTokens: refreshTokens.size }),
  };
}
