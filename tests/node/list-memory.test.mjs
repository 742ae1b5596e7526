// A 2 MiB tools/list as JSON bodies, in a fresh process: how far it takes wasm linear memory above
// where the package starts. Its own file, as the other large results would have set the mark first.
import { test } from "node:test";
import assert from "node:assert/strict";
import { benchServer, listTools, wasmMiB } from "../support/list-memory.mjs";

const server = benchServer();

test("listing 2,003 tools as JSON bodies takes wasm memory less than 1 MiB above a fresh package's", { timeout: 60_000 }, async () => {
  const fresh = wasmMiB();
  await listTools(`${server.origin}/mcp`);
  // The page's text without its descriptions and schemas (268 KB), the places of each tool's members
  // and the names the client keeps: 1.3 MiB above fresh while each tool's facts were gathered in a list
  // of their own and the names' map grew by doubling, 0.9 MiB since.
  const grown = wasmMiB() - fresh;
  assert.ok(grown < 1, `wasm memory grew ${grown} MiB, from ${fresh}`);
});
