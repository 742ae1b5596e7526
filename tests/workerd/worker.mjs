// Workers smoke test for mcp-wasm: a Worker that drives a real MCP server through the
// package's `workerd` entry (wasm imported as a compiled module + initSync).
//
//   GET /?target=<MCP URL>  ->  200 JSON report, or 500 JSON {ok:false, error}
//   GET /?oauth=<MCP URL>   ->  the same for an OAuth-protected server (client_credentials)
//
// The client picks the transport itself: Streamable HTTP, or HTTP+SSE (read
// over fetch: Workers have no EventSource) for a 2024-11-05 server.
//
// Run it with tests/workerd/run.mjs, which bundles this file and asserts on the report.
import { McpClient } from "mcp-wasm";

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

export default {
  async fetch(request, env, ctx) {
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
