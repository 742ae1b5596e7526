// A 2 MiB tools/list in a fresh process: how far it takes wasm linear memory, which never shrinks,
// above where the package starts. Against the benchmark server (the official SDK 1.x Server,
// bench/server.mjs, started here), whose 2,003 tools are all marked idempotent, so the client keeps
// every name. Its own file: the other large results would have set the high-water mark first.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startPeer } from "../support/peer-process.mjs";
import { McpClient } from "mcp-wasm";
import { initSync } from "mcp-wasm/raw";

let server;
let url;
before(async () => {
  let origin;
  ({ child: server, origin } = await startPeer("bench/server.mjs"));
  url = `${origin}/mcp`;
});
after(() => server?.kill("SIGTERM"));

const wasmMiB = () => initSync().memory.buffer.byteLength / 2 ** 20;

test("listing 2,003 tools takes wasm memory less than 1 MiB above a fresh package's", { timeout: 60_000 }, async () => {
  const fresh = wasmMiB();
  const client = await McpClient.connect(url, { era: "legacy" });
  try {
    for (let i = 0; i < 3; i++) assert.equal((await client.listTools()).tools.length, 2003);
    assert.equal((await client.listAllTools()).length, 2003);
  } finally {
    await client.close();
  }
  // The page's text without its descriptions and schemas (268 KB), the places of each tool's members
  // and the names the client keeps: 1.3 MiB above fresh while each tool's facts were gathered in a list
  // of their own and the names' map grew by doubling, 0.9 MiB since.
  const grown = wasmMiB() - fresh;
  assert.ok(grown < 1, `wasm memory grew ${grown} MiB, from ${fresh}`);
});
