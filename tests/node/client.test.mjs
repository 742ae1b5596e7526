// Integration tests for the built package under Node: `node --test tests/node/` (system Node 20).
//
// Needs `pkg/` built (node_modules/mcp-wasm -> ../pkg) and server-everything running
// (`scripts/peers.sh start`), or MCP_TEST_URL pointing at another Streamable HTTP peer.
// The error-path tests bring their own tiny node:http server on an ephemeral loopback port.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import net from "node:net";
import { McpClient, McpClientError, McpError } from "mcp-wasm";
import { assertValidClientMessage, recordingFetch } from "../support/schema.mjs";

const MCP_URL = process.env.MCP_TEST_URL ?? "http://127.0.0.1:38011/mcp";
const PROTOCOL = "2025-11-25";
// Every test gets a hard limit, so a client that hangs fails the test instead of the run.
const LIMIT = { timeout: 15_000 };

// Validator for assert.rejects: a typed local error of the given kind (plus extra fields).
function clientError(kind, extra = {}) {
  return (err) => {
    assert.ok(err instanceof McpClientError, `expected McpClientError, got ${err?.name}: ${err?.message}`);
    assert.equal(err.name, "McpClientError");
    assert.equal(err.kind, kind, `kind of "${err.message}"`);
    for (const [key, value] of Object.entries(extra)) assert.equal(err[key], value, key);
    return true;
  };
}

// The era probe (`server/discover`, 2026-07-28) comes first; the rest of a
// legacy session speaks 2025-11-25. Each is checked against its revision.
function assertAllValid(rec) {
  const messages = rec.messages();
  assert.ok(messages.length > 0, "the client sent no JSON-RPC messages");
  for (const message of messages) {
    assertValidClientMessage(message, message.method === "server/discover" ? "2026-07-28" : undefined);
  }
  return messages.filter((m) => m.method !== "server/discover");
}

const textOf = (result) => result.content.filter((c) => c.type === "text").map((c) => c.text).join("\n");

