// What every endpoint of the hostile MCP peer needs from node:http: open CORS (a
// browser page on another 127.0.0.1 port must reach every route), JSON and SSE
// replies, and a writer for bodies far larger than memory should hold that stops
// as soon as the client hangs up and says how much got out.

// The peer reads only small client messages; a client that sends more is cut off.
const MAX_REQUEST_BYTES = 1 << 20;
// The most filler one huge write sends, whatever a test asks for.
const MAX_FILLER_BYTES = 64 << 20;

// 64 KiB or just under of `character`, whole characters only, so a chunk boundary never splits one.
function chunkOf(character) {
  return Buffer.from(character.repeat(Math.floor((64 * 1024) / Buffer.byteLength(character))));
}

export function allowCors(req, res) {
  res.setHeader("Access-Control-Allow-Origin", "*");
  res.setHeader("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS");
  res.setHeader("Access-Control-Expose-Headers", "mcp-session-id, mcp-protocol-version, www-authenticate");
  if (req.method !== "OPTIONS") return false;
  res.writeHead(204, { "Access-Control-Allow-Headers": req.headers["access-control-request-headers"] ?? "*", "Access-Control-Max-Age": "600" });
  res.end();
  return true;
}

export async function readBody(req) {
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > MAX_REQUEST_BYTES) throw new Error(`request body over ${MAX_REQUEST_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

export function sendJson(res, status, body, headers = {}) {
  res.writeHead(status, { "Content-Type": "application/json", "Cache-Control": "no-store", ...headers });
  res.end(JSON.stringify(body));
}

export function openEventStream(res, headers = {}) {
  res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-store", ...headers });
  res.flushHeaders(); // the client must see the stream before its first event
}

/** One SSE event carrying a JSON-RPC message (or raw `fields` such as `retry`). */
export function sseEvent(message, fields = {}) {
  const lines = Object.entries(fields).map(([name, value]) => `${name}: ${value}\n`);
  if (message !== undefined) lines.push(`data: ${JSON.stringify(message)}\n`);
  return `${lines.join("")}\n`;
}

function drainedOrClosed(res) {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

/** How many filler bytes writeHuge sends when asked for `bytes` of `character`. */
export function fillerSize(bytes, character = "a") {
  const clamped = Math.min(Math.max(Number(bytes) || 0, 0), MAX_FILLER_BYTES);
  return clamped - (clamped % Buffer.byteLength(character));
}

/**
 * Writes `head`, then `fillerBytes` (at most 64 MiB) of `character` ("a" unless
 * told; whole characters only, so rounded down), then `tail`, respecting backpressure,
 * and records in `record` how many bytes the socket accepted (`written` of
 * `total`) and whether the client hung up first (`outcome: "closed"`) or the
 * whole of it went out (`"complete"`). `end` ends the response afterwards.
 *
 * Loopback socket buffers hold several MiB, so a fast writer gets a 5 MiB body
 * "out" before a client that stops at 1 MiB has hung up. `bytesPerMs` paces the
 * writes below the client's reading speed, so `written` shows where it stopped.
 */
export async function writeHuge(res, { head, fillerBytes, character = "a", tail, end = true, bytesPerMs = 0 }, record) {
  const chunk = chunkOf(character);
  fillerBytes = fillerSize(fillerBytes, character);
  const closed = () => res.destroyed || res.writableEnded;
  record.total = Buffer.byteLength(head) + fillerBytes + Buffer.byteLength(tail);
  record.written = 0;
  record.outcome = "writing";
  const started = Date.now();
  const write = async (chunk) => {
    if (closed()) return false;
    const ok = res.write(chunk);
    record.written += chunk.length;
    if (!ok) await drainedOrClosed(res);
    const ahead = bytesPerMs > 0 ? started + record.written / bytesPerMs - Date.now() : 0;
    if (ahead >= 1) await new Promise((resolve) => setTimeout(resolve, ahead));
    return !closed();
  };
  let going = await write(head);
  for (let left = fillerBytes; going && left > 0; left -= chunk.length) {
    going = await write(left >= chunk.length ? chunk : chunk.subarray(0, left));
  }
  if (going) going = await write(tail);
  record.outcome = going ? "complete" : "closed";
  if (going && end) res.end();
}
