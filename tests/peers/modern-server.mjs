// Test peer for the 2026-07-28 ("modern") revision, built on @modelcontextprotocol/server 2.4.0.
//
//   PORT=38013 node tests/peers/modern-server.mjs modern   # 2026-07-28 only; legacy traffic is refused
//   PORT=38013 node tests/peers/modern-server.mjs dual     # 2026-07-28 + stateless legacy Streamable HTTP
//
// Endpoint: http://127.0.0.1:$PORT/mcp, and the same server at /logging-undeclared/mcp with `logging`
// left out of what server/discover declares. It serves skills (modern-skills.mjs). Wire behaviour
// observed against this file is written up in MODERN-SERVER.md next to it. Every answer is
// deterministic so tests can assert exact values.
import { setTimeout as sleep } from "node:timers/promises";
import {
  McpServer, ResourceTemplate, completable, createMcpHandler, inputRequired, inputResponse,
} from "@modelcontextprotocol/server";
import { z } from "zod";
import { serveFetchHandler } from "./fetch-handler-server.mjs";
import { skills } from "./modern-skills.mjs";

const MODES = { modern: "reject", dual: "stateless" }; // mode -> createMcpHandler `legacy` posture
const mode = process.argv[2];
if (!(mode in MODES)) {
  console.error("usage: PORT=<port> node tests/peers/modern-server.mjs modern|dual");
  process.exit(2);
}
const PORT = Number(process.env.PORT ?? 38013);

const NAMES = ["Ada", "Alan", "Grace"];
const ITEM_IDS = ["1", "2", "3", "10", "42"];
// Fixed requestState strings, so tests can check that the client echoes them byte for byte. The
// characters a sloppy client might re-encode (`+`, `/`, `=`, a space, non-ASCII) are deliberate.
const STATE = { "ask-user": "ask-user/1+é=", "ask-model": "ask-model/1 ok", "list-roots": "list-roots/1" };
const KNOWN_STATES = new Set(Object.values(STATE));

// createMcpHandler builds a fresh McpServer per HTTP request, so anything that must outlive one
// request (tools added at runtime) lives here and is replayed into every instance.
const addedTools = new Set();
const builtinTools = new Set(); // filled while building, so add-tool can refuse to shadow one

const text = (t) => ({ content: [{ type: "text", text: t }] });