describe("a session with server-everything", () => {
  let client;
  const rec = recordingFetch();

  before(async () => {
    client = await McpClient.connect(MCP_URL, {
      fetch: rec.fetch,
      clientInfo: { name: "mcp-wasm-node-tests", version: "0.0.0" },
    });
  }, LIMIT);
  after(async () => { await client?.close(); });

  test("connect negotiates and exposes the server's details", () => {
    assert.equal(client.serverInfo.name, "mcp-servers/everything");
    assert.equal(client.protocolVersion, PROTOCOL);
    assert.equal(typeof client.sessionId, "string");
    assert.ok(client.sessionId.length > 0);
    assert.equal(typeof client.instructions, "string");
    assert.equal(typeof client.serverCapabilities, "object");
    assert.ok(client.serverCapabilities.tools, "server declares tools");
  });

  test("listTools includes echo and get-sum", LIMIT, async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    assert.ok(names.includes("echo"), `tools: ${names}`);
    assert.ok(names.includes("get-sum"), `tools: ${names}`);
  });

  test("callTool echo returns the text", LIMIT, async () => {
    const result = await client.callTool({ name: "echo", arguments: { message: "hello from wasm" } });
    assert.notEqual(result.isError, true);
    assert.match(textOf(result), /hello from wasm/);
  });

  test("callTool get-sum adds", LIMIT, async () => {
    const result = await client.callTool({ name: "get-sum", arguments: { a: 2, b: 3 } });
    assert.match(textOf(result), /\b5\b/);
  });

  test("listAllTools equals the pages of listTools, concatenated", LIMIT, async () => {
    const pages = [];
    let cursor;
    do {
      const page = await client.listTools(cursor === undefined ? undefined : { cursor });
      pages.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    assert.deepEqual(await client.listAllTools(), pages);
  });

  test("ping", LIMIT, async () => {
    await client.ping();
  });

  test("close ends the session and the client", LIMIT, async () => {
    const sessionId = client.sessionId;
    await client.close();

    // The server must have forgotten the session: server-everything answers 400 here, the
    // spec says 404, so accept both.
    const res = await fetch(MCP_URL, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": sessionId,
        "mcp-protocol-version": PROTOCOL,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    await res.body?.cancel();
    assert.ok([400, 404].includes(res.status), `POST after DELETE answered ${res.status}`);

    await client.close(); // idempotent
    await assert.rejects(client.listTools(), clientError("closed"));
    await assert.rejects(client.callTool({ name: "echo", arguments: { message: "x" } }), clientError("closed"));
    await assert.rejects(client.ping(), clientError("closed"));
  });

  test("every message sent matches the 2025-11-25 schema", () => {
    const methods = assertAllValid(rec).map((m) => m.method);
    for (const m of ["initialize", "notifications/initialized", "tools/list", "tools/call", "ping"]) {
      assert.ok(methods.includes(m), `no ${m} among ${methods}`);
    }
    assert.equal(methods[0], "initialize");
  });

  test("every HTTP request carries the Streamable HTTP headers", () => {
    // The modern probe was refused; the legacy session starts at initialize.
    assert.match(rec.requests[0].body ?? "", /"server\/discover"/);
    assert.equal(rec.requests[0].headers["mcp-protocol-version"], "2026-07-28");
    assert.equal(rec.requests[0].headers["mcp-method"], "server/discover");
    const [init, ...rest] = rec.requests.slice(1);
    for (const r of rec.requests.filter((r) => r.method === "POST")) {
      assert.match(r.headers["content-type"] ?? "", /^application\/json/);
      assert.match(r.headers.accept ?? "", /application\/json/);
      assert.match(r.headers.accept ?? "", /text\/event-stream/);
    }
    assert.equal(init.headers["mcp-session-id"], undefined, "initialize must not carry a session id");
    for (const r of rest) {
      assert.ok(r.headers["mcp-session-id"], `${r.method} ${r.body ?? ""} without Mcp-Session-Id`);
      assert.equal(r.headers["mcp-protocol-version"], PROTOCOL, `${r.method} ${r.body ?? ""}`);
    }
    assert.ok(rec.requests.some((r) => r.method === "DELETE"), "close() sent no DELETE");
  });
});

test("await using: Symbol.asyncDispose closes the client and ends its session", LIMIT, async () => {
  const client = await McpClient.connect(MCP_URL);
  const sessionId = client.sessionId;
  assert.ok(sessionId, "a session to end");
  let closed = 0;
  client.addEventListener("close", () => { closed += 1; });
  // What `await using client = …` calls at the end of its scope (Node 20 has the symbol, not the syntax).
  await client[Symbol.asyncDispose]();
  assert.equal(closed, 1);
  await assert.rejects(client.ping(), clientError("closed"));
  const res = await fetch(MCP_URL, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": sessionId, "mcp-protocol-version": PROTOCOL },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  await res.body?.cancel();
  assert.ok([400, 404].includes(res.status), `POST after the dispose answered ${res.status}`);
  await client[Symbol.asyncDispose](); // as idempotent as close()
});

describe("cancellation and timeouts against server-everything", () => {
  let client;
  const rec = recordingFetch();
  const slow = { name: "trigger-long-running-operation", arguments: { duration: 5, steps: 5 } };

  before(async () => { client = await McpClient.connect(MCP_URL, { fetch: rec.fetch }); }, LIMIT);
  after(async () => { await client?.close(); });

  test("an AbortSignal rejects a slow call with the signal's reason", LIMIT, async () => {
    const controller = new AbortController();
    const reason = new Error("aborted by the test");
    const started = Date.now();
    setTimeout(() => controller.abort(reason), 300);
    await assert.rejects(client.callTool(slow, { signal: controller.signal }), (err) => {
      assert.ok(err === reason, `expected the signal's reason, got ${err?.name}: ${err?.message}`);
      return true;
    });
    assert.ok(Date.now() - started < 3000, `abort took ${Date.now() - started} ms`);
  });

  test("a per-call timeout rejects with kind timeout", LIMIT, async () => {
    const started = Date.now();
    await assert.rejects(client.callTool(slow, { timeout: 300 }), clientError("timeout"));
    assert.ok(Date.now() - started < 3000, `timeout took ${Date.now() - started} ms`);
  });

  test("the session stays usable afterwards, and all messages are valid", LIMIT, async () => {
    await client.ping();
    const messages = assertAllValid(rec);
    // Both the abort and the timeout told the server, naming the calls they gave up on.
    const calls = messages.filter((m) => m.method === "tools/call").map((m) => m.id);
    const cancelled = messages.filter((m) => m.method === "notifications/cancelled");
    assert.deepEqual(cancelled.map((m) => m.params.requestId), calls);
    assert.equal(cancelled[0].params.reason, "aborted by the test");
  });
});

describe("the AbortControllers of finished exchanges", () => {
  // Without a custom fetch, a request whose answer was read to its end gives its controller to the
  // next one (Node 20 makes every new AbortSignal transferable, a cost on every call). Seen here by
  // wrapping the global fetch, which the client calls when no fetch option is given.
  test("serve the next requests, and no request starts with an aborted signal", LIMIT, async () => {
    const original = globalThis.fetch;
    const posts = [];
    globalThis.fetch = (url, init) => {
      if (init?.method === "POST") posts.push({ signal: init.signal, abortedAtStart: init.signal?.aborted, body: String(init.body) });
      return original(url, init);
    };
    let client;
    try {
      client = await McpClient.connect(MCP_URL);
      const start = posts.length;
      for (let i = 0; i < 6; i++) await client.ping();
      const pings = posts.slice(start).map((p) => p.signal);
      assert.equal(pings.length, 6);
      assert.ok(new Set(pings).size <= 2, `six sequential pings used ${new Set(pings).size} controllers`);

      // Calls given up on by a timeout and by the caller's signal, then more calls.
      const slow = { name: "trigger-long-running-operation", arguments: { duration: 3, steps: 3 } };
      await assert.rejects(client.callTool(slow, { timeout: 200 }), clientError("timeout"));
      const controller = new AbortController();
      setTimeout(() => controller.abort(new Error("given up")), 200);
      await assert.rejects(client.callTool(slow, { signal: controller.signal }));
      for (let i = 0; i < 4; i++) {
        const sum = await client.callTool({ name: "get-sum", arguments: { a: i, b: 1 } });
        assert.match(textOf(sum), new RegExp(`\\b${i + 1}\\b`));
      }
      // close() aborts the exchanges still in flight: their controllers must not serve another client.
      const pending = client.callTool(slow).catch((e) => e);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await client.close();
      assert.equal((await pending)?.kind, "closed");
      client = await McpClient.connect(MCP_URL);
      for (let i = 0; i < 3; i++) await client.ping();
      assert.deepEqual(posts.filter((p) => p.abortedAtStart).map((p) => p.body), [], "a request went out with an aborted signal");
    } finally {
      globalThis.fetch = original;
      await client?.close();
    }
  });
});

describe("the headers option", () => {
  test("static headers go on every request, and ours win over theirs", LIMIT, async () => {
    const rec = recordingFetch();
    const client = await McpClient.connect(MCP_URL, {
      fetch: rec.fetch,
      headers: { "x-api-key": "k1", accept: "text/plain" },
    });
    await client.listTools();
    await client.close();
    assert.ok(rec.requests.length >= 5, "server/discover, initialize, initialized, tools/list, DELETE");
    for (const r of rec.requests) {
      assert.equal(r.headers["x-api-key"], "k1", `${r.method} ${r.body ?? ""}`);
      assert.match(r.headers.accept ?? "", /text\/event-stream/);
    }
  });

  test("a fetch that changes the headers it is given changes them for that request alone", LIMIT, async () => {
    // The client builds a POST's headers once and reuses them: a custom fetch gets a copy each time.
    const seen = [];
    const client = await McpClient.connect(MCP_URL, {
      fetch: (url, init) => {
        if (init.method === "POST") {
          seen.push({ count: init.headers.get("x-count"), session: init.headers.get("mcp-session-id"), version: init.headers.get("mcp-protocol-version") });
          init.headers.append("x-count", "1");
        }
        return fetch(url, init);
      },
    });
    await client.ping();
    await client.ping();
    await client.listTools();
    const session = client.sessionId;
    await client.close();
    assert.ok(seen.length >= 6, `${seen.length} POSTs`);
    assert.deepEqual(seen.map((s) => s.count), seen.map(() => null));
    const afterInitialize = seen.slice(-4);
    assert.deepEqual(afterInitialize.map((s) => s.session), afterInitialize.map(() => session));
    assert.deepEqual(afterInitialize.map((s) => s.version), afterInitialize.map(() => PROTOCOL));
  });

  test("a fetch that resolves to something not a Response fails that request alone", LIMIT, async () => {
    let broken = false;
    const client = await McpClient.connect(MCP_URL, {
      era: "legacy",
      fetch: (url, init) => (broken && init.method === "POST" ? Promise.resolve({ ok: true, status: 200 }) : fetch(url, init)),
    });
    broken = true;
    await assert.rejects(client.ping(), (e) => e instanceof McpClientError && e.kind === "protocol" && /not a Response/.test(e.message));
    await assert.rejects(client.callTool({ name: "echo", arguments: { message: "x" } }), (e) => e.kind === "protocol");
    broken = false;
    assert.match(textOf(await client.callTool({ name: "echo", arguments: { message: "still here" } })), /still here/);
    await client.close();
  });

  test("an async headers function is called before each request", LIMIT, async () => {
    const rec = recordingFetch();
    let calls = 0;
    const client = await McpClient.connect(MCP_URL, {
      fetch: rec.fetch,
      headers: async () => [["authorization", `Bearer token-${++calls}`]],
    });
    await client.ping();
    await client.close();
    const tokens = rec.requests.map((r) => r.headers.authorization);
    assert.deepEqual(tokens, rec.requests.map((_, i) => `Bearer token-${i + 1}`));
  });

  test("a headers function that throws fails the call with kind invalid-argument", LIMIT, async () => {
    await assert.rejects(
      McpClient.connect(MCP_URL, { headers: () => { throw new Error("no token"); } }),
      clientError("invalid-argument"),
    );
  });
});

describe("transport failures give typed errors", () => {
  // A peer that misbehaves in one way per path. Request bodies are read first so that the
  // JSON-RPC error can echo the id.
  const server = http.createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    const id = (() => { try { return JSON.parse(body).id ?? null; } catch { return null; } })();
    switch (req.url) {
      case "/status-500":
        res.writeHead(500, { "content-type": "text/plain" }).end("internal failure");
        break;
      case "/html":
        res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><p>not an MCP server</p>");
        break;
      case "/bad-json":
        res.writeHead(200, { "content-type": "application/json" }).end('{"jsonrpc":"2.0","id":');
        break;
      case "/never-ends-json":
        res.writeHead(200, { "content-type": "application/json" }).write('{"jsonrpc":"2.0",');
        break;
      case "/never-ends-sse":
        res.writeHead(200, { "content-type": "text/event-stream" }).write("id: 1\ndata: \n\n");
        break;
      case "/rpc-error":
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(
          { jsonrpc: "2.0", id, error: { code: -32042, message: "boom", data: { detail: 1 } } }));
        break;
      default:
        res.writeHead(404).end();
    }
  });
  let base;

  before(async () => {
    await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${server.address().port}`;
  });
  after(async () => {
    server.closeAllConnections(); // the never-ending responses
    await new Promise((resolve) => server.close(resolve));
  });

  test("nothing listening: kind network", LIMIT, async () => {
    // Bind and release an ephemeral port, so nothing listens on it.
    const probe = net.createServer();
    await new Promise((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address();
    await new Promise((resolve) => probe.close(resolve));
    await assert.rejects(McpClient.connect(`http://127.0.0.1:${port}/mcp`), clientError("network"));
  });

  test("HTTP 500: kind http with the status", LIMIT, async () => {
    await assert.rejects(McpClient.connect(`${base}/status-500`), clientError("http", { status: 500 }));
  });

  test("text/html response: kind protocol", LIMIT, async () => {
    await assert.rejects(McpClient.connect(`${base}/html`), clientError("protocol"));
  });

  test("malformed JSON body: kind protocol", LIMIT, async () => {
    await assert.rejects(McpClient.connect(`${base}/bad-json`), clientError("protocol"));
  });

  for (const path of ["/never-ends-json", "/never-ends-sse"]) {
    test(`a body that never ends (${path}): kind timeout`, LIMIT, async () => {
      const started = Date.now();
      await assert.rejects(McpClient.connect(`${base}${path}`, { timeout: 500 }), clientError("timeout"));
      assert.ok(Date.now() - started < 5000, `timeout took ${Date.now() - started} ms`);
    });
  }

  test("a JSON-RPC error response rejects with McpError", LIMIT, async () => {
    await assert.rejects(McpClient.connect(`${base}/rpc-error`), (err) => {
      assert.ok(err instanceof McpError, `expected McpError, got ${err?.name}: ${err?.message}`);
      assert.equal(err.name, "McpError");
      assert.equal(err.code, -32042);
      assert.match(err.message, /boom/);
      assert.deepEqual(err.data, { detail: 1 });
      return true;
    });
  });
});

