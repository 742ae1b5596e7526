// McpHost under Node over the three real servers (tests/host/scenarios.mjs;
// the same scenarios run in headless Chromium in the browser-host tier).
import { test } from "node:test";
import assert from "node:assert/strict";
import * as mcp from "mcp-wasm";
import { SCENARIOS } from "../host/scenarios.mjs";

const LIMIT = { timeout: 60_000 };

for (const [name, scenario] of Object.entries(SCENARIOS)) {
  test(`McpHost: ${name}`, LIMIT, async () => {
    const checks = await scenario(mcp);
    assert.ok(checks.length > 0);
  });
}

test("McpHost refuses bad input with typed errors", async () => {
  assert.throws(() => new mcp.McpHost({ naming: { rules: "cobol" } }), (e) => e.kind === "invalid-argument" && /naming.rules/.test(e.message));
  assert.throws(() => new mcp.McpHost({ handlers: { sampling: 5 } }), (e) => e.kind === "invalid-argument");
  const host = new mcp.McpHost();
  await assert.rejects(host.addServer("", "http://127.0.0.1:38011/mcp"), (e) => e.kind === "invalid-argument");
  await assert.rejects(host.addServer("x", 42), (e) => e.kind === "invalid-argument");
  await assert.rejects(mcp.McpHost.resume({ format: 9 }), (e) => e.kind === "invalid-argument");
  await assert.rejects(mcp.McpClient.resume({ format: 1, url: "http://127.0.0.1:38011/mcp", era: "legacy" }), (e) => e.kind === "invalid-argument" && /snapshot\./.test(e.message));
  assert.throws(() => mcp.qualifiedNames([["a"]]), (e) => e.kind === "invalid-argument");
  await assert.rejects(mcp.McpHost.connect({ good: { url: "http://127.0.0.1:38011/mcp" }, bad: {} }), (e) => e.kind === "invalid-argument" && /bad/.test(e.message));
  await host.close();
  await host.close();
});
