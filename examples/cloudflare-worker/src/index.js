// A Worker in front of one MCP server: it lists the server's tools and proxies
// tool calls, and keeps one MCP session across requests. Each request resumes
// the session from KV (no new handshake) and suspends it there again.
//
//   GET  /tools          -> the server's tools
//   POST /tools/<name>   -> calls the tool, with the JSON body as its arguments
import { McpClient, McpClientError, McpError } from "mcp-wasm";

const KEY = "mcp-session";
const OPTIONS = { clientInfo: { name: "mcp-wasm-worker-example", version: "0.1.0" }, timeout: 20_000 };

// What a request asks for, or a Response saying why it cannot be served.
async function route(request) {
  const { pathname } = new URL(request.url);
  if (pathname === "/tools" && request.method === "GET") return { list: true };
  if (pathname.startsWith("/tools/") && request.method === "POST") {
    const name = decodeURIComponent(pathname.slice("/tools/".length));
    const text = await request.text();
    try {
      const args = text ? JSON.parse(text) : {};
      if (args && typeof args === "object" && !Array.isArray(args)) return { call: { name, arguments: args } };
    } catch {}
    return Response.json({ error: "the body must be a JSON object of arguments" }, { status: 400 });
  }
  return Response.json({ error: "try GET /tools or POST /tools/<name> with JSON arguments" }, { status: 404 });
}

// The session of the last request, if it was with the configured server; else a new one.
async function openClient(env) {
  const saved = await env.SESSIONS.get(KEY, "json");
  if (saved?.url === env.MCP_URL) return { client: await McpClient.resume(saved, OPTIONS), resumed: true };
  return { client: await McpClient.connect(env.MCP_URL, OPTIONS), resumed: false };
}

// Leaves the session open on the server and keeps where it stands for the next request.
async function keep(env, client) {
  try {
    await env.SESSIONS.put(KEY, JSON.stringify(await client.suspend()));
  } catch {
    await env.SESSIONS.delete(KEY); // the next request connects anew
  }
}

export default {
  async fetch(request, env) {
    const wanted = await route(request);
    if (wanted instanceof Response) return wanted;
    let opened;
    try {
      opened = await openClient(env);
      const { client, resumed } = opened;
      const body = wanted.list
        ? { tools: (await client.listAllTools()).map(({ name, description }) => ({ name, description })) }
        : { result: await client.callTool(wanted.call) };
      return Response.json({ resumed, sessionId: client.sessionId ?? null, ...body });
    } catch (e) {
      // McpError: the server answered with a JSON-RPC error; McpClientError: the client gave up (`kind` says why).
      const error =
        e instanceof McpError ? { message: e.message, code: e.code }
        : e instanceof McpClientError ? { message: e.message, kind: e.kind }
        : { message: String(e) };
      return Response.json({ error }, { status: 502 });
    } finally {
      if (opened) await keep(env, opened.client);
    }
  },
};
