// Sessions and resumable streams (2025-11-25) at their edges: a server that polls by closing a
// call's stream until the answer is ready, a late 404 of a session the client already renewed, an
// empty event id, and a notification that finds its session gone. The last runs against
// server-everything; the others need timing no real server stages, so a scripted server
// (tests/support/scripted-sessions.mjs) plays them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpClient } from "mcp-wasm";
import { event, openStream, startScriptedSessions, textResult } from "../support/scripted-sessions.mjs";

const URL_HTTP = process.env.MCP_TEST_URL ?? "http://127.0.0.1:38011/mcp";
const LIMIT = { timeout: 30_000 };
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

test("a call whose server closes its stream at every poll is followed until the answer", LIMIT, async () => {
  // The 2025-11-25 polling rules: after an event with an id the server may close the stream at any
  // time, and the client resumes with GET + Last-Event-ID after `retry`. Each poll here closes at
  // once with nothing new; the answer is ready after 1.5 s, when five backed-off attempts are over.
  let answer;
  let readyAt = Infinity;
  const server = await startScriptedSessions({
    onCall(message, response) {
      readyAt = Date.now() + 1_500;
      answer = { jsonrpc: "2.0", id: message.id, result: textResult("done") };
      openStream(response);
      response.end(event({ id: "e0", retry: 100 }));
      return true;
    },
    onGet(request, response) {
      if (!request.headers["last-event-id"]) return response.writeHead(405).end();
      openStream(response);
      response.end(Date.now() >= readyAt ? event({ id: "e1", data: answer }) : "");
    },
  });
  const client = await McpClient.connect(server.url, { era: "legacy" });
  try {
    const result = await client.callTool({ name: "slow" }, { timeout: 10_000 });
    assert.equal(result.content[0].text, "done");
    const polls = server.seen.filter((r) => r.method === "GET" && r.lastEventId === "e0");
    assert.ok(polls.length > 5, `the client gave up after ${polls.length} polls`);
  } finally {
    await client.close();
    server.close();
  }
});

test("a stream primed with an id and no data is resumed after that id", LIMIT, async () => {
  // The spec's priming event has an empty data field; a block with the id alone is no event, but
  // the SSE standard moves the last event id on at it all the same.
  let answer;
  const server = await startScriptedSessions({
    onCall(message, response) {
      answer = { jsonrpc: "2.0", id: message.id, result: textResult("resumed") };
      openStream(response);
      response.end("id: p0\nretry: 100\n\n");
      return true;
    },
    onGet(request, response) {
      if (request.headers["last-event-id"] !== "p0") return response.writeHead(405).end();
      openStream(response);
      response.end(event({ id: "e1", data: answer }));
    },
  });
  const client = await McpClient.connect(server.url, { era: "legacy" });
  try {
    assert.equal((await client.callTool({ name: "slow" }, { timeout: 10_000 })).content[0].text, "resumed");
  } finally {
    await client.close();
    server.close();
  }
});

test("a late 404 of the session the client already renewed does not end the new one", LIMIT, async () => {
  // The GET stream of session s1 reconnects while a call finds s1 gone and renews it; the server
  // answers that GET's 404 only once s2 is in use.
  const server = await startScriptedSessions({
    async onGet(request, response, { expired }) {
      if (expired) {
        await sleep(800);
        return response.writeHead(404).end();
      }
      openStream(response);
      response.write("retry: 100\n\n");
      if (request.headers["mcp-session-id"] === "s1") setTimeout(() => response.end(), 50);
    },
  });
  const client = await McpClient.connect(server.url, { era: "legacy" });
  const renewed = [];
  client.addEventListener("sessionrenewed", (e) => renewed.push(`${e.previousSessionId}->${e.sessionId}`));
  try {
    await sleep(100);
    server.forget();
    await sleep(250); // the GET stream's reconnection for s1 is now held by the server
    assert.equal((await client.callTool({ name: "x" })).content[0].text, "ok");
    await sleep(1_200); // the held GET's 404 has come and gone
    assert.deepEqual(renewed, ["s1->s2"]);
    assert.equal(client.sessionId, "s2");
    assert.equal(server.seen.filter((r) => r.rpc === "initialize").length, 2);
  } finally {
    await client.close();
    server.close();
  }
});

