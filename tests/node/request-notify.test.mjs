// client.request and client.notify, for methods the library does not wrap, through the built
// package against server-everything (Streamable HTTP, started by scripts/peers.sh): results as the
// server sent them, the server's errors, the request options (progress, timeout, abort with the
// cancellation sent), and a notification the server acts on.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { McpClient } from "mcp-wasm";

const URL_ = process.env.MCP_TEST_URL ?? "http://127.0.0.1:38011/mcp";
const LIMIT = { timeout: 30_000 };

/** A `fetch` that keeps the JSON-RPC messages the client posted. */
function recordingFetch() {
  const posted = [];
  const record = async (input, init) => {
    const request = new Request(input, init);
    if (request.method === "POST") posted.push(JSON.parse(await request.clone().text()));
    return fetch(request);
  };
  return { fetch: record, posted };
}

async function withClient(options, use) {
  const client = await McpClient.connect(URL_, { timeout: 10_000, ...options });
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

const until = async (condition, ms, what) => {
  for (const end = Date.now() + ms; !condition(); await new Promise((r) => setTimeout(r, 25))) {
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
  }
};

describe("request and notify against server-everything", () => {
  test("results come back as the server sent them", LIMIT, () => withClient({}, async (client) => {
    const listed = await client.request("tools/list");
    const wrapped = await client.listTools();
    assert.deepEqual(listed.tools.map((t) => t.name), wrapped.tools.map((t) => t.name));
    assert.ok(listed.tools.some((t) => t.name === "get-sum"));
    assert.deepEqual(await client.request("ping"), {}, "ping's empty result");
    const sum = await client.request("tools/call", { name: "get-sum", arguments: { a: 2, b: 3 } });
    assert.match(sum.content[0].text, /\b5\b/, sum.content[0].text);
  }));

  test("an unknown method is the server's -32601, as an McpError", LIMIT, () => withClient({}, async (client) => {
    await assert.rejects(client.request("no/such-method", { x: 1 }), (e) => e.name === "McpError" && e.code === -32601);
    assert.deepEqual(await client.request("ping"), {}, "the client goes on");
  }));

  test("the request options: progress, a timeout, and an abort that cancels on the server", LIMIT, async () => {
    const record = recordingFetch();
    await withClient({ fetch: record.fetch }, async (client) => {
      const progress = [];
      const done = await client.request("tools/call", { name: "trigger-long-running-operation", arguments: { duration: 1, steps: 2 } },
        { onprogress: (p) => progress.push(`${p.progress}/${p.total}`) });
      assert.deepEqual(progress, ["1/2", "2/2"]);
      assert.match(done.content[0].text, /completed/i, done.content[0].text);

      await assert.rejects(client.request("tools/call", { name: "trigger-long-running-operation", arguments: { duration: 5, steps: 5 } }, { timeout: 200 }),
        (e) => e.name === "McpClientError" && e.kind === "timeout");

      const controller = new AbortController();
      const reason = new Error("the user gave up");
      const call = client.request("tools/call", { name: "trigger-long-running-operation", arguments: { duration: 5, steps: 5 } }, { signal: controller.signal });
      setTimeout(() => controller.abort(reason), 300);
      await assert.rejects(call, (e) => e === reason, "rejects with the signal's own reason");
      const aborted = record.posted.filter((m) => m.method === "tools/call").at(-1);
      await until(() => record.posted.some((m) => m.method === "notifications/cancelled" && m.params.requestId === aborted.id), 2_000,
        "notifications/cancelled for the aborted request");
      assert.deepEqual(await client.request("ping"), {}, "the client goes on");
    });
  });

  test("notify reaches the server: roots/list_changed makes it ask for the roots again", LIMIT, async () => {
    let asked = 0;
    await withClient({ handlers: { roots: () => { asked += 1; return [{ uri: "file:///tmp/project", name: "project" }]; } } }, async (client) => {
      await until(() => asked === 1, 5_000, "the server's first roots/list");
      await new Promise((r) => setTimeout(r, 400));
      assert.equal(asked, 1, "the server does not ask again by itself");
      await client.notify("notifications/roots/list_changed");
      await until(() => asked === 2, 5_000, "a roots/list after the notification");
    });
  });
});
