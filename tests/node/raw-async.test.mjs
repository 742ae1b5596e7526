// `mcp-wasm/raw` initialised by hand, without an entry: the primary with initSync, then the rest
// with initRest, OAuth's module left out (`oauth: null`) and loaded by a second initRest. In a
// process of its own, as every test file.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { McpClient, __oauthReady, __restReady, __validatorReady, initRest, initRestSync, initSync } from "mcp-wasm/raw";

const URL_ = process.env.MCP_TEST_URL ?? "http://127.0.0.1:38011/mcp";
const file = (name) => readFileSync(new URL(`../../pkg/${name}`, import.meta.url));

test("mcp-wasm/raw: initRest fetches what it is given, and leaves OAuth's and the validator's modules for later when told", { timeout: 30_000 }, async () => {
  initSync({ module: file("mcp_wasm_bg.wasm") });
  await initRest({ module_or_path: file("mcp_wasm_rest_bg.wasm"), oauth: null, validator: null });
  assert.equal(__restReady(), true);
  assert.equal(__oauthReady(), false, "oauth: null leaves the OAuth module out");
  assert.equal(__validatorReady(), false, "validator: null leaves the validator's module out");
  const plain = await McpClient.connect(URL_);
  assert.ok((await plain.listTools()).tools.some((tool) => tool.name === "echo"));
  await plain.close();
  initRestSync({ module: file("mcp_wasm_rest_bg.wasm"), oauth: null });
  assert.equal(__oauthReady(), false, "initRestSync's oauth: null leaves it out too");
  await initRest({ oauth: Promise.resolve(file("mcp_wasm_oauth_bg.wasm")), validator: file("mcp_wasm_validator_bg.wasm") });
  assert.equal(__oauthReady(), true);
  assert.equal(__validatorReady(), true);
  const client = await McpClient.connect(URL_, { auth: { clientId: "raw", redirectUri: "http://127.0.0.1:1/cb", authorize: () => {} } });
  try {
    assert.equal((await client.callTool({ name: "echo", arguments: { message: "raw" } })).content[0].text, "Echo: raw");
  } finally {
    await client.close();
  }
});