test("an event with an empty id leaves the GET stream with no Last-Event-ID", LIMIT, async () => {
  let opened = 0;
  const server = await startScriptedSessions({
    onGet(request, response) {
      openStream(response);
      opened += 1;
      if (opened > 1) return response.write("retry: 100\n\n");
      const note = { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "x" } };
      // Apart, so that the client has taken L1 before the empty id clears it.
      response.write(event({ id: "L1", retry: 100 }));
      setTimeout(() => response.end(event({ id: "", data: note })), 100);
    },
  });
  const client = await McpClient.connect(server.url, { era: "legacy" });
  try {
    while (opened < 2) await sleep(20);
    const gets = server.seen.filter((r) => r.method === "GET");
    assert.equal(gets[1].lastEventId, undefined, "the empty id cleared L1");
    assert.equal(client.snapshot().lastEventId ?? null, null);
  } finally {
    await client.close();
    server.close();
  }
});

test("a notification that finds its session ended starts a new one (server-everything)", LIMIT, async () => {
  const client = await McpClient.connect(URL_HTTP, { era: "legacy", handlers: { roots: () => ({ roots: [] }) } });
  const renewed = new Promise((resolve) => client.addEventListener("sessionrenewed", resolve, { once: true }));
  try {
    const ended = client.sessionId;
    // The server forgets the session, as after a restart.
    const gone = await fetch(URL_HTTP, { method: "DELETE", headers: { "mcp-session-id": ended, "mcp-protocol-version": client.protocolVersion } });
    assert.ok(gone.ok, `DELETE answered ${gone.status}`);
    await client.sendRootsListChanged();
    const event = await renewed;
    assert.equal(event.previousSessionId, ended);
    assert.notEqual(client.sessionId, ended);
    assert.match((await client.callTool({ name: "get-sum", arguments: { a: 1, b: 2 } })).content[0].text, /\b3\b/);
  } finally {
    await client.close();
  }
});

test("a renewed session is subscribed and set to the logging level again (server-everything)", LIMIT, async () => {
  const out = [];
  const trace = (entry) => { if (entry.direction === "out" && entry.method) out.push({ method: entry.method, params: JSON.parse(entry.json).params }); };
  const client = await McpClient.connect(URL_HTTP, { era: "legacy", trace });
  try {
    const uri = (await client.listResources()).resources[0].uri;
    await client.subscribeResource({ uri });
    await client.setLoggingLevel("error");
    const renewed = new Promise((resolve) => client.addEventListener("sessionrenewed", resolve, { once: true }));
    const gone = await fetch(URL_HTTP, { method: "DELETE", headers: { "mcp-session-id": client.sessionId, "mcp-protocol-version": client.protocolVersion } });
    assert.ok(gone.ok, `DELETE answered ${gone.status}`);
    out.length = 0;
    await client.callTool({ name: "get-sum", arguments: { a: 1, b: 2 } });
    await renewed;
    const sent = (method) => out.filter((m) => m.method === method).map((m) => m.params);
    for (let i = 0; i < 50 && sent("resources/subscribe").length === 0; i++) await sleep(20);
    assert.deepEqual(sent("logging/setLevel").map((p) => p.level), ["error"]);
    assert.deepEqual(sent("resources/subscribe").map((p) => p.uri), [uri]);
  } finally {
    await client.close();
  }
});

test("an error of id null on a request's own response fails that request with the server's error", LIMIT, async () => {
  // JSON-RPC answers a request it could not read with id null; a server that does so with a 200,
  // as a JSON body or on the request's event stream, names the one request that body answers.
  const refusal = { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request: arguments is not an object" } };
  const server = await startScriptedSessions({
    onCall(message, response) {
      if (message.params.name === "other") return false;
      if (message.params.name === "json") response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(refusal));
      else {
        openStream(response);
        response.end(event({ data: refusal }));
      }
      return true;
    },
  });
  const client = await McpClient.connect(server.url, { era: "legacy" });
  try {
    for (const name of ["json", "stream"]) {
      await assert.rejects(client.callTool({ name }), (e) => e.name === "McpError" && e.code === -32600 && /arguments is not an object/.test(e.message), name);
    }
    assert.equal((await client.callTool({ name: "other" })).content[0].text, "ok", "the client stays usable");
  } finally {
    await client.close();
    server.close();
  }
});
