// A fault-injecting HTTP proxy in front of a real MCP server, for the
// transport fault tests. The first path segment picks the fault; the rest is
// forwarded upstream:  http://127.0.0.1:38050/<fault>/mcp  ->  UPSTREAM/mcp
//
// Faults hit only POSTs that carry `tools/call`, so the handshake and the
// resumption GETs go through untouched and the client can show it recovers.
//   pass          forward as is
//   cut-sse       forward the first SSE event, then half of the next (its id line included), then
//                 drop the connection (CUT_PAUSE_MS after each, so that the client has read them)
//   http-500|502|503   answer with that status
//   delay         hold the response headers back DELAY_MS
//   garbage       inject invalid bytes, invalid JSON and a non-JSON-RPC message before the real events
//   close-early   drop the connection before any response
//   duplicate     send every SSE event twice
//   drop-get      cut every standalone GET stream after DROP_AFTER_MS (the client must reconnect)
//   drop-listen   (in front of a 2026-07-28 server) cut the first subscriptions/listen stream to
//                 each URL (give each client its own query string) DROP_AFTER_MS after it
//                 opened, once the server's acknowledgement has passed; the next one stays
//   expire-404    answer each session's first tools/call with 404, as a server that forgot the session
//   no-cors       strip every CORS header (the browser then blocks the response)
//   no-expose     strip Access-Control-Expose-Headers (Mcp-Session-Id becomes unreadable in browsers)
//   auth-hidden   answer 401 with a WWW-Authenticate header that CORS does not expose
//   narrow-cors   a legacy server whose preflight allow-list predates the 2026-07-28 headers
//                 (Mcp-Method, Mcp-Name): a browser's modern probe fails its preflight
//   forget-session  the server forgets the session: the proxy DELETEs it upstream, then
//                 forwards the call, which the server refuses as it would after a restart
//   armed         no fault until one is armed: POST /__arm?fault=<name> queues a fault, and the
//                 next tools/call takes it (one fault per call), so a long run can mix faults
//                 at a rate it picks while every other call passes
//   page-tools    tools/list in pages of PAGE_TOOLS of the server's tools: the proxy asks the server
//                 for its whole list (the cursor taken out), and answers the page the cursor
//                 "page-<n>" names, with the next one's cursor
//   pad-tools     tools/list with PAD_TOOLS more tools after the server's, each with a long
//                 description: a listing past 256 KiB, which the client keeps as text outside wasm
//   announce      forward as is, and keep each standalone GET stream: POST /__announce?method=<m>
//                 sends notification <m> (no params) on every one of them, as a server whose
//                 lists changed would (between the upstream's chunks, which may in principle split
//                 an event: server-everything's GET stream is quiet unless a tool turns logging on)
//   narrow-ack    (in front of a 2026-07-28 server) every subscriptions/listen acknowledgement
//                 grants no resource subscription: its resourceSubscriptions are taken out
//   narrow-reconnect   (in front of a 2026-07-28 server) cut the first subscriptions/listen stream
//                 to each URL that asks for a resource subscription DROP_AFTER_MS after it opened, as
//                 drop-listen does; every later listen stream to that URL is narrowed as by narrow-ack,
//                 so the stream comes back granted less than before
//   hold-delete   hold each DELETE (a client ending its session) HOLD_DELETE_MS before forwarding it,
//                 as a slow server would
//   unsupported-version   (in front of a 2026-07-28 server) the first request of each method
//                 names revision 2099-01-01 in MCP-Protocol-Version and _meta, so the server
//                 itself refuses it with -32022 and the versions it speaks; later ones pass
// GET /__stats answers {fault: count} of the faults injected so far.
//
//   PORT=0 UPSTREAM=http://127.0.0.1:<port> node tests/peers/fault-proxy.mjs   # any free port, named on stderr
import http from "node:http";

const PORT = Number(process.env.PORT ?? 38050);
const UPSTREAM = new URL(process.env.UPSTREAM ?? "http://127.0.0.1:38011");
const DELAY_MS = 300;
const DROP_AFTER_MS = 300;
const HOLD_DELETE_MS = 2_000;
// A connection destroyed in the same tick as a write loses what was written: the
// client never sees the first event (and its id), so nothing could be resumed.
// On a real network the bytes before a drop arrive, so the cut waits for them,
// and for a busy page to read them: at 50 ms, 3 of 300 cuts in Chromium lost the
// first event all the same (the stream errors, and what was not read goes with it).
const CUT_PAUSE_MS = 200;
const stats = {};
const expired = new Set();
// The session a client opens after an injected 404 is its renewal: leave it alone.
const renewed = new Set();
let renewalPending = false;
const armed = [];
const count = (fault) => { stats[fault] = (stats[fault] ?? 0) + 1; };
const UNSUPPORTED_VERSION = "2099-01-01";
const VERSION_META = "io.modelcontextprotocol/protocolVersion";
const versionRefused = new Set(); // methods whose first request unsupported-version rewrote
const listenedTo = new Set(); // drop-listen: the URLs whose first listen stream was cut
const regranted = new Set(); // narrow-reconnect: the URLs whose subscribing listen stream was cut
const PAGE_TOOLS = 4;
const announcing = new Set(); // announce: the GET streams open through it

