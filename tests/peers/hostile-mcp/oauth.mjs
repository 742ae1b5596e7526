// The hostile peer's OAuth world, one per path (/<run>/<attack>): an MCP resource
// server (<ns>/mcp) whose protected-resource metadata names one of two
// authorization servers, <ns>/as1 and <ns>/as2 (and as3, as4, … once named), and which takes only that one's
// tokens. A test switches the named server, has the token endpoint answer with a
// 307 to the peer's other origin, has it issue access tokens with a line break in
// them, holds its token requests unanswered, or expires the access tokens, all through
// POST <ns>/__control. Every request an authorization server receives is
// recorded with everything it carried, and so is every secret it handed out, so
// a test can prove that what one issuer gave never reached the other.
import { createHash, randomBytes } from "node:crypto";
import { readBody, sendJson } from "./http.mjs";

// A machine client pre-registered at as1 only.
const PINNED_CLIENT = { id: "pinned-machine", secret: "pinned-machine-secret" };

const random = (n = 18) => randomBytes(n).toString("base64url");
// Everything a request carried that could hold a credential.
const carried = (req, body) => ({ method: req.method, url: req.url, authorization: req.headers.authorization ?? null, body });

export function oauthWorld({ origin, otherOrigin, ns, stats, mcp }) {
  const issuer = (as) => `${origin}${ns}/${as}`;
  const prmUrl = `${origin}/.well-known/oauth-protected-resource${ns}/mcp`;
  const state = {
    authorizationServer: "as1",
    tokenRedirect: false,
    // Access tokens with a line break in them, which no Authorization header can carry.
    brokenTokens: false,
    // The token endpoint never answers.
    holdTokens: false,
    clients: { as1: new Map([[PINNED_CLIENT.id, { secret: PINNED_CLIENT.secret, redirectUris: [] }]]), as2: new Map() },
    codes: new Map(), // code -> { as, clientId, redirectUri, challenge }
    access: new Map(), // token -> { as, clientId, expired }
    refresh: new Map(), // token -> { as, clientId }
  };
  Object.assign(stats, {
    authorizationServer: "as1",
    received: { as1: [], as2: [] },
    // What each server gave out, as { kind, value }: client_id, client_secret, code, access_token, refresh_token.
    handedOut: { as1: [], as2: [] },
    preRegistered: { as1: { client_id: PINNED_CLIENT.id, client_secret: PINNED_CLIENT.secret } },
    accepted: [],
    refused: 0,
    redirectsServed: 0,
    tokensHeld: 0,
    tokensLetGo: 0,
    otherOrigin: [],
  });
  const handOut = (as, given) => {
    for (const [kind, value] of Object.entries(given)) if (value) stats.handedOut[as].push({ kind, value });
  };
  handOut("as1", stats.preRegistered.as1);

  function metadata(as) {
    const base = issuer(as);
    return {
      issuer: base,
      authorization_endpoint: `${base}/authorize`,
      token_endpoint: `${base}/token`,
      registration_endpoint: `${base}/register`,
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code", "refresh_token", "client_credentials"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["client_secret_post", "client_secret_basic", "none"],
      authorization_response_iss_parameter_supported: true,
    };
  }

  // Every client this server registers is confidential: a secret to leak.
  function register(as, res, body) {
    const meta = JSON.parse(body);
    const client = { id: `${as}-client-${random(6)}`, secret: random(), redirectUris: meta.redirect_uris ?? [] };
    state.clients[as].set(client.id, client);
    handOut(as, { client_id: client.id, client_secret: client.secret });
    sendJson(res, 201, { ...meta, client_id: client.id, client_secret: client.secret, client_secret_expires_at: 0,
      token_endpoint_auth_method: "client_secret_post" });
  }

  function authorize(as, res, query) {
    const client = state.clients[as].get(query.get("client_id"));
    const redirectUri = query.get("redirect_uri");
    if (!client || !client.redirectUris.includes(redirectUri) || query.get("code_challenge_method") !== "S256") {
      return sendJson(res, 400, { error: "invalid_request", error_description: `not a client of ${as}, or a bad request` });
    }
    const code = random();
    state.codes.set(code, { as, clientId: query.get("client_id"), redirectUri, challenge: query.get("code_challenge") });
    handOut(as, { code });
    const back = new URL(redirectUri);
    for (const [name, value] of [["code", code], ["state", query.get("state")], ["iss", issuer(as)]]) back.searchParams.set(name, value);
    res.writeHead(302, { Location: back.href, "Cache-Control": "no-store" }).end();
  }

  function clientOf(as, req, form) {
    const basic = /^basic (.+)$/i.exec(req.headers.authorization ?? "");
    const [id, secret] = basic
      ? Buffer.from(basic[1], "base64").toString("utf8").split(":").map((part) => decodeURIComponent(part.replace(/\+/g, " ")))
      : [form.get("client_id"), form.get("client_secret")];
    const client = state.clients[as].get(id);
    return client && (client.secret === undefined || client.secret === secret) ? { id, ...client } : undefined;
  }

  function issue(as, clientId, withRefresh) {
    const tokens = { access_token: state.brokenTokens ? `${random()}\n${random()}` : random(), token_type: "Bearer", expires_in: 3600 };
    state.access.set(tokens.access_token, { as, clientId, expired: false });
    if (withRefresh) {
      tokens.refresh_token = random();
      state.refresh.set(tokens.refresh_token, { as, clientId });
    }
    handOut(as, { access_token: tokens.access_token, refresh_token: tokens.refresh_token });
    return tokens;
  }

  function token(as, req, res, body) {
    if (state.holdTokens) {
      // No status, no body, until the client gives up on it.
      stats.tokensHeld += 1;
      return res.on("close", () => {
        stats.tokensLetGo += 1;
      });
    }
    if (state.tokenRedirect) {
      stats.redirectsServed += 1;
      return res.writeHead(307, { Location: `${otherOrigin}${ns}/${as}/token`, "Cache-Control": "no-store" }).end();
    }
    const form = new URLSearchParams(body);
    const client = clientOf(as, req, form);
    const refuse = (error) => sendJson(res, 400, { error });
    if (!client) return sendJson(res, 401, { error: "invalid_client" });
    switch (form.get("grant_type")) {
      case "authorization_code": {
        const code = state.codes.get(form.get("code"));
        state.codes.delete(form.get("code"));
        const verified = code && createHash("sha256").update(form.get("code_verifier") ?? "").digest("base64url") === code.challenge;
        if (!verified || code.as !== as || code.clientId !== client.id || code.redirectUri !== form.get("redirect_uri")) return refuse("invalid_grant");
        return sendJson(res, 200, issue(as, client.id, true));
      }
      case "refresh_token": {
        const held = state.refresh.get(form.get("refresh_token"));
        if (!held || held.as !== as || held.clientId !== client.id) return refuse("invalid_grant");
        state.refresh.delete(form.get("refresh_token"));
        return sendJson(res, 200, issue(as, client.id, true));
      }
      case "client_credentials":
        return client.secret ? sendJson(res, 200, issue(as, client.id, false)) : refuse("unauthorized_client");
      default:
        return refuse("unsupported_grant_type");
    }
  }

  function gate(req, res) {
    const presented = /^bearer (\S+)$/i.exec(req.headers.authorization ?? "")?.[1];
    const held = presented && state.access.get(presented);
    if (held && held.as === state.authorizationServer && !held.expired) {
      stats.accepted.push({ as: held.as, clientId: held.clientId, method: req.method });
      return mcp(req, res);
    }
    stats.refused += 1;
    const error = presented ? 'error="invalid_token", ' : "";
    return sendJson(res, 401, { error: "unauthorized" }, { "WWW-Authenticate": `Bearer ${error}resource_metadata="${prmUrl}"` });
  }

  // Beyond as1 and as2, a test may name as3, as4, …: each a new authorization server, as a server
  // churning through issuers would name.
  function open(as) {
    if (state.clients[as] || !/^as\d{1,3}$/.test(as)) return;
    state.clients[as] = new Map();
    stats.received[as] = [];
    stats.handedOut[as] = [];
  }

  function control(res, body) {
    const asked = JSON.parse(body || "{}");
    open(asked.authorizationServer);
    if (state.clients[asked.authorizationServer]) state.authorizationServer = asked.authorizationServer;
    if (typeof asked.tokenRedirect === "boolean") state.tokenRedirect = asked.tokenRedirect;
    if (typeof asked.brokenTokens === "boolean") state.brokenTokens = asked.brokenTokens;
    if (typeof asked.holdTokens === "boolean") state.holdTokens = asked.holdTokens;
    if (asked.expireAccessTokens) for (const held of state.access.values()) held.expired = true;
    stats.authorizationServer = state.authorizationServer;
    sendJson(res, 200, { authorizationServer: state.authorizationServer, tokenRedirect: state.tokenRedirect });
  }

  return {
    async handle(req, res, rest, url) {
      if (rest === "mcp") return gate(req, res);
      if (rest === "__control" && req.method === "POST") return control(res, await readBody(req));
      const [as, endpoint] = rest.split("/");
      if (!state.clients[as]) return res.writeHead(404).end();
      const body = req.method === "POST" ? await readBody(req) : "";
      stats.received[as].push(carried(req, body));
      if (req.method === "POST" && endpoint === "register") return register(as, res, body);
      if (req.method === "GET" && endpoint === "authorize") return authorize(as, res, url.searchParams);
      if (req.method === "POST" && endpoint === "token") return token(as, req, res, body);
      return res.writeHead(404).end();
    },

    wellKnown(req, res, document, rest) {
      if (document === "oauth-protected-resource" && rest === "mcp") {
        return sendJson(res, 200, { resource: `${origin}${ns}/mcp`, authorization_servers: [issuer(state.authorizationServer)],
          bearer_methods_supported: ["header"] });
      }
      if (document === "oauth-authorization-server" && state.clients[rest]) {
        stats.received[rest].push(carried(req, ""));
        return sendJson(res, 200, metadata(rest));
      }
      return res.writeHead(404).end();
    },

    // Whatever reaches the other origin would be a leak: it is recorded, and
    // answered as a thief would, with a token.
    async otherOrigin(req, res) {
      const body = req.method === "POST" ? await readBody(req) : "";
      stats.otherOrigin.push(carried(req, body));
      sendJson(res, 200, { access_token: "stolen", token_type: "Bearer", expires_in: 3600 });
    },
  };
}
