// Aborts that must hold after a garbage collection. In Node the client sends requests with
// redirect "error" (src/glue.js, `sendRequest`), and undici then follows the request's signal
// through a weak reference only: once a collection takes its inner Request, aborting the signal
// no longer ends the response's stream. The glue reads such a body under the signal itself.
// Against server-everything behind a pass-through proxy that counts the streams it still answers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpClient } from "mcp-wasm";
import { startRecordingProxy } from "../pack/recording-proxy.mjs";
import { collectGarbage } from "../support/gc.mjs";
import { until } from "../support/until.mjs";

const EVERYTHING = process.env.MCP_TEST_URL ?? "http://127.0.0.1:38011/mcp";
const LIMIT = { timeout: 30_000 };

// A client through the proxy, and a tool call that streams progress for 20 s, once its first
// progress has come.
async function slowCallThrough(proxy, options = {}) {
  const client = await McpClient.connect(`${proxy.origin}/gc/mcp`, { era: "legacy", timeout: 30_000 });
  await client.ping();
  const idle = proxy.open("gc");
  let progressed;
  const progress = new Promise((resolve) => (progressed = resolve));
  const slow = { name: "trigger-long-running-operation", arguments: { duration: 20, steps: 40 } };
  const call = client.callTool(slow, { ...options, onprogress: progressed });
  await progress;
  assert.equal(proxy.open("gc"), idle + 1, "the call's stream is open");
  return { client, call, idle };
}

test("close() after a collection ends a call's stream and the GET stream", LIMIT, async () => {
  const proxy = await startRecordingProxy(EVERYTHING);
  try {
    const { client, call } = await slowCallThrough(proxy);
    const failed = assert.rejects(call, { name: "McpClientError", kind: "closed" });
    await collectGarbage({ rounds: 5 });
    const started = Date.now();
    await client.close();
    await failed;
    await until(() => proxy.open("gc") === 0, "every stream the client opened is closed");
    assert.ok(Date.now() - started < 3000);
  } finally {
    await proxy.close();
  }
});

test("aborting a call after a collection ends its stream, and the client goes on", LIMIT, async () => {
  const proxy = await startRecordingProxy(EVERYTHING);
  try {
    const controller = new AbortController();
    const { client, call, idle } = await slowCallThrough(proxy, { signal: controller.signal });
    await collectGarbage({ rounds: 5 });
    controller.abort();
    await assert.rejects(call);
    await until(() => proxy.open("gc") === idle, "the call's stream is closed");
    const echoed = await client.callTool({ name: "echo", arguments: { message: "after" } });
    assert.match(echoed.content[0].text, /after/);
    await client.close();
    await until(() => proxy.open("gc") === 0, "every stream is closed");
  } finally {
    await proxy.close();
  }
});