const PAD_TOOLS = 300;

/**
 * page-tools and pad-tools: for a tools/list request, how to reshape its answer (`page`, the page
 * its cursor names, or `pad`) and the body to forward without the cursor; undefined for any other
 * message.
 */
function claimToolsList(fault, body) {
  let message;
  try { message = JSON.parse(body); } catch { return undefined; }
  if (message?.method !== "tools/list") return undefined;
  const page = Number(/^page-(\d+)$/.exec(message.params?.cursor ?? "")?.[1] ?? 0);
  if (message.params) delete message.params.cursor;
  return { reshape: fault === "pad-tools" ? { pad: true } : { page }, body: JSON.stringify(message) };
}

/**
 * The answer `text` (JSON, or SSE events of it) to a tools/list, reshaped as `claimToolsList` said;
 * what is not a JSON-RPC result holding tools goes through as it came.
 */
function reshapeTools(text, { page, pad }) {
  return editMessages(text, (message) => {
    const tools = message?.result?.tools;
    if (!Array.isArray(tools)) return false;
    if (pad) {
      const description = "filler ".repeat(150);
      for (let i = 0; i < PAD_TOOLS; i++) tools.push({ name: `filler-${i}`, description, inputSchema: { type: "object" } });
      count("pad-tools");
    } else {
      const start = page * PAGE_TOOLS;
      message.result.tools = tools.slice(start, start + PAGE_TOOLS);
      if (start + PAGE_TOOLS < tools.length) message.result.nextCursor = `page-${page + 1}`;
      count("page-tools");
    }
    return true;
  });
}

/**
 * `text` (a JSON body, or SSE events) with each JSON message that `edit` changed (it says so by
 * returning true) written anew; the rest, and what is not JSON, as it came.
 */
function editMessages(text, edit) {
  const one = (json) => {
    let message;
    try { message = JSON.parse(json); } catch { return json; }
    return edit(message) ? JSON.stringify(message) : json;
  };
  return text.trimStart().startsWith("{") ? one(text) : text.replace(/^data: ?(\{.*\})\r?$/gm, (_, json) => `data: ${one(json)}`);
}

/**
 * unsupported-version: the body and headers to forward, the first time a 2026-07-28 request of
 * its method passes; undefined otherwise.
 */
function claimUnsupportedVersion(headers, body) {
  let message;
  try { message = JSON.parse(body); } catch { return undefined; }
  const meta = message?.params?._meta;
  if (message?.id === undefined || typeof message.method !== "string" || typeof meta?.[VERSION_META] !== "string") return undefined;
  if (versionRefused.has(message.method)) return undefined;
  versionRefused.add(message.method);
  meta[VERSION_META] = UNSUPPORTED_VERSION;
  const rewritten = JSON.stringify(message);
  return { body: rewritten, headers: { ...headers, "mcp-protocol-version": UNSUPPORTED_VERSION, "content-length": String(Buffer.byteLength(rewritten)) } };
}

const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, DELETE, OPTIONS",
  "access-control-expose-headers": "mcp-session-id, mcp-protocol-version, www-authenticate",
};

function corsHeaders(fault, headers) {
  const out = { ...headers };
  if (fault === "no-cors") {
    for (const key of Object.keys(out)) if (key.startsWith("access-control-")) delete out[key];
  } else if (fault === "no-expose") {
    delete out["access-control-expose-headers"];
  }
  return out;
}

/** Ends the session upstream, as a server that restarted or timed it out would have. */
function forgetUpstream(path, session) {
  return new Promise((resolve) => {
    const headers = { "mcp-session-id": session };
    const req = http.request({ host: UPSTREAM.hostname, port: UPSTREAM.port, method: "DELETE", path, headers }, (res) => {
      res.resume();
      res.on("end", resolve);
    });
    req.on("error", resolve);
    req.end();
  });
}

