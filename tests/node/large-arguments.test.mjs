// Large tool arguments go out as the text JSON.stringify wrote (jsonrpc::Params::Text), against
// servers we did not write: server-everything over Streamable HTTP and HTTP+SSE, and the
// 2026-07-28 peer on @modelcontextprotocol/server 2.x. The proof that the text was not parsed and
// written again is a number as JS writes it (123456789012345680000: parsed and written again, it
// comes out as 1.2345678901234567e+20); the progress token and the modern `_meta` are written into
// that text, and the servers act on them.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { McpClient } from "mcp-wasm";
import { startPeer } from "../support/peer-process.mjs";

const MCP_URL = process.env.MCP_TEST_URL ?? "http://127.0.0.1:38011/mcp";
const SSE_URL = process.env.MCP_SSE_TEST_URL ?? "http://127.0.0.1:38012/sse";
const LIMIT = { timeout: 30_000 };

// About 1.3 MiB on the wire, with what JSON escapes and what UTF-8 spends more than a byte on.
const MESSAGE = Array.from({ length: 40_000 }, (_, i) => `${i} "é\\ ✓\t`).join("\n");
const textOf = (result) => result.content.filter((c) => c.type === "text").map((c) => c.text).join("");

/** A fetch that keeps the bodies of the tools/call requests it sends. */
function recording() {
  const bodies = [];
  const record = (input, init) => {
    if (typeof init?.body === "string" && init.body.includes('"tools/call"')) bodies.push(init.body);
    return fetch(input, init);
  };
  return { fetch: record, bodies };
}

async function echoes(url, options = {}) {
  const { fetch, bodies } = recording();
  const client = await McpClient.connect(url, { timeout: 20_000, fetch, ...options });
  try {
    const result = await client.callTool({ name: "echo", arguments: { message: MESSAGE, n: 123456789012345680000 } });
    assert.equal(textOf(result), `Echo: ${MESSAGE}`, "the message arrives whole");
    const body = bodies.at(-1);
    assert.ok(body.includes(`"arguments":${JSON.stringify({ message: MESSAGE, n: 123456789012345680000 })}`), "the arguments went out as JS wrote them");
    assert.ok(body.includes('"n":123456789012345680000}'), "the number as JS wrote it: the text was not parsed and written again");
    return { client, body };
  } catch (error) {
    await client.close();
    throw error;
  }
}

describe("large tool arguments go out as their JSON text", () => {
  test("Streamable HTTP: server-everything echoes them, and reports progress on a large call", LIMIT, async () => {
    const { client } = await echoes(MCP_URL);
    try {
      const { fetch, bodies } = recording();
      const tracked = await McpClient.connect(MCP_URL, { timeout: 20_000, fetch });
      try {
        const updates = [];
        await tracked.callTool({ name: "trigger-long-running-operation", arguments: { duration: 0.4, steps: 2, pad: MESSAGE } },
          { onprogress: (p) => updates.push(p.progress) });
        assert.deepEqual(updates, [1, 2], "the progress token written into the text reached the server");
        assert.ok(/\\t"\},"_meta":\{"progressToken":\d+\}\}\}$/.test(bodies.at(-1)), "at the end of params, where parsing would put it");
      } finally {
        await tracked.close();
      }
    } finally {
      await client.close();
    }
  });

  test("request() sends large params as their text too", LIMIT, async () => {
    const { fetch, bodies } = recording();
    const client = await McpClient.connect(MCP_URL, { timeout: 20_000, fetch });
    try {
      const params = { name: "echo", arguments: { message: MESSAGE, n: 123456789012345680000 } };
      const result = await client.request("tools/call", params);
      assert.equal(textOf(result), `Echo: ${MESSAGE}`);
      assert.ok(bodies.at(-1).includes(`"params":${JSON.stringify(params)}`), "the params went out as JS wrote them");
    } finally {
      await client.close();
    }
  });

  test("HTTP+SSE: server-everything echoes them", LIMIT, async () => {
    const { client } = await echoes(SSE_URL);
    assert.equal(client.transport, "sse");
    await client.close();
  });

  describe("2026-07-28", () => {
    let modern;
    before(async () => {
      modern = await startPeer("tests/peers/modern-server.mjs", { args: ["modern"] });
    });
    after(() => modern?.child.kill());

    test("the modern peer echoes them, with the client's _meta written into the text", LIMIT, async () => {
      const { client, body } = await echoes(`${modern.origin}/mcp`);
      try {
        assert.equal(client.era, "modern");
        assert.ok(/\},"_meta":\{"io\.modelcontextprotocol\/protocolVersion":"2026-07-28"/.test(body), "the modern _meta follows the arguments");
      } finally {
        await client.close();
      }
    });

    test("with progress too, both _meta members go into the one text", LIMIT, async () => {
      const { fetch, bodies } = recording();
      const client = await McpClient.connect(`${modern.origin}/mcp`, { timeout: 20_000, fetch });
      try {
        const updates = [];
        const result = await client.callTool({ name: "slow", arguments: { steps: 2, pad: MESSAGE, n: 123456789012345680000 } },
          { onprogress: (p) => updates.push(p.progress) });
        assert.equal(textOf(result), "slow: 2 steps done");
        assert.equal(updates.length, 2, "the progress token in the text reached the server");
        const body = bodies.at(-1);
        assert.ok(body.includes('"n":123456789012345680000}'), "still the text JS wrote");
        assert.ok(/"io\.modelcontextprotocol\/clientInfo":\{[^}]*\}(,"io\.modelcontextprotocol\/logLevel":"[a-z]+")?,"progressToken":\d+\}\}\}$/.test(body),
          "the progress token last in the modern _meta");
      } finally {
        await client.close();
      }
    });
  });
});
