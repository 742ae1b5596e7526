// McpHost's registry (pkg-template/host-run.js) is a module of its own: what a host does
// when it cannot be loaded, and that the next call loads it. A copy of the package without
// that file stands in for a network that failed; the file is then put back.
import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const URL_ = process.env.MCP_TEST_URL ?? "http://127.0.0.1:38011/mcp";

test("a host whose registry fails to load rejects with network, stays usable, and loads it on the next call", { timeout: 30_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "mcp-wasm-host-load-"));
  try {
    cpSync(new URL("../../pkg/", import.meta.url), dir, { recursive: true });
    renameSync(join(dir, "host-run.js"), join(dir, "host-run.js.away"));
    const { McpHost } = await import(pathToFileURL(join(dir, "node.js")).href);

    const host = new McpHost();
    const added = host.addServer("everything", URL_);
    assert.deepEqual(host.servers(), [{ name: "everything", url: URL_, status: "connecting" }]);
    await assert.rejects(added, (e) => e.kind === "network" && /host-run\.js/.test(e.message));
    assert.deepEqual(host.servers(), [], "a server whose addition failed is not kept");
    await assert.rejects(host.listAllTools(), (e) => e.kind === "network");
    await assert.rejects(McpHost.connect({ everything: { url: URL_ } }), (e) => e.kind === "network");

    renameSync(join(dir, "host-run.js.away"), join(dir, "host-run.js"));
    const state = await host.addServer("everything", URL_);
    assert.equal(state.status, "connected");
    const tool = (await host.listAllTools()).find((t) => t.serverName === "echo");
    assert.ok(tool, "the registry lists the server's tools");
    const echo = await host.callTool(tool.name, { message: "after a failed load" });
    assert.equal(echo.content[0].text, "Echo: after a failed load");
    await host.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
