// `mcp-wasm/raw` initialised by hand, without an entry (no loaders, no rest-gate.js): the
// primary with initSync, then the rest and OAuth's module with initRestSync. In a process of
// its own, as every test file, so nothing initialised the package before.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { McpClient, __oauthReady, __restReady, initRestSync, initSync } from "mcp-wasm/raw";

const URL_ = process.env.MCP_TEST_URL ?? "http://127.0.0.1:38011/mcp";
const file = (name) => readFileSync(new URL(`../../pkg/${name}`, import.meta.url));

test("mcp-wasm/raw: initSync, then initRestSync with the OAuth module, and a client with auth lists and calls", { timeout: 30_000 }, async () => {
  initSync({ module: file("mcp_wasm_bg.wasm") });
  assert.equal(__restReady(), false);
  initRestSync({ module: file("mcp_wasm_rest_bg.wasm"), oauth: file("mcp_wasm_oauth_bg.wasm") });
  assert.equal(__restReady(), true);
  assert.equal(__oauthReady(), true);
  // server-everything asks for no authorization: auth is read and its flow made, unused.
  const client = await McpClient.connect(URL_, { auth: { clientId: "raw", redirectUri: "http://127.0.0.1:1/cb", authorize: () => {} } });
  try {
    assert.ok((await client.listTools()).tools.some((tool) => tool.name === "echo"));
    assert.equal((await client.callTool({ name: "echo", arguments: { message: "raw" } })).content[0].text, "Echo: raw");
  } finally {
    await client.close();
  }
});
