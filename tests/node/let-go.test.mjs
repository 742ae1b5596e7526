// A client the page lets go of without closing it: once the garbage collector finalizes
// it, the streams its connection held open are released, in each era and transport,
// against server-everything and the 2026-07-28 peer. The session itself is left to the
// server (no DELETE), as `suspend()` leaves it, so a snapshot taken earlier still resumes.
// The file runs in a process of its own, so the rest of the core is not loaded here.
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpClient } from "mcp-wasm";
import { __restReady } from "mcp-wasm/raw";
import { collectGarbage } from "../support/gc.mjs";

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const SERVERS = [
  process.env.MCP_TEST_URL ?? "http://127.0.0.1:38011/mcp",
  process.env.MCP_SSE_TEST_URL ?? "http://127.0.0.1:38012/sse",
  process.env.MCP_MODERN_TEST_URL ?? "http://127.0.0.1:38013/mcp",
];

/** A fetch that counts its calls and knows which event streams are still open: not yet ended, cancelled or aborted. */
function streamTracker() {
  const open = new Set();
  const tracker = { open, fetches: 0 };
  tracker.fetch = async (url, init = {}) => {
    tracker.fetches += 1;
    const response = await fetch(url, init);
    if (!response.body || !response.headers.get("content-type")?.includes("text/event-stream")) return response;
    const stream = { method: init.method ?? "GET", body: typeof init.body === "string" ? init.body.slice(0, 80) : "" };
    open.add(stream);
    const end = () => open.delete(stream);
    init.signal?.addEventListener("abort", end);
    const reader = response.body.getReader();
    const body = new ReadableStream({
      async pull(controller) {
        const { done, value } = await reader.read().catch((error) => (end(), Promise.reject(error)));
        if (done) {
          end();
          controller.close();
        } else controller.enqueue(value);
      },
      cancel(reason) {
        end();
        return reader.cancel(reason);
      },
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  return tracker;
}

for (const url of SERVERS) {
  test(`${url}: a client let go of releases its streams`, { timeout: 30_000 }, async () => {
    const tracker = streamTracker();
    let finalized = false;
    const watch = new FinalizationRegistry(() => { finalized = true; });
    let era;
    await (async () => {
      const client = await McpClient.connect(url, { fetch: tracker.fetch });
      era = client.era;
      await client.callTool({ name: "echo", arguments: { message: "let go" } });
      watch.register(client, url);
    })();
    await sleep(100);
    assert.ok(tracker.open.size > 0, `${era}: the connection holds a stream open`);
    await collectGarbage({ rounds: 50, done: () => finalized && tracker.open.size === 0 });
    assert.ok(finalized, "the client was collected");
    assert.deepEqual([...tracker.open], [], `${era}: no stream stays open`);
    // Past the first delay before a dropped stream is opened again (about a second).
    const fetches = tracker.fetches;
    await sleep(1_500);
    assert.equal(tracker.fetches, fetches, `${era}: nothing is fetched after the client is gone`);
    assert.equal(__restReady(), false, "the primary half of the core tears a connection down alone (scripts/split/scenarios.js)");
  });
}
