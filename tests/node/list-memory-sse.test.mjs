// A 2 MiB tools/list as SSE answers, in a fresh process: how far it takes wasm linear memory above
// where the package starts. Its own file, as the other large results would have set the mark first.
import { test } from "node:test";
import assert from "node:assert/strict";
import { benchServer, listTools, wasmMiB } from "../support/list-memory.mjs";

const server = benchServer();

test("listing 2,003 tools as SSE answers takes wasm memory less than 1.6 MiB above a fresh package's, and JSON bodies after them no more", { timeout: 60_000 }, async () => {
  const fresh = wasmMiB();
  // An SSE answer's length is not known before its end: the text the checks read grew by doubling
  // (1.7 MiB above fresh), and grows by half again since (1.0–1.3 MiB). Where the chunks fall moves it
  // by a step: 1.5625 MiB once in a loaded CI run (bench/analysis.md, thirty-fifth round).
  await listTools(`${server.origin}/mcp-stream`);
  const streamed = wasmMiB() - fresh;
  assert.ok(streamed < 1.6, `wasm memory grew ${streamed} MiB over SSE, from ${fresh}`);
  await listTools(`${server.origin}/mcp`);
  const both = wasmMiB() - fresh;
  assert.ok(both < 1.6, `wasm memory grew ${both} MiB after JSON bodies too, from ${fresh}`);
});