function buildServer({ requestInfo }) {
  const server = new McpServer({ name: "mcp-wasm-modern-peer", version: "1.0.0" }, {
    // listChanged/subscribe must be advertised or subscriptions/listen narrows them out of the ack.
    capabilities: {
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      completions: {},
      logging: {}, // without it ctx.mcpReq.log() is a no-op
    },
    cacheHints: { "tools/list": { ttlMs: 60000, cacheScope: "public" } },
    // Unknown state is refused by the SDK with -32602 "Invalid or expired requestState".
    requestState: { verify: (state) => { if (!KNOWN_STATES.has(state)) throw new Error(`unknown requestState ${JSON.stringify(state)}`); } },
  });

  const tool = (name, config, cb) => { builtinTools.add(name); server.registerTool(name, config, cb); };

  tool("echo", { description: "Echo a message", inputSchema: z.object({ message: z.string() }) },
    ({ message }) => text(`Echo: ${message}`));

  tool("add", {
    description: "Add two numbers",
    inputSchema: z.object({ a: z.number(), b: z.number() }),
    outputSchema: z.object({ sum: z.number() }),
  }, ({ a, b }) => ({ ...text(`${a} + ${b} = ${a + b}`), structuredContent: { sum: a + b } }));

  tool("slow", {
    description: "Take `steps` x 100 ms, reporting progress (with a progress token) and logs (with a logLevel)",
    inputSchema: z.object({ steps: z.number().int().min(1).max(100) }),
  }, async ({ steps }, ctx) => {
    const token = ctx.mcpReq._meta?.progressToken;
    for (let i = 1; i <= steps; i++) {
      await sleep(100);
      if (ctx.mcpReq.signal.aborted) break;
      if (token !== undefined) {
        await ctx.mcpReq.notify({ method: "notifications/progress",
          params: { progressToken: token, progress: i, total: steps, message: `step ${i}/${steps}` } });
      }
      await ctx.mcpReq.log("info", `step ${i}/${steps}`, "slow"); // SDK drops it unless _meta logLevel is set
    }
    return text(`slow: ${steps} steps done`);
  });

  // MRTR tools: the first round returns input_required; the retry carries inputResponses + requestState.
  // A retry without the right requestState (or with an unusable response) is simply asked again.
  tool("ask-user", { description: "Ask the user for a name (form elicitation)" }, (ctx) => {
    const r = ctx.mcpReq.requestState() === STATE["ask-user"] ? inputResponse(ctx.mcpReq.inputResponses, "user") : {};
    if (r.kind === "elicit") return text(r.action === "accept" ? `Hello, ${r.content?.name}` : `User chose ${r.action}`);
    return inputRequired({
      inputRequests: { user: inputRequired.elicit({ mode: "form", message: "What is your name?",
        requestedSchema: { type: "object", properties: { name: { type: "string", title: "Name", default: "Ada" } }, required: ["name"] } }) },
      requestState: STATE["ask-user"],
    });
  });

  tool("ask-model", { description: "Ask the client's model (sampling)" }, (ctx) => {
    const r = ctx.mcpReq.requestState() === STATE["ask-model"] ? inputResponse(ctx.mcpReq.inputResponses, "sample") : {};
    if (r.kind === "sampling") {
      const blocks = [r.result.content].flat();
      return text(blocks.map((b) => (b.type === "text" ? b.text : `[${b.type}]`)).join(""));
    }
    return inputRequired({
      inputRequests: { sample: inputRequired.createMessage({
        messages: [{ role: "user", content: { type: "text", text: "Say hello in one word." } }], maxTokens: 16 }) },
      requestState: STATE["ask-model"],
    });
  });

  // One round asking two things at once: when the client fails one, the other, which it had
  // already begun, is no longer wanted.
  const form = (message) => inputRequired.elicit({ mode: "form", message,
    requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } });
  tool("ask-twice", { description: "Ask the user two things in one round" }, () => inputRequired({
    inputRequests: { first: form("What is your name?"), second: form("And your quest?") },
    requestState: STATE["ask-user"],
  }));

  tool("list-roots", { description: "List the client's roots" }, (ctx) => {
    const r = ctx.mcpReq.requestState() === STATE["list-roots"] ? inputResponse(ctx.mcpReq.inputResponses, "roots") : {};
    if (r.kind === "roots") {
      return text(r.roots.length ? r.roots.map((root) => root.uri).join("\n") : "(no roots)");
    }
    return inputRequired({ inputRequests: { roots: inputRequired.listRoots() }, requestState: STATE["list-roots"] });
  });

  // SEP-2243: `x-mcp-header` makes the client mirror `region` into `Mcp-Param-Region`; the SDK
  // rejects a missing or different header with -32020 before this handler runs.
  tool("echo-region", {
    description: "Echo `region` and the Mcp-Param-Region header the server received",
    inputSchema: z.object({ region: z.string().meta({ "x-mcp-header": "Region" }) }),
  }, ({ region }) => text(`region=${region} header=${requestInfo?.headers.get("mcp-param-region") ?? "(absent)"}`));

  // SEP-2243 allows an annotation at any depth of `properties`: `target.region` goes out as
  // Mcp-Param-Target-Region.
  tool("deploy-to", {
    description: "Echo `target.region` and the Mcp-Param-Target-Region header the server received",
    inputSchema: z.object({ target: z.object({ region: z.string().meta({ "x-mcp-header": "Target-Region" }) }) }),
  }, ({ target }) => text(`region=${target.region} header=${requestInfo?.headers.get("mcp-param-target-region") ?? "(absent)"}`));

  // Invalid on purpose: SEP-2243 allows x-mcp-header on string, integer and boolean only, so a
  // conforming client does not offer this tool. The SDK warns at start-up and still checks the header.
  tool("set-threshold", {
    description: "Echo `threshold`, a number its schema wrongly mirrors into Mcp-Param-Threshold",
    inputSchema: z.object({ threshold: z.number().meta({ "x-mcp-header": "Threshold" }) }),
  }, ({ threshold }) => text(`threshold=${threshold}`));

  tool("touch", {
    description: "Publish notifications/resources/updated for `uri` to subscriptions/listen streams",
    inputSchema: z.object({ uri: z.string() }),
  }, ({ uri }) => { handler.notify.resourceUpdated(uri); return text(`touched ${uri}`); });

  tool("list-changed-storm", {
    description: "Publish `burst` (default 1) notifications/tools/list_changed every `intervalMs` for `durationMs` (at most 20 s), without waiting",
    inputSchema: z.object({
      intervalMs: z.number().int().min(5).max(1000),
      durationMs: z.number().int().min(0).max(20_000),
      burst: z.number().int().min(1).max(10_000).optional(),
    }),
  }, ({ intervalMs, durationMs, burst = 1 }) => {
    const storm = setInterval(() => { for (let i = 0; i < burst; i++) handler.notify.toolsChanged(); }, intervalMs);
    setTimeout(() => clearInterval(storm), durationMs);
    return text(`storming for ${durationMs} ms`);
  });

  tool("add-tool", {
    description: "Register tool `name` (it answers `I am <name>`) and publish notifications/tools/list_changed",
    inputSchema: z.object({ name: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/) }),
  }, ({ name }) => {
    if (addedTools.has(name) || builtinTools.has(name)) {
      return { ...text(`tool ${name} already exists`), isError: true };
    }
    addedTools.add(name);
    handler.notify.toolsChanged();
    return text(`added tool ${name}`);
  });
  for (const name of addedTools) server.registerTool(name, { description: "Added at runtime" }, () => text(`I am ${name}`));

  server.registerResource("readme", "demo://static/readme", { title: "Readme", mimeType: "text/plain" },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: "text/plain", text: "This is the demo readme." }] }));

  // Who asks, kept privately for a minute: a client's response cache must keep it per caller.
  server.registerResource("whoami", "demo://whoami", {
    title: "Who am I", mimeType: "text/plain", cacheHint: { ttlMs: 60000, cacheScope: "private" },
  }, (uri) => ({ contents: [{ uri: uri.href, mimeType: "text/plain",
    text: `authorization: ${requestInfo?.headers.get("authorization") ?? "(none)"}` }] }));

  server.registerResource("item", new ResourceTemplate("demo://items/{id}", {
    list: undefined,
    complete: { id: (value) => ITEM_IDS.filter((id) => id.startsWith(value)) },
  }), { title: "Item", mimeType: "text/plain" },
  (uri, { id }) => ({ contents: [{ uri: uri.href, mimeType: "text/plain", text: `item ${id}` }] }));

  server.registerPrompt("greet", {
    description: "Greet someone",
    argsSchema: z.object({ name: completable(z.string(), (value) => NAMES.filter((n) => n.startsWith(value))) }),
  }, ({ name }) => ({ messages: [{ role: "user", content: { type: "text", text: `Please greet ${name}.` } }] }));

  skills.attach(server);
  return server;
}

const handler = createMcpHandler(buildServer, {
  legacy: MODES[mode],
  onerror: (e) => console.error(`[modern-server] ${e.message}`), // also reports every rejected request
});

// A server that logs without declaring `logging`: the same server, with `logging` taken out of its
// server/discover answer. Its tools still log at the level a request's _meta asks for.
const loggingUndeclared = {
  async fetch(request) {
    const response = await handler.fetch(request);
    const json = (response.headers.get("content-type") ?? "").startsWith("application/json");
    if (request.headers.get("mcp-method") !== "server/discover" || !json) return response;
    const answer = await response.json();
    delete answer.result?.capabilities?.logging;
    const headers = new Headers(response.headers);
    headers.delete("content-length");
    return new Response(JSON.stringify(answer), { status: response.status, headers });
  },
};

serveFetchHandler({ port: PORT, routes: { "/mcp": handler, "/logging-undeclared/mcp": loggingUndeclared }, name: `modern-server (${mode})` });
