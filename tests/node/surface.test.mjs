// The 2025-11-25 surface through the built package under Node, against
// server-everything: what differs from the browser (Node reports an exception
// thrown by an EventTarget listener as uncaught; ours must not be), and the
// pieces that need no server (UriTemplate).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { McpClient, McpClientError, McpNotificationEvent, UriTemplate } from "mcp-wasm";

const MCP_URL = process.env.MCP_TEST_URL ?? "http://127.0.0.1:38011/mcp";
const LIMIT = { timeout: 20_000 };

describe("events under Node", () => {
  test("a throwing listener becomes an error event, and the process lives on", LIMIT, async () => {
    const uncaught = [];
    const onUncaught = (e) => uncaught.push(e);
    process.on("uncaughtException", onUncaught);
    const client = await McpClient.connect(MCP_URL);
    try {
      const errors = [];
      const messages = [];
      client.addEventListener("error", (e) => errors.push(e.error));
      client.addEventListener("notifications/message", () => { throw new Error("listener bug"); });
      client.addEventListener("notifications/message", (e) => {
        assert.ok(e instanceof McpNotificationEvent);
        messages.push(e.params);
      });
      await client.setLoggingLevel("debug");
      // Subscribing makes server-everything log at info level, on the request's stream.
      await client.subscribeResource({ uri: "demo://resource/static/document/architecture.md" });
      for (let i = 0; i < 100 && messages.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      assert.ok(messages.length > 0, "the log message arrived");
      assert.ok(errors.some((e) => e.message === "listener bug"));
      await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual(uncaught, []);
    } finally {
      process.off("uncaughtException", onUncaught);
      await client.close();
    }
  });

  test("once and signal remove listeners", LIMIT, async () => {
    const client = await McpClient.connect(MCP_URL);
    const seen = { once: 0, aborted: 0 };
    const controller = new AbortController();
    client.addEventListener("close", () => seen.once++, { once: true });
    client.addEventListener("close", () => seen.aborted++, { signal: controller.signal });
    controller.abort();
    await client.close();
    assert.deepEqual(seen, { once: 1, aborted: 0 });
  });
});

describe("UriTemplate", () => {
  test("expands and matches the server's resource template", LIMIT, async () => {
    const client = await McpClient.connect(MCP_URL);
    try {
      const templates = await client.listAllResourceTemplates();
      const text = templates.find((t) => t.uriTemplate.includes("/dynamic/text/"));
      const template = new UriTemplate(text.uriTemplate);
      assert.deepEqual(template.variableNames, ["resourceId"]);
      const uri = template.expand({ resourceId: 3 });
      assert.equal(uri, "demo://resource/dynamic/text/3");
      assert.deepEqual(template.match(uri), { resourceId: "3" });
      const read = await client.readResource({ uri });
      assert.equal(read.contents[0].uri, uri);
    } finally {
      await client.close();
    }
  });

  test("levels 1 to 4 and bad input", () => {
    const t = new UriTemplate("/search{/path*}{?q,tags*}");
    assert.equal(t.expand({ path: ["a", "b c"], q: "é", tags: ["x", "y"] }), "/search/a/b%20c?q=%C3%A9&tags=x&tags=y");
    assert.deepEqual(t.match("/search/a/b%20c?q=%C3%A9&tags=x&tags=y"), { path: ["a", "b c"], q: "é", tags: ["x", "y"] });
    assert.equal(t.match("/elsewhere"), null);
    assert.throws(() => new UriTemplate("{unclosed"), (e) => e instanceof McpClientError && e.kind === "invalid-argument");
    assert.throws(() => t.expand({ q: () => 1 }), (e) => e.kind === "invalid-argument");
  });
});
