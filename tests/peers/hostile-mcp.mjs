// A hostile MCP server for the `hostile` test tier: raw node:http, so it can send
// what no SDK server would. Each attack lives under its own path, /<run>/<attack>/,
// where <run> is any label a test picks (one per runtime keeps a Node run and a
// browser run apart), and GET /<run>/<attack>/__stats says what the server saw.
// A second origin, on another port, is where a redirect points: it records
// whatever reaches it. Endpoints, attacks and stats are described in HOSTILE-MCP.md.
//
//   node tests/peers/hostile-mcp.mjs                  # both ports picked by the OS
//   PORT=38070 OTHER_PORT=38071 node tests/peers/hostile-mcp.mjs
//
// Prints `hostile-mcp listening on http://127.0.0.1:<port> (other origin …)` on stderr once both listen.
import http from "node:http";
import { ATTACKS } from "./hostile-mcp/attacks.mjs";
import { allowCors, sendJson } from "./hostile-mcp/http.mjs";
import { legacySseEndpoint } from "./hostile-mcp/legacy-sse.mjs";
import { oauthWorld } from "./hostile-mcp/oauth.mjs";
import { streamableEndpoint } from "./hostile-mcp/streamable.mjs";

const HOST = "127.0.0.1";
const OAUTH_ATTACKS = new Set(["oauth-switch", "oauth-pinned", "oauth-redirect", "oauth-churn", "oauth-held"]);
const LABEL = /^[A-Za-z0-9_-]{1,64}$/;

const namespaces = new Map(); // "<run>/<attack>" -> { stats, handle, wellKnown?, otherOrigin? }
let origin;
let otherOrigin;

function createNamespace(run, attack) {
  const stats = {};
  const ns = `/${run}/${attack}`;
  if (ATTACKS[attack]) {
    const endpoint = streamableEndpoint({ name: attack, ...ATTACKS[attack] }, stats);
    return { stats, handle: (req, res, rest) => (rest === "mcp" ? endpoint(req, res) : res.writeHead(404).end()) };
  }
  if (attack === "legacy-sse") return { stats, handle: legacySseEndpoint(ns, stats) };
  if (OAUTH_ATTACKS.has(attack)) {
    const mcp = streamableEndpoint({ name: attack }, stats);
    return { stats, ...oauthWorld({ origin, otherOrigin, ns, stats, mcp }) };
  }
  return undefined;
}

function namespace(run, attack) {
  if (!LABEL.test(run ?? "") || !LABEL.test(attack ?? "")) return undefined;
  const key = `${run}/${attack}`;
  if (!namespaces.has(key)) {
    const created = createNamespace(run, attack);
    if (!created) return undefined;
    namespaces.set(key, created);
  }
  return namespaces.get(key);
}

async function route(req, res, onOtherOrigin) {
  if (allowCors(req, res)) return undefined;
  const url = new URL(req.url, origin);
  const parts = url.pathname.split("/").slice(1);
  if (onOtherOrigin) {
    const ns = namespace(parts[0], parts[1]);
    return ns?.otherOrigin ? ns.otherOrigin(req, res) : res.writeHead(404).end();
  }
  // Where the authorization servers send the "user" back: the code is in the URL.
  if (url.pathname === "/callback") return res.writeHead(200, { "Content-Type": "text/plain" }).end("signed in");
  if (parts[0] === ".well-known") {
    const [, document, run, attack, ...rest] = parts;
    const ns = namespace(run, attack);
    return ns?.wellKnown ? ns.wellKnown(req, res, document, rest.join("/")) : res.writeHead(404).end();
  }
  const [run, attack, ...rest] = parts;
  const ns = namespace(run, attack);
  if (!ns) return res.writeHead(404).end();
  if (rest.join("/") === "__stats") return sendJson(res, 200, ns.stats);
  return ns.handle(req, res, rest.join("/"), url);
}

function serve(port, onOtherOrigin) {
  const server = http.createServer((req, res) => {
    route(req, res, onOtherOrigin).catch((error) => {
      console.error(`hostile-mcp: ${req.method} ${req.url}: ${error.message}`);
      if (!res.headersSent) sendJson(res, 500, { error: error.message });
      else res.destroy();
    });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, HOST, () => resolve(server));
  });
}

const main = await serve(Number(process.env.PORT ?? 0), false);
const other = await serve(Number(process.env.OTHER_PORT ?? 0), true);
origin = `http://${HOST}:${main.address().port}`;
otherOrigin = `http://${HOST}:${other.address().port}`;
console.error(`hostile-mcp listening on ${origin} (other origin ${otherOrigin})`);

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    for (const server of [main, other]) {
      server.close();
      server.closeAllConnections(); // open event streams would hold close() forever
    }
    process.exit(0);
  });
}
