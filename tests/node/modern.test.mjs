// The 2026-07-28 era under Node, through the built package, against the
// peers built on @modelcontextprotocol/server 2.x: era detection outside a
// browser, and the errors a modern server answers with.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { McpClient } from "mcp-wasm";

const MODERN = process.env.MCP_MODERN_TEST_URL ?? "http://127.0.0.1:38013/mcp";
const DUAL = process.env.MCP_DUAL_TEST_URL ?? "http://127.0.0.1:38016/mcp";
const LEGACY = process.env.MCP_TEST_URL ?? "http://127.0.0.1:38011/mcp";
const LIMIT = { timeout: 20_000 };

describe("the 2026-07-28 era under Node", () => {
  test("each server gets its era", LIMIT, async () => {
    for (const [url, era] of [[MODERN, "modern"], [DUAL, "modern"], [LEGACY, "legacy"]]) {
      const client = await McpClient.connect(url, { timeout: 5_000 });
      assert.equal(client.era, era, url);
      await client.close();
    }
  });

  test("outside a browser, a network error is no legacy evidence", LIMIT, async () => {
    await assert.rejects(McpClient.connect("http://127.0.0.1:9/mcp", { timeout: 2_000 }),
      (e) => e.name === "McpClientError" && e.kind === "network");
  });

  test("input the client has no handler for: the server's -32021 is a typed error", LIMIT, async () => {
    const client = await McpClient.connect(MODERN, { timeout: 5_000 });
    try {
      await assert.rejects(client.callTool({ name: "ask-user" }),
        (e) => e.name === "McpClientError" && e.kind === "missing-capability" && /elicitation/.test(e.message));
    } finally {
      await client.close();
    }
  });

  test("pinning a legacy revision on a modern-only server is refused with the versions it speaks", LIMIT, async () => {
    await assert.rejects(McpClient.connect(MODERN, { protocolVersion: "2025-11-25", timeout: 5_000 }),
      (e) => e.name.startsWith("Mcp") && /2026-07-28/.test(e.message));
  });

  test("the response cache keeps a private result per caller, whoever the headers function names", LIMIT, async () => {
    let caller = "alice";
    const reads = [];
    const client = await McpClient.connect(MODERN, {
      timeout: 5_000,
      cache: true,
      headers: () => ({ authorization: `Bearer ${caller}` }),
      fetch: (input, init) => {
        if (typeof init?.body === "string" && init.body.includes('"resources/read"')) reads.push(caller);
        return fetch(input, init);
      },
    });
    const whoami = async () => (await client.readResource({ uri: "demo://whoami" })).contents[0].text;
    try {
      assert.equal(await whoami(), "authorization: Bearer alice");
      assert.equal(await whoami(), "authorization: Bearer alice");
      caller = "bob";
      assert.equal(await whoami(), "authorization: Bearer bob", "bob never sees alice's private entry");
      assert.equal(await whoami(), "authorization: Bearer bob");
      caller = "alice";
      assert.equal(await whoami(), "authorization: Bearer alice");
      assert.deepEqual(reads, ["alice", "bob"], "each caller's entry serves that caller");
    } finally {
      await client.close();
    }
  });
});

// A client asked for the initialize era, against a server that speaks 2026-07-28 alone: the server
// refuses `initialize` with -32022 and the versions it speaks, which the error names (where it used
// to quote the refusal's whole text as the version).
test("era legacy against a 2026-07-28 server fails naming the version the server speaks", LIMIT, async () => {
  const error = await McpClient.connect(MODERN, { era: "legacy", timeout: 5_000 }).then(() => undefined, (e) => e);
  assert.equal(error?.kind, "unsupported-version", String(error));
  assert.equal(error.message, 'the server answered with protocol version "2026-07-28", which this connection did not offer (see the era option)');
});
