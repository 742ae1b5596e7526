// A loopback MCP server (2025-11-25, Streamable HTTP) whose task methods a test scripts: the
// edges of tasks that no real server stages on purpose (progress all through a task, a server
// that runs a task-augmented call at once, a tasks/result that outlasts its timeout, a result
// that breaks the tool's outputSchema). The tasks themselves run against server-everything in
// tasks.test.mjs; this is for what a careless server does around them.
import http from "node:http";

const CAPABILITIES = { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } };

/**
 * Starts the server. `answer(message, notify)` answers each request other than `initialize`:
 * a result object, `{ error }`, or a Promise of either; `notify(method, params)` sends a
 * notification on that request's SSE response, before the answer. `tools` is what tools/list
 * lists. `received` records every message the client sent.
 */
export async function startScriptedTasks({ answer, tools = [] }) {
  const received = [];
  const server = http.createServer(async (request, response) => {
    if (request.method !== "POST") {
      response.writeHead(request.method === "DELETE" ? 200 : 405).end();
      return;
    }
    let body = "";
    for await (const chunk of request) body += chunk;
    const message = JSON.parse(body);
    received.push(message);
    if (message.id === undefined || message.method === undefined) {
      response.writeHead(202).end();
      return;
    }
    response.writeHead(200, { "content-type": "text/event-stream", "mcp-session-id": "scripted" });
    const send = (payload) => response.write(`data: ${JSON.stringify({ jsonrpc: "2.0", ...payload })}\n\n`);
    const notify = (method, params) => send({ method, params });
    let outcome;
    if (message.method === "initialize") {
      outcome = { protocolVersion: "2025-11-25", capabilities: CAPABILITIES, serverInfo: { name: "scripted-tasks", version: "1" } };
    } else if (message.method === "tools/list") {
      outcome = { tools };
    } else {
      outcome = await answer(message, notify);
    }
    if (response.destroyed) return;
    send(outcome?.error ? { id: message.id, error: outcome.error } : { id: message.id, result: outcome ?? {} });
    response.end();
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/mcp`,
    received,
    sent: (method) => received.filter((message) => message.method === method),
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}
