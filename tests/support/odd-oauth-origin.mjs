// One loopback origin that is an MCP server, its resource metadata and an authorization
// server at once, each part replaceable: the edge cases of OAuth discovery that no real
// server stages on purpose (a server that claims another's issuer, a metadata document that
// names no resource, …). The real flows run against tests/peers/oauth-server.mjs; this is
// for what a hostile or careless origin does around them.
import http from "node:http";

const MCP_RESULTS = {
  initialize: (params) => ({ protocolVersion: params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "odd-oauth", version: "1" } }),
  "tools/list": () => ({ tools: [{ name: "echo", inputSchema: { type: "object" } }] }),
  "tools/call": () => ({ content: [{ type: "text", text: "called" }] }),
};

/**
 * Starts the origin. Each option, if given, is a function of the origin:
 * - `prm(origin)`: the protected resource metadata (null: 404);
 * - `metadata(origin, path)`: the authorization server metadata at `path` (null: 404);
 * - `token(form, origin)`: the token endpoint's answer as `[status, body]`;
 * - `gate(request, message, origin)`: `undefined` lets a `/mcp` request (its JSON-RPC message, if
 *   any) through, else `[status, headers]`.
 * `requests` records every request: method, path, body.
 */
export async function startOddOrigin(options = {}) {
  const requests = [];
  let origin;
  const send = (response, status, body, headers = {}) => {
    response.writeHead(status, { "content-type": "application/json", ...headers });
    response.end(body === undefined ? undefined : JSON.stringify(body));
  };
  const defaults = {
    prm: (at) => ({ resource: `${at}/mcp`, authorization_servers: [at] }),
    metadata: (at) => ({
      issuer: at, authorization_endpoint: `${at}/authorize`, token_endpoint: `${at}/token`, registration_endpoint: `${at}/register`,
      code_challenge_methods_supported: ["S256"], response_types_supported: ["code"],
    }),
    token: () => [200, { access_token: "odd-access", token_type: "Bearer", expires_in: 3600 }],
    gate: (request) => (/^Bearer \S/.test(request.headers.authorization ?? "") ? undefined : [401, { "www-authenticate": "Bearer" }]),
  };
  const part = (name) => options[name] ?? defaults[name];
  const server = http.createServer(async (request, response) => {
    const url = new URL(request.url, origin);
    let body = "";
    for await (const chunk of request) body += chunk;
    requests.push({ method: request.method, path: url.pathname, body });
    if (url.pathname === "/mcp") {
      const message = request.method === "POST" ? JSON.parse(body) : undefined;
      const refused = part("gate")(request, message, origin);
      if (refused) return send(response, refused[0], undefined, refused[1]);
      if (request.method !== "POST") return send(response, 405);
      if (message.id === undefined) return send(response, 202);
      const result = MCP_RESULTS[message.method];
      // A legacy server's answer to 2026-07-28's probe, as the SDKs' stateless servers give it.
      if (!result) return send(response, 400, { jsonrpc: "2.0", id: message.id, error: { code: -32000, message: "Bad Request: Server not initialized" } });
      return send(response, 200, { jsonrpc: "2.0", id: message.id, result: result(message.params ?? {}) });
    }
    if (url.pathname.startsWith("/.well-known/oauth-protected-resource")) {
      const prm = part("prm")(origin);
      return prm === null ? send(response, 404, {}) : send(response, 200, prm);
    }
    if (url.pathname.startsWith("/.well-known/")) {
      const metadata = part("metadata")(origin, url.pathname);
      return metadata === null ? send(response, 404, {}) : send(response, 200, metadata);
    }
    if (url.pathname === "/register") {
      return send(response, 201, { client_id: "odd-client", token_endpoint_auth_method: "none", redirect_uris: JSON.parse(body).redirect_uris });
    }
    if (url.pathname === "/token") {
      const [status, answer] = part("token")(new URLSearchParams(body), origin);
      return send(response, status, answer);
    }
    send(response, 404, {});
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${server.address().port}`;
  return {
    origin,
    requests,
    /** The token endpoint's requests, as forms. */
    tokenForms: () => requests.filter((r) => r.path === "/token").map((r) => new URLSearchParams(r.body)),
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** A user who consents at once: the callback carries a code that names the scope asked for, and `iss` if given. */
export function consentingAtOnce(iss) {
  const pages = [];
  const authorize = async (page) => {
    pages.push(page);
    const asked = new URL(page).searchParams;
    const callback = new URL(asked.get("redirect_uri"));
    callback.searchParams.set("code", `code:${asked.get("scope") ?? ""}`);
    callback.searchParams.set("state", asked.get("state"));
    if (iss !== undefined) callback.searchParams.set("iss", iss);
    return callback.toString();
  };
  return { authorize, pages, scopes: () => pages.map((page) => new URL(page).searchParams.get("scope")) };
}
