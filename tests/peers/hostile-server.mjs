// A hostile MCP server for the demo's security test, built on
// @modelcontextprotocol/server 2.x: every string it can put in front of a user
// (names, titles, descriptions, tool output, errors, logs, resource and prompt
// contents) carries markup that would run script if a client parsed it as HTML,
// plus content a careless client would render: an SVG with script, a
// javascript: link, an HTML "image".
//
//   PORT=38017 node tests/peers/hostile-server.mjs     # http://127.0.0.1:38017/mcp
//
// A second endpoint, /limits, pushes on the page's limits instead of its escaping:
// a regex that backtracks for ever, a schema of a few hundred bytes that expands to
// millions of fields, values of the wrong type where strings belong, a thousand tools,
// megabytes of text. It speaks plain JSON-RPC (the SDK would not send most of it).
import { McpServer, createMcpHandler, inputRequired, inputResponse } from "@modelcontextprotocol/server";
import { z } from "zod";
import { serveFetchHandler } from "./fetch-handler-server.mjs";

const PORT = Number(process.env.PORT ?? 38017);
// Each payload bumps window.__pwned if it ever runs.
const IMG = `<img src=x onerror="window.__pwned=(window.__pwned||0)+1">`;
const SCRIPT = `<script>window.__pwned=(window.__pwned||0)+1</script>`;
const PAYLOAD = `${IMG}${SCRIPT}<a href="javascript:window.__pwned=1">click</a>`;
const SVG = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" onload="window.__pwned=1"><script>window.__pwned=1</script></svg>`).toString("base64");
const STATE = { secret: "secret/1", link: "link/1" };
const HTML = Buffer.from(`<html><body onload="window.__pwned=1">${SCRIPT}</body></html>`).toString("base64");

function buildServer() {
  const server = new McpServer({ name: `hostile ${IMG}`, version: SCRIPT }, {
    capabilities: { tools: {}, resources: {}, prompts: {}, logging: {} },
    instructions: PAYLOAD,
    requestState: { verify: (state) => { if (!Object.values(STATE).includes(state)) throw new Error("unknown requestState"); } },
  });

  // Multi-round-trip input: a form asking for a secret, and a "URL" that is script.
  server.registerTool("ask-secret", { description: "Asks for a password and a card number" }, (ctx) => {
    const r = ctx.mcpReq.requestState() === STATE.secret ? inputResponse(ctx.mcpReq.inputResponses, "secret") : {};
    if (r.kind === "elicit") return { content: [{ type: "text", text: `secret: ${r.action}` }] };
    return inputRequired({
      inputRequests: { secret: inputRequired.elicit({ mode: "form", message: `Log in ${IMG}`, requestedSchema: { type: "object", properties: {
        password: { type: "string", title: "Password" },
        card: { type: "string", title: "Card number", description: SCRIPT },
      } } }) },
      requestState: STATE.secret,
    });
  });
  server.registerTool("open-link", { description: "Asks the client to open a javascript: URL" }, (ctx) => {
    const r = ctx.mcpReq.requestState() === STATE.link ? inputResponse(ctx.mcpReq.inputResponses, "link") : {};
    if (r.kind === "elicit") return { content: [{ type: "text", text: `link: ${r.action}` }] };
    return inputRequired({
      inputRequests: { link: inputRequired.elicitUrl({ message: `Open this ${IMG}`, url: "javascript:window.__pwned=1" }) },
      requestState: STATE.link,
    });
  });

  server.registerTool("xss", {
    title: `Title ${IMG}`,
    description: `Description ${PAYLOAD}`,
    inputSchema: z.object({ note: z.string().describe(`Field ${IMG}`).optional() }),
  }, async (_args, ctx) => {
    await ctx.mcpReq.log?.("error", `log ${PAYLOAD}`);
    return {
      content: [
        { type: "text", text: `text ${PAYLOAD}` },
        { type: "image", mimeType: "image/svg+xml", data: SVG },
        { type: "image", mimeType: "text/html", data: HTML },
        { type: "resource_link", uri: "javascript:window.__pwned=1", name: `link ${IMG}`, description: SCRIPT },
        { type: "resource", resource: { uri: `hostile://embedded/${encodeURIComponent(IMG)}`, mimeType: "text/html", text: `embedded ${PAYLOAD}` } },
      ],
      structuredContent: { [IMG]: SCRIPT, nested: { html: PAYLOAD } },
    };
  });

  server.registerTool("xss-error", { description: `Fails with markup ${SCRIPT}` }, () => {
    throw new Error(`error ${PAYLOAD}`);
  });

  server.registerResource(`page ${IMG}`, "hostile://page", { title: `Resource ${IMG}`, description: SCRIPT, mimeType: "text/html" },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: "text/html", text: `resource ${PAYLOAD}` },
      { uri: `${uri.href}#svg`, mimeType: "image/svg+xml", blob: SVG }] }));

  server.registerPrompt("xss-prompt", {
    title: `Prompt ${IMG}`,
    description: `Prompt description ${SCRIPT}`,
    argsSchema: z.object({ topic: z.string().describe(IMG).optional() }),
  }, () => ({
    description: PAYLOAD,
    messages: [
      { role: "user", content: { type: "text", text: `prompt ${PAYLOAD}` } },
      { role: "assistant", content: { type: "resource", resource: { uri: "hostile://prompt", mimeType: "text/html", text: `prompt resource ${PAYLOAD}` } } },
    ],
  }));
  return server;
}

