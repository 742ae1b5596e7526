// The core in two halves (scripts/split): when the primary reaches a function of the
// rest before the rest has loaded, it loads the rest synchronously through the entry's
// `sync` loader and goes on. In a process of its own, where the rest is not loaded yet.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { McpClient } from "mcp-wasm";
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
  const errors = [];
  client.addEventListener("error", (event) => errors.push(event.error));
  // Reporting an error from JS (as the task methods do) is code a first call never runs.
  client.__reportError(new Error("reported"));
  assert.equal(loads, 1);
  assert.equal(__restReady(), true);
  assert.equal(errors.length, 1);
  const result = await client.callTool({ name: "echo", arguments: { message: "after" } });
  assert.match(result.content[0].text, /after/);
  await client.close();
  assert.equal(loads, 1);
});
