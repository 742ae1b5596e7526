// Transports under Node, through the built package: HTTP+SSE over fetch (Node
// has no EventSource) against server-everything in `sse` mode, and a
// user-supplied transport carrying MCP over a MessageChannel to a real server
// from the official TypeScript SDK running in the same process.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { MessageChannel } from "node:worker_threads";
import { McpClient } from "mcp-wasm";
import { wasmMiB } from "../support/list-memory.mjs";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";

const SSE_URL = process.env.MCP_SSE_TEST_URL ?? "http://127.0.0.1:38012/sse";
const LIMIT = { timeout: 20_000 };
const textOf = (r) => r.content.filter((c) => c.type === "text").map((c) => c.text).join("\n");

describe("HTTP+SSE (2024-11-05) under Node", () => {
  test("auto falls back to SSE and reads it over fetch", LIMIT, async () => {
    const client = await McpClient.connect(SSE_URL, { timeout: 10_000 });
    try {
      assert.equal(client.transport, "sse");
      assert.equal(client.sessionId, undefined, "HTTP+SSE has no Mcp-Session-Id");
      const result = await client.callTool({ name: "get-sum", arguments: { a: 1, b: 2 } });
      assert.match(textOf(result), /\b3\b/);
      const updates = [];
      await client.callTool({ name: "trigger-long-running-operation", arguments: { duration: 0.5, steps: 2 } },
        { onprogress: (p) => updates.push(p.progress) });
      assert.deepEqual(updates, [1, 2], "progress arrives on the event stream");
    } finally {
      await client.close();
    }
  });

  test("forcing EventSource where there is none is a clear error", LIMIT, async () => {
    await assert.rejects(McpClient.connect(SSE_URL, { transport: "sse", sseReader: "eventsource" }),
      (e) => e.name === "McpClientError" && /EventSource/.test(e.message));
  });
});

/** Wraps one MessagePort as the SDK's server Transport. */
function portServerTransport(port) {
  return {
    async start() { port.on("message", (m) => this.onmessage?.(m)); },
    async send(message) { port.postMessage(message); },
    async close() { port.close(); this.onclose?.(); },
  };
}

/** Connects `server` to one end of a MessageChannel; the client's transport over the other. */
async function channelTo(server) {
  const { port1, port2 } = new MessageChannel();
  await server.connect(portServerTransport(port2));
  return {
    start() { port1.on("message", (m) => this.onmessage?.(m)); },
    send(message) { port1.postMessage(message); },
    close() { port1.close(); },
  };
}

/** A transport over `channel` whose start() is `start`, counting its close() calls. */
function withStart(channel, start) {
  const transport = { ...channel, start, closes: 0, close() { this.closes += 1; channel.close(); } };
  return transport;
}

