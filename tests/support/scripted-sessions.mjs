// A loopback Streamable HTTP server (2025-11-25) with sessions, whose streams a test scripts: the
// edges of sessions and resumption that no real server stages on purpose (a server that polls by
// closing a call's stream until its answer is ready, a GET of a forgotten session answered late, an
// event id that clears the last). Sessions, calls and resumption themselves run against
// server-everything; this is for the timing a real server leaves to chance.
import http from "node:http";

const json = { "content-type": "application/json" };
const stream = { "content-type": "text/event-stream", "cache-control": "no-cache" };

/**
 * Starts the server. Each `initialize` opens session `s1`, `s2`, …; a request naming a session
 * the server no longer keeps (`forget()`) gets 404. `onCall(message, response)` answers a
 * `tools/call` and returns true, or returns false for the default text result `ok`; `onGet(request,
 * response)` answers the GET stream (405 when absent). `seen` records every request as
 * `{ method, rpc, session, lastEventId }`.
 */
export async function startScriptedSessions({ onCall = () => false, onGet } = {}) {
  const seen = [];
  const live = new Set();
  let issued = 0;
  const server = http.createServer(async (request, response) => {
    const session = request.headers["mcp-session-id"];
    const entry = { method: request.method, session, lastEventId: request.headers["last-event-id"] };
    seen.push(entry);
    if (request.method === "DELETE") return response.writeHead(200).end();
    if (request.method === "GET") {
      if (!live.has(session)) return onGet ? onGet(request, response, { expired: true }) : response.writeHead(404).end();
      return onGet ? onGet(request, response, { expired: false }) : response.writeHead(405).end();
    }
    let body = "";
    for await (const chunk of request) body += chunk;
    const message = JSON.parse(body);
    entry.rpc = message.method;
    if (message.method === "initialize") {
      const id = `s${++issued}`;
      live.add(id);
      const result = { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "scripted-sessions", version: "1" } };
      return response.writeHead(200, { ...json, "mcp-session-id": id }).end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result }));
    }
    if (!live.has(session)) return response.writeHead(404, json).end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32001, message: "Session not found" } }));
    if (message.id === undefined) return response.writeHead(202).end();
    if (message.method === "tools/call" && (await onCall(message, response))) return;
    response.writeHead(200, json).end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: textResult("ok") }));
  });
  const sockets = new Set();
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/mcp`,
    seen,
    /** The server forgets every session it keeps, as after a restart. */
    forget: () => live.clear(),
    close() {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

/** A tool result of one text. */
export const textResult = (text) => ({ content: [{ type: "text", text }] });

/** Starts an event stream on `response`. */
export const openStream = (response) => response.writeHead(200, stream);

/** One event: its `id` line (`""` for an empty one) and JSON data, `retry` when given. */
export function event({ id, retry, data }) {
  const lines = [];
  if (id !== undefined) lines.push(id === "" ? "id" : `id: ${id}`);
  if (retry !== undefined) lines.push(`retry: ${retry}`);
  lines.push(`data: ${data === undefined ? "" : JSON.stringify(data)}`);
  return `${lines.join("\n")}\n\n`;
}
