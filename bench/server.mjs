// The benchmark server: one MCP server on 127.0.0.1, the official TypeScript SDK
// 1.x low-level Server behind Streamable HTTP with sessions, so that every
// contender speaks the same legacy revision to the same code.
//   /mcp         JSON responses (every request/response exchange)
//   /mcp-stream  SSE responses (the progress stream)
//   /sse         the 2024-11-05 HTTP+SSE transport (for tests of large results over it)
// Tools: echo (small payload), progress (N notifications, then the result), deep
// (structuredContent with an outputSchema), and 2,000 more with realistic schemas
// for a large tools/list. Resource bench://big: 5 MB of text.
//
//   PORT=38090 node bench/server.mjs
import http from "node:http";
import { randomUUID } from "node:crypto";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { CallToolRequestSchema, ListToolsRequestSchema, ReadResourceRequestSchema, ListResourcesRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { fixtures } from "./fixtures.mjs";

const PORT = Number(process.env.PORT ?? 38090);
const { tools, deepResult, bigText } = fixtures();

function buildServer() {
  const server = new Server({ name: "mcp-wasm-bench", version: "1.0.0" }, { capabilities: { tools: {}, resources: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: [{ uri: "bench://big", name: "big", mimeType: "text/plain" }] }));
  server.setRequestHandler(ReadResourceRequestSchema, () => ({ contents: [{ uri: "bench://big", mimeType: "text/plain", text: bigText }] }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args = {} } = request.params;
    if (name === "echo") return { content: [{ type: "text", text: String(args.text ?? "") }] };
    if (name === "deep") return { content: [{ type: "text", text: "deep" }], structuredContent: deepResult };
    if (name === "progress") {
      const token = request.params._meta?.progressToken;
      const count = Number(args.count ?? 0);
      for (let i = 1; i <= count && token !== undefined; i++) {
        await extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress: i, total: count } });
      }
      return { content: [{ type: "text", text: `sent ${count}` }] };
    }
    return { content: [{ type: "text", text: `no tool ${name}` }], isError: true };
  });
  return server;
}

// SDK 1.32.2's transport keeps every JSON response in its `_streamMapping` for the life of the session:
// `send` resolves the POST's promise but never deletes the entry (an SSE stream's `cleanup` does).
// Over a benchmark run the server's heap grew by about 350 MB for each 84 large results (21 rounds
// of four contenders) and reached several GB; the collector's pauses then fell on whichever
// contender was running (bench/analysis.md, thirty-ninth round). Each answered entry is let go here.
function releaseAnsweredStreams(transport) {
  const streams = transport._webStandardTransport?._streamMapping;
  if (!(streams instanceof Map)) throw new Error("bench server: the SDK transport's stream map moved; review releaseAnsweredStreams");
  const set = streams.set.bind(streams);
  streams.set = (id, stream) => {
    const resolve = stream?.resolveJson;
    if (typeof resolve === "function") {
      stream.resolveJson = (response) => {
        if (streams.get(id) === stream) streams.delete(id);
        resolve(response);
      };
    }
    return set(id, stream);
  };
}

// One transport (and server) per session, per endpoint.
const sessions = new Map();
const sseSessions = new Map();

// HTTP+SSE: a GET opens the event stream (its first event names the POST endpoint).
async function handleSse(req, res, path) {
  if (req.method === "GET" && path === "/sse") {
    const transport = new SSEServerTransport("/sse/messages", res);
    sseSessions.set(transport.sessionId, transport);
    transport.onclose = () => sseSessions.delete(transport.sessionId);
    return buildServer().connect(transport);
  }
  const transport = sseSessions.get(new URL(req.url, "http://127.0.0.1").searchParams.get("sessionId"));
  if (!transport) return res.writeHead(404).end();
  const chunks = [];
  for await (const c of req) chunks.push(c);
  return transport.handlePostMessage(req, res, JSON.parse(Buffer.concat(chunks).toString("utf8")));
}

async function handle(req, res, json) {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : undefined;
  const id = req.headers["mcp-session-id"];
  let transport = id ? sessions.get(id) : undefined;
  if (!transport) {
    if (id || body?.method !== "initialize") {
      res.writeHead(id ? 404 : 400, { "content-type": "application/json" });
      return res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "no such session" }, id: null }));
    }
    transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      enableJsonResponse: json,
      onsessioninitialized: (sid) => sessions.set(sid, transport),
    });
    if (json) releaseAnsweredStreams(transport);
    transport.onclose = () => sessions.delete(transport.sessionId);
    await buildServer().connect(transport);
  }
  await transport.handleRequest(req, res, body);
}

http.createServer((req, res) => {
  res.setHeader("Access-Control-Allow-Origin", "*");
  res.setHeader("Access-Control-Expose-Headers", "mcp-session-id, mcp-protocol-version");
  if (req.method === "OPTIONS") {
    res.writeHead(204, { "Access-Control-Allow-Methods": "GET, POST, DELETE", "Access-Control-Allow-Headers": req.headers["access-control-request-headers"] ?? "*", "Access-Control-Max-Age": "600" });
    return res.end();
  }
  const path = new URL(req.url, "http://127.0.0.1").pathname;
  if (path === "/sse" || path === "/sse/messages") {
    return handleSse(req, res, path).catch((error) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(error));
    });
  }
  if (path !== "/mcp" && path !== "/mcp-stream") return res.writeHead(404).end();
  handle(req, res, path === "/mcp").catch((error) => {
    if (!res.headersSent) res.writeHead(500);
    res.end(String(error));
  });
}).listen(PORT, "127.0.0.1", function onListening() {
  // PORT=0 picks a free port; the line says which.
  console.error(`bench server listening on http://127.0.0.1:${this.address().port}/mcp`);
});
