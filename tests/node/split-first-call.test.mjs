// What a page's first tool call may meet, with the primary half of the core alone
// (scripts/split/scenarios.js runs the same): a larger result, and a server that notifies
// while the page waits in `notifications()`. A result long enough to stay in JS (256 KiB) loads the
// rest first: tests/node/split-large.test.mjs. In a process of its own, so the rest is not
// loaded when it starts; against server-everything over Streamable HTTP and HTTP+SSE (a
// log message) and the 2026-07-28 peer (a tool added, announced over subscriptions/listen).
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpClient } from "mcp-wasm";
import { assertPrimaryAlone } from "../support/primary-alone.mjs";

const RUNS = [
  [process.env.MCP_TEST_URL ?? "http://127.0.0.1:38011/mcp", { name: "toggle-simulated-logging", arguments: {} }],
  [process.env.MCP_SSE_TEST_URL ?? "http://127.0.0.1:38012/sse", { name: "toggle-simulated-logging", arguments: {} }],
  [process.env.MCP_MODERN_TEST_URL ?? "http://127.0.0.1:38013/mcp", { name: "add-tool", arguments: { name: `split-notify-${process.pid}` } }],
];

test("a first tool call's larger result, short of what stays in JS, is read without the rest", { timeout: 60_000 }, async () => {
  for (const [url] of RUNS) {
    const client = await McpClient.connect(url);
    for (const size of [20_000, 200_000]) {
      const result = await client.callTool({ name: "echo", arguments: { message: "y".repeat(size) } });
      assert.ok(result.content[0].text.includes("y".repeat(size)), `${url}: ${size} characters came back`);
    }
    await client.close();
    assertPrimaryAlone(`${url}: larger results`);
  }
});

test("a notification during the first tool call reaches notifications() without the rest", { timeout: 30_000 }, async () => {
  for (const [url, notifying] of RUNS) {
    const client = await McpClient.connect(url);
    const notifications = client.notifications();
    const next = notifications.next();
    assert.match((await client.callTool({ name: "echo", arguments: { message: "first" } })).content[0].text, /first/);
    await client.callTool(notifying);
    // The 2026-07-28 peer acknowledges its listen stream first.
    const methods = [(await next).value.method];
    while (!/^notifications\/(message|tools\/list_changed)$/.test(methods.at(-1)) && methods.length < 5) {
      methods.push((await notifications.next()).value.method);
    }
    assert.match(methods.at(-1), /^notifications\/(message|tools\/list_changed)$/, `${url}: ${methods}`);
    assertPrimaryAlone(`${url}: a notification`);
    await notifications.return();
    // The logging server's interval ends with its session.
    await client.close();
  }
});