// JSON objects keep their key order across the boundary, as JSON.parse keeps it: a
// form generated from a schema lists the fields in the order the server wrote them.
test("object keys reach handlers in the server's order", LIMIT, async () => {
  let keys;
  const client = await McpClient.connect(MCP_URL, {
    handlers: { elicitation: (params) => { keys = Object.keys(params.requestedSchema.properties); return { action: "decline" }; } },
  });
  await client.callTool({ name: "trigger-elicitation-request", arguments: {} });
  assert.deepEqual(keys.slice(0, 4), ["name", "check", "firstLine", "email"]);
  await client.close();
});

// A handler declares both elicitation modes; `null` in `capabilities` takes one away, and
// what goes out stays valid against the schema: an SDK server refused `"url": null` at
// initialize. (The refusal of a URL request the client did not declare is a native test:
// server-everything sends none to such a client.)
test("a form-only elicitation client: url: null declares form alone, and an SDK server takes it", LIMIT, async () => {
  const rec = recordingFetch();
  const modes = [];
  const client = await McpClient.connect(MCP_URL, {
    fetch: rec.fetch,
    capabilities: { elicitation: { url: null } },
    handlers: { elicitation: (params) => (modes.push(params.mode ?? "form"), { action: "decline" }) },
  });
  try {
    const declared = rec.messages().find((m) => m.method === "initialize").params.capabilities;
    assert.deepEqual(declared.elicitation, { form: {} });
    const { tools } = await client.listTools();
    assert.ok(!tools.some((t) => t.name === "trigger-url-elicitation"), "the server offers URL elicitation only to a client that declares it");
    await client.callTool({ name: "trigger-elicitation-request", arguments: {} });
    assert.deepEqual(modes, ["form"]);
  } finally {
    await client.close();
  }
});

