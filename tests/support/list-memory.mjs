// wasm linear memory, which never shrinks, in MiB (the large-results and list-memory tests); and, for
// the list-memory tests, the benchmark server (the official SDK 1.x Server, bench/server.mjs, started
// by the caller's `before`), whose 2,003 tools are all marked idempotent, so that the client keeps every name.
import assert from "node:assert/strict";
import { after, before } from "node:test";
import { McpClient } from "mcp-wasm";
import { initSync } from "mcp-wasm/raw";
import { startPeer } from "./peer-process.mjs";

/** The benchmark server's origin, once `before` has run; stopped by `after`. */
export function benchServer() {
  const server = { origin: undefined, child: undefined };
  before(async () => {
    ({ child: server.child, origin: server.origin } = await startPeer("bench/server.mjs"));
  });
  after(() => server.child?.kill("SIGTERM"));
  return server;
}

/** How large wasm linear memory is, in MiB. */
export const wasmMiB = () => initSync().memory.buffer.byteLength / 2 ** 20;

/** Lists the 2,003 tools three times, then all of them, from `endpoint`. */
export async function listTools(endpoint) {
  const client = await McpClient.connect(endpoint, { era: "legacy" });
  try {
    for (let i = 0; i < 3; i++) assert.equal((await client.listTools()).tools.length, 2003);
    assert.equal((await client.listAllTools()).length, 2003);
  } finally {
    await client.close();
  }
}
