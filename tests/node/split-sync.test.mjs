// The core in two halves (scripts/split): when the primary reaches a function of the
// rest before the rest has loaded, it loads the rest synchronously through the entry's
// `sync` loader and goes on. In a process of its own, where the rest is not loaded yet.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { McpClient, UriTemplate } from "mcp-wasm";
import { __restReady, __setRestLoader } from "mcp-wasm/raw";

const URL_ = process.env.MCP_TEST_URL ?? "http://127.0.0.1:38011/mcp";

test("the primary loads the rest synchronously when it first reaches it", { timeout: 30_000 }, async () => {
  let loads = 0;
  __setRestLoader({
    sync: () => {
      loads += 1;
      return readFileSync(new URL("../../pkg/mcp_wasm_rest_bg.wasm", import.meta.url));
    },
  });
  const client = await McpClient.connect(URL_);
  assert.equal(__restReady(), false);
  // URI templates are code of the rest, and their methods are synchronous.
  const template = new UriTemplate("file:///{+path}{?q}");
  assert.equal(loads, 1);
  assert.equal(__restReady(), true);
  assert.equal(template.expand({ path: "a/b", q: "x" }), "file:///a/b?q=x");
  assert.deepEqual(template.match("file:///a/b?q=x"), { path: "a/b", q: "x" });
  const result = await client.callTool({ name: "echo", arguments: { message: "after" } });
  assert.match(result.content[0].text, /after/);
  await client.close();
  assert.equal(loads, 1);
});
