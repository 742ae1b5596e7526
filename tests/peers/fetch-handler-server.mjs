// Serves a fetch-style MCP handler (`(Request) => Promise<Response>`, what
// @modelcontextprotocol/server's createMcpHandler returns) over node:http on
// 127.0.0.1, with the CORS headers browser tests need (pages load from another
// 127.0.0.1 port, and the 2026-07-28 headers are not CORS-safelisted).
import http from "node:http";

const CORS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, POST, DELETE, OPTIONS",
  "Access-Control-Expose-Headers": "mcp-session-id, mcp-protocol-version, www-authenticate",
};

/** Serves `handler` at `path`, or each handler of `routes` (`{ path: handler }`) at its path. */
export function serveFetchHandler({ port, path = "/mcp", handler, routes = { [path]: handler }, name }) {
  const [firstPath] = Object.keys(routes);
  return http.createServer(async (req, res) => {
    for (const [k, v] of Object.entries(CORS)) res.setHeader(k, v);
    if (req.method === "OPTIONS") {
      res.writeHead(204, { "Access-Control-Allow-Headers": req.headers["access-control-request-headers"] ?? "*",
        "Access-Control-Max-Age": "600" });
      return res.end();
    }
    const url = new URL(req.url, `http://127.0.0.1:${port}`);
    const served = Object.hasOwn(routes, url.pathname) ? routes[url.pathname] : undefined;
    if (!served) return res.writeHead(404).end();

    const chunks = [];
    for await (const c of req) chunks.push(c);
    const headers = new Headers();
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
    // Aborting on disconnect is what ends a subscriptions/listen stream and cancels a modern request.
    const abort = new AbortController();
    res.on("close", () => abort.abort());
    const request = new Request(url, { method: req.method, headers, signal: abort.signal,
      body: req.method === "GET" || req.method === "HEAD" ? undefined : Buffer.concat(chunks) });

    const response = await served.fetch(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (!response.body) return res.end();
    res.flushHeaders(); // SSE clients must see the headers before the first event
    const reader = response.body.getReader();
    res.on("close", () => reader.cancel().catch(() => {}));
    try {
      for (let r = await reader.read(); !r.done; r = await reader.read()) res.write(r.value);
    } catch { /* stream torn down by a client disconnect */ }
    res.end();
  }).listen(port, "127.0.0.1", function onListening() {
    // PORT=0 picks a free port; the line says which.
    console.error(`${name} listening on http://127.0.0.1:${this.address().port}${firstPath}`);
  });
}