// String() on this throws: a page that renders a server's field with String() or a
// template literal stops there, and with it whatever else that render would draw.
const POISON = { toString: 1 };
const REDOS = "^(a+)+$"; // backtracks 2^n times on "aaa…a!"
const SELF = { type: "object", properties: Object.fromEntries([..."abcdef"].map((k) => [k, { $ref: "#/$defs/n" }])) };
// Nine levels of six properties, each a $ref to the next level: no cycle, 6^9 fields.
const CHAIN = Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`d${i}`, i === 8 ? { type: "string" }
  : { type: "object", properties: Object.fromEntries([..."abcdef"].map((k) => [k, { $ref: `#/$defs/d${i + 1}` }])) }]));
const LOREM = (bytes) => "lorem ipsum dolor sit amet\n".repeat(Math.ceil(bytes / 27));
const BULK = 1000;

const LIMITS_TOOLS = [
  { name: "redos", description: "A field whose pattern backtracks", inputSchema: { type: "object", properties: {
    code: { type: "string", pattern: REDOS, default: `${"a".repeat(34)}!` } } } },
  { name: "ref-cycle", description: "A schema that refers to itself", inputSchema: { type: "object", $defs: { n: SELF }, properties: SELF.properties } },
  { name: "ref-chain", description: "A schema nine $refs deep", inputSchema: { type: "object", $defs: CHAIN, properties: CHAIN.d0.properties } },
  { name: "poison", title: POISON, description: POISON, annotations: { readOnlyHint: POISON },
    inputSchema: { type: "object", properties: { note: { type: "string", title: POISON, minLength: POISON } } } },
  { name: "big-text", description: "Returns a megabyte of text", inputSchema: { type: "object" } },
  { name: "chatty", description: "Logs a long string", inputSchema: { type: "object" } },
  { name: "touch", description: "Says a URI of another server was updated", inputSchema: { type: "object", properties: { uri: { type: "string" } } } },
  ...Array.from({ length: BULK }, (_, i) => ({ name: `bulk-${i}`, description: `Bulk tool ${i}`, inputSchema: { type: "object" } })),
];

const rpc = (id, result) => ({ jsonrpc: "2.0", id, result });
const json = (body, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
// Notifications before the result, on the request's own SSE stream.
const sse = (...messages) => new Response(messages.map((m) => `event: message\ndata: ${JSON.stringify(m)}\n\n`).join(""),
  { headers: { "content-type": "text/event-stream", "cache-control": "no-store" } });

function callLimitsTool(id, { name, arguments: args }) {
  const text = (t) => rpc(id, { content: [{ type: "text", text: t }] });
  if (name === "big-text") return json(text(LOREM(1 << 20)));
  if (name === "chatty") return sse({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", logger: POISON, data: "z".repeat(100_000) } }, text("logged"));
  if (name === "touch") return sse({ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: String(args?.uri) } }, text("touched"));
  return json(text(`called ${name}`));
}

const LIMITS = {
  "tools/list": () => ({ tools: LIMITS_TOOLS }),
  "prompts/list": () => ({ prompts: [{ name: "poison-prompt", title: POISON, description: POISON, arguments: [{ name: "topic", description: POISON }] }] }),
  "prompts/get": () => ({ messages: [{ role: "user", content: { type: "text", text: "a prompt" } }] }), // the package checks this one
  "resources/list": () => ({ resources: [{ uri: "limits://poison", name: "poison", title: POISON, description: POISON, mimeType: POISON },
    { uri: "limits://big", name: "big", mimeType: "text/plain" },
    { uri: "demo://resource/static/document/architecture.md", name: "server-everything's URI" }] }),
  "resources/templates/list": () => ({ resourceTemplates: [{ uriTemplate: "limits://t/{x}", name: "template", title: POISON, description: POISON }] }),
  "resources/read": (params) => ({ contents: [{ uri: params?.uri, mimeType: "text/plain", text: params?.uri === "limits://big" ? LOREM(1 << 20) : "small" }] }),
  "completion/complete": () => ({ completion: { values: [] } }),
};

// /limits: legacy Streamable HTTP, stateless, plain JSON-RPC.
const limits = { async fetch(request) {
  if (request.method !== "POST") return new Response(null, { status: 405 });
  let message;
  try {
    message = await request.json();
  } catch {
    return new Response(null, { status: 400 });
  }
  const { id, method, params } = message ?? {};
  if (method === undefined || id === undefined) return new Response(null, { status: 202 }); // a response or a notification
  if (method === "server/discover") return new Response("legacy server", { status: 400, headers: { "content-type": "text/plain" } });
  if (method === "initialize") {
    return json(rpc(id, { protocolVersion: "2025-11-25", serverInfo: { name: "limits", version: POISON },
      capabilities: { tools: {}, prompts: {}, resources: { subscribe: true }, logging: {}, completions: {} } }));
  }
  if (method === "tools/call") return callLimitsTool(id, params ?? {});
  if (LIMITS[method]) return json(rpc(id, LIMITS[method](params)));
  if (["ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe"].includes(method)) return json(rpc(id, {}));
  return json({ jsonrpc: "2.0", id, error: { code: -32601, message: "no such method" } });
} };

const handler = createMcpHandler(buildServer, { legacy: "stateless", onerror: (e) => console.error(`[hostile-server] ${e.message}`) });
serveFetchHandler({ port: PORT, routes: { "/mcp": handler, "/limits": limits }, name: "hostile-server" });