describe("a user transport", () => {
  test("whose start() never settles ends at connect's timeout or signal, and is let go", LIMIT, async () => {
    const server = new McpServer({ name: "sdk-over-channel", version: "1.0.0" });
    const held = withStart(await channelTo(server), () => new Promise(() => {}));
    let started = Date.now();
    await assert.rejects(McpClient.connect(held, { timeout: 300 }), (e) => e.kind === "timeout", "connect's timeout");
    assert.ok(Date.now() - started < 2_000, "at its timeout");
    await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(held.onmessage, undefined, "the client's callbacks are taken back");
    assert.equal(held.closes, 1, "the object is closed");

    const second = new McpServer({ name: "sdk-over-channel", version: "1.0.0" });
    const aborted = withStart(await channelTo(second), () => new Promise(() => {}));
    started = Date.now();
    await assert.rejects(McpClient.connect(aborted, { timeout: 30_000, signal: AbortSignal.timeout(200) }), "connect's signal");
    assert.ok(Date.now() - started < 2_000, "when its signal aborts");
    await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(aborted.onmessage, undefined);
    assert.equal(aborted.closes, 1);
    await server.close();
    await second.close();
  });

  test("whose start() fails is closed and its callbacks taken back", LIMIT, async () => {
    const server = new McpServer({ name: "sdk-over-channel", version: "1.0.0" });
    const failing = withStart(await channelTo(server), () => Promise.reject(new Error("no peer")));
    await assert.rejects(McpClient.connect(failing, { timeout: 5_000 }), (e) => e.kind === "network" && /no peer/.test(e.message));
    await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(failing.onmessage, undefined);
    assert.equal(failing.onclose, undefined);
    assert.equal(failing.closes, 1);
    await server.close();
  });

  test("carries MCP to an official SDK server over a MessageChannel", LIMIT, async () => {
    const server = new McpServer({ name: "sdk-over-channel", version: "1.0.0" });
    server.registerTool("reverse", { inputSchema: { text: z.string() } }, async ({ text }) => ({
      content: [{ type: "text", text: [...text].reverse().join("") }],
    }));
    const transport = await channelTo(server);
    const client = await McpClient.connect(transport, { timeout: 5_000 });
    try {
      assert.equal(client.transport, "custom");
      assert.equal(client.serverInfo.name, "sdk-over-channel");
      const result = await client.callTool({ name: "reverse", arguments: { text: "wasm" } });
      assert.equal(textOf(result), "msaw");
    } finally {
      await client.close();
      await server.close();
    }
  });

  test("holds its messages to maxMessageBytes, and the client goes on", LIMIT, async () => {
    const server = new McpServer({ name: "sdk-over-channel", version: "1.0.0" });
    server.registerTool("big", { inputSchema: { bytes: z.number() } }, async ({ bytes }) => ({
      content: [{ type: "text", text: "x".repeat(bytes) }],
    }));
    const transport = await channelTo(server);
    const client = await McpClient.connect(transport, { timeout: 5_000, limits: { maxMessageBytes: 64 * 1024 } });
    try {
      const started = Date.now();
      await assert.rejects(client.callTool({ name: "big", arguments: { bytes: 100_000 } }),
        (e) => e.kind === "limit-exceeded" && /maxMessageBytes/.test(e.message), "a 100 KB answer under a 64 KiB limit");
      assert.ok(Date.now() - started < 2_000, "it fails at once, not at the timeout");
      assert.equal(textOf(await client.callTool({ name: "big", arguments: { bytes: 10 } })), "xxxxxxxxxx");
    } finally {
      await client.close();
      await server.close();
    }
  });

  test("refuses a message of wide characters at maxMessageBytes without reading all of it in", LIMIT, async () => {
    const server = new McpServer({ name: "sdk-over-channel", version: "1.0.0" });
    server.registerTool("wide", { inputSchema: { count: z.number(), character: z.string().optional() } }, async ({ count, character }) => ({
      content: [{ type: "text", text: (character ?? "€").repeat(count) }],
    }));
    const transport = await channelTo(server);
    const client = await McpClient.connect(transport, { timeout: 5_000, limits: { maxMessageBytes: 4 * 2 ** 20 } });
    try {
      // 3.9 Mi characters: under the limit counted in UTF-16 units, 11.7 MiB of UTF-8.
      const count = 3.9 * 2 ** 20;
      const before = wasmMiB();
      await assert.rejects(client.callTool({ name: "wide", arguments: { count } }),
        (e) => e.kind === "limit-exceeded" && /maxMessageBytes/.test(e.message), "11.7 MiB of UTF-8 under a 4 MiB limit");
      const grew = wasmMiB() - before;
      assert.ok(grew <= 5, `wasm memory grew by ${grew} MiB: no more than the limit and a slice may be read in`);
      assert.equal(textOf(await client.callTool({ name: "wide", arguments: { count: 3 } })), "€€€");
      // Read a slice at a time, 3.6 MiB of emoji (two UTF-16 units each) arrive whole.
      const emoji = await client.callTool({ name: "wide", arguments: { count: 0.9 * 2 ** 20, character: "😀" } });
      assert.ok(textOf(emoji) === "😀".repeat(0.9 * 2 ** 20), "no surrogate pair is cut between slices");
    } finally {
      await client.close();
      await server.close();
    }
  });
});
