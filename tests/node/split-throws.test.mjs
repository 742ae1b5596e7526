// The core in two halves (scripts/split, pkg-template/rest-gate.js): what a method of
// the rest used to throw at once, it still throws at once before the rest has loaded
// (its error may load the rest synchronously on the way). In a process of its own.
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpClient, McpClientError } from "mcp-wasm";
import { __restReady } from "mcp-wasm/raw";

const URL_ = process.env.MCP_TEST_URL ?? "http://127.0.0.1:38011/mcp";

test("an iterator's bad options and a closed client's suspend() throw at once", { timeout: 30_000 }, async () => {
  const client = await McpClient.connect(URL_);
  assert.equal(__restReady(), false);
  assert.throws(() => client.iterateTools({ timeout: "soon" }), (e) => e instanceof McpClientError && e.kind === "invalid-argument");
  await client.close();
  assert.throws(() => client.suspend(), (e) => e instanceof McpClientError && e.kind === "closed");
});
