// Static file server for the demo: www/ at /, the built package (pkg/) at /pkg/.
// Dependency-free on purpose, so it runs anywhere Node 20 does.
//
//   node scripts/serve.mjs            # http://127.0.0.1:38031/
//   PORT=0 node scripts/serve.mjs     # any free port; the line below tells which
//   WWW_DIR=tests/browser-oauth node scripts/serve.mjs   # other pages at / (browser tests)
//   DEMO_SERVER=<mcp url> node scripts/serve.mjs         # / without a query opens the inspector on it
//   PKG_DIR=target/split/profile-pkg node scripts/serve.mjs   # another copy of the package at /pkg/
//   ISOLATE=1 node scripts/serve.mjs  # pages cross-origin isolated (COOP and COEP): the benchmarks'
//                                     # pages, whose performance.now() is then 5 µs fine, not 100
//
// Prints `demo: http://127.0.0.1:<port>/` once listening (the browser tests wait for it).
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";

const HOST = "127.0.0.1"; // loopback only: this serves the working tree
const PORT = Number(process.env.PORT ?? 38031);
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// Longest prefix first.
const MOUNTS = [
  ["/pkg/", path.resolve(repo, process.env.PKG_DIR ?? "pkg")],
  ["/", path.resolve(repo, process.env.WWW_DIR ?? "www")],
];

// Chromium coarsens performance.now() to 100 µs in a page that is not cross-origin isolated:
// a 3 ms call's median would move in steps of 3 %. The MCP servers a page talks to answer
// CORS requests, which an isolated page may still make.
const ISOLATION = process.env.ISOLATE === "1"
  ? { "cross-origin-opener-policy": "same-origin", "cross-origin-embedder-policy": "require-corp" }
  : {};

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".ts": "text/plain; charset=utf-8", // .d.ts files, for reading in the browser
  ".md": "text/plain; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".wasm": "application/wasm", // required by WebAssembly.instantiateStreaming
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
};

// Map a URL path to a file inside one mount, or null. The path is decoded first and then
// resolved, so `..`, `%2e%2e`, encoded slashes and backslashes cannot leave the mount.
function toFile(urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes("\0") || decoded.includes("\\")) return null;
  for (const [prefix, root] of MOUNTS) {
    if (!decoded.startsWith(prefix)) continue;
    const file = path.resolve(root, "." + path.posix.normalize("/" + decoded.slice(prefix.length)));
    return file === root || file.startsWith(root + path.sep) ? file : null;
  }
  return null;
}

function send(res, status, text) {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" });
  res.end(text + "\n");
}

const server = http.createServer(async (req, res) => {
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.setHeader("allow", "GET, HEAD");
    return send(res, 405, "method not allowed");
  }
  const { pathname, search } = new URL(req.url, "http://localhost");
  // The peers listen on ports the OS picks, so the page's built-in default server may not
  // exist: the plain address a person types leads to the one the demo started.
  if (pathname === "/" && !search && process.env.DEMO_SERVER) {
    res.writeHead(302, { location: `/?server=${encodeURIComponent(process.env.DEMO_SERVER)}`, "cache-control": "no-store" });
    return res.end();
  }
  let file = toFile(pathname);
  if (!file) return send(res, 404, "not found");
  try {
    let info = await stat(file);
    if (info.isDirectory()) {
      // Redirect /pkg to /pkg/ so relative URLs in an index page resolve inside it.
      if (!pathname.endsWith("/")) {
        res.writeHead(301, { location: pathname + "/" });
        return res.end();
      }
      file = path.join(file, "index.html");
      info = await stat(file);
    }
    if (!info.isFile()) return send(res, 404, "not found");
    res.writeHead(200, {
      "content-type": TYPES[path.extname(file).toLowerCase()] ?? "application/octet-stream",
      "content-length": info.size,
      // A dev server: always serve the freshest build, never a cached .wasm.
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      ...ISOLATION,
    });
    if (req.method === "HEAD") return res.end();
    createReadStream(file).on("error", () => res.destroy()).pipe(res);
  } catch (e) {
    if (e.code === "ENOENT" || e.code === "ENOTDIR") return send(res, 404, "not found");
    console.error(e);
    send(res, 500, "internal error");
  }
});

server.on("error", (e) => {
  console.error(`serve: ${e.message}`);
  process.exit(1);
});
server.listen(PORT, HOST, () => {
  console.log(`demo: http://${HOST}:${server.address().port}/`);
});
for (const sig of ["SIGINT", "SIGTERM"]) {
  process.on(sig, () => {
    server.close(() => process.exit(0));
    server.closeAllConnections(); // a browser's keep-alive sockets would otherwise hold close() open
  });
}
