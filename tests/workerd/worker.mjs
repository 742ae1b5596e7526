// Workers smoke test for mcp-wasm: a Worker that drives a real MCP server through the
// package's `workerd` entry (wasm imported as a compiled module + initSync).
//
//   GET /?target=<MCP URL>  ->  200 JSON report, or 500 JSON {ok:false, error}
//   GET /?oauth=<MCP URL>   ->  the same for an OAuth-protected server (client_credentials)
//   GET /?persist=start&servers=<JSON name->URL>  ->  an McpHost connects, calls a tool,
//                            suspends and keeps its snapshot in the SESSIONS KV namespace
//   GET /?persist=resume    ->  a later invocation resumes that snapshot and calls tools
//   Both report the JSON-RPC methods the Worker sent, as the servers saw them.
//
// The client picks the transport itself: Streamable HTTP, or HTTP+SSE (read
// over fetch: Workers have no EventSource) for a 2024-11-05 server.
//
// Run it with tests/workerd/run.mjs, which bundles this file and asserts on the report.
import { McpClient, McpHost } from "mcp-wasm";

// Errors cross the Worker boundary as JSON, so keep every field that helps diagnose a
// failure: McpError carries {code, data}, McpClientError carries {kind, status}.
function describeError(e) {
  if (!(e instanceof Error)) return { name: typeof e, message: String(e) };
  const out = { name: e.name, message: e.message };
  for (const k of ["code", "data", "kind", "status"]) if (e[k] !== undefined) out[k] = e[k];
  return out;
}

// GET /?oauth=<MCP URL>: a machine client behind OAuth, as a Worker would be:
// client_credentials with the peer's pre-registered confidential client.
async function oauthReport(target) {
  const client = await McpClient.connect(target, {
    timeout: 10_000,
    auth: { grant: "client_credentials", clientId: "test-machine", clientSecret: "test-secret", tokenEndpointAuthMethod: "client_secret_basic" },
  });
  try {
    const whoami = await client.callTool({ name: "whoami", arguments: {} });
    return { ok: true, era: client.era, whoami: whoami.structuredContent };
  } finally {
    await client.close();
  }
}

// A fetch that records the method of every JSON-RPC message it sends.
function recordingFetch() {
  const methods = [];
  const record = (input, init) => {
    if (typeof init?.body === "string") {
      try { methods.push(JSON.parse(init.body).method ?? "(response)"); } catch { methods.push("(not JSON)"); }
    }
    return fetch(input, init);
  };
  return { methods, fetch: record };
}

const sessions = (host) => Object.fromEntries(host.servers().map((s) => [s.name, s.sessionId ?? null]));

// One Worker invocation connects a host and leaves its sessions open in KV; the next one
// takes them over (McpHost.resume) without a new handshake.
async function persistReport(step, params, env) {
  const rec = recordingFetch();
  if (step === "start") {
    const urls = JSON.parse(params.get("servers") ?? "{}");
    const servers = Object.fromEntries(Object.entries(urls).map(([name, url]) => [name, { url, fetch: rec.fetch, timeout: 10_000 }]));
    const host = await McpHost.connect(servers);
    const failed = host.servers().filter((s) => s.status !== "connected");
    if (failed.length) throw new Error(`not connected: ${failed.map((s) => `${s.name} (${s.error?.message})`).join(", ")}`);
    const sum = await host.callTool("everything__get-sum", { a: 2, b: 3 });
    const ids = sessions(host);
    const snapshot = await host.suspend();
    await env.SESSIONS.put("host", JSON.stringify(snapshot));
    return { ok: true, methods: rec.methods, sessions: ids, sum, snapshotBytes: JSON.stringify(snapshot).length };
  }
  const saved = await env.SESSIONS.get("host");
  if (!saved) throw new Error("no snapshot in KV");
  const own = { fetch: rec.fetch, timeout: 10_000 };
  const host = await McpHost.resume(JSON.parse(saved), { servers: { everything: own, modern: own } });
  try {
    const sum = await host.callTool("everything__get-sum", { a: 4, b: 5 });
    const add = await host.callTool("modern__add", { a: 20, b: 22 });
    return { ok: true, methods: rec.methods, sessions: sessions(host), sum, add };
  } finally {
    await host.close();
  }
}

export default {
  async fetch(request, env, ctx) {
    const params = new URL(request.url).searchParams;
    if (params.get("persist")) {
      try {
        return Response.json(await persistReport(params.get("persist"), params, env));
      } catch (e) {
        return Response.json({ ok: false, error: describeError(e) }, { status: 500 });
      }
    }
    const oauth = new URL(request.url).searchParams.get("oauth");
    if (oauth) {
      try {
        return Response.json(await oauthReport(oauth));
      } catch (e) {
        return Response.json({ ok: false, error: describeError(e) }, { status: 500 });
      }
    }
    const target = new URL(request.url).searchParams.get("target");
    if (!target) {
      return Response.json({ ok: false, error: { message: "missing ?target=<MCP URL>" } }, { status: 400 });
    }

    let client;
    try {
      client = await McpClient.connect(target, {
        clientInfo: { name: "mcp-wasm-workerd-test", version: "0.0.0" },
        timeout: 10_000, // ms; a stuck peer must fail the test, not hang CI
      });
      const report = {
        ok: true,
        serverInfo: client.serverInfo,
        protocolVersion: client.protocolVersion,
        sessionId: client.sessionId,
        transport: client.transport,
      };
      report.tools = (await client.listAllTools()).map((t) => t.name);
      report.sum = await client.callTool({ name: "get-sum", arguments: { a: 2, b: 3 } });
      report.echo = await client.callTool({ name: "echo", arguments: { message: "hello from workerd" } });
      // A tool with an outputSchema: its structuredContent is checked (by quick-check.js, a plain schema).
      report.weather = await client.callTool({ name: "get-structured-content", arguments: { location: "Chicago" } });
      // A tool call as a task: the package's tasks-run.js, which workerd.js loads with import().
      if (client.serverCapabilities.tasks?.requests?.tools?.call) {
        const statuses = [];
        report.task = await client.callToolAsTask({ name: "simulate-research-query", arguments: { topic: "workerd" } },
          { pollInterval: 300, ontaskstatus: (task) => statuses.push(task.status) });
        report.taskStatuses = statuses;
      }

      // On success, close inline: closing (DELETE of the MCP session) is part of what
      // this test covers, so its failure must show up in the report.
      const c = client;
      client = undefined;
      await c.close();
      report.closed = true;
      return Response.json(report);
    } catch (e) {
      return Response.json({ ok: false, error: describeError(e) }, { status: 500 });
    } finally {
      // On failure, release the server-side session after the response has been sent;
      // waitUntil keeps the Worker alive for it without delaying the error report.
      if (client) ctx.waitUntil(client.close().catch(() => {}));
    }
  },
};
