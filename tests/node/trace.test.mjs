// The `trace` option of McpClient and McpHost, and McpHost.renameServer,
// against server-everything: every message in and out is seen once, in order,
// with its size; a rename moves the registry and what later entries say.
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpClient, McpHost } from "mcp-wasm";

const URL_ = process.env.MCP_TEST_URL ?? "http://127.0.0.1:38011/mcp";
const LIMIT = { timeout: 30_000 };

test("McpClient trace: the handshake and a call, out and in, with JSON text and byte sizes", LIMIT, async () => {
  const seen = [];
  const client = await McpClient.connect(URL_, { era: "legacy", trace: (entry) => seen.push(entry) });
  try {
    const handshake = seen.map((e) => `${e.direction} ${e.method ?? `#${e.id}`}`);
    assert.deepEqual(handshake.slice(0, 3), ["out initialize", `in #${seen[0].id}`, "out notifications/initialized"]);
    const before = seen.length;
    const result = await client.callTool({ name: "get-sum", arguments: { a: 40, b: 2 } });
    const call = seen.slice(before);
    const request = call.find((e) => e.direction === "out" && e.method === "tools/call");
    const response = call.find((e) => e.direction === "in" && e.id === request.id && e.method === undefined);
    assert.ok(request && response, JSON.stringify(call.map((e) => [e.direction, e.method, e.id])));
    assert.deepEqual(JSON.parse(request.json).params, { name: "get-sum", arguments: { a: 40, b: 2 } });
    assert.deepEqual(JSON.parse(response.json).result.content, result.content);
    for (const entry of seen) {
      assert.equal(entry.bytes, Buffer.byteLength(entry.json, "utf8"));
      assert.equal(JSON.parse(entry.json).jsonrpc, "2.0");
    }
  } finally {
    await client.close();
  }
});

test("McpClient trace: a function that throws is an error event, and the client goes on", LIMIT, async () => {
  const errors = [];
  let calls = 0;
  const client = await McpClient.connect(URL_, { era: "legacy", trace: () => { calls += 1; throw new Error("trace broke"); } });
  try {
    client.addEventListener("error", (event) => errors.push(event.error));
    await client.ping();
    assert.ok(calls >= 5, `${calls} messages traced`);
    assert.ok(errors.some((e) => e?.message === "trace broke"));
  } finally {
    await client.close();
  }
  await assert.rejects(McpClient.connect(URL_, { trace: "yes" }), (e) => e.kind === "invalid-argument" && /trace/.test(e.message));
});

test("McpHost: trace names the server; renameServer moves the registry and later trace entries", LIMIT, async () => {
  const seen = [];
  const changes = [];
  const host = new McpHost({ trace: (entry) => seen.push(entry), clientOptions: { era: "legacy" } });
  try {
    await host.addServer("first", URL_);
    await host.addServer("second", URL_);
    host.addEventListener("change", (event) => changes.push([event.reason, event.server, event.previous]));
    assert.ok(seen.some((e) => e.server === "first" && e.method === "initialize"));
    assert.ok(seen.some((e) => e.server === "second" && e.method === "initialize"));

    assert.throws(() => host.renameServer("first", "second"), (e) => e.kind === "invalid-argument" && /already/.test(e.message));
    assert.throws(() => host.renameServer("nobody", "x"), (e) => e.kind === "invalid-argument");
    assert.throws(() => host.renameServer("first", ""), (e) => e.kind === "invalid-argument");
    const state = host.renameServer("first", "everything");
    assert.equal(state.name, "everything");
    assert.equal(state.status, "connected");
    assert.deepEqual(host.servers().map((s) => s.name), ["everything", "second"], "the order is kept");
    assert.deepEqual(changes, [["renamed", "everything", "first"]]);
    assert.ok(host.tools.some((t) => t.name === "everything__get-sum" && t.server === "everything"));
    assert.ok(!host.tools.some((t) => t.server === "first"));
    assert.equal(await host.toolServer("everything__get-sum"), "everything");

    const before = seen.length;
    const result = await host.callTool("everything__get-sum", { a: 1, b: 2 });
    assert.match(result.content[0].text, /3/);
    const after = seen.slice(before);
    assert.ok(after.some((e) => e.server === "everything" && e.method === "tools/call"));
    assert.ok(after.every((e) => e.server !== "first"));
    assert.equal(host.renameServer("everything", "everything").name, "everything", "the same name changes nothing");
    assert.equal(changes.length, 1);
    assert.equal(await host.removeServer("everything"), true);
    assert.equal(host.client("first"), undefined);
  } finally {
    await host.close();
  }
});

test("McpHost: handlers are told the server's current name after a rename", LIMIT, async () => {
  const asked = [];
  const host = new McpHost({
    clientOptions: { era: "legacy" },
    handlers: {
      sampling: (params, ctx) => {
        asked.push(ctx.server);
        return { role: "assistant", model: "scripted", content: { type: "text", text: `sampled for ${ctx.server}` } };
      },
    },
  });
  try {
    await host.addServer("before", URL_);
    host.renameServer("before", "after");
    const result = await host.callTool("after__trigger-sampling-request", { prompt: "hi" });
    assert.match(result.content.map((c) => c.text ?? "").join(""), /sampled for after/);
    assert.deepEqual(asked, ["after"]);
  } finally {
    await host.close();
  }
  assert.throws(() => new McpHost({ trace: 5 }), (e) => e.kind === "invalid-argument");
});