/** Rewrites an SSE byte stream event by event, for the stream faults. */
function rewriteSse(fault, upstream, res) {
  let buffer = "";
  let events = 0;
  let cut = false;
  if (fault === "garbage") {
    res.write(Buffer.from([0xff, 0xfe, 0x00, 0x0a, 0x0a]));
    res.write("data: {not json\n\n");
    res.write('data: {"jsonrpc":"2.0","what":"no method, no id"}\n\n');
    res.write("event: message\ndata: 12345\n\n");
    count(fault);
  }
  upstream.on("data", (chunk) => {
    if (cut) return;
    buffer += chunk.toString("utf8");
    let end;
    while ((end = buffer.indexOf("\n\n")) !== -1) {
      const event = buffer.slice(0, end + 2);
      buffer = buffer.slice(end + 2);
      events += 1;
      if (fault === "cut-sse" && events === 2) {
        // Half an event, then the connection drops.
        cut = true;
        count(fault);
        // The half goes out and is read before the drop (a destroy in the same tick loses it):
        // it names the event's id, which the client must not resume after, since the event
        // never arrived whole.
        setTimeout(() => {
          upstream.destroy();
          res.write(event.slice(0, Math.floor(event.length / 2)));
          setTimeout(() => res.destroy(), CUT_PAUSE_MS);
        }, CUT_PAUSE_MS);
        return;
      }
      res.write(event);
      if (fault === "duplicate") {
        res.write(event);
        count(fault);
      }
    }
  });
  upstream.on("end", () => { if (!cut) res.end(buffer); });
  upstream.on("error", () => res.destroy());
}

/** narrow-ack: passes a listen stream on event by event, its acknowledgements without resourceSubscriptions. */
function narrowAcks(upstream, res) {
  let buffer = "";
  const narrow = (message) => {
    if (message?.method !== "notifications/subscriptions/acknowledged" || !message.params?.notifications) return false;
    delete message.params.notifications.resourceSubscriptions;
    count("narrow-ack");
    return true;
  };
  upstream.setEncoding("utf8");
  upstream.on("data", (chunk) => {
    buffer += chunk;
    let end;
    while ((end = buffer.indexOf("\n\n")) !== -1) {
      const event = buffer.slice(0, end + 2);
      buffer = buffer.slice(end + 2);
      res.write(editMessages(event, narrow));
    }
  });
  upstream.on("end", () => res.end(buffer));
  upstream.on("error", () => res.destroy());
}

function forward(req, res, fault, path, body, requestHeaders = req.headers, toolsReshape = undefined) {
  const isToolCall = req.method === "POST" && body.includes('"tools/call"');
  const isListen = req.method === "POST" && body.includes('"subscriptions/listen"');
  const headers = { ...requestHeaders, host: UPSTREAM.host };
  const upstreamReq = http.request({ host: UPSTREAM.hostname, port: UPSTREAM.port, method: req.method, path, headers }, (upstream) => {
    if (fault === "expire-404" && renewalPending && body.includes('"initialize"') && upstream.headers["mcp-session-id"]) {
      renewed.add(upstream.headers["mcp-session-id"]);
      renewalPending = false;
    }
    const respond = () => {
      let outHeaders = corsHeaders(fault, { ...upstream.headers, ...(fault === "no-cors" ? {} : pickCors(upstream.headers)) });
      if (toolsReshape) delete outHeaders["content-length"];
      res.writeHead(upstream.statusCode, outHeaders);
      res.flushHeaders(); // a quiet event stream must still reach the client
      const sse = String(upstream.headers["content-type"] ?? "").includes("text/event-stream");
      if (toolsReshape) {
        const chunks = [];
        upstream.on("data", (chunk) => chunks.push(chunk));
        upstream.on("end", () => res.end(reshapeTools(Buffer.concat(chunks).toString("utf8"), toolsReshape)));
        upstream.on("error", () => res.destroy());
      } else if ((fault === "narrow-ack" || (fault === "narrow-reconnect" && regranted.has(req.url))) && isListen && sse) narrowAcks(upstream, res);
      else if (isToolCall && sse && ["cut-sse", "garbage", "duplicate"].includes(fault)) rewriteSse(fault, upstream, res);
      else upstream.pipe(res);
      if (fault === "drop-get" && req.method === "GET" && sse) {
        // Firefox resolves fetch() at a response's first body byte, not at its headers, and
        // server-everything sends nothing on a quiet GET stream: without a byte (an SSE comment,
        // which the client ignores) the stream cut here never opened as far as Firefox can tell.
        res.write(": open\n\n");
        setTimeout(() => { count(fault); res.destroy(); upstream.destroy(); }, DROP_AFTER_MS);
      }
      if (fault === "announce" && req.method === "GET" && sse) {
        announcing.add(res);
        res.on("close", () => announcing.delete(res));
      }
      if (fault === "narrow-reconnect" && isListen && sse && body.includes('"resourceSubscriptions"') && !regranted.has(req.url)) {
        regranted.add(req.url);
        setTimeout(() => { count(fault); res.destroy(); upstream.destroy(); }, DROP_AFTER_MS);
      }
      if (fault === "drop-listen" && isListen && sse && !listenedTo.has(req.url)) {
        listenedTo.add(req.url);
        setTimeout(() => { count(fault); res.destroy(); upstream.destroy(); }, DROP_AFTER_MS);
      }
    };
    if (isToolCall && fault === "delay") {
      count(fault);
      setTimeout(respond, DELAY_MS);
    } else respond();
  });
  upstreamReq.on("error", () => { if (!res.headersSent) res.writeHead(502); res.end(); });
  // The client went away mid-response: stop the upstream request too.
  res.on("close", () => { if (!res.writableFinished) upstreamReq.destroy(); });
  upstreamReq.end(body);
}