// A DOMException's `code` is its legacy number, not a JSON-RPC code: a handler that gives up
// with `AbortSignal.timeout()`'s reason answers with −32603, not 23.
test("a handler rejecting with a DOMException answers with an internal error, not its legacy code", LIMIT, async () => {
  const rec = recordingFetch();
  const client = await McpClient.connect(MCP_URL, {
    fetch: rec.fetch,
    handlers: { elicitation: () => Promise.reject(new DOMException("the person took too long", "TimeoutError")) },
  });
  try {
    await client.callTool({ name: "trigger-elicitation-request", arguments: {} }).catch(() => {});
    const answer = rec.messages().find((m) => m.method === undefined && m.error);
    assert.equal(answer?.error.code, -32603, JSON.stringify(answer));
    assert.match(answer.error.message, /took too long/);
  } finally {
    await client.close();
  }
});

test("a handler that throws something other than an Error answers with what it threw", LIMIT, async () => {
  for (const [thrown, expected] of [[undefined, "the handler threw undefined"], [{ reason: "busy" }, '{"reason":"busy"}'], ["no model", "no model"]]) {
    const rec = recordingFetch();
    const client = await McpClient.connect(MCP_URL, { fetch: rec.fetch, handlers: { elicitation: () => { throw thrown; } } });
    try {
      await client.callTool({ name: "trigger-elicitation-request", arguments: {} }).catch(() => {});
      const answer = rec.messages().find((m) => m.method === undefined && m.error);
      assert.equal(answer?.error.message, expected, JSON.stringify(answer));
    } finally {
      await client.close();
    }
  }
});

// A `fetch` of the caller's that throws something other than an Error: the call fails with what
// was thrown, in words (its JSON, or String() of what JSON cannot hold), and the client goes on.
test("a fetch that throws something other than an Error fails the call with what it threw", LIMIT, async () => {
  let thrown;
  const client = await McpClient.connect(MCP_URL, {
    fetch: (url, init) => {
      if (thrown !== undefined && init.method === "POST" && String(init.body).includes('"tools/call"')) throw thrown.value;
      return fetch(url, init);
    },
  });
  try {
    const cases = [[{ blocked: "by policy" }, '{"blocked":"by policy"}'], [404, "404"], [Symbol("offline"), "Symbol(offline)"], [undefined, "undefined"]];
    for (const [value, words] of cases) {
      thrown = { value };
      const error = await client.callTool({ name: "echo", arguments: { message: "hi" } }).then(() => undefined, (e) => e);
      assert.equal(error?.kind, "network", String(error));
      assert.ok(error.message.includes(words), error.message);
      assert.doesNotMatch(error.message, /JsValue/);
    }
    thrown = undefined;
    const result = await client.callTool({ name: "echo", arguments: { message: "still here" } });
    assert.match(result.content[0].text, /still here/);
  } finally {
    await client.close();
  }
});
