// A pass-through HTTP proxy that remembers the clientInfo each client sends, for the
// pack tier: http://<proxy>/<label>/mcp goes to the upstream MCP endpoint as it is (any
// method, streams piped as they come), and every `clientInfo` in a POSTed message
// (initialize's params, or the 2026-07-28 `_meta` entry) is kept under <label>, so the
// tier can see what the installed package says about itself on the wire.
import http from "node:http";

const META_CLIENT_INFO = "io.modelcontextprotocol/clientInfo";

/**
 * Resolves with `{ origin, seen(label), hits(label), open(label), close() }`; `seen` lists
 * `{ method, clientInfo }`, `hits` counts the label's requests (redirected ones too), `open` how many
 * of them the proxy is still answering (a stream the client has not hung up on).
 * `redirects` answers a label's requests with a redirect instead: `{ label: [status, location] }`.
 */
export function startRecordingProxy(upstreamUrl, { redirects = {} } = {}) {
  const upstream = new URL(upstreamUrl);
  const records = new Map();
  const answering = new Map();
  const hits = new Map();

  function note(label, body) {
    let parsed;
    try {
      parsed = JSON.parse(body.toString("utf8"));
    } catch {
      return;
    }
    for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
      const params = message?.params;
      const infos = [];
      if (message?.method === "initialize") infos.push(params?.clientInfo);
      if (params?._meta?.[META_CLIENT_INFO] !== undefined) infos.push(params._meta[META_CLIENT_INFO]);
      for (const clientInfo of infos) {
        if (!records.has(label)) records.set(label, []);
        records.get(label).push({ method: message.method, clientInfo });
      }
    }
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url, "http://proxy.invalid");
    const label = url.pathname.split("/")[1];
    if (!label) {
      res.writeHead(404).end();
      return;
    }
    hits.set(label, (hits.get(label) ?? 0) + 1);
    if (Object.hasOwn(redirects, label)) {
      const [status, location] = redirects[label];
      req.resume();
      res.writeHead(status, { location }).end();
      return;
    }
    answering.set(label, (answering.get(label) ?? 0) + 1);
    res.on("close", () => answering.set(label, answering.get(label) - 1));
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      if (req.method === "POST") note(label, body);
      const headers = { ...req.headers, host: upstream.host };
      if (body.length > 0) headers["content-length"] = String(body.length);
      const forward = http.request(
        { hostname: upstream.hostname, port: upstream.port, path: upstream.pathname + url.search, method: req.method, headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on("error", () => res.destroy());
      // A client that hangs up (a closed GET stream) ends the upstream request too.
      res.on("close", () => forward.destroy());
      forward.end(body);
    });
  });

  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      resolve({
        origin: `http://127.0.0.1:${port}`,
        seen: (label) => records.get(label) ?? [],
        open: (label) => answering.get(label) ?? 0,
        hits: (label) => hits.get(label) ?? 0,
        close: () => new Promise((done) => {
          server.closeAllConnections();
          server.close(() => done());
        }),
      });
    });
  });
}