function pickCors(headers) {
  const out = {};
  for (const [key, value] of Object.entries(headers)) if (key.startsWith("access-control-")) out[key] = value;
  return Object.keys(out).length ? out : CORS;
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url, "http://proxy");
  if (url.pathname === "/__stats") {
    res.writeHead(200, { "content-type": "application/json", ...CORS });
    return res.end(JSON.stringify(stats));
  }
  if (url.pathname === "/__arm" && req.method === "POST") {
    armed.push(url.searchParams.get("fault") ?? "pass");
    res.writeHead(200, { "content-type": "application/json", ...CORS });
    return res.end(JSON.stringify({ armed: armed.length }));
  }
  if (url.pathname === "/__announce" && req.method === "POST") {
    const method = url.searchParams.get("method") ?? "notifications/tools/list_changed";
    for (const stream of announcing) stream.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", method })}\n\n`);
    res.writeHead(200, { "content-type": "application/json", ...CORS });
    return res.end(JSON.stringify({ streams: announcing.size }));
  }
  const [, route, ...rest] = url.pathname.split("/");
  const path = `/${rest.join("/")}${url.search}`;
  if (req.method === "OPTIONS") {
    // Preflight: reflect what the browser asks, unless CORS is the fault.
    const requested = req.headers["access-control-request-headers"] ?? "*";
    const allowed = route === "narrow-cors" ? "content-type, accept, mcp-session-id, mcp-protocol-version, last-event-id" : requested;
    const allow = route === "no-cors" ? {} : { ...CORS, "access-control-allow-headers": allowed };
    res.writeHead(204, allow);
    return res.end();
  }
  let body = "";
  req.on("data", (chunk) => { body += chunk; });
  req.on("end", () => {
    const isToolCall = req.method === "POST" && body.includes('"tools/call"');
    const fault = route !== "armed" ? route : (isToolCall && armed.shift()) || "pass";
    if (fault === "auth-hidden") {
      count(fault);
      res.writeHead(401, { "www-authenticate": 'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource"',
        "access-control-allow-origin": "*", "content-type": "application/json" });
      return res.end('{"error":"unauthorized"}');
    }
    if (isToolCall && /^http-5\d\d$/.test(fault)) {
      count(fault);
      res.writeHead(Number(fault.slice(5)), { ...CORS, "content-type": "text/plain" });
      return res.end("injected failure");
    }
    const session = req.headers["mcp-session-id"];
    if (isToolCall && fault === "expire-404" && session && !expired.has(session) && !renewed.has(session)) {
      expired.add(session);
      renewalPending = true;
      count(fault);
      res.writeHead(404, { ...CORS, "content-type": "application/json" });
      return res.end('{"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":null}');
    }
    if (fault === "hold-delete" && req.method === "DELETE") {
      count(fault);
      return setTimeout(() => forward(req, res, fault, path, body), HOLD_DELETE_MS);
    }
    if (isToolCall && fault === "close-early") {
      count(fault);
      return req.socket.destroy();
    }
    if (isToolCall && fault === "forget-session" && session) {
      count(fault);
      return forgetUpstream(path, session).then(() => forward(req, res, fault, path, body));
    }
    const claimed = fault === "unsupported-version" && req.method === "POST" ? claimUnsupportedVersion(req.headers, body) : undefined;
    if (claimed) {
      count(fault);
      return forward(req, res, fault, path, claimed.body, claimed.headers);
    }
    const listing = ["page-tools", "pad-tools"].includes(fault) && req.method === "POST" ? claimToolsList(fault, body) : undefined;
    if (listing) {
      // The answer is rewritten as text: it must come uncompressed.
      const headers = { ...req.headers, "content-length": String(Buffer.byteLength(listing.body)), "accept-encoding": "identity" };
      return forward(req, res, fault, path, listing.body, headers, listing.reshape);
    }
    forward(req, res, fault, path, body);
  });
});

// PORT=0 picks a free port; the line says which.
server.listen(PORT, "127.0.0.1", () => console.error(`fault proxy listening on http://127.0.0.1:${server.address().port}, upstream ${UPSTREAM.href}`));
